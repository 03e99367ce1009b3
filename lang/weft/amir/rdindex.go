package amir

// The read-creator index (issue 13, stop 27: gemv_warp_coop_8).
//
// gridSharedOK (thgrid.go) tests condition 2 of a read-only variable at
// each entry of a grid nest: no cell the grid may read holds a read
// record of one of the nest's own RecordReads (gridVar.srcs) whose
// creator is one grid thread of this task, nor a group record (thgroup.go)
// of such a source with such a member. It walked every read list of every
// such cell: gemv's nest over the 8 threads of one team is entered once
// per team (16 times a task) over the whole of shared_x, whose lists gain
// one record a cell per entry, so the walk cost K x 16^2 / 2 record
// visits, each a likely cache miss (about a third of the check at K =
// 1 024).
//
// The index answers the question for the whole variable at once, from
// above: per tracked source (a RecordRead of a read-only variable of some
// grid nest, Program.rdTrack), the union of the creators of every
// one-thread record of that source made in the current newest task, and
// of the members of its group records (a bitmap of thread offsets). Every
// place that fills a record taken from the slab or the free list
// (initRecord, the grid, thread-symmetric and group copies, the hardware
// mbarrier records), and every place that changes a record's source,
// creator or group mark in place, lists it once those are set (rdNote),
// when its source is tracked; the list is folded into the index, with the
// records' contents at that time, when a test needs it (rdFlush). (The
// records had been listed as takeRecord handed them out: every record a
// run made was then visited once more, 8% of the scalar matmul's check.) So
// the index holds every record in a cell list now (a freed and reused
// record is listed again with its new content; the old one is in no
// list), and more: freed records, other variables' records of the same
// source, mutate lists. When it says no read record of the sources can be
// a grid thread's, the walk would find none; otherwise the walk runs as
// before. Records of older tasks are dropped from the bitmap when a newer
// task's record is folded in: a grid's task is the current one (gridTry),
// task ids only grow, so an older task's record can never match a later
// grid (the walk skips creators of another task).
//
// Checked by TestRdIndexMatchesWalk (rdindex_test.go): random grid
// programs give the same Result with the index, verified (every spared
// walk is done too and must pass), and without it.

// rdSum is the index of one tracked source.
type rdSum struct {
	task int32    // the task whose records bits holds (-1: none yet)
	bits []uint64 // creator thread offsets of that task's one-thread records and group members
}

// rdTrackGrid adds to p.rdTrack (nil while empty) the sources of the
// RecordReads of every read-only variable of loop s's grid plan. Finish
// clears p.rdTrack and planLoops calls it at each loop it plans, once
// the plan is made: the set had been gathered by a walk of the whole
// program after planning (issue 13, stop 35: a twentieth of
// per_cta_alloc's Finish).
func (p *Program) rdTrackGrid(s *Stmt) {
	if s.grid == nil {
		return
	}
	for i := range s.grid.vars {
		gv := &s.grid.vars[i]
		if !gv.ro {
			continue
		}
		for _, src := range gv.srcs {
			if src < 0 {
				continue
			}
			for int(src) >= len(p.rdTrack) {
				p.rdTrack = append(p.rdTrack, false)
			}
			p.rdTrack[src] = true
		}
	}
}

// rdReset starts a run's index.
func (m *Machine) rdReset() {
	m.rdOn = m.p.rdTrack != nil && !m.noRdIdx
	m.rdPend, m.rdMiss = m.rdPend[:0], 0
	if !m.rdOn {
		return
	}
	if len(m.rdSums) != len(m.p.rdTrack) {
		m.rdSums = make([]rdSum, len(m.p.rdTrack))
	}
	for i := range m.rdSums {
		s := &m.rdSums[i]
		s.task = -1
		clear(s.bits)
	}
}

// rdNote lists record i for the index, once its source, creator and group
// mark are set (a new record's, or one changed in place), if its source is
// tracked.
func (m *Machine) rdNote(i int32) {
	if !m.rdOn {
		return
	}
	if src := m.rec(i).src; src >= 0 && int(src) < len(m.p.rdTrack) && m.p.rdTrack[src] {
		m.rdPend = append(m.rdPend, i)
	}
}

