package sem

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
// Scopes: __threadfence_block (fence.cta) releases only to threads of its
// block and acquires only from writers of its block (its scope includes
// no other); __threadfence and __threadfence_system (gpu and sys) reach
// every thread the model runs.
//
// An atomic read-modify-write acquires only through a fence after it, as
// a volatile read does: PTX's atom without .acquire is relaxed. (The
// Programming Guide's single-pass sum reads its partial sums through a
// volatile pointer: strong reads, no race; with plain partial sums the last
// block needs a __threadfence after its atomicInc.)
//
// Not modelled: fence.sc's total order (two fences synchronize here only
// through a flag one thread writes and the other reads: the race check
// reports what some execution can make a race); the scopes of atomics
// (atomicAdd_block of two blocks is morally strong here); a volatile
// access whose value may be stale is no diagnostic (it is no data race
// under the PTX model), except within one warp, where unordered volatile
// reads and writes are warp-synchronous code that relies on lock step
// (C0506, race.go).
//
// Representation: every device thread has a clock lc that a fence
// increments (segments record it, race.go), and a knowledge map know:
// relKey{grid, block, thread} -> v means that thread's accesses with lc < v
// happen before the current thread's; relKey{grid, block, -1} -> e means
// the accesses of every thread of that block in a barrier epoch below e
// do. A fence takes the knowledge its thread observed since the last one
// (pend, pendCta) and snapshots what it releases (rel, relCta); a strong
// write publishes them at its address (m.pub); a strong read observes what
// is published there.

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

// Fence scopes.
const (
	fenceCTA = iota
	fenceGPU
)

// pubVal is what the strong writes of an address published: the releases
// of gpu-scope fences (for every reader) and of fences of any scope by
// threads of block blk (for the readers of that block), and whether the
// maps are owned by it (a read-modify-write extends them in place) or a
// thread's immutable snapshots.
type pubVal struct {
	gpu, cta know
	blk      relKey
	owned    bool
}

// blockKey is the relKey of t's block.
func (t *Thread) blockKey() relKey {
	return relKey{t.ctx.agent, t.ctx.clock, t.block.id, -1}
}

// fence is __threadfence (scope fenceGPU; also _system) and
// __threadfence_block (fenceCTA): an acquire of what the thread observed
// (a fence.cta only from writers of its block, the scope that includes
// them), then a release of everything before it.
func (m *Machine) fence(t *Thread, scope int) {
	if t.host || t.block == nil {
		return
	}
	if len(t.pendCta) > 0 {
		t.know = joinKnow(t.know, t.pendCta)
		t.pendCta = nil
	}
	if scope == fenceGPU && len(t.pend) > 0 {
		t.know = joinKnow(t.know, t.pend)
		t.pend = nil
	}
	t.lc++
	b := t.block
	rel := make(know, len(t.know)+len(b.bxvc)+2)
	joinKnow(rel, t.know)
	joinKnow(rel, b.bxvc)
	k := t.blockKey()
	if b.epoch > 0 {
		rel[k] = b.epoch
	}
	k.tid = t.tid
	rel[k] = t.lc
	t.relCta = rel
	if scope == fenceGPU {
		t.rel = rel
	}
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
	if pv.blk == t.blockKey() {
		if acquire {
			t.know = joinKnow(joinKnow(t.know, pv.cta), pv.gpu)
		} else {
			t.pendCta = joinKnow(joinKnow(t.pendCta, pv.cta), pv.gpu)
		}
		return
	}
	if acquire {
		t.know = joinKnow(t.know, pv.gpu)
	} else {
		t.pend = joinKnow(t.pend, pv.gpu)
	}
}

// strongWrite is a strong write of p: a store publishes the thread's last
// releases (none: the release sequence of the previous value ends), a
// read-modify-write adds them to what is published (it continues the
// release sequence it read from).
func (m *Machine) strongWrite(t *Thread, p uint64, rmw bool) {
	if t.host || t.block == nil {
		return
	}
	pv := m.pub[p]
	if !rmw || pv == nil {
		if t.relCta == nil {
			if pv != nil {
				delete(m.pub, p)
			}
			return
		}
		if m.pub == nil {
			m.pub = map[uint64]*pubVal{}
		}
		m.pub[p] = &pubVal{gpu: t.rel, cta: t.relCta, blk: t.blockKey()}
		return
	}
	if t.relCta == nil {
		return
	}
	if !pv.owned {
		pv.gpu = joinKnow(make(know, len(pv.gpu)+len(t.rel)), pv.gpu)
		pv.cta = joinKnow(make(know, len(pv.cta)+len(t.relCta)), pv.cta)
		pv.owned = true
	}
	joinKnow(pv.gpu, t.rel)
	if bk := t.blockKey(); pv.blk != bk {
		// the block-scope releases of the earlier writer's block are no
		// longer tracked (the readers of that block keep the gpu ones)
		clear(pv.cta)
		pv.blk = bk
	}
	joinKnow(pv.cta, t.relCta)
}

// plainWrite ends the release sequence at p (a plain store overwrote it).
func (m *Machine) plainWrite(p uint64) {
	if len(m.pub) > 0 {
		delete(m.pub, p)
	}
}

// atomicSync is an atomic read-modify-write of p: a strong read, then a
// strong write.
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
// barrier) acquired. a is segment ai, or its group when ai is a group
// segment (race_segs.go): the thread is then ai's, and the whole segment
// is made only for the rare nested-launch check.
func (m *Machine) released(t *Thread, a *seg, ai uint32) bool {
	if t.host || t.block == nil || a.block < 0 {
		return false
	}
	if o := m.cdpOf(t.block.grid); o != nil && m.cdpBefore(o, m.segs.ref(ai)) {
		return true // before the launch of t's grid in its launcher's view (cdp.go)
	}
	if len(t.know) == 0 && len(t.block.bxvc) == 0 {
		return false
	}
	bx := t.block.bxvc
	atid := a.tid
	if ai&segGrp != 0 {
		atid = int32(ai & segTidMask)
	}
	k := relKey{a.agent, a.clock, a.block, atid}
	if a.lc < max(t.know[k], bx[k]) {
		return true
	}
	k.tid = -1
	return a.epoch < max(t.know[k], bx[k])
}

// ---- volatile accesses

// loadV is a load of a volatile object: a strong read.
func (m *Machine) loadV(t *Thread, p uint64, code int, pos int32) (uint64, bool) {
	m.volAcc = true
	b, ok := m.resolveA(t, p, mSize[code], pos, false, false, true)
	m.volAcc = false
	if !ok {
		return 0, false
	}
	if m.opts.Check {
		m.strongRead(t, p, false)
	}
	return fromMem(code, loadN(b, mSize[code])), true
}

// storeV is a store to a volatile object: a strong write.
func (m *Machine) storeV(t *Thread, p uint64, code int, v uint64, pos int32) bool {
	size := mSize[code]
	nv := toMem(code, v)
	if size < 8 {
		nv &= 1<<(8*size) - 1
	}
	m.volAcc = true
	b, ok := m.resolveA(t, p, size, pos, true, false, true)
	m.volAcc = false
	if !ok {
		return false
	}
	if loadN(b, size) != nv {
		m.mver++ // a store that changes memory is progress (spin.go)
		storeN(b, size, nv)
	}
	if m.opts.Check {
		m.strongWrite(t, p, false)
	}
	return true
}
