package amir

import "slices"

// Thread symmetry (issue 13, item 4: per-thread commit-group kernels).
//
// A cuda_threads loop of one-thread units in which every thread touches
// only its own slice of each variable (a window that is a translation of
// the first thread's by the thread iterator) and its own per-thread
// commit-group queue, and reads the iterator nowhere else, runs the same
// operations in every iteration, translated: thread t's records and queue
// states are those of the first thread with the thread offsets and the
// slice shifted. The machine runs the first iteration (the
// representative, r0) and counts the others' operations, events, records
// and hazard occurrences, as lite tasks do for later tasks (Program.
// Finish). The other threads' state is *virtual*: it exists only as the
// representative's, and is built (materialized) by translation when a
// statement outside such a loop looks at it.
//
// Why the result is the full run's. Let F be the loop's threads (a frame:
// task, r0, step, n) and σ any permutation of F. The seed's rules (Fig.
// 7, 22, Definition B.3) commute with renaming threads: an event by exec
// applied to σ(r) is σ of the event by σ⁻¹(exec) applied to r. In a
// full run, iteration t's statements are σ_t of iteration 0's (σ_t swaps
// thread 0 and t and their slices), and each acts only on its own slice,
// its own queue and, through its Fences and Arrives, on records some
// thread of it can see. So it suffices that while state is virtual
//
//  1. the records of a virtual slice of thread t are one-thread records of
//     t (creator and every grant t alone) or have grants that are σ-
//     invariant (sets containing all of F or none of it): then another
//     thread's one-thread event witnesses none of them (W of Definition
//     B.3 needs a common thread) and awaits on another thread's queue match
//     none of their arrive counts (their p names t's own queue);
//  2. every event logged outside the loop is σ-invariant for every σ (its
//     thread set contains all of F or none of it): one that meets F
//     partially first materializes F's state (thsymEvent), after which
//     the program runs as without symmetry; and after a σ-invariant event
//     that contains F (a CTA fence) records may hold grants every thread
//     of F, and every other thread of the event, can see, so no loop runs
//     virtually in F's task while F's state is virtual (F is *tainted*;
//     an All-threads event taints every frame): on F itself each
//     thread's own fence would extend every thread's record, and on a
//     disjoint frame G of the same CTA each of G's threads' fences would
//     extend F's records, where a virtual loop on G runs only G's first
//     thread (TestThreadSymTaintOtherFrame);
//  3. no other record can be seen by the loop's threads: at loop entry,
//     every variable with records is virtual (its records are
//     representatives of this or a disjoint frame) or, in a lite task, a
//     task-local variable of the first task;
//  4. statements outside the loop that read or change a virtual variable
//     materialize it first (thsymTouch).
//
// Hazards of iterations after the first are those of the first (same
// source pair, so the same dedup key): only occurrences are added; the
// first occurrence, which the report shows, is the first iteration's in a
// full run too. Out-of-bounds windows: every window that reads the
// iterator is affine in it, so it is in bounds for all iterations iff at
// the first and the last; a loop that may fault runs in full, so the fault
// is the full run's. A run with MaxMemOps set never uses symmetry (that
// limit is checked per iteration).
//
// Checked by TestThreadSymMatchesFull (thsym_test.go): random loops of
// per-thread slices, commit groups, fences and shared variables, with and
// without symmetry-breaking statements, give the same Result both ways.
//
// Stop 29 (issue 13: the CudaRmemUniform and per-CTA kernels), in programs
// with no grid nest only (Program.thExt: a virtual loop turns grid
// symmetry off for the rest of the run): inner loops, those the start
// reads pinned to one iteration (thPlan.pins); variables private to an
// iteration (thPlan.private); in loops with no event, owned slices that
// already hold translated records (thsymAdoptable, which taints the
// frame), conditions on the thread run as classes of iterations
// (thsymClasses), and virtual runs beside groups, tainted or overlapping
// frames; slices limited to the box of the other dimensions a loop
// touches (thMap.nbox). TestThreadSymPrivateMatchesFull,
// TestThreadSymClassesMatchesFull, TestThreadSymPrivateScope, and
// syncheck's TestThreadSymRmemDiagnostics; docs/weft-sync.md, stop 29.

// thPlan is the static plan of a thread-symmetric loop (Stmt.thsym).
type thPlan struct {
	start  *Affine // the common Exec.StartAff of its statements
	step   int     // the iterator's coefficient in start
	shapes []int   // the shapes of its statements (each one thread at run time)
	owned  []thOwned
	bars   []int     // per-thread-queue barrier variables it arrives on or awaits
	accs   []*Access // every access with a window that reads the iterator
	// pins are the inner loops whose iterator the thread start or an
	// owned slice reads: each must run exactly one iteration (its bounds
	// read neither the thread nor an inner iterator), whose value stands
	// in for the iterator at entry.
	pins []thPin
	// private are the variables allocated in the body and accessed only
	// there, after their Alloc in the same statement list.
	private []int
	// yconds are the conditions that read the thread (If statements
	// outside inner loops, reading no inner iterator): the iterations
	// then run as classes of equal conditions (thsymClasses).
	yconds []*Stmt
	// quiet: no Fence, Arrive or Await in the body (the stop-29
	// relaxations for such loops apply only where Program.thExt).
	quiet bool
	// inner: the body holds loops.
	inner bool
	// yOnly: the yconds read no slot but the thread's (CtlSlots), so
	// the classes of [lo, hi) are the same at every entry of one run
	// (Machine.thClassSeen).
	yOnly bool
	// ydead marks the yconds whose Ifs hold only dead statements
	// (thPlanner.deadOnly, at most thDeadConds): they do not split the
	// classes, whose counts are corrected instead (thsymClassify).
	ydead uint32
}

// thPin is an inner loop of one iteration (thPlan.pins).
type thPin struct {
	slot int
	loop *Stmt
}

// thOwned is a data variable the loop records on: thread y owns the slice
// lo(y) + [0, coef) of dimension dim (lo is every live access's Lo there).
type thOwned struct {
	v, dim int
	lo     *Affine
	coef   int
	accs   []*Access
	// liteRuns: some live statement on it runs in a lite task (it is
	// shared, or a statement on it has a shared barrier access).
	liteRuns bool
	// box: its accesses' other windows read no inner iterator, so the
	// loop touches a box of the other dimensions fixed at entry, and its
	// slices are limited to it (thMap.blo; stop 29: per_cta_alloc's 16
	// rows of one tile, each a frame of 16 threads).
	box bool
}

// thFrame is the thread set of one virtual loop execution.
type thFrame struct {
	task, r0, step, n int32
	tainted, taintAll bool
}

// thMap is a virtual variable's slices of one frame: thread i of the frame
// owns dimension dim indices [base + i*coef, base + (i+1)*coef), and only
// thread 0's (the representative's) exist.
type thMap struct {
	frame           *thFrame
	dim, base, coef int
	// width is each thread's slice (coef, or less in a class of
	// thsymClasses: its threads are coef / width iterations apart).
	width int
	// blo and bhi bound the other dimensions' blocks of the slices, in
	// the first nbox dimensions (0: all of them; fixed arrays, a map
	// costs no allocation).
	nbox     int
	blo, bhi [thBoxDims]int32
	// n2 > 0: a 2-D map (thsym2d.go): thread k = i*n2 + j of the frame
	// owns dim indices base + j*coef + [0, width) and dim2 indices
	// base2 + i*coef2 + [0, width2); nbox is 0.
	n2, dim2, base2, coef2, width2 int
}

// thBoxDims is the most dimensions a variable's boxed slices have.
const thBoxDims = 4

// boxesMeet reports whether the other dimensions' boxes of a and b share
// a block.
func boxesMeet(a, b *thMap) bool {
	if a.nbox == 0 || b.nbox == 0 {
		return true
	}
	for k := 0; k < a.nbox; k++ {
		if k != a.dim && (a.bhi[k] <= b.blo[k] || b.bhi[k] <= a.blo[k]) {
			return false
		}
	}
	return true
}

// inBox reports whether cell c is in mp's box (its own dimension not
// tested).
func inBox(st *varState, mp thMap, c int) bool {
	if mp.nbox == 0 {
		return true
	}
	for k := 0; k < mp.nbox; k++ {
		if k == mp.dim {
			continue
		}
		i := int32(c / st.strides[k] % st.blocks[k])
		if i < mp.blo[k] || i >= mp.bhi[k] {
			return false
		}
	}
	return true
}

