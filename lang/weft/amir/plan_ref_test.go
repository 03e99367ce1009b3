package amir

import "slices"

// The symmetry planners as they were at the end of issue 13, stop 32
// (plan_grid.go, plan_thsym.go, lite.go at main 13b919c), kept as the
// reference of the differential tests of stop 33's planners (conv33:
// plan_agree_test.go): the plans must be equal.
//
// This file pins the planners' decisions, not only their soundness: a
// later change that plans more (or less) on purpose makes TestPlansAgree
// fail, and should then delete this file and plan_agree*_test.go rather
// than edit the copy. Soundness stays covered without it: the machine's
// differential tests compare every symmetric run with the run in full
// (NoThreadSym, noGrid) on the same random programs.

// planGridModeRef plans loop s, whose statements other than loops, blocks
// and Ifs are stmts, as a grid of one-thread points (blk false) or of
// thread blocks (blk true: thgrid_blk.go).
func (p *Program) planGridModeRef(s *Stmt, stmts []*Stmt, blk bool) *gridPlan {
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
	if blk && !g.blkStartsRef(s, isAxis) {
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
	b, nest := newLiteBoxRef(s)
	if b == nil {
		return nil // a triangular nest: not a box
	}
	for i, l := range b.loops {
		if i < len(g.axes) && l != g.axes[i] {
			return nil
		}
	}
	varIdx := map[int]int{}
	if !b.walkChainRef(s, func(t *Stmt, encl []int) bool {
		return t.Acc == nil || t.Kind == KLoop || g.addAccessRef(p, t, b, encl, nest, isAxis, varIdx)
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

// addAccessRef classifies statement t's access for the plan.
func (g *gridPlan) addAccessRef(p *Program, t *Stmt, b *liteBox, encl []int, nest, isAxis map[int]bool, varIdx map[int]int) bool {
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
		ba, good := p.boxAccessRef(a, b.loops, encl, nest)
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

// blkStartsRef checks the block form's starts in nest s, whose one axis is
// g.axes[0]: the axis's coefficient is the same in every start, a start
// reads no loop of the nest other than the axis and its statement's own
// enclosing loops, and some start reads a loop of the nest other than
// the axis (otherwise the points are one thread, thgrid.go's form).
func (g *gridPlan) blkStartsRef(s *Stmt, isAxis map[int]bool) bool {
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

// planThreadSymRef returns loop s's thread-symmetry plan, or nil when its
// body is outside the form above.
func (p *Program) planThreadSymRef(s *Stmt) *thPlan {
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
	// Dead-only conditions (issue 13, stop 44: thPlan.ydead): an If of
	// the loop's own body list holding only dead data statements (alone
	// or in dead runs), none with a barrier access, a transaction or a
	// window on the thread; the first thDeadConds of them.
	for k, c := range pl.yconds {
		dead := slices.Contains(s.Body, c)
		var leaves []*Stmt
		for _, b := range c.Body {
			if b.Kind == kRun {
				dead = dead && b.dead
				leaves = append(leaves, b.Body...)
			} else {
				leaves = append(leaves, b)
			}
		}
		for _, b := range leaves {
			switch b.Kind {
			case KCheckReads, KCheckMutates, KRecordRead, KRecordMutate, KClearReads, KClearMutates:
			default:
				dead = false
				continue
			}
			if !b.dead || b.Acc == nil || len(b.Bars) > 0 || b.TxBytes != 0 || b.TxCheck {
				dead = false
				continue
			}
			for i := range b.Acc.Idx {
				if r, known := winReads(b.Acc, &b.Acc.Idx[i], y); r || !known {
					dead = false
				}
			}
		}
		n := 0
		for j := 0; j < 32; j++ {
			if pl.ydead&(1<<j) != 0 {
				n++
			}
		}
		if dead && k < 32 && n < thDeadConds {
			pl.ydead |= 1 << k
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

// newLiteBoxRef collects the loop nest of s (s first, then its inner loops
// in walk order) and the set of their slots; nil when an inner loop's
// bounds or conditions read a nest loop's slot (a triangular nest is not
// a box). planBox and planGrid both start from it.
func newLiteBoxRef(s *Stmt) (*liteBox, map[int]bool) {
	b := &liteBox{}
	nest := map[int]bool{}
	Walk(s, func(t *Stmt) {
		if t.Kind == KLoop {
			b.loops = append(b.loops, t)
			nest[t.Slot] = true
		}
	})
	for _, l := range b.loops[1:] {
		for _, sl := range l.CtlSlots {
			if nest[sl] {
				return nil, nil
			}
		}
	}
	return b, nest
}

// walkChainRef visits the statements under s (s included) in walk order,
// each with chain: the indices in b.loops of the nest loops enclosing it
// (a loop's own index included). It stops at the first visit that
// returns false and reports whether none did. planBox and planGrid
// compile each access against exactly its enclosing loops.
func (b *liteBox) walkChainRef(s *Stmt, visit func(t *Stmt, chain []int) bool) bool {
	var chain []int
	var walk func(t *Stmt) bool
	walk = func(t *Stmt) bool {
		n := len(chain)
		if t.Kind == KLoop {
			for i, l := range b.loops {
				if l == t {
					chain = append(chain, i)
				}
			}
		}
		ok := visit(t, chain)
		for _, c := range t.Body {
			if !ok {
				break
			}
			ok = walk(c)
		}
		chain = chain[:n]
		return ok
	}
	return walk(s)
}

// boxAccessRef compiles access a enclosed by the nest loops chain.
func (p *Program) boxAccessRef(a *Access, loops []*Stmt, chain []int, nest map[int]bool) (boxAcc, bool) {
	ba := boxAcc{a: a, chain: append([]int(nil), chain...)}
	conv := func(af *Affine, sign int, out *boxAff) bool {
		out.k += sign * af.K
		for _, t := range af.Terms {
			loop := -1
			for _, i := range chain {
				if loops[i].Slot == t.Slot {
					loop = i // the innermost enclosing loop of the slot
				}
			}
			if loop < 0 && nest[t.Slot] {
				return false // a nest slot read outside its loop
			}
			merged := false
			for j := range out.terms {
				if out.terms[j].slot == t.Slot {
					out.terms[j].coef += sign * t.Coef
					merged = true
				}
			}
			if !merged {
				out.terms = append(out.terms, boxTerm{slot: t.Slot, coef: sign * t.Coef, loop: loop})
			}
		}
		return true
	}
	for i := range a.Idx {
		w := &a.Idx[i]
		var d boxDim
		switch {
		case w.Hi == nil && w.LoAff == nil && w.LoMod != nil:
			d.mod = w.LoMod
		case w.LoAff == nil:
			return ba, false
		case w.Hi == nil:
			if !conv(w.LoAff, 1, &d.lo) {
				return ba, false
			}
		default:
			if w.HiAff == nil {
				return ba, false
			}
			d.rng = true
			if !conv(w.LoAff, 1, &d.lo) || !conv(w.HiAff, 1, &d.hi) ||
				!conv(w.HiAff, 1, &d.diff) || !conv(w.LoAff, -1, &d.diff) {
				return ba, false
			}
		}
		ba.dims = append(ba.dims, d)
	}
	return ba, true
}

// planBoxRef builds the bounds plan of loop s, or nil when some window or
// inner loop bound is outside its reach.
func (p *Program) planBoxRef(s *Stmt) *liteBox {
	b, nest := newLiteBoxRef(s)
	if b == nil {
		return nil // a triangular nest: not a box
	}
	ok := b.walkChainRef(s, func(t *Stmt, chain []int) bool {
		ok := true
		if t.dead && t.checkLite {
			add := func(a *Access) {
				if p.Vars[a.Var].TaskLocal {
					return
				}
				for _, o := range b.accs {
					if o.a == a && slices.Equal(o.chain, chain) {
						return // the statements of one access
					}
				}
				ba, good := p.boxAccessRef(a, b.loops, chain, nest)
				if !good {
					ok = false
					return
				}
				b.accs = append(b.accs, ba)
			}
			for _, a := range t.Bars {
				add(a)
			}
			add(t.Acc)
		}
		return ok
	})
	if !ok {
		return nil
	}
	b.rng = make([]int, 2*len(b.loops))
	return b
}

// planGridRef returns the grid plan of loop s, or nil when s is outside the
// form above and outside its block form (thgrid_blk.go).
func (p *Program) planGridRef(s *Stmt) *gridPlan {
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
		if g := p.planGridModeRef(s, stmts, false); g != nil {
			return g
		}
	}
	if !blkCandidateRef(s, stmts) {
		return nil
	}
	// Planned at the first entry outside a grid (gridEnter): a loop
	// inside a block nest never is, nor a nest never entered.
	return &gridPlan{blk: true, lazy: true}
}

// blkCandidateRef is the block form's first test, made in Finish (the plan
// itself waits for the nest's first entry, gridEnter): every start of
// the nest's statements (but clears) reads s's iterator with one
// coefficient, and one reads the iterator of a loop inside s.
func blkCandidateRef(s *Stmt, stmts []*Stmt) bool {
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
