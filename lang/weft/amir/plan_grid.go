package amir

import "slices"

// The grid-symmetry planners (thgrid.go has the one-thread form and its
// argument, thgrid_blk.go the block form; both the machine side), moved
// here at issue 13, stop 32 (conv32).

// planGrid returns the grid plan of loop s, or nil when s is outside the
// form above and outside its block form (thgrid_blk.go).
func (p *Program) planGrid(s *Stmt) *gridPlan {
	if s.Kind != KLoop || s.Tasks {
		return nil
	}
	stmts := make([]*Stmt, 0, 16) // on the stack when they fit (stop 29: growth was a tenth of a small kernel's Convert objects)
	stmts, ok := gridCollect(s.Body, stmts)
	if !ok {
		return nil // both forms need it (one walk for both: stop 30)
	}
	// The one-thread form's start is its first statement's; without a
	// loop inside its last axis it refuses s (gridInner, plan_quick.go).
	if f := firstExec(s.Body); f != nil && !f.Exec.All && f.Exec.StartAff != nil && gridInner(s, f.Exec.StartAff) {
		if g := p.planGridMode(s, stmts, false); g != nil {
			return g
		}
	}
	if !blkCandidate(s, stmts) {
		return nil
	}
	// Planned at the first entry outside a grid (gridEnter): a loop
	// inside a block nest never is, nor a nest never entered.
	return gridPending
}

// gridPending stands for a block plan not made yet (planGrid; gridEnter
// replaces it with the plan at the nest's first entry), one value for
// all such nests, as thPending is for thread plans (plan_lazy.go): its
// readers take its blk and lazy fields and rdTrackGrid its (empty)
// variables, and nothing writes it, so no check leaves anything in it.
// (Each pending nest had its own, five allocations a check on shfl_xor:
// issue 13, stop 40.)
var gridPending = &gridPlan{blk: true, lazy: true}

// gridCollect appends to stmts the statements in list, in preorder,
// other than loops, blocks and Ifs, and reports whether all are data
// statements without barrier accesses, transactions or a sync (both
// grid forms need it). It stops at the first that is not (a recursion,
// not Walk's closure: stop 32).
func gridCollect(list []*Stmt, stmts []*Stmt) ([]*Stmt, bool) {
	for _, t := range list {
		switch t.Kind {
		case KBlock, KLoop, KIf:
			var ok bool
			if stmts, ok = gridCollect(t.Body, stmts); !ok {
				return stmts, false
			}
		default:
			if gridRefuses(t) {
				return stmts, false
			}
			stmts = append(stmts, t)
		}
	}
	return stmts, true
}

// gridRefuses reports whether gridCollect refuses statement t, not a
// loop, block or If: t is no data statement, or has barrier accesses, a
// transaction or a sync.
func gridRefuses(t *Stmt) bool {
	switch t.Kind {
	case KRecordRead, KRecordMutate, KClearReads, KClearMutates, KCheckReads, KCheckMutates:
		return t.Acc == nil || len(t.Bars) > 0 || t.TxBytes != 0 || t.TxCheck || t.Sync >= 0
	}
	return true
}

