package amir

import "slices"

// A grid nest's entry layout as the last entry's moved by the outer
// loops' steps (issue 13, stop 37: shfl_xor).
//
// gridTry's work at an entry is of two kinds. The layout: the bounds of
// every window over the nest's box (boxOK), the first point's thread
// (th0, w), the points, and per variable the representative's block box,
// its flat-index shift per axis, its slab and each point's offset. The
// state: whether the slabs are deferred already (gridVirtSame), the
// builds (gridMaterialize*), condition 1 or 2 on the cells' records
// (gridCompare, gridSharedOK). shfl_xor enters each of its three block
// nests four times, once per iteration of `s`, and the layout was made
// from scratch at each: about 70 K instructions a check of the 171 K of
// gridTry (boxOK, boxSpan, the offsets, six allocations an entry).
//
// The layout is a function of the nest's loop ranges (b.rng), of the
// shapes of the variables it touches (their incarnations: varState.epoch
// fixes dims, gran, blocks and strides), and of the values of the slots
// fixed in the nest that the windows and the starts read (the enclosing
// loops' iterators: shfl_xor's `s`, the task). Every window and start is
// affine (planGridMode: boxAccess's forms, the starts' Affines), so a
// fixed slot σ enters each form only as coef_σ·env[σ]. An entry whose
// ranges and incarnations are the last one's and whose fixed slots moved
// by δ therefore has:
//
//   - each window's least and greatest value over the box moved by
//     Δ = Σ coef_σ·δ_σ (a range window's lo and hi forms must have the
//     same fixed coefficients, so its width, the diff form, is unmoved):
//     the bounds test is the last entry's extremes plus Δ against the
//     same extents (a ModAffine window reads no slot: unmoved);
//   - th0 moved by the start's Δ (a block grid's th0 is a least value
//     over its starts: all of them must have the same fixed
//     coefficients), w unchanged; the points are gridPointsOf's (shared
//     when th0 did not move);
//   - a variable's block box moved by Δ_d / gran_d along dimension d,
//     exactly, when every access of the variable has the same fixed
//     coefficients in d and gran_d divides Δ_d: floor((x + k·g) / g) =
//     floor(x / g) + k, and x ≥ 0 (the bounds hold). Its shift is
//     unchanged (strides and gran), so is each point's offset (a
//     function of the points' coordinates, fixed by the ranges, and the
//     shift);
//     the slab moves with the box along the axes' dimensions and spans
//     the variable along the others; its fits test is made again (the
//     overlap part is unmoved).
//
// Anything else (a range or incarnation changed, more than four fixed
// slots, coefficients that differ, a Δ that gran does not divide, a bound
// that no longer holds, a negative th0, points that collide) makes the
// layout from scratch, which decides exactly as before. The state is
// computed at every entry as before: the layout only says which cells
// the comparisons look at, and it is the one gridTry would have made, so
// the comparisons, and with them the hazards (seed 000 Fig. 7 through
// thgrid.go's conditions 1 and 2), are the full comparison's.
//
// TestGridMoveMatchesFresh (thgrid_move_test.go) makes the layout from
// scratch beside every moved one and compares them, and compares the
// machine's Result with moves, without them (noGridMove) and without
// grids.

// Package-level test switches for whole checks (thgrid_move_export_test.go):
// gridMoveOff and gridMoveCheck act as every machine's noGridMove and
// gridMoveVerify; the counters add up every machine's moves and
// differences while gridMoveCheck is on.
var (
	gridMoveOff, gridMoveCheck      bool
	gridMoveCount, gridMoveBadCount int64
)

// gridMoveSlots bounds the fixed slots a movable nest reads.
const gridMoveSlots = 4

// gridMoveInfo is a plan's static facts for moving layouts: the fixed
// slots, th0's coefficient on each, each window's (per box access and
// dimension), and each variable's per dimension.
type gridMoveInfo struct {
	slots   []int
	slotBuf [gridMoveSlots]int
	th0     [gridMoveSlots]int
	// acc lists the box accesses' affine windows (mod windows and
	// whole-variable accesses read no slot).
	acc []gridMoveDim
	// varCo[i] holds variable i's coefficients by dimension (nil: every
	// dimension's are zero).
	varCo [][][gridMoveSlots]int
	// The lists' room for a nest of up to gridMoveDimsIn windows and
	// gridRTVarsIn variables, in the info's own allocation (issue 13,
	// stop 46: made apart, they had been three of each of shfl_xor's
	// block plans' allocations).
	accIn   [gridMoveDimsIn]gridMoveDim
	allIn   [gridMoveDimsIn][gridMoveSlots]int
	varCoIn [gridRTVarsIn][][gridMoveSlots]int
}

