package sem

import (
	"fmt"

	"math"
	"sort"
	"strings"
	"weft.dev/weft/diag"

	"weft.dev/weft/gpu"
	"weft.dev/weft/lang/cudac/ptx"
	"weft.dev/weft/lang/cudac/syntax"
)

// Inline PTX (GNU asm statements; package ptx parses the template and holds
// the pure models). A statement compiles to
//
//	push index, operand values...; asm/run   -> 1 when it finished
//	L: jnz Done; asm/resume; jmp L           (after a blocking instruction)
//	Done: for each output: lvalue = asm/out(i)
//
// asm/run executes the instructions of the template with the thread's asm
// state (operand registers, .reg registers, pc). An instruction that waits
// (a barrier, an mbarrier phase, a warp-wide mma) suspends the thread with
// the state kept; its release pushes 0 and asm/resume continues after it.
// Waits block rather than spin: mbarrier.try_wait, and test_wait in its
// "@!p bra" loop, suspend the thread until the phase completes, and a wait
// that can never complete is a deadlock report (C0502).

// asmInfo is one compiled asm statement.
type asmInfo struct {
	prog  *ptx.Program
	kinds []byte // constraint letter per operand (outputs first)
	nout  int
	// waitLoop[i]: instruction i is an mbarrier.test_wait whose false
	// result branches straight back to it (a spin the model blocks instead)
	waitLoop []bool
}

// asmState is a thread's state inside an asm statement.
type asmState struct {
	info *asmInfo
	pc   int
	ops  []uint64 // operand registers, PTX bit patterns (f: binary32 bits)
	regs map[string]uint64
	// a warp-wide mma or ldmatrix, or a warpgroup-wide wgmma, waiting for
	// its lanes
	coll *ptx.Inst
}

func asmCType(k byte) *Type {
	switch k {
	case 'h':
		return tUShort
	case 'r':
		return tUInt
	case 'f':
		return tFloat
	case 'd':
		return tDouble
	}
	return tULLong
}

func (c *compiler) asmStmt(s *syntax.AsmStmt) {
	if c.fn == nil || !c.fn.Device {
		c.errorf(s.Pos, "C0309", "inline PTX runs only in device code")
		return
	}
	ops := append(append([]*syntax.AsmOperand{}, s.Outputs...), s.Inputs...)
	prog, err := ptx.Parse(s.Template, len(ops), len(c.prog.asms))
	if err != nil {
		c.errorf(s.TmplPos, "C0315", "%v", err)
		return
	}
	info := &asmInfo{prog: prog, nout: len(s.Outputs), waitLoop: make([]bool, len(prog.Insts))}
	for i, in := range prog.Insts {
		if asyncProxyKind(in.Kind) {
			c.prog.asyncProxy = true
		}
		if in.Kind == ptx.KMbarTestWait && i+1 < len(prog.Insts) {
			b := prog.Insts[i+1]
			if b.Kind == ptx.KBra && b.Target == i && b.Guard != nil && b.Guard.Negate && in.Args[0].Kind == ptx.OReg && b.Guard.Name == in.Args[0].Name {
				info.waitLoop[i] = true
			}
		}
	}
	idx := len(c.prog.asms)
	c.prog.asms = append(c.prog.asms, info)
	c.emit(OpConst, 0, int64(idx), s.Pos)
	for _, op := range ops {
		info.kinds = append(info.kinds, op.Kind)
		switch {
		case op.Kind == 'n':
			v, ok := c.constExpr(op.X)
			if !ok {
				c.errorf(op.Pos, "C0313", "an \"n\" asm operand must be a constant expression")
			}
			c.emit(OpConst, 0, v, op.Pos)
		case op.Write && !op.Read:
			c.emit(OpConst, 0, 0, op.Pos)
		default:
			t := c.expr(op.X)
			c.convert(t, asmCType(op.Kind), op.Pos)
		}
	}
	c.emit(OpBuiltin, c.builtinIndexOf("asm/run", s.Pos), int64(1+len(ops)), s.Pos)
	loop := c.here()
	jnz := c.emit(OpJnz, 0, 0, s.Pos)
	c.emit(OpBuiltin, c.builtinIndexOf("asm/resume", s.Pos), 0, s.Pos)
	c.emit(OpJmp, int32(loop), 0, s.Pos)
	c.patch(jnz)
	for i, op := range s.Outputs {
		lv := c.lvalue(op.X)
		c.emit(OpConst, 0, int64(i), op.Pos)
		c.emit(OpBuiltin, c.builtinIndexOf("asm/out", op.Pos), 1, op.Pos)
		c.convert(asmCType(op.Kind), lv.t, op.Pos)
		c.storeLV(lv, op.Pos)
		c.emit(OpPop, 0, 0, op.Pos)
	}
}

func initAsm() {
	defb("asm/run", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		info := m.prog.asms[a[0]]
		st := &asmState{info: info, ops: make([]uint64, len(a)-1)}
		for i, v := range a[1:] {
			switch info.kinds[i] {
			case 'f':
				v = uint64(math.Float32bits(float32(math.Float64frombits(v))))
			case 'r':
				v &= 0xffffffff
			case 'h':
				v &= 0xffff
			}
			st.ops[i] = v
		}
		t.asm = st
		return m.asmExec(t, pos)
	})
	defb("asm/resume", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		return m.asmExec(t, pos)
	})
	defb("asm/out", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		st := t.asm
		v := st.ops[a[0]]
		switch st.info.kinds[a[0]] {
		case 'f':
			v = math.Float64bits(float64(math.Float32frombits(uint32(v))))
		case 'r':
			v &= 0xffffffff
		case 'h':
			v &= 0xffff
		}
		return ok(v)
	})
	defb("__cvta_generic_to_shared", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		v, good := m.sharedAddr(t, a[0], pos)
		if !good {
			return 0, stFault
		}
		return ok(v)
	})
	builtinSigs["__cvta_generic_to_shared"] = sig(tULong, deviceSide, tAny)
}

// The shared window: __cvta_generic_to_shared gives each shared object of
// a block a base address (aligned to 1024 bytes, as dynamic shared memory
// is on the GPU, so that swizzled layouts see the same address bits), in the
// order of first use; shared-state-space PTX operands are mapped back. The
// layout belongs to the grid: a shared variable has the same window address
// in every CTA, as on the GPU, so that a shared::cluster address (mapa,
// cluster.go) names the same variable in another CTA of the cluster.
type sharedWin struct {
	next  uint64
	bases []winEntry // sorted by base
	byKey map[int]uint64
}

// winEntry is one shared variable of the window: key is its index in
// Program.Shared, -1 for the dynamic shared memory.
type winEntry struct {
	base uint64
	key  int
}

