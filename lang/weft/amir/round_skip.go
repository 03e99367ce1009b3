package amir

// Skipping the repeated rounds of a loop as a whole (issue 13, stop 37:
// ring37; docs/weft-sync.md "Stop 37: ring37"; stop 36's design in "Stop
// 36: ring36", "Not done").
//
// The three-ring pipeline runs one loop body 25 times, on one-shot logical
// barriers L = n + c of ring-buffered arrays (mbar.go). From some round on
// the machine ends each round in the state it began it, moved by g: L ->
// L + 1 on the arrays the round names (their hardware mbarriers rotated
// with L: slot (L - d) mod depth, phase (L - d) / depth) and every log
// position later by the round's length. Such a round is its predecessor's
// moved by g, and so is every later one: here the machine does not execute
// them; it makes the state they leave (the log, the queue counts, the
// mbarriers' phase lists and Await records, the counters) and leaves the
// loop.
//
// The argument. Let round r (the template) start in state S and round r + 1
// in state S' = g(S) (the digests agree, round_digest.go, and the state is
// of the kind they describe). (1) Round r + 1 executes the statements round
// r executed, with the same threads and counts, each access's cells moved
// by g: the loop body's control (conditions, bounds, thread sets, await
// counts) reads no iterator of this loop, except the conditions of Ifs
// outside the body's loops that read n and otherwise only slots constant
// in the loop, whose values roundSkip evaluates for every round from the
// template's to the last and requires to be the template's (stop 38:
// ring38; so `if n == 0` leaves every round after the first alike), and
// every access in it names a
// ring-buffered array at n + c along its ring dimension and reads n nowhere
// else (roundStatic); the environment's other slots are those of round r
// (slots outside the loop are constant in it; the body's own loops set
// theirs). (2) Every rule reads only what g preserves. Seed 000 Fig. 7
// visibility: a record's state is its creation replayed on the log from its
// birth, and a check compares thread sets, levels and timelines (g keeps
// threads and timelines, moves cells and positions consistently in the
// records' counts and the events). The queue semantics (Fig. 22): an
// Arrive's count is its cell's a, an Await's Max and New are b.a, b.w and
// N, the same under g. The hardware mbarrier rules (issue 13, mbar.go):
// rule 1 compares an Arrive's thread count with the array's first (not
// moved); rules 4 and 6 compare a phase with the previous phase of the same
// mbarrier (g renames mbarriers and phases together: phaseRecs(ph - 1) is
// found after g iff before) and test phase >= 1 and phase >= 0 of the
// index named, which is not state but the index: roundSkip requires every
// index the template names to be past both (l >= depth), so every later
// round's is. W0608 (an Await before its Arrive) reads b.a. So every check
// of round r + 1 has round r's outcome: it passes, or it fails with the
// same hazard key (statement, other source, kind), a key already in m.seen
// (roundSkip requires the template to add none), so it only adds an
// occurrence to the same Hazard. (3) Hence round r + 1 ends in g(S'), adds
// the template's counters (events, memory operations, records,
// occurrences, per Hazard), and by induction every later round does. The
// hazards and faults of the skipped rounds are exactly the template's keys
// counted again: none is missed (each skipped round's checks are the
// template's, answered the same) and none is invented (no new key: the
// reports are the plain run's first occurrences, made before the skip).
// (4) Bounds: the last skipped round names the template's indices moved
// by k, checked against the arrays' extents (a fault there is left to the
// plain run: no skip).
//
// What the skip makes (roundMake), in the plain run's order: each skipped
// round's events (the template's with cells moved, logged as logEvent
// logs them), each Await's record on its hardware mbarrier (awaitRecord,
// as oneShotAwait makes it, the older phase list freed), the queue
// counts the round leaves (the template's cell values, moved), the
// Result's counters, the generation, ticks and the iterator. The
// ordered-after clocks are turned off for the rest of the task (their
// answers are accelerations of hwOrder's, which answers alone then).
//
// TestRoundSkipMatchesPlain compares whole checks with the skip and
// without on random ring programs and the mbarrier corpus.

// hwNoSkip, set only by a test, turns the skip off; roundSkips counts
// the rounds skipped (tests).
var (
	hwNoSkip   bool
	roundSkips int64
)

