package amir

import (
	"slices"
	"sort"
)

// This file holds the recording, synchronization and checking statements
// (seed 000 Fig. 7 and 22, appendix B).

func (m *Machine) effect(s *Stmt) {
	if s.TxBytes != 0 && !m.lite {
		m.hwTx(s)
	}
	if s.dead {
		// A check that can only see empty lists, or a record no check
		// inspects: counted (once per task; the same in every task of a
		// symmetric loop) and bounds checked, never executed.
		if s.Kind == KClearReads || s.Kind == KClearMutates {
			return
		}
		for _, b := range s.Bars {
			// Its barrier accesses are evaluated first, as record does
			// (a lite task skips the task-local ones: their windows are
			// the first task's).
			if m.lite && m.p.Vars[b.Var].TaskLocal {
				continue
			}
			if _, ok := m.cells(b, s.Src); !ok {
				return
			}
		}
		if m.lite {
			// A later task of a symmetric loop: its operations are
			// counted with the first task's, but the windows of shared
			// variables may differ and must be in bounds.
			if !m.p.Vars[s.Acc.Var].TaskLocal {
				m.countOps(s)
			}
			return
		}
		n := m.countOps(s)
		m.res.Stats.MemOps += n
		m.localOps += n
		return
	}
	if m.lite && s.Acc != nil && s.Kind != KAwait && m.p.Vars[s.Acc.Var].TaskLocal && len(s.Bars) == 0 {
		return
	}
	if m.thAny && !m.inVirt && m.thsymTouch(s) && !m.gvAny && (s.Kind == KCheckReads || s.Kind == KCheckMutates) {
		// Kept, and thsymKeep's walk found no record failing this
		// check: only its cells are counted (thkeep.go).
		m.keptCheckOps(s)
		return
	}
	if m.gvAny && !m.inGrid && s.Acc != nil {
		if (s.Kind == KCheckReads || s.Kind == KCheckMutates) && m.gridCheckRun(s, []*Stmt{s}) ||
			(s.Kind == KRecordRead || s.Kind == KRecordMutate) && m.gridRecordRun(s, []*Stmt{s}) {
			return
		}
		if stop := m.stop; !m.lazyOverRegions(s) {
			m.gridMaterialize(s.Acc.Var)
		} else if m.stop && !stop {
			return // its cells faulted, as the eager run's record does
		} else {
			m.lazyRegions++
		}
	}
	switch s.Kind {
	case KRecordRead, KRecordMutate:
		m.record(s)
	case KClearReads, KClearMutates:
		cs, ok := m.cells(s.Acc, s.Src)
		if !ok {
			return
		}
		m.clearCells(s, cs, &m.vars[s.Acc.Var])
	case KCheckReads, KCheckMutates:
		m.check(s)
	case KCheckBarrier:
		m.checkBarrier(s)
	case KFence:
		m.res.Stats.Events++
		m.logEvent(event{kind: KFence, trans: s.Convergent, exec: m.gs(s), pre: s.Pre, full: s.Full, temp: s.Temp | s.Full}, false)
	case KArrive:
		m.arrive(s)
	case KAwait:
		m.await(s)
	}
}

// newRecord takes a record from the free list or the slab and counts it.
func (m *Machine) newRecord() int32 {
	m.res.Stats.Records++
	return m.takeRecord()
}

// takeRecord takes a record from the free list or the slab without
// counting it in Stats.Records: the copies that materialize a symmetric
// loop's other threads (thsym.go, thgrid.go, thgroup.go) use it, and the
// differential tests pin those counts.
func (m *Machine) takeRecord() int32 {
	if m.free >= 0 {
		i := m.free
		m.free = m.rec(i).next
		return i
	}
	i := m.recs.takeSlot()
	if i < m.recs.dirty {
		*m.rec(i) = record{} // the last run's
	}
	return i
}

// record implements RECORDREAD and RECORDMUTATE with the record constructor
// R of Definition B.1: one record for the whole executing set when t (the
// access is convergent), else one per executing thread.
func (m *Machine) record(s *Stmt) {
	// P_{E#,ρ}: the current arrive count of each barrier cell of e_z
	// (copied into each record, so a scratch buffer serves).
	var pends []pend
	gs := m.gs(s)
	if len(s.Bars) > 0 {
		pends = m.pendBuf[:0]
		for _, b := range s.Bars {
			cs, ok := m.cells(b, s.Src)
			if !ok {
				return
			}
			bst := &m.vars[b.Var]
			for _, c := range cs {
				id := m.queue(b.Var, bst.bar0+c, gs)
				pends = append(pends, pend{cell: id, count: m.bars[id].a})
			}
		}
		m.pendBuf = pends
	}
	cs, ok := m.cells(s.Acc, s.Src)
	if !ok {
		return
	}
	m.recordCells(s, cs, gs, pends, &m.vars[s.Acc.Var])
}

// recordCells is record on the evaluated cells cs and threads gs of s.
func (m *Machine) recordCells(s *Stmt, cs []int32, gs threads, pends []pend, st *varState) {
	stamp := int32(len(m.log))
	perThread := !s.Convergent && gs.task != allTasks && len(m.shapes[gs.shape]) > 1
	m.res.Stats.MemOps += int64(len(cs))
	if st.local {
		m.localOps += int64(len(cs))
	}
	// had: a list of the kind s records on was filled before.
	var had bool
	if s.Kind == KRecordMutate {
		had, st.hasMuts = st.hasMuts, true
	} else {
		had, st.hasReads = st.hasReads, true
	}
	had = had || m.noEmptySkip
	st.hasRecs = true
	// recordLazy's first tests here: a call of its seven arguments had
	// cost ~45 instructions at each record of a run on a few cells,
	// which it declines at once (issue 13, stop 46: shfl_xor's 96 a
	// check).
	if !perThread && len(cs) == len(st.cells) && len(cs) >= lazyCellsMin && m.recordLazy(s, cs, gs, pends, st, had) {
		return
	}
	fr := -1 // the thread-group frame of gs (thgroup.go), when groups may be made
	if perThread && len(m.shapes[gs.shape]) > 8 && !m.noThreadGroups && m.single[0] {
		if m.recordLazyGroups(s, cs, gs, pends, st) {
			return // every cell empty: deferred (lazygroups.go)
		}
		fr = m.threadGroupFrame(gs)
	}
	for _, c := range cs {
		st.listAt(c)
		cl := &st.cells[c]
		head := &cl.reads
		if s.Kind == KRecordMutate {
			head = &cl.muts
		}
		if !perThread {
			m.addRecord(head, &cl.ver, s, gs, pends, stamp)
			continue
		}
		if len(m.shapes[gs.shape]) > 8 {
			m.addThreadRecords(head, &cl.ver, s, gs, pends, stamp, fr)
			continue
		}
		for _, o := range m.shapes[gs.shape] {
			m.addRecord(head, &cl.ver, s, threads{task: gs.task, start: gs.start + o}, pends, stamp)
		}
	}
}

// Thread states of addThreadRecords (Machine.thState).
const (
	thNone     = iota // no matching record seen: add one
	thKeep            // an identical record exists: add none
	thReplaced        // the first matching record was removed: add one
)

