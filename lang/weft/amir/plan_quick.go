package amir

// A cheap first test of the symmetry planners (issue 13, stop 32,
// conv32). Finish plans every non-task loop twice (planThreadSym,
// planGrid), each plan walking the loop's whole subtree; a sequential
// loop around a thread nest (shfl_xor's three `for s in seq(0, 4)`, the
// K loops of the GEMMs) fails both, but only after the walks, the maps
// and the closures (stop 31: failing plans were a large part of Finish).
//
// Both forms need the loop's iterator in the start of the first
// statement that executes (planThreadSym: the first one sets the plan's
// start, whose coefficient of the iterator, the thread step, must not be
// 0; planGridMode: the start of the first one is the nest's, and the
// loop itself must be its first axis; blkCandidate: every start reads the
// iterator). startReadsIter finds that statement, the first in preorder
// that is not a block, a loop, an If, an Alloc or a clear, and stops
// there: a loop that fails it has no plan of either kind
// (TestPlanQuickAgrees compares with the planners).

// startReadsIter reports whether the first statement in loop s's body
// that executes (preorder; blocks, loops, Ifs, Allocs and clears
// skipped) has an affine start with a nonzero coefficient of s's
// iterator. false means planThreadSym(s) and planGrid(s) are nil.
func startReadsIter(s *Stmt) bool {
	f := firstExec(s.Body)
	return f != nil && startReads(s, f)
}

// startReads is startReadsIter's test of f, firstExec(s.Body).
func startReads(s, f *Stmt) bool {
	return !f.Exec.All && f.Exec.StartAff != nil && coefOf(f.Exec.StartAff, s.Slot) != 0
}

// firstExec returns the first statement of list, in preorder, that is
// not a block, a loop, an If, an Alloc or a clear; nil when none is.
func firstExec(list []*Stmt) *Stmt {
	for _, t := range list {
		switch t.Kind {
		case KBlock, KLoop, KIf:
			if f := firstExec(t.Body); f != nil {
				return f
			}
		case KAlloc, KClearReads, KClearMutates:
		default:
			return t
		}
	}
	return nil
}

// gridInner reports whether the one-thread grid form (planGridMode, blk
// false) of nest s with start start, the start of its first statement,
// has a loop inside its last axis; false means that form refuses s
// (a nest without one is not planned: planGridMode's inner). The axes
// are the chain of single-loop bodies from s while their iterators are
// in start; the last axis's body holds a loop when the chain goes on
// past it, else when some loop is nested in it. Tested before the plan
// (stop 32): shfl_xor's lane nests failed only there, after the plan's
// walks, maps and slices.
func gridInner(s *Stmt, start *Affine) bool {
	last, chain, ok := gridChain(s, start)
	return ok && (chain || hasLoop(last.Body))
}

// gridInnerN is gridInner(s, start) for finishTree, n the number of loops
// nested in s (planFrom): those past the chain's.
func gridInnerN(s *Stmt, start *Affine, n int) bool {
	last, chain, ok := gridChain(s, start)
	if !ok || chain {
		return ok
	}
	for t := s; t != last; t = t.Body[0] {
		n--
	}
	return n > 0
}

// gridChain follows gridInner's chain of axes from s: the last axis,
// whether the chain goes on past it (then s has a loop inside its last
// axis) and false when s is not an axis.
func gridChain(s *Stmt, start *Affine) (last *Stmt, chain, ok bool) {
	if coefOf(start, s.Slot) == 0 {
		return nil, false, false // s is not an axis: refused
	}
	last = s
	for len(last.Body) == 1 && last.Body[0].Kind == KLoop && !last.Body[0].Tasks {
		if coefOf(start, last.Body[0].Slot) == 0 {
			return last, true, true // the chain goes on past the last axis
		}
		last = last.Body[0]
	}
	return last, false, true
}

// hasLoop reports whether a loop is in list or nested in it.
func hasLoop(list []*Stmt) bool {
	for _, t := range list {
		if t.Kind == KLoop || hasLoop(t.Body) {
			return true
		}
	}
	return false
}