// roundSkip is the skip's state (in hwClock, reset with it per task).
type roundSkip struct {
	// roundStatic's answers, by the loop's slot (the loop with it).
	st []rsStatic
	// The last mark of loop recorded: run, task, iterator, log length,
	// the previous round's start (-1: none), the start of the run of
	// rounds that repeat their predecessors (roundSkipAt), the digest
	// (haveDg: taken at that mark) and counters.
	loop              *Stmt
	run               uint64
	task              int32
	n                 int
	pos, ppos, from   int32
	win               int32 // now - the oldest record's birth, when last looked
	wit               rsWit // the oldest record when last looked (rsWitness)
	haveDg            bool
	dg                rsDigest
	events, memOps    int64
	records, skipped  int64
	occ, localOps     int64
	gen               uint64
	tick              uint32
	distinct, hazards int
	faults, seen, bad int
	hz                []int64 // Hazards[i].Occurrences
	moved             []bool  // scratch
	least             []int
	cells             []rsCell
	evs               []rsEv
	rv                rsReserve // the log's reservation (round_reserve.go)
}

// rsCell is a cell the template named, its counts at the template's end
// and the stride g moves it by.
type rsCell struct {
	id, a, w, stride int32
}

// rsEv is a template event's array, stride and Await record source.
type rsEv struct {
	v, stride, src int32
	// An Await's index along the ring less the pre-arrived count, its
	// slice's first mbarrier and the ring's depth (roundMake).
	l, base, depth int32
}

// roundSkipAt is called at the mark of iteration n of loop s (clkRound);
// hi is the loop's bound and can says that nothing of execLoop's own (a
// symmetric or grid nest, hoisted plans) runs with it. It returns true
// when it made the state of rounds n..hi-1 (the loop is then done).
//
// At each mark the round that ends is compared with the one before
// (roundRepeats: the same events, cells moved by g, counts equal): from
// keeps the start of the first round of the current run of repeats. Once
// the log window the digest stands for (from the oldest kept record's
// birth) lies in that run past its first round, the window is its
// predecessor's moved, and the rest of the state is digested
// (rsDigestAt); two marks in a row with equal digests make the skip.
func (m *Machine) roundSkipAt(s *Stmt, hi int, can bool) bool {
	sk := &m.hwClk.sk
	if !m.roundStatic(s) {
		return false // not a loop whose rounds may be skipped: not a round
	}
	n := m.env[s.Slot]
	m.roundReserve(s, n, hi) // with the skip or without: the same sizes
	if hwNoSkip {
		return false
	}
	now := int32(len(m.log))
	if !can || m.cfg.MaxMemOps > 0 {
		sk.loop = nil
		return false
	}
	if !(sk.loop == s && sk.run == m.runs && sk.task == m.task && n == sk.n+1 && sk.pos <= now) {
		// The first mark of the loop's rounds.
		m.roundMark(s, n, now, -1, now, false)
		return false
	}
	prev := sk.pos
	from := sk.from
	if sk.ppos < 0 || !m.roundRepeats(sk.ppos, prev, now) {
		from = prev // the round that ends here starts a new run
	}
	d := now - prev
	// A digest is taken once the log window it stands for (from the
	// oldest kept record's birth lo) lies in the run: lo >= from. Two
	// digests are compared once the later one's window is its
	// predecessor's moved: lo - d >= from, every round in it past the
	// run's first. The earlier digest need not meet that: equal digests
	// have equal window lengths (rsDigest.log), so its window is
	// [lo - d, prev), in the run by the later one's test (stop 40: the
	// three-ring rows took their first digest a round later than they
	// could, and skipped at n = 15 instead of 14).
	if sk.win > 0 && now-sk.win < from {
		// The oldest record's birth, now - win when last looked at, only
		// rises as records are freed: wait for the window to fit the run
		// before looking again (a mark costs no scan of the mbarriers).
		m.roundMark(s, n, now, prev, from, false)
		return false
	}
	if b, ok := m.rsWitness(); ok && b < from {
		// The record that was the oldest when last looked at is still
		// kept, born before the run: the window does not fit (no scan).
		m.roundMark(s, n, now, prev, from, false)
		return false
	}
	lo, ok := m.rsOldest(now)
	sk.win = now - lo
	if !ok || lo < from || !m.roundDescribed(lo) {
		m.roundMark(s, n, now, prev, from, false)
		return false
	}
	// moved and from: the arrays the round that ends here named, and the
	// least index a repeat of it names.
	nv := len(m.vars)
	if cap(sk.moved) < nv {
		sk.moved, sk.least = make([]bool, nv), make([]int, nv)
	}
	moved, least := sk.moved[:nv], sk.least[:nv]
	clear(moved)
	for v := range least {
		least[v] = 1 << 40
	}
	for p := prev; p < now; p++ {
		e := &m.log[p]
		for _, x := range m.evCells[e.c0 : e.c0+e.cn] {
			if v := m.rsVarOf(x.cell); v >= 0 {
				moved[v] = true
				l, _ := m.rsRing(v, x.cell-m.vars[v].bar0)
				least[v] = min(least[v], l-n+1)
			}
		}
	}
	dg := m.rsDigestAt(n, now, lo, moved, least)
	if sk.haveDg && lo-d >= from && dg == sk.dg && m.roundSkip(s, n, hi, prev, now) {
		return true
	}
	sk.dg = dg
	m.roundMark(s, n, now, prev, from, true)
	return false
}