// slicesMeet reports whether some slice of a (threads [0, na)) and some
// slice of b (threads [0, nb)) of one dimension may share an index.
func slicesMeet(a, b *thMap, na, nb int32) bool {
	if !boxesMeet(a, b) {
		return false
	}
	if b.base >= a.base+int(na-1)*a.coef+a.width || a.base >= b.base+int(nb-1)*b.coef+b.width {
		return false // their hulls are apart
	}
	if a.coef != b.coef || a.coef <= 0 {
		return true
	}
	c := a.coef
	r := ((b.base-a.base)%c + c) % c // where b's slices start in a's period
	return r < a.width || r+b.width > c
}

// thSub is the copies of a representative's per-thread queue made by
// materializing frame (task, r0, step) (Machine.thSubs): ids[i-1] is
// thread r0 + i*step's queue.
type thSub struct {
	task, r0, step int32
	ids            []int32
}

// thVar is a virtual variable's state (Machine.thVars).
type thVar struct {
	maps   []thMap    // data variables
	frames []*thFrame // barrier variables: the frames whose queues are virtual
	// hlo and hhi bound every map's box (thMap.blo, bhi) in each
	// dimension, a superset (maps thsymUnregister drops stay in it);
	// hullAll: every map added had a box. thsymEnterAt skips its
	// slicesMeet scan when the new map's box is apart from the hull in a
	// dimension other than the maps' (then boxesMeet is false for every
	// map; issue 13, stop 32: per_cta_alloc's 16 rows, each tested
	// against the rows before).
	hlo, hhi [thBoxDims]int32
	hullAll  bool
	// two: its map is 2-D (thsym2d.go): no other map joins it.
	two bool
	// dlo and dhi bound every map's slices in the maps' dimension (map
	// x spans [x.base, x.base + (x.frame.n-1)*x.coef + x.width), the
	// hull slicesMeet tests), a superset like hlo/hhi; dSet: every map
	// of vs was added by thsymRegister, which keeps them (dimAdd).
	// thsymEnterAt skips its scan of the maps when a new map's span is
	// apart from [dlo, dhi) (issue 13, stop 39: rmem_uniform's warps,
	// each class tested against every earlier warp's maps, disjoint).
	dlo, dhi int
	dSet     bool
}

// thVarOne is a thVar with room for one map (th2Enter's).
type thVarOne struct {
	v    thVar
	maps [1]thMap
}

// dimSpan is the span of map mp's slices of a frame of n threads in its
// dimension, as slicesMeet bounds them.
func dimSpan(mp *thMap, n int32) (lo, hi int) {
	return mp.base, mp.base + int(n-1)*mp.coef + mp.width
}

// dimAdd widens vs's span by map mp of a frame of n threads (first: the
// only map).
func (vs *thVar) dimAdd(mp *thMap, n int32, first bool) {
	lo, hi := dimSpan(mp, n)
	if first {
		vs.dlo, vs.dhi = lo, hi
		return
	}
	vs.dlo, vs.dhi = min(vs.dlo, lo), max(vs.dhi, hi)
}

// dimApart reports whether the slices of map mp of a frame of n threads
// are apart from every map of vs by slicesMeet's hull test: for each
// map x, x.base >= dlo and its span's end <= dhi, so mp ending at or
// before dlo or starting at or after dhi is apart from each.
func (vs *thVar) dimApart(mp *thMap, n int32) bool {
	if !vs.dSet || len(vs.maps) == 0 || thsymNoDimApart {
		return false
	}
	lo, hi := dimSpan(mp, n)
	if hi <= vs.dlo || lo >= vs.dhi {
		thsymDimSkips++
		return true
	}
	return false
}

// thsymNoWholeBounds makes each class of thsymClasses test its own
// bounds (the tests' plain path).
var thsymNoWholeBounds bool

// thsymNoDeadMerge makes the dead-only conditions split classes as the
// others do (thsymClasses; Machine.noDeadMerge is one machine's).
var thsymNoDeadMerge bool

// thsymNoDimApart turns dimApart off (the tests' plain path);
// thsymDimSkips counts its skips (the tests' coverage).
var (
	thsymNoDimApart bool
	thsymDimSkips   int64
)

// hullAdd widens vs's hull by box mp (a map added or grown).
func (vs *thVar) hullAdd(mp *thMap, first bool) {
	if mp.nbox == 0 {
		vs.hullAll = false
		return
	}
	if first {
		vs.hullAll, vs.hlo, vs.hhi = true, mp.blo, mp.bhi
		return
	}
	for k := 0; k < mp.nbox; k++ {
		vs.hlo[k], vs.hhi[k] = min(vs.hlo[k], mp.blo[k]), max(vs.hhi[k], mp.bhi[k])
	}
}

// hullApart reports whether box mp is apart from every map of vs (every
// map has a box and, in some dimension other than mp.dim, the hull of
// theirs and mp's share no block).
func (vs *thVar) hullApart(mp *thMap) bool {
	if !vs.hullAll || mp.nbox == 0 {
		return false
	}
	for k := 0; k < mp.nbox; k++ {
		if k != mp.dim && (vs.hhi[k] <= mp.blo[k] || mp.bhi[k] <= vs.hlo[k]) {
			return true
		}
	}
	return false
}

func affEqual(a, b *Affine) bool {
	if a.K != b.K || len(a.Terms) != len(b.Terms) {
		return false
	}
	for _, t := range a.Terms {
		found := false
		for _, u := range b.Terms {
			if u == t {
				found = true
			}
		}
		if !found {
			return false
		}
	}
	return true
}

func coefOf(a *Affine, slot int) int {
	c := 0
	for _, t := range a.Terms {
		if t.Slot == slot {
			c += t.Coef
		}
	}
	return c
}

// winReads reports whether window w of access a reads slot y, and whether
// that is known (false when a closure without an affine form may read it).
func winReads(a *Access, w *Window, y int) (reads, known bool) {
	inSlots := false
	for _, s := range a.Slots {
		if s == y {
			inSlots = true
		}
	}
	switch {
	case w.LoAff != nil:
		reads = coefOf(w.LoAff, y) != 0
	case w.LoMod != nil:
		reads = coefOf(&w.LoMod.Aff, y) != 0
	default:
		if inSlots {
			return true, false
		}
	}
	if w.Hi != nil {
		if w.HiAff != nil {
			reads = reads || coefOf(w.HiAff, y) != 0
		} else if inSlots {
			return true, false
		}
	}
	return reads, true
}

// thRun is the bookkeeping of one virtual loop execution.
type thRun struct {
	n                                 int64
	memOps, records, events, localOps int64
	occ                               int64
	hocc                              []int64
}

// thsymEnter decides whether loop s runs virtually over [lo, hi) and, if
// so, registers its frame and slices and returns the statistics before
// the first iteration.
func (m *Machine) thsymEnter(s *Stmt, lo, hi int) *thRun {
	pl := s.thsym
	if len(pl.pins) == 0 {
		return m.thsymEnterAt(s, lo, 1, hi-lo, true, false)
	}
	// Each pinned inner loop runs one iteration, the same in every
	// thread (its bounds read neither the thread nor an inner iterator):
	// its iterator's value stands in for it while entry is decided.
	save := m.thPinBuf[:0]
	for _, pn := range pl.pins {
		l, h := pn.loop.Lo(m.env), pn.loop.Hi(m.env)
		if h-l != 1 {
			for i, q := range save {
				m.env[pl.pins[i].slot] = q
			}
			return nil
		}
		save = append(save, m.env[pn.slot])
		m.env[pn.slot] = l
	}
	m.thPinBuf = save
	r := m.thsymEnterAt(s, lo, 1, hi-lo, true, false)
	for i, pn := range pl.pins {
		m.env[pn.slot] = save[i]
	}
	return r
}

// thNewMap is a slice thsymEnterAt registers (Machine.thNewMaps).
type thNewMap struct {
	v          int
	mp         thMap
	add, adopt bool
	grow       int // the index of the map of the same slices, whose box becomes mp's
}

// appendNewMap appends the slice mp of variable v to nm, set in place (a
// composite literal was built, then copied: 160 bytes twice; stop 40).
func appendNewMap(nm []thNewMap, v int, mp *thMap, add, adopt bool, grow int) []thNewMap {
	if k := len(nm); k < cap(nm) {
		nm = nm[:k+1]
	} else {
		nm = append(nm, thNewMap{})
	}
	x := &nm[len(nm)-1]
	x.v, x.mp, x.add, x.adopt, x.grow = v, *mp, add, adopt, grow
	return nm
}