// gridMoveDimsIn is the most windows a gridMoveInfo holds in its own
// allocation (shfl_xor's shuffle nest has 16).
const gridMoveDimsIn = 16

type gridMoveDim struct {
	j, d int
	co   [gridMoveSlots]int
}

// gridLay is one entry's layout (gridNest.lay: the last one made).
type gridLay struct {
	pl     *gridPlan
	rng    []int    // the box's ranges
	epochs []uint64 // by box access, its variable's incarnation
	vals   []int    // the fixed slots' values
	th0, w int32
	// span[i]: the least and greatest value of move info acc[i]'s window
	// over the box, and the extent; run[i]: the access is executed.
	span []gridSpan
	vars []gridLayVar
	// ints: the ints a move's boxes and slabs take (4 per dimension of
	// each executed variable).
	ints int
	// spare: room left in gridLayFresh's ints for gridLayKeep's ranges
	// and slots' values; epochsIn, for its incarnations (epochs).
	spare    []int
	epochsIn [gridLayAccsIn]uint64
}

// gridLayMem is a layout with room for a small nest's variables and
// accesses (gridRTMem's limits; gridLayAccsIn box accesses), in one
// allocation: gridLayFresh and gridLayKeep had made five objects a
// layout, three of them this one's parts (issue 13, stop 46: 9 of
// shfl_xor's allocations a check). Only where the lists live changes:
// their lengths and contents are as made apart.
type gridLayMem struct {
	lay  gridLay
	vars [gridRTVarsIn]gridLayVar
}

// gridLayAccsIn is the most box accesses a layout holds the
// incarnations of in its own allocation.
const gridLayAccsIn = 8

type gridSpan struct {
	lo, hi, ext int
	run         bool
}

// gridLayVar is one variable's layout (gridTry's vr and slab).
type gridLayVar struct {
	never      bool // no access of it executed
	lo, hi     []int
	slo, shi   []int // the slab (translated variables)
	shift      []int
	offs       []int32
	fits, over bool
	axisDim    []int // per dimension, the axis reading it, or -1
}

// gridMoveInfoOf returns pl's move info, made at its first use (nil: the
// plan's layouts are not moved).
func gridMoveInfoOf(pl *gridPlan) *gridMoveInfo {
	if !pl.mvDone {
		pl.mvDone = true
		pl.mv = makeGridMoveInfo(pl)
	}
	return pl.mv
}

