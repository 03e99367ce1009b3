package amir

import (
	"math/bits"
	"slices"
)

// The thread-symmetry planner (thsym.go has the form, the argument and
// the machine side), moved here at issue 13, stop 32 (conv32).
//
// Stop 33 (conv33): the planner is a thPlanner value whose lists are
// reused from one loop to the next of one Finish, and the plan is copied
// out only when it holds. It had been a dozen closures over variables
// that lived on the heap, a map and a plan made before the walk could
// fail: about 1 000 instructions a statement walked on rmem_uniform and
// shfl_xor, most of it allocation. The walk, its order and its refusals
// are unchanged (TestPlansAgree compares it with the stop-32 planner,
// plan_ref_test.go).

// thPlanner is planThreadSym's state; its slices are scratch, reused by
// the next plan.
type thPlanner struct {
	p     *Program
	y     int    // the loop's iterator
	pl    thPlan // the plan being built
	ok    bool
	loops []*Stmt // the inner loops walked so far
	privN []int32 // per private variable, its accesses walked
	scope []int   // the private variables allocated before the current statement
	zero  []int   // an environment for constant bounds
	// scanA, scanD: the last access scanned and its answer (the
	// statements of one access follow each other and share it; stop 32:
	// winReads was a sixth of the planner on shfl_xor).
	scanA *Access
	scanD int
	// accDim is, per access of pl.accs, the dimension that reads the
	// iterator (scanAcc): a plan that holds has exactly one per access.
	accDim []int
}

// planThreadSym returns loop s's thread-symmetry plan, or nil when its
// body is outside the form above.
func (p *Program) planThreadSym(s *Stmt) *thPlan {
	var t thPlanner
	return t.plan(p, s)
}