// addThreadRecords is addRecord for each thread of gs in turn, in one
// walk of the list (a record per thread: the list holds one per thread of
// the last execution, and addRecord per thread walked it once per thread).
// Thread o's addRecord finds the first record matching it in the list as
// it was (the records added before it are other threads'; the only record
// removed before it is another thread's), so one walk can find each
// thread's first match, remove it or keep it as addRecord would, and the
// new records are then prepended in thread order: the same list.
//
// With fr ≥ 0 (a thread-group frame of gs, thgroup.go) and a new record
// for every thread (none kept), one group record stands for them: the
// same run of records, each thread's in decreasing order at the head.
func (m *Machine) addThreadRecords(head *int32, ver *uint64, s *Stmt, gs threads, pends []pend, stamp int32, fr int) {
	offs := m.shapes[gs.shape]
	last := int(offs[len(offs)-1])
	if len(m.thState) <= last {
		m.thState = make([]uint8, last+1)
	}
	state := m.thState
	bm := m.member[gs.shape]
	changed := false
	prev := int32(-1)
	kept := 0
	for h := *head; h >= 0; {
		if g := m.rec(h); g.grp != 0 && g.src == int32(s.Src) && g.creator.task == gs.task && m.intersects(g.creator, gs) {
			// A member may match (thgroup.go).
			if g.grp == thGroup && g.creator == gs {
				// One member per thread of gs: each matches iff its
				// thread has no match yet and the shared fields do.
				free := 0
				for _, o := range offs {
					if state[o] == thNone {
						free++
					}
				}
				next := g.next
				if !(g.q == s.Q && g.level == s.Level && g.atomic == s.Quals && m.replayed(g, stamp) && pendsCover(g.pend, pends)) {
					prev, h = h, next // no member matches
					continue
				}
				if g.stamp == stamp && len(g.grants) == 0 && slices.Equal(g.pend, pends) {
					// Each matching member is kept: the group stays.
					for _, o := range offs {
						if state[o] == thNone {
							state[o] = thKeep
						}
					}
					kept += free
					prev, h = h, next
					continue
				}
				if free == len(offs) {
					// Every member is replaced: the group goes.
					for _, o := range offs {
						state[o] = thReplaced
					}
					if prev < 0 {
						*head = next
					} else {
						m.rec(prev).next = next
					}
					g.next, g.grp = m.free, 0
					m.free = h
					changed = true
					h = next
					continue
				}
			}
			m.expandGroup(h)
		}
		r := m.rec(h)
		next := r.next
		o := int(r.creator.start) - int(gs.start)
		if r.src == int32(s.Src) && r.creator.task == gs.task && r.creator.shape == 0 && o >= 0 && o <= last &&
			bm[o>>6]&(1<<(o&63)) != 0 && state[o] == thNone &&
			r.q == s.Q && r.level == s.Level && r.atomic == s.Quals && m.dominated(r, stamp, pends) {
			if r.stamp == stamp && len(r.grants) == 0 && slices.Equal(r.pend, pends) {
				state[o] = thKeep
				kept++
			} else {
				state[o] = thReplaced
				if prev < 0 {
					*head = next
				} else {
					m.rec(prev).next = next
				}
				r.next = m.free
				m.free = h
				changed = true
				h = next
				continue
			}
		}
		prev = h
		h = next
	}
	if fr >= 0 && kept == 0 {
		if changed {
			// Only a replacement set states (kept counts the
			// others): a list with no match leaves them all thNone
			// (the TMA tester's cells, one group each: the reset had
			// been a tenth of its check).
			for _, o := range offs {
				state[o] = thNone
			}
		}
		m.res.Stats.Records += int64(len(offs)) // the members
		i := m.takeRecord()
		m.initRecord(i, *head, s, gs, pends, stamp)
		m.rec(i).grp = thGroup
		*head = i
		m.threadGroupAdd(fr, i)
		m.vers++
		*ver = m.vers
		return
	}
	for _, o := range offs {
		if state[o] == thKeep {
			state[o] = thNone
			continue
		}
		state[o] = thNone
		i := m.newRecord()
		m.initRecord(i, *head, s, threads{task: gs.task, start: gs.start + o}, pends, stamp)
		*head = i
		changed = true
	}
	if changed {
		m.vers++
		*ver = m.vers
	}
}

// addRecord prepends a new record to a cell list. An existing record of the
// same source with the same creator, timeline, level and atomic set whose
// arrive observations cover the new record's (pendsCover: every barrier
// cell of the new p with a count no greater) is removed first: its f and p
// are then pointwise at least the new record's and stay so (W and A are
// monotone), so it can never fail a check the new one passes, and dropping
// it changes no verdict. ver is the cell's version (cell.ver), renewed when
// the list changes.
func (m *Machine) addRecord(head *int32, ver *uint64, s *Stmt, creator threads, pends []pend, stamp int32) {
	prev := int32(-1)
	for h := *head; h >= 0; {
		if g := m.rec(h); g.grp != 0 && g.src == int32(s.Src) && m.contains(g.creator, creator.task, creator.start) {
			m.expandGroup(h) // a member may match (thgroup.go)
		}
		r := m.rec(h)
		next := r.next
		if r.src == int32(s.Src) && r.creator == creator && r.q == s.Q && r.level == s.Level && r.atomic == s.Quals && m.dominated(r, stamp, pends) {
			if r.stamp == stamp && len(r.grants) == 0 && slices.Equal(r.pend, pends) {
				return // the new record would be identical to r
			}
			if prev < 0 {
				*head = next
			} else {
				m.rec(prev).next = next
			}
			r.next = m.free
			m.free = h
			break
		}
		prev = h
		h = next
	}
	i := m.newRecord()
	m.initRecord(i, *head, s, creator, pends, stamp)
	*head = i
	m.vers++
	*ver = m.vers
}

// initRecord fills record i as statement s's new record by creator in
// front of next: R of Definition B.1 (no grants; the arrive counts pends).
// A reused record's grant and pend storage is kept.
func (m *Machine) initRecord(i, next int32, s *Stmt, creator threads, pends []pend, stamp int32) {
	r := m.rec(i)
	r.next = next
	r.src = int32(s.Src)
	r.q = s.Q
	r.level = s.Level
	r.atomic = s.Quals
	r.creator = creator
	r.reach = creator.task
	r.stamp = stamp
	r.grp = 0
	r.grants = r.grants[:0]
	r.pend = r.pend[:0]
	if len(pends) > 0 {
		if cap(r.pend) < len(pends) {
			r.pend = m.pendStore(len(pends))
		}
		r.pend = append(r.pend, pends...)
	}
	m.rdNote(i)
}

// dominated is addRecord's test, on an older record r of the same
// source, creator, timeline, level and atomic set, that r's arrive
// observations cover the new record's (pends), with r replayed first
// (replayed). A record that already has a grant and covers pends is
// replaced whatever its replay would add (grants are only added, and its
// counts on the live cells of pends only lowered: pendsCover stays true,
// and a grant rules out the identical case), so it is replaced without
// the replay, whose result would be freed with it (issue 13: the GEMMs'
// per-iteration records, each replayed over the iteration's events just
// before it was dropped).
func (m *Machine) dominated(r *record, stamp int32, pends []pend) bool {
	if r.stamp != stamp && !m.noDomSkip && len(r.grants) > 0 && pendsCover(r.pend, pends) {
		m.domSkips++
		return true
	}
	m.replayed(r, stamp)
	return pendsCover(r.pend, pends)
}