// makeGridMoveInfo computes pl's move info, or nil.
func makeGridMoveInfo(pl *gridPlan) *gridMoveInfo {
	b := pl.box
	mi := &gridMoveInfo{}
	mi.slots = mi.slotBuf[:0] // at most gridMoveSlots: no allocation (stop 38)
	// slotIdx returns slot's index in mi.slots, adding it; -1 when full.
	slotIdx := func(slot int) int {
		if i := slices.Index(mi.slots, slot); i >= 0 {
			return i
		}
		if len(mi.slots) == gridMoveSlots {
			return -1
		}
		mi.slots = append(mi.slots, slot)
		return len(mi.slots) - 1
	}
	// coefs gives f's fixed coefficients (false: too many slots).
	coefs := func(f *boxAff) (co [gridMoveSlots]int, ok bool) {
		for _, t := range f.terms {
			if t.loop >= 0 || t.coef == 0 {
				continue
			}
			i := slotIdx(t.slot)
			if i < 0 {
				return co, false
			}
			co[i] += t.coef
		}
		return co, true
	}
	affCo := func(a *Affine) (co [gridMoveSlots]int, ok bool) {
		for _, t := range a.Terms {
			if t.Coef == 0 || b.inNest(t.Slot) {
				continue
			}
			i := slotIdx(t.Slot)
			if i < 0 {
				return co, false
			}
			co[i] += t.Coef
		}
		return co, true
	}
	// th0's coefficients: the start's (one-thread form: its other terms
	// are fixed, ctlOK), or every block start's alike.
	if pl.blk {
		for k, e := range pl.execs {
			co, ok := affCo(e.aff)
			if !ok || k > 0 && co != mi.th0 {
				return nil
			}
			mi.th0 = co
		}
	} else {
		co, ok := affCo(pl.start)
		if !ok {
			return nil
		}
		mi.th0 = co
	}
	// Room for every window's coefficients at once: a nest has a few
	// accesses (their growth was most of this function's cost).
	nd := 0
	for j := range b.accs {
		nd += len(b.accs[j].dims)
	}
	var all [][gridMoveSlots]int
	if nd <= gridMoveDimsIn {
		mi.acc, all = mi.accIn[:0:nd], mi.allIn[:nd:nd]
	} else {
		mi.acc, all = make([]gridMoveDim, 0, nd), make([][gridMoveSlots]int, nd)
	}
	if nv := len(pl.vars); nv <= len(mi.varCoIn) {
		mi.varCo = mi.varCoIn[:nv:nv]
	} else {
		mi.varCo = make([][][gridMoveSlots]int, nv)
	}
	for j := range b.accs {
		ba := &b.accs[j]
		i := pl.accVar[j]
		dims := all[:len(ba.dims):len(ba.dims)] // this access's, by dimension
		all = all[len(ba.dims):]
		for d := range ba.dims {
			bd := &ba.dims[d]
			if bd.mod != nil {
				continue // reads no slot
			}
			co, ok := coefs(&bd.lo)
			if !ok {
				return nil
			}
			if bd.rng {
				hc, ok := coefs(&bd.hi)
				if !ok || hc != co {
					return nil // the width moves
				}
			}
			mi.acc = append(mi.acc, gridMoveDim{j: j, d: d, co: co})
			dims[d] = co
		}
		if i < 0 {
			continue
		}
		old := mi.varCo[i]
		if old == nil {
			mi.varCo[i] = dims
			continue
		}
		// Every access of the variable alike (a whole one reads no slot).
		for d := range max(len(old), len(dims)) {
			var a, c [gridMoveSlots]int
			if d < len(old) {
				a = old[d]
			}
			if d < len(dims) {
				c = dims[d]
			}
			if a != c {
				return nil
			}
		}
		if len(dims) > len(old) {
			mi.varCo[i] = dims
		}
	}
	return mi
}

// gridLayout sets g's th0, w and points for the box's current ranges and
// returns the entry's layout: the last one moved, or made (nil: the nest
// is refused at this entry).
func (m *Machine) gridLayout(g *gridRT, nest *gridNest, b *liteBox, ns []int, n int) *gridLay {
	if old := nest.lay; old != nil && !m.noGridMove && !gridMoveOff {
		if lay := m.gridLayMove(g, nest, old, b, ns); lay != nil {
			m.gridMoved++
			if m.gridMoveVerify || gridMoveCheck {
				m.gridLayVerify(g, nest, lay, b, ns, n)
			}
			nest.lay = lay
			return lay
		}
	}
	nest.lay, nest.layHeld = nil, false
	lay := m.gridLayFresh(g, nest, b, ns, n)
	if lay != nil && gridMoveInfoOf(g.pl) != nil {
		m.gridLayKeep(lay, b)
		nest.lay = lay
	}
	return lay
}

