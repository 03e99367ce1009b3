package amir

import "slices"

// Grid symmetry (issue 13: the scalar shared-memory matmul).
//
// Thread symmetry (thsym.go) runs one thread of a cuda_threads loop whose
// threads each own a slice of every variable they touch, and keeps the
// other threads' state virtual. The scalar matmul's compute loop is
// outside its form: its threads form a 2-D grid (cuda_threads m1 of
// 16-thread units around cuda_threads n1 of one-thread units), its body
// holds sequential loops, the 16 threads of one m1 READ the same rows of
// A_smem (and the 16 of one n1 the same rows of B_smem), and the records
// its threads see at entry come from the staging loops and CTA fences
// before it. This file handles such nests with a different, eager
// argument that is checked on the state itself.
//
// The nest. A non-task loop L whose body is exactly one loop L2, whose
// body is exactly one loop L3, ... (the axes: each axis's iterator has a
// nonzero coefficient in the start of every statement of the nest), down
// to the last axis, whose body may hold sequential loops (iterators not
// in the start), Ifs and data statements (records, checks, clears) and
// nothing else: no Fence, Arrive, Await, Alloc, barrier access, TMA
// transaction or CheckBarrier. Every statement executes as one thread
// at start r0 + Σ s_k·y_k (the same affine start for all), no condition,
// loop bound or count reads an axis, and every window is affine in the
// nest's slots (or reads no axis), reading each axis y_k in at most one
// dimension d_k with one positive coefficient c_k for all the variable's
// accesses. Grid point p = (p_1 .. p_K) (p_k = y_k - lo_k) is thread
// th(p) = th(0) + Σ s_k·p_k; the threads must be distinct.
//
// Per variable, in the nest:
//
//   - translated: every axis is read, in distinct dimensions; thread p's
//     cells are the representative's (p = 0) translated by Σ c_k·p_k
//     along d_k (π_p), and its slab (c_k elements along each d_k, every
//     index of the other dimensions) is touched by no other thread of
//     the nest. Any statement may act on it.
//   - read-only: no live statement of the nest writes, clears or checks
//     the reads of it (only CheckMutates and RecordRead), so several
//     threads may read one cell (A_smem's rows along n1).
//
// Why running p = 0 and building the others' state gives the full run's
// state and Result. No event is logged in the nest, so a record's
// replay there is a no-op once it has replayed the log at entry (done,
// for every record the conditions below inspect, before they are
// tested). Thread p runs the statements of thread 0 with every window
// moved by π_p (control reads no axis; the box check below makes every
// window of every thread in bounds, so no fault is skipped). In the
// full run:
//
//  1. On a translated variable, thread p acts only on its slab, which no
//     other thread of the nest touches. If at entry its slab is τ_p of
//     thread 0's (cell c ↦ π_p(c), a record's creator or grant that is
//     the single thread th(0) ↦ th(p), thread sets that contain all of
//     the grid's threads or none left alone, everything else equal, in
//     list order), then each of its checks, records and clears is the
//     τ_p image of thread 0's: the visibility tests (Fig. 7) give the
//     same verdict for th(p) on τ_p(r) as for th(0) on r, addRecord's
//     dominance test matches τ_p images, the hazards have the same
//     source pair (the dedup key) and count. So its slab ends as τ_p of
//     thread 0's final slab (gridCompare checks the entry condition;
//     gridLeave builds the end state, or defers it: thgrid_lazy.go).
//  2. On a read-only variable, the mutate lists never change in the nest;
//     if at entry every record in them is visible to every thread of the
//     grid at the level and timelines of every CheckMutates of the nest
//     on it (one component of the record covers the grid), every check
//     of every thread passes, as thread 0's do. Its RecordReads add
//     one-thread records: if no record at entry with the source of one
//     of them has a single grid thread as creator, addRecord's
//     dominance test of thread p only ever meets thread p's own records
//     of this nest, which are τ_p of thread 0's. So each cell gains, in
//     front of its entry list, thread 0's new records translated to
//     each grid thread whose window covers it, the last thread's first
//     (gridLeave prepends them in grid order, or one group record
//     stands for them: thgroup.go).
//  3. The threads do not observe each other: disjoint slabs; on
//     read-only cells a check reads mutate lists only, and a record's
//     dominance test skips other creators.
//
// Hazards of threads after the first repeat the first's source pairs:
// only occurrences are added (thsymLeave), and the report's first
// occurrence is thread 0's, as in the full run. A run that stops inside
// the representative (a hazard limit) stops where the full run stops,
// and nothing is added. A run with MaxMemOps set never uses the grid.
//
// A nest whose conditions fail is tried again only after 2^f entries (f
// its failures in a row, at most 6; gridEnter): the full run is always
// exact, and the Sm80 GEMM's cp.async nests, whose slabs hold warps'
// records, paid the entry test at every K slice (2.5x slower).
//
// Checked by TestGridMatchesFull (thgrid_test.go): random nests with and
// without each condition give the same Result (but SkippedOps and the
// memory estimate) as the full run; dropping any run-time condition
// makes it fail (the static "written and shared" rule is backed by the
// run-time one, which it only makes cheaper).

