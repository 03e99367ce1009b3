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
//  5. the bytes an Arrive announces with expect_tx (the code generator
//     sums, in program text, the SMEM bytes of the TMA copies `>> z` on
//     the barrier since its previous TMA Arrive) equal the bytes the
//     copies completing on that phase transfer (a copy in a loop, under
//     an If, or after the Arrive in another round changes the latter):
//     otherwise the transaction count never reaches zero (the phase
//     hangs) or reaches it before all data has landed. Only TMA Arrives
//     (tma_to_smem_async) are checked; a plain Arrive, which the code
//     generator lowers without expect_tx, leaves both counts running.
//
// Violations are PhaseAlias hazards. The checks run in the first task of a
// symmetric task loop only (barriers are task-local: later tasks repeat
// them exactly).

// hwBar is the hardware state of one barrier cell.
type hwBar struct {
	arr, awt []int32 // per thread offset of the task: own arrives, own awaits (skipped ones included)
	// slots holds, per ring slot, the awaiters' records of its last phase:
	// one record per Await execution, created by the awaiting collective
	// (see hwAwait).
	slots   [][]hwRec
	awaited int32 // the highest arrive index an Await paired with, -1 before
	// tx is the byte count the TMA copies have completed on the current
	// phase (rule 5), txSrc the first of them (-1 none); txUnknown: a
	// copy of non-constant size, the count is not checked.
	tx        int64
	txSrc     int32
	txUnknown bool
	// phases: for a ring-buffered array's hardware mbarrier, slots[k]
	// holds the awaits of phase phases[k] (k = phase parity; phase -1
	// stands for the pre-arrived indices the slot stands for).
	phases [2]int32
}

// phaseRecs is the list of the awaits of phase ph of a ring-buffered
// array's hardware mbarrier (nil when none is kept).
func (hb *hwBar) phaseRecs(ph int32) []hwRec {
	k := ph & 1
	if hb.phases[k] != ph {
		return nil
	}
	return hb.slots[k]
}

// hwRec is one Await's record on a slot and the log position it was made
// at.
type hwRec struct {
	rec, born int32
}

func (m *Machine) hwOf(id int32, ring int) *hwBar {
	b := &m.bars[id]
	if b.hw == nil {
		b.hw = &hwBar{slots: make([][]hwRec, ring), awaited: -1, txSrc: -1}
	}
	return b.hw
}

func grow(xs []int32, n int) []int32 {
	for len(xs) < n {
		xs = append(xs, 0)
	}
	return xs
}

func (m *Machine) freeRec(i int32) {
	m.recs[i].next = m.free
	m.free = i
}

// hwFree drops the records of a barrier variable's cells (at its
// reallocation).
func (m *Machine) hwFree(st *varState) {
	for i := 0; i < st.total; i++ {
		id := st.bar0 + int32(i)
		if int(id) >= len(m.bars) || m.bars[id].hw == nil {
			continue
		}
		for _, sl := range m.bars[id].hw.slots {
			for _, h := range sl {
				m.freeRec(h.rec)
			}
		}
		m.bars[id].hw = nil
	}
	for _, hb := range st.hwPhys {
		for _, sl := range hb.slots {
			for _, h := range sl {
				m.freeRec(h.rec)
			}
		}
	}
	st.hwPhys = nil
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
	m.hwOrder(s, v, c, hb.slots[slot], gs, a, ring)
	for _, h := range hb.slots[slot] {
		m.freeRec(h.rec)
	}
	hb.slots[slot] = hb.slots[slot][:0]
}

