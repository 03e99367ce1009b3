package sem

import (
	"math"
)

// Op is a bytecode operation. Every expression leaves exactly one value on
// the operand stack (void calls leave 0).
type Op uint8

const (
	OpConst    Op = iota // push B
	OpLocal              // push slot A
	OpSetLocal           // slot A = top (kept)
	OpPop
	OpDup
	OpDupX1 // a b -> b a b
	OpSwap
	OpLoad  // addr -> value; A = mem code
	OpStore // addr val -> val; A = mem code
	OpAdd
	OpSub
	OpMul
	OpSDiv
	OpUDiv
	OpSRem
	OpURem
	OpShl
	OpSar
	OpShr
	OpAnd
	OpOr
	OpXor
	OpNeg
	OpCompl
	OpLNot
	OpEq
	OpNe
	OpSLt
	OpSLe
	OpSGt
	OpSGe
	OpULt
	OpULe
	OpUGt
	OpUGe
	OpFAdd
	OpFSub
	OpFMul
	OpFDiv
	OpFNeg
	OpF32Add
	OpF32Sub
	OpF32Mul
	OpF32Div
	OpFEq
	OpFNe
	OpFLt
	OpFLe
	OpFGt
	OpFGe
	OpExt   // normalize to A bits, signed if B != 0
	OpI2F   // signed int -> double
	OpU2F   // unsigned int -> double
	OpF2I   // double -> signed int
	OpF2U   // double -> unsigned int
	OpF2F32 // round double to float
	OpPtrAdd
	OpPtrDiff
	OpJmp
	OpJz
	OpJnz
	OpCall    // A = function index, B = number of argument values
	OpRet     // return top
	OpBuiltin // A = builtin id, B = argument count
	OpAlloca  // slot A = new local object of B bytes
	OpTemp    // push a fresh temporary object of B bytes
	OpGlobal  // push pointer to global A
	OpShared  // push pointer to static shared variable A of this block
	OpSReg    // push special register A
	OpMemcpy  // dst src -> dst, B bytes
	OpMemzero // dst -> dst, B bytes
	OpLaunch  // A = kernel, B = argument count; below the args: gx gy gz bx by bz shmem stream
	OpTrap    // fault with message const A
	OpString  // push pointer to string literal A
	// Scalar locals declared without an initializer live in slots like the
	// others but use these forms, so that weft check can warn when one is
	// read before it is assigned (C0407; C99 6.7.8p10: its value is
	// indeterminate). B is the index of the variable's name in Strings.
	OpUndef     // mark slot A uninitialized (weft check only)
	OpLocalU    // push slot A, warning if it is uninitialized
	OpSetLocalU // slot A = top (kept), now initialized
	OpRoundH    // round double to __half (A = 0) or __nv_bfloat16 (A = 1)
	OpCallInd   // call through a function pointer below the B arguments (fnptr.go)
	OpLoadV     // OpLoad of a volatile object: a strong relaxed load (fence.go)
	OpStoreV    // OpStore of a volatile object: a strong relaxed store (fence.go)
	OpAddS      // signed +, -, * of A-bit operands (32 or 64): overflow is undefined (overflow.go)
	OpSubS
	OpMulS
	// exceptions (exc.go): OpTry A = handler code, B = end of the try
	// block; OpTryEnd A = its handler code; OpThrow A = exception type
	// (the object's pointer on the stack); OpRethrow (throw;);
	// OpExcMatch A = handler type (push whether the exception being
	// handled matches); OpExcObj (push its object); OpExcEnd (its handler
	// finished); OpExcUnmatched (no clause matched: rethrow)
	OpTry
	OpTryEnd
	OpThrow
	OpRethrow
	OpExcMatch
	OpExcObj
	OpExcEnd
	OpExcUnmatched
)

// Instr is one bytecode instruction.
type Instr struct {
	Op Op
	A  int32
	P  int32 // position index (for diagnostics)
	B  int64
}

// Special registers for OpSReg.
const (
	srTidX = iota
	srTidY
	srTidZ
	srBidX
	srBidY
	srBidZ
	srBdimX
	srBdimY
	srBdimZ
	srGdimX
	srGdimY
	srGdimZ
	srWarpSize
	srLane
)