// replayed brings r up to the log's end (stamp) before addRecord's
// dominance test and returns true. The test compares an older record's f
// and p with the new one's; on an unreplayed record, whether the older
// record is kept or replaced (hence the list's order and which hazard a
// check reports first) would depend on when a check last replayed it, and
// thread symmetry replays records when it copies them (thsym.go).
// Replayed first, the decision depends only on the state.
func (m *Machine) replayed(r *record, stamp int32) bool {
	if r.stamp != stamp {
		m.replay(r)
	}
	return true
}

// --- thread sets ---

func (m *Machine) contains(a threads, task int32, t int32) bool {
	if a.task == allTasks {
		return true
	}
	if a.task != task {
		return false
	}
	off := t - a.start
	if n := m.dense[a.shape]; n > 0 {
		return off >= 0 && off < n
	}
	bm := m.member[a.shape]
	return off >= 0 && int(off>>6) < len(bm) && bm[off>>6]&(1<<(off&63)) != 0
}

// bitsAt returns the 64 bits of bitmap bm starting at bit pos (bits
// outside bm are 0; pos may be negative).
func bitsAt(bm []uint64, pos int) uint64 {
	if pos <= -64 || pos >= len(bm)*64 {
		return 0
	}
	if pos < 0 {
		return bm[0] << uint(-pos)
	}
	w, r := pos>>6, uint(pos&63)
	v := bm[w] >> r
	if r != 0 && w+1 < len(bm) {
		v |= bm[w+1] << (64 - r)
	}
	return v
}

// intersects and subset compare thread sets of one task word by word on
// the shapes' membership bitmaps (Machine.member), shifted by the
// difference of the start threads.
func (m *Machine) intersects(a, b threads) bool {
	if a.task == allTasks || b.task == allTasks {
		return true
	}
	if a.task != b.task {
		return false
	}
	if a.start == b.start {
		return true // both contain their start thread
	}
	na, nb := m.dense[a.shape], m.dense[b.shape]
	if na > 0 && nb > 0 {
		// Two thread ranges [start, start+n).
		return a.start < b.start+nb && b.start < a.start+na
	}
	ba, bb := m.member[a.shape], m.member[b.shape]
	if len(ba) > len(bb) {
		a, b, ba, bb = b, a, bb, ba
	}
	d := int(a.start) - int(b.start)
	for i, w := range ba {
		if w&bitsAt(bb, d+64*i) != 0 {
			return true
		}
	}
	return false
}

// subset reports a ⊆ b.
func (m *Machine) subset(a, b threads) bool {
	if b.task == allTasks {
		return true
	}
	if a.task != b.task {
		return false
	}
	if a == b {
		return true
	}
	na, nb := m.dense[a.shape], m.dense[b.shape]
	if na > 0 && nb > 0 {
		return a.start >= b.start && a.start+na <= b.start+nb
	}
	ba, bb := m.member[a.shape], m.member[b.shape]
	d := int(a.start) - int(b.start)
	for i, w := range ba {
		if w&^bitsAt(bb, d+64*i) != 0 {
			return false
		}
	}
	return true
}

// --- lazy synchronization ---

// replay applies the events r has not seen, in order.
//
// A record whose creator and grants are all one thread t (a per-thread
// pipeline's records: issue 13, item 4) replays only the events that can
// change it: the shared events (Machine.shared) and t's own thread-local
// events (Machine.thEv[t]), merged in log order. A thread-local event is a
// Fence or Arrive executed by one other thread, which witnesses nothing
// of r (its thread set meets neither r's creator nor a grant: Definition
// B.3 (i)), or an Await by one other thread on that thread's own
// per-thread queue (Var.PerThreadQueue), on which r has no pending arrive
// (only an Arrive that witnessed r, hence executed by t, or r's creation
// by t, adds one, and those name t's queues). If an event gives r a grant
// beyond t, the rest of the log is replayed in full.
func (m *Machine) replay(r *record) {
	n := int32(len(m.log))
	if n-r.stamp < replayMemoMin || m.noReplayMemo {
		m.replayRun(r)
		return
	}
	// Memoized (replaymemo.go): an input state seen before, or a state
	// a replay once ended in (a checkpoint), takes its chain's state.
	ch := int32(-1)
	if e := m.replayMemoLookup(r); e != nil {
		ch = e.ch
	} else if ch = m.ckptFind(r); ch >= 0 {
		m.ckptHits++
	} else {
		ch = m.replayMemoNew(r).ch
	}
	if c := &m.rchains[ch]; c.to > r.stamp {
		m.replayMemoHits++
		m.replayMemoLoad(r, ch)
	}
	m.replayRun(r)
	m.replayChainSave(ch, r, n)
	if len(m.rckpts) < replayChainsMax && m.rchains[ch].shared {
		m.ckptAdd(r, ch)
	}
}

// replayRun is replay without the memo; a one-thread record may take the
// end state of the last replay of its class (replayclass.go).
func (m *Machine) replayRun(r *record) {
	if !m.replayClassOf(r) {
		m.replayRun1(r)
		return
	}
	n := int32(len(m.log))
	if m.replayClassTake(r, n) {
		return
	}
	m.replayClassIn(r, n)
	m.replayRun1(r)
	m.replayClassOut(r)
}

// replayRun1 replays r over the events it has not seen.
func (m *Machine) replayRun1(r *record) {
	n := int32(len(m.log))
	i := r.stamp
	from := i
	// mk: the next death of queues (freeMarks) inside the replay, if r's
	// counts are to be dropped (dropDeadPends).
	mk := searchFrom(m.freeMarks, from)
	t, ok := m.oneThread(r)
	if ok && !m.plainReplay {
		m.fileEvents()
	}
	if ok && int(t) < len(m.thEv) && !m.plainReplay {
		m.fastReplays++
		sh, own := m.shared, m.thEv[t]
		si := searchFrom(sh, i)
		oi := searchFrom(own, i)
		for {
			next := n
			if si < len(sh) {
				next = sh[si]
			}
			if oi < len(own) && own[oi] < next {
				next = own[oi]
				oi++
			} else if next < n {
				si++
			}
			if next >= n {
				r.stamp = n
				m.dropDeadPends(r, from, n)
				return
			}
			if mk < len(m.freeMarks) && m.freeMarks[mk] <= next {
				mk = m.dropPendsAt(r, mk, next)
			}
			m.apply(r, &m.log[next])
			if _, still := m.oneThread(r); !still {
				i = next + 1
				break
			}
		}
	}
	if r.reach != allTasks && !m.noTaskReplay && n-i >= taskReplayMin {
		i, mk = m.replayTask(r, i, n, mk)
	}
	for ; i < n; i++ {
		if mk < len(m.freeMarks) && m.freeMarks[mk] <= i {
			mk = m.dropPendsAt(r, mk, i)
		}
		m.apply(r, &m.log[i])
	}
	r.stamp = n
	m.dropDeadPends(r, from, n)
}

// taskRun is a maximal run of consecutive log events executed by one
// task's threads (task allTasks: the host's), from log index start to the
// next run's start.
type taskRun struct {
	start, task int32
}

// taskReplayMin is the shortest replay worth the task-run search (a
// variable for the tests).
var taskReplayMin int32 = 64