// planFrom is planGrid(s) for finishTree, from what its walk gathered of
// s's subtree: stmts, its statements other than loops, blocks and Ifs in
// preorder, none refused (gridRefuses: the caller tested); first, the
// first that executes (firstExec(s.Body)); inner, the slots of the loops
// nested in s, one per loop, not empty: both forms need one (gridInner's
// chain past the last axis or hasLoop, blkCandidate's hasLoopOf), and
// the caller plans none without. No statement but a loop, block or If has a
// body (the caller's !treeWalk.odd). The plan is planGrid's (issue 13,
// stop 46: its walks of each nest were a fifth of Finish on shfl_xor):
//   - gridCollect's walk reaches every statement of the subtree, in
//     preorder: its list is stmts, its ok the caller's test;
//   - hasLoop(last.Body), gridInner's last test: the loops nested in s
//     are the chain's below s (each the only statement of its parent's
//     body) and those nested in the chain's last: more than the chain's
//     (gridInnerN);
//   - hasLoopOf(s.Body, other), blkCandidate's: some loop nested in s
//     has its slot in other.
//
// TestFinishTreeRepo and the random programs of TestFinishTreeAgrees
// compare every plan with planGrid's (finishRef).
func (p *Program) planFrom(s *Stmt, stmts []*Stmt, first *Stmt, inner []int) *gridPlan {
	if s.Tasks {
		return nil
	}
	if !first.Exec.All && first.Exec.StartAff != nil && gridInnerN(s, first.Exec.StartAff, len(inner)) {
		if g := p.planGridMode(s, stmts, false); g != nil {
			return g
		}
	}
	var buf [8]int
	other := blkOther(s, stmts, buf[:0])
	if len(other) == 0 {
		return nil
	}
	for _, x := range inner {
		if slices.Contains(other, x) {
			return gridPending
		}
	}
	return nil
}

// gridStmts lists nest s's statements other than loops, blocks and Ifs
// (room for a small nest's at once: their growth was a third of the
// list's cost on shfl_xor, stop 37).
func gridStmts(s *Stmt) []*Stmt {
	return appendGridStmts(s, make([]*Stmt, 0, 16))
}

// appendGridStmts appends the statements of gridStmts(s) to stmts (a
// recursion, not Walk's closure: stop 33).
func appendGridStmts(s *Stmt, stmts []*Stmt) []*Stmt {
	switch s.Kind {
	case KBlock, KLoop, KIf:
	default:
		stmts = append(stmts, s)
	}
	for _, b := range s.Body {
		stmts = appendGridStmts(b, stmts)
	}
	return stmts
}