// gridPlan is the static plan of a grid nest (Stmt.grid).
type gridPlan struct {
	// blk: the points are thread blocks (thgrid_blk.go); execs lists the
	// nest's distinct starts and shapes then.
	blk   bool
	execs []gridExec
	// lazy: a block plan not made yet (planGrid, gridEnter).
	lazy bool
	// mv: the facts for moving an entry's layout, made at the first
	// (mvDone; nil: not moved; thgrid_move.go).
	mvDone bool
	mv     *gridMoveInfo
	axes   []*Stmt // the axis loops, outermost first
	start  *Affine
	steps  []int // each axis's coefficient in start
	shapes []int
	vars   []gridVar
	// box holds every loop of the nest (the axes first) and every access
	// (live and dead) for the bounds check (lite.go's liteBox).
	box *liteBox
	// accVar[i] is the index in vars of box.accs[i]'s variable, or -1
	// for a dead-only variable.
	accVar []int
	// deadDims lists, for dead-only accesses, the dimensions that read
	// an axis with their coefficient (the block count must not change
	// with the thread).
	deadDims []gridDeadDim
}

type gridDeadDim struct {
	v, dim, coef int
}

// gridVar is a variable some live statement of the nest acts on.
type gridVar struct {
	v      int
	ro     bool  // read-only in the nest
	dims   []int // per axis, the dimension reading it, or -1
	coefs  []int // per axis, the coefficient there
	trans  bool  // every axis read, in distinct dimensions
	srcs   []int32
	checks []gridCheck // CheckMutates of the nest on it
}

type gridCheck struct {
	lvl Level
	qs  QualSet
}

// gridRT is the run-time frame of one grid execution.
type gridRT struct {
	pl   *gridPlan
	nest *gridNest // its nest (gridFree)
	task int32
	th0  int32
	// w: each point's threads are [th(p), th(p)+w): 1 but in a block
	// grid (thgrid_blk.go), where th0 is the first point's first thread.
	w int32
	// kept: a deferred slab holds the frame (gridVirtAdd; gridFree).
	kept bool
	ns   []int   // points per axis
	ths  []int32 // th(p) by grid point, lexicographic (axis 0 outermost)
	pts  []int   // the grid points' coordinates, same order (len(ns) each)
	inF  []uint64
	// unif caches gridUniform's answers (a few distinct sets a nest).
	unif  []gridUnif
	vars  []gridVarRT
	los   []int // each axis's first value
	stats thRun
}

type gridVarRT struct {
	gv    *gridVar
	st    *varState
	trans bool // condition 1 holds (else 2)
	virt  bool // the other points' slabs are deferred already
	// lo, hi: the representative's block box per dimension; for a
	// translated variable, its slab.
	lo, hi []int
	// shift[k] is the flat-index step of one point along axis k; offs
	// (a translated variable's) each point's offset (offset).
	shift []int
	offs  []int32
	// prefixes of the representative's new read records (read-only).
	heads  []int32
	counts []int32
	cells  []int32
	// grpRep: the slabs hold group records whose members include grid
	// threads, admitted by gridSame for a read-only variable (gridGrpOK).
	grpRep bool
}

// gridEnter decides whether loop s (over [lo, hi)) runs as a grid: it
// checks the run-time conditions and returns the frame, or nil.
func (m *Machine) gridEnter(s *Stmt, lo, hi int) *gridRT {
	// A nest whose conditions failed is tried again only after 2^f more
	// entries (f its failures, at most 6): running it in full is always
	// exact, and the test at entry costs about a full slab walk.
	nest := m.gridNestOf(s)
	if s.grid.blk && m.blkLeaveToThSym(s, nest) {
		return nil
	}
	if s.grid.lazy {
		// A block nest's plan, made once (thgrid_blk.go).
		if s.grid = m.p.planGridMode(s, gridStmts(s), true); s.grid == nil {
			return nil
		}
	}
	bo := &nest.bo
	if bo[1] > 0 {
		bo[1]--
		return nil
	}
	g := m.gridTry(s, nest, lo, hi)
	if g == nil {
		if bo[0] < 6 {
			bo[0]++
		}
		bo[1] = 1<<bo[0] - 1
	} else {
		bo[0] = 0
	}
	return g
}