// replayTask replays r, whose reach is one task, from log index i towards
// n over only the runs of events of its task and of the host: apply
// leaves r unchanged on any other event (its first test), so skipping
// them is the plain replay (issue 13: tk_split_gemm's second split
// replays the first split's records of C, each over the thousands of
// events of every later task). dropPendsAt runs before each applied
// event, as the per-thread replay does: the counts it drops are on queues
// no skipped event names. It returns where the plain loop goes on: n, or
// the event after one that widened r's reach to all tasks (a host event),
// and the next death mark.
func (m *Machine) replayTask(r *record, i, n int32, mk int) (int32, int) {
	runs := m.taskRuns
	// The run holding event i.
	k := sort.Search(len(runs), func(j int) bool { return runs[j].start > i }) - 1
	for ; k < len(runs) && i < n; k++ {
		end := n
		if k+1 < len(runs) && runs[k+1].start < n {
			end = runs[k+1].start
		}
		if t := runs[k].task; t != allTasks && t != r.reach {
			m.taskSkips += int64(end - i)
			i = end
			continue
		}
		for ; i < end; i++ {
			if mk < len(m.freeMarks) && m.freeMarks[mk] <= i {
				mk = m.dropPendsAt(r, mk, i)
			}
			m.apply(r, &m.log[i])
			if r.reach == allTasks {
				return i + 1, mk
			}
		}
	}
	return i, mk
}

// dropPendsAt drops, before event j is applied to r, r's counts on queues
// that died before event j was logged (no event from j on names them),
// and returns the index of the next death after j in freeMarks. Within a
// long replay (tk_split_gemm's second split replays the first split's
// records over the whole kernel) the counts of every earlier task's
// Arrives would otherwise pile up, and addPend scans them at each Arrive.
// The state at the replay's end is dropDeadPends' either way.
func (m *Machine) dropPendsAt(r *record, mk int, j int32) int {
	m.dropPends(r, j)
	for mk < len(m.freeMarks) && m.freeMarks[mk] <= j {
		mk++
	}
	return mk
}

// freeBars marks barrier queues [bar0, bar0+total) and their sub-queues
// dead: their variable is allocated again (seed 000 Fig. 22 ALLOC gives
// the new incarnation fresh queues; queue ids are never reused in a run).
func (m *Machine) freeBars(bar0 int32, total int) {
	at := int32(len(m.log)) + 1
	for id := bar0; id < bar0+int32(total); id++ {
		m.bars[id].freed = at
		for _, q := range m.subsOf(id) {
			m.bars[q.id].freed = at
		}
	}
	if total > 0 {
		m.lastFreed = at - 1
		if k := len(m.freeMarks); k == 0 || m.freeMarks[k-1] != m.lastFreed {
			m.freeMarks = append(m.freeMarks, m.lastFreed)
		}
	}
}

// dropDeadPends removes from data record r, replayed to log length n, the
// pending arrive counts (p of Definition 5.3) on queues that died before
// event n-1 was logged (r was replayed from from). Such a count matters only to an Await on its
// queue (apply) and to addRecord's tests against a new record's counts,
// which name live queues (pendsCover, the identity test); no event after
// the death names a dead queue, and every replay to n drops the same ones
// (n decides, not when the replay runs: the replay memo and the
// per-thread replay end in the same state). Without it the host
// memset's record of every element of tk_split_gemm's C gathered a count
// from every Arrive of every earlier task (issue 13): cells x events.
// The hardware mbarrier slot records' counts move to the new queues
// instead (hwCarryOver): they are left alone.
func (m *Machine) dropDeadPends(r *record, from, n int32) {
	// Counts on queues that died before from were dropped by the
	// replay to from (or never held: a new record's are live).
	if m.lastFreed < from {
		return
	}
	m.dropPends(r, n-1)
}

// dropPends drops r's counts on queues that died at a log length ≤ lim.
func (m *Machine) dropPends(r *record, lim int32) {
	if len(r.pend) == 0 || m.keepDead || (r.q == m.p.MbarQual && m.p.MbarQual != 0) {
		return
	}
	k := 0
	for _, p := range r.pend {
		if f := m.bars[p.cell].freed; f == 0 || f-1 > lim {
			r.pend[k] = p
			k++
		}
	}
	m.deadDrops += int64(len(r.pend) - k)
	r.pend = r.pend[:k]
}

// searchFrom returns the position of the first index ≥ i in the
// increasing list xs.
func searchFrom(xs []int32, i int32) int {
	lo, hi := 0, len(xs)
	for lo < hi {
		h := int(uint(lo+hi) >> 1)
		if xs[h] < i {
			lo = h + 1
		} else {
			hi = h
		}
	}
	return lo
}

// oneThread reports whether r's creator and every grant are one thread t
// of one task (the thread offset t).
func (m *Machine) oneThread(r *record) (int32, bool) {
	if r.reach == allTasks || !m.single[r.creator.shape] {
		return 0, false
	}
	for i := range r.grants {
		g := &r.grants[i].th
		if g.task != r.creator.task || g.start != r.creator.start || !m.single[g.shape] {
			return 0, false
		}
	}
	return r.creator.start, true
}

// logEvent appends e to the log; perThread marks an Await on a per-thread
// queue.
func (m *Machine) logEvent(e event, perThread bool) {
	if m.gvAny {
		m.gridGrpEvent(&e) // before any group is expanded (thgrid_grp.go)
	}
	if len(m.grpFrames) > 0 {
		m.groupEvent(e.exec)
	}
	if len(m.tgFrames) > 0 && e.kind != KAwait {
		m.threadGroupEvent(e.exec)
	}
	e.ptq = perThread
	if m.gvAny {
		m.gridVirtEvent(&e)
	}
	m.logAppend(e)
}

// logAppend appends e to the log with no frame open (logEvent's last
// step; roundMake calls it directly, stop 38).
func (m *Machine) logAppend(e event) {
	if k := len(m.taskRuns); k == 0 || m.taskRuns[k-1].task != e.exec.task {
		m.taskRuns = append(m.taskRuns, taskRun{start: int32(len(m.log)), task: e.exec.task})
	}
	if len(m.log) == cap(m.log) {
		m.log = growLog(m.log)
	}
	m.log = append(m.log, e)
}

// growLog is grow2 for the event log and its cells, whose first room is
// Program.logHint (one event per event statement): a short first growth
// while the log is small. per_cta_alloc's second CTA logs a fourth event
// over its hint of 3, and grow2 made room for 262 (9.4 KB a check of
// which 144 bytes are used; issue 13, stop 41: amir). A longer log
// doubles as before once past logSmall; a loop of rounds reserves its
// whole log at its second mark (roundReserve) as before. Only the
// capacities differ (Stats.Memory, which counts them).
func growLog[T any](s []T) []T {
	if cap(s) < logSmall {
		n := make([]T, len(s), 2*cap(s)+16)
		copy(n, s)
		return n
	}
	return grow2(s)
}

// logSmall is the capacity below which growLog grows by 16 and a
// doubling rather than by grow2's 256 more.
const logSmall = 64

// grow2 returns s with its capacity doubled (at least 256 more): append
// grows a large slice by about 1.25x, and the ping-pong GEMM's event log
// (2.4 MB) was then copied about four times its size (issue 13).
func grow2[T any](s []T) []T {
	n := make([]T, len(s), 2*cap(s)+256)
	copy(n, s)
	return n
}

