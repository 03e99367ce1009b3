package amir

import "math/bits"

// Deferred thread groups in deferred slabs (issue 13 stop 32: the TMA
// tester).
//
// The TMA tester's load of smem_x by warp 0 records one thread group a
// cell, deferred (lazygroups.go: 1 984 cells at SW32, 7 936 at SW128).
// The CTA's grid nest then reads each thread's row, so gridCompare made
// every one of them (unlazy), compared slab_p's group with slab_0's, and
// the slabs were deferred (thgrid_lazy.go); the free check at the end of
// the task (gridCheckRun) and the commit group's events by warp 0
// (gridCommutes) unlazied the variable again. Making the groups was a
// fifth of the check's instructions, and nothing ever looked at the
// 247 copies: a deferred slab's own lists are not state (gridBuild
// replaces them, an allocation drops them).
//
// So a cell of slab p ≥ 1 that defers the very group slab_0's cell
// deferred (the same lazyGrp: statement, executing set, counts, stamp)
// is compared without making it. Made, it would be field for field what
// slab_0's group was when gridCompare made it, before its replay: the
// case gridCompare's raw-equal skip decides (gridSnapSame holds), and
// the only record of its list, as slab_0's group is of its own (groups
// are deferred on empty lists only). gridLazySame takes the skip's
// decision, or, when no event was logged since the group (stamp = now:
// the record unreplayed, so the made copy would equal it), gridCompare's
// plain test of the copy. A cell that defers another group has it made
// first and goes the plain way.
//
// Walks of a deferred variable (gridCheckRun, gridRecordRun,
// gridCommutes) then make only the groups of the cells they read: slab_0
// and the cells outside slabs 1..n-1 (gridUnlazyOutside), and gridBuild
// drops the groups of the cells it replaces. Anything else makes them as
// before (Machine.cells, unlazy, makeLazyGroupsOf): a group made later
// is the group made then (lazygroups.go), and a slab's own lists are
// read by no check while it is deferred. TestLazySlabsMatchEager compares
// with noLazySlabs (every group made at gridCompare, as before).

// gridLazySame decides, for gridCompare, the copy at point p of slab_0's
// group record h0 (made from the deferred group that slab p's cell still
// defers; a plain record for a moved lazy record, thgrid_lzcell.go: grp
// is what h0's grp must be) with snapshot sn: 1 it is τ_p of it, 2 it is
// not, 0 the plain way must decide (the group is then made).
func (m *Machine) gridLazySame(g *gridRT, p int, vr *gridVarRT, h0 int32, sn *gridSnap, reads bool, now int32, grp int32) int8 {
	r := m.rec(h0)
	if r.next >= 0 || r.grp != grp {
		return 0
	}
	m.lzSlabKept++
	if sn.r.stamp == now {
		// Unreplayed (r.stamp = now): the copy is r, field for field.
		if m.gridSame(g, p, r, r) || m.gridGrpSame(g, p, vr, r, r, reads) {
			return 1
		}
		return 2
	}
	// gridCompare's raw-equal skip, with o = the copy.
	m.gridRawSkips++
	if sn.dec == 0 {
		ok := m.gridSame(g, p, r, r) || m.gridGrpSame(g, p, vr, r, r, reads)
		if !sn.free {
			if ok {
				return 1
			}
			return 2
		}
		sn.dec = 2
		if ok {
			sn.dec = 1
		}
	}
	if sn.dec != 1 {
		return 2
	}
	return 1
}

// gridUnlazyOutside makes, before a walk of variable st whose slabs are
// deferred (region list d), its lazy record and the deferred groups of
// every cell outside slabs 1..n-1 of the regions (unlazy elsewhere). It
// scans the regions' slab bitmaps a word (64 cells) at a time.
func (m *Machine) gridUnlazyOutside(st *varState, d *gridVirt) {
	m.gridScr()
	if st.lazy {
		m.makeLazy(st)
	}
	if st.lzN == 0 {
		return
	}
	if m.noLazySlabs {
		m.makeLazyGroupsAll(st)
		return
	}
	bms := m.gvBitmaps[:0]
	for r := d; r != nil; r = r.next {
		_, b := m.slabCells(r, st)
		bms = append(bms, b)
	}
	m.gvBitmaps = bms
	n := len(st.lzc)
	for w := 0; w*64 < n; w++ {
		out := ^uint64(0)
		for _, b := range bms {
			out &^= b[w]
		}
		for ; out != 0; out &= out - 1 {
			c := w*64 + bits.TrailingZeros64(out)
			if c >= n {
				break
			}
			if st.lzc[c] != 0 {
				m.makeLazyGroup(st, int32(c))
				if st.lzN == 0 {
					return
				}
			}
		}
	}
}

// gridDropSlabGroups forgets the deferred groups of region d's slabs
// 1..n-1, which gridBuild is about to replace, and makes those of its
// slab_0, which it copies.
func (m *Machine) gridDropSlabGroups(st *varState, d *gridVirt) {
	cells0, in := m.slabCells(d, st)
	for c := range st.lzc {
		if st.lzc[c] != 0 && in[c/64]&(1<<(c%64)) != 0 {
			st.lzc[c] = 0
			st.lzN--
		}
	}
	m.makeLazyGroupsIn(st, cells0)
}
