package sem

import (
	"weft.dev/weft/diag"
	"weft.dev/weft/lang/cudac/syntax"
)

// cuda::atomic_ref<T, Scope> (libcu++ <cuda/atomic>, C++20
// [atomics.ref.generic]): a reference to an object on which load, store,
// exchange, compare_exchange and fetch_* are atomic. T may be 1, 2, 4 or 8
// bytes (bool included). Every operation is an atomic access for the race
// detector, so two of them never race; the memory order argument is
// checked, and a release order is a fence before the operation, an acquire
// order a fence after it (fence.go).

const stdAtomicRef = 3

// memory_order and thread_scope values (libcu++).
var atomicConsts map[string]int64

// initAtomicConsts builds atomicConsts (tables.go).
func initAtomicConsts() {
	atomicConsts = map[string]int64{
		"memory_order_relaxed": 0, "memory_order_consume": 1, "memory_order_acquire": 2,
		"memory_order_release": 3, "memory_order_acq_rel": 4, "memory_order_seq_cst": 5,
		"thread_scope_system": 0, "thread_scope_device": 1, "thread_scope_block": 2, "thread_scope_thread": 3,
	}
}

func initLibAtomic() {
	for k, v := range atomicConsts {
		namedConsts[k] = v
	}
	for name, s := range map[string]*bsig{
		"__aref_load":  sig(tULong, anySide, tAny, tAny),
		"__aref_store": sig(tVoid, anySide, tAny, tAny, tAny),
		"__aref_cas":   sig(tInt, anySide, tAny, tAny, tAny, tAny),
	} {
		builtinSigs[name] = s
	}
	defb("__aref_load", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		mc := int(a[1])
		b, good := m.resolveA(t, a[0], mSize[mc], pos, false, false, true)
		if !good {
			return 0, stFault
		}
		if m.opts.Check {
			m.strongRead(t, a[0], false)
		}
		return ok(fromMem(mc, loadN(b, mSize[mc])))
	})
	defb("__aref_store", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		mc := int(a[2])
		_, st := m.atomic(t, "Exch", mc, []uint64{a[0], a[1]}, pos)
		return 0, st
	})
	// compare_exchange: a[0] object, a[1] address of expected, a[2]
	// desired, a[3] memory code; on failure *expected becomes the value
	defb("__aref_cas", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		mc := int(a[3])
		eb, good := m.resolve(t, a[1], mSize[mc], pos, false, false)
		if !good {
			return 0, stFault
		}
		want := fromMem(mc, loadN(eb, mSize[mc]))
		old, st := m.atomic(t, "CAS", mc, []uint64{a[0], want, a[2]}, pos)
		if st != stDone {
			return 0, st
		}
		if old == want {
			return ok(1)
		}
		eb, good = m.resolve(t, a[1], mSize[mc], pos, true, false)
		if !good {
			return 0, stFault
		}
		storeN(eb, mSize[mc], toMem(mc, old))
		return ok(0)
	})
	for _, op := range []string{"Add", "Sub", "Exch", "Min", "Max", "CAS", "And", "Or", "Xor"} {
		for _, mc := range []int{mU8, mI8, mU16, mI16} {
			op, mc := op, mc
			defb("atomic"+op+"/"+string(rune('0'+mc)), func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
				return m.atomic(t, op, mc, a, pos)
			})
		}
	}
}

// atomicRefOf is cuda::atomic_ref<elem>.
func (c *compiler) atomicRefOf(elem *Type, pos diag.Pos) *Type {
	if c.vectors == nil {
		c.vectors = map[string]*Type{}
	}
	key := "atomic_ref " + typeKey(elem)
	if t := c.vectors[key]; t != nil {
		return t
	}
	if !(elem.isInt() || elem.Kind == Float || elem.Kind == Double || elem.Kind == Ptr) {
		c.errorf(pos, "C0309", "cuda::atomic_ref<%s> is not modeled (integers, float, double and pointers are)", elem)
	}
	t := structOf("cuda::atomic_ref<"+elem.String()+">", "__p", ptrTo(elem))
	t.std, t.stdElem = stdAtomicRef, elem
	c.vectors[key] = t
	return t
}

// atomicRefInit binds the atomic_ref object on the stack (kept) to the
// object x denotes.
func (c *compiler) atomicRefInit(t *Type, x syntax.Expr, pos diag.Pos) {
	c.emit(OpDup, 0, 0, pos)
	if !c.addressable(x) {
		c.errorf(syntax.PosOf(x), "C0303", "cuda::atomic_ref needs an object in memory")
		c.emit(OpConst, 0, 0, pos)
	} else {
		lv := c.lvalue(x)
		if !sameType(lv.t, t.stdElem) {
			c.errorf(syntax.PosOf(x), "C0302", "cuda::atomic_ref<%s> bound to an object of type %s", t.stdElem, lv.t)
		}
	}
	c.emit(OpStore, mU64, 0, pos)
	c.emit(OpPop, 0, 0, pos)
}