// gridLayFresh makes the layout from scratch (gridTry's steps before
// stop 37, in their order).
func (m *Machine) gridLayFresh(g *gridRT, nest *gridNest, b *liteBox, ns []int, n int) *gridLay {
	pl := g.pl
	env := m.env
	// Every window of every thread in bounds.
	if !m.boxOK(b) {
		return nil
	}
	if pl.blk {
		if !m.gridBlockSpan(g, b) {
			return nil
		}
	} else {
		var buf [8]int
		saved := buf[:0]
		for k, ax := range pl.axes {
			saved = append(saved, env[ax.Slot])
			env[ax.Slot] = b.rng[2*k]
		}
		g.th0, g.w = int32(pl.start.Eval(env)), 1
		for k, ax := range pl.axes {
			env[ax.Slot] = saved[k]
		}
	}
	// The grid's threads, distinct: the last entry's when its shape is
	// this one's (thgrid_pts.go).
	if !m.gridPointsOf(g, nest, ns) {
		return nil
	}
	// Dead accesses: the block count may not depend on the thread.
	for _, dd := range pl.deadDims {
		st := &m.vars[dd.v]
		if !st.live || dd.dim >= len(st.gran) || dd.coef%st.gran[dd.dim] != 0 {
			return nil
		}
	}
	// Every variable's lo, hi, the slab's lo and hi, the axes by
	// dimension and shift in one allocation, and every translated
	// variable's offsets in another, sized first (stop 38: two
	// allocations a variable had been most of this function's objects).
	nInts, nOffs := 0, 0
	for i := range pl.vars {
		gv := &pl.vars[i]
		st := &m.vars[gv.v]
		if !st.live || m.p.Vars[gv.v].Barrier {
			return nil
		}
		nInts += 5*len(st.dims) + len(pl.axes)
		if gv.trans {
			nOffs += n
		}
	}
	// gridLayKeep's ranges and the slots' values at the end, when the
	// layout may be kept (gridLayout).
	nKeep := 0
	if pl.mv != nil || !pl.mvDone {
		nKeep = len(b.rng) + gridMoveSlots
	}
	all := make([]int, nInts+nKeep)
	allOffs := make([]int32, nOffs)
	mem := &gridLayMem{lay: gridLay{pl: pl, th0: g.th0, w: g.w}}
	lay := &mem.lay
	if nv := len(pl.vars); nv <= len(mem.vars) {
		lay.vars = mem.vars[:nv:nv]
	} else {
		lay.vars = make([]gridLayVar, nv)
	}
	lay.spare = all[nInts:]
	all = all[:nInts]
	for i := range pl.vars {
		gv := &pl.vars[i]
		st := &m.vars[gv.v]
		lv := &lay.vars[i]
		nd := len(st.dims)
		ints := all[: 5*nd+len(pl.axes) : 5*nd+len(pl.axes)]
		all = all[len(ints):]
		lv.lo, lv.hi = ints[:nd:nd], ints[nd:2*nd:2*nd]
		for d := 0; d < nd; d++ {
			lv.lo[d], lv.hi[d] = -1, -1
		}
		// The representative's box: the axes at their first point.
		for k := range pl.axes {
			b.rng[2*k+1] = b.rng[2*k] + 1
		}
		for j := range b.accs {
			if pl.accVar[j] != i {
				continue
			}
			if !m.boxSpan(b, j, st, lv.lo, lv.hi) {
				m.gridRestore(b, g)
				return nil
			}
		}
		m.gridRestore(b, g)
		lv.shift = ints[5*nd:]
		for k, d := range gv.dims {
			if d < 0 {
				continue
			}
			gr := st.gran[d]
			if d >= nd || gv.coefs[k]%gr != 0 {
				return nil
			}
			lv.shift[k] = gv.coefs[k] / gr * st.strides[d]
		}
		if lv.lo[0] < 0 && nd > 0 {
			lv.never = true
			continue // never executed
		}
		if !gv.trans {
			continue
		}
		// The slab: c_k / gran blocks along d_k from the first touched
		// one, every block of the other dimensions.
		lv.slo, lv.shi = ints[2*nd:3*nd:3*nd], ints[3*nd:4*nd:4*nd]
		copy(lv.slo, lv.lo)
		copy(lv.shi, lv.hi)
		lv.axisDim = ints[4*nd : 5*nd : 5*nd]
		isAx := lv.axisDim
		for d := range isAx {
			isAx[d] = -1
		}
		for k, d := range gv.dims {
			isAx[d] = k
		}
		lv.fits = true
		for d := 0; d < nd; d++ {
			k := isAx[d]
			if k < 0 {
				lv.slo[d], lv.shi[d] = 0, st.blocks[d]
				continue
			}
			w := gv.coefs[k] / st.gran[d]
			if lv.shi[d] > lv.slo[d]+w {
				lv.over = true // slabs overlap
				lv.fits = false
			}
			if lv.slo[d]+w*g.ns[k] > st.blocks[d] {
				lv.fits = false // slabs leave the variable
			}
			lv.shi[d] = lv.slo[d] + w
		}
		lv.offs = allOffs[:n:n]
		allOffs = allOffs[n:]
		if len(g.ns) == 1 && len(g.pts) == n {
			// One axis (a block grid's): a point's offset is its
			// coordinate times the shift (gridOffsetOf's one term,
			// without its slice per point: stop 46, ~2.5 K
			// instructions of shfl_xor's check).
			sh := lv.shift[0]
			for p, x := range g.pts {
				lv.offs[p] = int32(x * sh)
			}
		} else {
			for p := range lv.offs {
				lv.offs[p] = gridOffsetOf(g, lv.shift, p)
			}
		}
	}
	return lay
}

