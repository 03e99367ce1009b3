package amir

import (
	"fmt"
	"testing"
)

// runThreeWays runs the three machines twice each (a second Run of the
// same machine must give the same Result) and fails unless the first two
// (a fast path, and the same with it switched off) give the third's
// Result (the plain path); names label the three in the failure. It
// reports whether the first run of the first machine found a hazard.
// Shared by the grid tests' differential loops (TestLazyToCellsMatchEager,
// TestGridPointsShared).
func runThreeWays(t *testing.T, k int, seed int64, ms [3]*Machine, names [3]string) (hazard bool) {
	t.Helper()
	for rep := 0; rep < 2; rep++ {
		var out [3]string
		for i, m := range ms {
			r := *m.Run(nil)
			r.Stats.Memory, r.Stats.SkippedOps = 0, 0
			out[i] = fmt.Sprintf("%+v", r)
			if i == 0 && rep == 0 && r.Distinct > 0 {
				hazard = true
			}
		}
		if out[0] != out[2] || out[1] != out[2] {
			t.Fatalf("generator %d seed %d run %d:\n%s %s\n%s %s\n%s %s", k, seed, rep, names[0], out[0], names[1], out[1], names[2], out[2])
		}
	}
	return hazard
}