// fileEvents files the events logged since the last call as shared or as
// thread-local (replay): a Fence or Arrive by one thread, or an Await by
// one thread on its per-thread queue. It runs only when a one-thread record
// replays, so a run whose records are all wider (or that logs most of its
// events in symmetric tasks, whose task-local records are never made)
// pays nothing for the index.
func (m *Machine) fileEvents() {
	for i := m.filed; i < int32(len(m.log)); i++ {
		e := &m.log[i]
		if e.exec.task != allTasks && m.single[e.exec.shape] && (e.kind != KAwait || e.ptq) {
			t := int(e.exec.start)
			for len(m.thEv) <= t {
				m.thEv = append(m.thEv, nil)
			}
			m.thEv[t] = append(m.thEv[t], i)
			continue
		}
		m.shared = append(m.shared, i)
	}
	m.filed = int32(len(m.log))
}

// apply applies one event to r (the eager rule's λ: W, then A or the
// pending update).
func (m *Machine) apply(r *record, e *event) {
	if r.reach != allTasks && e.exec.task != allTasks && e.exec.task != r.reach {
		return
	}
	switch e.kind {
	case KFence:
		if m.witness(r, e) {
			m.augment(r, e.exec, e.full, e.temp)
		}
	case KArrive:
		if m.witness(r, e) {
			for _, c := range m.evCells[e.c0 : e.c0+e.cn] {
				m.addPend(r, c)
			}
		}
	case KAwait:
		c := m.evCells[e.c0]
		for _, p := range r.pend {
			if p.cell == c.cell && p.count <= c.count {
				m.augment(r, e.exec, e.full, e.temp)
				break
			}
		}
	}
}

func (m *Machine) addPend(r *record, c pend) {
	for i := range r.pend {
		if r.pend[i].cell == c.cell {
			if c.count < r.pend[i].count {
				r.pend[i].count = c.count
			}
			return
		}
	}
	if cap(r.pend) == 0 {
		r.pend = m.pendStore(1)
	}
	r.pend = append(r.pend, c)
}

// pendStore returns empty storage for n arrive counts, as grantStore does
// for grants: for n ≤ 2 two slots of a shared arena, else an array of its
// own. A record's first counts had been one small allocation each (issue
// 13, stop 27: the TMA tester's free checks replay some 16 000 records
// over an Arrive that witnesses each, a twelfth of the check in addPend's
// allocations). The arena is not counted in MemoryBytes, as the records'
// own count lists never were.
func (m *Machine) pendStore(n int) []pend {
	if n > 2 || m.noPendArena {
		return make([]pend, 0, max(n, 1))
	}
	if len(m.pendArena)+2 > cap(m.pendArena) {
		c := min(max(2*cap(m.pendArena), 64), 4096)
		m.pendArena = make([]pend, 0, c)
	}
	k := len(m.pendArena)
	m.pendArena = m.pendArena[:k+2]
	return m.pendArena[k : k : k+2]
}

// witness is W of Definition B.3 (i): does the record synchronize-with a
// Fence or Arrive executed by e.exec with first timeline set e.pre?
func (m *Machine) witness(r *record, e *event) bool {
	if e.trans {
		// ∃ g ∈ exec, ∃ τ_q ∈ pre: f(g, τ_q) ≥ unordered.
		if e.pre.Has(r.q) && r.level >= Unordered && m.intersects(e.exec, r.creator) {
			return true
		}
		for i := range r.grants {
			g := &r.grants[i]
			if g.temp&e.pre != 0 && m.intersects(e.exec, g.th) {
				return true
			}
		}
		return false
	}
	// τ_q^orig ∈ pre ∧ ∃ g ∈ exec: f(g, τ_q^orig) ≥ unordered.
	if !e.pre.Has(r.q) {
		return false
	}
	if r.level >= Unordered && m.intersects(e.exec, r.creator) {
		return true
	}
	for i := range r.grants {
		g := &r.grants[i]
		if g.temp.Has(r.q) && m.intersects(e.exec, g.th) {
			return true
		}
	}
	return false
}

// augment is A of Definition B.3 (ii): f ← f ∨ f_aug. A grant subsumed by
// an existing one is not stored.
// deadTask reports whether task is a finished task: task ids grow
// (KIncTaskID, phantoms), every device thread set an event or a check
// names is the current task's (gs), and a data record's grants are never
// relabelled (only the hardware mbarrier slot records are: hwNextTask), so
// no device thread set can meet a set of a finished task again
// (contains, intersects and subset compare tasks first). Such a grant
// can still matter to the host, whose set meets every set: a host event
// is witnessed (W of Definition B.3) through any grant whose temp meets
// its first timelines, and a convergent host check passes on any grant
// of the level it needs (failing). Both tests read only the grant's
// full and temp, monotonically, so of two finished-task grants of one
// record, one whose full and temp contain the other's makes the other
// redundant: augment does not add it (issue 13: tk_split_gemm, where
// the host memset's record of every element of C gathered a grant from
// every earlier task's fences, cells x tasks grants).
func (m *Machine) deadTask(task int32) bool {
	return task != allTasks && task < m.task
}

func (m *Machine) augment(r *record, exec threads, full, temp QualSet) {
	if r.q != m.p.MbarQual || m.p.MbarQual == 0 {
		// The hidden timeline of hardware mbarrier slot records
		// (mbar.go) orders execution only: a data record's grants never
		// hold it, so it witnesses nothing for data.
		full &^= m.mbarSet
		temp &^= m.mbarSet
		if m.deadTask(exec.task) && !m.keepDead {
			// A grant to a finished task's threads (replaying an
			// older event) is seen only by the host (see deadTask):
			// one with at least its levels makes it redundant.
			for i := range r.grants {
				g := &r.grants[i]
				if full&^g.full == 0 && temp&^g.temp == 0 && m.deadTask(g.th.task) {
					m.deadDrops++
					return
				}
			}
		}
	}
	for i := range r.grants {
		g := &r.grants[i]
		if full&^g.full == 0 && temp&^g.temp == 0 && m.subset(exec, g.th) {
			return
		}
	}
	if cap(r.grants) == 0 {
		r.grants = m.grantStore(1)
	}
	r.grants = append(r.grants, grant{th: exec, full: full, temp: temp})
	if exec.task == allTasks {
		r.reach = allTasks
	}
}

// grantStore returns empty storage for n grants: for n ≤ 2 two slots of a
// shared arena (a record's first grants: one allocation per chunk instead
// of one per record), else an array of its own.
func (m *Machine) grantStore(n int) []grant {
	if n > 2 {
		return make([]grant, 0, n)
	}
	if len(m.grantArena)+2 > cap(m.grantArena) {
		// Chunks double from 16 grants to 4096: a small run (most
		// of a weft check's) does not allocate and clear 4096 (nor
		// 64: per_cta_alloc's one record takes one pair of slots;
		// issue 13, stop 41: amir).
		c := min(max(2*cap(m.grantArena), 16), 4096)
		m.grantArena = make([]grant, 0, c)
	}
	k := len(m.grantArena)
	m.grantArena = m.grantArena[:k+2]
	return m.grantArena[k : k : k+2]
}

