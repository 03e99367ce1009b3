package amir

import "slices"

// Deferred slabs (issue 13: the scalar shared-memory matmul).
//
// A grid nest (thgrid.go) ends by building every point's slab of each
// translated variable from the representative's: slab_p = τ_p(slab_0).
// The matmul's accumulators are such a variable in five nests of one
// frame per task (the zeroing, three K slices, the epilogue), and with
// nothing else touching them in between, each nest built 255 slabs only
// for the next one to compare them again. Instead the build is deferred:
// the variable records the frame and the representative's slab, and its
// other slabs are built (gridMaterialize) when anything else may look at
// them:
//
//   - a statement outside a grid's representative run on the variable
//     (effect, execRun), or a grid nest that uses it otherwise (another
//     frame, slab or offsets, or read-only and shared: gridTry);
//   - an event that holds some but not all of the frame's threads
//     (gridVirtEvent, before it is logged);
//   - never for an Alloc of it, which frees every cell (gridVirtDrop).
//
// Why this is the eager build's state. While deferred, slab_p = τ_p(slab_0)
// holds of the state the eager build would have: (i) a later nest of the
// same frame, slab and offsets acts on each slab_p as τ_p of its action on
// slab_0 (argument 1 of thgrid.go; its entry condition is this very
// equality, so it is not compared again); (ii) an event logged meanwhile
// holds all of the frame's threads or none of them (or is another
// task's), so replaying it on τ_p(r) gives τ_p of replaying it on r
// (τ_p moves the representative's thread to point p's, both in or both
// out of the event's set, and leaves every other set alone); (iii)
// nothing else reads or changes the slabs (the hooks above). Building
// slab_p from the replayed slab_0 at any later time gives the eager
// state brought up to that time. Thread symmetry (thsym.go) stays off
// while a slab is deferred. TestGridMatchesFull runs with and without
// deferring (TestGridDeferMatchesEager).

// gridVirt is a variable's deferred slabs.
type gridVirt struct {
	g      *gridRT
	lo, hi []int
	offs   []int32 // by point
	shift  []int
	epoch  uint64
	// mixed: an event since the nest gave the slabs' records a grant to
	// a set that holds some but not all of the frame's threads
	// (gridCommutes): each slab is still τ_p of the first, but a later
	// nest's checks would tell the points apart.
	mixed bool
	// grpRep: the slabs hold group records whose members include grid
	// threads (thgrid_grp.go): an event that expands groups builds them
	// first (gridGrpEvent).
	grpRep bool
	// cells0: slab_0's cells (forCells order); inSlab: a bit per cell of
	// the variable in slabs 1..n-1 (made at first use: slabCells).
	cells0 []int32
	inSlab []uint64
	// next is an older region of the same variable, deferred by a block
	// grid (thgrid_blk.go, "Regions"); span is the flat cells every slab
	// of this one lies in.
	next *gridVirt
	span [2]int32
}

// slabCells returns d's slab_0 cells and the bitmap of the other slabs'
// cells of variable st.
func (m *Machine) slabCells(d *gridVirt, st *varState) ([]int32, []uint64) {
	m.gridScr()
	if d.inSlab == nil {
		// Room for slab_0's cells at once (stop 38: their growth was
		// an object or two a slab).
		d.cells0 = slices.Grow(d.cells0[:0], boxCells(d.lo, d.hi))
		forCells(st, d.lo, d.hi, func(c int32) bool {
			d.cells0 = append(d.cells0, c)
			return true
		})
		d.inSlab = make([]uint64, (len(st.cells)+63)/64)
		// slab_0 as runs of consecutive cells, each set a word at a
		// time in every slab (stop 32: the TMA tester's rows of 8 to 32
		// cells, 247 slabs, were a tenth of its machine).
		runs := m.gvRuns[:0]
		for i := 0; i < len(d.cells0); {
			j := i + 1
			for j < len(d.cells0) && d.cells0[j] == d.cells0[j-1]+1 {
				j++
			}
			runs = append(runs, [2]int32{d.cells0[i], d.cells0[j-1] + 1})
			i = j
		}
		m.gvRuns = runs
		for _, off := range d.offs[1:] {
			for _, r := range runs {
				setBits(d.inSlab, r[0]+off, r[1]+off)
			}
		}
	}
	return d.cells0, d.inSlab
}

