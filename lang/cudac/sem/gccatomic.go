package sem

import (
	mbits "math/bits"
	"strings"

	"weft.dev/weft/lang/cudac/syntax"
)

// GCC's atomic builtins in host code (GCC manual, "Legacy __sync Built-in
// Functions for Atomic Memory Access" and "Built-in Functions for Memory
// Model Aware Atomic Operations"), which CUDA programs use on the host side
// of system-wide atomics (managed memory updated concurrently by the host
// and by atomicAdd_system on the device):
//
//	__sync_fetch_and_OP(p, v), __sync_OP_and_fetch(p, v)   OP: add sub or and xor nand
//	__sync_val_compare_and_swap(p, old, new), __sync_bool_compare_and_swap
//	__sync_lock_test_and_set(p, v), __sync_lock_release(p), __sync_synchronize()
//	__atomic_load_n, __atomic_store_n, __atomic_exchange_n,
//	__atomic_compare_exchange_n, __atomic_fetch_OP, __atomic_OP_fetch,
//	__atomic_thread_fence, __atomic_signal_fence; __ATOMIC_RELAXED ... SEQ_CST
//
// on an integer (or pointer-sized integer) object of 1, 2, 4 or 8 bytes.
// Each is one read-modify-write (or load or store) that the race checker
// sees as an atomic access, like the device atomics: two never race, and a
// device atomic and a host one on the same managed word do not race either.
// The memory orders are accepted and not otherwise modelled: host code has
// no fences in the model (host threads order through pthread calls and the
// CUDA runtime, pthread.go), so a host-side flag protocol built on these
// builtins alone is not an ordering the race checker knows. In device code
// they do not exist (nvcc rejects them): C0307.
//
// ffs, ffsl and ffsll (<strings.h>, POSIX) are __ffs and __ffsll on the
// host.

const (
	gaAdd = iota
	gaSub
	gaOr
	gaAnd
	gaXor
	gaNand
	gaXchg
	gaCAS
	gaLoad
	gaStore
	gaCmpXchg
)

// the result of __gcc_atomic: the old value, the new one, or whether a
// CAS swapped
const (
	gaOld = iota
	gaNew
	gaSwapped
)

var gaOps map[string]int

// initGaOps builds gaOps (tables.go).
func initGaOps() {
	gaOps = map[string]int{"add": gaAdd, "sub": gaSub, "or": gaOr, "and": gaAnd, "xor": gaXor, "nand": gaNand}
}

func initGccatomic() {
	for k, v := range map[string]int64{"__ATOMIC_RELAXED": 0, "__ATOMIC_CONSUME": 1, "__ATOMIC_ACQUIRE": 2,
		"__ATOMIC_RELEASE": 3, "__ATOMIC_ACQ_REL": 4, "__ATOMIC_SEQ_CST": 5} {
		namedConsts[k] = v
	}
	builtinSigs["ffs"] = sig(tInt, hostSide, tInt)
	builtinSigs["ffsl"] = sig(tInt, hostSide, tLong)
	builtinSigs["ffsll"] = sig(tInt, hostSide, tLLong)
	ffs := func(bitsN int) builtinFn {
		return func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
			v := a[0]
			if bitsN == 32 {
				v = uint64(uint32(v))
			}
			if v == 0 {
				return ok(0)
			}
			return ok(uint64(mbits.TrailingZeros64(v) + 1))
		}
	}
	defb("ffs", ffs(32))
	defb("ffsl", ffs(64))
	defb("ffsll", ffs(64))
	// __gcc_atomic(p, v, w, op, mc, mode): v the operand (the expected
	// value of a CAS, the address of the expected value of a cmpxchg), w a
	// CAS's new value
	defb("__gcc_atomic", gccAtomic)
}

func (m *Machine) gccAtomicOld(t *Thread, p uint64, mc int, pos int32, write bool) ([]byte, uint64, bool) {
	size := mSize[mc]
	b, good := m.resolveA(t, p, size, pos, write, false, true)
	if !good {
		return nil, 0, false
	}
	if m.opts.Check {
		m.strongRead(t, p, false)
		if write {
			m.strongWrite(t, p, true)
		}
	}
	return b, fromMem(mc, loadN(b, size)), true
}