// sharedKey is the window key of b's shared object o, and whether o is one.
func (b *blockRun) sharedKey(o *Object) (int, bool) {
	if o == b.dyn {
		return -1, true
	}
	for i, x := range b.shared {
		if x == o {
			return i, true
		}
	}
	return 0, false
}

func (m *Machine) sharedAddr(t *Thread, p uint64, pos int32) (uint64, bool) {
	id := p >> 32
	bad := t.block == nil || id == 0 || id >= uint64(len(m.objs)) || m.objs[id].Space != SpaceShared
	var o *Object
	var b *blockRun
	if !bad {
		o = m.objs[id]
		b = m.ownerOf(t, p)
		bad = o.Block != b.id || o.Grid != int32(b.grid.id)
	}
	key, isShared := 0, false
	if !bad {
		key, isShared = b.sharedKey(o)
	}
	if bad || !isShared {
		m.fault(t, pos, "C0405", "__cvta_generic_to_shared of a pointer that is not to this block's shared memory")
		return 0, false
	}
	g := b.grid
	if g.win == nil {
		g.win = &sharedWin{byKey: map[int]uint64{}}
	}
	base, ok := g.win.byKey[key]
	if !ok {
		base = (g.win.next + 1023) &^ 1023
		g.win.byKey[key] = base
		g.win.bases = append(g.win.bases, winEntry{base, key})
		g.win.next = base + uint64(len(o.Data))
	}
	v := base + uint64(uint32(p))
	if b != t.block {
		v |= uint64(b.rank+1) << clusterRankShift // another CTA's: a shared::cluster address
	}
	return v, true
}

// sharedPtr32 maps a shared-window address back to a pointer: a
// shared::cta address into t's block, a shared::cluster address (cluster.go)
// into the CTA of its rank.
func (m *Machine) sharedPtr32(t *Thread, addr uint64, pos int32) (uint64, bool) {
	b := t.block
	if b == nil {
		m.fault(t, pos, "C0405", "shared address 0x%x does not point into this block's shared memory", addr)
		return 0, false
	}
	if r := addr >> clusterRankShift; r != 0 {
		if b = t.peer(r - 1); b == nil {
			m.fault(t, pos, "C0405", "shared::cluster address 0x%x names CTA rank %d, which is not in the cluster of %d CTAs", addr, r-1, t.clusterSize())
			return 0, false
		}
	}
	return m.windowPtr(t, b, addr&(1<<clusterRankShift-1), pos)
}

// windowPtr is the pointer at window offset addr in CTA b.
func (m *Machine) windowPtr(t *Thread, b *blockRun, addr uint64, pos int32) (uint64, bool) {
	if w := b.grid.win; w != nil {
		es := w.bases
		i := sort.Search(len(es), func(i int) bool { return es[i].base > addr }) - 1
		if i >= 0 {
			b.sharedPtr(m, es[i].key, 0)
			o := b.dyn
			if es[i].key >= 0 {
				o = b.shared[es[i].key]
			}
			if addr-es[i].base <= uint64(len(o.Data)) {
				if b != t.block && b.done == len(b.threads) {
					// PTX ISA "Distributed Shared Memory": a CTA's shared
					// memory is gone once it exited
					m.fault(t, pos, "C0409", "distributed shared memory of CTA rank %d of the cluster, which has exited", b.rank)
					return 0, false
				}
				return ptrOf(o, int(addr-es[i].base)), true
			}
		}
	}
	m.fault(t, pos, "C0405", "shared address 0x%x does not point into this block's shared memory", addr)
	return 0, false
}

// asmExec runs t's asm statement from its pc; 1 when it finished.
func (m *Machine) asmExec(t *Thread, pos int32) (uint64, status) {
	st := t.asm
	prog := st.info.prog
	for st.pc < len(prog.Insts) {
		in := &prog.Insts[st.pc]
		st.pc++
		if in.Guard != nil {
			v := st.read(t, *in.Guard) != 0
			if v == in.Guard.Negate {
				continue
			}
		}
		s := m.asmInst(t, st, in, st.pc-1, pos)
		if s != stDone {
			return 0, s
		}
	}
	return ok(1)
}

func (st *asmState) read(t *Thread, o ptx.Operand) uint64 {
	switch o.Kind {
	case ptx.ORef:
		return st.ops[o.N]
	case ptx.OImm:
		return uint64(o.Imm)
	case ptx.OReg:
		if v, ok := st.regs[o.Name]; ok {
			return v
		}
		return t.specialReg(o.Name)
	}
	return 0
}

func (st *asmState) write(o ptx.Operand, v uint64) {
	switch o.Kind {
	case ptx.ORef:
		st.ops[o.N] = v
	case ptx.OReg:
		if st.regs == nil {
			st.regs = map[string]uint64{}
		}
		st.regs[o.Name] = v
	}
}

// specialReg reads a PTX special register (PTX ISA "Special Registers").
// A launch without clusters is a grid of clusters of one CTA.
func (t *Thread) specialReg(name string) uint64 {
	sr := map[string]int{"%tid.x": srTidX, "%tid.y": srTidY, "%tid.z": srTidZ, "%ctaid.x": srBidX, "%ctaid.y": srBidY,
		"%ctaid.z": srBidZ, "%ntid.x": srBdimX, "%ntid.y": srBdimY, "%ntid.z": srBdimZ, "%nctaid.x": srGdimX,
		"%nctaid.y": srGdimY, "%nctaid.z": srGdimZ, "%laneid": srLane}
	if i, ok := sr[name]; ok {
		return t.sreg(i)
	}
	if name == "%warpid" {
		return uint64(t.tid / 32)
	}
	// clusters (cudaLaunchKernelEx's cluster dimension; none: one CTA)
	g := t.block.grid
	cd := gpu.Dim3{X: max(g.cluster.X, 1), Y: max(g.cluster.Y, 1), Z: max(g.cluster.Z, 1)}
	b := t.block.idx
	in := gpu.Dim3{X: b.X % cd.X, Y: b.Y % cd.Y, Z: b.Z % cd.Z}
	switch name {
	case "%cluster_ctarank":
		return uint64(in.X + cd.X*(in.Y+cd.Y*in.Z))
	case "%cluster_nctarank":
		return uint64(cd.Size())
	case "%cluster_ctaid.x", "%cluster_ctaid.y", "%cluster_ctaid.z":
		return uint64([3]int{in.X, in.Y, in.Z}[name[len(name)-1]-'x'])
	case "%cluster_nctaid.x", "%cluster_nctaid.y", "%cluster_nctaid.z":
		return uint64([3]int{cd.X, cd.Y, cd.Z}[name[len(name)-1]-'x'])
	case "%clusterid.x", "%clusterid.y", "%clusterid.z":
		return uint64([3]int{b.X / cd.X, b.Y / cd.Y, b.Z / cd.Z}[name[len(name)-1]-'x'])
	case "%nclusterid.x", "%nclusterid.y", "%nclusterid.z":
		return uint64([3]int{g.gdim.X / cd.X, g.gdim.Y / cd.Y, g.gdim.Z / cd.Z}[name[len(name)-1]-'x'])
	}
	return 0
}

