package amir

import "slices"

// Group records in deferred slabs (issue 13 stop 29: the TMA tester).
//
// The TMA tester's load of smem_x is issued by warp 0 (an access that is
// not convergent, by 32 threads: one thread group record a cell,
// thgroup.go), and the CTA's grid nest of 248 threads then reads each
// thread's own row. Warp 0 holds the representative and 31 other points,
// so gridSame refused the slabs (a group whose members are grid threads
// is no τ_p image of itself under the per-member reading), smem_x went the
// read-only way (condition 2), and gridLeave copied the 247 other points'
// read records into their rows: 7 936 records at SW128, each replayed and
// checked again by the free check at the end of the task.
//
// τ_p (gridCopyN) leaves a group record alone: its creator X is no one
// thread, and it is copied with its fields. So slab_p = τ_p(slab_0) is a
// fine description of such slabs as states; what breaks is argument 1 of
// thgrid.go, that thread p's statements act on slab_p as τ_p of thread
// 0's on slab_0, because th(0) is a member of X and th(p) may not be. A
// read-only variable's nest statements are CheckMutates and RecordRead by
// one thread (thgrid.go's plan):
//
//   - a CheckMutates reads the group through its members; when a grant
//     of the group, common to all members, covers every grid thread at
//     the check's level and timelines (gridVisibleAll), every member
//     passes for every point, as for the representative;
//   - a RecordRead walks the read list: addRecord expands a group only of
//     its own source and matches only its own creator, so a group of
//     another source is passed over at every point alike.
//
// gridGrpSame therefore admits, on a read-only variable of the nest, a
// group record that contains the representative's thread when it is the
// same record in slab_p (creator and fields equal, grants τ_p images), its
// source is none of the nest's RecordReads', and, on a mutate list, every
// CheckMutates of the nest passes it that way. The slabs are then
// deferred (thgrid_lazy.go) with grpRep set, and marked mixed: a later
// nest builds and compares them again (its statements may differ).
//
// While deferred, the invariant must survive what the eager run does to
// the copies:
//
//   - An event that expands groups (groupEvent, threadGroupEvent: it holds
//     part of a frame's threads) turns each group into its members, and
//     τ_p moves the member th(0) of slab_0 to th(p), which slab_p's
//     expanded copy does not hold: such an event first builds every slab
//     with grpRep (gridGrpEvent, before the expansion). Any other event
//     holds all or none of each group's X, witnesses the group as it
//     would every member, and is the same on every copy: gridCommutes
//     treats a group as a record whose creator stays put.
//   - Checks by a set uniform on the frame (gridCheckRun) test a group of
//     slab_0 member by member without reporting (groupFails): the copies
//     are the same record (their grants τ_p images, tested against a set
//     that holds th(0) iff it holds th(p)), so they pass where it does.
//   - Nothing else reaches the slabs without building them first
//     (effect, execRun, gridTry), as for any deferred slab.
//
// TestGridGrpMatchesEager runs random grid programs with warp-like
// thread groups over grid threads with and without this (noGridGrp), and
// without grid symmetry.

