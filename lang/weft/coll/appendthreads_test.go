package coll

import (
	"math/rand"
	"testing"
)

// TestAppendThreadsLastRunLoop pins AppendThreadsTo's loop over the last
// run (stop 31) to the plain odometer: the same threads in the same
// order after a prefix, as ints and as int32s, for random collectives of
// up to MaxRuns runs with small counts (a single thread, counts of 1) and
// with runs of up to 300 threads, a last run of stride 1 to 3, and now and
// then a run of no thread (which takes the odometer).
func TestAppendThreadsLastRunLoop(t *testing.T) {
	rng := rand.New(rand.NewSource(31))
	for n := 0; n < 5000; n++ {
		large := n%2 == 1
		var c Collective
		c.Start = rng.Intn(300)
		c.N = rng.Intn(MaxRuns + 1)
		stride := 1
		if large {
			stride += rng.Intn(3)
		}
		for i := c.N - 1; i >= 0; i-- {
			cnt := 1 + rng.Intn(4)
			if large {
				cnt = 1 + rng.Intn(300>>uint(c.N))
				if rng.Intn(50) == 0 {
					cnt = 0
				}
			}
			c.Runs[i] = Run{Count: cnt, Stride: stride}
			stride *= max(cnt, 1) + rng.Intn(3)
		}
		want := appendThreadsOdometer([]int32{7, 9}, &c)
		got := AppendThreadsTo([]int32{7, 9}, &c)
		if len(got) != len(want) {
			t.Fatalf("%+v: %d threads, want %d", c, len(got)-2, len(want)-2)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("%+v: entry %d is %d, want %d", c, i, got[i], want[i])
			}
		}
		ints := c.AppendThreads(nil)
		if len(ints) != len(want)-2 || (len(ints) > 0 && int32(ints[len(ints)-1]) != want[len(want)-1]) {
			t.Fatalf("%+v: AppendThreads gives %d threads, want %d", c, len(ints), len(want)-2)
		}
	}
}