// plan is planThreadSym with t's scratch.
func (t *thPlanner) plan(p *Program, s *Stmt) *thPlan {
	t.p, t.y, t.ok = p, s.Slot, true
	pl := &t.pl
	*pl = thPlan{
		shapes: pl.shapes[:0], owned: pl.owned[:0], bars: pl.bars[:0], accs: pl.accs[:0],
		pins: pl.pins[:0], private: pl.private[:0], yconds: pl.yconds[:0],
		quiet: true,
	}
	t.loops, t.privN, t.scope = t.loops[:0], t.privN[:0], t.scope[:0]
	t.scanA, t.scanD, t.accDim = nil, 0, t.accDim[:0]
	t.walkList(s.Body, false)
	if !t.ok || pl.start == nil {
		return nil
	}
	pl.inner = len(t.loops) > 0
	// Private: allocated once in the whole program (here), a data
	// variable, every access of the program in this body after its Alloc
	// (an access before it was taken for an owned one, or refused).
	for i, v := range pl.private {
		pv := &p.Vars[v]
		if p.allocN[v] != 1 || pv.Barrier || pv.Ring > 0 || pv.RingDepth > 0 || t.privN[i] != p.accN[v] {
			return nil
		}
		for _, o := range pl.owned {
			if o.v == v {
				return nil
			}
		}
	}
	for _, c := range pl.yconds {
		for _, sl := range c.CtlSlots {
			if t.isInner(sl) {
				return nil
			}
		}
	}
	for k := range pl.owned {
		o := &pl.owned[k]
		o.box = true
		for _, a := range o.accs {
			for _, c := range a.Slots {
				if t.isInner(c) {
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
	for _, c := range pl.yconds {
		for _, sl := range c.CtlSlots {
			pl.yOnly = pl.yOnly && sl == t.y
		}
	}
	pl.ydead = 0
	for k, c := range pl.yconds {
		if bits.OnesCount32(pl.ydead) < thDeadConds && k < 32 && t.deadOnly(s, c) {
			pl.ydead |= 1 << k
		}
	}
	// Pins: the inner iterators the thread start, or a window that reads
	// the thread, reads.
	// An access of pl.accs has one window reading the thread (scanAcc
	// refused the plan at a second): its dimension was noted then, where
	// each window had been asked again (issue 13, stop 35).
	t.pin(pl.start)
	for k, a := range pl.accs {
		w := &a.Idx[t.accDim[k]]
		t.pin(w.LoAff)
		t.pin(w.HiAff)
	}
	if !t.ok {
		return nil
	}
	for _, o := range pl.owned {
		if p.Vars[o.v].Barrier || slices.Contains(pl.bars, o.v) {
			return nil
		}
	}
	return pl.clone()
}

// clone returns a copy of pl with lists of its own (pl's are scratch).
// The copy and its short lists are one object (thPlanBox; a list that
// does not fit is cloned alone): five objects a plan had been a sixth of
// a small kernel's Finish objects (issue 13, stop 34: conv34).
func (pl *thPlan) clone() *thPlan {
	b := new(thPlanBox)
	c := &b.pl
	*c = *pl
	c.shapes = boxClone(b.shapes[:], pl.shapes)
	c.bars = boxClone(b.bars[:], pl.bars)
	c.accs = boxClone(b.accs[:], pl.accs)
	c.pins = slices.Clone(pl.pins)
	c.private = boxClone(b.private[:], pl.private)
	c.yconds = slices.Clone(pl.yconds)
	c.owned = boxClone(b.owned[:], pl.owned)
	room := b.ownAccs[:]
	for k := range c.owned {
		a := c.owned[k].accs
		c.owned[k].accs = boxClone(room, a)
		if len(a) <= len(room) {
			room = room[len(a):]
		}
	}
	return c
}

// thPlanBox is a cloned plan and the room of its short lists.
type thPlanBox struct {
	pl      thPlan
	shapes  [2]int
	bars    [2]int
	accs    [4]*Access
	private [2]int
	owned   [2]thOwned
	ownAccs [4]*Access
}

// sameAff is affEqual with its commonest case first: the statements of
// one source statement share their start's form, those of one access
// its windows' (issue 13, stop 35: the term-by-term comparison had been
// a tenth of the planner's walk on shfl_xor).
func sameAff(a, b *Affine) bool { return a == b || affEqual(a, b) }

// boxClone is a copy of src in dst when it fits (len and cap len(src)),
// else slices.Clone(src); nil stays nil.
func boxClone[T any](dst, src []T) []T {
	if src == nil {
		return nil
	}
	if len(src) <= len(dst) {
		n := copy(dst, src)
		return dst[:n:n]
	}
	return slices.Clone(src)
}

// isInner reports whether slot is the iterator of an inner loop walked.
func (t *thPlanner) isInner(slot int) bool {
	return hasSlot(t.loops, slot)
}

// pin adds the inner iterators a reads to the plan's pins (clearing t.ok
// when one's loop is not known at entry).
func (t *thPlanner) pin(a *Affine) {
	if a == nil {
		return
	}
	pl := &t.pl
	for _, tm := range a.Terms {
		if tm.Coef == 0 || !t.isInner(tm.Slot) {
			continue
		}
		found := false
		for _, q := range pl.pins {
			found = found || q.slot == tm.Slot
		}
		if found {
			continue
		}
		var lp *Stmt
		for _, l := range t.loops {
			if l.Slot == tm.Slot {
				if lp != nil {
					t.ok = false // two loops of one iterator
				}
				lp = l
			}
		}
		for _, c := range lp.CtlSlots {
			if c == t.y || t.isInner(c) {
				t.ok = false // bounds not known at entry
			}
		}
		pl.pins = append(pl.pins, thPin{slot: tm.Slot, loop: lp})
	}
}

// noY reports whether none of a's windows reads the iterator (barrier
// accesses).
func (t *thPlanner) noY(a *Access) bool {
	for i := range a.Idx {
		if r, known := winReads(a, &a.Idx[i], t.y); r || !known {
			return false
		}
	}
	return true
}

// scan returns the one dimension of a reading the iterator (-1 none, -2
// more than one or not affine), noting a in pl.accs when a window reads
// it (for the bounds check). The last answer is kept.
func (t *thPlanner) scan(a *Access) int {
	if a == t.scanA {
		return t.scanD
	}
	t.scanA, t.scanD = a, t.scanAcc(a)
	return t.scanD
}

func (t *thPlanner) scanAcc(a *Access) int {
	dim := -1
	for i := range a.Idx {
		w := &a.Idx[i]
		r, known := winReads(a, w, t.y)
		if !known {
			return -2
		}
		if !r {
			continue
		}
		if w.LoAff == nil || (w.Hi != nil && w.HiAff == nil) {
			return -2 // a double-buffer index of the iterator
		}
		if !slices.Contains(t.pl.accs, a) {
			t.pl.accs = append(t.pl.accs, a)
			t.accDim = append(t.accDim, i)
		}
		if dim >= 0 {
			return -2
		}
		dim = i
	}
	return dim
}

// ptq reports whether a is an access of a per-thread-queue barrier that
// reads no iterator, noting its variable in pl.bars.
func (t *thPlanner) ptq(a *Access) bool {
	v := &t.p.Vars[a.Var]
	if !v.Barrier || !v.PerThreadQueue || v.Ring > 0 || v.RingDepth > 0 || !t.noY(a) {
		return false
	}
	if !slices.Contains(t.pl.bars, a.Var) {
		t.pl.bars = append(t.pl.bars, a.Var)
	}
	return true
}

// walkList walks a statement list. t.scope holds the private variables
// allocated before the current statement in this list or an enclosing
// one (each access must follow its Alloc): a stack, cut back at the end
// of the list.
func (t *thPlanner) walkList(list []*Stmt, inLoop bool) {
	n := len(t.scope)
	for _, b := range list {
		if !t.ok {
			break
		}
		if b.Kind == KAlloc {
			if slices.Contains(b.CtlSlots, t.y) {
				t.ok = false // an extent that reads the thread
				break
			}
			if slices.Contains(t.pl.private, b.Acc.Var) {
				t.ok = false // allocated twice
				break
			}
			t.pl.private = append(t.pl.private, b.Acc.Var)
			t.privN = append(t.privN, 0)
			t.scope = append(t.scope, b.Acc.Var)
			continue
		}
		t.walk(b, inLoop)
	}
	t.scope = t.scope[:n]
}

// walk walks statement s (inLoop: inside an inner loop).
func (t *thPlanner) walk(s *Stmt, inLoop bool) {
	if !t.ok {
		return
	}
	p, pl, y := t.p, &t.pl, t.y
	for _, c := range s.CtlSlots {
		if c == y {
			// A condition on the thread, outside inner loops and
			// reading no inner iterator, splits the iterations into
			// classes (thsymClasses); any other bound, count or
			// condition that reads the thread breaks symmetry.
			if s.Kind != KIf || inLoop {
				t.ok = false
				return
			}
			pl.yconds = append(pl.yconds, s) // reading no inner iterator: tested after the walk
			break
		}
	}
	switch s.Kind {
	case KBlock, KIf:
		t.walkList(s.Body, inLoop)
		return
	case KLoop:
		if s.Tasks {
			t.ok = false
			return
		}
		t.loops = append(t.loops, s)
		t.walkList(s.Body, true)
		return
	case KAlloc, KIncTaskID, KCheckBarrier:
		t.ok = false
		return
	}
	if s.TxBytes != 0 || s.TxCheck {
		t.ok = false
		return
	}
	if s.Kind != KClearReads && s.Kind != KClearMutates {
		e := &s.Exec
		if e.All || e.StartAff == nil {
			t.ok = false
			return
		}
		if pl.start == nil {
			pl.start = e.StartAff
			pl.step = coefOf(e.StartAff, y)
			if pl.step == 0 {
				t.ok = false
				return
			}
			// An inner loop the start reads (a pin, on the path to
			// here) with constant bounds of other than one
			// iteration refuses at every entry: refused now, before
			// walking the rest (shfl_xor's nests of lane loops).
			for _, tm := range pl.start.Terms {
				for _, l := range t.loops {
					if l.Slot == tm.Slot && tm.Coef != 0 && len(l.CtlSlots) == 0 {
						if len(t.zero) < len(p.Slots) {
							t.zero = make([]int, len(p.Slots))
						}
						if l.Hi(t.zero)-l.Lo(t.zero) != 1 {
							t.ok = false
							return
						}
					}
				}
			}
		} else if !sameAff(pl.start, e.StartAff) {
			t.ok = false
			return
		}
		if !slices.Contains(pl.shapes, e.Shape) {
			pl.shapes = append(pl.shapes, e.Shape)
		}
	}
	switch s.Kind {
	case KFence, KArrive, KAwait:
		pl.quiet = false
	}
	switch s.Kind {
	case KFence:
		return
	case KArrive:
		for _, b := range s.Bars {
			if !t.ptq(b) {
				t.ok = false
			}
		}
		return
	case KAwait:
		t.ok = t.ptq(s.Acc)
		return
	}
	// Records, checks and clears.
	for _, b := range s.Bars {
		if !t.ptq(b) {
			t.ok = false
			return
		}
	}
	a := s.Acc
	if i := slices.Index(pl.private, a.Var); i >= 0 {
		// This iteration's own incarnation: after its Alloc, and
		// the same cells in every iteration.
		if !slices.Contains(t.scope, a.Var) || !t.noY(a) {
			t.ok = false
		}
		t.privN[i]++
		return
	}
	d := t.scan(a)
	if d == -2 {
		t.ok = false
		return
	}
	if s.dead {
		return // counted and bounds checked only
	}
	if d < 0 {
		t.ok = false // a cell every thread touches
		return
	}
	w := &a.Idx[d]
	c := coefOf(w.LoAff, y)
	if c <= 0 || (w.Hi != nil && coefOf(w.HiAff, y) != c) {
		t.ok = false
		return
	}
	shared := !p.Vars[a.Var].TaskLocal
	for _, b := range s.Bars {
		shared = shared || !p.Vars[b.Var].TaskLocal
	}
	i := -1
	for k := range pl.owned {
		if pl.owned[k].v == a.Var {
			i = k
			break
		}
	}
	if i < 0 {
		// A new entry, reusing the access list of the scratch entry
		// in its place, if any.
		i = len(pl.owned)
		var accs []*Access
		if i < cap(pl.owned) {
			accs = pl.owned[:i+1][i].accs[:0]
		}
		pl.owned = append(pl.owned, thOwned{v: a.Var, dim: d, lo: w.LoAff, coef: c, accs: accs})
	}
	o := &pl.owned[i]
	if o.dim != d || !sameAff(o.lo, w.LoAff) {
		t.ok = false // two slices per thread: threads may share cells
		return
	}
	o.liteRuns = o.liteRuns || shared
	if !slices.Contains(o.accs, a) {
		o.accs = append(o.accs, a)
	}
}

// deadOnly reports whether condition c of loop s splits its iterations
// only in their counts (thPlan.ydead): an If directly in s's body whose
// body is dead data statements (a self-checked variable's, finish.go),
// with no barrier access or transaction, whose windows do not read the
// thread, so each of its executions counts the same operations and
// bounds checks the same cells in every iteration.
func (t *thPlanner) deadOnly(s, c *Stmt) bool {
	if !slices.Contains(s.Body, c) {
		return false
	}
	for _, b := range c.Body {
		switch b.Kind {
		case KCheckReads, KCheckMutates, KRecordRead, KRecordMutate, KClearReads, KClearMutates:
			if !t.deadData(b) {
				return false
			}
		case kRun:
			if !b.dead {
				return false
			}
			for _, x := range b.Body {
				if !t.deadData(x) {
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

// deadData reports whether data statement b is dead and reads no thread
// in its windows, with no barrier access or transaction.
func (t *thPlanner) deadData(b *Stmt) bool {
	if !b.dead || b.Acc == nil || len(b.Bars) > 0 || b.TxBytes != 0 || b.TxCheck {
		return false
	}
	for i := range b.Acc.Idx {
		if r, known := winReads(b.Acc, &b.Acc.Idx[i], t.y); r || !known {
			return false
		}
	}
	return true
}
