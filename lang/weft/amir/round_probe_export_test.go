package amir

import "fmt"

var RoundDebug func(string)

// The whole-round probe (issue 13, stop 37: ring37; docs/weft-sync.md
// "Stop 37: ring37"). At each mark of a round (clkRound), it digests the
// state of the machine that a verdict depends on, relative to the round:
// the queue counts, the hardware mbarriers of the ring-buffered arrays
// with their Await records, the log from the oldest of those records'
// stamps, and the Result's counters. A logical barrier index L of a
// ring-buffered array is written relative to the loop's iterator n
// (L - n), a log position p relative to the log length P0 at the mark
// (p - P0), so that round r + 1's digest equals round r's exactly when the
// state at its start is round r's moved by the ring stride (g: L -> L + 1,
// p -> p + d): the "test of repetition" of a whole-round skip. The
// counters are given raw (a round's effect on them is the difference of
// two marks).
//
// What is left out, and why: the ordered-after clocks (mbar_clock.go) and
// every cache keyed by Machine.gen (the Access caches, the replay memo,
// the one-thread replay class, the read-creator index) are accelerations
// whose answers equal the plain path's (their differential tests); the
// clocks' own repetition is ring35's (mbar_round.go). A state this probe
// does not describe (records on data cells, thread or grid symmetry, a lag
// ring's per-thread counters, per-thread queues, a later task of a
// symmetric loop) is marked not OK: never equal to anything.

// RoundDigest is the machine's state at the mark of a round (above).
type RoundDigest struct {
	Run  uint64 // Machine.runs
	Loop int    // the loop's source
	Task int32  // the task running
	N    int    // the loop's iterator at the mark
	Pos  int    // the log length at the mark
	OK   bool   // a state the probe describes (else never equal)
	// The parts, relative to the round (hashes).
	Queues, Phys, Log uint64
	// The counters, raw.
	Events, MemOps, Records, Occ int64
	Distinct, Hazards, Seen      int
	Stop                         bool
}

// Same reports that e's state is d's moved by one round (the parts equal,
// both described). Without Phys, Queues or Log (parts true), that part
// is not compared (to weaken the test by hand).
func (d RoundDigest) Same(e RoundDigest, parts [3]bool) bool {
	return d.OK && e.OK && d.Run == e.Run && d.Loop == e.Loop && d.Task == e.Task && e.N == d.N+1 &&
		(!parts[0] || d.Queues == e.Queues) && (!parts[1] || d.Phys == e.Phys) && (!parts[2] || d.Log == e.Log)
}

// RoundProbe, with f non-nil, calls f from now on at each mark of a round
// with the digest of the machine's state there; with f nil it stops.
func RoundProbe(f func(RoundDigest)) {
	if f == nil {
		roundProbe = nil
		return
	}
	last := map[*Stmt][2]uint64{} // by loop: the run and log length of its last mark
	roundProbe = func(m *Machine, s *Stmt) {
		prev := int32(len(m.log))
		if x, ok := last[s]; ok && x[0] == m.runs && int32(x[1]) <= prev {
			prev = int32(x[1])
		}
		last[s] = [2]uint64{m.runs, uint64(len(m.log))}
		f(m.roundDigest(s, prev))
	}
}

// prHash hashes 64-bit words, each through murmur3's finalizer (the
// parts that are sums of items' hashes need every bit mixed: FNV-1a's
// sums collided on cells moved by one).
type prHash uint64

func newPRHash() prHash { return 14695981039346656037 }

func (h *prHash) mix(xs ...int64) {
	for _, x := range xs {
		z := uint64(*h) ^ uint64(x)
		z += 0x9e3779b97f4a7c15
		z ^= z >> 33
		z *= 0xff51afd7ed558ccd
		z ^= z >> 33
		z *= 0xc4ceb9fe1a85ec53
		z ^= z >> 33
		*h = prHash(z)
	}
}

