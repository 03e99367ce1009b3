package sem

import "weft.dev/weft/diag"

// Memory fences, atomics and volatile accesses in the race check (issue 15
// item 5), after the PTX ISA's memory consistency model (PTX ISA 8.x,
// "Memory Consistency Model": strong operations, morally strong pairs,
// release and acquire patterns, causality order) as CUDA C++ maps onto it
// (CUDA C++ Programming Guide, "Memory Fence Functions" and "Volatile
// Qualifier"):
//
//   - Strong accesses are atomics (atomicAdd..., cuda::atomic_ref) and
//     volatile loads and stores (ld.volatile/st.volatile, which PTX treats
//     as relaxed at system scope). Two strong accesses of the same location
//     are morally strong and never a data race (race.go). A volatile access
//     orders nothing by itself.
//   - __threadfence(), __threadfence_block() and __threadfence_system()
//     (membar.gl/cta/sys, i.e. fence.sc) and the release or acquire orders
//     of cuda::atomic_ref act as acquire-release fences.
//   - Release pattern: a fence F, then (in program order) a strong write X
//     of location L. Acquire pattern: a strong read Y of L, then a fence G.
//     If Y reads the value X wrote, or one that read-modify-writes after X
//     produced (X's release sequence), F synchronizes with G: everything
//     before F (including what F's thread had itself acquired, and, through
//     a __syncthreads before F, what its block did before that barrier)
//     happens before everything after G, and __syncthreads passes it on to
//     G's block. So the single-pass reduction and decoupled look-back are
//     race-free, and the same code without either fence is reported.
//
// Not modelled: fence.sc's total order (two fences synchronize here only
// through a flag one thread writes and the other reads: the race check
// reports what some execution can make a race); the scopes of fences and
// atomics (__threadfence_block and atomicAdd_block order and synchronize
// like the device-wide forms); a volatile access whose value may be stale
// is no diagnostic (it is no data race under the PTX model), except within
// one warp, where unordered volatile accesses are warp-synchronous code
// that relies on lock step (C0506).
//
// Representation: every device thread has a clock lc that a fence
// increments (segments record it, race.go), and a knowledge map know:
// relKey{grid, block, thread} -> v means that thread's accesses with lc < v
// happen before the current thread's; relKey{grid, block, -1} -> e means
// the accesses of every thread of that block in a barrier epoch below e
// do. A fence takes the knowledge its thread observed since the last one
// (pend) and snapshots what it releases (rel); a strong write publishes
// rel at its address (m.pub); a strong read observes what is published
// there.

// relKey names a thread of a grid (tid -1: the whole block): the agent and
// clock of the grid, the block and the thread.
type relKey struct{ agent, clock, block, tid int32 }

// know is a set of releases (see above).
type know map[relKey]int32

// joinKnow merges src into dst (allocated when nil) and returns it.
func joinKnow(dst, src know) know {
	if len(src) == 0 {
		return dst
	}
	if dst == nil {
		dst = make(know, len(src))
	}
	for k, v := range src {
		if v > dst[k] {
			dst[k] = v
		}
	}
	return dst
}

// pubVal is what the last strong write of an address published, and
// whether the map is owned by it (a read-modify-write extends it in
// place) or a thread's immutable snapshot.
type pubVal struct {
	k     know
	owned bool
}

// fence is __threadfence (and the _block and _system forms): an acquire of
// what the thread observed, then a release of everything before it.
func (m *Machine) fence(t *Thread) {
	if t.host || t.block == nil {
		return
	}
	if len(t.pend) > 0 {
		t.know = joinKnow(t.know, t.pend)
		t.pend = nil
	}
	t.lc++
	b := t.block
	rel := make(know, len(t.know)+len(b.bxvc)+2)
	joinKnow(rel, t.know)
	joinKnow(rel, b.bxvc)
	g := b.grid
	rel[relKey{g.agent, g.clock, b.id, t.tid}] = t.lc
	if b.epoch > 0 {
		rel[relKey{g.agent, g.clock, b.id, -1}] = b.epoch
	}
	t.rel = rel
}

