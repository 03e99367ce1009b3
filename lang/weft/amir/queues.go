package amir

// Queue barriers (seed 002 "Queue Barrier", seed 000 Fig. 22 ARRIVE/AWAIT).
//
// A barrier cell is one queue barrier: its arrive count a and await count w
// live in Machine.bars. Two refinements of the seed's rules live here:
//
//   - Per-thread queues (Var.PerThreadQueue, CudaCommitGroup). The seed
//     keys a queue by barrier variable and index values only. A commit
//     group is per-thread hardware state: wait_group N in a thread waits
//     for all but the last N commit groups of that thread, whatever other
//     threads committed. With one shared queue, the Arrives of two
//     warpgroups on one unindexed commit group interleave, and Max of an
//     Await by one warpgroup (a - (n+1) over both warpgroups' arrives)
//     covers its own group of the previous iteration at n = 2: the
//     machine accepted wait_group 2 where the hardware needs wait_group 1
//     (issue 4, examples/weft/gemm/xgemm_sm90.weft). So each cell of such
//     a barrier holds one sub-queue per executing thread set; Arrive,
//     Await and the >> of an access use the sub-queue of their own g_s.
//     This only removes pairings (an Await covers a subset of what the
//     shared queue covered: its own collective's arrives but the last n),
//     so it is sound wherever the seed's rule is, and equal to it when the
//     program indexes the commit group per collective (cg[cta, wg] as in
//     seed 000 §2.2).
//   - An Await with n < 0 pairs with arrive Max = w - lag (0-based). When
//     Max ≥ a, that arrive has not happened yet in program order: the
//     sequential interpretation is not a schedule the parallel program can
//     follow (the Await would block on an Arrive that comes after it, as a
//     ReverseAwait lag of 1 in a ring whose consumer releases a stage only
//     after reading it: a deadlock on hardware). Fig. 22 augments by ∃ i ≤
//     Max and never asks whether arrive Max exists, so it silently accepts
//     such an await as if it paired with the latest arrive. The machine
//     reports it (AwaitBeforeArrive) instead. n ≥ 0 (wait_group) cannot
//     reach it: Max = a - (n+1) < a.

// subRef is a one-thread sub-queue of a cell (barState.byThread): its
// task and state id (0: none; sub-queue ids are never 0).
type subRef struct{ task, id int32 }

// subQueue is one executing thread set's queue of a PerThreadQueue cell.
type subQueue struct {
	th threads
	id int32 // its state in Machine.bars
}

// queue returns the queue state id of barrier cell id (of variable v) as
// used by the statement executed by gs.
func (m *Machine) queue(v int, id int32, gs threads) int32 {
	if !m.p.Vars[v].PerThreadQueue {
		return id
	}
	b := m.ext(id)
	if m.single[gs.shape] {
		// One thread: the set is its (task, start), whatever the shape's
		// name, and byThread finds its queue without a scan (per-thread
		// commit groups of T threads kept the scan O(T): issue 13).
		t := int(gs.start)
		if t < len(b.byThread) && b.byThread[t].id > 0 && b.byThread[t].task == gs.task {
			return b.byThread[t].id
		}
		if t < len(b.byThread) && b.byThread[t].id > 0 {
			// Thread t of another task: found by the scan (sets of
			// different tasks are never the same).
			for _, q := range b.subs {
				if m.sameThreads(q.th, gs) {
					return q.id
				}
			}
			return m.newSub(id, gs)
		}
		nid := m.newSub(id, gs)
		for len(b.byThread) <= t {
			b.byThread = append(b.byThread, subRef{})
		}
		b.byThread[t] = subRef{task: gs.task, id: nid}
		return nid
	}
	for _, q := range b.subs {
		if m.sameThreads(q.th, gs) {
			return q.id
		}
	}
	return m.newSub(id, gs)
}

func (m *Machine) newSub(id int32, gs threads) int32 {
	nid := int32(len(m.bars))
	m.bars = append(m.bars, barState{})
	b := m.ext(id)
	b.subs = append(b.subs, subQueue{th: gs, id: nid})
	return nid
}

// ext returns barrier cell id's sub-queues, made empty at first use
// (Machine.barExt's slots are reused from run to run, their storage
// kept).
func (m *Machine) ext(id int32) *barExt {
	if e := m.bars[id].ext; e > 0 {
		return &m.barExt[e-1]
	}
	if len(m.barExt) < cap(m.barExt) {
		m.barExt = m.barExt[:len(m.barExt)+1]
	} else {
		m.barExt = append(m.barExt, barExt{})
	}
	b := &m.barExt[len(m.barExt)-1]
	b.subs, b.byThread = b.subs[:0], b.byThread[:0]
	m.bars[id].ext = int32(len(m.barExt))
	return b
}

// subsOf returns barrier cell id's sub-queues (nil when it has none).
func (m *Machine) subsOf(id int32) []subQueue {
	if e := m.bars[id].ext; e > 0 {
		return m.barExt[e-1].subs
	}
	return nil
}

// sameThreads reports whether a and b are the same thread set (shapes are
// interned, but two tilings may still name one set differently).
func (m *Machine) sameThreads(a, b threads) bool {
	return a == b || (m.subset(a, b) && m.subset(b, a))
}

// awaitBeforeArrive reports an Await whose paired arrive (0-based index
// max) has not happened: the queue has only a arrives.
func (m *Machine) awaitBeforeArrive(s *Stmt, c int32, max, a, w int32, gs threads) {
	if m.hwOnly {
		return // a phantom task repeats the first task's pairing (mbar.go)
	}
	if !m.admit([2]int{s.Src, -1 << 40}) { // apart from checkBarrier's (src, -1-cell)
		return
	}
	h := Hazard{
		Kind: AwaitBeforeArrive, Src: s.Src, Other: -1, Var: s.Acc.Var,
		Index: m.coords(s.Acc.Var, c), Arrives: int(a), Awaits: int(w), Paired: int(max),
		Task: int(gs.task), Thread: int(gs.start), Occurrences: 1,
		TaskCoords: m.TaskCoords(int(gs.task)),
	}
	if gs.task == allTasks {
		h.Thread = -1
	}
	m.res.Hazards = append(m.res.Hazards, h)
	m.stopCheck()
}

// queueMismatch reports the counts of the first queue of barrier cell id
// (the cell's own, then its per-thread-set queues) whose arrive and await
// counts differ (CHECKBARRIER, seed 000 Fig. 7).
func (m *Machine) queueMismatch(id int32) (a, w int32, bad bool) {
	if b := &m.bars[id]; b.a != b.w {
		return b.a, b.w, true
	}
	for _, q := range m.subsOf(id) {
		if b := &m.bars[q.id]; b.a != b.w {
			return b.a, b.w, true
		}
	}
	return 0, 0, false
}