// clusterSize is the number of CTAs in t's cluster.
func (t *Thread) clusterSize() uint64 { return t.specialReg("%cluster_nctarank") }

// addr is the pointer an [address] operand names: shared-state-space
// instructions take a shared-window address, the others a generic one.
func (m *Machine) addr(t *Thread, st *asmState, o ptx.Operand, shared bool, pos int32) (uint64, bool) {
	a := st.read(t, *o.Base) + uint64(o.Imm)
	if shared {
		return m.sharedPtr32(t, a&0xffffffff, pos)
	}
	return a, true
}

func (m *Machine) asmInst(t *Thread, st *asmState, in *ptx.Inst, i int, pos int32) status {
	switch in.Kind {
	case ptx.KNop:
		if in.Mods[0] == "fence" {
			m.proxyFence(t, in)
		}
	case ptx.KMov:
		if v, ok := m.globalTimer(t, st, in.Args[1]); ok {
			st.write(in.Args[0], v)
			break
		}
		if in.Args[1].Kind == ptx.OReg && st.regs[in.Args[1].Name] == 0 && in.Args[1].Name[0] == '%' {
			if _, known := specialRegs[in.Args[1].Name]; !known {
				m.fault(t, pos, "C0315", "%s: no model of the special register %s", in.Op, in.Args[1].Name)
				return stFault
			}
		}
		st.write(in.Args[0], st.read(t, in.Args[1]))
	case ptx.KCvtTF32:
		st.write(in.Args[0], uint64(ptx.TF32(uint32(st.read(t, in.Args[1])), len(in.Mods) == 5)))
	case ptx.KBra:
		st.pc = in.Target
	case ptx.KBarSync, ptx.KBarArrive:
		return m.asmBarrier(t, st, in, pos)
	case ptx.KCpAsync:
		return m.cpAsync(t, st, in, pos)
	case ptx.KCpCommit:
		t.cpGroups = append(t.cpGroups, t.cpPending)
		t.cpPending = nil
	case ptx.KCpWait:
		n := int(st.read(t, in.Args[0]))
		if !m.cpComplete(t, len(t.cpGroups)-n, pos) {
			return stFault
		}
	case ptx.KCpWaitAll:
		t.cpGroups = append(t.cpGroups, t.cpPending)
		t.cpPending = nil
		if !m.cpComplete(t, len(t.cpGroups), pos) {
			return stFault
		}
	case ptx.KCpMbarArrive:
		// the arrive happens once this thread's earlier cp.async completed
		// (ptx.md §3.3): complete them now, then arrive (.noinc: no
		// increment of the pending count first)
		t.cpGroups = append(t.cpGroups, t.cpPending)
		t.cpPending = nil
		if !m.cpComplete(t, len(t.cpGroups), pos) {
			return stFault
		}
		return m.mbarOp(t, st, in, pos)
	case ptx.KMbarInit, ptx.KMbarArrive, ptx.KMbarExpectArrive, ptx.KMbarTestWait, ptx.KMbarTryWait:
		return m.mbarOp(t, st, in, pos)
	case ptx.KMma, ptx.KLdmatrix:
		st.coll = in
		t.state, t.warpOp, t.waitPos = tsWarp, wMma, pos
		t.wargs[0] = fullMask
		t.syncs++
		return stBlocked
	case ptx.KVop4:
		st.write(in.Args[0], uint64(ptx.Vop4(in.Mods, uint32(st.read(t, in.Args[1])), uint32(st.read(t, in.Args[2])), uint32(st.read(t, in.Args[3])))))
	case ptx.KSetp:
		st.write(in.Args[0], b2u(setp(in.Mods[1], in.Mods[2], st.read(t, in.Args[1]), st.read(t, in.Args[2]))))
	case ptx.KWgmma:
		return m.wgmmaArrive(t, st, in, pos)
	case ptx.KWgmmaFence:
		if in.Mods[1] == "fence" {
			t.wgFenced = true
		}
		if in.Mods[1] == "commit_group" {
			// every thread's commit makes a group, empty when the
			// thread issued no wgmma since (the operand reads of a
			// warpgroup's wgmma are recorded on the thread that
			// completed the rendezvous): wait_group N counts groups
			t.wgGroups = append(t.wgGroups, t.wgPend)
			t.wgPend = nil
		}
	case ptx.KWgmmaWait:
		t.wgFenced = false
		if !m.wgmmaRetire(t, len(t.wgGroups)-int(st.read(t, in.Args[0]))) {
			return stFault
		}
	case ptx.KBulkGroup:
		// bulk copies complete when they are issued
	case ptx.KTmaLoad, ptx.KTmaStore, ptx.KTmaReduce:
		return m.tma(t, st, in, pos)
	case ptx.KMbarTx:
		tx := int(st.read(t, in.Args[1]))
		if in.Mods[1] == "complete_tx" {
			tx = -tx
		}
		return m.mbarTx(t, st, in.Args[0], tx, pos)
	case ptx.KMapa:
		return m.mapa(t, st, in, pos)
	case ptx.KLdShared, ptx.KStShared, ptx.KAtomShared:
		return m.sharedMem(t, st, in, pos)
	case ptx.KClusterArrive, ptx.KClusterWait:
		return m.clusterBarrier(t, in, pos)
	default:
		m.fault(t, pos, "C0315", "%s: no model", in.Op)
		return stFault
	}
	return stDone
}

var specialRegs map[string]bool

// initSpecialRegs builds specialRegs (tables.go).
func initSpecialRegs() {
	specialRegs = map[string]bool{"%tid.x": true, "%tid.y": true, "%tid.z": true, "%ctaid.x": true, "%ctaid.y": true,
		"%ctaid.z": true, "%ntid.x": true, "%ntid.y": true, "%ntid.z": true, "%nctaid.x": true, "%nctaid.y": true,
		"%nctaid.z": true, "%laneid": true, "%warpid": true, "%clusterid.x": true, "%clusterid.y": true, "%clusterid.z": true,
		"%nclusterid.x": true, "%nclusterid.y": true, "%nclusterid.z": true, "%cluster_ctarank": true, "%cluster_ctaid.x": true,
		"%cluster_ctaid.y": true, "%cluster_ctaid.z": true, "%cluster_nctarank": true, "%cluster_nctaid.x": true,
		"%cluster_nctaid.y": true, "%cluster_nctaid.z": true, "%globaltimer": true, "%globaltimer_lo": true, "%globaltimer_hi": true}
}