// planGridMode plans loop s, whose statements other than loops, blocks
// and Ifs are stmts, as a grid of one-thread points (blk false) or of
// thread blocks (blk true: thgrid_blk.go).
//
// The plan is built in a local value and copied out only when it holds
// (stop 33, conv33: the plan, the axis set, the variable index and each
// statement's per-axis slices had been maps and objects made before it
// could fail: block nests are planned at their first entry, a third of a
// microsecond each on shfl_xor); the sets of axes and nest loops are
// searched in their short lists.
func (p *Program) planGridMode(s *Stmt, stmts []*Stmt, blk bool) *gridPlan {
	// The plan and room for its lists, one allocation (gridPlanMem,
	// stop 38).
	mem := &gridPlanMem{pl: gridPlan{blk: blk}}
	g, room := &mem.pl, &mem.room
	if !gridNoRoom {
		g.execs, g.shapes = room.execs[:0], room.shapes[:0]
		g.axes, g.steps = room.axes[:0], room.steps[:0]
	}
	// The axes: a chain of loops each the only statement of the previous
	// one's body; which of them are axes is decided by the start.
	var chainBuf [8]*Stmt
	chain := append(chainBuf[:0], s)
	for t := s; len(t.Body) == 1 && t.Body[0].Kind == KLoop && !t.Body[0].Tasks; {
		t = t.Body[0]
		chain = append(chain, t)
	}
	for _, t := range stmts {
		if t.Kind == KClearReads || t.Kind == KClearMutates {
			continue
		}
		if t.Exec.All || t.Exec.StartAff == nil {
			return nil
		}
		if blk {
			g.addExec(t)
		}
		if g.start == nil {
			g.start = t.Exec.StartAff
		} else if !blk && !sameAff(g.start, t.Exec.StartAff) {
			return nil
		}
		if !slices.Contains(g.shapes, t.Exec.Shape) {
			g.shapes = append(g.shapes, t.Exec.Shape)
		}
	}
	if g.start == nil {
		return nil
	}
	// Axes: the chain's loops whose iterator is in the start, which must
	// be a prefix of the chain starting at s; no other loop of the nest
	// may be in the start.
	for i, l := range chain {
		c := coefOf(g.start, l.Slot)
		if c == 0 {
			if i == 0 {
				return nil
			}
			break
		}
		if g.isAxis(l.Slot) {
			return nil // one slot for two axes
		}
		g.axes = append(g.axes, l)
		g.steps = append(g.steps, c)
		if blk {
			break // one axis, the outer loop (thgrid_blk.go)
		}
	}
	// The bounds box: every loop of the nest, every access.
	var b *liteBox
	if gridNoRoom {
		b = newLiteBox(s)
	} else {
		b = mem.box.init(s)
	}
	if b == nil {
		return nil // a triangular nest: not a box
	}
	if blk && !g.blkExecs() {
		return nil
	}
	// The controls, the loops below the last axis and the block starts,
	// in one walk of the nest (nestScan).
	sc := nestScan{g: g, b: b, blk: blk, last: g.axes[len(g.axes)-1], ok: true}
	var encl [8]int
	sc.walk(s, encl[:0], false)
	if !sc.ok || blk && !sc.blkIn {
		return nil
	}
	if !sc.loopIn {
		// Without a sequential loop inside, a point runs one access
		// or a few: building the others' records costs about what
		// running them does (the Sm80 GEMM's cp.async nests were 20%
		// slower at 256), so such nests are not planned.
		return nil
	}
	for i, l := range b.loops {
		if i < len(g.axes) && l != g.axes[i] {
			return nil
		}
	}
	// Room for the accesses of a small nest at once (their growth was a
	// sixth of a block plan, stop 33).
	// (The box's accesses are on the heap: the box is.)
	var wm *gridWalkMem // the box accesses' arrays (lite.go), the variables
	if gridNoRoom {
		b.accs = make([]boxAcc, 0, 4)
		g.vars = make([]gridVar, 0, 4)
		g.accVar = make([]int, 0, 4)
	} else {
		wm = new(gridWalkMem)
		b.accs, g.vars = wm.accs[:0], wm.vars[:0]
		g.accVar = room.accVar[:0]
	}
	aw := gridAccWalk{p: p, g: g, b: b, wm: wm, chain: b.chain[:0]}
	if !aw.walk(s) {
		return nil
	}
	for i := range g.vars {
		gv := &g.vars[i]
		if blk && !gv.trans {
			return nil // a block grid translates every variable
		}
		for k, d := range gv.dims {
			if d < 0 && !gv.ro {
				return nil // a written variable shared by threads
			}
			for k2 := 0; k2 < k; k2++ {
				if d >= 0 && gv.dims[k2] == d {
					gv.trans = false
					if !gv.ro {
						return nil
					}
				}
			}
		}
	}
	g.box = b
	mem.keep()
	return g
}

// nestScan is planGridMode's walk of nest s for three tests that had
// been three walks (ctlOK, innerLoops, blkWalk; issue 13, stop 47: a
// sixth of a block plan on shfl_xor):
//   - no condition or bound in s's subtree reads an axis and, for the
//     one-thread form, no loop but an axis has its iterator in the start;
//   - no loop below the last axis reassigns an axis slot, and one loop
//     is there (loopIn); the loops below the last axis are those nested
//     in it, the axes being a chain, each the only statement of the
//     previous one's body;
//   - for the block form, no start reads a nest loop that is neither
//     the axis nor one enclosing its statement, and one reads such an
//     enclosing loop (blkIn).
//
// Each is a conjunction over the subtree's statements of a test that
// reads the statement, the axes, the start and the nest's loops (the
// third, the loops enclosing the statement too) only, so one walk gives
// each answer; planGridMode refuses s when any fails, as before (the
// order of refusals leaves no trace: the plan is dropped). ok stops the
// walk at the first failure. PlansAgree compares the plans with
// planGridModeRef's, whose walks are separate.
type nestScan struct {
	g    *gridPlan
	b    *liteBox
	blk  bool
	last *Stmt // the last axis
	ok   bool
	// loopIn: a loop below the last axis; blkIn: a start reads a nest
	// loop, not the axis, that encloses its statement.
	loopIn, blkIn bool
}