func gccAtomic(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
	p, v, w, op, mc, mode := a[0], a[1], a[2], int(a[3]), int(a[4]), a[5]
	size := mSize[mc]
	if op == gaLoad {
		_, old, good := m.gccAtomicOld(t, p, mc, pos, false)
		if !good {
			return 0, stFault
		}
		return ok(old)
	}
	if op == gaCmpXchg {
		eb, good := m.resolve(t, v, size, pos, false, false)
		if !good {
			return 0, stFault
		}
		v = fromMem(mc, loadN(eb, size))
	}
	b, old, good := m.gccAtomicOld(t, p, mc, pos, true)
	if !good {
		return 0, stFault
	}
	nv := old
	switch op {
	case gaAdd:
		nv = old + v
	case gaSub:
		nv = old - v
	case gaOr:
		nv = old | v
	case gaAnd:
		nv = old & v
	case gaXor:
		nv = old ^ v
	case gaNand:
		nv = ^(old & v)
	case gaXchg, gaStore:
		nv = v
	case gaCAS, gaCmpXchg:
		if old == v {
			nv = w
		}
	}
	raw := loadN(b, size)
	storeN(b, size, toMem(mc, nv))
	if loadN(b, size) != raw {
		m.mver++
	}
	switch {
	case op == gaCmpXchg:
		if old != v {
			// on failure the current value is written to *expected
			// (a plain store of the calling thread)
			if !m.store(t, a[1], mc, old, pos) {
				return 0, stFault
			}
			return ok(0)
		}
		return ok(1)
	case mode == gaNew:
		return ok(fromMem(mc, toMem(mc, nv)))
	case mode == gaSwapped:
		return ok(b2u(old == v))
	}
	return ok(old)
}