// gridNestOf returns grid nest s's state in this run, made at its first
// entry. The first gridNestsListed nests are a list in one allocation,
// searched in order; past them, a map holds them all. (Issue 13, stop
// 46: the map and a nest an allocation had been four of shfl_xor's
// allocations a check, its lookups ~40 instructions each of its 12
// entries. Made here, not in Run: most small checks enter no grid nest;
// stop 41.)
func (m *Machine) gridNestOf(s *Stmt) *gridNest {
	if m.gridBackoff == nil {
		for _, n := range m.gridNests {
			if n.s == s {
				return n
			}
		}
		if len(m.gridNests) < gridNestsListed {
			if m.gridNests == nil {
				r := new(gridNestRoom)
				m.gridNests, m.gridNestFree = r.list[:0], r.nests[:]
			}
			n := &m.gridNestFree[0]
			m.gridNestFree = m.gridNestFree[1:]
			n.s = s
			m.gridNests = append(m.gridNests, n)
			return n
		}
		m.gridBackoff = make(map[*Stmt]*gridNest, 2*gridNestsListed)
		for _, n := range m.gridNests {
			m.gridBackoff[n.s] = n
		}
	}
	n := m.gridBackoff[s]
	if n == nil {
		n = &gridNest{s: s}
		m.gridBackoff[s] = n
	}
	return n
}

// gridNestsListed is the most grid nests gridNestOf lists.
const gridNestsListed = 4

// gridNestRoom is the room of gridNestOf's list and its nests.
type gridNestRoom struct {
	list  [gridNestsListed]*gridNest
	nests [gridNestsListed]gridNest
}

// gridTry checks the run-time conditions of grid nest s over [lo, hi).
func (m *Machine) gridTry(s *Stmt, nest *gridNest, lo, hi int) *gridRT {
	m.gridScr()
	pl := s.grid
	for _, sh := range pl.shapes {
		if !m.single[sh] && !pl.blk {
			return nil
		}
	}
	env := m.env
	g := newGridRT(nest, pl, m.task)
	// Ranges of every loop of the nest (the inner ones read no nest slot).
	b := pl.box
	b.rng[0], b.rng[1] = lo, hi
	for i, l := range b.loops[1:] {
		b.rng[2*i+2], b.rng[2*i+3] = l.Lo(env), l.Hi(env)
	}
	n := 1
	ns := m.gridNs[:0]
	for k := range pl.axes {
		nk := b.rng[2*k+1] - b.rng[2*k]
		if nk <= 0 {
			return nil
		}
		ns = append(ns, nk)
		n *= nk
		if n > 1<<16 {
			return nil
		}
	}
	m.gridNs = ns
	if n < 2 {
		return nil
	}
	// The layout: bounds, th0, points, boxes, slabs, offsets (the last
	// entry's moved when it can be: thgrid_move.go).
	lay := m.gridLayout(g, nest, b, ns, n)
	if lay == nil {
		return nil
	}
	now := int32(len(m.log))
	for i := range pl.vars {
		gv := &pl.vars[i]
		st := &m.vars[gv.v]
		lv := &lay.vars[i]
		if lv.never {
			continue // never executed
		}
		// The variable's frame is made in place, at g.vars' end (its
		// room: one entry a plan variable), and kept by lengthening
		// g.vars; nothing reads g.vars before gridLeave. (Stop 46: the
		// two frames made on the stack, then copied in, had been ~230
		// instructions a variable, shfl_xor's 24 a check.)
		k := len(g.vars)
		vr := &g.vars[:k+1][k]
		if gv.trans {
			*vr = gridVarRT{gv: gv, st: st, shift: lv.shift, trans: true, lo: lv.slo, hi: lv.shi, offs: lv.offs}
			fits := lv.fits
			if fits && m.gridVirtSame(g, vr) {
				// Deferred by an earlier nest of the same frame:
				// condition 1 holds by construction (thgrid_lazy.go).
				vr.virt = true
				g.vars = g.vars[:k+1]
				continue
			}
			if fits && pl.blk {
				// Other regions of a block grid stay (thgrid_blk.go).
				m.gridMaterializeOver(g, vr)
			} else {
				m.gridMaterialize(gv.v)
			}
			if fits && m.gridCompare(g, vr, now) {
				g.vars = g.vars[:k+1]
				continue
			}
		}
		*vr = gridVarRT{gv: gv, st: st, lo: lv.lo, hi: lv.hi, shift: lv.shift}
		m.gridMaterialize(gv.v)
		// Read-only and not translated: condition 2 (a written variable
		// shared along an axis has no plan; one whose slabs differ runs
		// in full; a block grid translates every variable).
		if !gv.ro || pl.blk || !m.gridSharedOK(g, vr, now) {
			return nil
		}
		g.vars = g.vars[:k+1]
	}
	for k := range pl.axes {
		g.los[k] = b.rng[2*k]
	}
	g.stats = thRun{n: int64(n), memOps: m.res.Stats.MemOps, records: m.res.Stats.Records,
		events: m.res.Stats.Events, localOps: m.localOps, occ: m.res.Occurrences}
	for i := range m.res.Hazards {
		g.stats.hocc = append(g.stats.hocc, m.res.Hazards[i].Occurrences)
	}
	return g
}