// hwOrder checks rule 4 for an Arrive by gs (arrive a) against the
// records of the awaits of the slot's previous phase.
//
// Each Await leaves one record created by its whole collective C. It
// stands for one record per thread u of C, which all start alike (no
// grant, no pending arrive) and stay alike as long as every event that
// could witness one witnesses all: an event whose threads meet C only in
// part, and that witnesses none of them through a grant, is the only one
// that tells them apart (Definition B.3 (i): the creator's own f is
// consulted per thread). hwUniform replays the record up to such an event;
// there the per-thread records are built and replayed from the Await
// (exactly the records per thread a plain RecordRead would have made).
// Then, with the record of C uniform: (b) thread u of C is ordered before
// some arriving thread iff u itself arrives or a grant covering the
// timeline meets gs; (a) an arriving thread t is ordered after some
// awaiter iff t is in C or in such a grant (visible).
func (m *Machine) hwOrder(s *Stmt, v int, c int32, recs []hwRec, gs threads, a, ring int32) {
	if len(recs) == 0 {
		return
	}
	qs := Of(m.p.MbarQual)
	units, temps := m.hwUnits(recs)
	defer m.freeTemps(temps)
	// (b)
	for _, i := range units {
		r := &m.recs[i]
		if m.orderedBefore(r, gs, qs) {
			continue
		}
		u := r.creator.start
		for _, o := range m.shapes[r.creator.shape] {
			if !m.contains(gs, r.creator.task, r.creator.start+o) {
				u = r.creator.start + o
				break
			}
		}
		other := int(r.src)
		m.phaseHazard(s, v, c, PhaseAhead, gs.task, gs.start, other, func(h *Hazard) {
			h.Arrives, h.Ring, h.OtherStart, h.OtherThreads = int(a), int(ring), int(u), len(m.shapes[gs.shape])
		})
		break
	}
	// (a)
	all := false
	for _, i := range units {
		if m.subset(gs, m.recs[i].creator) {
			all = true
			break
		}
		for _, g := range m.recs[i].grants {
			if grantLevel(&g, qs) >= TemporallyOrdered && m.subset(gs, g.th) {
				all = true
				break
			}
		}
	}
	if all {
		return
	}
	if t, ok := m.unordered(units, gs, TemporallyOrdered, qs); ok {
		r := &m.recs[units[0]]
		other, who := int(r.src), r.creator.start
		m.phaseHazard(s, v, c, PhaseEarly, gs.task, t, other, func(h *Hazard) {
			h.Arrives, h.Ring, h.OtherStart = int(a), int(ring), int(who)
		})
	}
}

// unordered returns the first thread of gs that sees none of the records
// units at level lvl on qs (ok false when every thread sees one).
func (m *Machine) unordered(units []int32, gs threads, lvl Level, qs QualSet) (t int32, ok bool) {
	for _, o := range m.shapes[gs.shape] {
		t := gs.start + o
		seen := false
		for _, i := range units {
			if seen = m.visible(&m.recs[i], gs.task, t, lvl, qs); seen {
				break
			}
		}
		if !seen {
			return t, true
		}
	}
	return 0, false
}

// hwUnits returns the records that stand for recs' awaiting threads,
// replayed to now: a uniform collective record as it is, a record whose
// threads an event told apart as per-thread records (temps, to be freed by
// the caller) built and replayed from its Await (see hwOrder).
func (m *Machine) hwUnits(recs []hwRec) (units, temps []int32) {
	for _, h := range recs {
		r := &m.recs[h.rec]
		if !m.hwExpand && m.hwUniform(r) {
			units = append(units, h.rec)
			continue
		}
		m.hwExpanded++
		for _, o := range m.shapes[r.creator.shape] {
			i := m.newRecord()
			m.res.Stats.Records-- // hardware records are not the seed's visibility records
			t := &m.recs[i]
			t.next, t.src, t.q, t.level, t.atomic = -1, r.src, r.q, r.level, 0
			t.creator = threads{task: r.creator.task, start: r.creator.start + o}
			t.reach, t.stamp = r.creator.task, h.born
			t.grants, t.pend = t.grants[:0], t.pend[:0]
			m.replay(t)
			units = append(units, i)
			temps = append(temps, i)
		}
	}
	return units, temps
}

func (m *Machine) freeTemps(temps []int32) {
	for _, i := range temps {
		m.freeRec(i)
	}
}

// orderedBefore reports rule 4 (b) for a uniform record r: every thread of
// r's creator is ordered before some thread of gs.
func (m *Machine) orderedBefore(r *record, gs threads, qs QualSet) bool {
	for i := range r.grants {
		g := &r.grants[i]
		if grantLevel(g, qs) >= TemporallyOrdered && m.intersects(gs, g.th) {
			return true
		}
	}
	return m.subset(r.creator, gs)
}

