package amir

import (
	"slices"
	"testing"
)

// TestInnerSlotsMatchWalk: finishLoops (one bottom-up walk) gives each
// loop with hoisted plans the set of slots of the loops inside its body
// that a walk of its subtree finds, on every random program of the grid,
// thread-symmetry, replay, group and hoisting tests. (Only the hoisted
// plans read the set: a loop without them keeps it empty, stop 35.)
func TestInnerSlotsMatchWalk(t *testing.T) {
	gens := []func(int64) *Program{randomGridProgram, randomThreadSymProgram, randomReplayProgram, randomGroupProgram, randomLoopProgram}
	loops := 0
	for k, gen := range gens {
		for seed := int64(0); seed < 300; seed++ {
			p := gen(seed)
			Walk(p.Body, func(s *Stmt) {
				if s.Kind != KLoop || len(s.hoist) == 0 && len(s.hoistGS) == 0 {
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
	t.Logf("%d loops with hoisted plans", loops)
	if loops < 300 {
		t.Fatalf("weak coverage: %d loops", loops)
	}
}
