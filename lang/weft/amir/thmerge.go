package amir

// Merged read records (issue 13, stop 27: gemv_warp_coop_8).
//
// A grid nest entered again and again over a variable it only reads, by
// another frame of threads each time, leaves one read record per entry
// on each cell: gemv's nest over the 8 threads of one team runs once per
// team (16 times a task) over the whole of shared_x, so each cell ends the
// task with 16 records identical but for the creator (the cell's lane in
// each team), in decreasing thread order since each entry prepended its
// own. They were 16 K records at K = 1 024, each made, linked, replayed
// and checked by the free check at the end of the task.
//
// After the copies of gridLeave, each cell a read-only variable's
// statements read in the nest has its new records at the head of its
// read list. mergeReads folds the head record H into the record N after
// it when the two stand for a run of members of one group (thgroup.go):
// both are one-thread records or groups of one-thread members (the same
// member shape), of one task, with equal source, timeline, level, atomic
// set, reach and stamp, no grant and no pending count, and every thread
// of H above every thread of N. The list H, N (N a group: its members in
// decreasing order) is then exactly the members of the group with the
// threads of both, in decreasing order: N becomes that group and H is
// freed. Every reader of a list sees groups as their members (thgroup.go,
// "Why it is exact"); in particular:
//
//   - Events: every merged thread is added to one frame per task
//     (grpFrame.merge); an event holding part of a frame's threads
//     expands every group of the machine before it is logged
//     (groupEvent). A group's members are among its frame's threads, so
//     an event that holds all or none of the frame holds all or none of
//     each group's members: it witnesses each member or none, as
//     replaying it on the group does.
//   - Grid entries (gridSharedOK): a group fails condition 2 only when
//     one of its members is a thread of the grid (groupHasGrid), as the
//     members' own records would; the read-creator index counts a group
//     as its members (rdindex.go).
//   - Thread symmetry stays off in a run that made a group (grpAny).
//
// Checked by TestGridMergeMatchesPlain (thgrid_test.go): random grid
// programs run with and without merging (and without grid symmetry) give
// the same Result.

// mergeKey names the union of a group's member offsets (shape a, or the
// single offset 0 for a = -1) with shape b's (or {0}) shifted by d.
type mergeKey struct{ a, b, d int32 }

// mergeReads folds the head records of read list cl.reads of variable v
// into the records after them while they are members of one group.
func (m *Machine) mergeReads(v int, cl *cell) {
	for {
		h := cl.reads
		if h < 0 {
			return
		}
		hr := m.rec(h)
		n := hr.next
		if n < 0 {
			return
		}
		sh, ok := m.mergeable(hr, m.rec(n))
		if !ok {
			return
		}
		m.mergeInto(v, cl, hr, n, sh)
		cl.reads = n
		hr.next, hr.grp = m.free, 0
		m.free = h
	}
}

// mergeCopy is gridCopyN's copy of the representative's one read record h
// under τ_p onto cl's list, followed by mergeReads on that list, without
// making the copy when it would join the record after it at once. The
// head of cl's list must not be a representative's record (they are the
// copies' sources until gridLeave's copies end): the copy is then made
// as before (false).
func (m *Machine) mergeCopy(g *gridRT, p int, h int32, v int, cl *cell, now int32) bool {
	n := cl.reads
	if n < 0 {
		return false
	}
	if r := m.rec(h); r.stamp != now {
		m.replay(r)
	}
	r, nr := m.rec(h), m.rec(n)
	if len(r.grants) > 0 || len(r.pend) > 0 || r.grp != 0 ||
		nr.grp == 0 && nr.creator.task == g.task && nr.creator.start == g.th0 {
		return false
	}
	img := record{src: r.src, q: r.q, level: r.level, atomic: r.atomic, reach: r.reach, stamp: r.stamp}
	img.creator, _ = m.gridTau(g, p, r.creator)
	sh, ok := m.mergeable(&img, nr)
	if !ok {
		return false
	}
	m.mergeInto(v, cl, &img, n, sh)
	return true
}

// mergeInto makes record n, after h on cl's list, the group of both
// (mergeable's member shape sh); h itself is left to the caller.
func (m *Machine) mergeInto(v int, cl *cell, h *record, n int32, sh int32) {
	nr := m.rec(n)
	x := m.mergeShape(h, nr)
	task := nr.creator.task
	m.mergeFrameAdd(task, h, nr)
	nr.creator = threads{task: task, start: nr.creator.start, shape: x}
	nr.grp = sh + 1
	// The index holds n's threads already (as a one-thread record, or
	// from the merges that made it a group): it needs h's.
	m.rdAdd(h)
	m.gridMerges++
	m.vers++
	cl.ver = m.vers
	st := &m.vars[v]
	for _, gv := range m.grpVars {
		if gv.v == v && gv.epoch == st.epoch {
			return
		}
	}
	m.grpVars = append(m.grpVars, grpVar{v: v, epoch: st.epoch})
	m.grpAny = true
}