// boxCells is the number of cells forCells visits over [lo, hi).
func boxCells(lo, hi []int) int {
	n := 1
	for d := range lo {
		if hi[d] <= lo[d] {
			return 0
		}
		n *= hi[d] - lo[d]
	}
	return n
}

// setBits sets bits [a, b) of bm.
func setBits(bm []uint64, a, b int32) {
	for a < b {
		w, o := a/64, a%64
		n := min(b-a, 64-o)
		bm[w] |= (^uint64(0) >> (64 - n)) << o
		a += n
	}
}

// gridVirtAdd defers the other points' slabs of translated variable vr.
func (m *Machine) gridVirtAdd(g *gridRT, vr *gridVarRT) {
	v := vr.gv.v
	d := &gridVirt{g: g, lo: vr.lo, hi: vr.hi, shift: vr.shift, epoch: vr.st.epoch, grpRep: vr.grpRep, mixed: vr.grpRep}
	g.kept, g.nest.layHeld = true, true
	d.offs = vr.offs // made for this entry (gridTry)
	d.span = regionSpan(vr.st, d.lo, d.hi, d.offs)
	// The slabs' deferred records are no state now (thgrid_lzcell.go).
	m.gridDropSlabLazy(vr.st, d)
	d.next = m.gv[v] // older regions, disjoint from d (gridTry)
	if d.regions() > maxRegions {
		m.gridMaterialize(v) // the older ones, still m.gv[v]
		d.next = nil
	}
	m.gv[v] = d
	m.gvAny = true
	if vr.grpRep {
		m.gridGrpAdmitted++
	}
}

// gridVirtSame reports whether vr's slabs are deferred by a nest of the
// same frame with the same slab and offsets.
func (m *Machine) gridVirtSame(g *gridRT, vr *gridVarRT) bool {
	for d := m.gv[vr.gv.v]; d != nil; d = d.next {
		if m.gridVirtSame1(g, vr, d) {
			return true
		}
	}
	return false
}

// gridVirtSame1 is gridVirtSame for region d.
func (m *Machine) gridVirtSame1(g *gridRT, vr *gridVarRT, d *gridVirt) bool {
	// The boxes before the points (stop 40): the regions of one nest's
	// earlier entries have its points but other boxes (shfl_xor's `s`
	// moves them), and a box is a few ints against n points. Every test
	// is a pure comparison, so their order does not change the answer.
	if d.mixed || d.epoch != vr.st.epoch || d.g.task != g.task || d.g.th0 != g.th0 || d.g.w != g.w ||
		!slices.Equal(d.lo, vr.lo) || !slices.Equal(d.hi, vr.hi) || !slicesEqual32(d.g.ths, g.ths) {
		return false
	}
	return slicesEqual32(d.offs, vr.offs)
}

// gridMaterialize builds variable v's deferred slabs, if any.
func (m *Machine) gridMaterialize(v int) {
	d := m.gv[v]
	if d == nil {
		return
	}
	m.gridVirtDrop(v)
	for ; d != nil; d = d.next {
		m.gridBuild(v, d)
	}
}

// gridBuild builds region d of variable v (dropped from m.gv already).
func (m *Machine) gridBuild(v int, d *gridVirt) {
	st := &m.vars[v]
	if !st.live || st.epoch != d.epoch {
		m.unlazy(st)
		return
	}
	if st.lazy || m.noLazySlabs {
		m.unlazy(st)
	} else if st.lzN > 0 {
		m.gridDropSlabGroups(st, d) // thgrid_lzgrp.go
	}
	now := int32(len(m.log))
	g := d.g
	for p := 1; p < len(g.ths); p++ {
		off := d.offs[p]
		forCells(st, d.lo, d.hi, func(c int32) bool {
			st.listAt(c + off)
			cl := &st.cells[c+off]
			m.freeList(cl.reads)
			m.freeList(cl.muts)
			cl.reads = m.gridCopyList(g, p, st.cells[c].reads, -1, now)
			cl.muts = m.gridCopyList(g, p, st.cells[c].muts, -1, now)
			m.vers++
			cl.ver = m.vers
			return true
		})
	}
	m.gen++
}

