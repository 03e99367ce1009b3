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
	return &gridPlan{blk: true, lazy: true}
}

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
		case KRecordRead, KRecordMutate, KClearReads, KClearMutates, KCheckReads, KCheckMutates:
			if t.Acc == nil || len(t.Bars) > 0 || t.TxBytes != 0 || t.TxCheck || t.Sync >= 0 {
				return stmts, false
			}
			stmts = append(stmts, t)
		default:
			return stmts, false
		}
	}
	return stmts, true
}

// gridStmts lists nest s's statements other than loops, blocks and Ifs.
func gridStmts(s *Stmt) []*Stmt {
	var stmts []*Stmt
	Walk(s, func(t *Stmt) {
		switch t.Kind {
		case KBlock, KLoop, KIf:
		default:
			stmts = append(stmts, t)
		}
	})
	return stmts
}

// planGridMode plans loop s, whose statements other than loops, blocks
// and Ifs are stmts, as a grid of one-thread points (blk false) or of
// thread blocks (blk true: thgrid_blk.go).
func (p *Program) planGridMode(s *Stmt, stmts []*Stmt, blk bool) *gridPlan {
	g := &gridPlan{blk: blk}
	// The axes: a chain of loops each the only statement of the previous
	// one's body; which of them are axes is decided by the start.
	chain := []*Stmt{s}
	for t := s; len(t.Body) == 1 && t.Body[0].Kind == KLoop && !t.Body[0].Tasks; {
		t = t.Body[0]
		chain = append(chain, t)
	}
	ok := true
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
		} else if !blk && !affEqual(g.start, t.Exec.StartAff) {
			return nil
		}
		found := false
		for _, sh := range g.shapes {
			found = found || sh == t.Exec.Shape
		}
		if !found {
			g.shapes = append(g.shapes, t.Exec.Shape)
		}
	}
	if g.start == nil {
		return nil
	}
	// Axes: the chain's loops whose iterator is in the start, which must
	// be a prefix of the chain starting at s; no other loop of the nest
	// may be in the start.
	isAxis := map[int]bool{}
	for i, l := range chain {
		c := coefOf(g.start, l.Slot)
		if c == 0 {
			if i == 0 {
				return nil
			}
			break
		}
		g.axes = append(g.axes, l)
		g.steps = append(g.steps, c)
		isAxis[l.Slot] = true
		if blk {
			break // one axis, the outer loop (thgrid_blk.go)
		}
	}
	if len(isAxis) != len(g.axes) {
		return nil // one slot for two axes
	}
	if blk && !g.blkStarts(s, isAxis) {
		return nil
	}
	last := g.axes[len(g.axes)-1]
	Walk(s, func(t *Stmt) {
		for _, c := range t.CtlSlots {
			if isAxis[c] {
				ok = false // a condition or bound that reads a thread
			}
		}
		if !blk && t.Kind == KLoop && !isAxis[t.Slot] && coefOf(g.start, t.Slot) != 0 {
			ok = false
		}
	})
	inner := false
	for _, t := range last.Body {
		Walk(t, func(u *Stmt) {
			if u.Kind == KLoop && isAxis[u.Slot] {
				ok = false // an axis slot reassigned inside
			}
			inner = inner || u.Kind == KLoop
		})
	}
	if !ok || !inner {
		// Without a sequential loop inside, a point runs one access
		// or a few: building the others' records costs about what
		// running them does (the Sm80 GEMM's cp.async nests were 20%
		// slower at 256), so such nests are not planned.
		return nil
	}
	// The bounds box: every loop of the nest, every access.
	b, nest := newLiteBox(s)
	if b == nil {
		return nil // a triangular nest: not a box
	}
	for i, l := range b.loops {
		if i < len(g.axes) && l != g.axes[i] {
			return nil
		}
	}
	varIdx := map[int]int{}
	if !b.walkChain(s, func(t *Stmt, encl []int) bool {
		return t.Acc == nil || t.Kind == KLoop || g.addAccess(p, t, b, encl, nest, isAxis, varIdx)
	}) {
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
	b.rng = make([]int, 2*len(b.loops))
	g.box = b
	return g
}

