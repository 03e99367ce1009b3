package sem

import (
	"weft.dev/weft/diag"
	"weft.dev/weft/lang/cudac/syntax"
)

// Smaller library models: the virtual clock of <sys/time.h> (gettimeofday
// reads the instructions interpreted so far at one per nanosecond, the
// clock cudaEventElapsedTime uses, so timings are deterministic), the
// profiler API (no-ops), mapped pinned memory (the host pointer is the
// device pointer: both sides may access pinned memory here), and swap.

var tTimeval *Type

// initTTimeval builds tTimeval (tables.go).
func initTTimeval() {
	tTimeval = structOf("timeval", "tv_sec", tLong, "tv_usec", tLong)
}

func initLibMisc() {
	builtinTypedefs["timeval"] = tTimeval
	for name, v := range map[string]int64{"cudaHostAllocMapped": 2, "cudaHostAllocPortable": 1,
		"cudaHostAllocWriteCombined": 4, "cudaDeviceMapHost": 8, "cudaDeviceScheduleAuto": 0,
		"cudaDeviceScheduleSpin": 1, "cudaDeviceScheduleYield": 2, "cudaDeviceScheduleBlockingSync": 4,
		"cudaDeviceBlockingSync": 4, // the deprecated name of cudaDeviceScheduleBlockingSync
		"cudaDeviceScheduleMask": 7, "cudaDeviceLmemResizeToMax": 16,
		"cudaHostRegisterDefault": 0, "cudaHostRegisterMapped": 2} {
		namedConsts[name] = v
	}
	for name, s := range map[string]*bsig{
		"gettimeofday":             sig(tInt, hostSide, tAny, tAny),
		"cudaProfilerStart":        sig(tInt, hostSide),
		"cudaProfilerStop":         sig(tInt, hostSide),
		"cudaHostGetDevicePointer": sig(tInt, hostSide, tVoidPP, tVoidP, tUInt),
		"cudaSetDeviceFlags":       sig(tInt, hostSide, tUInt),
	} {
		builtinSigs[name] = s
	}
	defb("gettimeofday", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		b, good := m.resolve(t, a[0], tTimeval.size, pos, true, false)
		if !good {
			return 0, stFault
		}
		ns := m.wallNs() // lib_posix.go
		storeN(b, 8, ns/1e9)
		storeN(b[8:], 8, ns%1e9/1e3)
		return ok(0)
	})
	zero := func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) { return ok(0) }
	defb("cudaProfilerStart", zero)
	defb("cudaProfilerStop", zero)
	defb("cudaSetDeviceFlags", zero)
	defb("cudaHostGetDevicePointer", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		id := a[1] >> 32
		if id == 0 || id >= uint64(len(m.objs)) || m.objs[id].Space != SpacePinned {
			return ok(1) // not pinned host memory: cudaErrorInvalidValue
		}
		if o, off := m.objs[id], int32(uint32(a[1])); o.registered && (off < o.regOff || off >= o.regEnd) {
			return ok(1) // outside the range cudaHostRegister pinned (lib_hostreg.go)
		}
		if !m.store(t, a[0], mU64, a[1], pos) {
			return 0, stFault
		}
		return ok(0)
	})
}

// swapCall compiles std::swap(a, b) of two objects of one type.
func (c *compiler) swapCall(e *syntax.Call) *Type {
	pos := e.Pos
	if len(e.Args) != 2 || !c.addressable(e.Args[0]) || !c.addressable(e.Args[1]) {
		c.errorf(pos, "C0304", "swap takes two objects")
		c.emit(OpConst, 0, 0, pos)
		return tVoid
	}
	ta, tb := c.typeOf(e.Args[0], false), c.typeOf(e.Args[1], false)
	if !sameType(ta, tb) {
		c.errorf(pos, "C0302", "swap of %s and %s", ta, tb)
		c.emit(OpConst, 0, 0, pos)
		return tVoid
	}
	n := int64(ta.size)
	as, bs := c.newSlot(), c.newSlot()
	c.lvalue(e.Args[0])
	c.emit(OpSetLocal, int32(as), 0, pos)
	c.emit(OpPop, 0, 0, pos)
	c.lvalue(e.Args[1])
	c.emit(OpSetLocal, int32(bs), 0, pos)
	c.emit(OpPop, 0, 0, pos)
	// tmp = a; a = b; b = tmp (bytes: a swap moves, it does not copy)
	c.emit(OpTemp, 0, n, pos)
	c.emit(OpLocal, int32(as), 0, pos)
	c.emit(OpMemcpy, 0, n, pos)
	c.emit(OpLocal, int32(as), 0, pos)
	c.emit(OpLocal, int32(bs), 0, pos)
	c.emit(OpMemcpy, 0, n, pos)
	c.emit(OpPop, 0, 0, pos)
	c.emit(OpLocal, int32(bs), 0, pos)
	c.emit(OpSwap, 0, 0, pos)
	c.emit(OpMemcpy, 0, n, pos)
	return tVoid
}

var _ = diag.Pos{}

// alignCheck checks, in device code, that the address on the stack (kept)
// is aligned for a vector type of 8 or 16 bytes: a float4 or double2
// access is one wide load or store on a GPU, which faults on a misaligned
// address (CUDA C++ Programming Guide, "Size and Alignment Requirement").
// Objects are allocated aligned, so the offset decides.
func (c *compiler) alignCheck(t *Type, pos diag.Pos) {
	if t.vec == nil || t.align < 8 || c.fn == nil || !c.fn.Device {
		return
	}
	c.emit(OpConst, 0, int64(t.align), pos)
	c.emit(OpBuiltin, c.builtinIndexOf("__check_align", pos), 2, pos)
}

func initLibMisc2() {
	builtinSigs["__check_align"] = sig(tVoidP, anySide, tAny, tAny)
	defb("__check_align", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if t.host {
			return ok(a[0])
		}
		if off := int64(int32(uint32(a[0]))); off%int64(a[1]) != 0 {
			m.fault(t, pos, "C0411", "misaligned %d-byte vector access at byte offset %d (it must be a multiple of %d)", a[1], off, a[1])
			return 0, stFault
		}
		return ok(a[0])
	})
}