// globalTimer reads %globaltimer (PTX ISA "Special Registers":
// a 64-bit global nanosecond timer) and its 32-bit halves _lo and _hi
// from the run's wall clock (lib_posix.go wallNs: the virtual clock, one
// nanosecond per interpreted instruction, plus host sleeps), so a kernel
// timing itself or waiting with a timeout sees time pass as clock64 does.
// A read ends the spin detector's snapshot, as clock() does: a loop that
// polls the timer is not a livelock while the timer moves.
func (m *Machine) globalTimer(t *Thread, st *asmState, o ptx.Operand) (uint64, bool) {
	if o.Kind != ptx.OReg || len(o.Name) < 12 || o.Name[:12] != "%globaltimer" {
		return 0, false
	}
	if _, shadowed := st.regs[o.Name]; shadowed {
		return 0, false
	}
	v := m.wallNs()
	switch o.Name {
	case "%globaltimer":
	case "%globaltimer_lo":
		v &= 0xffffffff
	case "%globaltimer_hi":
		v >>= 32
	default:
		return 0, false
	}
	t.cyc = nil
	return v, true
}

// ---- cp.async (ptx.md §3): the source is read when the copy is issued,
// the destination written when a wait completes it, by the issuing thread
// (its own access to the destination before the wait is C0501, see
// cpOwnCheck, and another thread's access before a barrier that follows
// the wait races).

type cpCopy struct {
	dst  uint64
	data []byte
	pos  int32
}

func (m *Machine) cpAsync(t *Thread, st *asmState, in *ptx.Inst, pos int32) status {
	dst, good := m.addr(t, st, in.Args[0], true, pos)
	if !good {
		return stFault
	}
	src, _ := m.addr(t, st, in.Args[1], false, pos)
	n := int(st.read(t, in.Args[2]))
	if n != 4 && n != 8 && n != 16 || in.Mods[2] == "cg" && n != 16 {
		m.fault(t, pos, "C0315", "%s copies 4, 8 or 16 bytes (.cg only 16), not %d", in.Op, n)
		return stFault
	}
	srcSize := n
	if len(in.Args) == 4 {
		srcSize = int(st.read(t, in.Args[3]))
		if srcSize < 0 || srcSize > n {
			m.fault(t, pos, "C0315", "%s: src-size %d is larger than the copy size %d", in.Op, srcSize, n)
			return stFault
		}
	}
	if uint32(dst)%uint32(n) != 0 || uint32(src)%uint32(n) != 0 {
		m.fault(t, pos, "C0403", "%s: addresses must be aligned to the copy size %d", in.Op, n)
		return stFault
	}
	data := make([]byte, n) // bytes past src-size are zero-filled
	if srcSize > 0 {
		b, good := m.resolve(t, src, srcSize, pos, false, false)
		if !good {
			return stFault
		}
		copy(data, b)
	}
	// a copy issued inside a built-in header (<cuda/pipeline>'s
	// memcpy_async) is the program's call, whenever it lands
	cpos := m.programPosIdx(t, pos)
	if m.opts.Check {
		// the copy may land at any moment from its issue on (PTX ISA,
		// "cp.async": the writes are asynchronous), so its write
		// conflicts with every access not ordered before the issue: an
		// earlier read by another thread without a barrier between (a
		// ring buffer refilled before its readers are done) is a race
		// even when the wait that completes the copy comes after a
		// barrier. It is checked (and recorded) here, and recorded again
		// where a wait completes the copy.
		if id := dst >> 32; id != 0 && id < uint64(len(m.objs)) {
			m.raceCheck(t, m.objs[id], int(int32(uint32(dst))), n, true, false, cpos)
		}
	}
	t.cpPending = append(t.cpPending, cpCopy{dst, data, cpos})
	return stDone
}

// cpComplete performs the copies of t's oldest n committed groups.
func (m *Machine) cpComplete(t *Thread, n int, pos int32) bool {
	if n <= 0 {
		return true
	}
	n = min(n, len(t.cpGroups))
	m.cpCompleting = true
	defer func() { m.cpCompleting = false }()
	for _, g := range t.cpGroups[:n] {
		for _, c := range g {
			b, good := m.resolveA(t, c.dst, len(c.data), c.pos, true, false, false)
			if !good {
				return false
			}
			if string(b) != string(c.data) {
				m.mver++
			}
			copy(b, c.data)
		}
	}
	t.cpGroups = append(t.cpGroups[:0], t.cpGroups[n:]...)
	return true
}

// cpOwnCheck reports an access by t to the destination of one of its own
// copies that no wait has completed yet (a cp.async, or a cooperative
// groups memcpy_async on its model). PTX orders the copy's writes with
// the issuing thread's own accesses only through cp.async.wait_group /
// wait_all (ptx.md §3, PTX ISA "cp.async": "no ordering guarantee"
// without them), so the read may see the old or the new bytes, and a write
// may be overwritten by the copy: undefined, and reported as a race of the
// thread with its own copy. Other threads' accesses race with the copy's
// write at the wait, which the race checker sees.
func (m *Machine) cpOwnCheck(t *Thread, o *Object, off, n int, write bool, pos int32) {
	check := func(c cpCopy) bool {
		if c.dst>>32 != uint64(o.ID) {
			return false
		}
		coff := int(int32(uint32(c.dst)))
		lo, hi := max(off, coff), min(off+n, coff+len(c.data))
		if lo >= hi {
			return false
		}
		key := [2]int32{pos, c.pos}
		if m.asyncSeen == nil {
			m.asyncSeen = map[[2]int32]bool{}
		}
		if m.asyncSeen[key] {
			return true
		}
		m.asyncSeen[key] = true
		who := "the host"
		if t.block != nil {
			who = fmt.Sprintf("thread %d of block %d (kernel %s)", t.tid, t.block.id, t.block.grid.fn.Name)
		}
		d := m.diags.Errorf(m.pos(pos), "C0501", "data race on %s (byte %d): %s by %s of the destination of its own asynchronous copy, which no wait has completed", o.describe(), lo, rw(write), who)
		d.Note(m.pos(c.pos), "the copy") // the run goes on, as after any race (race.go)
		return true
	}
	for _, c := range t.cpPending {
		if check(c) {
			return
		}
	}
	for _, g := range t.cpGroups {
		for _, c := range g {
			if check(c) {
				return
			}
		}
	}
}

// ---- barriers: barrier.cta.sync 0 with no count (or the block's size) is
// __syncthreads; a named barrier with a thread count releases its first
// count arrivals (PTX ISA "barrier"), ordering the participants.

type namedBar struct {
	arrived int
	waiting []*Thread
	vc      []int32
}