// roundMark records the mark of iteration n of loop s at log length now:
// the previous round's start ppos (-1: none), the run of repeats' start,
// whether sk.dg is this mark's digest, and the counters.
func (m *Machine) roundMark(s *Stmt, n int, now, ppos, from int32, have bool) {
	sk := &m.hwClk.sk
	if sk.loop != s || ppos < 0 {
		sk.win, sk.wit = 0, rsWit{v: -1}
	}
	sk.loop, sk.run, sk.task, sk.n, sk.pos, sk.ppos, sk.from, sk.haveDg = s, m.runs, m.task, n, now, ppos, from, have
	if !have {
		return
	}
	r := &m.res
	sk.events, sk.memOps, sk.records, sk.skipped = r.Stats.Events, r.Stats.MemOps, r.Stats.Records, r.Stats.SkippedOps
	sk.occ, sk.localOps, sk.gen, sk.tick = r.Occurrences, m.localOps, m.gen, m.tick
	sk.distinct, sk.hazards, sk.faults, sk.seen, sk.bad = r.Distinct, len(r.Hazards), len(r.Faults), len(m.seen), len(m.reuseBad)
	sk.hz = sk.hz[:0]
	for i := range r.Hazards {
		sk.hz = append(sk.hz, r.Hazards[i].Occurrences)
	}
}

// roundRepeats reports whether the round [p, now) repeats the round
// [pp, p): the same events (kind, threads, timeline sets) with the same
// counts. Their cells are the previous round's moved by g: roundStatic
// holds, so the rounds execute the same statements (no control reads the
// iterator; only a stopped run executes fewer, and a stopped run is not
// skipped), each naming its array one index further along the ring
// dimension; the counts are what the state decides.
func (m *Machine) roundRepeats(pp, p, now int32) bool {
	if now-p != p-pp {
		return false
	}
	for t := int32(0); t < p-pp; t++ {
		a, b := &m.log[pp+t], &m.log[p+t]
		if a.kind != b.kind || a.trans != b.trans || a.ptq != b.ptq || a.exec != b.exec || a.pre != b.pre ||
			a.full != b.full || a.temp != b.temp || a.cn != b.cn {
			return false
		}
		for i := int32(0); i < a.cn; i++ {
			if m.evCells[a.c0+i].count != m.evCells[b.c0+i].count {
				return false
			}
		}
	}
	return true
}