// thsymDry is thsymEnterAt's answer when it only tests (commit false).
var thsymDry thRun

// thsymEnterAt decides whether the n iterations lo, lo+d, ... of loop s
// run virtually (d > 1: one class of thsymClasses); with commit it
// registers their frame and slices and returns the statistics before
// the first iteration, else it only answers (&thsymDry or nil). The
// pinned iterators are set. inb: the windows' bounds are known to hold
// at both ends (thsymInBounds over a range holding them).
func (m *Machine) thsymEnterAt(s *Stmt, lo, d, n int, commit, inb bool) *thRun {
	pl := s.thsym
	env := m.env
	y := s.Slot
	for _, sh := range pl.shapes {
		if !m.single[sh] {
			return nil
		}
	}
	// A variable the loop records on that holds records and no virtual
	// slices refuses it (below, after the bounds and frame tests): tested
	// first, as it costs the least and decides most refusals (issue 13,
	// stop 28: shfl_xor's inner loops enter 256 times a check, each
	// refused here after the costlier tests). A refusal leaves nothing
	// behind whichever test makes it (the caller sets the iterator).
	quiet := pl.quiet && m.p.thExt
	for k := range pl.owned {
		o := &pl.owned[k]
		if m.lite && !o.liteRuns {
			continue
		}
		if st := &m.vars[o.v]; m.thVars[o.v] == nil && st.hasRecs {
			// Unless the loop can adopt them (no event, one class,
			// and its slices cover the whole dimension: thsymAdoptable).
			if !quiet || d != 1 || !st.live || o.dim >= len(st.blocks) || n*o.coef != st.blocks[o.dim] || slices.Contains(m.thNoAdopt, s) {
				return nil
			}
		}
	}
	// Bounds of every window that reads the thread, at both ends
	// (unless known: inb, thsymClasses).
	if !inb && !m.thsymInBounds(pl, y, lo, lo+(n-1)*d) {
		return nil
	}
	env[y] = lo
	f := thFrame{task: m.task, r0: int32(pl.start.Eval(env)), step: int32(pl.step * d), n: int32(n)}
	inF := func(t *thFrame) bool { // t's threads meet f's
		if t.task != f.task {
			return false
		}
		if *t == f {
			return true
		}
		for i := int32(0); i < f.n; i++ {
			d := f.r0 + i*f.step - t.r0
			if d%t.step == 0 && d/t.step >= 0 && d/t.step < t.n {
				return true
			}
		}
		return false
	}
	same := func(t *thFrame) bool {
		return t.task == f.task && t.r0 == f.r0 && t.step == f.step && t.n == f.n
	}
	var frame *thFrame
	if quiet {
		// The loop below with its refusal off (quiet): only the last
		// frame equal to f is looked for, its most telling field
		// first (rmem_uniform's later entries passed 16 frames of the
		// earlier ones, each tested in full; issue 13, stop 40).
		for _, t := range m.thFrames {
			if t.r0 == f.r0 && t.task == f.task && t.step == f.step && t.n == f.n {
				frame = t
			}
		}
	} else {
		for _, t := range m.thFrames {
			sm := same(t)
			if sm {
				frame = t
			}
			// A tainted frame's records may be visible to any thread
			// of its task (invariant 2): no virtual loop with events
			// there, on any frame; nor on a frame that shares threads
			// with another (a loop with no event cannot change other
			// records, its checks see their own slices, and slices of
			// one variable never meet).
			if t.taintAll || t.tainted && t.task == f.task || !sm && inF(t) {
				return nil
			}
		}
	}
	// The slices of this execution, and whether each variable's state
	// allows them (nm is kept, emptied, for the next entry: every
	// return below stores it back, without a defer, stop 31).
	nm := m.thNewMaps[:0]
	for k := range pl.owned {
		o := &pl.owned[k]
		if m.lite && !o.liteRuns {
			continue
		}
		st := &m.vars[o.v]
		if !st.live || st.gran[o.dim] != 1 {
			return m.thsymNoEnter(nm)
		}
		for _, a := range o.accs {
			w := &a.Idx[o.dim]
			width := 1
			if w.Hi != nil {
				width = w.HiAff.Eval(env) - w.LoAff.Eval(env)
			}
			if width > o.coef {
				return m.thsymNoEnter(nm) // neighbouring threads' windows overlap
			}
		}
		mp := thMap{dim: o.dim, base: o.lo.Eval(env), coef: o.coef * d, width: o.coef}
		if o.box && len(st.dims) > 1 && len(st.dims) <= thBoxDims && !m.thsymNoBox && m.p.thExt {
			// The blocks of the other dimensions the accesses touch
			// (the same in every iteration: their windows read only
			// the thread, in dimension dim, and slots fixed here).
			mp.nbox = len(st.dims)
			for k := 0; k < mp.nbox; k++ {
				mp.blo[k], mp.bhi[k] = int32(st.blocks[k]), 0
			}
			for _, a := range o.accs {
				for k := range a.Idx {
					if k == o.dim {
						continue
					}
					w := &a.Idx[k]
					l := w.lo(env)
					h := l + 1
					if w.Hi != nil {
						h = w.hi(env)
					}
					// Clamped: a window out of bounds faults in the
					// first iteration that runs it, this one (a
					// statement under a condition may never run).
					// The clamp and the empty-window skip below only
					// narrow the box to blocks that exist: without them
					// it is a superset of the touched blocks, and every
					// use is monotone in the box (boxesMeet refuses
					// more, inBox copies more cells of the
					// representative's slice, which hold no other map's
					// records as such maps meet this one and are
					// refused, and the hull grows): precision only
					// (stop 29, mut29: neither mutant changes a Result).
					l, h = max(l, 0), min(h, st.dims[k])
					if h <= l {
						continue
					}
					g := st.gran[k]
					mp.blo[k] = min(mp.blo[k], int32(l/g))
					mp.bhi[k] = max(mp.bhi[k], int32((h+g-1)/g))
				}
			}
		}
		vs := m.thVars[o.v]
		if vs == nil {
			adopt := false
			if st.hasRecs {
				// A loop with no event may start from records left
				// before it when each thread's slice holds the
				// translation of the first's (thsymAdoptable).
				if !quiet || d != 1 || mp.nbox != 0 {
					return m.thsymNoEnter(nm)
				}
				if !m.thsymAdoptable(st, mp, &f) {
					// Once per loop and run: a loop whose slices are
					// not translations at one entry seldom are at the
					// next (a refusal changes no verdict).
					m.thNoAdopt = append(m.thNoAdopt, s)
					return m.thsymNoEnter(nm)
				}
				adopt = true
			}
			nm = appendNewMap(nm, o.v, &mp, true, adopt, -1)
			continue
		}
		if vs.two {
			return m.thsymNoEnter(nm) // a 2-D map (thsym2d.go): no other joins it
		}
		// The same slices of this frame: one map, its box the hull of
		// both (a virtual variable's records are all in its maps'
		// first slices, so the hull's other cells hold none).
		grow := -1
		if len(vs.maps) > 0 && frame == nil && (vs.hullApart(&mp) || vs.dimApart(&mp, f.n)) {
			// Every map has the dimension of the first (each was
			// refused unless it had the dimension of those before),
			// none is of this frame (every map's frame is in
			// thFrames: thsymPrune keeps the frames maps use), and
			// none meets mp (hullApart, or dimApart in the maps'
			// dimension): the scans below would find no map to grow
			// and none that meets.
			if vs.maps[0].dim != mp.dim {
				return m.thsymNoEnter(nm)
			}
			nm = appendNewMap(nm, o.v, &mp, true, false, -1)
			continue
		}
		for xi := range vs.maps {
			x := &vs.maps[xi] // by pointer: a thMap is 80 bytes
			if x.dim != mp.dim {
				return m.thsymNoEnter(nm)
			}
			if x.base == mp.base && x.coef == mp.coef && x.width == mp.width && x.frame.n == f.n && same(x.frame) {
				grow = xi
				if x.nbox == 0 || mp.nbox == 0 {
					mp.nbox = 0
				} else {
					for k := 0; k < mp.nbox; k++ {
						mp.blo[k], mp.bhi[k] = min(mp.blo[k], x.blo[k]), max(mp.bhi[k], x.bhi[k])
					}
				}
			}
		}
		for xi := range vs.maps {
			if x := &vs.maps[xi]; xi != grow && slicesMeet(x, &mp, x.frame.n, f.n) {
				return m.thsymNoEnter(nm) // overlapping slices of another execution
			}
		}
		nm = appendNewMap(nm, o.v, &mp, grow < 0, false, grow)
	}
	for _, b := range pl.bars {
		vs := m.thVars[b]
		if vs != nil {
			for _, t := range vs.frames {
				if !same(t) {
					return m.thsymNoEnter(nm)
				}
			}
			continue
		}
		st := &m.vars[b]
		if !st.live {
			return m.thsymNoEnter(nm)
		}
		for c := 0; c < st.total; c++ {
			bs := &m.bars[st.bar0+int32(c)]
			if bs.a != 0 || bs.w != 0 || len(m.subsOf(st.bar0+int32(c))) > 0 {
				return m.thsymNoEnter(nm)
			}
		}
	}
	// No record outside the virtual slices may be visible to the loop:
	// only its events could see them (its checks see their own slices and
	// its private variables, each reallocated before use).
	for v := range m.vars {
		if quiet {
			break
		}
		st := &m.vars[v]
		if !st.hasRecs || m.thVars[v] != nil || slices.Contains(pl.private, v) {
			continue
		}
		if m.lite && st.local {
			continue // the first task's, not this task's
		}
		owned := false
		for i := range nm {
			owned = owned || nm[i].v == v
		}
		if !owned {
			return m.thsymNoEnter(nm)
		}
	}
	if !commit {
		// Kept for thsymClasses (thsymSaved): the frame and the slices
		// of the last entry tested.
		m.thSavedF, m.thSavedFrame = f, frame
		m.thNewMaps = nm
		return &thsymDry
	}
	r := m.thsymRegister(pl, f, frame, nm, n)
	m.thNewMaps = nm[:0] // not in thsymRegister: thsymClasses's nm is its own list
	return r
}

