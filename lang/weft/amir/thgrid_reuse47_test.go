package amir

import (
	"fmt"
	"testing"
)

// TestGridReuseSame: reusing a grid frame no deferred slab holds
// (thgrid_mem.go, stop 47) changes nothing: random grid and block grid
// programs, deferred and eager, run twice on one machine with reuse and
// on another without it (gridNoReuse); every Result must be identical.
// Reusing a frame a deferred slab holds (gridFree without its kept test)
// fails it.
func TestGridReuseSame(t *testing.T) {
	gridReuseCheck, gridReused = true, 0
	defer func() { gridReuseCheck, gridNoReuse = false, false }()
	gens := []func(int64) *Program{
		randomGridProgram,
		func(seed int64) *Program { return randomBlockProgram(seed, false) },
		func(seed int64) *Program { return randomBlockProgram(seed, true) },
	}
	hazards := 0
	for k, gen := range gens {
		for seed := int64(0); seed < 700; seed++ {
			for _, deferSlabs := range []bool{true, false} {
				m1, m2 := New(gen(seed), Config{MaxHazards: 100}), New(gen(seed), Config{MaxHazards: 100})
				m1.gridDefer, m2.gridDefer = deferSlabs, deferSlabs
				for rep := 0; rep < 2; rep++ {
					gridNoReuse = false
					r1 := fmt.Sprintf("%+v", *m1.Run(nil))
					gridNoReuse = true
					r2 := fmt.Sprintf("%+v", *m2.Run(nil))
					if r1 != r2 {
						t.Fatalf("generator %d seed %d defer %v run %d:\nreuse %s\nnew   %s", k, seed, deferSlabs, rep, r1, r2)
					}
					if rep == 0 && deferSlabs && m1.res.Distinct > 0 {
						hazards++
					}
				}
			}
		}
	}
	t.Logf("%d frames reused, %d programs with hazards", gridReused, hazards)
	if gridReused < 5000 || hazards < 300 {
		t.Fatalf("weak coverage: %d frames reused, %d programs with hazards", gridReused, hazards)
	}
}
