package sem

// Memory fences, atomics and volatile accesses as release and acquire
// (issue 15 item 5; the PTX ISA memory consistency model, "Release and
// acquire patterns"; CUDA C++ Programming Guide "Memory Fence Functions"
// and "Volatile Qualifier"; seed 004 §3.1 extended to inter-block order).
//
// Strong accesses. Atomic operations and accesses to volatile objects are
// the model's strong operations (a volatile access is ld/st.volatile,
// which PTX treats as relaxed at system scope): two strong accesses to the
// same bytes are never a data race (race.go's atomic flag). A plain access
// conflicting with a strong one still is, unless happens-before orders
// them.
//
// Release. A fence (__threadfence: fence.sc.gpu; __threadfence_block:
// fence.cta; __threadfence_system: .sys, which orders at least what .gpu
// does for the threads this model runs) makes the thread's earlier
// accesses releasable: it increments the thread's clock lc (segments
// record it, so "accesses before the fence" are those with lc below the
// released value) and remembers it per scope. A strong write (atomic or
// volatile store) after it publishes the releasable accesses at its
// location L: the release pattern "fence; strong write".
//
// Acquire. A strong read of L that observes a publication (any strong
// access later in the interpreter's order, which is L's modification
// order) makes it pending; the thread's next fence of a scope that
// includes the writer acquires it: the acquire pattern "strong read;
// fence". Accesses after that fence are ordered after the published ones.
// A __syncthreads passes what a thread acquired on to its block. A
// fence.cta acquires only publications of the reader's own block (its
// scope does not include other blocks), and a publication released by a
// fence.cta is acquired only by threads of the writer's block.
//
// Atomics acquire at once. An atomic read-modify-write (and an atomic
// load) acquires what is published at L without a fence after it: the
// single-pass reduction of the Programming Guide (each block: store its
// partial sum, __threadfence, atomicInc a counter; the block that
// increments last reads every partial sum with no fence after its atomic)
// is presented as correct there, and every block's thread executed a
// fence.sc before its atomic, so the fence-SC order orders the writer's
// fence before the reader's in the executions the guide relies on. A
// volatile read acquires only through a fence after it, so the decoupled
// look-back (flag written with volatile stores behind __threadfence and
// polled with volatile loads, then __threadfence, then the value read) is
// race-free only with both fences; without either one the value's
// plain write and read are reported (C0501).

// relKey names a thread of a grid: the agent and clock of the grid, the
// block and the thread.
type relKey struct{ agent, clock, block, tid int32 }

// relVal is what a thread published at a location: the clock below which
// its accesses are released to every thread (a gpu-scope fence) and to
// the threads of its block (any fence).
type relVal struct{ gpu, cta int32 }

// Fence scopes.
const (
	fenceCTA = iota
	fenceGPU
)

// fence is __threadfence (scope fenceGPU; also _system) and
// __threadfence_block (fenceCTA).
func (m *Machine) fence(t *Thread, scope int) {
	if t.host || t.block == nil {
		return
	}
	t.lc++
	t.relCta = t.lc
	if scope == fenceGPU {
		t.relLc = t.lc
	}
	for k, v := range t.pend {
		if scope == fenceCTA && !t.sameBlock(k) {
			continue
		}
		if t.xvc == nil {
			t.xvc = map[relKey]int32{}
		}
		t.xvc[k] = max(t.xvc[k], v)
		delete(t.pend, k)
	}
}

// sameBlock reports whether k is a thread of t's block.
func (t *Thread) sameBlock(k relKey) bool {
	return k.agent == t.ctx.agent && k.clock == t.ctx.clock && k.block == t.block.id
}

// publish records at p what t released, at a strong write.
func (m *Machine) publish(t *Thread, p uint64) {
	if t.relCta == 0 {
		return
	}
	if m.syncVC == nil {
		m.syncVC = map[uint64]map[relKey]relVal{}
	}
	sv := m.syncVC[p]
	if sv == nil {
		sv = map[relKey]relVal{}
		m.syncVC[p] = sv
	}
	k := relKey{t.ctx.agent, t.ctx.clock, t.block.id, t.tid}
	v := sv[k]
	sv[k] = relVal{max(v.gpu, t.relLc), max(v.cta, t.relCta)}
}

// observed is what a strong read of p by t sees published there: per
// writer, the clock below which its accesses are released to t.
func (m *Machine) observed(t *Thread, p uint64, f func(k relKey, v int32)) {
	for k, v := range m.syncVC[p] {
		c := v.gpu
		if t.sameBlock(k) {
			c = v.cta
		}
		if c > 0 {
			f(k, c)
		}
	}
}

// atomicSync publishes and acquires at the atomic location p (atomics
// acquire at once; see above).
func (m *Machine) atomicSync(t *Thread, p uint64) {
	if t.host || t.block == nil || (t.relCta == 0 && m.syncVC[p] == nil) {
		return
	}
	m.publish(t, p)
	m.observed(t, p, func(k relKey, v int32) {
		if t.xvc == nil {
			t.xvc = map[relKey]int32{}
		}
		t.xvc[k] = max(t.xvc[k], v)
	})
}

// loadV is a load of a volatile object: a strong read whose observations
// become pending acquires.
func (m *Machine) loadV(t *Thread, p uint64, code int, pos int32) (uint64, bool) {
	m.volAcc = true
	b, ok := m.resolveA(t, p, mSize[code], pos, false, false, true)
	m.volAcc = false
	if !ok {
		return 0, false
	}
	if !t.host && t.block != nil && m.syncVC[p] != nil {
		m.observed(t, p, func(k relKey, v int32) {
			if t.pend == nil {
				t.pend = map[relKey]int32{}
			}
			t.pend[k] = max(t.pend[k], v)
		})
	}
	return fromMem(code, loadN(b, mSize[code])), true
}

// storeV is a store to a volatile object: a strong write that publishes
// what the thread released.
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
	if !t.host && t.block != nil {
		m.publish(t, p)
	}
	return true
}

// barrierSync passes what the threads of b acquired on to all of them (at
// a __syncthreads release).
func (m *Machine) barrierSync(b *blockRun) {
	for _, t := range b.threads {
		if len(t.xvc) == 0 {
			continue
		}
		if b.bxvc == nil {
			b.bxvc = map[relKey]int32{}
		}
		for k, v := range t.xvc {
			b.bxvc[k] = max(b.bxvc[k], v)
		}
	}
}

// released reports whether the earlier access of segment a was published
// to t by a release pattern that t (or its block, through a barrier)
// acquired.
func (m *Machine) released(t *Thread, a *seg) bool {
	if t.host || t.block == nil || (t.xvc == nil && t.block.bxvc == nil) || a.block < 0 {
		return false
	}
	k := relKey{a.agent, a.clock, a.block, a.tid}
	v := max(t.xvc[k], t.block.bxvc[k])
	return a.lc < v
}
