package sem

import (
	"fmt"
	"math"
	"sync"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/cudac/syntax"
)

// <chrono> (C++17 [time]): steady_clock, high_resolution_clock and
// system_clock read the run's wall clock (lib_posix.go: the virtual clock
// of one nanosecond per interpreted instruction, plus what sleep and
// usleep slept), so timings are deterministic; time_point is nanoseconds
// since the start of the run for all three. A duration is its count
// (rep: long, int, double or float) and its period (std::nano, micro,
// milli, the seconds, minutes and hours typedefs, std::ratio<N, D>).
// duration_cast<D>(d) converts as [time.duration.cast] does (integral
// counts truncate toward zero); an implicit conversion that would lose
// precision is a compile error in C++ and C0302 here. t1 - t0 of time
// points is nanoseconds; + and - of durations of one type and their
// comparisons are modeled; other arithmetic (mixed duration types,
// scaling, time_point + duration) is C0309.

const stdChrono = 8

type chronoInfo struct {
	tp       bool // a time_point
	rep      *Type
	num, den int64
}

var (
	chronoMu    sync.Mutex
	chronoInfos = map[*Type]*chronoInfo{}
	chronoDurs  = map[string]*Type{}
)

func chronoOf(t *Type) *chronoInfo {
	if t == nil || t.Kind != Struct || t.std != stdChrono {
		return nil
	}
	chronoMu.Lock()
	defer chronoMu.Unlock()
	return chronoInfos[t]
}

var tTimePoint *Type

// initTTimePoint builds tTimePoint (tables.go).
func initTTimePoint() {
	t := structOf("std::chrono::time_point", "__ns", tLong)
	t.std, t.stdElem = stdChrono, tChar
	chronoInfos[t] = &chronoInfo{tp: true, rep: tLong, num: 1, den: 1e9}
	tTimePoint = t
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	if a < 0 {
		return -a
	}
	return a
}

// durationType is duration<rep, ratio<num, den>> (one type each).
func durationType(rep *Type, num, den int64) *Type {
	g := gcd(num, den)
	num, den = num/g, den/g
	key := fmt.Sprintf("%s/%d/%d", rep, num, den)
	chronoMu.Lock()
	defer chronoMu.Unlock()
	if t := chronoDurs[key]; t != nil {
		return t
	}
	name := fmt.Sprintf("std::chrono::duration<%s, std::ratio<%d, %d>>", rep, num, den)
	t := structOf(name, "__count", rep)
	t.std, t.stdElem = stdChrono, tChar
	chronoInfos[t] = &chronoInfo{rep: rep, num: num, den: den}
	chronoDurs[key] = t
	return t
}

func initLibChrono() {
	for name, p := range map[string][2]int64{"nanoseconds": {1, 1e9}, "microseconds": {1, 1e6}, "milliseconds": {1, 1e3},
		"seconds": {1, 1}, "minutes": {60, 1}, "hours": {3600, 1}} {
		builtinTypedefs["std::chrono::"+name] = durationType(tLong, p[0], p[1])
	}
	for _, clk := range []string{"steady_clock", "high_resolution_clock", "system_clock"} {
		builtinTypedefs["std::chrono::"+clk+"::time_point"] = tTimePoint
		builtinTypedefs["std::chrono::"+clk+"::duration"] = durationType(tLong, 1, 1e9)
	}
	for name, s := range map[string]*bsig{
		"__chrono_now":   sig(tLong, hostSide),
		"__chrono_conv":  sig(tVoidP, hostSide, tAny, tAny, tAny, tAny, tAny, tAny, tAny, tAny),
		"__chrono_arith": sig(tLong, hostSide, tAny, tAny, tAny, tAny, tAny),
	} {
		builtinSigs[name] = s
	}
	defb("__chrono_now", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		return ok(m.wallNs())
	})
	defb("__chrono_conv", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		// (dst, src, src rep, src num, src den, dst rep, dst num, dst den)
		v, good := m.repLoad(t, a[1], int(a[2]), pos)
		if !good {
			return 0, stFault
		}
		num, den := int64(a[3])*int64(a[7]), int64(a[4])*int64(a[6])
		g := gcd(num, den)
		num, den = num/g, den/g
		var out repVal
		if v.isFloat || repFloat(int(a[5])) {
			out = repVal{isFloat: true, f: v.float() * float64(num) / float64(den)}
		} else {
			out = repVal{i: v.i * num / den} // truncation toward zero
		}
		if !m.repStore(t, a[0], int(a[5]), out, pos) {
			return 0, stFault
		}
		return ok(a[0])
	})
	defb("__chrono_arith", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		// (dst, x, y, op, rep): op 0 time_point difference, 1 +, 2 -,
		// 3 comparison (-1, 0, 1)
		rep := int(a[4])
		x, good := m.repLoad(t, a[1], rep, pos)
		if !good {
			return 0, stFault
		}
		y, good := m.repLoad(t, a[2], rep, pos)
		if !good {
			return 0, stFault
		}
		var r repVal
		switch a[3] {
		case 0, 2:
			r = repVal{isFloat: x.isFloat, i: x.i - y.i, f: x.f - y.f}
		case 1:
			r = repVal{isFloat: x.isFloat, i: x.i + y.i, f: x.f + y.f}
		case 3:
			if x.isFloat {
				return ok(uint64(int64(cmp3(x.f < y.f, x.f > y.f))))
			}
			return ok(uint64(int64(cmp3(x.i < y.i, x.i > y.i))))
		}
		if !m.repStore(t, a[0], rep, r, pos) {
			return 0, stFault
		}
		return ok(a[0])
	})
}