// gridGrpSame reports whether o = r for a group record r of a read-only
// variable that contains the representative's thread, under the
// conditions above (gridCompare's fallback when gridSame refuses).
func (m *Machine) gridGrpSame(g *gridRT, p int, vr *gridVarRT, r, o *record, reads bool) bool {
	gv := vr.gv
	if m.noGridGrp || g.w > 1 || !gv.ro || r.grp == 0 || r.creator.task != g.task || o.creator != r.creator ||
		!m.contains(r.creator, g.task, g.th0) {
		return false
	}
	if r.src != o.src || r.q != o.q || r.level != o.level || r.atomic != o.atomic || r.reach != o.reach || r.grp != o.grp ||
		len(r.grants) != len(o.grants) || !slices.Equal(r.pend, o.pend) {
		return false
	}
	if slices.Contains(gv.srcs, r.src) {
		return false
	}
	if !reads {
		for _, ck := range gv.checks {
			if !m.gridVisibleAll(g, r, ck) {
				return false
			}
		}
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
	vr.grpRep = true
	return true
}

// gridGrpEvent builds, before event e expands any group (groupEvent,
// threadGroupEvent), the deferred slabs that hold groups with grid
// threads among their members.
func (m *Machine) gridGrpEvent(e *event) {
	exec := e.exec
	if exec.task == allTasks {
		return
	}
	any := false
	for _, d := range m.gv {
		any = any || d != nil && d.grpRep
	}
	if !any {
		return
	}
	split := false
	for _, f := range m.grpFrames {
		if exec.task != f.task {
			continue
		}
		in := 0
		for _, t := range f.ths {
			if m.contains(exec, f.task, t) {
				in++
			}
		}
		split = split || in != 0 && in != len(f.ths)
	}
	if e.kind != KAwait {
		for i := range m.tgFrames {
			f := &m.tgFrames[i]
			split = split || f.x.task == exec.task && m.intersects(exec, f.x) && !m.subset(f.x, exec)
		}
	}
	if !split {
		return
	}
	for v, d := range m.gv {
		if d != nil && d.grpRep {
			m.gridMaterialize(v)
		}
	}
}

// groupFails reports whether a member of group r (replayed) fails a
// check by gs (groupCheck's test, without reporting).
func (m *Machine) groupFails(r *record, gs threads, conv bool, lvl Level, qs QualSet) bool {
	if m.groupPasses(r, gs, conv, lvl, qs) {
		return false
	}
	offs := m.shapes[r.creator.shape]
	tmp := *r
	tmp.grp = 0
	sh := r.memberShape()
	for i := len(offs) - 1; i >= 0; i-- {
		tmp.creator = threads{task: r.creator.task, start: r.creator.start + offs[i], shape: sh}
		if _, _, fail := m.failing(&tmp, gs, conv, lvl, qs); fail {
			return true
		}
	}
	return false
}

// gridRecordRun executes a live run that records (and may first check)
// by a thread set with more than 8 threads on a variable whose slabs are
// deferred, without building them, when that gives the eager run's
// result; it reports whether it did (issue 13 stop 29: the TMA tester's
// TMA store by warp 0 reads all of smem_sum, and built 247 slabs of it
// that the free check at the end of the task then replayed and checked).
//
// The run's records are thread groups (addThreadRecords with a frame, a
// new record for every thread: none of the lists holds a record of the
// statement's source, so nothing matches and nothing is expanded), one
// per cell, identical in every cell and left alone by τ_p: recording
// them on slab_0 and deferring the copies gives slab_p = τ_p(slab_0) (the
// new group in front of each copied list). The run's checks come first
// and, on each record of slab_0 (replayed), pass through a component
// that τ_p leaves alone (the atomic set, a creator or grant other than
// the representative's one thread, gridStayPass): such a component is
// the same in every copy, so every copy passes as well, wherever gs lies
// on the frame. Every slab p ≥ 1 lies wholly inside the run's cells or
// wholly outside them, as its slab_0 does. The run then acts on the cells
// outside slabs 1..n-1 only, in the eager order (hazards of those cells
// are the only ones), and counts the slab cells' operations and records
// (a group counts its members). The slabs now hold groups whose members
// may be grid threads: grpRep (gridGrpEvent) and mixed. body is
// run.Body for a fused run (execRun), or run alone (effect).
func (m *Machine) gridRecordRun(run *Stmt, body []*Stmt) bool {
	m.gridScr()
	v := run.Acc.Var
	d := m.gv[v]
	if d == nil || m.noGridGrp || d.g.w > 1 {
		return false // a block grid's groups: thgrid_blk.go
	}
	if (len(body) > 1 || body[0] != run) && !run.Exec.All && run.gsc == nil {
		return false // a fused run evaluates gs only then (execRun)
	}
	recs := false
	for _, s := range body {
		switch s.Kind {
		case KCheckReads, KCheckMutates:
			if recs {
				return false // a check after a record reads the new group
			}
		case KRecordRead, KRecordMutate:
			if s.Convergent || len(s.Bars) > 0 {
				return false
			}
			recs = true
		default:
			return false
		}
	}
	if !recs {
		return false
	}
	st := &m.vars[v]
	if !st.live || st.epoch != d.epoch {
		return false
	}
	gs := m.gs(run)
	if gs.task == allTasks || len(m.shapes[gs.shape]) <= 8 || m.noThreadGroups || !m.single[0] {
		return false // no thread group would be made (recordCells)
	}
	g := d.g
	m.gridUnlazyOutside(st, d) // thgrid_lzgrp.go
	first := body[0]
	cs, ok := m.cellsOnly(first.Acc, first.Src)
	if !ok {
		return true // the eager run's fault (cells faults before any check)
	}
	if len(cs) < 2 {
		return false
	}
	if len(m.gvMark) < len(st.cells) {
		m.gvMark = make([]uint64, len(st.cells))
	}
	m.gvMarkGen++
	in := m.gvMarkGen
	for _, c := range cs {
		m.gvMark[c] = in
	}
	stamp := int32(len(m.log))
	cells0, inSlab := m.slabCells(d, st)
	if !forList(cells0, func(c int32) bool {
		mine := m.gvMark[c] == in
		for p := 1; p < len(g.ths); p++ {
			if (m.gvMark[c+d.offs[p]] == in) != mine {
				return false // a slab partly inside the run's cells
			}
		}
		if !mine {
			return true
		}
		for _, s := range body {
			var h int32
			switch s.Kind {
			case KCheckReads, KRecordRead:
				h = st.cells[c].reads
			default:
				h = st.cells[c].muts
			}
			check := s.Kind == KCheckReads || s.Kind == KCheckMutates
			for ; h >= 0; h = m.rec(h).next {
				r := m.rec(h)
				if !check {
					if r.src == int32(s.Src) {
						return false // addThreadRecords could match it
					}
					continue
				}
				if r.stamp != stamp {
					m.replay(r)
				}
				if !m.gridStayPass(g, r, gs, s) {
					return false
				}
			}
		}
		return true
	}) {
		return false
	}
	real := m.gvCells[:0]
	for _, c := range cs {
		// A shift and a mask, as gridCheckRun's (stop 46).
		if inSlab[uint32(c)>>6]&(1<<(uint32(c)&63)) == 0 {
			real = append(real, c)
		}
	}
	m.gvCells = real
	virt := int64(len(cs) - len(real))
	members := int64(len(m.shapes[gs.shape]))
	d.grpRep, d.mixed = true, true
	for _, s := range body {
		if m.stop {
			break
		}
		if s.Kind == KCheckReads || s.Kind == KCheckMutates {
			m.checkCells(s, real, gs, st)
		} else {
			m.recordCells(s, real, gs, nil, st)
			m.res.Stats.Records += virt * members
		}
		m.res.Stats.MemOps += virt
		if st.local {
			m.localOps += virt
		}
	}
	m.gridRecKept++
	return true
}

// gridStayPass reports whether record r passes a check s by gs through a
// component that τ_p leaves alone: the atomic set, or the creator (not of
// a group) or a grant that is not the representative's one thread.
func (m *Machine) gridStayPass(g *gridRT, r *record, gs threads, s *Stmt) bool {
	lvl, qs := s.Level, s.Quals
	if lvl <= AtomicOnly && r.atomic&qs != 0 {
		return true
	}
	cover := m.subset
	if s.Convergent {
		cover = m.intersects
	}
	moves := func(x threads) bool {
		return x.task == g.task && x.start == g.th0 && m.single[x.shape]
	}
	if r.grp == 0 && !moves(r.creator) && qs.Has(r.q) && r.level >= lvl && cover(gs, r.creator) {
		return true
	}
	for i := range r.grants {
		gr := &r.grants[i]
		if !moves(gr.th) && grantLevel(gr, qs) >= lvl && cover(gs, gr.th) {
			return true
		}
	}
	return false
}
