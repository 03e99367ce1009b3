package amir

import (
	"fmt"
	"testing"
)

// TestGridPointsShared: a grid nest's entries that take the last entry's
// points (thgrid_pts.go, stop 33) give the Result of entries that make
// their own (noGridPtsShare) and of the run without grid symmetry, on the
// one-thread grid programs (randomGridProgram: nests in loops of one or
// more rounds, several tasks, events between the entries; with gridVaryN,
// nests whose points change from one entry to the next) and the block
// grid programs (randomBlockProgram, plain and edge form: each phase's
// nest entered once per iteration of its sequential loop), twice on one
// machine.
func TestGridPointsShared(t *testing.T) {
	var shared, hazards int64
	defer func() { gridVaryN = false }()
	progs := []func(seed int64) *Program{
		randomGridProgram,
		func(seed int64) *Program {
			gridVaryN = true
			defer func() { gridVaryN = false }()
			return randomGridProgram(seed)
		},
		func(seed int64) *Program { return randomBlockProgram(seed, false) },
		func(seed int64) *Program { return randomBlockProgram(seed, true) },
	}
	for k, prog := range progs {
		for seed := int64(0); seed < 800; seed++ {
			ms := [3]*Machine{}
			for i := range ms {
				ms[i] = New(prog(seed), Config{MaxHazards: 100})
			}
			ms[1].noGridPtsShare = true
			ms[2].noGrid = true
			if runWays(t, fmt.Sprintf("generator %d seed %d", k, seed), ms[:], []string{"shared", "made  ", "full  "}) {
				hazards++
			}
			shared += ms[0].gridPtsShared
		}
	}
	t.Logf("%d entries took the last entry's points, %d programs with hazards", shared, hazards)
	if shared < 5000 || hazards < 1000 {
		t.Fatalf("weak coverage: %d entries took the last entry's points, %d programs with hazards", shared, hazards)
	}
}
