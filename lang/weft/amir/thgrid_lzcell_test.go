package amir

import (
	"fmt"
	"testing"
)

// TestLazyToCellsMatchEager: a whole variable's lazy record moved to its
// cells at gridCompare and its slabs' copies dropped at deferral
// (thgrid_lzcell.go, stop 33) change nothing in the Result but the memory
// estimate and SkippedOps. Programs of the block grid generators
// (randomBlockProgram, plain and edge form: the host's copy into D before
// the nests and out of it after, D written by the CTA or a lane, events
// by a lane, a pair, a warp or the CTA between the phases) and of
// hostRegionProgram, with lazy records at every size (lazyCellsMin 1) or
// at 64 cells, and the one-thread grid programs of randomGridProgram,
// run with the move, without it (noLazyToCells: the record made at
// gridCompare, the code before) and without grid symmetry, twice on one
// machine.
func TestLazyToCellsMatchEager(t *testing.T) {
	defer func(n int) { lazyCellsMin = n }(lazyCellsMin)
	var moved, kept, hazards int64
	progs := []func(seed int64) *Program{
		func(seed int64) *Program { return randomBlockProgram(seed, false) },
		func(seed int64) *Program { return randomBlockProgram(seed, true) },
		hostRegionProgram,
		randomGridProgram,
	}
	for k, prog := range progs {
		for seed := int64(0); seed < 1200; seed++ {
			lazyCellsMin = []int{1, 64}[seed%2]
			ms := [3]*Machine{}
			for i := range ms {
				ms[i] = New(prog(seed), Config{MaxHazards: 100})
			}
			ms[1].noLazyToCells = true
			ms[2].noGrid = true
			if runWays(t, fmt.Sprintf("generator %d seed %d", k, seed), ms[:], []string{"moved", "made ", "full "}) {
				hazards++
			}
			moved += ms[0].lazyToCells
			kept += ms[0].lzSlabKept
		}
	}
	t.Logf("%d lazy records moved to cells, %d slab copies compared deferred, %d programs with hazards", moved, kept, hazards)
	if moved < 1000 || kept < 5000 || hazards < 500 {
		t.Fatalf("weak coverage: %d lazy records moved, %d slab copies compared deferred, %d programs with hazards", moved, kept, hazards)
	}
}