// roundSkip makes the state of rounds n..hi-1 from the template round
// [t0, t1) (iteration n-1), when the template added no hazard key, no
// fault, and every index it named is past the pre-arrived and first
// phases and stays in its array for the rounds skipped.
func (m *Machine) roundSkip(s *Stmt, n, hi int, t0, t1 int32) bool {
	sk := &m.hwClk.sk
	r := &m.res
	k := hi - n
	if k <= 0 || t1 <= t0 || r.Distinct != sk.distinct || len(r.Hazards) != sk.hazards || len(r.Faults) != sk.faults ||
		len(m.seen) != sk.seen || len(m.reuseBad) != sk.bad {
		return false
	}
	// The conditions on the iterator (roundStatic1, stop 38): each has
	// the template's value (iteration n-1) in every round skipped, so
	// every round skipped executes the template's statements (the
	// argument's (1)); one that changes in the range is not skipped.
	if conds := sk.st[s.Slot].conds; len(conds) > 0 {
		save, same := m.env[s.Slot], true
		for _, x := range conds {
			m.env[s.Slot] = n - 1
			v := x.Cond(m.env)
			for i := n; i < hi && same; i++ {
				m.env[s.Slot] = i
				same = x.Cond(m.env) == v
			}
		}
		m.env[s.Slot] = save
		if !same {
			return false
		}
	}
	// The template's events and cells: each cell on a ring-buffered array
	// (one index a block along the ring dimension: g adds the dimension's
	// stride to its id), past phase 0, in bounds after k more rounds; the
	// counts the template left on it; each Await's record (its source):
	// an Await of a logical barrier already arrived made one (oneShotAwait;
	// every index here is), and one not found is not skipped.
	sk.cells, sk.evs = sk.cells[:0], sk.evs[:0]
	for p := t0; p < t1; p++ {
		e := &m.log[p]
		if e.kind == KFence {
			sk.evs = append(sk.evs, rsEv{})
			continue
		}
		if e.cn != 1 {
			return false
		}
		x := m.evCells[e.c0]
		v := m.rsVarOf(x.cell)
		if v < 0 {
			return false
		}
		pv, st := &m.p.Vars[v], &m.vars[v]
		if pv.RingDepth == 0 || pv.RingDim >= len(st.dims) || st.gran[pv.RingDim] != 1 {
			return false
		}
		l, _ := m.rsRing(v, x.cell-st.bar0)
		if l < pv.RingDepth || l+pv.PreArrive+k >= st.dims[pv.RingDim] {
			return false
		}
		stride := int32(st.strides[pv.RingDim])
		b := &m.bars[x.cell]
		sk.cells = append(sk.cells, rsCell{id: x.cell, a: b.a, w: b.w, stride: stride})
		src := int32(-1)
		if e.kind == KAwait {
			phys, _, _ := m.oneShotSlot(v, x.cell-st.bar0)
			hb := m.physBar(v, phys)
			for _, sl := range hb.slots {
				for _, h := range sl {
					if h.born == p {
						src = m.rec(h.rec).src
					}
				}
			}
			if src < 0 {
				return false
			}
		}
		sk.evs = append(sk.evs, rsEv{v: int32(v), stride: stride, src: src})
	}
	if mx := m.cfg.MaxMemory; mx > 0 {
		// The skipped rounds' state stays far below the limit (the plain
		// run tests it every 256 loop iterations; so would it fail
		// none of them): twice its events, counts and records.
		d := int64(t1-t0) * int64(k)
		if 4*(m.MemoryBytes()+d*(eventBytes+2*pendBytes+recordBytes)) > mx {
			return false
		}
	}
	m.hwClk.off = true // the clocks: hwOrder answers for the rest of the task
	m.roundMake(n, k, t0, t1)
	// The counters: k times the template's.
	kk := int64(k)
	r.Stats.Events += kk * (r.Stats.Events - sk.events)
	r.Stats.MemOps += kk * (r.Stats.MemOps - sk.memOps)
	r.Stats.Records += kk * (r.Stats.Records - sk.records)
	r.Stats.SkippedOps += kk * (r.Stats.SkippedOps - sk.skipped)
	r.Occurrences += kk * (r.Occurrences - sk.occ)
	m.localOps += kk * (m.localOps - sk.localOps)
	for i := range r.Hazards {
		r.Hazards[i].Occurrences += kk * (r.Hazards[i].Occurrences - sk.hz[i])
	}
	// Generation and ticks: iteration n's were counted at its mark; the
	// last iteration's next one is not.
	dg, dt := m.gen-sk.gen, m.tick-sk.tick
	m.gen += uint64(k)*dg - 1
	m.tick += uint32(k) * dt
	m.env[s.Slot] = hi - 1
	roundSkips += kk
	sk.loop = nil
	return true
}