// walk takes t, whose enclosing loops' slots are encl, and its subtree;
// below: t is below the last axis.
func (sc *nestScan) walk(t *Stmt, encl []int, below bool) {
	g := sc.g
	for _, c := range t.CtlSlots {
		if g.isAxis(c) {
			sc.ok = false // a condition or bound that reads a thread
			return
		}
	}
	switch t.Kind {
	case KLoop:
		ax := g.isAxis(t.Slot)
		if !sc.blk && !ax && coefOf(g.start, t.Slot) != 0 {
			sc.ok = false // an inner iterator in the start
			return
		}
		if below {
			if ax {
				sc.ok = false // an axis slot reassigned inside
				return
			}
			sc.loopIn = true
		}
		if sc.blk {
			encl = append(encl, t.Slot)
		}
	case KBlock, KIf:
	default:
		if sc.blk && t.Exec.StartAff != nil && !sc.blkStart(t.Exec.StartAff, encl) {
			sc.ok = false
			return
		}
	}
	below = below || t == sc.last
	// A statement without a body (not a loop, block or If) gives what its
	// previous sibling of the same start gave, when it has no controls:
	// its only test reads its start and encl, the same (stop 40).
	var lastAff *Affine
	for _, c := range t.Body {
		if !sc.blk || c.Kind == KLoop || c.Kind == KBlock || c.Kind == KIf || len(c.Body) > 0 {
			lastAff = nil
		} else if c.Exec.StartAff != nil && c.Exec.StartAff == lastAff && len(c.CtlSlots) == 0 {
			continue
		} else {
			lastAff = c.Exec.StartAff
		}
		if sc.walk(c, encl, below); !sc.ok {
			return
		}
	}
}

// blkStart is the block form's test of one start a, encl the slots of the loops
// enclosing its statement: every nest loop it reads, but the axis, is
// one of them (false otherwise); blkIn notes one.
func (sc *nestScan) blkStart(a *Affine, encl []int) bool {
	for _, tm := range a.Terms {
		if tm.Coef == 0 || sc.g.isAxis(tm.Slot) || !sc.b.inNest(tm.Slot) {
			continue
		}
		if !slices.Contains(encl, tm.Slot) {
			return false
		}
		sc.blkIn = true
	}
	return true
}

// blkExecs is the block form's test of its starts: the axis's
// coefficient is the same in every one (the rest is nestScan's).
func (g *gridPlan) blkExecs() bool {
	ax := g.axes[0]
	for _, e := range g.execs {
		if coefOf(e.aff, ax.Slot) != g.steps[0] {
			return false
		}
	}
	return true
}

// isAxis reports whether slot is an axis's iterator.
func (g *gridPlan) isAxis(slot int) bool {
	for _, l := range g.axes {
		if l.Slot == slot {
			return true
		}
	}
	return false
}

// gridAccWalk is planGridMode's walk of its nest's accesses:
// b.walkChain(s, visit), visit calling addAccess for each statement with
// an access but a loop, as a recursion of its own (issue 13, stop 47:
// walkChain's two closures, the walk's and the visit's, had been a
// seventh of the walk on shfl_xor). chain holds the indices in b.loops
// of the loops enclosing the statement, itself included, as
// walkChain's.
type gridAccWalk struct {
	p     *Program
	g     *gridPlan
	b     *liteBox
	wm    *gridWalkMem
	chain []int
	memo  gridAccMemo
}