// gridVirtDrop forgets v's deferred slabs.
func (m *Machine) gridVirtDrop(v int) {
	if m.gv[v] == nil {
		return
	}
	m.gv[v] = nil
	m.gvAny = false
	for _, d := range m.gv {
		m.gvAny = m.gvAny || d != nil
	}
}

// gridVirtEvent builds the deferred slabs of every frame that an event e
// tells apart, before the event is logged.
func (m *Machine) gridVirtEvent(e *event) {
	exec := e.exec
	for v, h := range m.gv {
		for d := h; d != nil; d = d.next {
			if exec.task == allTasks || exec.task != d.g.task {
				continue
			}
			if m.gridUniform(d.g, exec) {
				continue
			}
			if m.gridEventCommutes && m.gridCommutes(v, d, e) {
				m.gridEventKept++
				continue
			}
			m.gridMaterialize(v)
			break
		}
	}
}

// gridCommutes reports whether event e, which holds some but not all of
// the frame's threads, still keeps slab_p = τ_p(slab_0) of deferred
// variable v (issue 13 stop 26: the TMA tester's Arrive and Await on its
// TMA-store commit group by warp 0 built 247 slabs of smem_y that only
// the end of the task then freed). It does when, for every record r of
// slab_0 (replayed up to e) and every point p, applying e to τ_p(r) gives
// τ_p of applying it to r. apply (effects.go) reads of r only:
//
//   - reach (copied unchanged by τ_p);
//   - Arrive: witness W (Definition B.3 (i)), then adds e's barrier
//     counts to pend, which τ_p copies unchanged. W is a disjunction
//     over r's components (creator, grants): a qualifier test that τ_p
//     leaves alone and a test of e.exec against the component's thread
//     set. τ_p moves only a component that is the representative's
//     thread (gridTau); every other component of a deferred record is
//     uniform on the frame and stays put. So W is the same at every
//     point when a component that stays put witnesses e, or when no
//     component that moves passes its qualifier test;
//   - Await: pend (unchanged by τ_p) selects r; augment (Definition B.3
//     (ii)) then adds the grant (e.exec, full, temp) unless an existing
//     grant subsumes it. That test reads a grant's full, temp, task and
//     subset(e.exec, th): the same at every point for a grant that stays
//     put, false at every point for the representative's one thread
//     (moved by τ_p) when e.exec has two threads or more. The grant
//     added is e's, which τ_p leaves alone. Such a grant tells the
//     points apart in a later nest's checks, so the slabs are then
//     marked mixed and no later nest runs on them deferred.
//
// (τ_p here is what gridCopyN applies: the representative's one thread
// to point p's, every other set unchanged. Events that hold all or none
// of the frame's threads commute with it as before; a component that
// stays put is the same set at every point, so its tests agree.)
//
// A per-thread queue's Await (e.ptq) is applied as any other; ptq only
// files it for the thread-filtered replay, which gives the full replay's
// result. Fences (witness, then augment) still build the slabs; so does
// any group record (thgroup.go), whose members move.
// TestGridEventMatchesEager runs with and without this.
func (m *Machine) gridCommutes(v int, d *gridVirt, e *event) bool {
	if e.kind != KArrive && e.kind != KAwait {
		return false
	}
	st := &m.vars[v]
	if !st.live || st.epoch != d.epoch {
		return false
	}
	if e.kind == KAwait && len(m.shapes[e.exec.shape]) < 2 {
		return false
	}
	if d.g.w > 1 {
		return false // the argument below is for one-thread points (thgrid_blk.go)
	}
	g := d.g
	m.gridUnlazyOutside(st, d) // it walks slab_0 (thgrid_lzgrp.go)
	now := int32(len(m.log))
	moves := func(x threads) bool {
		return x.task == g.task && x.start == g.th0 && m.single[x.shape]
	}
	mixed := false
	ok := func(h int32) bool {
		for ; h >= 0; h = m.rec(h).next {
			r := m.rec(h)
			if r.grp != 0 && m.noGridGrp {
				return false
			}
			if r.stamp != now {
				m.replay(r)
			}
			if r.reach != allTasks && e.exec.task != r.reach {
				continue // apply leaves it, and each τ_p(r), alone
			}
			if e.kind == KAwait {
				c := m.evCells[e.c0]
				sel := false
				for _, p := range r.pend {
					if p.cell == c.cell && p.count <= c.count {
						sel = true
						break
					}
				}
				if !sel {
					continue // apply leaves r, and each τ_p(r), alone
				}
				// augment adds the grant (e.exec, full, temp) at every
				// point or at none: a grant that stays put decides it
				// alike everywhere, and a moved grant's subset test is
				// false at every point (e.exec has two threads or
				// more). e.exec stays put under τ_p, so the added grant
				// is τ_p of the representative's. But it tells the
				// points apart in a later nest's checks, so the slabs
				// are then marked mixed: no later nest runs on them
				// deferred (gridVirtSame).
				full, temp := e.full, e.temp
				if r.q != m.p.MbarQual || m.p.MbarQual == 0 {
					full &^= m.mbarSet
					temp &^= m.mbarSet
					if m.deadTask(e.exec.task) {
						return false
					}
				}
				sub := false
				for i := range r.grants {
					gr := &r.grants[i]
					if !moves(gr.th) && full&^gr.full == 0 && temp&^gr.temp == 0 && m.subset(e.exec, gr.th) {
						sub = true
						break
					}
				}
				if !sub {
					mixed = true
				}
				continue
			}
			stay, movePass := false, false
			comp := func(pass bool, th threads) bool {
				if !pass {
					return true
				}
				if moves(th) {
					movePass = true
					return true
				}
				if m.intersects(e.exec, th) {
					stay = true
				}
				return true
			}
			if e.trans {
				if !comp(e.pre.Has(r.q) && r.level >= Unordered, r.creator) {
					return false
				}
				for i := range r.grants {
					if !comp(r.grants[i].temp&e.pre != 0, r.grants[i].th) {
						return false
					}
				}
			} else if e.pre.Has(r.q) {
				if !comp(r.level >= Unordered, r.creator) {
					return false
				}
				for i := range r.grants {
					if !comp(r.grants[i].temp.Has(r.q), r.grants[i].th) {
						return false
					}
				}
			}
			if movePass && !stay {
				return false
			}
		}
		return true
	}
	if !forCells(st, d.lo, d.hi, func(c int32) bool {
		return ok(st.cells[c].muts) && ok(st.cells[c].reads)
	}) {
		return false
	}
	d.mixed = d.mixed || mixed
	return true
}