func (m *Machine) asmBarrier(t *Thread, st *asmState, in *ptx.Inst, pos int32) status {
	b := t.block
	id := int(st.read(t, in.Args[0]))
	count := len(b.threads)
	if len(in.Args) == 2 {
		count = int(st.read(t, in.Args[1]))
	}
	if id < 0 || id > 15 || count <= 0 || count%32 != 0 && count != len(b.threads) {
		m.fault(t, pos, "C0315", "%s: barrier %d with thread count %d (ids 0-15, counts multiples of 32)", in.Op, id, count)
		return stFault
	}
	t.syncs++
	if in.Kind == ptx.KBarSync && id == 0 && count == len(b.threads) {
		t.state, t.barKind, t.waitPos = tsBarrier, barPlain, pos
		return stBlocked
	}
	return m.namedArrive(t, id, count, in.Kind == ptx.KBarSync, pos)
}

// namedArrive arrives at the block's named barrier id, which releases its
// first count arrivals; wait blocks the thread until then (bar.sync, a
// cooperative_groups tile of more than 32 threads: cgbig.go).
func (m *Machine) namedArrive(t *Thread, id, count int, wait bool, pos int32) status {
	b := t.block
	if b.named == nil {
		b.named = map[int]*namedBar{}
	}
	nb := b.named[id]
	if nb == nil {
		nb = &namedBar{}
		b.named[id] = nb
	}
	nb.vc = m.hbRelease(t, nb.vc)
	nb.arrived++
	if nb.arrived >= count {
		// the last arrival releases the waiters and runs on
		for _, w := range nb.waiting {
			m.hbAcquire(w, nb.vc)
			w.stack = append(w.stack, 0)
			w.state = tsRunning
		}
		m.hbAcquire(t, nb.vc)
		delete(b.named, id)
		b.wakeups = true
		return stDone
	}
	if wait {
		t.state, t.waitPos, t.barID = tsNamed, pos, id
		nb.waiting = append(nb.waiting, t)
		return stBlocked
	}
	return stDone
}

// ---- happens-before through split synchronization (named barriers,
// mbarriers): each thread has a logical clock lc, stamped on its segments,
// and a vector over the block's threads, bvc[x], such that x's accesses
// with lc < bvc[x] happen before the thread's current ones. A release
// (arrive) contributes the thread's clock and what it already knows; an
// acquire (a wait that observes the phase) joins them.

func (m *Machine) hbRelease(t *Thread, vc []int32) []int32 {
	vc = vcJoin(vc, t.bvc)
	i := t.hbIdx()
	for len(vc) <= int(i) {
		vc = append(vc, 0)
	}
	vc[i] = max(vc[i], t.lc+1)
	t.lc++
	return vc
}

func (m *Machine) hbAcquire(t *Thread, vc []int32) {
	t.bvc = vcJoin(t.bvc, vc)
}

// ---- mbarriers (ptx.md §4): state per block, keyed by shared address.

type mbar struct {
	expected, pending, tx int
	phase                 int
	vc                    []int32 // releases of the current phase
	done                  []int32 // releases of the last completed phase
	initPos               int32
	arrived               map[int32]int // thread -> 1 + the phase of its last arrival
	// weft check: the ordering context of the init, checked at every use
	// (the byte history keeps only the last write, which the initializing
	// thread's own arrivals replace)
	initSeg      seg
	initTid      int32
	initIdx      int32 // the initializing thread's hbIdx (cluster.go)
	initReported bool
	// proxy.go: the initializing thread's fence count at the init
	initFences        int32
	initFenceReported bool
	twiceReported     bool // an arrival twice in one phase was reported
}

func (m *Machine) mbarOp(t *Thread, st *asmState, in *ptx.Inst, pos int32) status {
	b := t.block
	ai := 1
	if in.Kind == ptx.KMbarInit || in.Kind == ptx.KCpMbarArrive {
		ai = 0
	}
	p, good := m.addr(t, st, in.Args[ai], true, pos)
	if !good {
		return stFault
	}
	if uint32(p)%8 != 0 {
		m.fault(t, pos, "C0403", "%s: an mbarrier is 8-byte aligned", in.Op)
		return stFault
	}
	// a shared::cluster address names another CTA's mbarrier (ptx.md
	// §4.2: a remote arrive, mbarrier.arrive.release.cluster.shared::cluster)
	if b = m.ownerOf(t, p); b != t.block && in.Kind != ptx.KMbarArrive && in.Kind != ptx.KMbarExpectArrive {
		m.fault(t, pos, "C0405", "%s on the mbarrier of another CTA of the cluster (only arrive may be remote; ptx.md §4.2)", in.Op)
		return stFault
	}
	remote := false
	for _, x := range in.Mods {
		remote = remote || x == "shared::cluster"
	}
	if b.mbars == nil {
		b.mbars = map[uint64]*mbar{}
	}
	mb := b.mbars[p]
	if in.Kind == ptx.KMbarInit {
		n := int(st.read(t, in.Args[1]))
		if n < 1 || n >= 1<<20 {
			m.fault(t, pos, "C0315", "%s: count %d out of range [1, 2^20-1]", in.Op, n)
			return stFault
		}
		if _, good := m.resolveA(t, p, 8, pos, true, false, false); !good {
			return stFault
		}
		nb := &mbar{expected: n, pending: n, initPos: m.programPosIdx(t, pos), initTid: t.tid, initIdx: t.hbIdx(), initFences: t.mbarInitFences}
		if m.opts.Check {
			nb.initSeg = m.segs.get(m.curSeg(t))
		}
		b.mbars[p] = nb
		return stDone
	}
	if mb == nil {
		m.fault(t, pos, "C0315", "%s on an mbarrier that was not initialized", in.Op)
		return stFault
	}
	// the operations on an initialized mbarrier are atomic accesses of
	// its 8 bytes: init is a plain write, so one that is not ordered
	// before them (a missing barrier after init) is a race
	if _, good := m.resolveA(t, p, 8, pos, in.Kind != ptx.KMbarTestWait && in.Kind != ptx.KMbarTryWait, false, true); !good {
		return stFault
	}
	if m.opts.Check && t.hbIdx() != mb.initIdx && !mb.initReported {
		if cur := m.segs.get(m.curSeg(t)); !hb(&mb.initSeg, &cur, t.ctx, t.bvc) {
			mb.initReported = true
			d := m.diags.Errorf(m.pos(pos), "C0501", "data race on an mbarrier in shared memory: %s by thread %d of block %d is not ordered after its mbarrier.init by thread %d (a barrier after the init is missing)", in.Op, t.tid, t.block.id, mb.initTid)
			d.Note(m.pos(mb.initPos), "the mbarrier.init")
			m.failed = true
		}
	}
	switch in.Kind {
	case ptx.KMbarArrive, ptx.KMbarExpectArrive, ptx.KCpMbarArrive:
		count := 1
		if in.Kind == ptx.KMbarExpectArrive {
			mb.tx += int(st.read(t, in.Args[2]))
		} else if in.Kind == ptx.KMbarArrive && len(in.Args) == 3 {
			count = int(st.read(t, in.Args[2]))
		} else if in.Kind == ptx.KCpMbarArrive && !strings.Contains(in.Op, ".noinc") {
			// without .noinc the pending count is incremented by one
			// before the asynchronous arrive (PTX ISA,
			// "cp.async.mbarrier.arrive"): a net-zero change, so the
			// barrier's expected count need not include it (libcu++'s
			// cuda::memcpy_async with a cuda::barrier relies on this)
			count = 0
		}
		if in.Kind != ptx.KCpMbarArrive {
			st.write(in.Args[0], uint64(mb.phase))
			// ptx.md §4.2: more arrivals than expected in a phase are
			// undefined; one thread arriving twice in a phase of a barrier
			// that expects several arrivals arrives for a phase the
			// barrier has not reached (a wait for the previous phase is
			// missing)
			if mb.arrived == nil {
				mb.arrived = map[int32]int{}
			}
			// (arrivals through shared::cluster addresses are counts that
			// one thread may contribute several of: multicast arrives)
			if mb.expected > 1 && !remote && mb.arrived[t.hbIdx()] == mb.phase+1 && count == 1 && !mb.twiceReported {
				mb.twiceReported = true // once per mbarrier: the first thread shows it
				d := m.diags.Errorf(m.pos(pos), "C0505", "mbarrier: thread %d of block %d arrives twice in phase %d of the mbarrier initialized at %s (it expects %d arrivals per phase); a wait for the previous phase is missing", t.tid, t.block.id, mb.phase, m.pos(mb.initPos), mb.expected)
				m.callNotes(t, d)
				m.failed = true
			}
			mb.arrived[t.hbIdx()] = mb.phase + 1
		}
		mb.vc = m.hbRelease(t, mb.vc)
		mb.pending -= count
		if mb.pending <= 0 && mb.tx == 0 {
			m.mbarComplete(b, p, mb)
		}
		return stDone
	case ptx.KMbarTestWait, ptx.KMbarTryWait:
		parity := int(st.read(t, in.Args[2])) & 1
		if mb.phase&1 != parity {
			m.hbAcquire(t, mb.done)
			st.write(in.Args[0], 1)
			return stDone
		}
		if in.Kind == ptx.KMbarTestWait && !st.info.waitLoop[st.pc-1] {
			st.write(in.Args[0], 0)
			return stDone
		}
		// block until the phase of this parity completes
		st.write(in.Args[0], 1)
		t.state, t.waitPos, t.mbarAddr, t.mbarParity = tsMbar, pos, p, parity
		t.syncs++
		return stBlocked
	}
	return stDone
}