func (m *Machine) arrive(s *Stmt) {
	m.res.Stats.Events++
	// W = ∪ W_{e_zi}; the home barrier is the unique cell of ∩ W_{e_zi}.
	// Its cells go to evCells[c0:] (dropped again unless it is logged).
	c0 := int32(len(m.evCells))
	logged := false
	defer func() {
		if !logged {
			m.evCells = m.evCells[:c0]
		}
	}()
	home := int32(-1)
	multi := len(s.Bars) > 1
	gs := m.gs(s)
	for bi, b := range s.Bars {
		cs, ok := m.cells(b, s.Src)
		if !ok {
			return
		}
		bst := &m.vars[b.Var]
		if bi == 0 && !multi {
			if len(cs) != 1 {
				m.fault(s.Src, "Arrive needs one home barrier; %s[...] names %d barriers", m.p.Vars[b.Var].Name, len(cs))
				return
			}
		}
		for _, c := range cs {
			id := m.queue(b.Var, bst.bar0+c, gs)
			if len(m.evCells) == cap(m.evCells) {
				m.evCells = growLog(m.evCells)
			}
			m.evCells = append(m.evCells, pend{cell: id, count: m.bars[id].a})
			if !multi {
				home = id
			}
		}
	}
	if multi {
		// The home: the one queue every barrier expression names (each
		// names a queue at most once).
		var n int
		home, n = commonQueue(m.evCells[c0:], len(s.Bars))
		if n != 1 {
			m.fault(s.Src, "Arrive needs one home barrier common to all its barrier expressions; found %d", n)
			return
		}
	}
	if home < 0 {
		return
	}
	if multi {
		// A multicast Arrive (>> z[...] >> z[0:2, ...]): seed 000 App. B
		// (Arrive) adds the *home* barrier's arrive count a into r.p at
		// every (z, n) in W, not each cell's own count. So the k-th Arrive
		// of CTA 1's consumers on its home empty[1, j] is pending as
		// number k at empty[0, j] too, and pairs with CTA 0's k-th Await
		// there, as the lowering's mbarrier does: it expects the arrivals
		// of every CTA along the sliced dimension each phase (cudagen
		// counts them per barrier), so its k-th phase needs CTA 1's k-th
		// arrive. With each cell's own count it paired with a later Await
		// and the checker reported a false hazard (tk_split_gemm, gpu_gemm).
		a := m.bars[home].a
		for i := c0; i < int32(len(m.evCells)); i++ {
			m.evCells[i].count = a
		}
	}
	logged = true
	if len(s.Bars) == 1 {
		if v := s.Bars[0].Var; m.p.Vars[v].Ring > 0 && !m.p.Vars[v].PerThreadQueue {
			m.hwArrive(s, v, home-m.vars[v].bar0, home, gs)
			if gs.task != allTasks && !m.lite {
				m.hwTxArrive(s, v, home-m.vars[v].bar0, home, m.bars[home].a, gs)
			}
		} else if m.p.Vars[v].RingDepth > 0 {
			m.oneShotArrive(s, v, home-m.vars[v].bar0, home, gs)
		}
	}
	m.logEvent(event{kind: KArrive, trans: s.Convergent, exec: gs, pre: s.Pre, c0: c0, cn: int32(len(m.evCells)) - c0}, false)
	m.bars[home].a++
}

// commonQueue returns a queue named k times in cells (-1 if none) and the
// number of such queues. A multicast Arrive names a few cells: counting by
// pairs beats a map (issue 13: the ping-pong GEMM's map per Arrive was a
// tenth of its allocation).
func commonQueue(cells []pend, k int) (home int32, n int) {
	home = -1
	if len(cells) > 64 {
		count := map[int32]int{}
		for _, p := range cells {
			count[p.cell]++
		}
		for id, c := range count {
			if c == k {
				home = id
				n++
			}
		}
		return home, n
	}
next:
	for i, p := range cells {
		for _, q := range cells[:i] {
			if q.cell == p.cell {
				continue next // counted at its first
			}
		}
		c := 0
		for _, q := range cells[i:] {
			if q.cell == p.cell {
				c++
			}
		}
		if c == k {
			home = p.cell
			n++
		}
	}
	return home, n
}

func (m *Machine) await(s *Stmt) {
	m.res.Stats.Events++
	cs, ok := m.cells(s.Acc, s.Src)
	if !ok {
		return
	}
	if len(cs) != 1 {
		m.fault(s.Src, "Await needs one barrier; %s[...] names %d", m.p.Vars[s.Acc.Var].Name, len(cs))
		return
	}
	gs := m.gs(s)
	id := m.queue(s.Acc.Var, m.vars[s.Acc.Var].bar0+cs[0], gs)
	b := &m.bars[id]
	n := int32(s.N(m.env))
	// Fig. 22 AWAIT: Max and New.
	var max, nw int32
	if n >= 0 {
		max = b.a - (n + 1)
		nw = b.w
		if max+1 > nw {
			nw = max + 1
		}
	} else {
		max = b.w + n + 1
		nw = b.w + 1
		if max >= b.a {
			// Its paired arrive comes later in program order.
			m.awaitBeforeArrive(s, cs[0], max, b.a, b.w, gs)
		}
	}
	oneShot := m.p.Vars[s.Acc.Var].RingDepth > 0
	if oneShot && b.a == 0 {
		// A one-shot logical barrier of a ring-buffered array awaited
		// before its Arrive (mbar.go).
		m.awaitBeforeArrive(s, cs[0], 0, 0, 0, gs)
	}
	if v := s.Acc.Var; m.p.Vars[v].Ring > 0 && !m.p.Vars[v].PerThreadQueue {
		m.hwAwait(s, v, cs[0], id, gs, b.w, max, b.a)
	} else if oneShot && b.a > 0 {
		m.oneShotAwait(s, v, cs[0], gs)
	}
	if len(m.evCells) == cap(m.evCells) {
		m.evCells = growLog(m.evCells)
	}
	m.evCells = append(m.evCells, pend{cell: id, count: max})
	m.logEvent(event{kind: KAwait, exec: gs, full: s.Full, temp: s.Temp | s.Full, c0: int32(len(m.evCells) - 1), cn: 1}, m.p.Vars[s.Acc.Var].PerThreadQueue)
	b.w = nw
}

// --- checks (Fig. 7) ---

// levelOn is max_{τ_q ∈ qs} f(g, τ_q) restricted to one component.
func grantLevel(g *grant, qs QualSet) Level {
	switch {
	case g.full&qs != 0:
		return FullyOrdered
	case g.temp&qs != 0:
		return TemporallyOrdered
	}
	return Invisible
}

// visible reports whether thread (task, t) sees r at level ≥ lvl on some
// τ_q ∈ qs.
func (m *Machine) visible(r *record, task, t int32, lvl Level, qs QualSet) bool {
	if lvl <= AtomicOnly && r.atomic&qs != 0 {
		return true
	}
	if qs.Has(r.q) && r.level >= lvl && m.contains(r.creator, task, t) {
		return true
	}
	for i := range r.grants {
		g := &r.grants[i]
		if grantLevel(g, qs) >= lvl && m.contains(g.th, task, t) {
			return true
		}
	}
	return false
}