// gridCheckRun executes a live run of checks only (CheckReads,
// CheckMutates) on a variable whose slabs are deferred without building
// them, when that gives the eager run's result (issue 13 stop 26: the
// TMA tester's end-of-task checks of smem_y built 247 slabs only to check
// and free them). It reports whether it did.
//
// Why this is exact. The checking set gs holds all of the frame's
// threads or none of them (gridUniform). A check reads a record through
// tests of its components against gs (failing, coversAll, the creator
// shortcut) and qualifier and level tests: τ_p moves only the
// representative's one thread to point p's, both in gs or both out, and
// leaves every other component alone, so τ_p(r) fails iff r does. The
// records of slab_0 (the representative's cells) are first tested
// without reporting; if one fails, the slabs are built and the run goes
// the eager way. Otherwise no record of any slab fails, and the run
// checks only the cells outside slabs 1..n-1 (those hold no state of
// their own while deferred): the same hazards in the same order, the
// slabs' cells adding only their operation counts. Group records
// (thgroup.go), whose members are grid threads, take the eager way.
// Checked by TestGridMatchesFull, TestGridEventMatchesEager (against
// runs without grid symmetry) and TestGridCheckRunMatchesEager.
//
// body is run.Body for a fused run (execRun), or run alone for a single
// statement (effect: check evaluates gs for every statement; a fused run
// only when run.Exec.All or run.gsc).
func (m *Machine) gridCheckRun(run *Stmt, body []*Stmt) bool {
	m.gridScr()
	v := run.Acc.Var
	d := m.gv[v]
	if d == nil || !m.gridCheckDeferred {
		return false
	}
	for _, s := range body {
		if s.Kind != KCheckReads && s.Kind != KCheckMutates {
			return false
		}
	}
	if len(body) > 1 || body[0] != run {
		if !run.Exec.All && run.gsc == nil {
			return false
		}
	}
	st := &m.vars[v]
	if !st.live {
		return false
	}
	gs := m.gs(run)
	// Several regions (a block grid's, thgrid_blk.go "Regions"): each
	// is a frame of its own, on cells no other region has, so the
	// argument holds region by region (stop 31: shfl_xor's host copy of
	// d_A, 4 regions, built 240 cells to check them).
	for r := d; r != nil; r = r.next {
		if st.epoch != r.epoch || !m.gridUniform(r.g, gs) {
			return false
		}
	}
	m.gridUnlazyOutside(st, d) // it checks slab_0 and the others (thgrid_lzgrp.go)
	first := body[0]
	cs, ok := m.cellsOnly(first.Acc, first.Src)
	if !ok {
		return true // the eager run's fault (cells faults before any check)
	}
	// The cells outside slabs 1..n-1 (cs is cells' scratch: copied
	// before anything else evaluates cells).
	_, inSlab := m.slabCells(d, st)
	if d.next != nil {
		inSlab = slices.Clone(inSlab) // the union of the regions' bitmaps
		for r := d.next; r != nil; r = r.next {
			_, b := m.slabCells(r, st)
			for i := range inSlab {
				inSlab[i] |= b[i]
			}
		}
	}
	real := m.gvCells[:0]
	for _, c := range cs {
		// Cells are never negative: a shift and a mask, not the signed
		// division's fix-ups (issue 13, stop 46: ~20 instructions a
		// cell, 256 cells at shfl_xor's host copy).
		if inSlab[uint32(c)>>6]&(1<<(uint32(c)&63)) == 0 {
			real = append(real, c)
		}
	}
	m.gvCells = real
	virt := int64(len(cs) - len(real))
	stamp := int32(len(m.log))
	for ; d != nil; d = d.next {
		if !m.gridCheckSlab0(d, st, body, gs, stamp) {
			return false
		}
	}
	for _, s := range body {
		if m.stop {
			break
		}
		m.checkCells(s, real, gs, st)
		m.res.Stats.MemOps += virt
		if st.local {
			m.localOps += virt
		}
	}
	m.gridCheckKept++
	if m.gv[v].next != nil {
		m.regionChecks++
	}
	return true
}

