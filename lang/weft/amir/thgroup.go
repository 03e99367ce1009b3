package amir

// Group records (issue 13: the scalar shared-memory matmul).
//
// After a grid nest (thgrid.go) whose threads read shared rows (the 16
// threads of one m1 read the same A_smem rows), each such cell holds one
// read record per reading thread, identical but for the creator, in
// decreasing thread order (each thread prepended its own): 16 records a
// cell, 196 K per K slice of the matmul, each then replayed and checked
// by the next slice's staging write. A group record stands for such a
// run of records: creator is the set X of the reading threads (a
// machine-local shape), grp - 1 the one-thread shape of each member, and
// its members are, in list order, the records with creator {t} for t in
// X in decreasing order, every other field the group's.
//
// Why it is exact. Every consumer of a record list sees the members:
//
//   - Checks (checkCells, groupCheck) evaluate each member (a copy of
//     the group with its one-thread creator) in list order, reporting
//     the hazards the members would; when one grant or the atomic set
//     passes the check for every member (which test reads only the
//     grants and the atomic set, common to all members), none is
//     evaluated.
//   - Events: while a group exists, every event logged is uniform on the
//     grid frame it came from (its thread set holds all of the frame's
//     threads or none, or is another task's); such an event witnesses
//     (W of Definition B.3) either every member or none, and applies the
//     same grant or pending count to each, which is what replaying it on
//     the group does (its creator X meets the event's set iff each
//     member's does). An event that would tell the members apart first
//     expands every group of the machine into its members (groupEvent),
//     before it is logged.
//   - addRecord's dominance test compares creators: a group whose source
//     is the new record's is expanded before the test looks at it.
//   - Clears free a group as one record, as its members would be.
//   - Thread symmetry (thsym.go) never runs in a run that made a group;
//     grid symmetry compares groups field by field (a group's creator is
//     never the representative's thread, so only a group whose X holds
//     every grid thread or none passes gridSame) and copies grp.
//
// Groups are made only where the expanded list is exactly a run of
// members: gridLeave makes one when each representative cell gained one
// record without grants or pending counts, the cells of points that
// differ along the translated axes are disjoint (so no other point's
// record falls inside the run), and the threads of the shared axes'
// points, enumerated in the nest's order, increase (so that prepending
// in that order leaves them decreasing). TestGridMatchesFull compares
// every Result with the full run; TestGroupExpansions makes events and
// dominance tests expand groups. Groups are also made by merging the read
// records that successive entries of a grid nest leave on one cell
// (thmerge.go).

// grpFrame is a grid frame whose threads' groups may exist.
type grpFrame struct {
	task int32
	ths  []int32
	// merge: the frame of task's merged read records (thmerge.go); in
	// marks its threads.
	merge bool
	in    []uint64
}

// grpVar is a variable incarnation that may hold groups.
type grpVar struct {
	v     int
	epoch uint64
}

// groupEvent expands every group before an event by exec is logged,
// unless exec holds all or none of each frame's threads.
func (m *Machine) groupEvent(exec threads) {
	for _, f := range m.grpFrames {
		if exec.task == allTasks || exec.task != f.task {
			continue
		}
		in := 0
		for _, t := range f.ths {
			if m.contains(exec, f.task, t) {
				in++
			}
		}
		if in != 0 && in != len(f.ths) {
			m.expandAllGroups()
			return
		}
	}
}

// expandAllGroups replaces every group by its members.
func (m *Machine) expandAllGroups() {
	for _, gv := range m.grpVars {
		st := &m.vars[gv.v]
		if !st.live || st.epoch != gv.epoch {
			continue
		}
		m.unlazy(st)
		for c := range st.cells {
			for h := st.cells[c].reads; h >= 0; h = m.rec(h).next {
				if m.rec(h).grp != 0 {
					m.expandGroup(h)
				}
			}
			for h := st.cells[c].muts; h >= 0; h = m.rec(h).next {
				if m.rec(h).grp != 0 {
					m.expandGroup(h)
				}
			}
		}
	}
	m.grpFrames, m.grpVars = m.grpFrames[:0], m.grpVars[:0]
	m.grpGen++
}

