package amir

import (
	"fmt"
	"strings"
	"testing"
)

// runWays runs each machine twice (a second Run of the same machine must
// give the same Result) and fails unless every machine's Result equals
// the last one's (the plain path: the others are fast paths, or the same
// with one of them switched off); names label the machines in the
// failure, label the program. It reports whether the first run of the
// first machine found a hazard. Shared by the grid tests' differential
// loops (TestLazyToCellsMatchEager, TestGridPointsShared,
// TestLazyRegionsMatchEager).
func runWays(t *testing.T, label string, ms []*Machine, names []string) (hazard bool) {
	t.Helper()
	out := make([]string, len(ms))
	for rep := 0; rep < 2; rep++ {
		for i, m := range ms {
			r := *m.Run(nil)
			r.Stats.Memory, r.Stats.SkippedOps = 0, 0
			out[i] = fmt.Sprintf("%+v", r)
			if i == 0 && rep == 0 && r.Distinct > 0 {
				hazard = true
			}
		}
		plain := out[len(out)-1]
		for i := range out[:len(out)-1] {
			if out[i] != plain {
				var b strings.Builder
				for j := range out {
					fmt.Fprintf(&b, "\n%s %s", names[j], out[j])
				}
				t.Fatalf("%s run %d:%s", label, rep, b.String())
			}
		}
	}
	return hazard
}