// mbarComplete ends the current phase and releases the waiters on it.
func (m *Machine) mbarComplete(b *blockRun, p uint64, mb *mbar) {
	mb.phase++
	mb.pending = mb.expected
	mb.tx = 0
	mb.done, mb.vc = mb.vc, nil
	for _, w := range b.threads {
		if w.state == tsMbar && w.mbarAddr == p && mb.phase&1 != w.mbarParity {
			m.hbAcquire(w, mb.done)
			w.stack = append(w.stack, 0)
			w.state = tsRunning
			b.wakeups = true
		}
	}
	m.mver++
}

// releaseMma completes a warp's mma.sync or ldmatrix once all 32 lanes
// arrived (the instructions are .aligned: every lane executes the same one).
func (m *Machine) releaseMma(lanes []*Thread) {
	first := lanes[0].asm.coll
	if first.Kind == ptx.KLdmatrix {
		m.ldmatrix(lanes)
		return
	}
	s, _ := ptx.MmaShapeOf(first.Op)
	a := make([][]uint32, 32)
	bb := make([][]uint32, 32)
	c := make([][4]uint32, 32)
	for l, u := range lanes {
		st := u.asm
		in := st.coll
		a[l] = make([]uint32, s.ARegs)
		bb[l] = make([]uint32, s.BRegs)
		for r := range a[l] {
			a[l][r] = uint32(st.read(u, in.Args[1].Elems[r]))
		}
		for r := range bb[l] {
			bb[l][r] = uint32(st.read(u, in.Args[2].Elems[r]))
		}
		for r := 0; r < 4; r++ {
			c[l][r] = uint32(st.read(u, in.Args[3].Elems[r]))
		}
	}
	d := s.Mma(a, bb, c)
	for l, u := range lanes {
		st := u.asm
		for r := 0; r < 4; r++ {
			st.write(st.coll.Args[0].Elems[r], uint64(d[l][r]))
		}
		st.coll = nil
		u.stack = append(u.stack, 0)
		u.state = tsRunning
	}
}

// mmaMismatch reports lanes of one warp at different mma instructions.
func mmaMismatch(lanes []*Thread) string {
	var op string
	for _, u := range lanes {
		if u.warpOp != wMma || u.asm == nil || u.asm.coll == nil {
			return "lanes of a warp wait at different collectives"
		}
		if op == "" {
			op = u.asm.coll.Op
		}
		if u.asm.coll.Op != op {
			return fmt.Sprintf("lanes of a warp execute different mma.sync forms (%s)", op)
		}
	}
	return ""
}

// splitNotes adds to a deadlock report the state of the mbarriers and named
// barriers that threads of b wait for: where each was initialized, how many
// arrivals and transaction bytes its current phase still misses.
func (m *Machine) splitNotes(b *blockRun, d *diag.Diagnostic) {
	seen := map[uint64]bool{}
	for _, t := range b.threads {
		switch t.state {
		case tsMbar:
			if seen[t.mbarAddr] {
				continue
			}
			seen[t.mbarAddr] = true
			mb := b.mbars[t.mbarAddr]
			d.Note(m.pos(mb.initPos), "the mbarrier initialized here (%d arrivals per phase) is in phase %d; it misses %d arrivals and %d transaction bytes", mb.expected, mb.phase, mb.pending, mb.tx)
			// inside a built-in header (<cuda/barrier>, <cuda/pipeline>):
			// the program's call, its frames from there (programPos)
			at, from, inside := m.programPos(t, m.pos(t.waitPos))
			d.Note(at, "thread %d waits on it here%s", t.tid, inside)
			m.callNotesFrom(t, d, from)
		case tsNamed:
			if nb := b.named[t.barID]; nb != nil && !seen[uint64(1<<40+t.barID)] {
				seen[uint64(1<<40+t.barID)] = true
				if t.barID >= cgTileBar { // cgbig.go
					d.Note(m.pos(t.waitPos), "the tile's barrier has %d arrivals", nb.arrived)
				} else {
					d.Note(m.pos(t.waitPos), "named barrier %d has %d arrivals", t.barID, nb.arrived)
				}
			}
		}
	}
}

