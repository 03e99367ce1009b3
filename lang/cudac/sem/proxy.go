package sem

import (
	"weft.dev/weft/diag"
	"weft.dev/weft/lang/cudac/ptx"
)

// Memory proxies and the wgmma register fence (ptx.md §6, §8; PTX ISA
// "Proxies", "fence.proxy.async", "wgmma.fence").
//
// Shared memory is reached through two proxies: the generic proxy (ld, st,
// atomics, cp.async) and the async proxy (the tensor copies
// cp.async.bulk.tensor, and wgmma.mma_async's operand reads). A value a
// thread wrote through the generic proxy is visible to the async proxy
// only after that thread executes fence.proxy.async (and then an ordering
// of the reader after the fence, which the race detector checks
// separately). The model records, per byte of a shared object, the last
// generic write: its thread, that thread's count of fence.proxy.async
// then, and its position. An async-proxy read (a wgmma operand, the source
// of a TMA store or reduce) of a byte whose writer has executed no
// fence.proxy.async since the write is a race (C0501). A TMA load's write
// is an async-proxy write and clears the record.
//
// mbarrier.init is a generic write too: the complete_tx that a TMA load
// performs on the mbarrier is an async-proxy operation, so the initializing
// thread must execute fence.proxy.async or fence.mbarrier_init between the
// init and the copy (the runtimes' "fence after init"); a TMA completing on
// an mbarrier whose init no such fence followed is reported (C0501).
//
// wgmma.fence orders a thread's register accesses before the
// wgmma.mma_async that reads or writes the same registers (the
// accumulators, a register A fragment): the ISA requires one before the
// first wgmma.mma_async of the warpgroup and between any register access
// and the next wgmma.mma_async on the same registers. The model tracks no
// register names; it approximates "a register access" by the thread's
// wgmma.wait_group (after which the program may read and write the
// accumulators): a wgmma.mma_async needs a wgmma.fence of its thread since
// the thread's start or its last wgmma.wait_group, otherwise C0505.
// Consecutive mma_async after one fence (the ISA's same-shape accumulator
// exception) need no further fence.

// proxyRec packs the last generic write of a shared byte: writer tid+1
// (11 bits), the writer's fence.proxy.async count (21 bits) and position.
type proxyRec uint64

func mkProxyRec(tid, fences, pos int32) proxyRec {
	return proxyRec(uint64(tid+1)&0x7ff | uint64(fences)&0x1fffff<<11 | uint64(uint32(pos))<<32)
}

func (r proxyRec) tid() int32    { return int32(r&0x7ff) - 1 }
func (r proxyRec) fences() int32 { return int32(r >> 11 & 0x1fffff) }
func (r proxyRec) pos() int32    { return int32(uint32(r >> 32)) }

// asyncProxyKinds are the instructions that read shared memory through the
// async proxy; a program with none of them needs no proxy records.
func asyncProxyKind(k ptx.Kind) bool {
	return k == ptx.KWgmma || k == ptx.KTmaStore || k == ptx.KTmaReduce
}

// proxyWrite records a write of n bytes at off of shared object o.
func (m *Machine) proxyWrite(t *Thread, o *Object, off, n int, pos int32) {
	if t == nil || t.block == nil {
		return
	}
	if o.proxy == nil {
		if m.asyncWriting {
			return
		}
		o.proxy = make([]proxyRec, len(o.Data))
	}
	r := proxyRec(0)
	if !m.asyncWriting {
		r = mkProxyRec(t.tid, t.proxyFences, pos)
	}
	for i := off; i < off+n && i < len(o.proxy); i++ {
		o.proxy[i] = r
	}
}