// gridCheckSlab0 reports whether no record of region d's slab_0 fails a
// check of body by gs (gridCheckRun).
func (m *Machine) gridCheckSlab0(d *gridVirt, st *varState, body []*Stmt, gs threads, stamp int32) bool {
	g, cells0 := d.g, d.cells0
	for _, s := range body {
		reads := s.Kind == KCheckReads
		if !forList(cells0, func(c int32) bool {
			h := st.cells[c].muts
			if reads {
				h = st.cells[c].reads
			}
			for ; h >= 0; h = m.rec(h).next {
				r := m.rec(h)
				if r.grp != 0 {
					// The copies are this record, its grants τ_p
					// images (thgrid_grp.go; not in a block grid,
					// thgrid_blk.go).
					if m.noGridGrp || g.w > 1 {
						return false
					}
					if r.stamp != stamp {
						m.replay(r)
					}
					if m.groupFails(r, gs, s.Convergent, s.Level, s.Quals) {
						return false
					}
					continue
				}
				if r.creator == gs && s.Quals.Has(r.q) && r.level >= s.Level {
					continue
				}
				if r.stamp != stamp {
					m.replay(r)
				}
				if _, _, fail := m.failing(r, gs, s.Convergent, s.Level, s.Quals); fail {
					return false
				}
			}
			return true
		}) {
			return false
		}
	}
	return true
}

// forList calls f for each cell of cs, while it returns true.
func forList(cs []int32, f func(c int32) bool) bool {
	for _, c := range cs {
		if !f(c) {
			return false
		}
	}
	return true
}
