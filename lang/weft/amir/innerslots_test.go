package amir

import (
	"slices"
	"testing"
)

// TestInnerSlotsMatchWalk: setInnerSlots (one bottom-up walk) gives each
// loop the set of slots of the loops inside its body that a walk of its
// subtree finds, on every random program of the grid, thread-symmetry,
// replay and group tests.
func TestInnerSlotsMatchWalk(t *testing.T) {
	gens := []func(int64) *Program{randomGridProgram, randomThreadSymProgram, randomReplayProgram, randomGroupProgram}
	loops := 0
	for k, gen := range gens {
		for seed := int64(0); seed < 300; seed++ {
			p := gen(seed)
			Walk(p.Body, func(s *Stmt) {
				if s.Kind != KLoop {
					return
				}
				var want []int
				for _, b := range s.Body {
					Walk(b, func(u *Stmt) {
						if u.Kind == KLoop && !slices.Contains(want, u.Slot) {
							want = append(want, u.Slot)
						}
					})
				}
				got := slices.Clone(s.innerSlots)
				slices.Sort(got)
				slices.Sort(want)
				if !slices.Equal(got, want) {
					t.Fatalf("generator %d seed %d: loop of slot %d: innerSlots %v, walk %v", k, seed, s.Slot, got, want)
				}
				loops++
			})
		}
	}
	if loops < 1000 {
		t.Fatalf("weak coverage: %d loops", loops)
	}
}