// hwUniform replays r while every event treats the threads of its creator
// alike (see hwOrder); it reports false, with r replayed up to the first
// event that does not, if there is one.
func (m *Machine) hwUniform(r *record) bool {
	n := int32(len(m.log))
	for i := r.stamp; i < n; i++ {
		e := &m.log[i]
		if (e.kind == KFence || e.kind == KArrive) && e.pre.Has(r.q) && (r.reach == allTasks || e.exec.task == allTasks || e.exec.task == r.reach) &&
			m.intersects(e.exec, r.creator) && !m.subset(r.creator, e.exec) && !m.witnessByGrant(r, e) {
			r.stamp = i
			return false
		}
		m.apply(r, e)
	}
	r.stamp = n
	return true
}

// witnessByGrant is the grant half of witness.
func (m *Machine) witnessByGrant(r *record, e *event) bool {
	for i := range r.grants {
		g := &r.grants[i]
		if e.trans && g.temp&e.pre != 0 && m.intersects(e.exec, g.th) {
			return true
		}
		if !e.trans && g.temp.Has(r.q) && m.intersects(e.exec, g.th) {
			return true
		}
	}
	return false
}

// hwAwait applies rule 3 to Await s by gs on cell c (queue id) with
// queue await count w (before it advances), pairing with arrive max of a,
// and leaves the awaiters' record on the slot (rule 4).
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
	hb.slots[slot] = append(hb.slots[slot], m.awaitRecord(s, gs))
}

// hwTx counts the bytes of TMA copy s into the current phase of its
// barrier (rule 5).
func (m *Machine) hwTx(s *Stmt) {
	gs := m.gs(s)
	if gs.task == allTasks || len(s.Bars) != 1 {
		return
	}
	b := s.Bars[0]
	pv := &m.p.Vars[b.Var]
	if pv.Ring == 0 || pv.PerThreadQueue {
		return
	}
	cs, ok := m.cells(b, s.Src)
	if !ok {
		return
	}
	bst := &m.vars[b.Var]
	for _, c := range cs {
		hb := m.hwOf(m.queue(b.Var, bst.bar0+c, gs), pv.Ring)
		if s.TxBytes < 0 {
			hb.txUnknown = true
			continue
		}
		if hb.txSrc < 0 {
			hb.txSrc = int32(s.Src)
		}
		hb.tx += int64(s.TxBytes)
	}
}

// hwTxArrive applies rule 5 to Arrive s (arrive a) on cell c and starts
// the next phase's count.
func (m *Machine) hwTxArrive(s *Stmt, v int, c, id int32, a int32, gs threads) {
	if !s.TxCheck {
		return // a plain arrive: the code generator's count runs on too
	}
	hb := m.hwOf(id, m.p.Vars[v].Ring)
	if !hb.txUnknown && hb.tx != int64(s.ExpectTx) {
		other := s.TxSrc
		if hb.txSrc >= 0 {
			other = int(hb.txSrc)
		}
		m.phaseHazard(s, v, c, PhaseTx, gs.task, gs.start, other, func(h *Hazard) {
			h.Arrives, h.Awaits, h.Paired, h.Ring = int(a), int(hb.tx), s.ExpectTx, m.p.Vars[v].Ring
		})
	}
	hb.tx, hb.txSrc, hb.txUnknown = 0, -1, false
}

// hwCarry checks, at the end of barrier cell c's scope, that every thread
// that arrived on it has made as many arrives as the queue barrier
// (modulo the ring: the arrive counter only selects the slot) and every
// thread that awaited it as many awaits (the await counter gives the
// phase parity). The code generator keeps the counters in exo_SyncState,
// which persists across the tasks a CTA runs, while the machine checks
// each task with fresh barriers: a thread out of step at the end of a
// task starts the next one arriving into another slot or waiting for
// another phase (a collective that shrinks after the first rounds, say).
func (m *Machine) hwCarry(s *Stmt, v int, c, id int32) {
	hb := m.bars[id].hw
	if hb == nil {
		return
	}
	ring := int32(m.p.Vars[v].Ring)
	a, w := m.bars[id].a, m.bars[id].w
	report := func(t, own, q int32, side int) {
		m.phaseHazard(s, v, c, PhaseCarry, m.task, t, -1, func(h *Hazard) {
			h.Arrives, h.Awaits, h.Paired, h.Ring = int(own), int(q), side, int(ring)
		})
	}
	for t, k := range hb.arr {
		if k != 0 && k%ring != a%ring {
			report(int32(t), k, a, 0)
			break
		}
	}
	for t, k := range hb.awt {
		if k != 0 && k != w {
			report(int32(t), k, w, 1)
			break
		}
	}
}