// addAccess classifies statement t's access for the plan.
func (g *gridPlan) addAccess(p *Program, t *Stmt, b *liteBox, encl []int, nest, isAxis map[int]bool, varIdx map[int]int) bool {
	a := t.Acc
	dims := make([]int, len(g.axes))
	coefs := make([]int, len(g.axes))
	for k := range dims {
		dims[k] = -1
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
	if len(a.Idx) == 0 {
		// The whole variable: every thread touches every cell.
		if !t.dead {
			for k := range dims {
				dims[k] = -1
			}
		}
	}
	found := false
	accIdx := -1
	for i, o := range b.accs {
		if o.a == a && len(o.chain) == len(encl) {
			same := true
			for j := range encl {
				same = same && o.chain[j] == encl[j]
			}
			if same {
				found, accIdx = true, i
			}
		}
	}
	if !found {
		ba, good := p.boxAccess(a, b.loops, encl, nest)
		if !good {
			return false
		}
		b.accs = append(b.accs, ba)
		g.accVar = append(g.accVar, -1)
		accIdx = len(b.accs) - 1
	}
	if t.dead {
		for k, d := range dims {
			if d >= 0 {
				g.deadDims = append(g.deadDims, gridDeadDim{v: a.Var, dim: d, coef: coefs[k]})
			}
		}
		return true
	}
	i, seen := varIdx[a.Var]
	if !seen {
		i = len(g.vars)
		varIdx[a.Var] = i
		g.vars = append(g.vars, gridVar{v: a.Var, ro: true, dims: dims, coefs: coefs, trans: len(a.Idx) > 0})
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
	switch t.Kind {
	case KRecordRead:
		gv.srcs = append(gv.srcs, int32(t.Src))
	case KCheckMutates:
		gv.checks = append(gv.checks, gridCheck{lvl: t.Level, qs: t.Quals})
	default:
		gv.ro = false
	}
	return true
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

// blkStarts checks the block form's starts in nest s, whose one axis is
// g.axes[0]: the axis's coefficient is the same in every start, a start
// reads no loop of the nest other than the axis and its statement's own
// enclosing loops, and some start reads a loop of the nest other than
// the axis (otherwise the points are one thread, thgrid.go's form).
func (g *gridPlan) blkStarts(s *Stmt, isAxis map[int]bool) bool {
	ax := g.axes[0]
	for _, e := range g.execs {
		if coefOf(e.aff, ax.Slot) != g.steps[0] {
			return false
		}
	}
	nest := map[int]bool{}
	Walk(s, func(t *Stmt) {
		if t.Kind == KLoop {
			nest[t.Slot] = true
		}
	})
	ok, inner := true, false
	var encl []int
	var walk func(t *Stmt)
	walk = func(t *Stmt) {
		if t.Kind == KLoop {
			encl = append(encl, t.Slot)
			defer func() { encl = encl[:len(encl)-1] }()
		}
		if t.Kind != KLoop && t.Kind != KBlock && t.Kind != KIf && t.Exec.StartAff != nil {
			for _, tm := range t.Exec.StartAff.Terms {
				if !nest[tm.Slot] || isAxis[tm.Slot] || tm.Coef == 0 {
					continue
				}
				mine := false
				for _, e := range encl {
					mine = mine || e == tm.Slot
				}
				ok = ok && mine
				inner = true
			}
		}
		for _, c := range t.Body {
			walk(c)
		}
	}
	walk(s)
	return ok && inner
}

// blkCandidate is the block form's first test, made in Finish (the plan
// itself waits for the nest's first entry, gridEnter): every start of
// the nest's statements (but clears) reads s's iterator with one
// coefficient, and one reads the iterator of a loop inside s.
func blkCandidate(s *Stmt, stmts []*Stmt) bool {
	c0 := 0
	var buf [8]int
	other := buf[:0] // the other slots the starts read
	var last *Affine
	for _, t := range stmts {
		if t.Kind == KClearReads || t.Kind == KClearMutates {
			continue
		}
		a := t.Exec.StartAff
		if t.Exec.All || a == nil {
			return false
		}
		if a == last {
			continue // the statements of one access share their start
		}
		last = a
		c := coefOf(a, s.Slot)
		if c == 0 || c0 != 0 && c != c0 {
			return false
		}
		c0 = c
		for _, tm := range a.Terms {
			if tm.Slot != s.Slot && tm.Coef != 0 && !slices.Contains(other, tm.Slot) {
				other = append(other, tm.Slot)
			}
		}
	}
	inner := false
	if len(other) > 0 {
		for _, t := range s.Body {
			Walk(t, func(u *Stmt) {
				inner = inner || u.Kind == KLoop && slices.Contains(other, u.Slot)
			})
		}
	}
	return inner
}