// Rep codes: 0 long, 1 int, 2 double, 3 float.
func repCode(t *Type) int64 {
	switch t.Kind {
	case Int:
		return 1
	case Double:
		return 2
	case Float:
		return 3
	}
	return 0
}

func repFloat(code int) bool { return code >= 2 }

type repVal struct {
	isFloat bool
	i       int64
	f       float64
}

func (v repVal) float() float64 {
	if v.isFloat {
		return v.f
	}
	return float64(v.i)
}

func (m *Machine) repLoad(t *Thread, p uint64, code int, pos int32) (repVal, bool) {
	mc := []int{mU64, mI32, mF64, mF32}[code]
	v, good := m.load(t, p, mc, pos)
	if !good {
		return repVal{}, false
	}
	switch code {
	case 0, 1:
		return repVal{i: int64(v)}, true
	}
	return repVal{isFloat: true, f: math.Float64frombits(v)}, true
}

func (m *Machine) repStore(t *Thread, p uint64, code int, v repVal, pos int32) bool {
	switch code {
	case 0:
		return m.store(t, p, mU64, uint64(v.i), pos)
	case 1:
		return m.store(t, p, mI32, uint64(v.i), pos)
	}
	return m.store(t, p, []int{mU64, mI32, mF64, mF32}[code], math.Float64bits(v.float()), pos)
}

// Compilation.

// chronoDurationType resolves std::chrono::duration<Rep[, Period]>.
func (c *compiler) chronoDurationType(te *syntax.TypeExpr) *Type {
	if te.Name == "std::ratio" || len(te.TArgs) == 0 || te.TArgs[0] == nil {
		c.errorf(te.Pos, "C0309", "%s is modeled as the period of a duration", te.Name)
		return tInt
	}
	rep := c.resolve(te.TArgs[0])
	switch rep.Kind {
	case Long, LLong, Int, Double, Float:
	default:
		c.errorf(te.Pos, "C0309", "a duration of %s is not modeled (long, int, double or float)", rep)
		return tInt
	}
	if rep.Kind == LLong {
		rep = tLong
	}
	num, den := int64(1), int64(1)
	if len(te.TArgs) > 1 {
		p := te.TArgs[1]
		switch {
		case p == nil:
			c.errorf(te.Pos, "C0302", "the period of a duration is a std::ratio")
		case p.Name == "std::milli":
			den = 1e3
		case p.Name == "std::micro":
			den = 1e6
		case p.Name == "std::nano":
			den = 1e9
		case p.Name == "std::ratio" && len(p.TArgExprs) >= 1:
			n, ok1 := c.constExpr(p.TArgExprs[0])
			d, ok2 := int64(1), true
			if len(p.TArgExprs) > 1 {
				d, ok2 = c.constExpr(p.TArgExprs[1])
			}
			if !ok1 || !ok2 || n <= 0 || d <= 0 {
				c.errorf(te.Pos, "C0313", "std::ratio needs positive constant arguments")
			} else {
				num, den = n, d
			}
		default:
			c.errorf(te.Pos, "C0309", "the period %s is not modeled (std::milli, std::micro, std::nano, std::ratio<N, D>)", p.Name)
		}
	}
	return durationType(rep, num, den)
}