// phaseHazard reports a PhaseAlias hazard of kind sub at s (deduplicated
// by source, kind and earlier source).
func (m *Machine) phaseHazard(s *Stmt, v int, c int32, sub PhaseKind, task, t int32, other int, fill func(*Hazard)) {
	if !m.admit([2]int{s.Src, -(2 << 40) - int(sub)<<32 - other}) {
		return
	}
	h := Hazard{
		Kind: PhaseAlias, Phase: sub, Src: s.Src, Other: other, Var: v,
		Index: m.coords(v, c), Task: int(task), Thread: int(t), Occurrences: 1,
		TaskCoords: m.TaskCoords(int(task)),
	}
	fill(&h)
	m.res.Hazards = append(m.res.Hazards, h)
	m.stopCheck()
}

// Ring-buffered mbarrier arrays (Var.RingDepth; Exo's GPU branch writes
// `bar: barrier[k, n @ ring_buffer_by(depth)] @ CudaMbarrierPreArrive(d)`).
// Each index value is a one-shot logical barrier (seed 002 "Queue
// Barrier": its own variable and index values), and the hardware slot and
// phase come from the index, not from per-thread counters: logical index
// L of a slice is phase (L - d) / depth of the slice's hardware mbarrier
// (L - d) mod depth; indices below d are arrived at initialization and
// their Awaits do not wait. Rules 1 and 4 apply to the hardware mbarriers
// (rules 2 and 3 concern per-thread counters, which this lowering does not
// have); an Await of a logical barrier that has no Arrive yet is W0608.

// oneShotSlot maps logical barrier cell c of ring-buffered variable v to
// its hardware mbarrier (slice * depth + slot) and phase; ok is false for
// the pre-arrived indices.
func (m *Machine) oneShotSlot(v int, c int32) (phys int32, phase int, ok bool) {
	pv := &m.p.Vars[v]
	co := m.coords(v, c)
	if pv.RingDim >= len(co) {
		return 0, 0, false
	}
	l := co[pv.RingDim] - pv.PreArrive
	slice := 0
	dims := m.vars[v].dims
	for k, x := range co {
		if k != pv.RingDim {
			slice = slice*dims[k] + x
		}
	}
	d := pv.RingDepth
	slot, phase := ((l%d)+d)%d, l/d
	if l < 0 {
		phase = (l - d + 1) / d
	}
	return int32(slice*d + slot), phase, l >= 0
}

func (m *Machine) physBar(v int, phys int32) *hwBar {
	st := &m.vars[v]
	if st.hwPhys == nil {
		st.hwPhys = map[int32]*hwBar{}
	}
	hb := st.hwPhys[phys]
	if hb == nil {
		hb = &hwBar{slots: make([][]hwRec, 2), awaited: -1, phases: [2]int32{-3, -3}}
		st.hwPhys[phys] = hb
	}
	return hb
}

// oneShotArrive applies rules 1 and 4 to an Arrive on logical barrier c.
func (m *Machine) oneShotArrive(s *Stmt, v int, c, id int32, gs threads) {
	if gs.task == allTasks || m.lite {
		return
	}
	st := &m.vars[v]
	n := int32(len(m.shapes[gs.shape]))
	if st.hwCount == 0 {
		st.hwCount, st.hwSrc = n, s.Src
	} else if n != st.hwCount {
		m.phaseHazard(s, v, c, PhaseCount, gs.task, gs.start, st.hwSrc, func(h *Hazard) {
			h.Arrives, h.Awaits, h.Paired = 0, int(n), int(st.hwCount)
		})
	}
	phys, phase, ok := m.oneShotSlot(v, c)
	if !ok || m.bars[id].a > 0 {
		return // a second arrive on one logical barrier: CheckBarrier reports it
	}
	hb := m.physBar(v, phys)
	depth := int32(m.p.Vars[v].RingDepth)
	// In the hardware terms of the counter rings: this is "arrive"
	// phase*depth of a ring of depth mbarriers.
	a := int32(phase)*depth + phys%depth
	if phase >= 1 && hb.awaited < int32(phase-1) {
		m.phaseHazard(s, v, c, PhaseUnawaited, gs.task, gs.start, -1, func(h *Hazard) {
			h.Arrives, h.Paired, h.Ring = int(a), -1, int(depth)
			if hb.awaited >= 0 {
				h.Paired = int(hb.awaited)*int(depth) + int(phys%depth)
			}
		})
	}
	if phase >= 1 {
		m.hwOrder(s, v, c, hb.phaseRecs(int32(phase-1)), gs, a, depth)
	}
}

