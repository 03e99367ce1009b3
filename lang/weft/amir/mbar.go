package amir

// Hardware mbarriers (issue 13; docs/weft-sync.md "mbarrier phases").
//
// The seed defines an mbarrier by its queue-barrier semantics (seed 002
// "Queue Barrier": an Await with N = ~lag pairs with arrive Q² - lag of the
// same variable and index values; seed 000 Fig. 22) and leaves the rest to
// the lowering's "Arrive/Await pairing" usage requirements (seed 002 cites
// them without stating them). What the code generator emits (package
// cudagen, spec §8.3) is a ring of Ring hardware mbarriers per barrier cell:
// each is initialized with a fixed arrival count (the thread count of the
// arriving collective); every thread keeps its own arrive and await
// counters (exo_SyncState), arrives on mbarrier arr_t mod Ring, skips its
// first lag awaits and then waits on mbarrier (awt_t - lag) mod Ring for
// the parity of phase (awt_t - lag) / Ring. A hardware mbarrier only tracks
// a phase parity, so the queue semantics hold on it only when, for every
// cell (Var.Ring > 0):
//
//  1. every Arrive has the init count's number of threads (else a phase
//     completes early or never);
//  2. every arriving thread's own counter names the slot of the queue's
//     arrive (a thread that arrives in some rounds only, or a collective
//     that differs from round to round, arrives into another slot);
//  3. every awaiting thread's own counter equals the queue's await count
//     (else it waits for another phase's parity, and may be satisfied by
//     the wrong phase or hang);
//  4. arrive a reuses the slot of arrive a - Ring: it must not happen
//     before arrive a - Ring has been awaited (an await lag as large as
//     the ring); (a) every thread of it must be ordered after some thread
//     that awaited arrive a - Ring (an await returns only when its phase
//     has completed; a thread that can run ahead would arrive into the
//     previous phase and complete it early), and (b) every thread that
//     awaited arrive a - Ring must be ordered before some thread of it
//     (else the new phase can complete, and the parity flip back, before
//     that awaiter observed the previous phase). The order is the machine's
//     own: an Await leaves, per awaiting thread, a visibility record on a
//     hidden cell of the slot with timeline Program.MbarQual, which every
//     synchronization that orders execution carries (the conversion adds
//     it to their sets), and the slot's next arrive checks those records
//     at temporally_ordered, as a write checks prior reads (Fig. 7).
//
// Violations are PhaseAlias hazards. The checks run in the first task of a
// symmetric task loop only (barriers are task-local: later tasks repeat
// them exactly).

// hwBar is the hardware state of one barrier cell.
type hwBar struct {
	arr, awt []int32 // per thread offset of the task: own arrives, own awaits (skipped ones included)
	slots    []int32 // per ring slot: the awaiters' records (list heads)
	vers     []uint64
	awaited  int32 // the highest arrive index an Await paired with, -1 before
}

func (m *Machine) hwOf(id int32, ring int) *hwBar {
	b := &m.bars[id]
	if b.hw == nil {
		b.hw = &hwBar{slots: make([]int32, ring), vers: make([]uint64, ring), awaited: -1}
		for i := range b.hw.slots {
			b.hw.slots[i] = -1
		}
	}
	return b.hw
}

func grow(xs []int32, n int) []int32 {
	for len(xs) < n {
		xs = append(xs, 0)
	}
	return xs
}

// hwFree drops the hidden records of a barrier variable's cells (at its
// reallocation).
func (m *Machine) hwFree(st *varState) {
	for i := 0; i < st.total; i++ {
		id := st.bar0 + int32(i)
		if int(id) >= len(m.bars) || m.bars[id].hw == nil {
			continue
		}
		for _, h := range m.bars[id].hw.slots {
			m.freeList(h)
		}
		m.bars[id].hw = nil
	}
}

