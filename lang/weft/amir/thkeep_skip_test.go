package amir

import (
	"fmt"
	"testing"
)

// TestKeepSkipMatchesWalk: a kept check (thkeep.go, "checks already
// walked", issue 13 stop 32) counts its cells instead of walking them
// again; the Result is that of the same run walking them
// (thsymNoKeepSkip) and of a run with no symmetry, on the programs of
// TestThreadSymKeepMatchesMaterialized (per_cta_alloc's form: whole-tile
// checks of every level by every kind of thread set, alone and in runs
// with records, after row loops that leave virtual slices).
func TestKeepSkipMatchesWalk(t *testing.T) {
	var skips, keeps int64
	hazards := 0
	for seed := int64(0); seed < 3000; seed++ {
		d := newDiff(func() *Program { return randomKeepProgram(seed) }, []string{"skip", "walk", "full"}, func(i int, m *Machine) {
			if i == 1 {
				m.thsymNoKeepSkip = true
			} else {
				m.noThreadSym = true
			}
		})
		if r := d.runs(t, fmt.Sprintf("seed %d", seed)); r.Distinct > 0 {
			hazards++
		}
		if d.ms[1].thKeepSkips != 0 || d.ms[2].thKeepSkips != 0 {
			t.Fatalf("seed %d: the reference runs skipped a walk", seed)
		}
		skips += d.ms[0].thKeepSkips
		keeps += d.ms[0].thKeeps
	}
	t.Logf("%d walks skipped of %d statements kept, %d programs with hazards", skips, keeps, hazards)
	if skips < 2000 || hazards < 300 {
		t.Fatalf("weak coverage: %d walks skipped, %d programs with hazards", skips, hazards)
	}
}