// roundDigest digests the state at a mark of loop s; prev is the log
// length at the loop's previous mark in this run (the start of the round
// that ends here), or the log length now.
func (m *Machine) roundDigest(s *Stmt, prev int32) RoundDigest {
	n := m.env[s.Slot]
	p0 := int32(len(m.log))
	d := RoundDigest{
		Run: m.runs, Loop: s.Src, Task: m.task, N: n, Pos: int(p0),
		Events: m.res.Stats.Events, MemOps: m.res.Stats.MemOps, Records: m.res.Stats.Records,
		Occ: m.res.Occurrences, Distinct: m.res.Distinct, Hazards: len(m.res.Hazards), Seen: len(m.seen),
		Stop: m.stop,
	}
	if RoundDebug != nil {
		RoundDebug(fmt.Sprint("mark ", n, " ", s.Src))
	}
	d.OK = !m.lite && !m.thAny && !m.gvAny && !m.grpAny && !m.inVirt && !m.inGrid && len(m.tgFrames) == 0
	// lo: the log from the round's start (the records kept are given
	// replayed to the mark, below).
	lo := min(prev, p0)
	// varOf is the live barrier variable of queue id (-1: none).
	varOf := func(id int32) int {
		for v := range m.vars {
			st := &m.vars[v]
			if st.live && m.p.Vars[v].Barrier && id >= st.bar0 && id < st.bar0+int32(st.total) {
				return v
			}
		}
		return -1
	}
	// moved[v]: the events of the log from lo name v's cells, so g moves
	// them by the ring stride (L -> L + 1); the others it keeps.
	moved := make([]bool, len(m.vars))
	for p := lo; p < p0; p++ {
		e := &m.log[p]
		for _, c := range m.evCells[e.c0 : e.c0+e.cn] {
			if v := varOf(c.cell); v >= 0 && m.p.Vars[v].RingDepth > 0 {
				moved[v] = true
			}
		}
	}
	// from[v]: the least index (rel, below) of v's cells that the next
	// round may name: the round that ends here named them from from[v] - 1
	// on (relative to n); a cell below it is left behind (never named
	// again by a round that repeats this one) and is not compared.
	from := make([]int64, len(m.vars))
	for v := range from {
		from[v] = 1 << 40
	}
	// cls: the phase class (pre-arrived, 0, later) of each cell the next
	// round names, if it names the cells of the round that ends here moved
	// by one: the rules test phase >= 0 (rule 6 has a previous phase) and
	// phase >= 1 (rule 4), a function of the index, not of the state.
	cls := newPRHash()
	for p := prev; p < p0; p++ {
		e := &m.log[p]
		for _, c := range m.evCells[e.c0 : e.c0+e.cn] {
			if v := varOf(c.cell); v >= 0 && moved[v] && m.p.Vars[v].RingDim < len(m.vars[v].dims) {
				l, _ := m.oneShotCoords(&m.p.Vars[v], &m.vars[v], c.cell-m.vars[v].bar0)
				from[v] = min(from[v], int64(l-n)+1)
				ph := -1
				if l+1 >= 0 {
					ph = min((l+1)/m.p.Vars[v].RingDepth, 1)
				}
				cls.mix(int64(ph))
			}
		}
	}
	// A round whose control reads n (a condition, a loop bound, a
	// thread set) may do something else next time, whatever the state.
	var readsN func(body []*Stmt) bool
	readsN = func(body []*Stmt) bool {
		for _, x := range body {
			for _, sl := range x.CtlSlots {
				if sl == s.Slot {
					return true
				}
			}
			if readsN(x.Body) {
				return true
			}
		}
		return false
	}
	if readsN(s.Body) {
		d.OK = false
	}
	// rel is the index of cell c of v (its flat index, or along the ring
	// dimension relative to n when v is moved) and its slice.
	rel := func(v int, c int32) (int64, int64) {
		st := &m.vars[v]
		pv := &m.p.Vars[v]
		if !moved[v] || pv.RingDim >= len(st.dims) {
			return int64(c), -1
		}
		l, slice := m.oneShotCoords(pv, st, c)
		return int64(l - n), int64(slice)
	}
	cellRel := func(h *prHash, id int32) {
		v := varOf(id)
		if v < 0 {
			h.mix(-2, int64(id))
			return
		}
		r, slice := rel(v, id-m.vars[v].bar0)
		h.mix(int64(v), slice, r)
	}
	// Queues: every live barrier cell that is neither untouched (0, 0)
	// nor done (1, 1) on a ring-buffered array, keyed by its index (rel);
	// every cell of another barrier array. Summed: a cell's place in the
	// order changes with g.
	var queues uint64
	for v := range m.vars {
		st := &m.vars[v]
		pv := &m.p.Vars[v]
		if !st.live {
			continue
		}
		if !pv.Barrier {
			if st.hasRecs || st.lazy || st.lzN > 0 {
				d.OK = false // records on data cells: not described
			}
			continue
		}
		if len(st.hw) > 0 || pv.PerThreadQueue || pv.Ring > 0 && pv.RingDepth == 0 {
			d.OK = false // a lag ring's counters, per-thread queues
		}
		h := newPRHash()
		h.mix(int64(v), int64(st.hwCount), int64(st.hwSrc))
		queues += uint64(h)
		ring := pv.RingDepth > 0
		for c := int32(0); c < int32(st.total); c++ {
			b := m.bars[st.bar0+c]
			if b.ext != 0 {
				d.OK = false
			}
			if ring && (b.a == 0 && b.w == 0 || b.a == 1 && b.w == 1) && b.freed == 0 {
				continue
			}
			r, slice := rel(v, c)
			if moved[v] && slice >= 0 && r < from[v] {
				continue // left behind
			}
			h := newPRHash()
			h.mix(int64(v), slice, r, int64(b.a), int64(b.w), int64(b.freed))
			queues += uint64(h)
			if RoundDebug != nil {
				RoundDebug(fmt.Sprint("q ", v, " ", slice, " ", r, " ", b))
			}
		}
	}
	d.Queues = queues
	// Phys: each hardware mbarrier of a ring-buffered array in use, keyed
	// by the index of its newest phase (relative to n when the array is
	// moved); its awaited phase and its two phase lists (older first),
	// and their Await records. Summed: g rotates
	// the mbarriers of a moved array among its slots.
	//
	// A record is given replayed to the mark (a copy of it: the machine
	// replays lazily, and how far it has is not state), its grants and
	// counts sorted (a join and a least count per cell: their order is
	// not read).
	var phys uint64
	recHash := func(h *prHash, i int32) {
		r := *m.rec(i)
		r.grants = append(make([]grant, 0, len(r.grants)+8), r.grants...)
		r.pend = append(make([]pend, 0, len(r.pend)+8), r.pend...)
		if k := searchFrom(m.freeMarks, r.stamp); k < len(m.freeMarks) {
			d.OK = false // a queue died since: dropDeadPends, not described
		}
		for p := r.stamp; p < p0; p++ {
			m.apply(&r, &m.log[p])
		}
		h.mix(int64(r.src), int64(r.q), int64(r.level), int64(r.atomic),
			int64(r.creator.task), int64(r.creator.start), int64(r.creator.shape),
			int64(r.reach), int64(r.grp), int64(len(r.grants)), int64(len(r.pend)))
		var gs, ps uint64
		for _, g := range r.grants {
			x := newPRHash()
			x.mix(int64(g.th.task), int64(g.th.start), int64(g.th.shape), int64(g.full), int64(g.temp))
			gs += uint64(x)
		}
		for _, p := range r.pend {
			x := newPRHash()
			cellRel(&x, p.cell)
			x.mix(int64(p.count))
			ps += uint64(x)
		}
		h.mix(int64(gs), int64(ps))
	}
	for v := range m.vars {
		st := &m.vars[v]
		pv := &m.p.Vars[v]
		if !st.live || pv.RingDepth == 0 {
			continue
		}
		depth := int32(pv.RingDepth)
		for i, hb := range st.hwPhys {
			if hb == nil || hb.awaited == -1 && hb.phases == [2]int32{-3, -3} {
				continue
			}
			slot, slice := int32(i)%depth, int32(i)/depth
			relPh := func(ph int32) int64 {
				if ph == -3 {
					return -1 << 40 // no phase kept
				}
				if !moved[v] {
					return int64(ph*depth + slot)
				}
				return int64(ph*depth+slot) - int64(n)
			}
			ks := [2]int{0, 1}
			if hb.phases[1] < hb.phases[0] {
				ks = [2]int{1, 0}
			}
			h := newPRHash()
			h.mix(int64(v), int64(slice), relPh(hb.phases[ks[1]]))
			if hb.awaited < 0 {
				h.mix(-1 << 41)
			} else {
				h.mix(relPh(hb.awaited))
			}
			for _, k := range ks {
				ph := hb.phases[k]
				recs := hb.slots[k]
				if ph == -3 {
					recs = nil
				}
				h.mix(relPh(ph), int64(len(recs)))
				if RoundDebug != nil {
					RoundDebug(fmt.Sprint("p ", v, " ", slice, " ", relPh(hb.phases[ks[1]]), " k ", relPh(ph), len(recs), " aw ", hb.awaited))
					for _, x := range recs {
						r := m.rec(x.rec)
						RoundDebug(fmt.Sprint("pr ", x.born-p0, " ", r.src, r.creator, x.tmpl))
					}
				}
				for _, x := range recs {
					h.mix(int64(x.born-p0), int64(x.tmpl))
					recHash(&h, x.rec)
					if x.tmpl >= 0 {
						d.OK = false // a frozen copy (hwSettle): not described
					}
				}
			}
			phys += uint64(h)
		}
	}
	d.Phys = phys
	// Log: the events from lo, relative to P0, and the classes cls.
	lh := newPRHash()
	lh.mix(int64(p0-lo), int64(cls))
	for p := lo; p < p0; p++ {
		e := &m.log[p]
		lh.mix(int64(e.kind), b2i(e.trans), b2i(e.ptq), int64(e.exec.task), int64(e.exec.start), int64(e.exec.shape),
			int64(e.pre), int64(e.full), int64(e.temp), int64(e.cn))
		for _, c := range m.evCells[e.c0 : e.c0+e.cn] {
			cellRel(&lh, c.cell)
			lh.mix(int64(c.count))
		}
	}
	d.Log = uint64(lh)
	return d
}