// thsymInBounds reports whether every window of plan pl's accesses that
// reads the thread y is in bounds with y at a and at b, the ends of an
// entry: its bounds are affine in y, so each test holds over an interval
// of y, and then it holds at every y between (stop 39: thsymClasses tests
// the whole range once for its classes, whose ends lie in it).
func (m *Machine) thsymInBounds(pl *thPlan, y, a, b int) bool {
	env := m.env
	for _, end := range [2]int{a, b} {
		env[y] = end
		for _, a := range pl.accs {
			st := &m.vars[a.Var]
			if !st.live || len(a.Idx) != len(st.dims) {
				return false
			}
			for d := range a.Idx {
				w := &a.Idx[d]
				if w.LoAff == nil || coefOf(w.LoAff, y) == 0 && (w.HiAff == nil || coefOf(w.HiAff, y) == 0) {
					continue
				}
				l := w.LoAff.Eval(env)
				ext := st.dims[d]
				if w.Hi == nil {
					if l < 0 || l >= ext {
						return false
					}
					continue
				}
				if st.gran[d] != 1 {
					return false // the block count could change with the thread
				}
				h := w.HiAff.Eval(env)
				if l < 0 || h > ext || h < l {
					return false
				}
			}
		}
	}
	return true
}

// thsymRegister registers the frame (frame, or f when nil) and the slices
// nm of an entry of loop plan pl of n iterations that thsymEnterAt
// tested, and returns the statistics before the first iteration.
func (m *Machine) thsymRegister(pl *thPlan, f thFrame, frame *thFrame, nm []thNewMap, n int) *thRun {
	if frame == nil {
		frame = m.thsymNewFrame(f)
	}
	m.thSavedFrame = frame
	m.thAny = true
	for i := range nm {
		// By pointer, nm left as it is (a thNewMap is 160 bytes: the
		// copies were a fifth of the loop; issue 13, stop 40: sym40).
		x := &nm[i]
		vs := m.thVars[x.v]
		if vs == nil {
			// Room for the maps of the variable's disjoint slice sets
			// of this size (per_cta_alloc: 16 rows of the tile, one
			// map each, had grown the list five times).
			// A slice is width wide (a class's threads are coef/width
			// iterations apart: its sets interleave with the other
			// classes', stop 39: coef had made rmem_uniform's list half
			// its size, then grown it).
			vs = &thVar{maps: make([]thMap, 0, min(max(m.vars[x.v].total/max(n*x.mp.width, 1), 1), 32)), dSet: true}
			m.thVars[x.v] = vs
		}
		if x.add {
			vs.maps = append(vs.maps, x.mp)
			g := &vs.maps[len(vs.maps)-1]
			g.frame = frame
			vs.hullAdd(g, len(vs.maps) == 1)
			vs.dimAdd(g, frame.n, len(vs.maps) == 1)
		} else if x.grow >= 0 {
			g := &vs.maps[x.grow]
			g.nbox, g.blo, g.bhi = x.mp.nbox, x.mp.blo, x.mp.bhi
			vs.hullAdd(g, false)
		}
		if x.adopt {
			mp := x.mp
			if x.add {
				mp.frame = frame
			}
			m.thsymDropCopies(&m.vars[x.v], mp)
			m.thAdopts++
			// Adopted records may have a creator or grants every
			// thread of the frame holds (a host write, which any task's
			// events may witness): any such event would witness every
			// slice's copy, so the frame is tainted as after an
			// all-threads fence (invariant 2): no loop with events runs
			// virtually while it is.
			frame.tainted, frame.taintAll = true, true
		}
	}
	for _, b := range pl.bars {
		vs := m.thVars[b]
		if vs == nil {
			vs = &thVar{}
			m.thVars[b] = vs
		}
		if len(vs.frames) == 0 {
			vs.frames = append(vs.frames, frame)
		}
	}
	if len(pl.pins) > 0 {
		m.thPinRuns++
	}
	if len(pl.private) > 0 {
		m.thPrivRuns++
	}
	return m.thsymStart(int32(n))
}

// thsymNewFrame registers frame f, carved from a chunk (one allocation
// for 16 frames; a chunk is never appended past its capacity, so the
// pointers stay).
func (m *Machine) thsymNewFrame(f thFrame) *thFrame {
	if len(m.thFrameBuf) == cap(m.thFrameBuf) {
		m.thFrameBuf = make([]thFrame, 0, 16)
	}
	m.thFrameBuf = append(m.thFrameBuf, f)
	frame := &m.thFrameBuf[len(m.thFrameBuf)-1]
	if m.thFrames == nil {
		m.thFrames = make([]*thFrame, 0, 16)
	}
	m.thFrames = append(m.thFrames, frame)
	return frame
}

// thsymFrame returns the registered frame equal to f, registering f if
// there is none.
func (m *Machine) thsymFrame(f thFrame) *thFrame {
	for _, t := range m.thFrames {
		if t.task == f.task && t.r0 == f.r0 && t.step == f.step && t.n == f.n {
			return t
		}
	}
	return m.thsymNewFrame(f)
}

// thsymStart counts a virtual run of n threads and returns the statistics
// before its representative runs.
func (m *Machine) thsymStart(n int32) *thRun {
	m.thAny = true
	m.thSymRuns++
	r := &m.thRunBuf
	r.n = int64(n)
	m.thsymSnap(r)
	return r
}

// thsymNoEnter is thsymEnterAt's refusal after its slices list nm was
// taken: the list is kept, emptied, for the next entry.
func (m *Machine) thsymNoEnter(nm []thNewMap) *thRun {
	m.thNewMaps = nm[:0]
	return nil
}

// thsymLeave adds the other iterations' statistics and hazard occurrences
// after the first iteration ran.
func (m *Machine) thsymLeave(r *thRun) {
	k := r.n - 1
	st := &m.res.Stats
	d := st.MemOps - r.memOps
	st.MemOps += k * d
	st.SkippedOps += k * d
	st.Records += k * (st.Records - r.records)
	st.Events += k * (st.Events - r.events)
	m.localOps += k * (m.localOps - r.localOps)
	if occ := m.res.Occurrences - r.occ; occ > 0 {
		m.res.Occurrences += k * occ
		for i := range m.res.Hazards {
			before := int64(0)
			if i < len(r.hocc) {
				before = r.hocc[i]
			}
			m.res.Hazards[i].Occurrences += k * (m.res.Hazards[i].Occurrences - before)
		}
	}
}