// roundMake logs rounds n..n+k-1 as the template [t0, t1) moved by 1..k:
// each event with its cells moved, each Await's record made (as
// oneShotAwait makes it) before its event, and the cells' counts set to
// the template's at its end, moved.
//
// In bulk (stop 38: ring38; the per-event calls were ~330 instructions an
// event): the log and the cells are grown once, to the capacity the plain
// run's grow2 steps reach (the same Stats.Memory); when none of
// logEvent's frames is open (no grid group, thread group or grid
// virtualization: roundDescribed refuses most of them, and the template
// ran under the same) an event is appended as logEvent appends it, its
// task run opened where the task changes; an Await's hardware mbarrier
// and phase come from its index l + j along the ring (oneShotSlot's
// arithmetic for l >= 0, which roundSkip requires), the mbarrier looked
// up once per slot.
func (m *Machine) roundMake(n, k int, t0, t1 int32) {
	sk := &m.hwClk.sk
	d := int(t1 - t0)
	nc := 0
	for p := t0; p < t1; p++ {
		nc += int(m.log[p].cn)
	}
	m.log = growTo(m.log, len(m.log)+k*d)
	m.evCells = growTo(m.evCells, len(m.evCells)+k*nc)
	plain := !m.gvAny && len(m.grpFrames) == 0 && len(m.tgFrames) == 0
	for p := t0; p < t1; p++ {
		e := &m.log[p]
		te := &sk.evs[p-t0]
		if e.kind != KAwait {
			continue
		}
		v := int(te.v)
		pv, st := &m.p.Vars[v], &m.vars[v]
		l, slice := m.rsRing(v, m.evCells[e.c0].cell-st.bar0)
		te.l, te.base, te.depth = int32(l), int32(slice*pv.RingDepth), int32(pv.RingDepth)
	}
	for j := int32(1); j <= int32(k); j++ {
		for p := t0; p < t1; p++ {
			t := &m.log[p] // the template's event (the log has room: not moved)
			c0 := t.c0
			if t.kind != KFence {
				te := &sk.evs[p-t0]
				x := m.evCells[t.c0]
				if t.kind == KAwait {
					// The record before its event (its birth is the
					// event's index, as oneShotAwait makes it).
					l := te.l + j
					ph := l / te.depth
					hb := m.physBar(int(te.v), te.base+l-ph*te.depth)
					if ph > hb.awaited {
						hb.awaited = ph
					}
					kp := ph & 1
					if hb.phases[kp] != ph {
						for _, h := range hb.slots[kp] {
							m.freeHW(h)
						}
						hb.slots[kp], hb.phases[kp] = hb.slots[kp][:0], ph
					}
					hb.slots[kp] = append(hb.slots[kp], m.awaitRecordOf(te.src, t.exec))
				}
				c0 = int32(len(m.evCells))
				m.evCells = append(m.evCells, pend{cell: x.cell + j*te.stride, count: x.count})
			}
			if !plain {
				e := *t
				e.c0 = c0
				m.logEvent(e, e.ptq)
				continue
			}
			// In place (room made above): logAppend's append without
			// the event's two copies.
			i := len(m.log)
			m.log = m.log[:i+1]
			e := &m.log[i]
			*e = *t
			e.c0 = c0
			if k := len(m.taskRuns); k == 0 || m.taskRuns[k-1].task != e.exec.task {
				m.taskRuns = append(m.taskRuns, taskRun{start: int32(i), task: e.exec.task})
			}
		}
		for _, c := range sk.cells {
			b := &m.bars[c.id+j*c.stride]
			b.a, b.w = c.a, c.w
		}
	}
}

// growTo returns s with room for n elements, at the capacity append's
// grow2 steps would have reached (the plain run's, so Stats.Memory is the
// same), in one allocation.
func growTo[T any](s []T, n int) []T {
	c := cap(s)
	if c >= n {
		return s
	}
	for c < n {
		c = 2*c + 256
	}
	t := make([]T, len(s), c)
	copy(t, s)
	return t
}

// roundStatic reports whether loop s's body is one roundSkip can move
// (the argument's (1)): its control reads no iterator of s but in the
// conditions of Ifs outside the body's loops (returned by roundStatic1;
// roundSkip evaluates them over the rounds skipped: stop 38); every
// statement is a block, an If, a loop that is not a task loop, a Fence,
// an Await or a one-barrier Arrive on a ring-buffered array, or a dead
// statement on one of those accesses; no TMA byte count; every access
// names its array at s's iterator plus terms of other slots along the
// ring dimension (coefficient 1) and reads the iterator nowhere else.
func (m *Machine) roundStatic(s *Stmt) bool {
	sk := &m.hwClk.sk
	if s.Slot < len(sk.st) && sk.st[s.Slot].s == s {
		return sk.st[s.Slot].ok // by the loop's slot: one look a mark
	}
	ok, conds := m.roundStatic1(s)
	for len(sk.st) <= s.Slot {
		sk.st = append(sk.st, rsStatic{})
	}
	sk.st[s.Slot] = rsStatic{s, ok, conds}
	return ok
}