// gridRestore puts the axes' full ranges back into the box.
func (m *Machine) gridRestore(b *liteBox, g *gridRT) {
	for k, nk := range g.ns {
		b.rng[2*k+1] = b.rng[2*k] + nk
	}
}

// boxSpan widens [lo, hi) per dimension (in blocks of st) by access j of
// box b over its current ranges; false when it is not known.
func (m *Machine) boxSpan(b *liteBox, j int, st *varState, lo, hi []int) bool {
	ba := &b.accs[j]
	for _, i := range ba.chain {
		if b.rng[2*i] >= b.rng[2*i+1] {
			return true // never executed
		}
	}
	if len(ba.dims) == 0 {
		for d := range st.blocks {
			lo[d], hi[d] = 0, st.blocks[d]
		}
		return true
	}
	if len(ba.dims) != len(st.dims) {
		return false
	}
	for d := range ba.dims {
		bd := &ba.dims[d]
		var l0, h1 int
		if bd.mod != nil {
			f := bd.mod
			l0, h1 = f.Add, f.Add+f.Sign*(f.M-1)
			if l0 > h1 {
				l0, h1 = h1, l0
			}
			h1++
		} else {
			var l1 int
			l0, l1 = b.span(&bd.lo, m.env)
			h1 = l1 + 1
			if bd.rng {
				_, h1 = b.span(&bd.hi, m.env)
			}
		}
		gr := st.gran[d]
		if h1 <= l0 {
			continue
		}
		bl, bh := l0/gr, (h1-1)/gr+1
		if lo[d] < 0 || bl < lo[d] {
			lo[d] = bl
		}
		if bh > hi[d] {
			hi[d] = bh
		}
	}
	return true
}

// uniform reports whether thread set x contains every grid thread or
// none.
func (m *Machine) gridUniform(g *gridRT, x threads) bool {
	if x.task == allTasks || x.task != g.task {
		return true
	}
	for i := range g.unif {
		if g.unif[i].x == x {
			return g.unif[i].u
		}
	}
	in := 0
	if g.w == 1 {
		for _, t := range g.ths {
			if m.contains(x, g.task, t) {
				in++
			}
		}
	} else {
		for _, t0 := range g.ths {
			for t := t0; t < t0+g.w; t++ {
				if m.contains(x, g.task, t) {
					in++
				}
			}
		}
	}
	u := in == 0 || in == len(g.ths)*int(g.w)
	g.unif = append(g.unif, gridUnif{x, u})
	return u
}

type gridUnif struct {
	x threads
	u bool
}

// gridCovers reports whether x contains every grid thread.
func (m *Machine) gridCovers(g *gridRT, x threads) bool {
	if x.task == allTasks {
		return true
	}
	if x.task != g.task || !m.contains(x, g.task, g.th0) {
		return false
	}
	return m.gridUniform(g, x)
}

// gridTau is τ_p on a thread set: the representative's thread becomes
// point p's; a set with every grid thread or none is unchanged; any
// other set has no image (false).
func (m *Machine) gridTau(g *gridRT, p int, x threads) (threads, bool) {
	if m.gridIn0(g, x) {
		x.start += g.ths[p] - g.th0
		return x, true
	}
	return x, m.gridUniform(g, x)
}

// forCells calls f for each flat block index of the box [lo, hi).
func forCells(st *varState, lo, hi []int, f func(c int32) bool) bool {
	n := len(lo)
	if n == 0 {
		return f(0)
	}
	for d := 0; d < n; d++ {
		if hi[d] <= lo[d] {
			return true
		}
	}
	// The counter on the stack for up to 8 dimensions (stop 38: it was
	// an object a call, 7 a check on shfl_xor).
	var buf [8]int
	cur := append(buf[:0], lo...)
	for {
		idx := 0
		for d := 0; d < n; d++ {
			idx += cur[d] * st.strides[d]
		}
		if !f(int32(idx)) {
			return false
		}
		d := n - 1
		for ; d >= 0; d-- {
			cur[d]++
			if cur[d] < hi[d] {
				break
			}
			cur[d] = lo[d]
		}
		if d < 0 {
			return true
		}
	}
}

// gridOffset is π_p's flat-index shift for variable vr.
func (vr *gridVarRT) offset(g *gridRT, p int) int32 {
	off := 0
	for k, x := range g.pts[p*len(g.ns) : (p+1)*len(g.ns)] {
		off += x * vr.shift[k]
	}
	return int32(off)
}

