package amir

import "slices"

// The thread-symmetry planner (thsym.go has the form, the argument and
// the machine side), moved here at issue 13, stop 32 (conv32).

// planThreadSym returns loop s's thread-symmetry plan, or nil when its
// body is outside the form above.
func (p *Program) planThreadSym(s *Stmt) *thPlan {
	y := s.Slot
	pl := &thPlan{}
	ok := true
	ownedIdx := map[int]int{}
	addAcc := func(a *Access) {
		for _, b := range pl.accs {
			if b == a {
				return
			}
		}
		pl.accs = append(pl.accs, a)
	}
	// noY: none of a's windows reads y (barrier accesses).
	noY := func(a *Access) bool {
		for i := range a.Idx {
			if r, known := winReads(a, &a.Idx[i], y); r || !known {
				return false
			}
		}
		return true
	}
	var scanAcc func(a *Access) int
	// scan: a's windows that read y are affine (recorded for the bounds
	// check); it returns the one dimension reading y (-1 none, -2 more
	// than one or not affine).
	//
	// The statements of one access (a check, a clear, a record) follow
	// each other and share its *Access: the last answer is kept (stop 32:
	// winReads was a sixth of the planner on shfl_xor).
	var scanA *Access
	scanD := 0
	scan := func(a *Access) int {
		if a == scanA {
			return scanD
		}
		scanA, scanD = a, scanAcc(a)
		return scanD
	}
	scanAcc = func(a *Access) int {
		dim := -1
		for i := range a.Idx {
			w := &a.Idx[i]
			r, known := winReads(a, w, y)
			if !known {
				return -2
			}
			if !r {
				continue
			}
			if w.LoAff == nil || (w.Hi != nil && w.HiAff == nil) {
				return -2 // a double-buffer index of the iterator
			}
			addAcc(a)
			if dim >= 0 {
				return -2
			}
			dim = i
		}
		return dim
	}
	ptq := func(a *Access) bool {
		v := &p.Vars[a.Var]
		if !v.Barrier || !v.PerThreadQueue || v.Ring > 0 || v.RingDepth > 0 || !noY(a) {
			return false
		}
		for _, b := range pl.bars {
			if b == a.Var {
				return true
			}
		}
		pl.bars = append(pl.bars, a.Var)
		return true
	}
	// The inner loops, the variables allocated in the body (each access
	// of one counted in privN) and whether it holds an event, gathered by
	// the walk (stop 29: rmem_uniform's one-thread loop nested in the
	// thread loop, with its register allocated there).
	var loops []*Stmt
	var privN []int32
	var zero []int // an environment for constant bounds
	pl.quiet = true
	isInner := func(slot int) bool {
		for _, l := range loops {
			if l.Slot == slot {
				return true
			}
		}
		return false
	}
	var walk func(t *Stmt, scope []int, inLoop bool)
	// walkList walks a statement list; scope holds the private variables
	// allocated before the current statement in this list or an
	// enclosing one (each access must follow its Alloc).
	walkList := func(list []*Stmt, scope []int, inLoop bool) {
		for _, b := range list {
			if !ok {
				return
			}
			if b.Kind == KAlloc {
				for _, c := range b.CtlSlots {
					if c == y {
						ok = false // an extent that reads the thread
						return
					}
				}
				if slices.Contains(pl.private, b.Acc.Var) {
					ok = false // allocated twice
					return
				}
				pl.private = append(pl.private, b.Acc.Var)
				privN = append(privN, 0)
				scope = append(scope[:len(scope):len(scope)], b.Acc.Var)
				continue
			}
			walk(b, scope[:len(scope):len(scope)], inLoop)
		}
	}
	walk = func(t *Stmt, scope []int, inLoop bool) {
		if !ok {
			return
		}
		for _, c := range t.CtlSlots {
			if c == y {
				// A condition on the thread, outside inner loops and
				// reading no inner iterator, splits the iterations into
				// classes (thsymClasses); any other bound, count or
				// condition that reads the thread breaks symmetry.
				if t.Kind != KIf || inLoop {
					ok = false
					return
				}
				pl.yconds = append(pl.yconds, t) // reading no inner iterator: tested after the walk
				break
			}
		}
		switch t.Kind {
		case KBlock, KIf:
			walkList(t.Body, scope, inLoop)
			return
		case KLoop:
			if t.Tasks {
				ok = false
				return
			}
			loops = append(loops, t)
			walkList(t.Body, scope, true)
			return
		case KAlloc, KIncTaskID, KCheckBarrier:
			ok = false
			return
		}
		if t.TxBytes != 0 || t.TxCheck {
			ok = false
			return
		}
		if t.Kind != KClearReads && t.Kind != KClearMutates {
			e := &t.Exec
			if e.All || e.StartAff == nil {
				ok = false
				return
			}
			if pl.start == nil {
				pl.start = e.StartAff
				pl.step = coefOf(e.StartAff, y)
				if pl.step == 0 {
					ok = false
					return
				}
				// An inner loop the start reads (a pin, on the path to
				// here) with constant bounds of other than one
				// iteration refuses at every entry: refused now, before
				// walking the rest (shfl_xor's nests of lane loops).
				for _, tm := range pl.start.Terms {
					for _, l := range loops {
						if l.Slot == tm.Slot && tm.Coef != 0 && len(l.CtlSlots) == 0 {
							if zero == nil {
								zero = make([]int, len(p.Slots))
							}
							if l.Hi(zero)-l.Lo(zero) != 1 {
								ok = false
								return
							}
						}
					}
				}
			} else if !affEqual(pl.start, e.StartAff) {
				ok = false
				return
			}
			found := false
			for _, sh := range pl.shapes {
				found = found || sh == e.Shape
			}
			if !found {
				pl.shapes = append(pl.shapes, e.Shape)
			}
		}
		switch t.Kind {
		case KFence, KArrive, KAwait:
			pl.quiet = false
		}
		switch t.Kind {
		case KFence:
			return
		case KArrive:
			for _, b := range t.Bars {
				if !ptq(b) {
					ok = false
				}
			}
			return
		case KAwait:
			ok = ptq(t.Acc)
			return
		}
		// Records, checks and clears.
		for _, b := range t.Bars {
			if !ptq(b) {
				ok = false
				return
			}
		}
		a := t.Acc
		if i := slices.Index(pl.private, a.Var); i >= 0 {
			// This iteration's own incarnation: after its Alloc, and
			// the same cells in every iteration.
			if !slices.Contains(scope, a.Var) || !noY(a) {
				ok = false
			}
			privN[i]++
			return
		}
		d := scan(a)
		if d == -2 {
			ok = false
			return
		}
		if t.dead {
			return // counted and bounds checked only
		}
		if d < 0 {
			ok = false // a cell every thread touches
			return
		}
		w := &a.Idx[d]
		c := coefOf(w.LoAff, y)
		if c <= 0 || (w.Hi != nil && coefOf(w.HiAff, y) != c) {
			ok = false
			return
		}
		shared := !p.Vars[a.Var].TaskLocal
		for _, b := range t.Bars {
			shared = shared || !p.Vars[b.Var].TaskLocal
		}
		i, seen := ownedIdx[a.Var]
		if !seen {
			ownedIdx[a.Var] = len(pl.owned)
			pl.owned = append(pl.owned, thOwned{v: a.Var, dim: d, lo: w.LoAff, coef: c})
			i = len(pl.owned) - 1
		}
		o := &pl.owned[i]
		if o.dim != d || !affEqual(o.lo, w.LoAff) {
			ok = false // two slices per thread: threads may share cells
			return
		}
		o.liteRuns = o.liteRuns || shared
		for _, b := range o.accs {
			if b == a {
				return
			}
		}
		o.accs = append(o.accs, a)
	}
	walkList(s.Body, nil, false)
	if !ok || pl.start == nil {
		return nil
	}
	pl.inner = len(loops) > 0
	// Private: allocated once in the whole program (here), a data
	// variable, every access of the program in this body after its Alloc
	// (an access before it was taken for an owned one, or refused).
	for i, v := range pl.private {
		pv := &p.Vars[v]
		if p.allocN[v] != 1 || pv.Barrier || pv.Ring > 0 || pv.RingDepth > 0 || privN[i] != p.accN[v] {
			return nil
		}
		for _, o := range pl.owned {
			if o.v == v {
				return nil
			}
		}
	}
	for _, t := range pl.yconds {
		for _, c := range t.CtlSlots {
			if isInner(c) {
				return nil
			}
		}
	}
	for k := range pl.owned {
		o := &pl.owned[k]
		o.box = true
		for _, a := range o.accs {
			for _, c := range a.Slots {
				if isInner(c) {
					o.box = false
				}
			}
		}
	}
	// Classes reorder iterations: only where no event orders them and no
	// per-thread queue is used. The no-event test (!pl.quiet) is
	// redundant for soundness (stop 29, mut29: its mutant passes every
	// test): Arrives and Awaits need a per-thread queue (ptq), refused
	// here, so the only events left are one-thread Fences (m.single at
	// entry), and a loop with one enters each class frame through
	// thsymEnterAt's non-quiet tests (no tainted frame in the task, no
	// frame sharing threads, no record outside its new slices that is
	// not virtual): a fence by thread t then witnesses only t's own
	// slices and private incarnations (another frame's virtual records
	// are one-thread records of its first thread, untainted, with no
	// grant that meets this frame), so the iterations still commute.
	// Kept: it is the stated premise of thsymClasses.
	if len(pl.yconds) > 0 && (!pl.quiet || len(pl.bars) > 0 || len(pl.yconds) > 32) {
		return nil
	}
	pl.yOnly = true
	for _, t := range pl.yconds {
		for _, c := range t.CtlSlots {
			pl.yOnly = pl.yOnly && c == y
		}
	}
	// Pins: the inner iterators the thread start, or a window that reads
	// the thread, reads.
	pin := func(a *Affine) {
		if a == nil {
			return
		}
		for _, t := range a.Terms {
			if t.Coef == 0 || !isInner(t.Slot) {
				continue
			}
			found := false
			for _, q := range pl.pins {
				found = found || q.slot == t.Slot
			}
			if found {
				continue
			}
			var lp *Stmt
			for _, l := range loops {
				if l.Slot == t.Slot {
					if lp != nil {
						ok = false // two loops of one iterator
					}
					lp = l
				}
			}
			for _, c := range lp.CtlSlots {
				if c == y || isInner(c) {
					ok = false // bounds not known at entry
				}
			}
			pl.pins = append(pl.pins, thPin{slot: t.Slot, loop: lp})
		}
	}
	pin(pl.start)
	for _, a := range pl.accs {
		for i := range a.Idx {
			w := &a.Idx[i]
			if r, _ := winReads(a, w, y); r {
				pin(w.LoAff)
				pin(w.HiAff)
			}
		}
	}
	if !ok {
		return nil
	}
	for _, o := range pl.owned {
		if p.Vars[o.v].Barrier {
			return nil
		}
		for _, b := range pl.bars {
			if b == o.v {
				return nil
			}
		}
	}
	return pl
}
