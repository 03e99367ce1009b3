package amir

import (
	"fmt"
	"testing"
)

// TestRigidCountCacheMatchesPlain: the cells a dead statement's count
// leaves in its Access's cache (rigidCount, issue 13 stop 36) change
// nothing in the Result. amir's random programs (those of
// TestEmptySkipMatchesWalk) run with the cache and without it, twice each
// (the second run reuses the machine's state).
func TestRigidCountCacheMatchesPlain(t *testing.T) {
	t.Cleanup(func() { rigidNoCountCache, rigidCountSets = false, nil })
	gens := randomGens()
	var sets int64
	hazards := 0
	for g, gen := range gens {
		for seed := int64(0); seed < 300; seed++ {
			m1 := New(gen(seed), Config{MaxHazards: 100})
			m2 := New(gen(seed), Config{MaxHazards: 100})
			for rep := 0; rep < 2; rep++ {
				rigidNoCountCache, rigidCountSets = false, &sets
				r1 := *m1.Run(nil)
				rigidNoCountCache, rigidCountSets = true, nil
				r2 := *m2.Run(nil)
				r1.Stats.Memory, r2.Stats.Memory = 0, 0
				a, b := fmt.Sprintf("%+v", r1), fmt.Sprintf("%+v", r2)
				if a != b {
					t.Fatalf("generator %d seed %d run %d:\ncached %s\nplain  %s", g, seed, rep, a, b)
				}
				if rep == 0 && r1.Distinct > 0 {
					hazards++
				}
			}
		}
	}
	t.Logf("%d cell caches left by dead statements, %d programs with hazards", sets, hazards)
	if sets < 10000 || hazards < 500 {
		t.Fatalf("weak coverage: %d caches, %d programs with hazards", sets, hazards)
	}
}
