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
// Violations are PhaseAlias hazards. The hardware state of a lag ring
// continues across the variable's incarnations in one launch, so rules
// 2-4 also hold across the task boundary of a persistent CTA ("Across
// tasks" below); the checks run in the first task of a symmetric task
// loop and its phantom continuation tasks only (later tasks repeat them
// exactly).

// hwBar is the hardware state of one barrier cell.
//
// For a lag ring it continues across the variable's incarnations in one
// launch (varState.hw; "across tasks" below): arrive and await numbers
// are then global, the queue's counts of the earlier incarnations
// (baseA, baseW) plus the current queue's.
type hwBar struct {
	// arr, awt: per thread offset, own arrives and awaits (skipped ones
	// included) in the current incarnation; arrBase, awtBase: in the
	// earlier ones (the code generator's counters continue).
	arr, awt         []int32
	arrBase, awtBase []int32
	// slots holds, per ring slot, the awaiters' records of its last phase:
	// one record per Await execution, created by the awaiting collective
	// (see hwAwait). slotTask is the task of the slot's last arrive and
	// slotLocal its number in that task (lag rings).
	slots               [][]hwRec
	slotTask, slotLocal []int32
	awaited             int32 // the highest (global) arrive index an Await paired with, -1 before
	// baseA, baseW: the queue's arrives and awaits in the earlier
	// incarnations of this launch; task: the task whose threads the
	// records and counters are of; taskA: the global arrive count at the
	// start of that task.
	baseA, baseW int32
	task, taskA  int32
	// tx is the byte count the TMA copies have completed on the current
	// phase (rule 5), txSrc the first of them (-1 none); txUnknown: a
	// copy of non-constant size, the count is not checked.
	tx        int64
	txSrc     int32
	txUnknown bool
}

// hwPhysBar is the state of one hardware mbarrier of a ring-buffered
// array (oneShotSlot): the lag rings' per-thread counters, slot lists,
// task continuation and byte counts of hwBar are not kept (stop 30: a
// three-ring pipeline's 36 mbarriers had been 11 KB of hwBar a check,
// allocated and cleared, for the few fields below).
type hwPhysBar struct {
	awaited int32 // the highest phase an Await waited for, -1 before
	// slots[k] holds the awaits of phase phases[k] (k = phase parity;
	// phase -1 stands for the pre-arrived indices the slot stands for);
	// inl is their storage's first two records (one Await a logical
	// barrier is the common case).
	phases [2]int32
	slots  [2][]hwRec
	inl    [2][2]hwRec
}

// phaseRecs is the list of the awaits of phase ph of a ring-buffered
// array's hardware mbarrier (nil when none is kept).
func (hb *hwPhysBar) phaseRecs(ph int32) []hwRec {
	k := ph & 1
	if hb.phases[k] != ph {
		return nil
	}
	return hb.slots[k]
}

// hwRec is one Await's record on a slot and the log position it was made
// at; tmpl, when not -1, is a frozen copy of the record at born (see
// hwSettle), the state its per-thread records start from (hwUnits).
type hwRec struct {
	rec, born, tmpl int32
}

func (m *Machine) freeHW(h hwRec) {
	m.freeRec(h.rec)
	if h.tmpl >= 0 {
		m.freeRec(h.tmpl)
	}
}

// hwCell is the continued hardware state of lag-ring cell c of v.
func (m *Machine) hwCell(v int, c int32) *hwBar {
	st := &m.vars[v]
	for int(c) >= len(st.hw) {
		st.hw = append(st.hw, nil)
	}
	hb := st.hw[c]
	if hb == nil {
		ring := m.p.Vars[v].Ring
		hb = &hwBar{slots: make([][]hwRec, ring), slotTask: make([]int32, ring), slotLocal: make([]int32, ring), awaited: -1, txSrc: -1, task: m.task}
		st.hw[c] = hb
		if !st.hwListed {
			st.hwListed = true
			m.hwVars = append(m.hwVars, v)
		}
	}
	return hb
}

func grow(xs []int32, n int) []int32 {
	for len(xs) < n {
		xs = append(xs, 0)
	}
	return xs
}

func (m *Machine) freeRec(i int32) {
	m.rec(i).next = m.free
	m.free = i
}