// thsymTouch runs before statement s executes outside a virtual loop
// while some state is virtual: it materializes the virtual variables s
// reads or changes, and classifies its event against the frames.
//
// It reports whether s was kept (thsymKeep) with every check of s (or of
// its run's members) walked over every record of the variable without a
// failure: the check's own walk would then find none either and only
// counts its cells (thkeep.go, "checks already walked").
func (m *Machine) thsymTouch(s *Stmt) (checked bool) {
	if s.Kind == KAlloc {
		v := s.Acc.Var
		if vs := m.thVars[v]; vs != nil {
			if m.p.Vars[v].Barrier {
				m.thsymMaterialize(v)
			} else {
				// Reallocated: its old records go; nothing can see them.
				m.thVars[v] = nil
				m.thsymPrune()
			}
		}
		return false
	}
	if s.Acc != nil && m.thVars[s.Acc.Var] != nil {
		if m.thsymKeep(s) {
			checked = !m.thsymNoKeepSkip // thsymKeep refuses barrier accesses: none below
		} else {
			m.thsymMaterialize(s.Acc.Var)
		}
	}
	for _, b := range s.Bars {
		if m.thVars[b.Var] != nil {
			m.thsymMaterialize(b.Var)
		}
	}
	switch s.Kind {
	case KFence, KArrive, KAwait:
	default:
		return
	}
	gs := m.gs(s)
	for i := 0; i < len(m.thFrames); i++ {
		f := m.thFrames[i]
		if gs.task == allTasks {
			f.tainted, f.taintAll = true, true
			continue
		}
		if gs.task != f.task {
			continue
		}
		switch m.frameIn(gs, f) {
		case 0:
		case f.n:
			f.tainted = true
		default:
			// It tells the frame's threads apart: build their state.
			m.thsymMaterializeFrame(f)
			i = -1 // the frame list changed
		}
	}
	return false
}

// thsymMaterializeFrame materializes every variable virtual in frame f.
func (m *Machine) thsymMaterializeFrame(f *thFrame) {
	for v, vs := range m.thVars {
		if vs == nil {
			continue
		}
		hit := false
		for i := range vs.maps {
			hit = hit || vs.maps[i].frame == f
		}
		for _, x := range vs.frames {
			hit = hit || x == f
		}
		if hit {
			m.thsymMaterialize(v)
		}
	}
	m.thsymPrune()
}

// thsymPrune drops frames no virtual variable uses.
func (m *Machine) thsymPrune() {
	out := m.thFrames[:0]
	for _, f := range m.thFrames {
		used := false
		for _, vs := range m.thVars {
			if vs == nil {
				continue
			}
			for i := range vs.maps {
				used = used || vs.maps[i].frame == f
			}
			for _, x := range vs.frames {
				used = used || x == f
			}
		}
		if used {
			out = append(out, f)
		}
	}
	for i := len(out); i < len(m.thFrames); i++ {
		m.thFrames[i] = nil
	}
	m.thFrames = out
	m.thAny = len(m.thFrames) > 0
}

// thsymMaterialize builds the other threads' state of virtual variable v
// by translating the representative's (a barrier's per-thread queues, a
// data variable's records; a data variable's records name queues, so
// barriers are built first).
func (m *Machine) thsymMaterialize(v int) {
	vs := m.thVars[v]
	if vs == nil {
		return
	}
	if !m.p.Vars[v].Barrier || len(vs.maps) > 0 {
		for b, bv := range m.thVars {
			if bv != nil && len(bv.frames) > 0 && b != v {
				m.thsymMaterialize(b)
			}
		}
	}
	m.thVars[v] = nil
	st := &m.vars[v]
	m.unlazy(st)
	for _, f := range vs.frames {
		for c := 0; c < st.total; c++ {
			id := st.bar0 + int32(c)
			rep := int32(-1)
			var sh int32
			for _, q := range m.subsOf(id) {
				if q.th.task == f.task && q.th.start == f.r0 && m.single[q.th.shape] {
					rep, sh = q.id, q.th.shape
				}
			}
			if rep < 0 {
				continue
			}
			ids := make([]int32, 0, f.n-1)
			for i := int32(1); i < f.n; i++ {
				nid := m.queue(v, id, threads{task: f.task, start: f.r0 + i*f.step, shape: sh})
				m.bars[nid].a, m.bars[nid].w = m.bars[rep].a, m.bars[rep].w
				ids = append(ids, nid)
			}
			if m.thSubs == nil {
				m.thSubs = map[int32]thSub{}
			}
			m.thSubs[rep] = thSub{task: f.task, r0: f.r0, step: f.step, ids: ids}
		}
	}
	for _, mp := range vs.maps {
		m.thsymCopyMap(v, st, mp)
	}
	m.thsymPrune()
}

// thsymCopyMap copies the representative slice of mapping mp of data
// variable v into the other threads' slices.
func (m *Machine) thsymCopyMap(v int, st *varState, mp thMap) {
	if mp.n2 > 0 {
		m.thsymCopyMap2(st, mp)
		return
	}
	f := mp.frame
	stride := st.strides[mp.dim]
	blocks := st.blocks[mp.dim]
	outer := st.total / (stride * blocks)
	now := int32(len(m.log))
	for o := 0; o < outer; o++ {
		for j := mp.base; j < mp.base+mp.width && j < blocks; j++ {
			for in := 0; in < stride; in++ {
				c := o*stride*blocks + j*stride + in
				if !inBox(st, mp, c) {
					continue
				}
				for _, reads := range [2]bool{true, false} {
					head := st.cells[c].muts
					if reads {
						head = st.cells[c].reads
					}
					if head < 0 {
						// Thread i's list is the translation of the
						// empty list. The other slices hold no record
						// of their own unless a whole-variable record
						// was kept virtual (thkeep.go), which the
						// representative's loop may have cleared since.
						for i := int32(1); i < f.n && j+int(i)*mp.coef < blocks; i++ {
							cl := &st.cells[c+int(i)*mp.coef*stride]
							lp := &cl.muts
							if reads {
								lp = &cl.reads
							}
							if *lp >= 0 {
								m.freeList(*lp)
								*lp = -1
								m.vers++
								cl.ver = m.vers
							}
						}
						continue
					}
					for h := head; h >= 0; h = m.rec(h).next {
						if m.rec(h).stamp != now {
							m.replay(m.rec(h))
						}
					}
					for i := int32(1); i < f.n; i++ {
						jt := j + int(i)*mp.coef
						if jt >= blocks {
							break // never reached: its windows were in bounds
						}
						tc := c + int(i)*mp.coef*stride
						st.listAt(int32(tc))
						cl := &st.cells[tc]
						tail := int32(-1)
						for h := head; h >= 0; h = m.rec(h).next {
							nr := m.thsymCopy(h, f, i, now)
							if tail < 0 {
								if reads {
									m.freeList(cl.reads)
									cl.reads = nr
								} else {
									m.freeList(cl.muts)
									cl.muts = nr
								}
							} else {
								m.rec(tail).next = nr
							}
							tail = nr
						}
						m.vers++
						st.cells[tc].ver = m.vers
					}
				}
			}
		}
	}
}

// thsymCopy returns a new record: record h of the representative as
// thread i of frame f sees it (creator and one-thread grants shifted to
// thread i, arrive counts on the representative's queues moved to thread
// i's; grants to sets containing all of f or none of it unchanged).
func (m *Machine) thsymCopy(h int32, f *thFrame, i int32, now int32) int32 {
	idx := m.takeRecord()
	r := m.rec(h)
	nr := m.rec(idx)
	shift := func(t threads) threads {
		if t.task == f.task && t.start == f.r0 && m.single[t.shape] {
			t.start += i * f.step
		}
		return t
	}
	nr.next = -1
	nr.src, nr.q, nr.level, nr.atomic = r.src, r.q, r.level, r.atomic
	nr.creator = shift(r.creator)
	m.rdNote(idx)
	nr.reach = r.reach
	nr.stamp = now
	nr.grants = nr.grants[:0] // its own storage, kept from the free list
	if len(r.grants) > 0 {
		if cap(nr.grants) < len(r.grants) {
			nr.grants = m.grantStore(len(r.grants))
		}
		for _, g := range r.grants {
			g.th = shift(g.th)
			nr.grants = append(nr.grants, g)
		}
	}
	nr.pend = nr.pend[:0]
	if len(r.pend) > 0 {
		if cap(nr.pend) < len(r.pend) {
			nr.pend = m.pendStore(len(r.pend))
		}
		for _, p := range r.pend {
			// Only a count on the queue of f's first thread moves (to
			// thread i's): the queue was built by this frame's
			// materialization. A count on another frame's first thread's
			// queue (a single thread outside f, witnessing f's records
			// through a CTA grant) is σ-invariant for f and stays
			// (TestThreadSymCopyCountsOwnFrame).
			if sb, ok := m.thSubs[p.cell]; ok && sb.task == f.task && sb.r0 == f.r0 && sb.step == f.step && int(i-1) < len(sb.ids) {
				p.cell = sb.ids[i-1]
			}
			nr.pend = append(nr.pend, p)
		}
	}
	return idx
}

