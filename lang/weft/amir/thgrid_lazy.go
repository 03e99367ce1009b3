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
}

// gridVirtAdd defers the other points' slabs of translated variable vr.
func (m *Machine) gridVirtAdd(g *gridRT, vr *gridVarRT) {
	v := vr.gv.v
	d := &gridVirt{g: g, lo: vr.lo, hi: vr.hi, shift: vr.shift, epoch: vr.st.epoch}
	d.offs = make([]int32, len(g.ths))
	for p := range d.offs {
		d.offs[p] = vr.offset(g, p)
	}
	m.gv[v] = d
	m.gvAny = true
}

// gridVirtSame reports whether vr's slabs are deferred by a nest of the
// same frame with the same slab and offsets.
func (m *Machine) gridVirtSame(g *gridRT, vr *gridVarRT) bool {
	d := m.gv[vr.gv.v]
	if d == nil || d.epoch != vr.st.epoch || d.g.task != g.task || d.g.th0 != g.th0 ||
		!slicesEqual32(d.g.ths, g.ths) || !slices.Equal(d.lo, vr.lo) || !slices.Equal(d.hi, vr.hi) {
		return false
	}
	for p := range d.offs {
		if d.offs[p] != vr.offset(g, p) {
			return false
		}
	}
	return true
}

// gridMaterialize builds variable v's deferred slabs, if any.
func (m *Machine) gridMaterialize(v int) {
	d := m.gv[v]
	if d == nil {
		return
	}
	m.gridVirtDrop(v)
	st := &m.vars[v]
	m.unlazy(st)
	if !st.live || st.epoch != d.epoch {
		return
	}
	now := int32(len(m.log))
	g := d.g
	for p := 1; p < len(g.ths); p++ {
		off := d.offs[p]
		forCells(st, d.lo, d.hi, func(c int32) bool {
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

// gridVirtEvent builds the deferred slabs of every frame that an event by
// exec tells apart, before the event is logged.
func (m *Machine) gridVirtEvent(exec threads) {
	for v, d := range m.gv {
		if d == nil || exec.task == allTasks || exec.task != d.g.task {
			continue
		}
		if !m.gridUniform(d.g, exec) {
			m.gridMaterialize(v)
		}
	}
}