// strongRead is a strong read of p (a volatile load, an atomic): it
// observes the releases published there; acquire (an acquire operation)
// makes them effective at once, otherwise the thread's next fence does.
func (m *Machine) strongRead(t *Thread, p uint64, acquire bool) {
	if t.host || t.block == nil {
		return
	}
	pv := m.pub[p]
	if pv == nil {
		return
	}
	if acquire {
		t.know = joinKnow(t.know, pv.k)
	} else {
		t.pend = joinKnow(t.pend, pv.k)
	}
}

// strongWrite is a strong write of p: a store publishes the thread's last
// release (none: the release sequence of the previous value ends), a
// read-modify-write adds it to what is published (it continues the
// release sequence it read from).
func (m *Machine) strongWrite(t *Thread, p uint64, rmw bool) {
	if t.host || t.block == nil {
		return
	}
	pv := m.pub[p]
	if !rmw || pv == nil {
		if t.rel == nil {
			if pv != nil {
				delete(m.pub, p)
			}
			return
		}
		if m.pub == nil {
			m.pub = map[uint64]*pubVal{}
		}
		m.pub[p] = &pubVal{k: t.rel}
		return
	}
	if t.rel == nil {
		return
	}
	if !pv.owned {
		pv.k = joinKnow(make(know, len(pv.k)+len(t.rel)), pv.k)
		pv.owned = true
	}
	joinKnow(pv.k, t.rel)
}

// plainWrite ends the release sequence at p (a plain store overwrote it).
func (m *Machine) plainWrite(p uint64) {
	if len(m.pub) > 0 {
		delete(m.pub, p)
	}
}

// atomicSync is an atomic read-modify-write of p.
func (m *Machine) atomicSync(t *Thread, p uint64) {
	if !m.opts.Check {
		return
	}
	m.strongRead(t, p, false)
	m.strongWrite(t, p, true)
}

// barrierSync passes what the threads of b acquired on to all of them (at
// a __syncthreads release).
func (m *Machine) barrierSync(b *blockRun) {
	for _, t := range b.threads {
		if len(t.know) == 0 {
			continue
		}
		if b.bxvc == nil {
			b.bxvc = know{}
		}
		joinKnow(b.bxvc, t.know)
	}
}

// released reports whether the earlier access of segment a happens before
// t's current one through a release that t (or its block, through a
// barrier) acquired.
func (m *Machine) released(t *Thread, a *seg) bool {
	if t.host || t.block == nil || (len(t.know) == 0 && len(t.block.bxvc) == 0) || a.block < 0 {
		return false
	}
	bx := t.block.bxvc
	k := relKey{a.agent, a.clock, a.block, a.tid}
	if a.lc < max(t.know[k], bx[k]) {
		return true
	}
	k.tid = -1
	return a.epoch < max(t.know[k], bx[k])
}

// ---- volatile accesses

// volPtr marks t (a pointer or array type) as designating volatile
// objects when vol holds.
func volPtr(t *Type, vol bool) *Type {
	t.vol = vol
	return t
}

// loadOp and storeOp load or store the object lv designates (its address
// on the stack); volatile objects use the strong forms.
func (c *compiler) loadOp(lv lval, pos diag.Pos) {
	op := OpLoad
	if lv.vol {
		op = OpLoadV
	}
	c.emit(op, int32(memCode(lv.t)), 0, pos)
}

func (c *compiler) storeOp(lv lval, pos diag.Pos) {
	op := OpStore
	if lv.vol {
		op = OpStoreV
	}
	c.emit(op, int32(memCode(lv.t)), 0, pos)
}

// loadV is a volatile load: a strong read for the race check.
func (m *Machine) loadV(t *Thread, p uint64, code int, pos int32) (uint64, bool) {
	m.volAcc = true
	v, good := m.load(t, p, code, pos)
	m.volAcc = false
	if good && m.opts.Check {
		m.strongRead(t, p, false)
	}
	return v, good
}

// storeV is a volatile store: a strong write for the race check.
func (m *Machine) storeV(t *Thread, p uint64, code int, v uint64, pos int32) bool {
	m.volAcc = true
	good := m.store(t, p, code, v, pos)
	m.volAcc = false
	if good && m.opts.Check {
		m.strongWrite(t, p, false)
	}
	return good
}
