package amir

// The state of the machine at a round's start, relative to the round
// (issue 13, stop 37: ring37; the argument is at the head of
// round_skip.go). A logical barrier index L of a ring-buffered array that
// the round names is written relative to the loop's iterator n (L - n), a
// log position p relative to the log length P0 at the mark (p - P0): round
// r + 1's digest equals round r's exactly when the state at its start is
// round r's moved by g (L -> L + 1 on the arrays the round names, p -> p +
// d), up to hash collisions (64-bit sums of 64-bit mixes).
//
// What is digested (each part a verdict reads):
//
//   - Queues: every live barrier cell, with its arrive and await counts,
//     except the cells of a moved array that are untouched (0, 0), done
//     (1, 1), or left behind (below every index the round names, moved by
//     one: a round that repeats this one never names them again); with
//     each array's Arrive thread count (rule 1).
//   - Phys: each hardware mbarrier of a ring-buffered array in use, keyed
//     by the index of its newest phase; its awaited phase and its two
//     phase lists (older first) with their Await records: each record as
//     awaitRecord made it (source, creator, level) and its birth. A
//     record's state at any stamp is that one replayed on the log from its
//     birth (Definition 5.3; how far the machine has replayed it lazily is
//     not state), and the log from the oldest birth is part Log.
//   - Log: the events from the oldest birth of a kept record, relative.
//     The digest holds only the window's length: roundSkipAt compares the
//     events themselves, round by round as the rounds end (roundRepeats):
//     when every round since the window's start repeated its
//     predecessor's events moved by g, the window is its predecessor's.
//
// The ordered-after clocks (mbar_clock.go) and every cache keyed by
// Machine.gen (the Access caches, the replay memo and class, the
// read-creator index) are left out: their answers equal the plain path's
// (their differential tests). A state this digest does not describe is
// refused by roundDescribed.

// rdHash hashes 64-bit words (a multiply and a shift each); fin mixes
// every bit of an item's hash (murmur3's finalizer) before the items are
// summed: FNV-1a's sums had collided on cells moved by one.
type rdHash uint64

const rdHash0 rdHash = 14695981039346656037

func (h *rdHash) mix(x int64) {
	z := (uint64(*h) ^ uint64(x)) * 0x9e3779b97f4a7c15
	*h = rdHash(z ^ z>>29)
}

func (h *rdHash) mix3(a, b, c int64) {
	h.mix(a)
	h.mix(b)
	h.mix(c)
}

func (h rdHash) fin() uint64 {
	z := uint64(h)
	z ^= z >> 33
	z *= 0xff51afd7ed558ccd
	z ^= z >> 33
	z *= 0xc4ceb9fe1a85ec53
	return z ^ z>>33
}

// rsDigest is the state at a mark (above).
type rsDigest struct {
	queues, phys uint64
	log          int32 // the log window's length (above)
}

// roundDescribed reports whether the machine's state is of the kind the
// digest describes: no data records, no thread or grid symmetry state, no
// lag ring, per-thread queue, frozen Await record (hwSettle) or later
// task of a symmetric loop, no queue death since from.
func (m *Machine) roundDescribed(from int32) bool {
	if m.lite || m.hwOnly || m.thAny || m.gvAny || m.grpAny || m.inVirt || m.inGrid || len(m.tgFrames) > 0 || m.stop {
		return false
	}
	if k := len(m.freeMarks); k > 0 && m.freeMarks[k-1] >= from {
		return false
	}
	for v := range m.vars {
		st := &m.vars[v]
		pv := &m.p.Vars[v]
		if !st.live {
			continue
		}
		if !pv.Barrier {
			if st.hasRecs || st.lazy || st.lzN > 0 {
				return false
			}
			continue
		}
		if len(st.hw) > 0 || pv.PerThreadQueue || pv.Ring > 0 && pv.RingDepth == 0 {
			return false
		}
	}
	return true
}

// rsOldest is the oldest birth of an Await record kept on a hardware
// mbarrier of a ring-buffered array (now when none); ok is false when one
// has a frozen copy (hwSettle), which the digest does not describe. It
// notes where the oldest record is (rsWitness).
func (m *Machine) rsOldest(now int32) (lo int32, ok bool) {
	lo = now
	w := rsWit{v: -1}
	for v := range m.vars {
		st := &m.vars[v]
		if !st.live || m.p.Vars[v].RingDepth == 0 {
			continue
		}
		for i, hb := range st.hwPhys {
			if hb == nil {
				continue
			}
			for k := range hb.slots {
				if hb.phases[k] == -3 {
					continue
				}
				for j, x := range hb.slots[k] {
					if x.tmpl >= 0 {
						return lo, false
					}
					if x.born < lo {
						lo = x.born
						w = rsWit{v: int32(v), i: int32(i), k: int32(k), j: int32(j), rec: x.rec, born: x.born}
					}
				}
			}
		}
	}
	m.hwClk.sk.wit = w
	return lo, true
}

// rsWit is where rsOldest found the oldest record: variable, mbarrier,
// phase list, position, the record and its birth.
type rsWit struct {
	v, i, k, j, rec, born int32
}