// proxyRead checks an async-proxy read of n bytes at p by t.
func (m *Machine) proxyRead(t *Thread, p uint64, n int, pos int32, what string) {
	if !m.opts.Check || p>>32 >= uint64(len(m.objs)) {
		return
	}
	o := m.objs[p>>32]
	if o.proxy == nil {
		return
	}
	off := int(uint32(p))
	for i := off; i < off+n && i < len(o.proxy); i++ {
		r := o.proxy[i]
		if r == 0 {
			continue
		}
		tid := r.tid()
		if int(tid) >= len(t.block.threads) || t.block.threads[tid].proxyFences != r.fences() {
			continue // the writer fenced since
		}
		key := [2]int32{pos, 0} // one report per reading instruction
		if m.proxySeen == nil {
			m.proxySeen = map[[2]int32]bool{}
		}
		if !m.proxySeen[key] {
			m.proxySeen[key] = true
			d := m.diags.Errorf(m.pos(pos), "C0501", "data race on %s (byte %d): %s by thread %d of block %d reads through the async proxy a value that thread %d wrote through the generic proxy with no fence.proxy.async after the write", o.describe(), i, what, t.tid, t.block.id, tid)
			m.callNotes(t, d)
			d.Note(m.pos(r.pos()), "the generic-proxy write")
			m.failed = true
		}
		return
	}
}

// proxyFence is fence.proxy.async (all) or fence.mbarrier_init (mbarrier
// inits only) by t.
func (m *Machine) proxyFence(t *Thread, in *ptx.Inst) {
	if t == nil {
		return
	}
	t.mbarInitFences++
	if len(in.Mods) >= 2 && in.Mods[1] == "proxy" {
		t.proxyFences++
	}
}

// mbarInitVisible checks that the init of mb was fenced for the async
// proxy before a TMA completes bytes on it.
func (m *Machine) mbarInitVisible(t *Thread, mb *mbar, pos int32) {
	if !m.opts.Check || mb.initFenceReported || int(mb.initTid) >= len(t.block.threads) {
		return
	}
	if t.block.threads[mb.initTid].mbarInitFences == mb.initFences {
		mb.initFenceReported = true
		d := m.diags.Errorf(m.pos(pos), "C0501", "data race on an mbarrier in shared memory: the tensor copy by thread %d of block %d completes bytes on it through the async proxy, but thread %d executed no fence.proxy.async or fence.mbarrier_init after its mbarrier.init", t.tid, t.block.id, mb.initTid)
		m.callNotes(t, d)
		d.Note(m.pos(mb.initPos), "the mbarrier.init")
		m.failed = true
	}
}

// wgmmaFenced checks the wgmma.fence rule for t's wgmma.mma_async.
func (m *Machine) wgmmaFenced(t *Thread, in *ptx.Inst, pos int32) {
	if t.wgFenced || !m.opts.Check {
		return
	}
	t.wgFenced = true        // one report per missing fence
	key := [2]int32{pos, -1} // one report per instruction
	if m.proxySeen == nil {
		m.proxySeen = map[[2]int32]bool{}
	}
	if m.proxySeen[key] {
		return
	}
	m.proxySeen[key] = true
	d := m.diags.Errorf(m.pos(pos), "C0505", "%s by thread %d of block %d: no wgmma.fence since the thread's start or its last wgmma.wait_group (the accumulator registers may be accessed there); the ISA requires wgmma.fence before the mma_async that uses them", in.Op, t.tid, t.block.id)
	m.callNotes(t, d)
	m.failed = true
}

// callNotes adds to d the call sites of t's current function, innermost
// first (at most three): a diagnostic inside a runtime helper (a PTX
// wrapper) then names the generated line that called it, which the
// generators mark with its source position (weft validate, issue 12
// item 7).
func (m *Machine) callNotes(t *Thread, d *diag.Diagnostic) {
	if t == nil {
		return
	}
	m.callNotesFrom(t, d, len(t.frames)-2)
}

// callNotesFrom is callNotes from frame from (programPos's: the frames
// inside a built-in header left out) outwards.
func (m *Machine) callNotesFrom(t *Thread, d *diag.Diagnostic, from int) {
	if t == nil || d == nil {
		return
	}
	for i, n := from, 0; i >= 0 && n < 3; i-- {
		fr := t.frames[i]
		if fr.pc < 1 || fr.pc > len(fr.fn.Code) {
			return
		}
		p := m.pos(fr.fn.Code[fr.pc-1].P)
		if p == d.Pos || isLibPos(p) {
			// the access was recorded at this call already (an effect
			// of a built-in header's code: programPosIdx), or the call
			// is inside a header: the program's lines only
			continue
		}
		d.Note(p, "called from %s", fr.fn.Name)
		n++
	}
}