// rdFlush folds the listed records into the index.
func (m *Machine) rdFlush() {
	for _, i := range m.rdPend {
		m.rdFold(m.rec(i))
	}
	m.rdPend = m.rdPend[:0]
}

// rdFold folds record r into the index.
func (m *Machine) rdFold(r *record) {
	track := m.p.rdTrack
	if r.src < 0 || int(r.src) >= len(track) || !track[r.src] {
		return
	}
	s := &m.rdSums[r.src]
	task := r.creator.task
	if task < 0 || task < s.task || r.grp == 0 && !m.single[r.creator.shape] {
		return // never one grid thread of this or a later task
	}
	if task > s.task {
		s.task = task
		clear(s.bits)
	}
	if r.grp == 0 {
		s.add(r.creator.start)
		return
	}
	// A group: its members' threads (thgroup.go), a word of the shape's
	// membership bitmap at a time (the scalar matmul folds 36 000 groups
	// of 16).
	if r.creator.start >= 0 {
		s.addShifted(m.member[r.creator.shape], r.creator.start)
	}
}

// addShifted puts the thread offsets of bitmap bm, shifted by d, in s.bits.
func (s *rdSum) addShifted(bm []uint64, d int32) {
	w0, sh := int(d/64), uint(d%64)
	need := w0 + len(bm) + 1
	for len(s.bits) < need {
		s.bits = append(s.bits, 0)
	}
	for i, w := range bm {
		s.bits[w0+i] |= w << sh
		if sh > 0 {
			s.bits[w0+i+1] |= w >> (64 - sh)
		}
	}
}

// rdAdd folds record r's threads into the index now, as rdFlush would
// (the index's final state does not depend on the order records are
// folded in): mergeReads frees r into a group whose other members the
// index holds already.
func (m *Machine) rdAdd(r *record) {
	if m.rdOn {
		m.rdFold(r)
	}
}

// add puts thread offset t in s.bits.
func (s *rdSum) add(t int32) {
	if t < 0 {
		return
	}
	w := int(t / 64)
	for len(s.bits) <= w {
		s.bits = append(s.bits, 0)
	}
	s.bits[w] |= 1 << (t % 64)
}

// rdMayHold reports whether some read list may hold a record that fails
// condition 2 for a read-only variable with the sources srcs in grid g,
// whose walk would visit cells cells (false: none does, the walk of its
// read lists can be skipped).
func (m *Machine) rdMayHold(g *gridRT, srcs []int32, cells int) bool {
	if !m.rdOn {
		return true
	}
	if len(m.rdPend) > 2*cells+64 {
		// Folding the records made since the last test would cost more
		// than the walk it could spare (the scalar matmul's groups: each
		// K slice makes thousands): the run stops keeping the index, and
		// every later test walks, as without it.
		m.rdOn = false
		m.rdPend = m.rdPend[:0]
		return true
	}
	m.rdFlush()
	if m.rdHeld(g, srcs) {
		// Keeping the index costs a visit of every record of a tracked
		// source; a run whose grids it never spares a walk stops keeping
		// it after rdMisses tests in a row.
		if m.rdMiss++; m.rdMiss >= rdMisses && !m.rdVerify {
			m.rdOn = false
			m.rdPend = m.rdPend[:0]
		}
		return true
	}
	m.rdMiss = 0
	return false
}

// rdMisses is how many tests in a row the index may fail to spare a walk
// before a run stops keeping it.
const rdMisses = 8

// rdHeld is rdMayHold's test on a flushed index.
func (m *Machine) rdHeld(g *gridRT, srcs []int32) bool {
	for _, src := range srcs {
		if src < 0 || int(src) >= len(m.rdSums) {
			return true
		}
		s := &m.rdSums[src]
		if s.task > g.task {
			return true
		}
		if s.task < g.task {
			continue
		}
		for w, b := range s.bits {
			if w < len(g.inF) && b&g.inF[w] != 0 {
				return true
			}
		}
	}
	return false
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