// failing returns a thread of gs that does not see r well enough, or ok.
// For a convergent check (t = true) it fails only if no thread of gs sees r.
func (m *Machine) failing(r *record, gs threads, conv bool, lvl Level, qs QualSet) (task, t int32, fail bool) {
	if lvl <= AtomicOnly && r.atomic&qs != 0 {
		return 0, 0, false
	}
	if conv {
		if qs.Has(r.q) && r.level >= lvl && m.intersects(gs, r.creator) {
			return 0, 0, false
		}
		for i := range r.grants {
			g := &r.grants[i]
			if grantLevel(g, qs) >= lvl && m.intersects(gs, g.th) {
				return 0, 0, false
			}
		}
		if gs.task == allTasks {
			return allTasks, 0, true
		}
		return gs.task, gs.start, true
	}
	// One component covering all of gs is the common case.
	if qs.Has(r.q) && r.level >= lvl && m.subset(gs, r.creator) {
		return 0, 0, false
	}
	for i := range r.grants {
		g := &r.grants[i]
		if grantLevel(g, qs) >= lvl && m.subset(gs, g.th) {
			return 0, 0, false
		}
	}
	if gs.task == allTasks {
		return allTasks, 0, true
	}
	for _, o := range m.shapes[gs.shape] {
		if !m.visible(r, gs.task, gs.start+o, lvl, qs) {
			return gs.task, gs.start + o, true
		}
	}
	return 0, 0, false
}

// coversAll reports whether failing passes r on one of its first tests:
// the atomic set, or one component (the creator's or a grant) that some
// (conv) or every thread of gs sees at level lvl. It never tests the
// threads one by one.
func (m *Machine) coversAll(r *record, gs threads, conv bool, lvl Level, qs QualSet) bool {
	if lvl <= AtomicOnly && r.atomic&qs != 0 {
		return true
	}
	cover := m.subset
	if conv {
		cover = m.intersects
	}
	if qs.Has(r.q) && r.level >= lvl && cover(gs, r.creator) {
		return true
	}
	for i := range r.grants {
		g := &r.grants[i]
		if grantLevel(g, qs) >= lvl && cover(gs, g.th) {
			return true
		}
	}
	return false
}

// check implements CHECKREADS and CHECKMUTATES.
func (m *Machine) check(s *Stmt) {
	cs, ok := m.cells(s.Acc, s.Src)
	if !ok {
		return
	}
	m.checkCells(s, cs, m.gs(s), &m.vars[s.Acc.Var])
}

// checkCells is check on the evaluated cells cs and threads gs of s.
func (m *Machine) checkCells(s *Stmt, cs []int32, gs threads, st *varState) {
	m.res.Stats.MemOps += int64(len(cs))
	if st.local {
		m.localOps += int64(len(cs))
	}
	if !st.hasKind(s.Kind == KCheckReads) && !m.noEmptySkip {
		// No record since the allocation: every list of st is empty
		// (a list is filled only by recordCells, which sets hasRecs,
		// or by copies of st's own lists), so the walk would find
		// nothing. rmem_uniform's host copies into fresh variables had
		// walked 256 empty cells twice each (issue 13, stop 35: grid35).
		// Since stop 36 the test is on the lists the check walks: none
		// of their kind recorded (hasReads, hasMuts).
		m.emptySkips++
		return
	}
	stamp := int32(len(m.log))
	lvl, qs := s.Level, s.Quals
	reads := s.Kind == KCheckReads
	// tab is the record slab's table for the walk: a check adds and
	// frees no record, and a local slice header is not reloaded after
	// each call.
	tab := m.recs.tab
	for _, c := range cs {
		h := st.cells[c].muts
		if reads {
			h = st.cells[c].reads
		}
		for ; h >= 0; h = tab[h>>recChunkBits][h&(recChunk-1)].next {
			r := &tab[h>>recChunkBits][h&(recChunk-1)]
			if r.grp != 0 {
				if r.stamp != stamp {
					if !m.noCheckSkip && m.groupPasses(r, gs, s.Convergent, lvl, qs) {
						// Every member passes on a shared grant as
						// the group is: replayed too (replay only
						// adds grants), so its replay waits, as a
						// one-record skip's does (issue 13 stop 26:
						// the TMA tester's free check of its TMA
						// load's warp-group records).
						m.checkSkips++
						m.groupSkips++
						continue
					}
					m.replay(r)
				}
				m.groupCheck(s, r, c, gs, lvl, qs)
				if m.stop {
					return
				}
				continue
			}
			if r.creator == gs && qs.Has(r.q) && r.level >= lvl {
				// The checking threads created r at a level they need:
				// failing would pass on its first test, whatever events
				// r has not seen (replay only adds to f; it is applied
				// when r is next inspected, with the same result).
				continue
			}
			if r.stamp != stamp {
				if !m.noCheckSkip && m.coversAll(r, gs, s.Convergent, lvl, qs) {
					// r passes as it is: replay only adds to f (W
					// and A are monotone: grants are added, never
					// removed), so it passes replayed too; its
					// replay waits for the next inspection, which a
					// record cleared first never gets.
					m.checkSkips++
					continue
				}
				m.replay(r)
			}
			task, t, fail := m.failing(r, gs, s.Convergent, lvl, qs)
			if fail {
				m.hazard(s, r, c, task, t)
				if m.stop {
					return
				}
			}
		}
	}
}

// checkBarrier implements CHECKBARRIER: every barrier cell must have as
// many awaits as arrives (seed 000 Fig. 7).
func (m *Machine) checkBarrier(s *Stmt) {
	cs, ok := m.cells(s.Acc, s.Src)
	if !ok {
		return
	}
	st := &m.vars[s.Acc.Var]
	oneShot := m.p.Vars[s.Acc.Var].RingDepth > 0
	for _, c := range cs {
		a, w, bad := m.queueMismatch(st.bar0 + c)
		if oneShot {
			// A one-shot logical barrier may be arrived and never
			// awaited (the ring's last phases); more than one arrive
			// or await is a second phase on it.
			b := &m.bars[st.bar0+c]
			a, w = b.a, b.w
			bad = a > 1 || w > 1 || w > a
			if m.p.Vars[s.Acc.Var].OneShotArrive && a == 0 {
				// And it must be arrived (pre-arrived indices count):
				// Exo's lowering keeps the mbarriers of a persistent
				// kernel from task to task and derives each index's
				// phase from the index, so a slot never arrived leaves
				// its mbarrier a phase behind and the next task waits
				// on the wrong parity (the reference's one_shot_arrive,
				// "free_missing_arrive").
				bad = true
			}
		}
		if bad {
			m.res.Occurrences++
			key := [2]int{s.Src, -1 - int(c)}
			if _, dup := m.seen[key]; dup {
				continue
			}
			m.res.Distinct++
			if m.seen == nil {
				m.seen = map[[2]int]int{}
			}
			if len(m.res.Hazards) >= m.cfg.MaxHazards {
				m.seen[key] = -1
				continue
			}
			m.seen[key] = len(m.res.Hazards)
			m.res.Hazards = append(m.res.Hazards, Hazard{
				Kind: BarrierMismatch, Src: s.Src, Other: -1, Var: s.Acc.Var,
				Index: m.coords(s.Acc.Var, c), Arrives: int(a), Awaits: int(w),
				Task: int(m.task), Thread: -1, TaskCoords: m.TaskCoords(int(m.task)),
			})
			m.stopCheck()
		}
		if pv := &m.p.Vars[s.Acc.Var]; pv.Ring > 0 && !pv.PerThreadQueue && !m.lite {
			m.hwCarry(s, s.Acc.Var, c, st.bar0+c)
		}
	}
}

