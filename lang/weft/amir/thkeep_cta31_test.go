package amir

import (
	"math/rand"
	"testing"
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