func setp(cmp, typ string, a, b uint64) bool {
	var c int
	switch typ {
	case "s32":
		x, y := int32(a), int32(b)
		c = map[bool]int{true: -1, false: 0}[x < y] + map[bool]int{true: 1, false: 0}[x > y]
	case "s64":
		x, y := int64(a), int64(b)
		c = map[bool]int{true: -1, false: 0}[x < y] + map[bool]int{true: 1, false: 0}[x > y]
	case "b32", "u32":
		x, y := uint32(a), uint32(b)
		c = map[bool]int{true: -1, false: 0}[x < y] + map[bool]int{true: 1, false: 0}[x > y]
	default:
		c = map[bool]int{true: -1, false: 0}[a < b] + map[bool]int{true: 1, false: 0}[a > b]
	}
	switch cmp {
	case "eq":
		return c == 0
	case "ne":
		return c != 0
	case "lt":
		return c < 0
	case "le":
		return c <= 0
	case "gt":
		return c > 0
	}
	return c >= 0
}

// ldmatrix (ptx.md §2): lanes 8j..8j+7 give the 16-byte rows of matrix j;
// register j of lane l receives elements (l/4, 2(l%4)) and (l/4, 2(l%4)+1)
// of matrix j, or with .trans (2(l%4), l/4) and (2(l%4)+1, l/4).
func (m *Machine) ldmatrix(lanes []*Thread) {
	in := lanes[0].asm.coll
	num := len(in.Args[0].Elems)
	trans := in.Mods[5] == "trans"
	var rows [4][8][8]uint16
	for j := 0; j < num; j++ {
		for r := 0; r < 8; r++ {
			u := lanes[8*j+r]
			p, good := m.addr(u, u.asm, u.asm.coll.Args[1], true, u.waitPos)
			if !good {
				return
			}
			if uint32(p)%16 != 0 {
				m.fault(u, u.waitPos, "C0403", "%s: row address not 16-byte aligned", in.Op)
				return
			}
			b, good := m.resolve(u, p, 16, u.waitPos, false, false)
			if !good {
				return
			}
			for c := 0; c < 8; c++ {
				rows[j][r][c] = uint16(b[2*c]) | uint16(b[2*c+1])<<8
			}
		}
	}
	for l, u := range lanes {
		for j := 0; j < num; j++ {
			var lo, hi uint16
			if trans {
				lo, hi = rows[j][2*(l%4)][l/4], rows[j][2*(l%4)+1][l/4]
			} else {
				lo, hi = rows[j][l/4][2*(l%4)], rows[j][l/4][2*(l%4)+1]
			}
			u.asm.write(in.Args[0].Elems[j], uint64(lo)|uint64(hi)<<16)
		}
		u.asm.coll = nil
		u.stack = append(u.stack, 0)
		u.state = tsRunning
	}
}

// wgmma.mma_async (ptx.md §6) is a warpgroup-wide instruction: the 128
// threads of warpgroup tid/128 rendezvous, and the last to arrive computes
// D from the shared-memory operands and every thread's accumulators. The
// model completes the product at issue, so wgmma.fence, commit_group and
// wait_group have no effect on values.
func (m *Machine) wgmmaArrive(t *Thread, st *asmState, in *ptx.Inst, pos int32) status {
	b := t.block
	wg := int(t.tid) / 128
	if (wg+1)*128 > len(b.threads) {
		m.fault(t, pos, "C0315", "%s needs a whole warpgroup of 128 threads (the block has %d)", in.Op, len(b.threads))
		return stFault
	}
	m.wgmmaFenced(t, in, pos)
	st.coll = in
	group := b.threads[wg*128 : wg*128+128]
	arrived := 0
	for _, u := range group {
		if u == t || u.state == tsWG {
			arrived++
		}
	}
	t.syncs++
	if arrived < 128 {
		t.state, t.waitPos = tsWG, pos
		return stBlocked
	}
	if !m.wgmma(group, t, pos) {
		return stFault
	}
	for _, u := range group {
		u.asm.coll = nil
		if u != t {
			u.stack = append(u.stack, 0)
			u.state = tsRunning
		}
	}
	b.wakeups = true
	return stDone
}

func (m *Machine) wgmma(group []*Thread, t *Thread, pos int32) bool {
	in := t.asm.coll
	s, _ := ptx.WgmmaShapeOf(in.Op)
	st := t.asm
	// A from registers (ptx.md §6.1: {a regs} in place of a-desc, and no
	// imm-trans-a) or through a descriptor like B
	regA := in.Args[1].Kind == ptx.OVec
	var da uint64
	if !regA {
		da = st.read(t, in.Args[1])
	}
	db := st.read(t, in.Args[2])
	acc := st.read(t, in.Args[3]) != 0
	sa, sb := int64(st.read(t, in.Args[4])), int64(st.read(t, in.Args[5]))
	for _, u := range group {
		c := u.asm.coll
		if c == nil || c.Op != in.Op || (c.Args[1].Kind == ptx.OVec) != regA || (!regA && u.asm.read(u, c.Args[1]) != da) || u.asm.read(u, c.Args[2]) != db {
			m.fault(t, pos, "C0315", "%s: the threads of the warpgroup execute different wgmma instructions or descriptors", in.Op)
			return false
		}
	}
	// imm-trans-a/b (bf16/f16 only): 1 is an MN-major operand (ptx.md §6.3)
	var ta, tb uint64
	switch {
	case len(in.Args) == 8:
		ta, tb = st.read(t, in.Args[6]), st.read(t, in.Args[7])
	case len(in.Args) == 7:
		tb = st.read(t, in.Args[6])
	}
	if ta > 1 || tb > 1 {
		m.fault(t, pos, "C0315", "%s: imm-trans-a and imm-trans-b must be 0 or 1", in.Op)
		return false
	}
	if (sa != 1 && sa != -1) || (sb != 1 && sb != -1) {
		m.fault(t, pos, "C0315", "%s: imm-scale-a and imm-scale-b must be 1 or -1", in.Op)
		return false
	}
	e := s.ElemBytes()
	// the operands are read now for the values, but for the race detector
	// when a wgmma.wait_group retires the instruction: until then the
	// hardware may still be reading them (ptx.md §6.4)
	var reads []uint64
	load := func(d ptx.Desc, rows int, scale int64, trans bool) ([]float64, bool) {
		out := make([]float64, rows*s.K)
		for r := 0; r < rows; r++ {
			for k := 0; k < s.K; k++ {
				addr := d.KMajorAddr(r, k, e)
				if trans {
					addr = d.MNMajorAddr(r, k, e)
				}
				p, good := m.sharedPtr32(t, addr&0xffffffff, pos)
				if !good {
					return nil, false
				}
				bs, good := m.peek(t, p, e, pos)
				if !good {
					return nil, false
				}
				reads = append(reads, p)
				v := s.Decode(uint32(loadN(bs, e)))
				if scale < 0 {
					v = -v
				}
				out[r*s.K+k] = v
			}
		}
		return out, true
	}
	var a []float64
	if regA {
		a = m.wgmmaRegA(group, s, sa)
	} else {
		var good bool
		if a, good = load(ptx.DecodeDesc(da), 64, sa, ta == 1); !good {
			return false
		}
	}
	bm, good := load(ptx.DecodeDesc(db), s.N, sb, tb == 1)
	if !good {
		return false
	}
	c := make([]float64, 64*s.N)
	for i, u := range group {
		for r, o := range u.asm.coll.Args[0].Elems {
			row, col := ptx.AccElem(i, r)
			c[row*s.N+col] = float64(math.Float32frombits(uint32(u.asm.read(u, o))))
		}
	}
	for _, p := range reads {
		m.proxyRead(t, p, e, pos, "wgmma.mma_async")
	}
	t.wgPend = append(t.wgPend, wgRead{ptrs: reads, size: e, pos: pos})
	m.asyncReads(reads, e, pos, 1)
	d := s.Wgmma(a, bm, c, acc)
	for i, u := range group {
		for r, o := range u.asm.coll.Args[0].Elems {
			row, col := ptx.AccElem(i, r)
			u.asm.write(o, uint64(d[row*s.N+col]))
		}
	}
	return true
}

