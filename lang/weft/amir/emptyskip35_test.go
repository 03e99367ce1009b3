package amir

import (
	"fmt"
	"testing"
)

// TestEmptySkipMatchesWalk: a check or a clear that skips the cells of a
// variable with no record since its allocation (checkCells, clearCells,
// execMembers; varState.hasRecs) changes nothing in the Result. The random programs of amir's tests
// (replay, groups, grid, block grids in both forms, thread symmetry,
// private symmetry, memo, kept checks, task loops, lazy classes, hoisted
// loops, host regions, replay classes) run with the skip and with every check walking its cells, twice
// each (the second run reuses the machine's state).
func TestEmptySkipMatchesWalk(t *testing.T) {
	gens := randomGens()
	var skips int64
	hazards := 0
	for g, gen := range gens {
		for seed := int64(0); seed < 400; seed++ {
			m1 := New(gen(seed), Config{MaxHazards: 100})
			m2 := New(gen(seed), Config{MaxHazards: 100})
			m2.noEmptySkip = true
			for rep := 0; rep < 2; rep++ {
				r1, r2 := *m1.Run(nil), *m2.Run(nil)
				r1.Stats.Memory, r2.Stats.Memory = 0, 0
				r1.Stats.SkippedOps, r2.Stats.SkippedOps = 0, 0
				a, b := fmt.Sprintf("%+v", r1), fmt.Sprintf("%+v", r2)
				if a != b {
					t.Fatalf("generator %d seed %d run %d:\nskipping %s\nwalking  %s", g, seed, rep, a, b)
				}
				if rep == 0 && r1.Distinct > 0 {
					hazards++
				}
			}
			skips += m1.emptySkips
			if m2.emptySkips != 0 {
				t.Fatalf("generator %d seed %d: %d skips with noEmptySkip", g, seed, m2.emptySkips)
			}
		}
	}
	t.Logf("%d checks and clears skipped, %d programs with hazards", skips, hazards)
	if skips < 1000 || hazards < 500 {
		t.Fatalf("weak coverage: %d checks and clears skipped, %d programs with hazards", skips, hazards)
	}
}