// thsymAdoptable reports whether data variable st, which holds records and
// no virtual slices, can become virtual over mapping mp of frame f at the
// entry of a loop with no event (stop 29): no record outside the frame's
// slices, and each thread's slice holds, list by list, the records of the
// first thread's translated to it (thsymCopy's translation), none a group
// or with arrive counts, every thread set of the first's one-thread set of
// the first thread or σ-invariant (all of f or none of it: invariant 1).
// The loop's own operations on a slice are then the translation of the
// first thread's on its slice, as for slices that start empty; and with no
// event in the loop no other record can change. Records are made and
// brought up to the log first (lazy cells, lazy replay: neither changes a
// verdict).
func (m *Machine) thsymAdoptable(st *varState, mp thMap, f *thFrame) bool {
	stride := st.strides[mp.dim]
	blocks := st.blocks[mp.dim]
	if stride == 0 || blocks == 0 {
		return false
	}
	outer := st.total / (stride * blocks)
	end := mp.base + int(f.n)*mp.coef
	if mp.base != 0 || end != blocks {
		// The slices cover the dimension (so no cell is outside
		// them): tested first by thsymEnterAt, as it costs nothing
		// (shfl_xor's two-lane loops over host-written GMEM).
		return false
	}
	if st.lazy && st.lzN == 0 && lazyAlone(st) {
		return m.thsymAdoptableLazy(st, f)
	}
	m.unlazy(st) // every cell holds the remembered record (lazycells.go)
	now := int32(len(m.log))
	invariant := func(t threads) bool {
		if t.task == f.task && t.start == f.r0 && m.single[t.shape] {
			return true // the first thread's own: translated
		}
		in := m.frameCount(t, f)
		return in == 0 || in == f.n
	}
	shift := func(t threads, i int32) threads {
		if t.task == f.task && t.start == f.r0 && m.single[t.shape] {
			t.start += i * f.step
		}
		return t
	}
	for o := 0; o < outer; o++ {
		for j := 0; j < blocks; j++ {
			inF := j >= mp.base && j < end
			for k := 0; k < stride; k++ {
				c := o*stride*blocks + j*stride + k
				cl := st.cells[c]
				if !inF {
					if cl.reads >= 0 || cl.muts >= 0 {
						return false
					}
					continue
				}
				if j >= mp.base+mp.coef {
					continue // compared below from the first thread's
				}
				for _, head := range [2]int32{cl.reads, cl.muts} {
					for h := head; h >= 0; h = m.rec(h).next {
						r := m.rec(h)
						m.replayed(r, now)
						if r.grp != 0 || len(r.pend) > 0 || !invariant(r.creator) {
							return false
						}
						for _, g := range r.grants {
							if !invariant(g.th) {
								return false
							}
						}
					}
				}
				for i := int32(1); i < f.n; i++ {
					tc := st.cells[c+int(i)*mp.coef*stride]
					for l, head := range [2]int32{cl.reads, cl.muts} {
						th := tc.reads
						if l == 1 {
							th = tc.muts
						}
						h := head
						for ; h >= 0 && th >= 0; h, th = m.rec(h).next, m.rec(th).next {
							r, q := m.rec(h), m.rec(th)
							m.replayed(q, now)
							if q.src != r.src || q.q != r.q || q.level != r.level || q.atomic != r.atomic ||
								q.reach != r.reach || q.grp != 0 || len(q.pend) > 0 ||
								q.creator != shift(r.creator, i) || len(q.grants) != len(r.grants) {
								return false
							}
							for g := range r.grants {
								rg := r.grants[g]
								rg.th = shift(rg.th, i)
								if q.grants[g] != rg {
									return false
								}
							}
						}
						if h >= 0 || th >= 0 {
							return false // lists of different lengths
						}
					}
				}
			}
		}
	}
	return true
}

// thsymAdoptableLazy is thsymAdoptable for a variable whose every cell
// holds one remembered record (lazycells.go), the slices covering them
// all: the copies are identical, so they are translations of the first
// thread's when the record (replayed, as a scratch record) has no arrive
// count and its creator and grants are σ-invariant sets, none the first
// thread's own (which the translation would move). The records are not
// made: an adopted variable makes only the first slice's
// (thsymDropCopies), the 255 others of rmem_uniform's host copy were made
// and freed.
func (m *Machine) thsymAdoptableLazy(st *varState, f *thFrame) bool {
	// Counts from the write itself (Stmt.Bars): the cheap early
	// refusal. Redundant with the test of the replayed record below,
	// which starts from them (a count replay drops is on a dead queue:
	// dropDeadPends, the made records lose it too); stop 29, mut29.
	if len(st.lazyPend) > 0 {
		return false
	}
	ok := func(t threads) bool {
		if t.task == f.task && t.start == f.r0 && m.single[t.shape] {
			return f.n == 1
		}
		in := m.frameCount(t, f)
		return in == 0 || in == f.n
	}
	if !ok(st.lazyCr) {
		return false
	}
	i := m.takeRecord()
	m.initRecord(i, -1, st.lazyS, st.lazyCr, st.lazyPend, st.lazyStamp)
	r := m.rec(i)
	m.replayed(r, int32(len(m.log)))
	// No arrive count after the replay either: an Arrive since the
	// write that witnessed it (by the frame's first thread, on its
	// per-thread queue) gave every cell's record the same count, which
	// thsymCopy would move to each thread's own queue (a bug until
	// mut29, stop 29: TestThreadSymAdoptLazyReplayCounts).
	good := r.grp == 0 && len(r.pend) == 0
	for _, g := range r.grants {
		good = good && ok(g.th)
	}
	m.freeList(i)
	return good
}

// thsymDropCopies frees the records of the other threads' slices of an
// adopted mapping: they are the first thread's translated
// (thsymAdoptable), and virtual slices hold none (thsymCopyMap rebuilds
// them). A lazy variable's remembered record is made in the first
// thread's slice only.
func (m *Machine) thsymDropCopies(st *varState, mp thMap) {
	f := mp.frame
	stride := st.strides[mp.dim]
	blocks := st.blocks[mp.dim]
	outer := st.total / (stride * blocks)
	if st.lazy {
		st.lazy = false
		m.lazyMade++
		m.thLazyAdopts++
		s := st.lazyS
		for o := 0; o < outer; o++ {
			for j := mp.base; j < mp.base+mp.width && j < blocks; j++ {
				for k := 0; k < stride; k++ {
					st.listAt(int32(o*stride*blocks + j*stride + k))
					cl := &st.cells[o*stride*blocks+j*stride+k]
					head := &cl.reads
					if s.Kind == KRecordMutate {
						head = &cl.muts
					}
					i := m.takeRecord()
					m.initRecord(i, *head, s, st.lazyCr, st.lazyPend, st.lazyStamp)
					*head = i
					m.vers++
					cl.ver = m.vers
				}
			}
		}
		return
	}
	for o := 0; o < outer; o++ {
		for i := int32(1); i < f.n; i++ {
			for j := mp.base + int(i)*mp.coef; j < mp.base+int(i+1)*mp.coef && j < blocks; j++ {
				for k := 0; k < stride; k++ {
					cl := &st.cells[o*stride*blocks+j*stride+k]
					if cl.reads < 0 && cl.muts < 0 {
						continue
					}
					m.freeList(cl.reads)
					m.freeList(cl.muts)
					cl.reads, cl.muts = -1, -1
					m.vers++
					cl.ver = m.vers
				}
			}
		}
	}
}