// walk takes t and its subtree, in walkChain's order; false at the
// first access refused.
func (w *gridAccWalk) walk(t *Stmt) bool {
	n := len(w.chain)
	if t.Kind == KLoop {
		for i, l := range w.b.loops {
			if l == t {
				w.chain = append(w.chain, i)
			}
		}
	}
	ok := t.Acc == nil || t.Kind == KLoop || w.g.addAccess(w.p, t, w.b, w.chain, &w.memo, w.wm)
	for _, c := range t.Body {
		if !ok {
			break
		}
		ok = w.walk(c)
	}
	w.chain = w.chain[:n]
	return ok
}

// gridAccMemo is the last access addAccess classified, with the loops
// enclosing it: its per-axis dimensions and coefficients and its index in
// the box. The statements of one access (its checks, clears and records)
// follow each other and share its *Access, and the classification
// depends on the access and its loops only (stop 33, conv33: it was
// redone for each, a third of a block plan on shfl_xor).
//
// vi is the plan variable a live statement of that access joined (-1:
// none yet since the memo was filled): addAccess's test of its dims and
// coefs against the variable's passed then, and reads only them, the
// variable's (set once, at its first access) and the access's index, all
// the same for the next statement of the access (issue 13, stop 47).
type gridAccMemo struct {
	a           *Access
	encl        [8]int
	nEncl       int
	dims, coefs [4]int
	accIdx      int
	vi          int
}

// addAccess classifies statement t's access for the plan (memo: the last
// one classified). Its per-axis slices are kept in arrays (memo's, or on
// the stack) and copied into the plan for a variable's first access only.
func (g *gridPlan) addAccess(p *Program, t *Stmt, b *liteBox, encl []int, memo *gridAccMemo, wm *gridWalkMem) bool {
	var ar *boxArena
	if wm != nil {
		ar = &wm.ar
	}
	a := t.Acc
	n := len(g.axes)
	var dims, coefs []int
	accIdx := -1
	if memo.a == a && slices.Equal(memo.encl[:memo.nEncl], encl) {
		if memo.vi >= 0 && !t.dead {
			// The access's last live statement joined variable vi: its
			// dims and coefs (the memo's) matched the variable's, the
			// variable's trans and accVar[accIdx] were set; only t's own
			// part below is new (issue 13, stop 47).
			g.addKind(t, &g.vars[memo.vi])
			return true
		}
		dims, coefs, accIdx = memo.dims[:n], memo.coefs[:n], memo.accIdx
	} else {
		if n <= len(memo.dims) {
			dims, coefs = memo.dims[:n], memo.coefs[:n]
		} else {
			dims, coefs = make([]int, n), make([]int, n)
		}
		memo.a = nil // being rewritten
		for k := range dims {
			dims[k], coefs[k] = -1, 0
		}
		for d := range a.Idx {
			w := &a.Idx[d]
			for k, ax := range g.axes {
				y := ax.Slot
				r, known := winReads(a, w, y)
				if !known {
					return false
				}
				if !r {
					continue
				}
				if w.LoAff == nil || (w.Hi != nil && w.HiAff == nil) {
					return false
				}
				c := coefOf(w.LoAff, y)
				if c <= 0 || (w.Hi != nil && coefOf(w.HiAff, y) != c) || dims[k] >= 0 {
					return false
				}
				dims[k], coefs[k] = d, c
			}
		}
		for i, o := range b.accs {
			if o.a == a && slices.Equal(o.chain, encl) {
				accIdx = i
			}
		}
		if accIdx < 0 {
			ba, good := p.boxAccess(a, b.loops, encl, ar)
			if !good {
				return false
			}
			b.accs = append(b.accs, ba)
			g.accVar = append(g.accVar, -1)
			accIdx = len(b.accs) - 1
		}
		if n <= len(memo.dims) && len(encl) <= len(memo.encl) {
			memo.a, memo.nEncl, memo.accIdx, memo.vi = a, copy(memo.encl[:], encl), accIdx, -1
		}
	}
	// (A whole variable, len(a.Idx) == 0: no window reads an axis, every
	// thread touches every cell, dims are all -1.)
	if t.dead {
		for k, d := range dims {
			if d >= 0 {
				g.deadDims = append(g.deadDims, gridDeadDim{v: a.Var, dim: d, coef: coefs[k]})
			}
		}
		return true
	}
	i := -1
	for j := range g.vars {
		if g.vars[j].v == a.Var {
			i = j
			break
		}
	}
	if i < 0 {
		i = len(g.vars)
		n := len(dims)
		dc := ar.takeInts(2 * n) // the variable's dims and coefs, one array
		copy(dc, dims)
		copy(dc[n:], coefs)
		g.vars = append(g.vars, gridVar{v: a.Var, ro: true, dims: dc[:n:n], coefs: dc[n:], trans: len(a.Idx) > 0})
		wm.varRoom(&g.vars[i], i)
	}
	gv := &g.vars[i]
	g.accVar[accIdx] = i
	for k := range dims {
		if dims[k] != gv.dims[k] || coefs[k] != gv.coefs[k] {
			return false // two different slices per thread
		}
	}
	for _, d := range dims {
		if d < 0 {
			gv.trans = false
		}
	}
	if memo.a == a {
		memo.vi = i
	}
	g.addKind(t, gv)
	return true
}