// atomicRefMethod compiles r.load(o), r.store(v, o), r.exchange(v, o),
// r.fetch_OP(v, o) and r.compare_exchange_{strong,weak}(e, d, o...).
func (c *compiler) atomicRefMethod(st *Type, m *syntax.Member, e *syntax.Call) *Type {
	pos := e.Pos
	et := st.stdElem
	mc := int64(memCode(et))
	ptr := func() {
		c.expr(m.X)
		if m.Arrow {
			c.errorf(pos, "C0302", "-> on a cuda::atomic_ref")
		}
		c.emit(OpLoad, mU64, 0, pos)
	}
	// order checks the memory order arguments; a release (release, acq_rel
	// or the default seq_cst) of a writing operation is a fence before it
	// (fence.go), so the operation publishes the thread's earlier accesses
	release := func(args []syntax.Expr) {
		v := int64(5)
		if len(args) > 0 {
			v, _ = c.constExpr(args[0])
		}
		if v >= 3 {
			c.emit(OpBuiltin, c.builtinIndexOf("__threadfence", pos), 0, pos)
			c.emit(OpPop, 0, 0, pos)
		}
	}
	// acquire: an acquire order (consume, acquire, acq_rel, seq_cst) of
	// a reading operation is a fence after it (fence.go: the acquire
	// pattern), the value kept on the stack
	acquire := func(args []syntax.Expr) {
		v := int64(5)
		if len(args) > 0 {
			v, _ = c.constExpr(args[0])
		}
		if v != 0 && v != 3 {
			c.emit(OpBuiltin, c.builtinIndexOf("__threadfence", pos), 0, pos)
			c.emit(OpPop, 0, 0, pos)
		}
	}
	order := func(args []syntax.Expr, max int) {
		for i, a := range args {
			if i >= max {
				c.errorf(syntax.PosOf(a), "C0304", "too many arguments to cuda::atomic_ref::%s", m.Name)
				break
			}
			if v, ok := c.constExpr(a); !ok || v < 0 || v > 5 {
				c.errorf(syntax.PosOf(a), "C0313", "the memory order of cuda::atomic_ref::%s must be a constant cuda::memory_order", m.Name)
			}
		}
	}
	value := func(a syntax.Expr) {
		c.convert(c.expr(a), et, syntax.PosOf(a))
	}
	args := e.Args
	switch m.Name {
	case "load":
		order(args, 1)
		ptr()
		c.emit(OpConst, 0, mc, pos)
		c.stdBuiltin("__aref_load", 2, pos)
		acquire(args)
		return et
	case "store":
		if len(args) < 1 {
			break
		}
		order(args[1:], 1)
		release(args[1:])
		ptr()
		value(args[0])
		c.emit(OpConst, 0, mc, pos)
		c.stdBuiltin("__aref_store", 3, pos)
		return tVoid
	case "exchange", "fetch_add", "fetch_sub", "fetch_and", "fetch_or", "fetch_xor", "fetch_min", "fetch_max":
		if len(args) < 1 {
			break
		}
		order(args[1:], 1)
		op := map[string]string{"exchange": "Exch", "fetch_add": "Add", "fetch_sub": "Sub", "fetch_and": "And",
			"fetch_or": "Or", "fetch_xor": "Xor", "fetch_min": "Min", "fetch_max": "Max"}[m.Name]
		if et.isFloat() && op != "Add" && op != "Sub" && op != "Exch" {
			c.errorf(pos, "C0302", "cuda::atomic_ref<%s>::%s", et, m.Name)
		}
		release(args[1:])
		ptr()
		value(args[0])
		if et.Kind == Ptr && (op == "Add" || op == "Sub") {
			c.emit(OpConst, 0, int64(et.ElemSize()), pos)
			c.emit(OpMul, 0, 0, pos)
		}
		c.emit(OpBuiltin, c.builtinIndexOf("atomic"+op+"/"+string(rune('0'+mc)), pos), 2, pos)
		acquire(args[1:])
		return et
	case "compare_exchange_strong", "compare_exchange_weak":
		if len(args) < 2 {
			break
		}
		order(args[2:], 2)
		release(args[2:])
		ptr()
		if !c.addressable(args[0]) {
			c.errorf(syntax.PosOf(args[0]), "C0303", "the expected value of compare_exchange must be an object")
			c.emit(OpConst, 0, 0, pos)
		} else {
			c.lvalue(args[0])
		}
		value(args[1])
		c.emit(OpConst, 0, mc, pos)
		c.stdBuiltin("__aref_cas", 4, pos)
		acquire(args[2:])
		return tBool
	}
	c.errorf(m.Pos, "C0309", "cuda::atomic_ref::%s is not modeled", m.Name)
	c.emit(OpConst, 0, 0, pos)
	return tInt
}