// thClass is one class of iterations of thsymClasses: n iterations first,
// first+d, ..., whose conditions on the thread all agree.
type thClass struct {
	sig         uint32
	first, d, n int
	// dn[j]: the iterations of the class where the j-th dead-only
	// condition (thPlan.ydead) holds.
	dn [thDeadConds]int32
	// f, frame and the slices thSaved[nm0:nm1] are its entry's, tested
	// (thsymClasses).
	f        thFrame
	frame    *thFrame
	nm0, nm1 int
	reg      *thFrame // the frame registered
	run      thRun    // the statistics before its representative ran
	after    thRun    // and after
	// deadOps[j]: the memory and local operations the body of dead-only
	// If j counted in the representative (execDeadIf).
	deadOps [thDeadConds][2]int64
}

// thsymClasses runs loop s over [lo, hi) by classes when its conditions
// on the thread (thPlan.yconds) split its iterations into arithmetic
// progressions whose first iterations are lo, lo+1, ..., lo+K-1: each
// class is a virtual loop of its own (a frame of threads d iterations
// apart, each owning a slice of width coef every d*coef), its first
// iteration the representative. It reports false, having changed
// nothing, when the loop must run in full.
//
// Why it is the full run's. Within a class every condition is constant,
// so its iterations are translations of one another as in an unsplit
// loop. The loop has no event and no per-thread queue (planThreadSym), so
// an iteration touches only its own slices and private variables, and
// the full run's result does not depend on the order of its iterations
// but for the order in which hazards are first seen and for where a stop
// falls. The representatives are iterations lo..lo+K-1 run in that
// order, as the full run runs them; every later iteration repeats its
// class representative's hazards (no new distinct one). A stop (fault,
// StopAfter, limit) can only come from a representative: the run then
// ends with exactly the iterations the full run had made, so the other
// iterations' counts are added only after every representative ran.
// Every class's entry is tested before any is registered.
//
// Issue 13, stop 44: a condition whose If holds only dead statements
// (thPlan.ydead: a self-checked variable's, rmem_uniform's `if t % 2`
// around dst_value's write) changes no state in any iteration: its body
// only counts operations and bounds checks windows that do not read the
// thread, the same in every iteration that takes it. Such a condition
// splits no class when each class's first iteration takes it wherever
// some iteration of the class does (thsymClassify; else it splits as
// before): the representative then runs its body once, and the
// iterations of the class that skip it subtract what it counted there
// (thClass.deadOps; a fault in it is the representative's, the first
// that the full run meets too). rmem_uniform's 32-thread loop runs one
// class, not two, at each of its 8 entries. TestThreadSymDeadMerge
// compares with noDeadMerge and without symmetry.
func (m *Machine) thsymClasses(s *Stmt, lo, hi int) bool {
	pl := s.thsym
	y := s.Slot
	env := m.env
	saveY := env[y]
	cls, ok := m.thsymClassesOf(s, lo, hi)
	if !ok {
		return false
	}
	// Test every class, then register them all, with the pinned inner
	// iterators set.
	save := m.thPinBuf[:0]
	restore := func() {
		for i, q := range save {
			env[pl.pins[i].slot] = q
		}
	}
	for _, pn := range pl.pins {
		l, h := pn.loop.Lo(env), pn.loop.Hi(env)
		if h-l != 1 {
			restore()
			return false
		}
		save = append(save, env[pn.slot])
		env[pn.slot] = l
	}
	m.thPinBuf = save
	// Each class is tested once (issue 13, stop 33: rmem_uniform had
	// tested each twice, a dry run and the registration's): its frame
	// and slices are kept and registered after every class passed.
	// The windows' bounds over the whole range: when they hold at both
	// its ends they hold at every class's (thsymInBounds), and each
	// class's test need not make them again (stop 39); else each class
	// tests its own ends, as before.
	inb := !thsymNoWholeBounds && m.thsymInBounds(pl, y, lo, hi-1)
	sv := m.thSaved[:0]
	if k := len(cls) * len(pl.owned); cap(sv) < k {
		// Each class's entry has at most one slice per owned variable:
		// the list is made once, at its size (stop 39: it had grown by
		// append at the first entries of a check).
		sv = make([]thNewMap, 0, k)
	}
	adopt := false
	for k := range cls {
		c := &cls[k]
		if m.thsymEnterAt(s, c.first, c.d, c.n, false, inb) == nil {
			m.thSaved = sv
			restore()
			env[y] = saveY
			return false
		}
		c.f, c.frame, c.nm0 = m.thSavedF, m.thSavedFrame, len(sv)
		for i := range m.thNewMaps {
			adopt = adopt || m.thNewMaps[i].adopt
		}
		sv = append(sv, m.thNewMaps...)
		c.nm1 = len(sv)
		m.thNewMaps = m.thNewMaps[:0]
	}
	m.thSaved = sv
	nFrames := len(m.thFrames)
	for k := range cls {
		c := &cls[k]
		// A class was tested before the classes ahead of it
		// registered: that changes its tests only where its slices are
		// tested against theirs (thsymEnterAt's scan of the maps,
		// unless its box is apart from the variable's hull; their
		// frames differ from its own, its first iteration being
		// another), which thsymMeetsClasses does now. A class whose
		// slices adopt records is tested again in full after the first
		// (its variable may hold the first's maps by then).
		var refused bool
		if m.thsymClassesTwice || adopt && k > 0 {
			refused = m.thsymEnterAt(s, c.first, c.d, c.n, true, inb) == nil
		} else if refused = m.thsymMeetsClasses(c, sv[c.nm0:c.nm1], cls[:k]); !refused {
			m.thsymRegister(pl, c.f, c.frame, sv[c.nm0:c.nm1], c.n)
		}
		c.reg = m.thSavedFrame // the frame registered (thsymRegister)
		if refused {
			// The slices of classes of different periods may meet by
			// slicesMeet's test (stop 33: the old comment had this
			// unreachable). Undo the registrations (no representative
			// ran: their slices hold nothing).
			m.thsymUnregister(nFrames)
			restore()
			env[y] = saveY
			return false
		}
	}
	restore()
	m.thClassRuns++
	// The representatives, in order. The dead-only Ifs that split no
	// class count what their bodies add (execDeadIf).
	m.inVirt = true
	m.thDeadOn = m.thDeadSet(pl)
	for k := range cls {
		c := &cls[k]
		m.thsymSnap(&c.run)
		env[y] = c.first
		m.gen++
		m.thDeadOps = [thDeadConds][2]int64{}
		m.execBody(s)
		if m.stop {
			m.inVirt, m.thDeadOn = false, false
			return true
		}
		m.thsymSnap(&c.after)
		c.deadOps = m.thDeadOps
	}
	m.inVirt, m.thDeadOn = false, false
	st := &m.res.Stats
	for k := range cls {
		c := &cls[k]
		x := int64(c.n - 1)
		if x == 0 {
			continue
		}
		d := x * (c.after.memOps - c.run.memOps)
		dl := x * (c.after.localOps - c.run.localOps)
		for j, n := range c.dn {
			// The iterations that skip dead-only If j count none of
			// the operations its body counted in the representative
			// (which took it: thsymClassify).
			if n > 0 {
				d -= int64(c.n-int(n)) * c.deadOps[j][0]
				dl -= int64(c.n-int(n)) * c.deadOps[j][1]
			}
		}
		st.MemOps += d
		st.SkippedOps += d
		st.Records += x * (c.after.records - c.run.records)
		st.Events += x * (c.after.events - c.run.events)
		m.localOps += dl
		if occ := c.after.occ - c.run.occ; occ > 0 {
			m.res.Occurrences += x * occ
			for i := range c.after.hocc {
				before := int64(0)
				if i < len(c.run.hocc) {
					before = c.run.hocc[i]
				}
				m.res.Hazards[i].Occurrences += x * (c.after.hocc[i] - before)
			}
		}
	}
	env[y] = hi - 1 // as after the last iteration
	m.gen++
	return true
}