// addKind notes live statement t's kind in its variable gv: a source,
// a check or a write.
func (g *gridPlan) addKind(t *Stmt, gv *gridVar) {
	switch t.Kind {
	case KRecordRead:
		gv.srcs = append(gv.srcs, int32(t.Src))
	case KCheckMutates:
		gv.checks = append(gv.checks, gridCheck{lvl: t.Level, qs: t.Quals})
	default:
		gv.ro = false
	}
}

// addExec notes statement t's start and shape.
func (g *gridPlan) addExec(t *Stmt) {
	for _, e := range g.execs {
		if e.shape == t.Exec.Shape && (e.aff == t.Exec.StartAff || affEqual(e.aff, t.Exec.StartAff)) {
			return
		}
	}
	g.execs = append(g.execs, gridExec{aff: t.Exec.StartAff, shape: t.Exec.Shape})
}

// blkCandidate is the block form's first test, made in Finish (the plan
// itself waits for the nest's first entry, gridEnter): every start of
// the nest's statements (but clears) reads s's iterator with one
// coefficient, and one reads the iterator of a loop inside s.
func blkCandidate(s *Stmt, stmts []*Stmt) bool {
	var buf [8]int
	other := blkOther(s, stmts, buf[:0])
	return len(other) > 0 && hasLoopOf(s.Body, other)
}

// blkOther is blkCandidate's test of the starts: the slots other than
// s's they read, appended to other, or none when a start fails it.
func blkOther(s *Stmt, stmts []*Stmt, other []int) []int {
	c0 := 0
	var last *Affine
	for _, t := range stmts {
		if t.Kind == KClearReads || t.Kind == KClearMutates {
			continue
		}
		a := t.Exec.StartAff
		if t.Exec.All || a == nil {
			return nil
		}
		if a == last {
			continue // the statements of one access share their start
		}
		last = a
		c := coefOf(a, s.Slot)
		if c == 0 || c0 != 0 && c != c0 {
			return nil
		}
		c0 = c
		for _, tm := range a.Terms {
			if tm.Slot != s.Slot && tm.Coef != 0 && !slices.Contains(other, tm.Slot) {
				other = append(other, tm.Slot)
			}
		}
	}
	return other
}

// hasLoopOf reports whether a loop of one of slots is in list or nested
// in it (a recursion that stops at the first, not Walk's closure: stop
// 33).
func hasLoopOf(list []*Stmt, slots []int) bool {
	for _, t := range list {
		if t.Kind == KLoop && slices.Contains(slots, t.Slot) || hasLoopOf(t.Body, slots) {
			return true
		}
	}
	return false
}
