package amir

import (
	"fmt"
	"testing"
)

// TestGridMoveMatchesFresh: grid entries whose layout is the last entry's
// moved by the outer loops' steps (thgrid_move.go) give the layout made
// from scratch at every one (gridMoveVerify) and the Result of runs that
// make every layout (noGridMove) and of runs without grids, on every
// random program generator of the package (the grid and block-grid ones
// with and without gridVaryN's changing ranges).
func TestGridMoveMatchesFresh(t *testing.T) {
	var moved, hazards int64
	defer func() { gridVaryN = false }()
	gens := append(randomGens(), func(seed int64) *Program {
		gridVaryN = true
		defer func() { gridVaryN = false }()
		return randomGridProgram(seed)
	})
	for k, prog := range gens {
		for seed := int64(0); seed < 400; seed++ {
			ms := [3]*Machine{}
			for i := range ms {
				ms[i] = New(prog(seed), Config{MaxHazards: 100})
			}
			ms[0].gridMoveVerify = true
			ms[1].noGridMove = true
			ms[2].noGrid = true
			label := fmt.Sprintf("generator %d seed %d", k, seed)
			if runWays(t, label, ms[:], []string{"moved", "made ", "full "}) {
				hazards++
			}
			if ms[0].gridMoveBad != 0 {
				t.Fatalf("%s: %d moved layouts differ from the ones made", label, ms[0].gridMoveBad)
			}
			if ms[1].gridMoved != 0 {
				t.Fatalf("%s: noGridMove moved %d layouts", label, ms[1].gridMoved)
			}
			moved += ms[0].gridMoved
		}
	}
	t.Logf("%d moved layouts, %d programs with hazards", moved, hazards)
	if moved < 5000 || hazards < 1000 {
		t.Fatalf("weak coverage: %d moved layouts, %d programs with hazards", moved, hazards)
	}
}