// oneShotAwait applies rule 6 to an Await of logical barrier c and leaves
// the awaiting collective's record on its hardware mbarrier (rules 4 and
// 6). A pre-arrived index waits for nothing; its Await stands for phase
// -1 of the mbarrier its index maps to.
//
// Rule 6 (the reference implementation's reading of an Await as a read of
// the mbarrier): every thread awaiting phase p >= 0 of a hardware mbarrier
// must be ordered after some Await of phase p - 1 of it, if one exists.
// On hardware, try_wait.parity(p & 1) on an mbarrier still in phase p - 1
// reports phase p - 2, of the same parity, complete and returns at once;
// a thread ordered after an Await of p - 1 knows that phase completed.
// For phase 0 the previous phase is that of the pre-arrived indices
// mapped to the same mbarrier (L - d < 0): a thread that did not take part
// in them (the reference's "duplicate await": another warp takes over a
// ring's awaits) is rejected, as the reference rejects it.
func (m *Machine) oneShotAwait(s *Stmt, v int, c int32, gs threads) {
	if gs.task == allTasks || m.lite {
		return
	}
	phys, phase, _ := m.oneShotSlot(v, c)
	hb := m.physBar(v, phys)
	ph := int32(phase)
	if phase >= 0 {
		if ph > hb.awaited {
			hb.awaited = ph
		}
		if prev := hb.phaseRecs(ph - 1); len(prev) > 0 {
			m.hwAwaitOrder(s, v, c, prev, gs, ph)
		}
	}
	k := ph & 1
	if hb.phases[k] != ph {
		for _, h := range hb.slots[k] {
			m.freeRec(h.rec)
		}
		hb.slots[k], hb.phases[k] = hb.slots[k][:0], ph
	}
	hb.slots[k] = append(hb.slots[k], m.awaitRecord(s, gs))
}

// hwAwaitOrder checks rule 6 for an Await by gs of phase ph against the
// records of the awaits of phase ph - 1.
func (m *Machine) hwAwaitOrder(s *Stmt, v int, c int32, prev []hwRec, gs threads, ph int32) {
	qs := Of(m.p.MbarQual)
	units, temps := m.hwUnits(prev)
	defer m.freeTemps(temps)
	if t, ok := m.unordered(units, gs, FullyOrdered, qs); ok {
		r := &m.recs[units[0]]
		other, who := int(r.src), r.creator.start
		m.phaseHazard(s, v, c, PhaseStale, gs.task, t, other, func(h *Hazard) {
			h.Arrives, h.Ring, h.OtherStart = int(ph), m.p.Vars[v].RingDepth, int(who)
			h.Paired = int(m.coords(v, c)[m.p.Vars[v].RingDim])
		})
	}
}

// awaitRecord makes the record an Await by gs leaves on its hardware
// mbarrier (rule 4): created by the whole collective, fully ordered on the
// hidden timeline. It is not one of the seed's visibility records and is
// not counted as one.
func (m *Machine) awaitRecord(s *Stmt, gs threads) hwRec {
	stamp := int32(len(m.log))
	i := m.newRecord()
	m.res.Stats.Records--
	r := &m.recs[i]
	r.next, r.src, r.q, r.level, r.atomic = -1, int32(s.Src), m.p.MbarQual, FullyOrdered, 0
	r.creator, r.reach, r.stamp = gs, gs.task, stamp
	r.grants, r.pend = r.grants[:0], r.pend[:0]
	return hwRec{rec: i, born: stamp}
}