// gridOffsetOf is π_p's flat-index shift for a variable of shift shift.
func gridOffsetOf(g *gridRT, shift []int, p int) int32 {
	off := 0
	for k, x := range g.pts[p*len(g.ns) : (p+1)*len(g.ns)] {
		off += x * shift[k]
	}
	return int32(off)
}

// gridLayKeep records in lay what a later entry moves: the ranges, the
// incarnations, the fixed slots' values and the windows' extremes.
func (m *Machine) gridLayKeep(lay *gridLay, b *liteBox) {
	mi := gridMoveInfoOf(lay.pl)
	// The ranges and the slots' values in one allocation (stop 38).
	nr := len(b.rng)
	var ints []int
	if k := nr + len(mi.slots); k <= len(lay.spare) {
		ints = lay.spare[:k:k] // zero: gridLayFresh's
	} else {
		ints = make([]int, k)
	}
	lay.spare = nil
	lay.rng, lay.vals = ints[:nr:nr], ints[nr:]
	copy(lay.rng, b.rng)
	if len(b.accs) <= len(lay.epochsIn) {
		lay.epochs = lay.epochsIn[:len(b.accs):len(b.accs)]
	} else {
		lay.epochs = make([]uint64, len(b.accs))
	}
	for j := range b.accs {
		lay.epochs[j] = m.vars[b.accs[j].a.Var].epoch
	}
	for i, sl := range mi.slots {
		lay.vals[i] = m.env[sl]
	}
	lay.ints = 0
	for i := range lay.vars {
		if lv := &lay.vars[i]; !lv.never {
			lay.ints += 4 * len(lv.lo)
		}
	}
	lay.span = make([]gridSpan, len(mi.acc))
outer:
	for i := range mi.acc {
		ba := &b.accs[mi.acc[i].j]
		for _, c := range ba.chain {
			if b.rng[2*c] >= b.rng[2*c+1] {
				continue outer // never executed (boxOK)
			}
		}
		bd := &ba.dims[mi.acc[i].d]
		l0, l1 := b.span(&bd.lo, m.env)
		if bd.rng {
			_, h1 := b.span(&bd.hi, m.env)
			l1 = h1 - 1
		}
		lay.span[i] = gridSpan{lo: l0, hi: l1, ext: m.vars[ba.a.Var].dims[mi.acc[i].d], run: true}
	}
}

