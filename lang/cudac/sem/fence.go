package sem

// Memory fences and atomics as release and acquire (issue 15 item 5; the
// PTX memory model's release and acquire patterns, CUDA C++ Programming
// Guide "Memory Fence Functions"): a __threadfence() makes the thread's
// earlier accesses releasable; an atomic operation after it on location L
// publishes them at L; any atomic operation on L afterwards (in the
// modification order of L, which the interpreter's order is) acquires what
// was published there, and a __syncthreads passes what a thread acquired
// on to the rest of its block. So the single-pass reduction (fence, then
// atomicInc of a counter; the last block reads every block's result) is
// race-free, and without the fence it is reported. Clocks: a fence
// increments the thread's clock lc (segments record it), so "accesses
// before the fence" are those with lc below the released value.

// relKey names a thread of a grid: the agent and clock of the grid, the
// block and the thread.
type relKey struct{ agent, clock, block, tid int32 }

// fence is __threadfence (and the _block and _system forms, which order at
// least as much for the threads this model runs).
func (m *Machine) fence(t *Thread) {
	if t.host || t.block == nil {
		return
	}
	t.lc++
	t.relLc = t.lc
}

// atomicSync publishes and acquires at the atomic location p.
func (m *Machine) atomicSync(t *Thread, p uint64) {
	if t.host || t.block == nil || (t.relLc == 0 && m.syncVC[p] == nil) {
		return
	}
	sv := m.syncVC[p]
	if t.relLc > 0 {
		if sv == nil {
			if m.syncVC == nil {
				m.syncVC = map[uint64]map[relKey]int32{}
			}
			sv = map[relKey]int32{}
			m.syncVC[p] = sv
		}
		k := relKey{t.ctx.agent, t.ctx.clock, t.block.id, t.tid}
		sv[k] = max(sv[k], t.relLc)
	}
	if len(sv) > 0 && t.xvc == nil {
		t.xvc = map[relKey]int32{}
	}
	for k, v := range sv {
		t.xvc[k] = max(t.xvc[k], v)
	}
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
// to t by a fence and an atomic that t (or its block, through a barrier)
// acquired.
func (m *Machine) released(t *Thread, a *seg) bool {
	if t.host || t.block == nil || (t.xvc == nil && t.block.bxvc == nil) || a.block < 0 {
		return false
	}
	k := relKey{a.agent, a.clock, a.block, a.tid}
	v := max(t.xvc[k], t.block.bxvc[k])
	return a.lc < v
}