// gridCompare checks condition 1 at entry: every point's slab is τ_p of
// the representative's, list by list, record by record (all replayed).
//
// A record of slab_p that is field for field (creator, grants, counts and
// stamp included) what its slab_0 counterpart was before that one's
// replay is not replayed: replay is a function of the record's fields
// and the log (replaymemo.go relies on it too), so it would end as the
// replayed counterpart, and the test is made on that (issue 13 stop 29:
// the TMA tester's 247 copies of each of warp 0's TMA-load groups on
// smem_x, each replayed only to compare it). It stays unreplayed, as a
// record nobody inspects does. TestGridMatchesFull and
// TestGridGrpMatchesEager cover it (gridNoRawSkip: the plain compare).
func (m *Machine) gridCompare(g *gridRT, vr *gridVarRT, now int32) bool {
	m.gridScr()
	st := vr.st
	if !st.hasRecs {
		// No record since the allocation: every list is empty, each
		// slab τ_p of the first (stop 31: rmemA and tmp of shfl_xor).
		return true
	}
	// Deferred thread groups (lazygroups.go) stay deferred in slabs
	// 1..n-1 when slab_0's cell held the same one (gridLazySame); so
	// does a lazy record moved to the cells (thgrid_lzcell.go).
	m.gridLazyToCells(st)
	lazy := st.lzN > 0 && !m.noLazySlabs && !m.gridNoRawSkip
	if st.lazy || !lazy {
		m.unlazy(st)
	}
	offs := vr.offs
	// uni: every cell of slabs 1..n-1 defers its slab_0 cell's record
	// over empty lists (gridLzUniform): the compare of a point is then
	// the first point's, made once a cell (stop 37).
	uni := lazy && st.lzN > 0 && !m.noGridUniform && m.gridLzUniform(st, vr)
	return forCells(st, vr.lo, vr.hi, func(c int32) bool {
		id0 := int32(0)
		if lazy && st.lzN > 0 && st.lzc[c] != 0 {
			id0 = st.lzc[c]
			m.makeLazyGroup(st, c)
		}
		for _, reads := range [2]bool{true, false} {
			h0 := st.cells[c].muts
			if reads {
				h0 = st.cells[c].reads
			}
			// id: slab_0's deferred group on this list, now made (the
			// list's only record: groups are deferred on empty lists).
			id := id0
			if id != 0 && (st.lzRecs[id-1].s.Kind == KRecordMutate) == reads {
				id = 0
			}
			// slab_0's records as they were, then replayed.
			snaps := m.gridSnaps[:0]
			for h := h0; h >= 0; h = m.rec(h).next {
				r := m.rec(h)
				snaps = append(snaps, gridSnap{r: *r, grants: len(m.gridSnapG), pend: len(m.gridSnapP)})
				m.gridSnapG = append(m.gridSnapG, r.grants...)
				m.gridSnapP = append(m.gridSnapP, r.pend...)
				if r.stamp != now {
					m.replay(r)
				}
				snaps[len(snaps)-1].free = !m.gridMoves(g, r)
			}
			m.gridSnaps = snaps
			// The common cases first (thgrid_lzgrp.go): both lists
			// empty, or slab p's cell defers slab_0's group and the
			// raw-equal skip has found it τ_p of itself.
			other := id0 != 0 && (st.lzRecs[id0-1].s.Kind == KRecordMutate) == reads
			kept := 0
			lzc, cells := st.lzc, st.cells // locals: the loop is hot
			same := id != 0 && len(snaps) == 1 && snaps[0].r.stamp != now
			for p := 1; p < len(offs); p++ {
				if uni {
					if h0 < 0 {
						// Each point's list is empty and its cell defers
						// slab_0's, which is on slab_0's other list (or
						// none): the test below passes it at every point.
						m.gridUniSkips += int64(len(offs) - p)
						break
					}
					if same && snaps[0].dec == 1 {
						// Each point's cell defers id (z == id below),
						// decided at p = 1 (dec) for every point.
						kept += len(offs) - p
						m.gridUniSkips += int64(len(offs) - p)
						break
					}
				}
				if lazy {
					d := c + offs[p]
					z := lzc[d]
					if h0 < 0 {
						q := cells[d].muts
						if reads {
							q = cells[d].reads
						}
						if q < 0 && (z == 0 || z == id0 && other || z != id0 && (st.lzRecs[z-1].s.Kind == KRecordMutate) == reads) {
							continue
						}
					} else if z == id && same && snaps[0].dec == 1 {
						kept++
						continue
					}
				}
				if lazy && st.lzN > 0 && st.lzc[c+offs[p]] != 0 {
					d := c + offs[p]
					if id != 0 && st.lzc[d] == id {
						grp := int32(thGroup)
						if st.lzRecs[id-1].plain {
							grp = 0
						}
						switch m.gridLazySame(g, p, vr, h0, &snaps[0], reads, now, grp) {
						case 1:
							continue
						case 2:
							m.gridSnapG, m.gridSnapP = m.gridSnapG[:0], m.gridSnapP[:0]
							return false
						}
					}
					if (st.lzRecs[st.lzc[d]-1].s.Kind == KRecordMutate) != reads {
						m.makeLazyGroup(st, d) // on this list
					}
				}
				h, q := h0, st.cells[c+offs[p]].muts
				if reads {
					q = st.cells[c+offs[p]].reads
				}
				for i := 0; h >= 0 && q >= 0; i++ {
					r, o := m.rec(h), m.rec(q)
					sn := &snaps[i]
					if o.stamp != now && !m.gridNoRawSkip && m.gridSnapSame(sn, o) {
						// o replayed would be r replayed.
						m.gridRawSkips++
						if sn.dec == 0 {
							// The test of r against itself; with no
							// component that τ_p moves, the same at
							// every point.
							ok := m.gridSame(g, p, r, r) || m.gridGrpSame(g, p, vr, r, r, reads)
							if !sn.free {
								if !ok {
									m.gridSnapG, m.gridSnapP = m.gridSnapG[:0], m.gridSnapP[:0]
									return false
								}
								h, q = r.next, o.next
								continue
							}
							sn.dec = 2
							if ok {
								sn.dec = 1
							}
						}
						if sn.dec != 1 {
							m.gridSnapG, m.gridSnapP = m.gridSnapG[:0], m.gridSnapP[:0]
							return false
						}
						h, q = r.next, o.next
						continue
					}
					if o.stamp != now {
						m.replay(o)
					}
					if !m.gridSame(g, p, r, o) && !m.gridGrpSame(g, p, vr, r, o, reads) {
						m.gridSnapG, m.gridSnapP = m.gridSnapG[:0], m.gridSnapP[:0]
						return false
					}
					h, q = r.next, m.rec(q).next
				}
				if h >= 0 || q >= 0 {
					m.gridSnapG, m.gridSnapP = m.gridSnapG[:0], m.gridSnapP[:0]
					return false
				}
			}
			m.lzSlabKept += int64(kept)
			m.gridRawSkips += int64(kept)
			m.gridSnapG, m.gridSnapP = m.gridSnapG[:0], m.gridSnapP[:0]
		}
		return true
	})
}