// gridLayMove returns old moved to the current entry, or nil when the
// layout must be made (see the top of the file).
func (m *Machine) gridLayMove(g *gridRT, nest *gridNest, old *gridLay, b *liteBox, ns []int) *gridLay {
	pl := g.pl
	mi := gridMoveInfoOf(pl)
	if old.pl != pl || mi == nil || !slices.Equal(old.rng, b.rng) {
		return nil
	}
	for j := range b.accs {
		if st := &m.vars[b.accs[j].a.Var]; st.epoch != old.epochs[j] {
			return nil
		}
	}
	var dl [gridMoveSlots]int
	for i, sl := range mi.slots {
		dl[i] = m.env[sl] - old.vals[i]
	}
	dot := func(co *[gridMoveSlots]int) int {
		return co[0]*dl[0] + co[1]*dl[1] + co[2]*dl[2] + co[3]*dl[3]
	}
	// The bounds (boxOK) moved. The last layout is updated in place: its
	// boxes and slabs are new slices (regions keep the old ones:
	// gridVirtAdd), the rest is the nest's alone. A refusal part way
	// leaves it half moved, which is harmless: gridLayout drops it then
	// (nest.lay = nil) and makes the layout from scratch. So each Δ is
	// computed once, tested and applied in one pass (stop 40).
	for i := range old.span {
		sp := &old.span[i]
		if sp.run {
			dv := dot(&mi.acc[i].co)
			if sp.lo+dv < 0 || sp.hi+dv >= sp.ext {
				return nil
			}
			sp.lo, sp.hi = sp.lo+dv, sp.hi+dv
		}
	}
	// (A negative th0 is refused by gridPointsOf.)
	g.th0, g.w = old.th0+int32(dot(&mi.th0)), old.w
	if !m.gridPointsOf(g, nest, ns) {
		return nil
	}
	// The variables' boxes and slabs moved, in one new slice (its size
	// is fixed by the incarnations: old.ints) when a deferred slab may
	// hold the old ones (nest.layHeld), else in place (issue 13, stop
	// 47: one allocation each of shfl_xor's 9 moves a check, 4 now): the
	// last entry's frame, the only other reader of them, is over
	// (gridFree), and each element is read before it is written, by the
	// same dimension's step.
	var ints []int
	if nest.layHeld || gridNoReuse {
		ints = make([]int, old.ints)
		nest.layHeld = false
	}
	for i := range old.vars {
		lv := &old.vars[i]
		if lv.never {
			continue
		}
		st := &m.vars[pl.vars[i].v]
		nd := len(lv.lo)
		lo, hi := lv.lo, lv.hi
		if ints != nil {
			lo, hi = ints[:nd:nd], ints[nd:2*nd:2*nd]
		}
		co := mi.varCo[i]
		for d := 0; d < nd; d++ {
			dv := 0
			if d < len(co) {
				if dv = dot(&co[d]); dv%st.gran[d] != 0 {
					return nil
				}
				dv /= st.gran[d]
			}
			lo[d], hi[d] = lv.lo[d], lv.hi[d]
			if lo[d] >= 0 {
				lo[d] += dv
			}
			if hi[d] >= 0 {
				hi[d] += dv
			}
		}
		lv.lo, lv.hi = lo, hi
		if lv.slo != nil {
			slo, shi := lv.slo, lv.shi
			if ints != nil {
				slo, shi = ints[2*nd:3*nd:3*nd], ints[3*nd:4*nd:4*nd]
			}
			lv.fits = !lv.over
			gv := &pl.vars[i]
			for d := 0; d < nd; d++ {
				k := lv.axisDim[d]
				if k < 0 {
					slo[d], shi[d] = lv.slo[d], lv.shi[d]
					continue
				}
				w := gv.coefs[k] / st.gran[d]
				slo[d], shi[d] = lo[d], lo[d]+w
				if slo[d]+w*g.ns[k] > st.blocks[d] {
					lv.fits = false
				}
			}
			lv.slo, lv.shi = slo, shi
		}
		if ints != nil {
			ints = ints[4*nd:]
		}
	}
	for i, sl := range mi.slots {
		old.vals[i] = m.env[sl]
	}
	old.th0 = g.th0
	return old
}

// gridLayVerify makes the layout from scratch beside moved layout lay
// (tests: gridMoveVerify) and counts the differences in gridMoveBad.
func (m *Machine) gridLayVerify(g *gridRT, nest *gridNest, lay *gridLay, b *liteBox, ns []int, n int) {
	g2 := *g
	nest2 := *nest
	f := m.gridLayFresh(&g2, &nest2, b, ns, n)
	bad := f == nil || g2.th0 != g.th0 || g2.w != g.w || !slices.Equal(g2.ths, g.ths) || len(f.vars) != len(lay.vars)
	for i := 0; !bad && i < len(f.vars); i++ {
		a, c := &f.vars[i], &lay.vars[i]
		bad = a.never != c.never
		if bad || a.never {
			continue
		}
		bad = !slices.Equal(a.lo, c.lo) || !slices.Equal(a.hi, c.hi) || !slices.Equal(a.slo, c.slo) ||
			!slices.Equal(a.shi, c.shi) || !slices.Equal(a.shift, c.shift) || !slicesEqual32(a.offs, c.offs) ||
			a.fits != c.fits
	}
	if bad {
		m.gridMoveBad++
	}
	if gridMoveCheck {
		gridMoveCount++
		if bad {
			gridMoveBadCount++
		}
	}
}
