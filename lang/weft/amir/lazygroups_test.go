package amir

import (
	"fmt"
	"testing"
)

// TestLazyGroupsMatchEager: deferring the thread groups recorded on empty
// cells (lazygroups.go) changes nothing in the Result but the memory
// estimate. The random programs with thread groups (TMA-like accesses by
// 16 or more threads, events that expand groups, grid symmetry over the
// groups' threads) run with and without the deferral, twice on one
// machine; some deferred groups are never made.
func TestLazyGroupsMatchEager(t *testing.T) {
	gens := []struct {
		name  string
		gen   func(int64) *Program
		setup func(bool)
	}{
		{"replay", randomReplayProgram, nil},
		{"group", randomGroupProgram, nil},
		{"grid-warp", randomGridProgram, func(on bool) { gridWarpRecs = on }},
		{"grid-warp-events", randomGridProgram, func(on bool) { gridWarpRecs, gridEvents = on, on }},
	}
	var taken, made int64
	for _, g := range gens {
		if g.setup != nil {
			g.setup(true)
		}
		var gt, gm int64
		hazards := 0
		for seed := int64(0); seed < 1500; seed++ {
			m1 := New(g.gen(seed), Config{MaxHazards: 100})
			m2 := New(g.gen(seed), Config{MaxHazards: 100})
			m2.noLazyGroups = true
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
			gt += m1.lzTaken
			gm += m1.lzMade
		}
		if g.setup != nil {
			g.setup(false)
		}
		t.Logf("%s: %d groups deferred, %d made, %d of 1500 programs with hazards", g.name, gt, gm, hazards)
		taken += gt
		made += gm
	}
	if taken < 5000 || made < 2000 || made == taken {
		t.Fatalf("weak coverage: %d deferred, %d made", taken, made)
	}
}