// gridSnap is a record as it was before its replay (gridCompare); its
// grants and counts are at [grants, +len) of Machine.gridSnapG and
// [pend, +len) of gridSnapP.
type gridSnap struct {
	r            record
	grants, pend int
	// free: the replayed record has no component τ_p moves; dec: then
	// the test of it against itself, once made (1 passed, 2 failed).
	free bool
	dec  int8
}

// gridMoves reports whether τ_p moves a component of r (its creator or a
// grant is the representative's one thread).
func (m *Machine) gridMoves(g *gridRT, r *record) bool {
	if m.gridIn0(g, r.creator) {
		return true
	}
	for i := range r.grants {
		if m.gridIn0(g, r.grants[i].th) {
			return true
		}
	}
	return false
}

// gridSnapSame reports whether o is field for field snapshot sn.
func (m *Machine) gridSnapSame(sn *gridSnap, o *record) bool {
	r := &sn.r
	if r.stamp != o.stamp || r.src != o.src || r.q != o.q || r.level != o.level || r.atomic != o.atomic ||
		r.creator != o.creator || r.reach != o.reach || r.grp != o.grp || len(r.grants) != len(o.grants) || len(r.pend) != len(o.pend) {
		return false
	}
	return slices.Equal(m.gridSnapG[sn.grants:sn.grants+len(r.grants)], o.grants) &&
		slices.Equal(m.gridSnapP[sn.pend:sn.pend+len(r.pend)], o.pend)
}

// gridSame reports o = τ_p(r).
func (m *Machine) gridSame(g *gridRT, p int, r, o *record) bool {
	if r.src != o.src || r.q != o.q || r.level != o.level || r.atomic != o.atomic || r.reach != o.reach || r.grp != o.grp ||
		len(r.grants) != len(o.grants) || !slices.Equal(r.pend, o.pend) {
		return false
	}
	if x, ok := m.gridTau(g, p, r.creator); !ok || x != o.creator {
		return false
	}
	if r.grp != 0 && (g.w > 1 || r.creator.task == g.task && m.contains(r.creator, g.task, g.th0)) {
		// A group of members that are grid threads (its creator holds
		// them all): the representative's member maps to point p's,
		// and point p's to none (gridTau), so the members' lists are
		// no translations of each other.
		return false
	}
	for i := range r.grants {
		a, b := &r.grants[i], &o.grants[i]
		if a.full != b.full || a.temp != b.temp {
			return false
		}
		if x, ok := m.gridTau(g, p, a.th); !ok || x != b.th {
			return false
		}
	}
	return true
}

