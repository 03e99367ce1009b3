package amir

import (
	"math/rand"
	"testing"

	"weft.dev/weft/lang/weft/coll"
)

// TestFrameCountMatchesLoop: frameCount (by arithmetic where the thread
// set's shape is dense) counts what testing each of the frame's threads
// with contains counts, for random thread sets (dense and strided
// shapes, all tasks, other tasks) and frames (any start, step and size).
func TestFrameCountMatchesLoop(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	p := &Program{}
	for n := 1; n <= 70; n++ {
		p.AddShape(coll.Collective{N: 1, Runs: [coll.MaxRuns]coll.Run{{Count: n, Stride: 1}}})
	}
	for i := 0; i < 60; i++ {
		var c coll.Collective
		c.N = 1
		for k := 0; k < 1+rng.Intn(2); k++ {
			c.Runs[k] = coll.Run{Count: 1 + rng.Intn(8), Stride: 1 + rng.Intn(9)}
		}
		p.AddShape(c)
	}
	m := New(p, Config{})
	dense := 0
	for i := 0; i < 200000; i++ {
		ts := threads{task: int32(rng.Intn(3)) - 1, start: int32(rng.Intn(80)), shape: int32(rng.Intn(len(p.Shapes)))}
		f := &thFrame{task: int32(rng.Intn(2)), r0: int32(rng.Intn(90)), step: int32(1 + rng.Intn(6)), n: int32(1 + rng.Intn(40))}
		want := int32(0)
		for j := int32(0); j < f.n; j++ {
			if m.contains(ts, f.task, f.r0+j*f.step) {
				want++
			}
		}
		if got := m.frameCount(ts, f); got != want {
			t.Fatalf("threads %+v (shape %+v), frame %+v: %d, want %d", ts, p.Shapes[ts.shape], *f, got, want)
		}
		if m.dense[ts.shape] > 0 && ts.task == f.task && want > 0 && want < f.n {
			dense++
		}
	}
	if dense < 1000 {
		t.Fatalf("only %d partial counts on dense shapes", dense)
	}
}