// expandGroup turns group h into its members in place: h becomes the
// first (the highest thread) and the others follow it. Callers reload
// their pointers to h (its fields change).
func (m *Machine) expandGroup(h int32) {
	m.grpExpanded++
	g := *m.rec(h)
	offs := m.shapes[g.creator.shape]
	sh := g.memberShape()
	tail := g.next
	for i := 0; i < len(offs)-1; i++ {
		o := offs[i] // increasing: prepend the lower threads first
		idx := m.takeRecord()
		nr := m.rec(idx)
		nr.next = tail
		nr.src, nr.q, nr.level, nr.atomic = g.src, g.q, g.level, g.atomic
		nr.creator = threads{task: g.creator.task, start: g.creator.start + o, shape: sh}
		nr.reach, nr.stamp, nr.grp = g.reach, g.stamp, 0
		m.rdNote(idx)
		nr.grants = nr.grants[:0] // its own storage, kept from the free list
		if len(g.grants) > 0 {
			if cap(nr.grants) < len(g.grants) {
				nr.grants = m.grantStore(len(g.grants))
			}
			nr.grants = append(nr.grants, g.grants...)
		}
		nr.pend = nr.pend[:0]
		if len(g.pend) > 0 {
			if cap(nr.pend) < len(g.pend) {
				nr.pend = m.pendStore(len(g.pend))
			}
			nr.pend = append(nr.pend, g.pend...)
		}
		tail = idx
	}
	r := m.rec(h)
	r.next = tail
	r.creator = threads{task: g.creator.task, start: g.creator.start + offs[len(offs)-1], shape: sh}
	r.grp = 0
	m.rdNote(h)
}

// groupCheck is checkCells' test of group r (replayed) on cell c: each
// member in list order, unless a grant or the atomic set passes them all.
func (m *Machine) groupCheck(s *Stmt, r *record, c int32, gs threads, lvl Level, qs QualSet) {
	if m.groupPasses(r, gs, s.Convergent, lvl, qs) {
		return
	}
	offs := m.shapes[r.creator.shape]
	tmp := *r
	tmp.grp = 0
	sh := r.memberShape()
	for i := len(offs) - 1; i >= 0; i-- {
		tmp.creator = threads{task: r.creator.task, start: r.creator.start + offs[i], shape: sh}
		if task, t, fail := m.failing(&tmp, gs, s.Convergent, lvl, qs); fail {
			m.hazard(s, &tmp, c, task, t)
			if m.stop {
				return
			}
		}
	}
}

// groupPasses reports whether every member of group record r passes a
// check by gs through the group's atomic qualifiers or one of its shared
// grants (groupCheck's first tests; they read no member's creator).
func (m *Machine) groupPasses(r *record, gs threads, conv bool, lvl Level, qs QualSet) bool {
	if lvl <= AtomicOnly && r.atomic&qs != 0 {
		return true
	}
	for i := range r.grants {
		g := &r.grants[i]
		if grantLevel(g, qs) < lvl {
			continue
		}
		if conv && m.intersects(gs, g.th) || !conv && m.subset(gs, g.th) {
			return true
		}
	}
	return false
}

// internShape returns the id of a machine-local shape with thread offsets
// offs (increasing, from 0).
func (m *Machine) internShape(offs []int32) int32 {
	for i := len(m.p.Shapes); i < len(m.shapes); i++ {
		if slicesEqual32(m.shapes[i], offs) {
			return int32(i)
		}
	}
	ts := append([]int32(nil), offs...)
	bm := make([]uint64, ts[len(ts)-1]/64+1)
	for _, t := range ts {
		bm[t/64] |= 1 << (t % 64)
	}
	m.shapes = append(m.shapes, ts)
	m.member = append(m.member, bm)
	n := int32(0)
	if ts[len(ts)-1] == int32(len(ts)-1) {
		n = int32(len(ts))
	}
	m.dense = append(m.dense, n)
	m.single = append(m.single, len(ts) == 1 && ts[0] == 0)
	return int32(len(m.shapes) - 1)
}