// hwArrive applies rules 1, 2 and 4 to Arrive s by gs on barrier cell c
// (queue id) of variable v, before the queue's arrive count advances.
func (m *Machine) hwArrive(s *Stmt, v int, c, id int32, gs threads) {
	pv := &m.p.Vars[v]
	st := &m.vars[v]
	if gs.task == allTasks || m.lite {
		return
	}
	ring := int32(pv.Ring)
	offs := m.shapes[gs.shape]
	n := int32(len(offs))
	hb := m.hwOf(id, pv.Ring)
	a := m.bars[id].a
	slot := a % ring
	if st.hwCount == 0 {
		st.hwCount, st.hwSrc = n, s.Src
	} else if n != st.hwCount {
		m.phaseHazard(s, v, c, PhaseCount, gs.task, gs.start, st.hwSrc, func(h *Hazard) {
			h.Arrives, h.Awaits, h.Paired = int(a), int(n), int(st.hwCount)
		})
	}
	last := int(gs.start) + int(offs[len(offs)-1]) + 1
	hb.arr = grow(hb.arr, last)
	bad := int32(-1)
	for _, o := range offs {
		t := gs.start + o
		if bad < 0 && hb.arr[t]%ring != slot {
			bad = t
		}
	}
	if bad >= 0 {
		k := hb.arr[bad]
		m.phaseHazard(s, v, c, PhaseSlot, gs.task, bad, -1, func(h *Hazard) {
			h.Arrives, h.Awaits, h.Paired, h.Ring = int(a), int(k), 0, int(ring)
		})
	}
	for _, o := range offs {
		hb.arr[gs.start+o]++
	}
	if a >= ring && hb.awaited < a-ring {
		m.phaseHazard(s, v, c, PhaseUnawaited, gs.task, gs.start, -1, func(h *Hazard) {
			h.Arrives, h.Paired, h.Ring = int(a), int(hb.awaited), int(ring)
		})
	}
	// Rule 4 (b): every awaiter of the slot's previous phase is ordered
	// before some thread of this arrive, so the phase cannot complete
	// before the awaiter observed the previous one.
	stamp := int32(len(m.log))
	qs := Of(m.p.MbarQual)
	head := hb.slots[slot]
	for h := head; h >= 0; h = m.recs[h].next {
		r := &m.recs[h]
		if r.stamp != stamp {
			m.replay(r)
		}
		if _, _, fail := m.failing(r, gs, true, TemporallyOrdered, qs); fail {
			other, who := int(r.src), r.creator.start
			m.phaseHazard(s, v, c, PhaseAhead, gs.task, gs.start, other, func(h *Hazard) {
				h.Arrives, h.Ring, h.OtherStart, h.OtherThreads = int(a), int(ring), int(who), int(n)
			})
			break
		}
	}
	// Rule 4 (a): every thread of this arrive is ordered after some
	// awaiter of the previous phase (an await returns only once its phase
	// completed), so it cannot arrive into the previous phase.
	if head >= 0 {
		all := false
		for h := head; h >= 0 && !all; h = m.recs[h].next {
			_, _, fail := m.failing(&m.recs[h], gs, false, TemporallyOrdered, qs)
			all = !fail
		}
		for i := 0; i < len(offs) && !all; i++ {
			t := gs.start + offs[i]
			seen := false
			for h := head; h >= 0 && !seen; h = m.recs[h].next {
				seen = m.visible(&m.recs[h], gs.task, t, TemporallyOrdered, qs)
			}
			if !seen {
				r := &m.recs[head]
				other, who := int(r.src), r.creator.start
				m.phaseHazard(s, v, c, PhaseEarly, gs.task, t, other, func(h *Hazard) {
					h.Arrives, h.Ring, h.OtherStart = int(a), int(ring), int(who)
				})
				break
			}
		}
	}
	m.freeList(hb.slots[slot])
	hb.slots[slot] = -1
}

// hwAwait applies rule 3 to Await s by gs on cell c (queue id) with
// queue await count w (before it advances), pairing with arrive max of a,
// and leaves the awaiters' records on the slot (rule 4).
func (m *Machine) hwAwait(s *Stmt, v int, c, id int32, gs threads, w, max, a int32) {
	pv := &m.p.Vars[v]
	if gs.task == allTasks || m.lite {
		return
	}
	ring := int32(pv.Ring)
	offs := m.shapes[gs.shape]
	hb := m.hwOf(id, pv.Ring)
	last := int(gs.start) + int(offs[len(offs)-1]) + 1
	hb.awt = grow(hb.awt, last)
	bad := int32(-1)
	for _, o := range offs {
		if t := gs.start + o; bad < 0 && hb.awt[t] != w {
			bad = t
		}
	}
	if bad >= 0 {
		j := hb.awt[bad]
		m.phaseHazard(s, v, c, PhaseWrong, gs.task, bad, -1, func(h *Hazard) {
			h.Arrives, h.Awaits, h.Paired, h.Ring = int(j), int(w), int(max), int(ring)
			h.Lag = int(w - max)
		})
	}
	for _, o := range offs {
		hb.awt[gs.start+o]++
	}
	if max < 0 || max >= a {
		return // a skipped await, or AwaitBeforeArrive
	}
	if max > hb.awaited {
		hb.awaited = max
	}
	slot := max % ring
	if s.hwRec == nil {
		s.hwRec = &Stmt{Kind: KRecordRead, Src: s.Src, Sync: -1, Q: m.p.MbarQual, Level: FullyOrdered}
	}
	stamp := int32(len(m.log))
	head := &hb.slots[slot]
	ver := &hb.vers[slot]
	if len(offs) > 8 {
		m.addThreadRecords(head, ver, s.hwRec, gs, nil, stamp)
		return
	}
	for _, o := range offs {
		m.addRecord(head, ver, s.hwRec, threads{task: gs.task, start: gs.start + o}, nil, stamp)
	}
}

// phaseHazard reports a PhaseAlias hazard of kind sub at s (deduplicated
// by source, kind and earlier source).
func (m *Machine) phaseHazard(s *Stmt, v int, c int32, sub PhaseKind, task, t int32, other int, fill func(*Hazard)) {
	m.res.Occurrences++
	key := [2]int{s.Src, -(2 << 40) - int(sub)<<32 - other}
	if i, dup := m.seen[key]; dup {
		if i >= 0 {
			m.res.Hazards[i].Occurrences++
		}
		return
	}
	m.res.Distinct++
	if len(m.res.Hazards) >= m.cfg.MaxHazards {
		m.seen[key] = -1
		m.stopCheck()
		return
	}
	m.seen[key] = len(m.res.Hazards)
	h := Hazard{
		Kind: PhaseAlias, Phase: sub, Src: s.Src, Other: other, Var: v,
		Index: m.coords(v, c), Task: int(task), Thread: int(t), Occurrences: 1,
		TaskCoords: m.TaskCoords(int(task)),
	}
	fill(&h)
	m.res.Hazards = append(m.res.Hazards, h)
	m.stopCheck()
}