// wgmmaRegA gathers A (64 x K, row-major) from the A registers of the
// warpgroup's threads (ptx.md §6.2), negated when imm-scale-a is -1.
func (m *Machine) wgmmaRegA(group []*Thread, s ptx.WgmmaShape, scale int64) []float64 {
	a := make([]float64, 64*s.K)
	for i, u := range group {
		for j, o := range u.asm.coll.Args[1].Elems {
			bits := uint32(u.asm.read(u, o))
			halves := [][2]int{{2 * j, 0}, {2*j + 1, 16}} // low half first
			if s.In == "tf32" {
				halves = [][2]int{{j, 0}}
			}
			for _, h := range halves {
				row, k := s.AFragElem(i, h[0])
				v := bits >> h[1]
				if s.In != "tf32" {
					v &= 0xffff
				}
				x := s.Decode(v)
				if scale < 0 {
					x = -x
				}
				a[row*s.K+k] = x
			}
		}
	}
	return a
}

// wgRead is the shared-memory operand reads of one wgmma, recorded for the
// race detector when a wait_group retires it.
type wgRead struct {
	ptrs []uint64
	size int
	pos  int32
}

// wgmmaRetire retires t's oldest n committed wgmma groups.
func (m *Machine) wgmmaRetire(t *Thread, n int) bool {
	n = min(n, len(t.wgGroups))
	for _, g := range t.wgGroups[:max(n, 0)] {
		for _, r := range g {
			m.asyncReads(r.ptrs, r.size, r.pos, -1)
			for _, p := range r.ptrs {
				if _, good := m.resolve(t, p, r.size, r.pos, false, false); !good {
					return false
				}
			}
		}
	}
	if n > 0 {
		t.wgGroups = append(t.wgGroups[:0], t.wgGroups[n:]...)
	}
	return true
}

// wgmmaUnwaited reports a thread that ends with wgmma instructions no
// wait_group retired (their results may not have been written).
func (m *Machine) wgmmaUnwaited(t *Thread) {
	pos, found := int32(0), false
	if len(t.wgPend) > 0 {
		pos, found = t.wgPend[0].pos, true
	}
	for _, g := range t.wgGroups {
		if !found && len(g) > 0 {
			pos, found = g[0].pos, true
		}
	}
	if !found {
		t.wgPend, t.wgGroups = nil, nil
		return
	}
	m.diags.Errorf(m.pos(pos), "C0505", "wgmma.mma_async by thread %d of block %d was never retired by wgmma.commit_group and wgmma.wait_group before the thread ended", t.tid, t.block.id)
	m.failed = true
	t.wgPend, t.wgGroups = nil, nil
}

// peek returns n bytes at p for a model's own use (bounds and liveness
// checked, no race check: the access is recorded separately).
func (m *Machine) peek(t *Thread, p uint64, n int, pos int32) ([]byte, bool) {
	id := p >> 32
	off := int(int32(uint32(p)))
	if id == 0 || id >= uint64(len(m.objs)) || m.objs[id].Freed || off < 0 || off+n > len(m.objs[id].Data) {
		_, good := m.resolve(t, p, n, pos, false, false) // reports the fault
		return nil, good
	}
	return m.objs[id].Data[off : off+n], true
}

// asyncReads adds d to the outstanding-read counts of the bytes of each
// element (a wgmma issued: +1, retired: -1).
func (m *Machine) asyncReads(ptrs []uint64, size int, pos int32, d int) {
	if !m.opts.Check {
		return
	}
	for _, p := range ptrs {
		o := m.objs[p>>32]
		if o.asyncRd == nil {
			o.asyncRd = make([]uint16, len(o.Data))
			o.asyncAt = make([]int32, len(o.Data))
		}
		off := int(uint32(p))
		for i := off; i < off+size; i++ {
			o.asyncRd[i] = uint16(int(o.asyncRd[i]) + d)
			if d > 0 {
				o.asyncAt[i] = pos
			}
		}
	}
}

// asyncWriteCheck reports a write to bytes that an unretired wgmma may
// still be reading (ptx.md §6.4: the operands must not be modified until
// wgmma.wait_group covers the instruction). No wait of the writer can
// order it after a retirement that has not happened, so it is a race.
func (m *Machine) asyncWriteCheck(t *Thread, o *Object, off, n int, pos int32) {
	for i := off; i < off+n && i < len(o.asyncRd); i++ {
		if o.asyncRd[i] == 0 {
			continue
		}
		key := [2]int32{pos, o.asyncAt[i]}
		if m.asyncSeen == nil {
			m.asyncSeen = map[[2]int32]bool{}
		}
		if !m.asyncSeen[key] {
			m.asyncSeen[key] = true
			who := "the host"
			if t != nil && t.block != nil {
				who = fmt.Sprintf("thread %d of block %d (kernel %s)", t.tid, t.block.id, t.block.grid.fn.Name)
			}
			d := m.diags.Errorf(m.pos(pos), "C0501", "data race on %s (byte %d): write by %s while a wgmma.mma_async not yet retired by wgmma.wait_group may still read it", o.describe(), i, who)
			d.Note(m.pos(o.asyncAt[i]), "the wgmma that reads it")
			m.failed = true
		}
		return
	}
}