// thsymMeetsClasses reports whether the slices nm of class c, tested
// before the classes ahead (registered, in frames ahead[j].reg) were,
// meet a slice of a map of their frames as thsymEnterAt tests them now.
// (A frame may be an earlier entry's, with maps of that entry: tested
// against c's slices before, with the same answer.)
func (m *Machine) thsymMeetsClasses(c *thClass, nm []thNewMap, ahead []thClass) bool {
	mine := func(f *thFrame) bool {
		for j := range ahead {
			if ahead[j].reg == f {
				return true
			}
		}
		return false
	}
	if len(ahead) == 0 {
		return false // no frame is mine
	}
	for i := range nm {
		x := &nm[i]
		vs := m.thVars[x.v]
		if vs == nil || c.frame == nil && len(vs.maps) > 0 && (vs.hullApart(&x.mp) || vs.dimApart(&x.mp, int32(c.n))) {
			continue
		}
		for xi := range vs.maps {
			if y := &vs.maps[xi]; mine(y.frame) && slicesMeet(y, &x.mp, y.frame.n, int32(c.n)) {
				return true
			}
		}
	}
	return false
}

// thClassSeen is the classes of one thread loop over [lo, hi), or their
// refusal (ok false), for its later entries in the run (thPlan.yOnly).
type thClassSeen struct {
	s      *Stmt
	lo, hi int
	ok     bool
	cls    []thClassShape
}

// thClassShape is a class of thsymClasses without its statistics.
type thClassShape struct {
	sig         uint32
	first, d, n int
	dn          [thDeadConds]int32
}

// thsymClassesOf splits [lo, hi) into the classes of thsymClasses
// (m.thClassBuf's entries, their statistics buffers kept), or reports
// false. The classes depend only on the conditions' values over
// [lo, hi): when they read only the thread (thPlan.yOnly), an entry
// over the same range takes the last one's (rmem_uniform: its 64-thread
// loop is entered 4 times a task, the grid_constant form's 32-thread
// loop 8 times; classifying each thread at each entry was a fifth of
// their machine, stop 31).
func (m *Machine) thsymClassesOf(s *Stmt, lo, hi int) ([]thClass, bool) {
	pl := s.thsym
	if pl.yOnly {
		for k := range m.thClassSeen {
			if e := &m.thClassSeen[k]; e.s == s && e.lo == lo && e.hi == hi {
				if !e.ok {
					return nil, false
				}
				cls := m.thClassBuf[:0]
				for _, c := range e.cls {
					if k := len(cls); k < cap(cls) {
						cls = cls[:k+1]
						cls[k].sig, cls[k].first, cls[k].d, cls[k].n, cls[k].dn = c.sig, c.first, c.d, c.n, c.dn
					} else {
						cls = append(cls, thClass{sig: c.sig, first: c.first, d: c.d, n: c.n, dn: c.dn})
					}
				}
				m.thClassBuf = cls
				return cls, true
			}
		}
	}
	cls, ok := m.thsymClassify(s, lo, hi)
	if pl.yOnly {
		e := thClassSeen{s: s, lo: lo, hi: hi, ok: ok}
		if ok {
			e.cls = make([]thClassShape, len(cls)) // exactly (stop 39)
			for k, c := range cls {
				e.cls[k] = thClassShape{sig: c.sig, first: c.first, d: c.d, n: c.n, dn: c.dn}
			}
		}
		m.thClassSeen = append(m.thClassSeen, e)
	}
	return cls, ok
}

// thsymClassify evaluates the conditions of loop s at each iteration of
// [lo, hi) and groups the iterations into classes (thsymClasses). The
// classes are found in a fixed array (at most 8) and m.thClassBuf grows
// once, to their number, keeping its entries' statistics buffers (stop
// 39: it had grown by append, one class at a time).
func (m *Machine) thsymClassify(s *Stmt, lo, hi int) ([]thClass, bool) {
	pl := s.thsym
	y := s.Slot
	env := m.env
	saveY := env[y]
	var sh [thMaxClasses]thClassShape
	ns := 0
	// The dead-only conditions split no class where each class's first
	// iteration takes every one of them that some iteration of it takes
	// (thsymDeadMerge); else they split, as the others.
	dead := pl.ydead
	if thsymNoDeadMerge || m.noDeadMerge {
		dead = 0
	}
again:
	for i := lo; i < hi; i++ {
		env[y] = i
		var sig uint32
		for k, c := range pl.yconds {
			if c.Cond(env) {
				sig |= 1 << k
			}
		}
		live := sig &^ dead
		found := false
		for k := range sh[:ns] {
			c := &sh[k]
			if c.sig&^dead != live {
				continue
			}
			found = true
			if c.n == 1 {
				c.d = i - c.first
			} else if i != c.first+c.n*c.d {
				env[y] = saveY
				return nil, false // not an arithmetic progression
			}
			c.n++
			if x := sig & dead; x != 0 {
				if x&^c.sig != 0 {
					// Taken where the representative does not: split.
					dead, ns = 0, 0
					goto again
				}
				thDeadCount(&c.dn, x, dead)
			}
		}
		if !found {
			if i != lo+ns || ns == thMaxClasses {
				env[y] = saveY
				return nil, false // a representative after another class's iteration
			}
			sh[ns] = thClassShape{sig: sig, first: i, d: 1, n: 1}
			if x := sig & dead; x != 0 {
				thDeadCount(&sh[ns].dn, x, dead)
			}
			ns++
		}
	}
	env[y] = saveY
	if dead != 0 {
		m.deadMerges++
	}
	cls := m.thClassBuf
	if cap(cls) < ns {
		cls = make([]thClass, ns)
		copy(cls, m.thClassBuf[:cap(m.thClassBuf)])
	}
	cls = cls[:ns]
	for k, c := range sh[:ns] {
		cls[k].sig, cls[k].first, cls[k].d, cls[k].n, cls[k].dn = c.sig, c.first, c.d, c.n, c.dn
	}
	m.thClassBuf = cls
	return cls, true
}

// thDeadCount adds an iteration taking the dead-only conditions set (a
// subset of dead, thPlan.ydead) to dn, indexed by their order in dead.
func thDeadCount(dn *[thDeadConds]int32, set, dead uint32) {
	for j := 0; dead != 0; dead &= dead - 1 {
		if bit := dead & -dead; set&bit != 0 {
			dn[j]++
		}
		j++
	}
}

// thDeadConds is the most dead-only conditions of a plan (thPlan.ydead).
const thDeadConds = 2

// thMaxClasses is the most classes thsymClassify makes.
const thMaxClasses = 8

// thsymSnap sets r to the statistics now (its hocc reused; in place: a
// thRun returned was copied twice, stop 40).
func (m *Machine) thsymSnap(r *thRun) {
	r.memOps, r.records, r.events = m.res.Stats.MemOps, m.res.Stats.Records, m.res.Stats.Events
	r.localOps, r.occ = m.localOps, m.res.Occurrences
	r.hocc = r.hocc[:0]
	for i := range m.res.Hazards {
		r.hocc = append(r.hocc, m.res.Hazards[i].Occurrences)
	}
}

// thsymUnregister drops the frames registered after the first n, and the
// slices and queues of theirs (which hold nothing yet).
func (m *Machine) thsymUnregister(n int) {
	drop := m.thFrames[n:]
	isDropped := func(f *thFrame) bool { return slices.Contains(drop, f) }
	for v, vs := range m.thVars {
		if vs == nil {
			continue
		}
		vs.maps = slices.DeleteFunc(vs.maps, func(x thMap) bool { return isDropped(x.frame) })
		vs.frames = slices.DeleteFunc(vs.frames, isDropped)
		if len(vs.maps) == 0 && len(vs.frames) == 0 {
			m.thVars[v] = nil
		}
	}
	m.thsymPrune()
}

// thDeadSet sets m.thDeadIf to plan pl's dead-only Ifs (thPlan.ydead)
// and reports whether it has any.
func (m *Machine) thDeadSet(pl *thPlan) bool {
	m.thDeadIf = [thDeadConds]*Stmt{}
	j := 0
	for k, c := range pl.yconds {
		if pl.ydead&(1<<k) != 0 {
			m.thDeadIf[j] = c
			j++
		}
	}
	return j > 0
}

// execDeadIf runs the body of If s, taken, in a representative of
// thsymClasses, adding what it counts to m.thDeadOps when s is a
// dead-only If of the loop.
func (m *Machine) execDeadIf(s *Stmt) {
	for j, c := range m.thDeadIf {
		if c == s {
			mo, lo := m.res.Stats.MemOps, m.localOps
			m.execBody(s)
			m.thDeadOps[j][0] += m.res.Stats.MemOps - mo
			m.thDeadOps[j][1] += m.localOps - lo
			return
		}
	}
	m.execBody(s)
}