// gridSharedOK checks condition 2 at entry for a read-only variable over
// every cell some grid thread may touch.
func (m *Machine) gridSharedOK(g *gridRT, vr *gridVarRT, now int32) bool {
	st := vr.st
	m.unlazy(st)
	gv := vr.gv
	lo := append([]int(nil), vr.lo...)
	hi := append([]int(nil), vr.hi...)
	for k, d := range gv.dims {
		if d >= 0 {
			hi[d] += (g.ns[k] - 1) * gv.coefs[k] / st.gran[d]
		}
	}
	// The read lists need no walk when the read-creator index rules
	// out every record that fails (rdindex.go).
	cells := 1
	for d := range lo {
		cells *= max(hi[d]-lo[d], 0)
	}
	walkReads := m.rdMayHold(g, gv.srcs, cells)
	if !walkReads {
		m.rdSkips++
	}
	return forCells(st, lo, hi, func(c int32) bool {
		for h := st.cells[c].muts; h >= 0; h = m.rec(h).next {
			r := m.rec(h)
			if r.stamp != now {
				m.replay(r)
			}
			for _, ck := range gv.checks {
				if !m.gridVisibleAll(g, r, ck) {
					return false
				}
			}
		}
		if !walkReads && !m.rdVerify {
			return true
		}
		for h := st.cells[c].reads; h >= 0; h = m.rec(h).next {
			r := m.rec(h)
			if r.grp != 0 {
				// A group stands for its members' records (thgroup.go):
				// it fails if one of them is a grid thread's.
				if r.creator.task != g.task || !m.groupHasGrid(g, r) {
					continue
				}
				for _, s := range gv.srcs {
					if s == r.src {
						m.rdWrong += b2i(!walkReads)
						return false
					}
				}
				continue
			}
			if !m.single[r.creator.shape] || r.creator.task != g.task {
				continue
			}
			t := r.creator.start
			if t < 0 || int(t/64) >= len(g.inF) || g.inF[t/64]&(1<<(t%64)) == 0 {
				continue
			}
			for _, s := range gv.srcs {
				if s == r.src {
					m.rdWrong += b2i(!walkReads)
					return false
				}
			}
		}
		return true
	})
}

// groupHasGrid reports whether a member of group r is a thread of grid g
// (r is of g's task).
func (m *Machine) groupHasGrid(g *gridRT, r *record) bool {
	for _, o := range m.shapes[r.creator.shape] {
		t := r.creator.start + o
		if t >= 0 && int(t/64) < len(g.inF) && g.inF[t/64]&(1<<(t%64)) != 0 {
			return true
		}
	}
	return false
}

// gridVisibleAll: one component of r gives every grid thread the level
// the check needs (so no grid thread's check fails on r).
func (m *Machine) gridVisibleAll(g *gridRT, r *record, ck gridCheck) bool {
	if ck.lvl <= AtomicOnly && r.atomic&ck.qs != 0 {
		return true
	}
	// A group's creator is no member's: each member's is one thread,
	// which covers no grid (it has two threads or more).
	if r.grp == 0 && ck.qs.Has(r.q) && r.level >= ck.lvl && m.gridCovers(g, r.creator) {
		return true
	}
	for i := range r.grants {
		gr := &r.grants[i]
		if grantLevel(gr, ck.qs) >= ck.lvl && m.gridCovers(g, gr.th) {
			return true
		}
	}
	return false
}