// rsStatic is roundStatic's answer for a loop, with the Ifs of its body
// whose conditions read its iterator (roundSkip evaluates them).
type rsStatic struct {
	s     *Stmt
	ok    bool
	conds []*Stmt
}

func (m *Machine) roundStatic1(s *Stmt) (bool, []*Stmt) {
	var accs []*Access
	var conds []*Stmt // the Ifs whose conditions read the iterator
	var inner []int   // the slots of the loops in the body
	var walk func(body []*Stmt, inLoop bool) bool
	walk = func(body []*Stmt, inLoop bool) bool {
		for _, x := range body {
			for _, sl := range x.CtlSlots {
				if sl != s.Slot {
					continue
				}
				// A condition on the iterator (stop 38): allowed on an
				// If outside the body's loops, whose value roundSkip
				// requires to be the template's in every round skipped.
				if x.Kind != KIf || inLoop {
					return false
				}
				if len(conds) == 0 || conds[len(conds)-1] != x {
					conds = append(conds, x)
				}
			}
			if x.TxBytes != 0 || x.TxCheck {
				return false
			}
			switch {
			case x.Kind == KBlock || x.Kind == KIf:
			case x.Kind == KLoop:
				// Not a task loop, and not itself a loop of rounds (the
				// loops followed never nest).
				if x.Tasks || m.roundStatic(x) {
					return false
				}
				inner = append(inner, x.Slot)
			case x.Kind == KFence:
			case x.Kind == KAwait && x.Acc != nil:
				if !m.roundAccess(s, x.Acc) {
					return false
				}
				accs = append(accs, x.Acc)
			case x.Kind == KArrive && len(x.Bars) == 1:
				if !m.roundAccess(s, x.Bars[0]) {
					return false
				}
				accs = append(accs, x.Bars[0])
			case x.Kind == kRun:
				// A fused run: its statements are in Body (below).
			case x.dead:
			default:
				return false
			}
			in := inLoop || x.Kind == KLoop
			if !walk(x.Body, in) || !walk(x.fused, in) {
				return false
			}
		}
		return true
	}
	ok := walk(s.Body, false) && walk(s.fused, false)
	// Dead statements only on the events' own accesses (their bounds are
	// the events'): a second walk, now that accs is complete.
	var deadOn func(body []*Stmt) bool
	deadOn = func(body []*Stmt) bool {
		for _, x := range body {
			if x.dead && x.Kind != kRun {
				if x.Acc != nil && !containsAcc(accs, x.Acc) {
					return false
				}
				for _, a := range x.Bars {
					if !containsAcc(accs, a) {
						return false
					}
				}
			}
			if !deadOn(x.Body) || !deadOn(x.fused) {
				return false
			}
		}
		return true
	}
	if !ok || !deadOn(s.Body) || !deadOn(s.fused) {
		return false, nil
	}
	// A condition reads the iterator and otherwise only slots constant in
	// the loop (none of its loops' iterators): its value in a round is a
	// function of the round's n.
	for _, x := range conds {
		for _, sl := range x.CtlSlots {
			for _, y := range inner {
				if sl == y {
					return false, nil
				}
			}
		}
	}
	return true, conds
}

func containsAcc(xs []*Access, a *Access) bool {
	for _, x := range xs {
		if x == a {
			return true
		}
	}
	return false
}

// roundAccess reports whether a names a ring-buffered array at s's
// iterator (coefficient 1) along its ring dimension, by affine points,
// and reads the iterator in no other window.
func (m *Machine) roundAccess(s *Stmt, a *Access) bool {
	pv := &m.p.Vars[a.Var]
	if pv.RingDepth == 0 || pv.RingDim >= len(a.Idx) {
		return false
	}
	for k := range a.Idx {
		w := &a.Idx[k]
		if w.LoAff == nil || w.Hi != nil {
			return false
		}
		coef := 0
		for _, t := range w.LoAff.Terms {
			if t.Slot == s.Slot {
				coef += t.Coef
			}
		}
		if k == pv.RingDim && coef != 1 || k != pv.RingDim && coef != 0 {
			return false
		}
	}
	return true
}
