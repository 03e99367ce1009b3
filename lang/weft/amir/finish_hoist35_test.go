package amir

import (
	"slices"
	"testing"
)

// TestMayHoistSkipsOnlyUnplanned: Finish lists no hoisted accesses or g_s
// plans for a loop of constant bounds with fewer than hoistMinTrips
// iterations (mayHoist, issue 13, stop 35), because the machine never
// plans them there. With the lists of every loop restored as before
// (hoistTargets, hoistGSTargets, the inner slots), no list of a loop
// mayHoist skipped is ever planned in a run (prepareStatic and planGS
// mark what they plan), while the loops kept are.
func TestMayHoistSkipsOnlyUnplanned(t *testing.T) {
	skipped, planned := 0, 0
	gens := []func(int64) *Program{randomLoopProgram, randomThreadSymProgram, randomGridProgram, randomTaskProgram}
	for k, gen := range gens {
		for seed := int64(0); seed < 1000; seed++ {
			p := gen(seed)
			var skip []*Stmt
			Walk(p.Body, func(s *Stmt) {
				if s.Kind == KLoop && !p.mayHoist(s, &finRoom{}) {
					skip = append(skip, s)
				}
			})
			// The lists as Finish had made them for every loop.
			restore(p.Body, nil)
			New(p, Config{MaxHazards: 100}).Run(nil)
			Walk(p.Body, func(s *Stmt) {
				if s.Kind != KLoop {
					return
				}
				used := false
				for i := range s.hoist {
					used = used || s.hoist[i].static
				}
				for _, g := range s.hoistGS {
					used = used || g.static
				}
				if !slices.Contains(skip, s) {
					if used {
						planned++
					}
					return
				}
				if used {
					t.Fatalf("generator %d seed %d: loop of slot %d: skipped by mayHoist, planned by the machine", k, seed, s.Slot)
				}
				if len(s.hoist)+len(s.hoistGS) > 0 {
					skipped++
				}
			})
		}
	}
	t.Logf("%d loops' lists skipped, %d loops planned", skipped, planned)
	if skipped < 300 || planned < 300 {
		t.Fatalf("weak coverage: %d loops' lists skipped, %d loops planned", skipped, planned)
	}
}

// restore sets every loop's hoisted lists and inner slots in s as
// Finish did before stop 35 (appending the slots of the loops in s to
// buf).
func restore(s *Stmt, buf []int) []int {
	start := len(buf)
	for _, b := range s.Body {
		buf = restore(b, buf)
	}
	if s.Kind != KLoop {
		return buf
	}
	s.hoist, s.hoistGS = hoistTargets(s, nil), hoistGSTargets(s, nil)
	s.innerSlots = nil
	for _, x := range buf[start:] {
		if !slices.Contains(s.innerSlots, x) {
			s.innerSlots = append(s.innerSlots, x)
		}
	}
	return append(buf, s.Slot)
}