// gridLeave builds the other points' state after the representative ran
// and adds their statistics.
func (m *Machine) gridLeave(g *gridRT) {
	now := int32(len(m.log))
	rep := threads{task: g.task, start: g.th0}
	// The representative's new read records of read-only variables,
	// before any copy is prepended.
	for i := range g.vars {
		vr := &g.vars[i]
		if vr.trans {
			continue
		}
		st := vr.st
		m.unlazy(st)
		forCells(st, vr.lo, vr.hi, func(c int32) bool {
			n := int32(0)
			h := st.cells[c].reads
			for q := h; q >= 0; q = m.rec(q).next {
				r := m.rec(q)
				if r.creator.task != rep.task || r.creator.start != rep.start || !m.single[r.creator.shape] {
					break
				}
				mine := false
				for _, s := range vr.gv.srcs {
					mine = mine || s == r.src
				}
				if !mine {
					break
				}
				n++
			}
			if n > 0 {
				vr.cells = append(vr.cells, c)
				vr.heads = append(vr.heads, h)
				vr.counts = append(vr.counts, n)
			}
			return true
		})
	}
	for i := range g.vars {
		vr := &g.vars[i]
		if !vr.trans && len(vr.cells) > 0 && m.gridGroups(g, vr) {
			vr.cells = vr.cells[:0] // one group record a cell (thgroup.go)
		}
	}
	// Every point's state built now, unless every variable's is
	// deferred below (a block grid's: stop 37, the walk of 15 points
	// found nothing to build on shfl_xor).
	build := false
	for i := range g.vars {
		build = build || !g.vars[i].trans || !m.gridDefer
	}
	for p := 1; p < len(g.ths) && build; p++ {
		for i := range g.vars {
			vr := &g.vars[i]
			st := vr.st
			if vr.trans && m.gridDefer {
				continue // deferred below (thgrid_lazy.go)
			}
			m.unlazy(st)
			off := vr.offset(g, p)
			if vr.trans {
				forCells(st, vr.lo, vr.hi, func(c int32) bool {
					d := c + off
					st.listAt(d)
					cl := &st.cells[d]
					m.freeList(cl.reads)
					m.freeList(cl.muts)
					cl.reads = m.gridCopyList(g, p, st.cells[c].reads, -1, now)
					cl.muts = m.gridCopyList(g, p, st.cells[c].muts, -1, now)
					m.vers++
					cl.ver = m.vers
					return true
				})
				continue
			}
			for j, c := range vr.cells {
				st.listAt(c + off)
				cl := &st.cells[c+off]
				if vr.counts[j] == 1 && !m.noGridMerge && m.mergeCopy(g, p, vr.heads[j], vr.gv.v, cl, now) {
					continue // joined the group after it (thmerge.go)
				}
				cl.reads = m.gridCopyN(g, p, vr.heads[j], vr.counts[j], cl.reads, now)
				m.vers++
				cl.ver = m.vers
			}
		}
	}
	if !m.noGridMerge {
		// Each point's new read records of a read-only variable, at
		// the head of its cells' lists, join the records of earlier
		// entries after them (thmerge.go).
		for i := range g.vars {
			vr := &g.vars[i]
			if vr.trans {
				continue
			}
			for p := range g.ths {
				off := vr.offset(g, p)
				for _, c := range vr.cells {
					m.mergeReads(vr.gv.v, &vr.st.cells[c+off])
				}
			}
		}
	}
	for i := range g.vars {
		st := g.vars[i].st
		st.hasRecs, st.hasReads, st.hasMuts = true, true, true
		if vr := &g.vars[i]; vr.trans && m.gridDefer && !vr.virt {
			m.gridVirtAdd(g, vr)
		}
	}
	m.gen++
	m.thsymLeave(&g.stats)
}

// gridCopyList returns a copy of list h under τ_p, ending in tail.
func (m *Machine) gridCopyList(g *gridRT, p int, h, tail int32, now int32) int32 {
	return m.gridCopyN(g, p, h, -1, tail, now)
}

// gridCopyN copies the first n records of list h (all when n < 0) under
// τ_p, in order, in front of tail.
func (m *Machine) gridCopyN(g *gridRT, p int, h, n, tail int32, now int32) int32 {
	head, last := int32(-1), int32(-1)
	for ; h >= 0 && n != 0; n-- {
		if m.rec(h).stamp != now {
			m.replay(m.rec(h))
		}
		idx := m.takeRecord()
		r := m.rec(h)
		nr := m.rec(idx)
		nr.next = -1
		nr.src, nr.q, nr.level, nr.atomic = r.src, r.q, r.level, r.atomic
		nr.creator, _ = m.gridTau(g, p, r.creator)
		nr.reach = r.reach
		nr.stamp = r.stamp
		nr.grp = r.grp
		m.rdNote(idx)
		nr.grants = nr.grants[:0]
		if len(r.grants) > 0 {
			if cap(nr.grants) < len(r.grants) {
				// A record from the free list keeps its storage
				// (initRecord): only a short one takes new.
				nr.grants = m.grantStore(len(r.grants))
			}
			for _, gr := range r.grants {
				gr.th, _ = m.gridTau(g, p, gr.th)
				nr.grants = append(nr.grants, gr)
			}
		}
		nr.pend = nr.pend[:0]
		if len(r.pend) > 0 {
			if cap(nr.pend) < len(r.pend) {
				nr.pend = m.pendStore(len(r.pend))
			}
			nr.pend = append(nr.pend, r.pend...)
		}
		if nr.grp == thGroup {
			// Its creator holds no grid thread (gridSame): the same
			// frame's group, listed there (thgroup.go).
			m.threadGroupAdd(m.threadGroupFrame(nr.creator), idx)
		}
		if last < 0 {
			head = idx
		} else {
			m.rec(last).next = idx
		}
		last = idx
		h = m.rec(h).next
	}
	if last < 0 {
		return tail
	}
	m.rec(last).next = tail
	return head
}