// mergeable reports whether record h followed by record n is a run of
// members of one group, and the members' one-thread shape.
func (m *Machine) mergeable(h, n *record) (int32, bool) {
	sh, ok := m.memberOf(h)
	if !ok {
		return 0, false
	}
	if s2, ok := m.memberOf(n); !ok || s2 != sh {
		return 0, false
	}
	if h.src != n.src || h.q != n.q || h.level != n.level || h.atomic != n.atomic || h.reach != n.reach ||
		h.stamp != n.stamp || len(h.grants) > 0 || len(n.grants) > 0 || len(h.pend) > 0 || len(n.pend) > 0 ||
		h.creator.task != n.creator.task || h.creator.task == allTasks {
		return 0, false
	}
	// Every thread of h above every thread of n (offsets increase).
	ns := m.shapes[n.creator.shape]
	if n.grp == 0 {
		ns = m.shapes[sh][:1]
	}
	return sh, h.creator.start > n.creator.start+ns[len(ns)-1]
}

// memberOf returns the one-thread shape of r's creator (r one-thread) or
// of its members (r a grid group), false for anything else.
func (m *Machine) memberOf(r *record) (int32, bool) {
	switch {
	case r.grp == 0 && m.single[r.creator.shape]:
		return r.creator.shape, true
	case r.grp > 0 && m.single[r.grp-1]:
		return r.grp - 1, true
	}
	return 0, false
}

// mergeShape returns the shape of the union of n's threads and h's, from
// n's first thread.
func (m *Machine) mergeShape(h, n *record) int32 {
	m.gridScr()
	k := mergeKey{a: -1, b: -1, d: h.creator.start - n.creator.start}
	if n.grp != 0 {
		k.a = n.creator.shape
	}
	if h.grp != 0 {
		k.b = h.creator.shape
	}
	if m.lastMergeOK && k == m.lastMerge {
		return m.lastMergeX // one entry's merges mostly share their shapes
	}
	if x, ok := m.mergeShapes[k]; ok {
		m.lastMerge, m.lastMergeX, m.lastMergeOK = k, x, true
		return x
	}
	offs := []int32{0}
	if k.a >= 0 {
		offs = append([]int32(nil), m.shapes[k.a]...)
	}
	if k.b >= 0 {
		for _, o := range m.shapes[k.b] {
			offs = append(offs, k.d+o)
		}
	} else {
		offs = append(offs, k.d)
	}
	if m.mergeShapes == nil {
		m.mergeShapes = map[mergeKey]int32{}
	}
	x := m.internShape(offs)
	m.mergeShapes[k] = x
	m.lastMerge, m.lastMergeX, m.lastMergeOK = k, x, true
	return x
}

// mergeFrameAdd adds the threads of h and n to task's merge frame.
func (m *Machine) mergeFrameAdd(task int32, h, n *record) {
	m.gridScr()
	fi := -1
	for i := range m.grpFrames {
		if f := &m.grpFrames[i]; f.merge && f.task == task {
			fi = i
			break
		}
	}
	if fi < 0 {
		m.grpFrames = append(m.grpFrames, grpFrame{task: task, merge: true})
		fi = len(m.grpFrames) - 1
	}
	f := &m.grpFrames[fi]
	for _, r := range [2]*record{h, n} {
		if r.grp == 0 {
			f.add(r.creator.start)
			continue
		}
		if r.creator == m.mfKnown && m.mfKnownGen == m.grpGen {
			continue // the same members as a group seen since the frame began
		}
		for _, o := range m.shapes[r.creator.shape] {
			f.add(r.creator.start + o)
		}
		m.mfKnown, m.mfKnownGen = r.creator, m.grpGen
	}
}

// add puts thread t in merge frame f once.
func (f *grpFrame) add(t int32) {
	w := int(t / 64)
	for len(f.in) <= w {
		f.in = append(f.in, 0)
	}
	if f.in[w]&(1<<(t%64)) == 0 {
		f.in[w] |= 1 << (t % 64)
		f.ths = append(f.ths, t)
	}
}
