package amir

import (
	"fmt"
	"testing"
)

// TestLazyCellsMatchEager: deferring the records of a statement that
// records every empty cell of a variable (lazycells.go) changes nothing
// in the Result but the memory estimate. The random programs of the
// other differential tests run with and without the deferral, twice on
// one machine, deferring variables of any size (so that their small
// variables exercise it); the whole Result must be identical. Some
// deferred records are never made (the run ends first).
func TestLazyCellsMatchEager(t *testing.T) {
	defer func(n int) { lazyCellsMin = n }(lazyCellsMin)
	lazyCellsMin = 1
	gens := []struct {
		name string
		gen  func(int64) *Program
	}{
		// The generators whose host writes of a whole variable
		// (b.write(host, at(x), ...)) are deferred.
		{"grid", randomGridProgram},
		{"group", randomGroupProgram},
		// Host reads of the whole of variables that hold records
		// (virtual or not), deferred over them (stop 30).
		{"keep", randomKeepProgram},
		{"private", randomPrivateThreadSymProgram},
	}
	var taken, made int64
	for _, g := range gens {
		var gt, gm int64
		hazards := 0
		for seed := int64(0); seed < 2000; seed++ {
			m1 := New(g.gen(seed), Config{MaxHazards: 100})
			m2 := New(g.gen(seed), Config{MaxHazards: 100})
			m2.noLazyCells = true
			for rep := 0; rep < 2; rep++ {
				r1, r2 := *m1.Run(nil), *m2.Run(nil)
				r1.Stats.Memory, r2.Stats.Memory = 0, 0
				a, b := fmt.Sprintf("%+v", r1), fmt.Sprintf("%+v", r2)
				if a != b {
					t.Fatalf("%s seed %d run %d:\nlazy  %s\neager %s", g.name, seed, rep, a, b)
				}
				if rep == 0 && r1.Distinct > 0 {
					hazards++
				}
			}
			if m2.lazyTaken != 0 {
				t.Fatalf("%s seed %d: deferred with lazy cells off", g.name, seed)
			}
			gt += m1.lazyTaken
			gm += m1.lazyMade
		}
		t.Logf("%s: %d deferred, %d made, %d of 2000 programs with hazards", g.name, gt, gm, hazards)
		taken += gt
		made += gm
	}
	if taken < 1500 || made < 1000 || made == taken {
		t.Fatalf("weak coverage: %d deferred, %d made", taken, made)
	}
}