// countOps counts the cell blocks of a statement that needs no work.
func (m *Machine) countOps(s *Stmt) int64 {
	a := s.Acc
	// Dead statements come in pairs on one access (CheckMutates and
	// RecordRead of an input): count once per evaluation.
	if a.cacheOwner == m && a.cacheGen == m.gen {
		if a.cachePat != nil {
			return int64(len(a.cachePat)) // hoist.go
		}
		return int64(len(a.cacheCells))
	}
	if a.countOwner == m && a.countGen == m.gen {
		return a.count
	}
	var n int64
	st := &m.vars[a.Var]
	if a.rig == nil && !a.notRigid && len(a.Idx) > 0 {
		a.rig = m.compileRigid(a)
		a.notRigid = a.rig == nil
	}
	if rc, ok := m.rigidCount(a, st); ok {
		n = rc
	} else {
		n = m.evalCount(s)
	}
	if !m.stop {
		a.countOwner, a.countGen, a.count = m, m.gen, n
	}
	return n
}

func (m *Machine) evalCount(s *Stmt) int64 {
	a := s.Acc
	st := &m.vars[a.Var]
	pv := &m.p.Vars[a.Var]
	if !st.live {
		m.fault(s.Src, "%s is used before its allocation", pv.Name)
		return 0
	}
	n := int64(1)
	for d := range st.dims {
		if len(a.Idx) == 0 {
			n *= int64(st.blocks[d])
			continue
		}
		w := &a.Idx[d]
		l := w.lo(m.env)
		h := l + 1
		if w.Hi != nil {
			h = w.hi(m.env)
		}
		if l < 0 || h > st.dims[d] || h < l || (w.Hi == nil && l >= st.dims[d]) {
			m.cells(a, s.Src) // reports the fault
			return 0
		}
		if h == l {
			return 0
		}
		g := st.gran[d]
		n *= int64((h-1)/g - l/g + 1)
	}
	return n
}

// clearCells is CLEARREADS / CLEARMUTATES on the evaluated cells cs.
func (m *Machine) clearCells(s *Stmt, cs []int32, st *varState) {
	if !st.hasKind(s.Kind == KClearReads) && !m.noEmptySkip {
		// Every list is empty already (see checkCells); a version
		// renews only when a list changes (cell.ver, memo.go).
		m.emptySkips++
		return
	}
	for _, c := range cs {
		cl := &st.cells[c]
		if s.Kind == KClearReads {
			m.freeList(cl.reads)
			cl.reads = -1
		} else {
			m.freeList(cl.muts)
			cl.muts = -1
		}
		m.vers++
		cl.ver = m.vers
	}
}

// execRun executes a fused run (Stmt.fused): the statements of one access
// in order, exactly as one by one, but with the cells and g_s evaluated
// once and one dispatch. Runs are only formed of live, non-sync statements
// on one Access with one g_s (see fuse); in a lite task the members run
// one by one (effect decides what a lite task skips).
func (m *Machine) execRun(run *Stmt) {
	if run.dead {
		// As effect does for each dead member: count, never execute.
		if m.lite {
			// Bounds only (see effect), once for the run's access.
			if !m.p.Vars[run.Acc.Var].TaskLocal {
				for _, s := range run.Body {
					if s.Kind != KClearReads && s.Kind != KClearMutates {
						m.countOps(s)
						break
					}
				}
			}
			return
		}
		n := int64(-1)
		for _, s := range run.Body {
			if s.Kind == KClearReads || s.Kind == KClearMutates {
				continue
			}
			if n < 0 {
				n = m.countOps(s)
				if m.stop {
					return
				}
			}
			m.res.Stats.MemOps += n
			m.localOps += n
		}
		return
	}
	if m.lite {
		for _, s := range run.Body {
			if m.stop {
				return
			}
			if s.keepLite {
				m.effect(s)
			}
		}
		return
	}
	if m.thAny && !m.inVirt && m.thsymTouch(run) && !m.gvAny && keptChecksOnly(run) {
		// Kept, and thsymKeep's walk found no record failing any of
		// its checks, its only members: only their cells are counted
		// (thkeep.go).
		for _, s := range run.Body {
			m.keptCheckOps(s)
		}
		return
	}
	if m.gvAny && !m.inGrid {
		if m.gridCheckRun(run, run.Body) || m.gridRecordRun(run, run.Body) {
			return
		}
		m.gridMaterialize(run.Acc.Var)
	}
	first := run.Body[0]
	st := &m.vars[first.Acc.Var]
	cs, ok := m.cellsRigid(first.Acc, st)
	if !ok {
		if cs, ok = m.cellsSlow(first.Acc, st, first.Src); !ok {
			return
		}
	}
	var gs threads
	if run.Exec.All || run.gsc != nil {
		gs = m.gs(run)
	}
	var me *memoEntry
	if run.memoKind != memoNone && len(cs) == 1 {
		if run.memo == nil {
			run.memo = newMemoTable(m)
		}
		c := cs[0]
		me = m.memoEntryFor(run, c)
		if me.valid && me.cell == c && me.ver == st.cells[c].ver && me.log == int32(len(m.log)) && me.gs == gs {
			// The same execution again: only its statistics (memo.go).
			n := int64(run.memoOps)
			m.res.Stats.MemOps += n
			if st.local {
				m.localOps += n
			}
			m.res.Stats.Records += int64(run.memoRecs)
			m.memoHits[run.memoKind]++
			return
		}
		me.valid = false
	}
	occ := m.res.Occurrences
	m.execMembers(run, cs, gs, st)
	if me != nil && !m.stop && m.res.Occurrences == occ {
		c := cs[0]
		*me = memoEntry{cell: c, log: int32(len(m.log)), ver: st.cells[c].ver, gs: gs, valid: true}
	}
}

// execMembers executes the members of a live run on cells cs by gs.
func (m *Machine) execMembers(run *Stmt, cs []int32, gs threads, st *varState) {
	body := run.Body
	for i := 0; i < len(body); i++ {
		s := body[i]
		if m.stop {
			return
		}
		if st.lazy {
			// A member deferred its records (lazycells.go); the next
			// reads or changes the lists cs names, as Machine.cells
			// would have made them for a statement of its own.
			m.makeLazy(st)
		}
		switch s.Kind {
		case KCheckReads, KCheckMutates:
			m.checkCells(s, cs, gs, st)
		case KClearReads, KClearMutates:
			if i+1 < len(body) && body[i+1].Kind == KClearReads+KClearMutates-s.Kind {
				// ClearReads and ClearMutates in a row: one pass, none
				// on a variable with no record (see clearCells).
				if !st.hasRecs && !m.noEmptySkip {
					m.emptySkips++
					i++
					continue
				}
				for _, c := range cs {
					// An empty list frees nothing: no call (stop 46).
					if cl := &st.cells[c]; cl.reads >= 0 {
						m.freeList(cl.reads)
					}
					if cl := &st.cells[c]; cl.muts >= 0 {
						m.freeList(cl.muts)
					}
					m.vers++
					st.cells[c] = cell{-1, -1, m.vers}
				}
				i++
				continue
			}
			m.clearCells(s, cs, st)
		case KRecordRead, KRecordMutate:
			m.recordCells(s, cs, gs, nil, st)
		}
	}
}