func slicesEqual32(a, b []int32) bool {
	if len(a) != len(b) {
		return false
	}
	if len(a) > 0 && &a[0] == &b[0] {
		return true // one backing array (gridPointsOf shares the points)
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// gridGroups makes the groups of read-only variable vr after grid g's
// representative ran, and reports false (nothing changed) where the
// conditions above do not hold.
func (m *Machine) gridGroups(g *gridRT, vr *gridVarRT) bool {
	gv, st := vr.gv, vr.st
	m.unlazy(st)
	var shared []int
	for k, d := range gv.dims {
		if d < 0 {
			shared = append(shared, k)
			continue
		}
		for k2 := 0; k2 < k; k2++ {
			if gv.dims[k2] == d {
				return false
			}
		}
		if vr.hi[d]-vr.lo[d] > gv.coefs[k]/st.gran[d] {
			return false // the cells of two points overlap
		}
	}
	if len(shared) == 0 {
		return false
	}
	for j := range vr.cells {
		if vr.counts[j] != 1 {
			return false
		}
		r := m.rec(vr.heads[j])
		if len(r.grants) > 0 || len(r.pend) > 0 {
			return false
		}
	}
	// The members' thread offsets, in the nest's order along the shared
	// axes: increasing.
	var offs []int32
	idx := make([]int, len(shared))
	for {
		o := int32(0)
		for i, k := range shared {
			o += int32(g.pl.steps[k] * idx[i])
		}
		if len(offs) > 0 && o <= offs[len(offs)-1] {
			return false
		}
		offs = append(offs, o)
		i := len(shared) - 1
		for ; i >= 0; i-- {
			idx[i]++
			if idx[i] < g.ns[shared[i]] {
				break
			}
			idx[i] = 0
		}
		if i < 0 {
			break
		}
	}
	if offs[0] != 0 {
		return false
	}
	x := m.internShape(offs)
	for p := range g.ths {
		isT := true // p is 0 along every shared axis
		for _, k := range shared {
			isT = isT && g.pts[p*len(g.ns)+k] == 0
		}
		if !isT {
			continue
		}
		off := vr.offset(g, p)
		start := g.ths[p]
		for j, c := range vr.cells {
			h := vr.heads[j]
			if p == 0 {
				r := m.rec(h)
				r.grp = r.creator.shape + 1
				r.creator = threads{task: g.task, start: start, shape: x}
				m.rdNote(h)
			} else {
				idx := m.takeRecord()
				r := m.rec(h)
				nr := m.rec(idx)
				st.listAt(c + off)
				cl := &st.cells[c+off]
				*nr = record{next: cl.reads, src: r.src, q: r.q, level: r.level, atomic: r.atomic,
					creator: threads{task: g.task, start: start, shape: x}, reach: r.reach, stamp: r.stamp,
					grp: r.grp, grants: nr.grants[:0], pend: nr.pend[:0]}
				m.rdNote(idx)
				cl.reads = idx
			}
			m.vers++
			st.cells[c+off].ver = m.vers
			m.grpMade++
		}
	}
	m.grpAny = true
	m.grpVars = append(m.grpVars, grpVar{v: gv.v, epoch: st.epoch})
	known := false
	for _, f := range m.grpFrames {
		known = known || !f.merge && f.task == g.task && slicesEqual32(f.ths, g.ths)
	}
	if !known {
		m.grpFrames = append(m.grpFrames, grpFrame{task: g.task, ths: g.ths})
	}
	return true
}

// Thread groups (issue 13: tk_split_gemm).
//
// A statement whose access is not convergent, executed by a set X of
// more than 8 threads, records one record per thread of X on each cell
// (R of Definition B.1 without t: seed 000 appendix B), identical but for
// the creator; addThreadRecords prepends them in increasing thread order,
// so the cell's list starts with them in decreasing order. The TMA
// instructions of lib/exo_gpu.weft are such statements (unit cuda_warp,
// accesses not convergent): Sm90_tma_reduce_add_2d's 32 records on every
// element of C and of c_smem were 525 312 of the 542 624 records of one
// tk_split_gemm tile. When every thread of X gets a new record (none is
// kept by addRecord's rule), addThreadRecords makes one group record
// instead: creator X, grp -1 (the members' creator is the one-thread
// shape 0), every other field the members'. It is exact for the reasons
// listed at the top of this file, with this frame:
//
//   - Events: a Fence or an Arrive by exec witnesses (W of Definition
//     B.3) a member {t} through its creator iff exec meets {t}, and
//     through a grant iff exec meets the grant, which all members share;
//     every other effect of an event (A, the pending update, an Await's
//     test of p) reads only fields the members share. So while exec
//     holds all of X or none of it (or is another task's, or the host),
//     replaying the event on the group gives every member's result. An
//     event that holds part of X first expands every group of X into its
//     members (threadGroupEvent, before it is logged): the frame of X
//     lists its groups. Awaits never tell the members apart.
//   - addRecord and addThreadRecords expand a group of their own source
//     before their dominance test only where one of its members could
//     match (same task, a member thread among the new record's): a group
//     whose members cannot match is left, as its members would be.
//   - Checks (groupCheck), clears and grid symmetry (gridSame,
//     gridVisibleAll: a group is never a grid thread's, and its creator
//     is no member's) treat it as its members; thread symmetry stays off
//     in a run that made one (grpAny).
//   - Stats.Records counts the members, as if they were made.
//
// TestThreadGroupsMatchPerThread compares the whole Result with and
// without thread groups on random programs.

// thGroup is the grp of a thread group (a grid group's is its members'
// shape + 1).
const thGroup = -1

// memberShape is the shape of a group's members' creators.
func (r *record) memberShape() int32 {
	if r.grp == thGroup {
		return 0
	}
	return r.grp - 1
}

// tgFrame lists the group records with creator x (some may have been
// freed or expanded since: threadGroupEvent skips those).
type tgFrame struct {
	x    threads
	recs []int32
}

// threadGroupFrame returns the index of the frame of groups by gs.
func (m *Machine) threadGroupFrame(gs threads) int {
	for i := range m.tgFrames {
		if m.tgFrames[i].x == gs {
			return i
		}
	}
	m.tgFrames = append(m.tgFrames, tgFrame{x: gs})
	if m.tgTasks == nil {
		m.tgTasks = map[int32]int32{}
	}
	m.tgTasks[gs.task]++
	return len(m.tgFrames) - 1
}

// threadGroupAdd lists group h in frame fr.
func (m *Machine) threadGroupAdd(fr int, h int32) {
	f := &m.tgFrames[fr]
	f.recs = append(f.recs, h)
	m.grpAny = true
	m.grpMade++
}

// threadGroupEvent expands, before a Fence or Arrive by exec is logged,
// the groups of every frame that exec holds in part.
func (m *Machine) threadGroupEvent(exec threads) {
	if exec.task == allTasks || m.tgTasks[exec.task] == 0 {
		return // no frame of exec's task: the loop below skips every one
	}
	for i := 0; i < len(m.tgFrames); {
		f := &m.tgFrames[i]
		if f.x.task != exec.task || !m.intersects(exec, f.x) || m.subset(f.x, exec) {
			i++
			continue
		}
		m.makeLazyGroupsOf(f.x) // expanded as the others (lazygroups.go)
		f = &m.tgFrames[i]
		for _, h := range f.recs {
			// A listed record that was freed has grp 0 (freeList);
			// one reused since is another frame's group or none.
			if r := m.rec(h); r.grp == thGroup && r.creator == f.x {
				m.expandGroup(h)
			}
		}
		m.tgTasks[m.tgFrames[i].x.task]--
		last := len(m.tgFrames) - 1
		m.tgFrames[i].recs = nil
		m.tgFrames[i], m.tgFrames[last] = m.tgFrames[last], m.tgFrames[i]
		m.tgFrames = m.tgFrames[:last]
	}
}
