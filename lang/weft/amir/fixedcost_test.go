package amir

import (
	"math/rand"
	"slices"
	"testing"

	"weft.dev/weft/lang/weft/coll"
)

// TestAppendThreads32 pins New's own thread enumeration (issue 13, stop
// 26) to coll.Collective.AppendThreads: the same threads in the same
// order, for random collectives of up to MaxRuns runs (a single thread,
// counts of 1 and decreasing strides included).
func TestAppendThreads32(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for n := 0; n < 2000; n++ {
		var c coll.Collective
		c.Start = rng.Intn(300)
		c.N = rng.Intn(coll.MaxRuns + 1)
		stride := 1
		for i := c.N - 1; i >= 0; i-- {
			cnt := 1 + rng.Intn(4)
			c.Runs[i] = coll.Run{Count: cnt, Stride: stride}
			stride *= cnt + rng.Intn(3)
		}
		want := c.AppendThreads(nil)
		prefix := []int32{7, 9}
		got := appendThreads32(slices.Clone(prefix), &c)
		if len(got) != len(prefix)+len(want) || got[0] != 7 || got[1] != 9 {
			t.Fatalf("%+v: got %v, want %v after the prefix", c, got, want)
		}
		for i, w := range want {
			if got[len(prefix)+i] != int32(w) {
				t.Fatalf("%+v: thread %d is %d, want %d", c, i, got[len(prefix)+i], w)
			}
		}
	}
}