// hwFree drops the records of a ring-buffered array's hardware
// mbarriers (at its reallocation).
func (m *Machine) hwFree(st *varState) {
	for _, hb := range st.hwPhys {
		if hb == nil {
			continue
		}
		for _, sl := range hb.slots {
			for _, h := range sl {
				m.freeHW(h)
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
	hb := m.hwCell(v, c)
	a := hb.baseA + m.bars[id].a // the global arrive number
	slot := a % ring
	if st.hwCount == 0 {
		st.hwCount, st.hwSrc = n, s.Src
	} else if n != st.hwCount {
		m.phaseHazard(s, v, c, PhaseCount, gs.task, gs.start, st.hwSrc, false, func(h *Hazard) {
			h.Arrives, h.Awaits, h.Paired = int(a), int(n), int(st.hwCount)
		})
	}
	last := int(gs.start) + int(offs[len(offs)-1]) + 1
	hb.arr, hb.arrBase = grow(hb.arr, last), grow(hb.arrBase, last)
	bad := int32(-1)
	for _, o := range offs {
		t := gs.start + o
		if bad < 0 && (hb.arrBase[t]+hb.arr[t])%ring != slot {
			bad = t
		}
	}
	if bad >= 0 {
		k := hb.arrBase[bad] + hb.arr[bad]
		m.phaseHazard(s, v, c, PhaseSlot, gs.task, bad, -1, false, func(h *Hazard) {
			h.Arrives, h.Awaits, h.Paired, h.Ring = int(a), int(k), 0, int(ring)
		})
	}
	for _, o := range offs {
		hb.arr[gs.start+o]++
	}
	// The slot's previous phase was arrived in an earlier task: the
	// checks below are across the task boundary.
	across := a >= ring && hb.slotTask[slot] != m.task
	if a >= ring && hb.awaited < a-ring {
		m.phaseHazard(s, v, c, PhaseUnawaited, gs.task, gs.start, -1, across, func(h *Hazard) {
			h.Arrives, h.Paired, h.Ring = int(a), int(hb.awaited), int(ring)
			if across {
				m.acrossFill(h, hb, a)
			}
		})
	}
	m.hwOrder(s, v, c, hb, hb.slots[slot], gs, a, ring, across)
	for _, h := range hb.slots[slot] {
		m.freeHW(h)
	}
	hb.slots[slot] = hb.slots[slot][:0]
	hb.slotTask[slot], hb.slotLocal[slot] = m.task, a-hb.taskA
	if m.hwOnly && a-hb.taskA == ring-1 {
		// The phantom's Ring-th arrive on this cell: from here on its
		// slots' previous phases are the phantom's own (phantoms).
		if m.hwLeft--; m.hwLeft == 0 {
			m.hwCut = true
		}
	}
}

// acrossFill marks h as a hazard across the task boundary: arrive a
// (global) reuses the mbarrier of arrive a - Ring, made in an earlier
// task (LocalArrive and PrevArrive number them from the start of their
// tasks; OtherTaskCoords: the earlier task's coordinates).
func (m *Machine) acrossFill(h *Hazard, hb *hwBar, a int32) {
	slot := a % int32(h.Ring)
	h.Across = true
	h.LocalArrive = int(a - hb.taskA)
	h.PrevArrive = int(hb.slotLocal[slot])
	h.OtherTaskCoords = m.TaskCoords(int(hb.slotTask[slot]))
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
func (m *Machine) hwOrder(s *Stmt, v int, c int32, hb *hwBar, recs []hwRec, gs threads, a, ring int32, across bool) {
	if len(recs) == 0 {
		return
	}
	qs := Of(m.p.MbarQual)
	if m.hwStaleOK(recs, gs, TemporallyOrdered, true, qs) {
		return
	}
	var ub [16]int32
	units, temps := m.hwUnits(recs, ub[:0])
	defer m.freeTemps(temps)
	// (b)
	for _, i := range units {
		r := m.rec(i)
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
		m.phaseHazard(s, v, c, PhaseAhead, gs.task, gs.start, other, across, func(h *Hazard) {
			h.Arrives, h.Ring, h.OtherStart, h.OtherThreads = int(a), int(ring), int(u), len(m.shapes[gs.shape])
			if across {
				m.acrossFill(h, hb, a)
			}
		})
		break
	}
	// (a)
	all := false
	for _, i := range units {
		if m.subset(gs, m.rec(i).creator) {
			all = true
			break
		}
		for _, g := range m.rec(i).grants {
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
		r := m.rec(units[0])
		other, who := int(r.src), r.creator.start
		m.phaseHazard(s, v, c, PhaseEarly, gs.task, t, other, across, func(h *Hazard) {
			h.Arrives, h.Ring, h.OtherStart = int(a), int(ring), int(who)
			if across {
				m.acrossFill(h, hb, a)
			}
		})
	}
}

// hwStaleOK reports that the checks of an Arrive (arrive true: rule 4
// (a) and (b) at TemporallyOrdered) or of an Await (rule 6 at lvl) by gs
// pass on recs as they stand, not yet replayed to now (issue 13, stop 29:
// the three-ring bug variants spent a quarter of their check replaying
// Await records; most checks pass on the state an earlier check left).
// Then they pass on the replayed records too, and hwOrder and
// hwAwaitOrder report nothing and leave the replay to the next check that
// needs it (replay is a function of a record's fields and the log, so a
// later replay from the record's stamp ends where the incremental ones
// would have).
//
// Why the answer holds after the replay: a record r stands, at its stamp,
// for per-thread records u of its creator C that are all alike (hwUniform
// stops at the first event that tells them apart, with r as it was before
// it). Replaying only adds grants (augment never removes one; the pending
// counts do not enter the checks), and each later per-thread record has
// r's grants and creator {u}, u ∈ C, with r's level and timeline. So:
// (b) a grant of r meeting gs is in every record that stands for r; C ⊆
// gs gives {u} ⊆ gs. (a) a grant of r covering gs, or covering thread t,
// is in all of them; gs ⊆ C, or t ∈ C, gives the record of u = t, which t
// sees through its creator (level FullyOrdered on the hidden timeline,
// awaitRecord). The same holds for a record continued through a template
// (hwSettle copies r's state into it).
func (m *Machine) hwStaleOK(recs []hwRec, gs threads, lvl Level, arrive bool, qs QualSet) bool {
	if hwNoStale {
		return false
	}
	var ub [16]int32
	units := ub[:0]
	for _, h := range recs {
		r := m.rec(h.rec)
		if r.grp != 0 || r.level < lvl || !qs.Has(r.q) {
			return false // not a record awaitRecord made (defensive)
		}
		if arrive && !m.orderedBefore(r, gs, qs) {
			return false // (b)
		}
		units = append(units, h.rec)
	}
	if arrive {
		for _, i := range units {
			r := m.rec(i)
			if m.subset(gs, r.creator) {
				return true
			}
			for _, g := range r.grants {
				if grantLevel(&g, qs) >= TemporallyOrdered && m.subset(gs, g.th) {
					return true
				}
			}
		}
	}
	if _, bad := m.unordered(units, gs, lvl, qs); bad {
		return false
	}
	if hwStaleHit != nil {
		hwStaleHit()
	}
	return true
}

// hwNoStale, set only by a test, turns hwStaleOK off: every check
// replays its records first, as before stop 29 (hwstale_test.go);
// hwStaleHit, set only by a test, counts the checks hwStaleOK passed.
var (
	hwNoStale  bool
	hwStaleHit func()
)

// unordered returns the first thread of gs that sees none of the records
// units at level lvl on qs (ok false when every thread sees one).
func (m *Machine) unordered(units []int32, gs threads, lvl Level, qs QualSet) (t int32, ok bool) {
	// One component of one record that every thread of gs sees (the
	// common case) answers for all of them at once.
	for _, i := range units {
		if m.coversAll(m.rec(i), gs, false, lvl, qs) {
			return 0, false
		}
	}
	// The components that can make a thread of gs see a record (visible:
	// the creator, or a grant, at level lvl on qs, meeting gs), gathered
	// once instead of tested again for each thread (stop 29: a bug
	// variant of the three-ring pipeline tests the 64 threads of an
	// Arrive this way at each of its 38 occurrences).
	var cb [32]threads
	comps := cb[:0]
	for _, i := range units {
		r := m.rec(i)
		if lvl <= AtomicOnly && r.atomic&qs != 0 {
			return 0, false
		}
		if qs.Has(r.q) && r.level >= lvl && m.intersects(gs, r.creator) {
			comps = append(comps, r.creator)
		}
		for j := range r.grants {
			g := &r.grants[j]
			if grantLevel(g, qs) >= lvl && m.intersects(gs, g.th) {
				comps = append(comps, g.th)
			}
		}
	}
	for _, o := range m.shapes[gs.shape] {
		t := gs.start + o
		seen := false
		for _, th := range comps {
			if seen = m.contains(th, gs.task, t); seen {
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
func (m *Machine) hwUnits(recs []hwRec, units []int32) (_, temps []int32) {
	for _, h := range recs {
		r := m.rec(h.rec)
		if (!m.hwExpand || len(m.shapes[r.creator.shape]) == 1) && m.hwUniform(r) {
			units = append(units, h.rec)
			continue
		}
		m.hwExpanded++
		for _, o := range m.shapes[r.creator.shape] {
			i := m.newRecord()
			m.res.Stats.Records-- // hardware records are not the seed's visibility records
			t := m.rec(i)
			t.next, t.src, t.q, t.level, t.atomic = -1, r.src, r.q, r.level, 0
			t.creator = threads{task: r.creator.task, start: r.creator.start + o}
			t.reach, t.stamp, t.grp = r.creator.task, h.born, 0
			m.rdNote(i)
			t.grants, t.pend = t.grants[:0], t.pend[:0]
			if h.tmpl >= 0 {
				// Continued across a reallocation or task (hwSettle):
				// the collective's state there, for this thread.
				tp := m.rec(h.tmpl)
				t.grants = append(t.grants, tp.grants...)
				t.pend = append(t.pend, tp.pend...)
				t.reach = tp.reach
			}
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
//
// The test and the replay share their work (issue 13, stop 28: the
// three-ring pipeline's bug variants spend a third of their check here):
// an event of another task than r's one task is skipped, as apply skips
// it, and a Fence or Arrive computes W of Definition B.3 (i) (witness)
// from the creator test and the grant test the uniformity test made:
// witness = (τ_q ∈ pre ∧ level ≥ unordered ∧ exec ∩ creator ≠ ∅) ∨
// ((trans ∨ τ_q ∈ pre) ∧ witnessByGrant).
func (m *Machine) hwUniform(r *record) bool {
	if hwUniformRef != nil {
		return hwUniformRef(m, r) // the plain test and replay (hwuniform_test.go)
	}
	n := int32(len(m.log))
	// cells: a bit per barrier cell (mod 512) of r's arrive counts, made
	// at the first event that needs it and kept by the Arrives below
	// (nothing else here changes the counts): an Await on a cell without
	// its bit finds no count (the pipelines' records hold a few dozen
	// counts and see hundreds of Awaits on other cells), and an Arrive's
	// cell without its bit is not in r.pend, so it is appended without
	// addPend's search (stop 29: a one-shot barrier cell is arrived once,
	// so the search never found one).
	var cells [8]uint64
	cellsMade := false
	for i := r.stamp; i < n; i++ {
		e := &m.log[i]
		if r.reach != allTasks && e.exec.task != allTasks && e.exec.task != r.reach {
			continue // apply leaves r alone, and the event is no test
		}
		if e.kind == KAwait {
			// apply's Await case.
			c := m.evCells[e.c0]
			if !cellsMade {
				hwPendCells(&cells, r.pend)
				cellsMade = true
			}
			if cells[(uint32(c.cell)>>6)&7]&(1<<(uint32(c.cell)&63)) == 0 {
				continue
			}
			for _, p := range r.pend {
				if p.cell == c.cell && p.count <= c.count {
					m.augment(r, e.exec, e.full, e.temp)
					break
				}
			}
			continue
		}
		pre := e.pre.Has(r.q)
		if !pre && !e.trans {
			continue // witness is false: apply leaves r alone
		}
		meets := pre && m.intersects(e.exec, r.creator)
		byGrant, tested := false, false
		if meets && !m.subset(r.creator, e.exec) {
			byGrant, tested = m.witnessByGrant(r, e), true
			if !byGrant {
				r.stamp = i
				return false
			}
		}
		w := meets && r.level >= Unordered
		if !w {
			if !tested {
				byGrant = m.witnessByGrant(r, e)
			}
			w = byGrant
		}
		if !w {
			continue
		}
		if e.kind == KFence {
			m.augment(r, e.exec, e.full, e.temp)
			continue
		}
		if !cellsMade {
			hwPendCells(&cells, r.pend)
			cellsMade = true
		}
		for _, c := range m.evCells[e.c0 : e.c0+e.cn] {
			k, b := (uint32(c.cell)>>6)&7, uint64(1)<<(uint32(c.cell)&63)
			if cells[k]&b != 0 {
				m.addPend(r, c)
				continue
			}
			cells[k] |= b
			m.hwAppendPend(r, c)
		}
	}
	r.stamp = n
	return true
}

// hwPendCells sets the bits of the cells of ps in cells (see hwUniform).
func hwPendCells(cells *[8]uint64, ps []pend) {
	for _, p := range ps {
		cells[(uint32(p.cell)>>6)&7] |= 1 << (uint32(p.cell) & 63)
	}
}

// hwAppendPend is addPend for a cell not in r.pend: the count is
// appended. A slot record gathers a count for each cell its awaiters'
// successors arrive on: past the shared two-slot start (pendStore) the
// list grows to 16 and then doubles, instead of append's 4, 8, 16. (Stop
// 29 grew it to 32: the three-ring pipeline's records end with 4 to 12
// counts, stop 30, and the pieces of 32 were 30 KB a check.)
func (m *Machine) hwAppendPend(r *record, c pend) {
	if len(r.pend) == cap(r.pend) {
		if cap(r.pend) == 0 {
			r.pend = m.pendStore(1)
		} else {
			n := m.hwPendPiece(max(2*cap(r.pend), 16))
			r.pend = append(n, r.pend...)
		}
	}
	r.pend = append(r.pend, c)
}

// hwPendPiece returns empty storage for n arrive counts, cut from the
// chunks of pendStore's arena while n is at most 256 (a slot record's
// list, grown in hwUniform, gathers a few to a few dozen counts: one allocation a
// record had been the pipelines' most frequent), else an array of its own.
func (m *Machine) hwPendPiece(n int) []pend {
	if n > 256 || m.noPendArena {
		return make([]pend, 0, n)
	}
	if len(m.pendArena)+n > cap(m.pendArena) {
		c := min(max(2*cap(m.pendArena), 64, 2*n), 4096)
		m.pendArena = make([]pend, 0, c)
	}
	k := len(m.pendArena)
	m.pendArena = m.pendArena[:k+n]
	return m.pendArena[k : k : k+n]
}

// hwUniformRef, set only by a test, replaces hwUniform with the plain
// form it was written from (the test, then apply, event by event), so
// that the two can be compared on whole programs.
var hwUniformRef func(m *Machine, r *record) bool

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
	hb := m.hwCell(v, c)
	// Global numbers: the queue's await and the arrive it pairs with on
	// hardware. An Await among the first lag of its incarnation (max < 0)
	// is skipped by the queue barrier, but on hardware the thread's skip
	// counter is spent after its first lag awaits of the launch: it waits
	// for arrive gmax of an earlier task (a lag that reaches across the
	// task boundary).
	gw, gmax := hb.baseW+w, hb.baseW+max
	last := int(gs.start) + int(offs[len(offs)-1]) + 1
	hb.awt, hb.awtBase = grow(hb.awt, last), grow(hb.awtBase, last)
	bad := int32(-1)
	for _, o := range offs {
		if t := gs.start + o; bad < 0 && hb.awtBase[t]+hb.awt[t] != gw {
			bad = t
		}
	}
	if bad >= 0 {
		j := hb.awtBase[bad] + hb.awt[bad]
		m.phaseHazard(s, v, c, PhaseWrong, gs.task, bad, -1, false, func(h *Hazard) {
			h.Arrives, h.Awaits, h.Paired, h.Ring = int(j), int(gw), int(gmax), int(ring)
			h.Lag = int(w - max)
		})
	}
	for _, o := range offs {
		hb.awt[gs.start+o]++
	}
	if gmax < 0 || max >= a {
		return // a skipped await, or AwaitBeforeArrive
	}
	if gmax > hb.awaited {
		hb.awaited = gmax
	}
	slot := gmax % ring
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
	for _, c := range cs {
		hb := m.hwCell(b.Var, c)
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
	hb := m.hwCell(v, c)
	a += hb.baseA
	if !hb.txUnknown && hb.tx != int64(s.ExpectTx) {
		other := s.TxSrc
		if hb.txSrc >= 0 {
			other = int(hb.txSrc)
		}
		m.phaseHazard(s, v, c, PhaseTx, gs.task, gs.start, other, false, func(h *Hazard) {
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
//
// With the state continued (varState.hw), the counts are global and a
// thread that took part in this incarnation is then set to the queue's
// counts: it is reported here once, not again at its next arrive or
// await. A thread that took no part keeps its counts, which rules 2 and
// 3 compare at its next arrive or await (a thread that awaits in one task
// and not in the one before it, say).
func (m *Machine) hwCarry(s *Stmt, v int, c, id int32) {
	st := &m.vars[v]
	if int(c) >= len(st.hw) || st.hw[c] == nil {
		return
	}
	hb := st.hw[c]
	ring := int32(m.p.Vars[v].Ring)
	a, w := hb.baseA+m.bars[id].a, hb.baseW+m.bars[id].w
	report := func(t, own, q int32, side int) {
		m.phaseHazard(s, v, c, PhaseCarry, m.task, t, -1, false, func(h *Hazard) {
			h.Arrives, h.Awaits, h.Paired, h.Ring = int(own), int(q), side, int(ring)
		})
	}
	reported := false
	for t, k := range hb.arr {
		if k == 0 {
			continue
		}
		if own := hb.arrBase[t] + k; own%ring != a%ring && !reported {
			report(int32(t), own, a, 0)
			reported = true
		}
		hb.arrBase[t] = a - k
	}
	reported = false
	for t, k := range hb.awt {
		if k == 0 {
			continue
		}
		if own := hb.awtBase[t] + k; own != w && !reported {
			report(int32(t), own, w, 1)
			reported = true
		}
		hb.awtBase[t] = w - k
	}
}

// phaseHazard reports a PhaseAlias hazard of kind sub at s (deduplicated
// by source, kind and earlier source); across: fill marks it a hazard
// across the task boundary (acrossFill).
//
// A hazard across the task boundary (Hazard.Across) has its own key, and
// is not reported for a barrier whose slot reuse (rule 4) already failed
// within a task: the boundary then shows the same mistake again. In a phantom
// continuation task (phantoms) a hazard already reported is not counted
// again: the phantom repeats the first task's checks.
func (m *Machine) phaseHazard(s *Stmt, v int, c int32, sub PhaseKind, task, t int32, other int, across bool, fill func(*Hazard)) {
	key := [2]int{s.Src, -(2 << 40) - int(sub)<<32 - other}
	if across {
		if m.reuseBad[v] {
			return // the barrier's slot reuse already failed within a task
		}
		key[1] -= 1 << 39
	} else if sub == PhaseUnawaited || sub == PhaseAhead || sub == PhaseEarly {
		if m.reuseBad == nil {
			m.reuseBad = map[int]bool{}
		}
		if !m.reuseBad[v] {
			m.reuseBad[v] = true
		}
	}
	if _, dup := m.seen[key]; dup {
		// Another occurrence of a hazard already seen: only counted
		// (admit), its description is the first one's (stop 30: a bug
		// variant of the three-ring pipeline fails some 100 checks a
		// run, each had built and filled a Hazard).
		if !m.hwOnly {
			m.admit(key)
		}
		return
	}
	// The hazard is built in the machine's scratch (fill's argument
	// escapes): a local escaped to the heap on every call (issue 13,
	// stop 28).
	if m.phaseBuf == nil {
		m.phaseBuf = new(Hazard)
	}
	h := m.phaseBuf
	*h = Hazard{
		Kind: PhaseAlias, Phase: sub, Src: s.Src, Other: other, Var: v,
		Task: int(task), Thread: int(t), Occurrences: 1,
	}
	fill(h)
	if !m.admit(key) {
		return
	}
	h.Index = m.coords(v, c)
	h.TaskCoords = m.TaskCoords(int(task))
	if m.res.Hazards == nil {
		// A rejected ring program reports a few (rows 2 and 3 of
		// issue 13: six): one allocation, not four growths.
		m.res.Hazards = make([]Hazard, 0, 8)
	}
	m.res.Hazards = append(m.res.Hazards, *h)
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
	st := &m.vars[v]
	if pv.RingDim >= len(st.dims) {
		return 0, 0, false
	}
	// The coordinates of c (coords), computed in place: this runs at
	// every Arrive and Await of the array (stop 29: coords' slice was one
	// allocation each).
	l, slice := 0, 0
	if len(st.dims) == 2 && st.gran[0] == 1 && st.gran[1] == 1 && !oneShotNoFast {
		// A 2-D array of one mbarrier per index (every ring of the
		// three-ring pipeline; its loop below was 60% of this
		// function's ~120 instructions, 300 calls a check; issue 13,
		// stop 36): c = i*strides[0] + j with strides[0] = dims[1].
		i := int(c) / st.strides[0]
		j := int(c) - i*st.strides[0]
		if pv.RingDim == 0 {
			l, slice = i-pv.PreArrive, j
		} else {
			l, slice = j-pv.PreArrive, i
		}
	} else {
		l, slice = m.oneShotCoords(pv, st, c)
	}
	d := pv.RingDepth
	if l >= 0 {
		phase := l / d // one division for the slot and the phase
		return int32(slice*d + l - phase*d), phase, true
	}
	slot, phase := ((l%d)+d)%d, (l-d+1)/d
	return int32(slice*d + slot), phase, false
}

// oneShotNoFast, set only by a test, sends every cell through
// oneShotCoords (TestOneShotSlotFast).
var oneShotNoFast bool

// oneShotCoords is the index l of cell c along v's ring dimension, less
// the pre-arrived count, and its slice: the flat index of its other
// coordinates (in elements).
func (m *Machine) oneShotCoords(pv *Var, st *varState, c int32) (l, slice int) {
	r := int(c)
	for k := range st.dims {
		q := r
		if sk := st.strides[k]; sk != 1 {
			// (the last dimension's stride is 1: no division)
			q = r / sk
			r -= q * sk
		} else {
			r = 0
		}
		x := q * st.gran[k]
		if k == pv.RingDim {
			l = x - pv.PreArrive
		} else {
			slice = slice*st.dims[k] + x
		}
	}
	return l, slice
}

// physBar is hardware mbarrier phys of ring-buffered array v. The array's
// mbarriers are listed in a slice (a map before stop 29), with their two
// phase lists in place; those of an array of at most 64 are made at the
// first use of one, in one allocation, a larger one's each at its first.
func (m *Machine) physBar(v int, phys int32) *hwPhysBar {
	st := &m.vars[v]
	if int(phys) >= len(st.hwPhys) {
		pv := &m.p.Vars[v]
		n := pv.RingDepth
		for k, x := range st.dims {
			if k != pv.RingDim {
				n *= x
			}
		}
		n = max(n, int(phys)+1)
		ps := make([]*hwPhysBar, n)
		copy(ps, st.hwPhys)
		if len(st.hwPhys) == 0 && n <= 64 {
			// A small array's mbarriers in one allocation.
			bars := make([]hwPhysBar, n)
			for i := range bars {
				ps[i] = newPhysBar(&bars[i])
			}
		}
		st.hwPhys = ps
	}
	hb := st.hwPhys[phys]
	if hb == nil {
		hb = newPhysBar(new(hwPhysBar))
		st.hwPhys[phys] = hb
	}
	return hb
}

// newPhysBar initializes hb as a ring-buffered array's mbarrier.
func newPhysBar(hb *hwPhysBar) *hwPhysBar {
	hb.awaited, hb.phases = -1, [2]int32{-3, -3}
	hb.slots = [2][]hwRec{hb.inl[0][:0], hb.inl[1][:0]}
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
		m.phaseHazard(s, v, c, PhaseCount, gs.task, gs.start, st.hwSrc, false, func(h *Hazard) {
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
	// phase*depth + slot of a ring of depth mbarriers (computed where a
	// report needs it: a division).
	if phase >= 1 && hb.awaited < int32(phase-1) {
		m.phaseHazard(s, v, c, PhaseUnawaited, gs.task, gs.start, -1, false, func(h *Hazard) {
			h.Arrives, h.Paired, h.Ring = int(int32(phase)*depth+phys%depth), -1, int(depth)
			if hb.awaited >= 0 {
				h.Paired = int(hb.awaited)*int(depth) + int(phys%depth)
			}
		})
	}
	if phase >= 1 {
		// The ordered-after clocks answer most checks without replaying
		// the records (mbar_clock.go); when they cannot tell, hwOrder.
		if recs := hb.phaseRecs(int32(phase - 1)); !m.clkAnswer(s, recs, gs, false) {
			m.hwOrder(s, v, c, nil, recs, gs, int32(phase)*depth+phys%depth, depth, false)
			if len(recs) > 0 {
				m.clkUndecided()
				m.clkArm()
			}
		}
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
		if prev := hb.phaseRecs(ph - 1); len(prev) > 0 && !m.hwSelfAwaited(prev, gs) && !m.clkAnswer(s, prev, gs, true) {
			m.hwAwaitOrder(s, v, c, prev, gs, ph)
		}
	}
	k := ph & 1
	if hb.phases[k] != ph {
		for _, h := range hb.slots[k] {
			m.freeHW(h)
		}
		hb.slots[k], hb.phases[k] = hb.slots[k][:0], ph
	}
	hb.slots[k] = append(hb.slots[k], m.awaitRecord(s, gs))
	m.clkBirth(int32(len(m.log)), gs)
}

// hwSelfAwaited reports that rule 6 passes for an Await by gs because gs
// awaited the previous phase itself: a record of prev (the Awaits of
// phase ph - 1) whose creator holds every thread of gs, each record as
// awaitRecord made it. This is hwStaleOK's first case (unordered's
// coversAll on the creator at FullyOrdered), tested before the
// ordered-after clocks fold the log and look up their columns (stop 31:
// in the three-ring pipeline each ring's awaiting collective waits on
// every phase of its mbarriers, so half the checks of a run are these).
// Replaying only adds grants, so the stale answer is the replayed one.
func (m *Machine) hwSelfAwaited(prev []hwRec, gs threads) bool {
	if hwNoStale {
		return false
	}
	qs := Of(m.p.MbarQual)
	self := false
	for _, h := range prev {
		r := m.rec(h.rec)
		if r.grp != 0 || r.level < FullyOrdered || !qs.Has(r.q) {
			return false // not a record awaitRecord made (as hwStaleOK)
		}
		self = self || m.subset(gs, r.creator)
	}
	if self && hwStaleHit != nil {
		hwStaleHit()
	}
	return self
}

// hwAwaitOrder checks rule 6 for an Await by gs of phase ph against the
// records of the awaits of phase ph - 1.
func (m *Machine) hwAwaitOrder(s *Stmt, v int, c int32, prev []hwRec, gs threads, ph int32) {
	qs := Of(m.p.MbarQual)
	if m.hwStaleOK(prev, gs, FullyOrdered, false, qs) {
		return
	}
	var ub [16]int32
	units, temps := m.hwUnits(prev, ub[:0])
	defer m.freeTemps(temps)
	if t, ok := m.unordered(units, gs, FullyOrdered, qs); ok {
		r := m.rec(units[0])
		other, who := int(r.src), r.creator.start
		m.phaseHazard(s, v, c, PhaseStale, gs.task, t, other, false, func(h *Hazard) {
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
	return m.awaitRecordOf(int32(s.Src), gs)
}

// awaitRecordOf is awaitRecord for an Await of source src (round_skip.go
// makes the records of the rounds it skips).
func (m *Machine) awaitRecordOf(src int32, gs threads) hwRec {
	stamp := int32(len(m.log))
	i := m.newRecord()
	m.res.Stats.Records--
	r := m.rec(i)
	r.next, r.src, r.q, r.level, r.atomic = -1, src, m.p.MbarQual, FullyOrdered, 0
	r.creator, r.reach, r.stamp, r.grp = gs, gs.task, stamp, 0
	r.grants, r.pend = r.grants[:0], r.pend[:0]
	m.rdNote(i)
	return hwRec{rec: i, born: stamp, tmpl: -1}
}

// Across tasks (issue 13; docs/weft-sync.md "mbarriers on hardware",
// rule 4 across the boundary). The code generator lowers cuda_tasks to a
// persistent grid (cudagen device.go: a CTA runs task i, then the task
// the loop hands it next, with the same threads): the mbarriers are
// initialized once per kernel and the per-thread arrive, await and skip
// counters (exo_SyncState) persist, so a ring pipelines across the task
// boundary. The machine keeps the seed's queue barriers per incarnation
// (seed 000 Fig. 22 ALLOC: a fresh (0, 0) barrier; the data checks are
// unchanged) and continues the hardware state instead: varState.hw lives
// for the launch; at each reallocation the queue's counts join the
// global base and each thread's counts its own (hwCarryOver); at each
// task start the Await records on the slots, which stand for the
// awaiting threads, are replayed to the end of the task they were made
// in and relabelled into the new task (hwNextTask): thread t of task i
// and thread t of the next task are one hardware thread, so what t was
// ordered after in task i, it still is. Rules 2-4 and 7 then see the
// boundary as they see a round: the next task's first arrive on a slot
// is checked against the awaiters of the slot's last phase of the task
// before (rule 4 (a) and (b), Hazard.Across), and an Await among the
// first lag of the task, which the queue barrier skips, pairs on
// hardware with an arrive of the task before (its thread's skip counter
// is spent) and leaves its record on that arrive's slot.
//
// Which task a CTA runs next depends on the grid size. In a symmetric
// task loop every task is the first one relabelled, so the first task is
// followed by phantom continuation tasks (phantoms): the same body, run
// again for its barrier statements only (the data statements are the
// first task's, and the data records of tasks that are not one CTA's
// must not be ordered by the continued mbarriers), until each ring's
// lookback is a full ring of the steady state. A loop that is not
// symmetric continues the state from each task to the next in launch
// order (a CTA that runs consecutive tasks; the pairs i, i + G of a grid
// of G > 1 clusters are not checked). A barrier allocated in a seq loop
// continues likewise from one incarnation to the next within a task: the
// code generator gives every allocation of it the same mbarriers.

// hwSettle replays every continued slot record to now, first splitting
// one whose collective's threads an event told apart into per-thread
// records (hwUnits), so that each is exact when relabelled or translated.
func (m *Machine) hwSettle() {
	now := int32(len(m.log))
	for _, v := range m.hwVars {
		for _, hb := range m.vars[v].hw {
			if hb == nil {
				continue
			}
			for k, sl := range hb.slots {
				if len(sl) == 0 {
					continue
				}
				units, temps := m.hwUnits(sl, nil)
				if len(temps) > 0 {
					kept := map[int32]bool{}
					for _, i := range units {
						kept[i] = true
					}
					var out []hwRec
					for _, h := range sl {
						if kept[h.rec] {
							out = append(out, h)
						} else {
							m.freeHW(h)
						}
					}
					for _, i := range temps {
						out = append(out, hwRec{rec: i, born: now, tmpl: -1})
					}
					hb.slots[k] = out
				}
				for j := range hb.slots[k] {
					h := &hb.slots[k][j]
					r := m.rec(h.rec)
					if r.stamp != now {
						m.replay(r)
					}
					if len(m.shapes[r.creator.shape]) == 1 {
						continue
					}
					// A collective record, uniform to now: freeze its
					// state as the start of its per-thread records.
					if h.tmpl < 0 {
						h.tmpl = m.newRecord()
						m.res.Stats.Records--
					}
					r = m.rec(h.rec)
					tp := m.rec(h.tmpl)
					tp.next, tp.src, tp.q, tp.level, tp.atomic = -1, r.src, r.q, r.level, r.atomic
					tp.creator, tp.reach, tp.stamp, tp.grp = r.creator, r.reach, now, 0
					m.rdNote(h.tmpl)
					tp.grants = append(tp.grants[:0], r.grants...)
					tp.pend = append(tp.pend[:0], r.pend...)
					h.born = now
				}
			}
		}
	}
}

// hwRecs calls f on every continued slot record.
func (m *Machine) hwRecs(f func(r *record)) {
	for _, v := range m.hwVars {
		for _, hb := range m.vars[v].hw {
			if hb == nil {
				continue
			}
			for _, sl := range hb.slots {
				for _, h := range sl {
					f(m.rec(h.rec))
					if h.tmpl >= 0 {
						f(m.rec(h.tmpl))
					}
				}
			}
		}
	}
}

// hwCarryOver continues lag-ring variable v's hardware state into its new
// incarnation (cells from st.bar0), the old one's cells at oldBar0.
// A slot record's pending arrives on the old cells move to the new ones,
// counted from the new incarnation's first arrive (arrive k of the old
// incarnation is arrive k - a there, a < 0): an Await of the new
// incarnation whose paired arrive is then below 0 (one of its first lag,
// skipped by the queue barrier) pairs with it on hardware.
func (m *Machine) hwCarryOver(v int, oldBar0 int32, oldTotal int) {
	st := &m.vars[v]
	m.hwSettle()
	m.hwRecs(func(r *record) {
		for i := range r.pend {
			p := &r.pend[i]
			if p.cell >= oldBar0 && p.cell < oldBar0+int32(oldTotal) {
				p.count -= m.bars[p.cell].a
				p.cell = st.bar0 + (p.cell - oldBar0)
			}
		}
	})
	for c, hb := range st.hw {
		if hb == nil {
			continue
		}
		if c < oldTotal {
			b := &m.bars[oldBar0+int32(c)]
			hb.baseA += b.a
			hb.baseW += b.w
		}
		for t, k := range hb.arr {
			hb.arrBase[t] += k
			hb.arr[t] = 0
		}
		for t, k := range hb.awt {
			hb.awtBase[t] += k
			hb.awt[t] = 0
		}
	}
}

// hwNextTask relabels the continued state into the task that starts now
// (m.task): the same hardware threads run it.
func (m *Machine) hwNextTask() {
	m.hwSettle()
	now := int32(len(m.log))
	for _, v := range m.hwVars {
		st := &m.vars[v]
		for c, hb := range st.hw {
			if hb == nil || hb.task == m.task {
				continue
			}
			old := hb.task
			ga := hb.baseA
			if st.live && c < st.total {
				ga += m.bars[st.bar0+int32(c)].a
			}
			hb.taskA, hb.task = ga, m.task
			relabel := func(r *record) {
				if r.creator.task == old {
					r.creator.task = m.task
				}
				for i := range r.grants {
					if g := &r.grants[i].th; g.task == old {
						g.task = m.task
					}
				}
				if r.reach == old {
					r.reach = m.task
				}
				r.stamp = now
			}
			for _, sl := range hb.slots {
				for _, h := range sl {
					relabel(m.rec(h.rec))
					m.rdNote(h.rec)
					if h.tmpl >= 0 {
						relabel(m.rec(h.tmpl))
						m.rdNote(h.tmpl)
					}
				}
			}
		}
	}
}

// hwDrop frees the continued state (a new launch, or the end of a
// symmetric loop's phantoms).
func (m *Machine) hwDrop() {
	for _, v := range m.hwVars {
		st := &m.vars[v]
		for _, hb := range st.hw {
			if hb == nil {
				continue
			}
			for _, sl := range hb.slots {
				for _, h := range sl {
					m.freeHW(h)
				}
			}
		}
		st.hw, st.hwListed = nil, false
	}
	m.hwVars = m.hwVars[:0]
}

// hwUnsteady reports whether the task that ran last started before some
// ring's lookback was full: a cell that the task arrived on had fewer
// than Ring arrives in the launch before it, so a later task's checks
// can still differ from its own (they reach one task further back).
func (m *Machine) hwUnsteady() bool {
	for _, v := range m.hwVars {
		st := &m.vars[v]
		ring := int32(m.p.Vars[v].Ring)
		for c, hb := range st.hw {
			if hb == nil {
				continue
			}
			ga := hb.baseA
			if st.live && c < st.total {
				ga += m.bars[st.bar0+int32(c)].a
			}
			if ga > hb.taskA && hb.taskA < ring {
				return true
			}
		}
	}
	return false
}

// phantoms runs, after the first task of symmetric task loop s, phantom
// continuation tasks: s's body again, for its barrier statements only,
// with the hardware state continued, as the next task of a persistent
// CTA (every task of a symmetric loop is the first one relabelled). The
// first is the boundary every later pair of tasks repeats once the
// rings' lookback is full (a task with fewer arrives than its ring
// needs more than one); a phantom that has arrived a full ring on every
// cell the task before it arrived on stops there, its later checks being
// the first task's. Its hazards across the boundary are reported;
// the others repeat the first task's and are not counted again. The
// phantom tasks take task ids (coordinates those of the first task) but
// are not counted as tasks or operations.
func (m *Machine) phantoms(s *Stmt) {
	if len(m.hwVars) == 0 || m.stop {
		m.hwDrop()
		return
	}
	saved := m.res.Stats
	limit := 1
	for _, v := range m.hwVars {
		if r := m.p.Vars[v].Ring; r+1 > limit {
			limit = r + 1
		}
	}
	for k := 0; k < limit && !m.stop && m.hwUnsteady(); k++ {
		// The cells the last task arrived on: once the phantom has
		// arrived a full ring on each, every later check of it repeats
		// one of the first task's, and it stops (hwCut).
		m.hwLeft = 0
		for _, v := range m.hwVars {
			st := &m.vars[v]
			for c, hb := range st.hw {
				if hb != nil && st.live && c < st.total && hb.baseA+m.bars[st.bar0+int32(c)].a > hb.taskA {
					m.hwLeft++
				}
			}
		}
		m.hwOnly, m.hwCut = true, false
		m.gen++
		m.execHW(s.Body)
		m.hwOnly, m.hwCut = false, false
	}
	m.res.Stats = saved
	m.gen++
	m.hwDrop()
}

// execHW runs body in a phantom task: control flow, barrier allocations
// and frees, Fence, Arrive and Await, and the byte counts of TMA copies
// (rule 5); no data statement.
func (m *Machine) execHW(body []*Stmt) {
	for _, s := range body {
		if m.stop || m.hwCut {
			return
		}
		switch s.Kind {
		case KBlock:
			m.execHW(s.Body)
		case KIf:
			if s.Cond(m.env) {
				m.execHW(s.Body)
			}
		case KLoop:
			lo, hi := s.Lo(m.env), s.Hi(m.env)
			for i := lo; i < hi && !m.stop && !m.hwCut; i++ {
				m.env[s.Slot] = i
				m.gen++
				m.execHW(s.Body)
			}
		case KIncTaskID:
			m.task++
			for _, sl := range m.p.TaskSlots {
				m.taskCoords = append(m.taskCoords, m.env[sl])
			}
			m.hwNextTask()
		case KAlloc:
			if m.p.Vars[s.Acc.Var].Barrier {
				if m.thAny && !m.inVirt {
					m.thsymTouch(s)
				}
				m.alloc(s.Acc.Var, s.Dims, s.Src)
			}
		case KFence, KArrive, KAwait:
			if !m.disabled(s) {
				m.effect(s)
			}
		case KCheckBarrier:
			if pv := &m.p.Vars[s.Acc.Var]; pv.Ring > 0 && !pv.PerThreadQueue {
				if cs, ok := m.cells(s.Acc, s.Src); ok {
					st := &m.vars[s.Acc.Var]
					for _, c := range cs {
						m.hwCarry(s, s.Acc.Var, c, st.bar0+c)
					}
				}
			}
		default:
			if s.TxBytes != 0 {
				m.hwTx(s)
			}
		}
	}
}