// gccAtomicCall compiles a __sync_ or __atomic_ builtin; ok false when
// name is not one.
func (c *compiler) gccAtomicCall(name string, e *syntax.Call) (*Type, bool) {
	pos := e.Pos
	op, mode, nval, norders := -1, gaOld, 1, 0
	switch {
	case name == "__sync_synchronize":
		op, nval = -2, -1
	case name == "__atomic_thread_fence" || name == "__atomic_signal_fence":
		op, nval, norders = -2, -1, 1
	case strings.HasPrefix(name, "__sync_fetch_and_"):
		op = opOf(gaOps, name[len("__sync_fetch_and_"):])
	case strings.HasPrefix(name, "__sync_") && strings.HasSuffix(name, "_and_fetch"):
		op, mode = opOf(gaOps, name[len("__sync_"):len(name)-len("_and_fetch")]), gaNew
	case name == "__sync_val_compare_and_swap":
		op, nval = gaCAS, 2
	case name == "__sync_bool_compare_and_swap":
		op, nval, mode = gaCAS, 2, gaSwapped
	case name == "__sync_lock_test_and_set":
		op = gaXchg
	case name == "__sync_lock_release":
		op, nval = gaStore, 0
	case name == "__atomic_load_n":
		op, nval, norders = gaLoad, 0, 1
	case name == "__atomic_store_n":
		op, norders = gaStore, 1
	case name == "__atomic_exchange_n":
		op, norders = gaXchg, 1
	case name == "__atomic_compare_exchange_n":
		op, nval, norders = gaCmpXchg, 3, 2 // p, expected*, desired, weak, orders
	case strings.HasPrefix(name, "__atomic_fetch_"):
		op, norders = opOf(gaOps, name[len("__atomic_fetch_"):]), 1
	case strings.HasPrefix(name, "__atomic_") && strings.HasSuffix(name, "_fetch"):
		op, mode, norders = opOf(gaOps, name[len("__atomic_"):len(name)-len("_fetch")]), gaNew, 1
	}
	if op == -1 {
		if gccAtomicUnmodeled[name] {
			c.errorf(pos, "C0309", "%s: this GCC atomic builtin is not modeled", name)
			for _, a := range e.Args {
				c.typeOf(a, true)
			}
			c.emit(OpConst, 0, 0, pos)
			return tInt, true
		}
		return nil, false
	}
	if c.deviceOnly() {
		c.errorf(pos, "C0307", "%s can only be called from host code (device code uses atomicAdd, atomicCAS, ...)", name)
	}
	want := 1 + nval + norders
	if nval < 0 {
		want = norders
	}
	if len(e.Args) != want {
		c.errorf(pos, "C0304", "%s takes %d arguments, %d given", name, want, len(e.Args))
		for _, a := range e.Args {
			c.typeOf(a, true)
		}
		c.emit(OpConst, 0, 0, pos)
		return tInt, true
	}
	if op == -2 {
		// a fence: host code has none in the model (see above)
		for _, a := range e.Args {
			c.convert(c.expr(a), tInt, pos)
			c.emit(OpPop, 0, 0, pos)
		}
		c.emit(OpConst, 0, 0, pos)
		return tVoid, true
	}
	pt := c.expr(e.Args[0])
	if pt.Kind != Ptr || !pt.Elem.isInt() {
		c.errorf(syntax.PosOf(e.Args[0]), "C0302", "%s needs a pointer to an integer, not %s", name, pt)
		c.emit(OpConst, 0, 0, pos)
		return tInt, true
	}
	et := pt.Elem
	mc := memCode(et)
	switch op {
	case gaCmpXchg:
		xt := c.expr(e.Args[1])
		if xt.Kind != Ptr || xt.Elem.size != et.size {
			c.errorf(syntax.PosOf(e.Args[1]), "C0302", "%s: the expected value is passed by a pointer to %s, not %s", name, et, xt)
		}
		c.convert(c.expr(e.Args[2]), et, pos)
		c.convert(c.expr(e.Args[3]), tInt, pos) // weak: a strong CAS is a valid weak one
		c.emit(OpPop, 0, 0, pos)
	case gaLoad:
		c.emit(OpConst, 0, 0, pos)
		c.emit(OpConst, 0, 0, pos)
	case gaCAS:
		c.convert(c.expr(e.Args[1]), et, pos)
		c.convert(c.expr(e.Args[2]), et, pos)
	default:
		if nval == 0 {
			c.emit(OpConst, 0, 0, pos) // __sync_lock_release stores 0
		} else {
			c.convert(c.expr(e.Args[1]), et, pos)
		}
		c.emit(OpConst, 0, 0, pos)
	}
	for k := 1 + nval; k < len(e.Args); k++ {
		// the memory orders: evaluated, accepted, not modelled
		c.convert(c.expr(e.Args[k]), tInt, pos)
		c.emit(OpPop, 0, 0, pos)
	}
	c.emit(OpConst, 0, int64(op), pos)
	c.emit(OpConst, 0, int64(mc), pos)
	c.emit(OpConst, 0, int64(mode), pos)
	c.emit(OpBuiltin, c.builtinIndexOf("__gcc_atomic", pos), 6, pos)
	switch {
	case mode == gaSwapped || op == gaCmpXchg:
		return tBool, true
	case op == gaStore:
		return tVoid, true
	}
	return et, true
}

// gccAtomicUnmodeled are GCC's atomic builtins the model does not have
// (the generic forms through pointers, the flag operations): C0309.
var gccAtomicUnmodeled map[string]bool

// initGccAtomicUnmodeled builds gccAtomicUnmodeled (tables.go).
func initGccAtomicUnmodeled() {
	gccAtomicUnmodeled = map[string]bool{"__atomic_load": true, "__atomic_store": true, "__atomic_exchange": true,
		"__atomic_compare_exchange": true, "__atomic_test_and_set": true, "__atomic_clear": true,
		"__atomic_always_lock_free": true, "__atomic_is_lock_free": true}
}

func opOf(ops map[string]int, s string) int {
	if v, ok := ops[s]; ok {
		return v
	}
	return -1
}
