package amir

import (
	"math/rand"
	"testing"

	"weft.dev/weft/lang/weft/coll"
)

// TestFrameInMatchesCount: frameIn's arithmetic for range shapes (stop
// 31) counts the same threads of a frame as testing each thread with
// contains, on random frames (steps 1-5, starts on either side of the
// range, frames longer than it) and range or bitmap shapes.
func TestFrameInMatchesCount(t *testing.T) {
	rng := rand.New(rand.NewSource(31))
	m := &Machine{}
	for i := 0; i < 8; i++ {
		n := int32(1 + rng.Intn(70))
		m.dense = append(m.dense, n)
		m.member = append(m.member, nil)
	}
	for i := 0; i < 4; i++ {
		bm := make([]uint64, 2)
		bm[0], bm[1] = rng.Uint64(), rng.Uint64()
		m.dense = append(m.dense, 0)
		m.member = append(m.member, bm)
	}
	arith := 0
	for k := 0; k < 200000; k++ {
		f := &thFrame{task: 1, r0: int32(rng.Intn(160)), step: int32(1 + rng.Intn(5)), n: int32(1 + rng.Intn(40))}
		gs := threads{task: 1, start: int32(rng.Intn(200)), shape: int32(rng.Intn(len(m.dense)))}
		want := int32(0)
		for j := int32(0); j < f.n; j++ {
			if m.contains(gs, f.task, f.r0+j*f.step) {
				want++
			}
		}
		if got := m.frameIn(gs, f); got != want {
			t.Fatalf("frame %+v threads %+v (dense %d): frameIn %d, want %d", *f, gs, m.dense[gs.shape], got, want)
		}
		if m.dense[gs.shape] > 0 && want > 0 && want < f.n {
			arith++
		}
	}
	if arith < 1000 {
		t.Fatalf("weak coverage: %d partial counts by arithmetic", arith)
	}
}

// TestAppendThreads32Large is TestAppendThreads32 with runs of up to 300
// threads (New's loop over the last run, stop 31), a last run of stride
// 1 to 3, and runs of no thread (left to coll).
func TestAppendThreads32Large(t *testing.T) {
	rng := rand.New(rand.NewSource(31))
	for n := 0; n < 3000; n++ {
		var c coll.Collective
		c.Start = rng.Intn(300)
		c.N = rng.Intn(coll.MaxRuns + 1)
		stride := 1 + rng.Intn(3) // the last run's stride too
		for i := c.N - 1; i >= 0; i-- {
			cnt := 1 + rng.Intn(300>>uint(c.N))
			if rng.Intn(50) == 0 {
				cnt = 0
			}
			c.Runs[i] = coll.Run{Count: cnt, Stride: stride}
			stride *= max(cnt, 1) + rng.Intn(3)
		}
		want := c.AppendThreads(nil)
		got := appendThreads32([]int32{5}, &c)
		if len(got) != 1+len(want) || got[0] != 5 {
			t.Fatalf("%+v: %d threads, want %d after the prefix", c, len(got)-1, len(want))
		}
		for i, w := range want {
			if got[1+i] != int32(w) {
				t.Fatalf("%+v: thread %d is %d, want %d", c, i, got[1+i], w)
			}
		}
	}
}