// chronoConvert converts the chrono value at the address on the stack
// (consumed; of type from) into the object of type to whose address is
// below it (kept).
func (c *compiler) chronoConvert(to, from *Type, implicit bool, pos diag.Pos) {
	ti, fi := chronoOf(to), chronoOf(from)
	switch {
	case ti == nil || fi == nil || ti.tp != fi.tp:
		c.errorf(pos, "C0302", "cannot convert %s to %s", from, to)
		c.emit(OpPop, 0, 0, pos)
		c.emit(OpPop, 0, 0, pos)
		return
	case ti.tp || to == from:
		c.emit(OpMemcpy, 0, int64(to.size), pos)
		c.emit(OpPop, 0, 0, pos)
		return
	}
	// [time.duration.cons]: implicit only without loss of precision
	num, den := fi.num*ti.den, fi.den*ti.num
	g := gcd(num, den)
	if implicit && !ti.rep.isFloat() && (fi.rep.isFloat() || den/g != 1) {
		c.errorf(pos, "C0302", "implicit conversion from %s to %s truncates (use std::chrono::duration_cast)", from, to)
	}
	sw := c.newSlot()
	c.emit(OpSetLocal, int32(sw), 0, pos)
	c.emit(OpPop, 0, 0, pos)
	c.emit(OpLocal, int32(sw), 0, pos)
	for _, v := range []int64{repCode(fi.rep), fi.num, fi.den, repCode(ti.rep), ti.num, ti.den} {
		c.emit(OpConst, 0, v, pos)
	}
	c.stdBuiltin("__chrono_conv", 8, pos)
	c.emit(OpPop, 0, 0, pos)
}

// chronoInit initializes the chrono object on the stack (kept) from e.
func (c *compiler) chronoInit(t *Type, e syntax.Expr, pos diag.Pos) {
	if il, ok := e.(*syntax.InitList); ok {
		switch len(il.Elems) {
		case 0:
			c.emit(OpMemzero, 0, int64(t.size), pos)
		case 1:
			c.chronoConstruct(t, []syntax.Expr{il.Elems[0].X}, pos)
		default:
			c.errorf(pos, "C0304", "%s takes one value", t)
		}
		return
	}
	vt := c.typeOf(e, true)
	c.emit(OpDup, 0, 0, pos)
	c.expr(e)
	c.chronoConvert(t, vt, true, pos)
}

// chronoConstruct compiles T(args) of a chrono type (the object on the
// stack, kept): a duration from a count, or from another duration.
func (c *compiler) chronoConstruct(t *Type, args []syntax.Expr, pos diag.Pos) {
	ci := chronoOf(t)
	switch {
	case len(args) == 0:
		c.emit(OpMemzero, 0, int64(t.size), pos)
	case len(args) == 1 && chronoOf(c.typeOf(args[0], true)) != nil:
		c.chronoInit(t, args[0], pos)
	case len(args) == 1 && !ci.tp:
		at := c.typeOf(args[0], true)
		if !at.isArith() {
			c.errorf(syntax.PosOf(args[0]), "C0302", "a duration's count is a number, not %s", at)
			return
		}
		c.emit(OpDup, 0, 0, pos)
		c.convert(c.expr(args[0]), ci.rep, pos)
		c.emit(OpStore, int32(memCode(ci.rep)), 0, pos)
		c.emit(OpPop, 0, 0, pos)
	default:
		c.errorf(pos, "C0309", "this constructor of %s is not modeled", t)
	}
}

// chronoAddr pushes the address of chrono expression x.
func (c *compiler) chronoAddr(x syntax.Expr) *Type {
	if c.addressable(x) {
		return c.lvalue(x).t
	}
	return c.expr(x) // a class value is its (temporary's) address
}

