package amir

import (
	"slices"
	"testing"
)

// TestWalkChain: each statement of a nest gets exactly the indices of its
// enclosing nest loops (siblings' loops left out), and the walk stops at
// the first visit that returns false. planBox and planGrid compile each
// access against this chain.
func TestWalkChain(t *testing.T) {
	// L0 { L1 { a }; L2 { L3 { b } }; c }
	a := &Stmt{Kind: KRecordMutate}
	b := &Stmt{Kind: KRecordMutate}
	c := &Stmt{Kind: KRecordMutate}
	l3 := &Stmt{Kind: KLoop, Ctl: &Ctl{Slot: 3}, Body: []*Stmt{b}}
	l2 := &Stmt{Kind: KLoop, Ctl: &Ctl{Slot: 2}, Body: []*Stmt{l3}}
	l1 := &Stmt{Kind: KLoop, Ctl: &Ctl{Slot: 1}, Body: []*Stmt{a}}
	l0 := &Stmt{Kind: KLoop, Ctl: &Ctl{Slot: 0}, Body: []*Stmt{l1, l2, c}}
	box := newLiteBox(l0)
	if box == nil || len(box.loops) != 4 || !box.inNest(3) || box.inNest(4) {
		t.Fatalf("newLiteBox: %v", box)
	}
	want := map[*Stmt][]int{l0: {0}, l1: {0, 1}, a: {0, 1}, l2: {0, 2}, l3: {0, 2, 3}, b: {0, 2, 3}, c: {0}}
	var order []*Stmt
	if !box.walkChain(l0, func(s *Stmt, chain []int) bool {
		order = append(order, s)
		if !slices.Equal(chain, want[s]) {
			t.Errorf("chain of %p = %v, want %v", s, chain, want[s])
		}
		return true
	}) {
		t.Fatal("walkChain reported a stop")
	}
	if !slices.Equal(order, []*Stmt{l0, l1, a, l2, l3, b, c}) {
		t.Errorf("visit order %v", order)
	}
	n := 0
	if box.walkChain(l0, func(s *Stmt, _ []int) bool { n++; return s != a }) {
		t.Error("walkChain did not report the stop at a")
	}
	if n != 3 {
		t.Errorf("%d visits before the stop, want 3 (L0, L1, a)", n)
	}
	// An inner loop whose bounds read a nest slot: no box.
	l2.CtlSlots = []int{1}
	if box := newLiteBox(l0); box != nil {
		t.Error("a triangular nest got a box")
	}
}