// rsWitness reports the birth of the record rsOldest last found oldest,
// when it is still kept where it was (stop 38: ring38). The oldest birth
// is then at most that one: a window that did not fit still does not,
// and the mark costs no scan (rows 1-3: 3 scans a check instead of 8).
// A record freed and its slot reused has another birth (births are log
// positions, made in order; hwSettle's are the log's length).
func (m *Machine) rsWitness() (int32, bool) {
	w := &m.hwClk.sk.wit
	if w.v < 0 || int(w.v) >= len(m.vars) {
		return 0, false
	}
	st := &m.vars[w.v]
	if !st.live || int(w.i) >= len(st.hwPhys) || st.hwPhys[w.i] == nil {
		return 0, false
	}
	hb := st.hwPhys[w.i]
	if hb.phases[w.k] == -3 || int(w.j) >= len(hb.slots[w.k]) {
		return 0, false
	}
	if x := hb.slots[w.k][w.j]; x.rec != w.rec || x.born != w.born {
		return 0, false
	}
	return w.born, true
}

// rsVarOf is the live barrier variable holding queue id (-1: none).
func (m *Machine) rsVarOf(id int32) int {
	for v := range m.vars {
		st := &m.vars[v]
		if st.live && id >= st.bar0 && id < st.bar0+int32(st.total) && m.p.Vars[v].Barrier {
			return v
		}
	}
	return -1
}

// rsRing is cell c's index along v's ring dimension less the pre-arrived
// count (l), and its slice.
func (m *Machine) rsRing(v int, c int32) (l, slice int) {
	pv, st := &m.p.Vars[v], &m.vars[v]
	if len(st.dims) == 2 && st.gran[0] == 1 && st.gran[1] == 1 {
		// As oneShotSlot's fast path: c = i*strides[0] + j.
		i := int(c) / st.strides[0]
		j := int(c) - i*st.strides[0]
		if pv.RingDim == 0 {
			return i - pv.PreArrive, j
		}
		return j - pv.PreArrive, i
	}
	return m.oneShotCoords(pv, st, c)
}

// rsDigestAt digests the state at a mark of a loop whose iterator is n,
// with the log length p0; moved[v] says that g moves v's cells (the round
// names them), from[v] is the least index (l - n) a round that repeats the
// last one names on a moved array, lo the oldest birth (rsOldest).
func (m *Machine) rsDigestAt(n int, p0, lo int32, moved []bool, from []int) rsDigest {
	var d rsDigest
	for v := range m.vars {
		st := &m.vars[v]
		pv := &m.p.Vars[v]
		if !st.live || !pv.Barrier {
			continue
		}
		h := rdHash0
		h.mix3(int64(v), int64(st.hwCount), int64(st.hwSrc))
		d.queues += h.fin()
		ring := pv.RingDepth > 0
		bars := m.bars[st.bar0 : st.bar0+int32(st.total)]
		for c := range bars {
			b := &bars[c]
			if ring && b.freed == 0 && b.a == b.w && uint32(b.a) <= 1 {
				continue // untouched (0, 0) or done (1, 1)
			}
			h := rdHash0
			if moved[v] {
				l, slice := m.rsRing(v, int32(c))
				if l-n < from[v] {
					continue // left behind
				}
				h.mix(int64(v)<<32 | int64(uint32(slice)))
				h.mix(int64(l - n))
			} else {
				h.mix(int64(v)<<32 | 1<<31)
				h.mix(int64(c))
			}
			h.mix(int64(b.a)<<32 | int64(uint32(b.w)))
			h.mix(int64(b.freed))
			d.queues += h.fin()
		}
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
			// An index relative to n (moved) or not: the rotation of g
			// is in the index, phase * depth + slot.
			base := int64(slot)
			if moved[v] {
				base -= int64(n)
			}
			ks := [2]int{0, 1}
			if hb.phases[1] < hb.phases[0] {
				ks = [2]int{1, 0}
			}
			// (Words of two 32-bit fields each, a field's two's
			// complement in the low half: one mix a pair, stop 38.)
			h := rdHash0
			h.mix(int64(v)<<32 | int64(uint32(slice)))
			h.mix(int64(hb.phases[ks[1]]*depth) + base)
			if hb.awaited < 0 {
				h.mix(-1 << 41)
			} else {
				h.mix(int64(hb.awaited*depth) + base)
			}
			for _, k := range ks {
				ph := hb.phases[k]
				if ph == -3 {
					h.mix(-1 << 40) // no phase kept
					continue
				}
				h.mix(int64(ph*depth) + base)
				h.mix(int64(len(hb.slots[k])))
				for _, x := range hb.slots[k] {
					r := m.rec(x.rec)
					h.mix(int64(x.born-p0)<<32 | int64(uint32(r.src)))
					h.mix(int64(r.q) | int64(r.level)<<8 | int64(r.grp)<<16 | int64(r.atomic)<<32)
					h.mix(int64(r.creator.task)<<32 | int64(uint32(r.creator.start)))
					h.mix(int64(r.creator.shape))
				}
			}
			d.phys += h.fin()
		}
	}
	d.log = p0 - lo
	return d
}