// chronoMethod compiles count() and time_since_epoch().
func (c *compiler) chronoMethod(st *Type, m *syntax.Member, e *syntax.Call) *Type {
	pos := e.Pos
	ci := chronoOf(st)
	recv := func() {
		if m.Arrow {
			c.expr(m.X)
		} else {
			c.chronoAddr(m.X)
		}
	}
	switch {
	case m.Name == "count" && !ci.tp && len(e.Args) == 0:
		recv()
		c.emit(OpLoad, int32(memCode(ci.rep)), 0, pos)
		return ci.rep
	case m.Name == "time_since_epoch" && ci.tp && len(e.Args) == 0:
		recv() // the same bytes: nanoseconds
		return durationType(tLong, 1, 1e9)
	}
	c.errorf(m.Pos, "C0309", "%s::%s is not modeled", st, m.Name)
	c.emit(OpConst, 0, 0, pos)
	return tInt
}

// chronoBinary applies op to the operands on the stack (x below y), one
// of them a chrono value.
func (c *compiler) chronoBinary(op string, tx, ty *Type, pos diag.Pos) *Type {
	xi, yi := chronoOf(tx), chronoOf(ty)
	ys, xs := c.newSlot(), c.newSlot()
	c.emit(OpSetLocal, int32(ys), 0, pos)
	c.emit(OpPop, 0, 0, pos)
	c.emit(OpSetLocal, int32(xs), 0, pos)
	c.emit(OpPop, 0, 0, pos)
	call := func(rt *Type, code int64, rep *Type) {
		c.emit(OpTemp, 0, int64(rt.size), pos)
		c.emit(OpLocal, int32(xs), 0, pos)
		c.emit(OpLocal, int32(ys), 0, pos)
		c.emit(OpConst, 0, code, pos)
		c.emit(OpConst, 0, repCode(rep), pos)
		c.stdBuiltin("__chrono_arith", 5, pos)
	}
	switch {
	case xi != nil && yi != nil && xi.tp && yi.tp && op == "-":
		rt := durationType(tLong, 1, 1e9)
		call(rt, 0, tLong)
		return rt
	case xi != nil && tx == ty && !xi.tp && (op == "+" || op == "-"):
		call(tx, map[string]int64{"+": 1, "-": 2}[op], xi.rep)
		return tx
	case xi != nil && tx == ty && (op == "<" || op == ">" || op == "<=" || op == ">=" || op == "==" || op == "!="):
		call(tx, 3, xi.rep)
		c.emit(OpConst, 0, 0, pos)
		c.arith(op, tInt, tInt, pos)
		return tInt
	}
	c.errorf(pos, "C0309", "operator %s on %s and %s is not modeled (durations of one type: + - and comparisons; time_point - time_point)", op, tx, ty)
	c.emit(OpConst, 0, 0, pos)
	return tInt
}

// chronoCall compiles Clock::now() and duration_cast<D>(d).
func (c *compiler) chronoCall(name string, e *syntax.Call) (*Type, bool) {
	pos := e.Pos
	switch name {
	case "std::chrono::steady_clock::now", "std::chrono::high_resolution_clock::now", "std::chrono::system_clock::now":
		if len(e.Args) != 0 {
			c.errorf(pos, "C0304", "%s takes no arguments", name)
		}
		c.stdHostOnly(pos)
		c.emit(OpTemp, 0, 8, pos)
		c.emit(OpDup, 0, 0, pos)
		c.stdBuiltin("__chrono_now", 0, pos)
		c.emit(OpStore, int32(mU64), 0, pos)
		c.emit(OpPop, 0, 0, pos)
		return tTimePoint, true
	case "std::chrono::duration_cast":
		if len(e.TypeArgs) != 1 || e.TypeArgs[0] == nil || len(e.Args) != 1 {
			c.errorf(pos, "C0304", "std::chrono::duration_cast<D>(d) takes a duration type and a duration")
			c.emit(OpConst, 0, 0, pos)
			return tInt, true
		}
		t := c.resolve(e.TypeArgs[0])
		if ci := chronoOf(t); ci == nil || ci.tp {
			c.errorf(pos, "C0302", "duration_cast to %s, which is not a duration", t)
			c.emit(OpConst, 0, 0, pos)
			return tInt, true
		}
		c.emit(OpTemp, 0, int64(t.size), pos)
		c.emit(OpDup, 0, 0, pos)
		vt := c.chronoAddr(e.Args[0])
		c.chronoConvert(t, vt, false, pos)
		return t, true
	}
	return nil, false
}