// status is why the interpreter loop returned.
type status uint8

const (
	stDone    status = iota // the thread finished
	stBlocked               // waits at a barrier or warp collective
	stYield                 // its time slice ended
	stFault                 // the run must end
)

type frame struct {
	fn   *Function
	pc   int
	base int // first slot
	objs []*Object
}

const maxFrames = 4096

func f64(v uint64) float64  { return math.Float64frombits(v) }
func bits(f float64) uint64 { return math.Float64bits(f) }
func f32op(f float32) uint64 {
	return math.Float64bits(float64(f))
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// sharedOp marks the instructions another thread can observe or that
// synchronize (memory accesses, builtins: barriers, collectives, atomics,
// printf; allocation, launches, traps): the interleaving of threads only
// matters at them, so a turn of the scheduler ends before one of them
// (issue 15 item 7: one instruction per turn spent most of the run time
// in the scheduler). Any interleaving is sound for the race check.
var sharedOp = func() (a [256]bool) {
	for _, op := range []Op{OpLoad, OpStore, OpLoadV, OpStoreV, OpBuiltin, OpMemcpy, OpMemzero, OpAlloca, OpTemp, OpLaunch, OpTrap, OpCallInd} {
		a[op] = true
	}
	return
}()

// privSlack is how many instructions past its budget a thread may run
// without a visible one before it yields.
const privSlack = 4096

// run runs t for up to budget instructions (runN), counting them in
// m.steps. (A deferred update in the interpreter loop cost about a third
// of the run time at one instruction per turn: issue 15 item 7.)
func (m *Machine) run(t *Thread, budget int) status {
	st, n := m.runN(t, budget, false)
	m.steps += uint64(n)
	return st
}

// runTurn is one scheduling turn of a device thread of a block: budget
// visible instructions and the private ones around them (sharedOp), or
// budget instructions in a kernel-only run, whose search reproduces the
// instruction-granular schedule (kernelonly.go).
func (m *Machine) runTurn(t *Thread, budget int) status {
	st, n := m.runN(t, budget, !m.kernelOnly)
	m.steps += uint64(n)
	return st
}

func (m *Machine) runN(t *Thread, budget int, vis bool) (status, int) {
	fr := &t.frames[len(t.frames)-1]
	code, fast := fr.fn.Code, fastCode(fr.fn)
	pc := fr.pc
	base := fr.base
	st := t.stack
	slots := t.slots
	steps, nv := 0, 0
	// With vis the budget counts visible instructions (sharedOp): a thread
	// runs its private ones (arithmetic, locals, jumps, calls) without
	// yielding, up to privSlack more than the budget, so that a loop
	// without memory accesses still returns to the scheduler.
	lim := budget
	if vis {
		lim = budget + privSlack
		if lim < budget {
			lim = budget
		}
	}
	for {
		// the fused code while a pair fits in the turn, then the last
		// step in the plain code (vmfuse.go)
		if !pureOff {
			pc, st, steps = runPure(t, fast, pc, st, slots, base, steps, lim-1, m.watch)
			if steps == lim-1 {
				pc, st, steps = runPure(t, code, pc, st, slots, base, steps, lim, m.watch)
			}
		}
		in := &code[pc]
		// One comparison per instruction: the visible ones count their
		// own budget in their cases (the vis checks), so the table is read
		// only once a turn's private allowance is spent (issue 15 item 7).
		if steps >= lim && (!vis || !sharedOp[in.Op]) {
			goto yield
		}
		steps++
		pc++
		n := len(st) - 1
		switch in.Op {
		case OpConst:
			st = append(st, uint64(in.B))
		case OpLocal:
			st = append(st, slots[base+int(in.A)])
		case OpSetLocal:
			slots[base+int(in.A)] = st[n]
		case OpUndef:
			if m.opts.Check {
				i := base + int(in.A)
				for len(t.undef) <= i/64 {
					t.undef = append(t.undef, 0)
				}
				t.undef[i/64] |= 1 << (i % 64)
			}
		case OpLocalU:
			i := base + int(in.A)
			st = append(st, slots[i])
			if i/64 < len(t.undef) && t.undef[i/64]&(1<<(i%64)) != 0 && !m.uninitSeen[in.P] {
				m.uninitSeen[in.P] = true
				m.diags.Warnf(m.pos(in.P), "C0407", "read of uninitialized variable %s", m.prog.Strings[in.B])
			}
		case OpSetLocalU:
			i := base + int(in.A)
			slots[i] = st[n]
			if i/64 < len(t.undef) {
				t.undef[i/64] &^= 1 << (i % 64)
			}
		case OpPop:
			st = st[:n]
		case OpDup:
			st = append(st, st[n])
		case OpDupX1:
			a, b := st[n-1], st[n]
			st[n-1], st[n] = b, a
			st = append(st, b)
		case OpSwap:
			st[n-1], st[n] = st[n], st[n-1]
		case OpLoad:
			if vis {
				if nv >= budget {
					pc, steps = pc-1, steps-1
					goto yield
				}
				nv++
			}
			v, ok := m.load(t, st[n], int(in.A), in.P)
			if !ok {
				return m.faulted(t, fr, pc, st), steps
			}
			st[n] = v
		case OpStore:
			if vis {
				if nv >= budget {
					pc, steps = pc-1, steps-1
					goto yield
				}
				nv++
			}
			if !m.store(t, st[n-1], int(in.A), st[n], in.P) {
				return m.faulted(t, fr, pc, st), steps
			}
			st[n-1] = st[n]
			st = st[:n]
		case OpLoadV:
			if vis {
				if nv >= budget {
					pc, steps = pc-1, steps-1
					goto yield
				}
				nv++
			}
			v, ok := m.loadV(t, st[n], int(in.A), in.P)
			if !ok {
				return m.faulted(t, fr, pc, st), steps
			}
			st[n] = v
		case OpStoreV:
			if vis {
				if nv >= budget {
					pc, steps = pc-1, steps-1
					goto yield
				}
				nv++
			}
			if !m.storeV(t, st[n-1], int(in.A), st[n], in.P) {
				return m.faulted(t, fr, pc, st), steps
			}
			st[n-1] = st[n]
			st = st[:n]
		case OpAdd:
			st[n-1] += st[n]
			st = st[:n]
		case OpAddS:
			// the common 32-bit case inline; overflow and 64 bits in
			// signedArith (overflow.go)
			if r := int64(int32(st[n-1])) + int64(int32(st[n])); in.A == 32 && r == int64(int32(r)) {
				st[n-1] = uint64(r)
			} else {
				st[n-1] = m.signedArith(t, in, st[n-1], st[n])
			}
			st = st[:n]
		case OpSubS:
			if r := int64(int32(st[n-1])) - int64(int32(st[n])); in.A == 32 && r == int64(int32(r)) {
				st[n-1] = uint64(r)
			} else {
				st[n-1] = m.signedArith(t, in, st[n-1], st[n])
			}
			st = st[:n]
		case OpMulS:
			if r := int64(int32(st[n-1])) * int64(int32(st[n])); in.A == 32 && r == int64(int32(r)) {
				st[n-1] = uint64(r)
			} else {
				st[n-1] = m.signedArith(t, in, st[n-1], st[n])
			}
			st = st[:n]
		case OpSub:
			st[n-1] -= st[n]
			st = st[:n]
		case OpMul:
			st[n-1] *= st[n]
			st = st[:n]
		case OpSDiv, OpSRem, OpUDiv, OpURem:
			if st[n] == 0 {
				m.fault(t, in.P, "C0601", "integer division by zero")
				return m.faulted(t, fr, pc, st), steps
			}
			a, b := st[n-1], st[n]
			switch in.Op {
			case OpSDiv:
				if int64(b) == -1 {
					m.divOverflow(t, in, a)
					st[n-1] = -a
				} else {
					st[n-1] = uint64(int64(a) / int64(b))
				}
			case OpSRem:
				if int64(b) == -1 {
					m.divOverflow(t, in, a)
					st[n-1] = 0
				} else {
					st[n-1] = uint64(int64(a) % int64(b))
				}
			case OpUDiv:
				st[n-1] = a / b
			default:
				st[n-1] = a % b
			}
			st = st[:n]
		case OpShl:
			st[n-1] <<= st[n] & 63
			st = st[:n]
		case OpSar:
			st[n-1] = uint64(int64(st[n-1]) >> (st[n] & 63))
			st = st[:n]
		case OpShr:
			st[n-1] >>= st[n] & 63
			st = st[:n]
		case OpAnd:
			st[n-1] &= st[n]
			st = st[:n]
		case OpOr:
			st[n-1] |= st[n]
			st = st[:n]
		case OpXor:
			st[n-1] ^= st[n]
			st = st[:n]
		case OpNeg:
			st[n] = -st[n]
		case OpCompl:
			st[n] = ^st[n]
		case OpLNot:
			st[n] = b2u(st[n] == 0)
		case OpEq:
			st[n-1] = b2u(st[n-1] == st[n])
			st = st[:n]
		case OpNe:
			st[n-1] = b2u(st[n-1] != st[n])
			st = st[:n]
		case OpSLt:
			st[n-1] = b2u(int64(st[n-1]) < int64(st[n]))
			st = st[:n]
		case OpSLe:
			st[n-1] = b2u(int64(st[n-1]) <= int64(st[n]))
			st = st[:n]
		case OpSGt:
			st[n-1] = b2u(int64(st[n-1]) > int64(st[n]))
			st = st[:n]
		case OpSGe:
			st[n-1] = b2u(int64(st[n-1]) >= int64(st[n]))
			st = st[:n]
		case OpULt:
			st[n-1] = b2u(st[n-1] < st[n])
			st = st[:n]
		case OpULe:
			st[n-1] = b2u(st[n-1] <= st[n])
			st = st[:n]
		case OpUGt:
			st[n-1] = b2u(st[n-1] > st[n])
			st = st[:n]
		case OpUGe:
			st[n-1] = b2u(st[n-1] >= st[n])
			st = st[:n]
		case OpFAdd:
			st[n-1] = bits(f64(st[n-1]) + f64(st[n]))
			st = st[:n]
		case OpFSub:
			st[n-1] = bits(f64(st[n-1]) - f64(st[n]))
			st = st[:n]
		case OpFMul:
			st[n-1] = bits(f64(st[n-1]) * f64(st[n]))
			st = st[:n]
		case OpFDiv:
			st[n-1] = bits(f64(st[n-1]) / f64(st[n]))
			st = st[:n]
		case OpFNeg:
			st[n] = bits(-f64(st[n]))
		case OpF32Add:
			st[n-1] = f32op(float32(f64(st[n-1])) + float32(f64(st[n])))
			st = st[:n]
		case OpF32Sub:
			st[n-1] = f32op(float32(f64(st[n-1])) - float32(f64(st[n])))
			st = st[:n]
		case OpF32Mul:
			st[n-1] = f32op(float32(f64(st[n-1])) * float32(f64(st[n])))
			st = st[:n]
		case OpF32Div:
			st[n-1] = f32op(float32(f64(st[n-1])) / float32(f64(st[n])))
			st = st[:n]
		case OpFEq:
			st[n-1] = b2u(f64(st[n-1]) == f64(st[n]))
			st = st[:n]
		case OpFNe:
			st[n-1] = b2u(f64(st[n-1]) != f64(st[n]))
			st = st[:n]
		case OpFLt:
			st[n-1] = b2u(f64(st[n-1]) < f64(st[n]))
			st = st[:n]
		case OpFLe:
			st[n-1] = b2u(f64(st[n-1]) <= f64(st[n]))
			st = st[:n]
		case OpFGt:
			st[n-1] = b2u(f64(st[n-1]) > f64(st[n]))
			st = st[:n]
		case OpFGe:
			st[n-1] = b2u(f64(st[n-1]) >= f64(st[n]))
			st = st[:n]
		case OpExt:
			st[n] = ext(st[n], int(in.A), in.B != 0)
		case OpI2F:
			st[n] = bits(float64(int64(st[n])))
		case OpU2F:
			st[n] = bits(float64(st[n]))
		case OpF2I:
			st[n] = uint64(f2i(f64(st[n]), int(in.A)))
		case OpF2U:
			st[n] = f2u(f64(st[n]), int(in.A))
		case OpF2F32:
			st[n] = bits(float64(float32(f64(st[n]))))
		case OpRoundH:
			if in.A == 0 {
				st[n] = bits(roundHalf(f64(st[n])))
			} else {
				st[n] = bits(roundBF16(f64(st[n])))
			}
		case OpPtrAdd:
			// the offset is a signed 32-bit field: arithmetic never
			// carries into the object id, so provenance is kept and an
			// offset below zero is caught as out of bounds
			p := st[n-1]
			off := int64(int32(uint32(p))) + int64(st[n])*int64(in.A)
			// an offset beyond the 32-bit field would wrap back into the
			// object; saturate it so that it stays out of bounds (no
			// object is 2 GB, see alloc)
			off = min(max(off, math.MinInt32), math.MaxInt32)
			st[n-1] = p&^0xffffffff | uint64(uint32(int32(off)))
			st = st[:n]
		case OpPtrDiff:
			// C99 6.5.6p9: both pointers must point into the same object
			if a, b := st[n-1]>>32, st[n]>>32; a != b {
				m.fault(t, in.P, "C0410", "subtraction of pointers to different objects (%s and %s)", m.describePtr(st[n-1]), m.describePtr(st[n]))
				return m.faulted(t, fr, pc, st), steps
			}
			st[n-1] = uint64((int64(int32(uint32(st[n-1]))) - int64(int32(uint32(st[n])))) / int64(in.A))
			st = st[:n]
		// A backward jump is where a spinning thread repeats its state; the
		// spin detector (spin.go) looks only while memory is quiet.
		case OpJmp:
			if m.watch && int(in.A) < pc {
				m.spinAt(t, fr, pc, st, slots)
			}
			pc = int(in.A)
		case OpJz:
			c := st[n]
			st = st[:n]
			if c == 0 {
				if m.watch && int(in.A) < pc {
					m.spinAt(t, fr, pc, st, slots)
				}
				pc = int(in.A)
			}
		case OpJnz:
			c := st[n]
			st = st[:n]
			if c != 0 {
				if m.watch && int(in.A) < pc {
					m.spinAt(t, fr, pc, st, slots)
				}
				pc = int(in.A)
			}
		case OpCall:
			callee := m.prog.Funcs[in.A]
			if len(t.frames) >= maxFrames {
				m.fault(t, in.P, "C0606", "call stack overflow in %s (recursion too deep)", callee.Name)
				return m.faulted(t, fr, pc, st), steps
			}
			fr.pc = pc
			nargs := int(in.B)
			nb := len(slots)
			need := nb + callee.NSlots
			for cap(slots) < need {
				slots = append(slots[:cap(slots)], 0)
			}
			slots = slots[:need]
			copy(slots[nb:], st[len(st)-nargs:])
			clear(slots[nb+nargs : need])
			st = st[:len(st)-nargs]
			t.frames = append(t.frames, frame{fn: callee, base: nb})
			fr = &t.frames[len(t.frames)-1]
			code, fast, pc, base = callee.Code, fastCode(callee), 0, nb
		case OpCallInd:
			if vis {
				if nv >= budget {
					pc, steps = pc-1, steps-1
					goto yield
				}
				nv++
			}
			nargs := int(in.B)
			fp := st[len(st)-nargs-1]
			callee, bi, okp := m.funcOfPtr(fp)
			if !okp {
				m.fault(t, in.P, "C0405", "call through an invalid function pointer 0x%x", fp)
				return m.faulted(t, fr, pc, st), steps
			}
			if callee == nil {
				// a pointer to a modeled library function
				args := st[len(st)-nargs:]
				fr.pc = pc
				t.slots = slots
				v, s := builtinTable[bi].fn(m, t, args, in.P)
				st = st[:len(st)-nargs-1]
				switch s {
				case stFault:
					t.stack = st
					return stFault, steps
				case stBlocked:
					m.fault(t, in.P, "C0309", "a blocking library function called through a function pointer")
					return m.faulted(t, fr, pc, st), steps
				}
				st = append(st, v)
				fr = &t.frames[len(t.frames)-1]
				slots = t.slots
				continue
			}
			if t.host && !callee.Host || !t.host && !callee.Device {
				side := "host"
				if !t.host {
					side = "device"
				}
				m.fault(t, in.P, "C0307", "%s code calls %s through a function pointer, which it cannot call", side, callee.Name)
				return m.faulted(t, fr, pc, st), steps
			}
			if callee.Global {
				m.fault(t, in.P, "C0308", "a __global__ function %s is called through a pointer without a launch", callee.Name)
				return m.faulted(t, fr, pc, st), steps
			}
			if len(t.frames) >= maxFrames {
				m.fault(t, in.P, "C0606", "call stack overflow in %s (recursion too deep)", callee.Name)
				return m.faulted(t, fr, pc, st), steps
			}
			fr.pc = pc
			nb := len(slots)
			need := nb + callee.NSlots
			for cap(slots) < need {
				slots = append(slots[:cap(slots)], 0)
			}
			slots = slots[:need]
			copy(slots[nb:], st[len(st)-nargs:])
			clear(slots[nb+nargs : need])
			st = st[:len(st)-nargs-1]
			t.frames = append(t.frames, frame{fn: callee, base: nb})
			fr = &t.frames[len(t.frames)-1]
			code, fast, pc, base = callee.Code, fastCode(callee), 0, nb
		case OpRet:
			v := st[n]
			st = st[:n]
			for _, o := range fr.objs {
				m.releaseLocal(o)
			}
			slots = slots[:fr.base]
			t.frames = t.frames[:len(t.frames)-1]
			if len(t.caught)|len(t.handlers) > 0 {
				t.leaveHandlers() // exc.go
			}
			if len(t.frames) == t.stopDepth {
				t.retVal = v
				t.stack = st
				t.slots = slots
				return stDone, steps
			}
			fr = &t.frames[len(t.frames)-1]
			code, fast, pc, base = fr.fn.Code, fastCode(fr.fn), fr.pc, fr.base
			st = append(st, v)
		case OpTry, OpTryEnd, OpThrow, OpRethrow, OpExcMatch, OpExcObj, OpExcEnd, OpExcUnmatched:
			fr.pc = pc
			t.stack = st
			t.slots = slots
			if !m.excOp(t, in) {
				fr = &t.frames[len(t.frames)-1]
				return m.faulted(t, fr, fr.pc, t.stack), steps
			}
			fr = &t.frames[len(t.frames)-1]
			code, fast, pc, base = fr.fn.Code, fastCode(fr.fn), fr.pc, fr.base
			st, slots = t.stack, t.slots
		case OpBuiltin:
			if vis {
				if nv >= budget {
					pc, steps = pc-1, steps-1
					goto yield
				}
				nv++
			}
			nargs := int(in.B)
			args := st[len(st)-nargs:]
			fr.pc = pc
			t.slots = slots
			v, s := builtinTable[in.A].fn(m, t, args, in.P)
			st = st[:len(st)-nargs]
			switch s {
			case stFault:
				t.stack = st
				return stFault, steps
			case stBlocked:
				t.stack = st
				m.steps += uint64(steps)
				steps = 0
				return stBlocked, steps
			}
			st = append(st, v)
			// a builtin may have run other code (a host API call runs
			// kernels); reload the frame in case slices moved
			fr = &t.frames[len(t.frames)-1]
			slots = t.slots
		case OpAlloca:
			if vis {
				if nv >= budget {
					pc, steps = pc-1, steps-1
					goto yield
				}
				nv++
			}
			o := m.newObject(int(in.B), t.localSpace(), "", in.P)
			fr.objs = append(fr.objs, o)
			if m.failed { // over the memory limit
				return m.faulted(t, fr, pc, st), steps
			}
			slots[base+int(in.A)] = ptrOf(o, 0)
		case OpTemp:
			if vis {
				if nv >= budget {
					pc, steps = pc-1, steps-1
					goto yield
				}
				nv++
			}
			o := m.newObject(int(in.B), t.localSpace(), "", in.P)
			if m.failed {
				return m.faulted(t, fr, pc, st), steps
			}
			if t.block != nil {
				t.temps = append(t.temps, o) // freed when t exits (dropTemps)
			}
			st = append(st, ptrOf(o, 0))
		case OpGlobal:
			st = append(st, ptrOf(m.globals[in.A], 0))
		case OpShared:
			st = append(st, t.block.sharedPtr(m, int(in.A), in.B))
		case OpSReg:
			if !t.srOK {
				t.fillSregs()
			}
			if uint(in.A) < uint(len(t.sr)) {
				st = append(st, t.sr[in.A])
			} else {
				st = append(st, t.sreg(int(in.A)))
			}
		case OpMemcpy:
			if vis {
				if nv >= budget {
					pc, steps = pc-1, steps-1
					goto yield
				}
				nv++
			}
			if !m.copyMem(t, st[n-1], st[n], int(in.B), in.P, false) {
				return m.faulted(t, fr, pc, st), steps
			}
			st = st[:n]
		case OpMemzero:
			if vis {
				if nv >= budget {
					pc, steps = pc-1, steps-1
					goto yield
				}
				nv++
			}
			if !m.setMem(t, st[n], 0, int(in.B), in.P, false) {
				return m.faulted(t, fr, pc, st), steps
			}
		case OpLaunch:
			if vis {
				if nv >= budget {
					pc, steps = pc-1, steps-1
					goto yield
				}
				nv++
			}
			nargs := int(in.B)
			args := st[len(st)-nargs-8:]
			fr.pc = pc
			t.slots = slots
			if !m.launch(t, m.prog.Funcs[in.A], args, in.P) {
				return m.faulted(t, fr, pc, st), steps
			}
			st = st[:len(st)-nargs-8]
			st = append(st, 0)
			fr = &t.frames[len(t.frames)-1]
			slots = t.slots
		case OpString:
			st = append(st, ptrOf(m.stringObjs[in.A], 0))
		case OpTrap:
			if vis {
				if nv >= budget {
					pc, steps = pc-1, steps-1
					goto yield
				}
				nv++
			}
			m.fault(t, in.P, "C0309", "%s", m.prog.Strings[in.A])
			return m.faulted(t, fr, pc, st), steps
		}
	}
yield:
	fr.pc = pc
	t.stack = st
	t.slots = slots
	return stYield, steps
}

func (m *Machine) faulted(t *Thread, fr *frame, pc int, st []uint64) status {
	fr.pc = pc
	t.stack = st
	m.failed = true
	return stFault
}

func ext(v uint64, bitsN int, signed bool) uint64 {
	switch bitsN {
	case 1:
		return b2u(v != 0)
	case 8:
		if signed {
			return uint64(int64(int8(v)))
		}
		return uint64(uint8(v))
	case 16:
		if signed {
			return uint64(int64(int16(v)))
		}
		return uint64(uint16(v))
	case 32:
		if signed {
			return uint64(int64(int32(v)))
		}
		return uint64(uint32(v))
	}
	return v
}

// f2i converts to a signed integer of n bits, saturating, NaN to 0.
func f2i(f float64, n int) int64 {
	if n == 0 {
		n = 64
	}
	hi := math.Ldexp(1, n-1)
	switch {
	case f != f:
		return 0
	case f >= hi:
		return int64(uint64(1)<<(n-1) - 1)
	case f <= -hi:
		return -int64(uint64(1) << (n - 1))
	}
	return int64(f)
}

// f2u converts to an unsigned integer of n bits, saturating, NaN to 0.
func f2u(f float64, n int) uint64 {
	if n == 0 {
		n = 64
	}
	switch {
	case f != f || f <= 0:
		return 0
	case f >= math.Ldexp(1, n):
		if n == 64 {
			return math.MaxUint64
		}
		return uint64(1)<<n - 1
	}
	return uint64(f)
}
