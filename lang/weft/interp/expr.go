package interp

import (
	"math"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/check"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// cexpr is a compiled control expression (size/index arithmetic). The
// common forms are kept open so accesses can read them without a call:
// konst (val), or a frame slot plus a constant (slot >= 0, val added).
type cexpr struct {
	konst bool
	slot  int
	val   int64
	fn    func(*frame) int64
}

func (e cexpr) eval(fr *frame) int64 {
	switch {
	case e.konst:
		return e.val
	case e.slot >= 0:
		return fr.ints[e.slot] + e.val
	}
	return e.fn(fr)
}

// func_ returns e as a closure.
func (e cexpr) func_() func(*frame) int64 {
	switch {
	case e.konst:
		v := e.val
		return func(*frame) int64 { return v }
	case e.slot >= 0:
		s, v := e.slot, e.val
		if v == 0 {
			return func(fr *frame) int64 { return fr.ints[s] }
		}
		return func(fr *frame) int64 { return fr.ints[s] + v }
	}
	return e.fn
}

func konst(v int64) cexpr { return cexpr{konst: true, slot: -1, val: v} }

// ctrl compiles a control expression (seed 000 §3.1: quasi-affine integer
// arithmetic over sizes, indices and iterators).
func (c *compiler) ctrl(e syntax.Expr) cexpr {
	switch e := e.(type) {
	case *syntax.IntLit:
		return konst(e.Value)
	case *syntax.Name:
		s := c.lookup(e.Name)
		switch {
		case s == nil:
			c.errorf(e.Pos(), CodeUnknown, "undefined: %s", e.Name)
		case s.kind == symConst:
			return konst(s.val)
		case s.kind == symInt:
			return cexpr{slot: s.slot}
		default:
			c.errorf(e.Pos(), CodeUnsupported, "%s is not a control value (size or index)", e.Name)
		}
		return konst(0)
	case *syntax.Unary:
		if e.Op == "-" {
			x := c.ctrl(e.X)
			if x.konst {
				return konst(-x.val)
			}
			f := x.func_()
			return cexpr{slot: -1, fn: func(fr *frame) int64 { return -f(fr) }}
		}
	case *syntax.Binary:
		x, y := c.ctrl(e.X), c.ctrl(e.Y)
		if x.konst && y.konst {
			if v, ok := intOp(e.Op, x.val, y.val); ok {
				return konst(v)
			}
		}
		// var ± const stays open.
		if x.slot >= 0 && y.konst && (e.Op == "+" || e.Op == "-") {
			d := y.val
			if e.Op == "-" {
				d = -d
			}
			return cexpr{slot: x.slot, val: x.val + d}
		}
		if y.slot >= 0 && x.konst && e.Op == "+" {
			return cexpr{slot: y.slot, val: y.val + x.val}
		}
		fx, fy := x.func_(), y.func_()
		pos := e.Pos()
		var fn func(*frame) int64
		switch e.Op {
		case "+":
			fn = func(fr *frame) int64 { return fx(fr) + fy(fr) }
		case "-":
			fn = func(fr *frame) int64 { return fx(fr) - fy(fr) }
		case "*":
			if x.konst {
				k := x.val
				fn = func(fr *frame) int64 { return k * fy(fr) }
			} else if y.konst {
				k := y.val
				fn = func(fr *frame) int64 { return fx(fr) * k }
			} else {
				fn = func(fr *frame) int64 { return fx(fr) * fy(fr) }
			}
		case "/", "//":
			fn = func(fr *frame) int64 {
				a, b := fx(fr), fy(fr)
				if b == 0 {
					fail(fr, pos, CodeDivZero, "division by zero")
				}
				return check.FloorDiv(a, b)
			}
		case "%":
			fn = func(fr *frame) int64 {
				a, b := fx(fr), fy(fr)
				if b == 0 {
					fail(fr, pos, CodeDivZero, "modulo by zero")
				}
				return a - check.FloorDiv(a, b)*b
			}
		default:
			c.errorf(e.Pos(), CodeUnsupported, "operator %s in a control expression", e.Op)
			return konst(0)
		}
		return cexpr{slot: -1, fn: fn}
	}
	if a, ok := e.(*syntax.Attr); ok && configKey(a) != "" {
		f := c.configRead(a)
		return cexpr{slot: -1, fn: func(fr *frame) int64 { return int64(f(fr)) }}
	}
	if call, ok := e.(*syntax.Call); ok && call.FunName() == "stride" {
		return c.stride(call)
	}
	c.errorf(e.Pos(), CodeUnsupported, "%s is not a control expression", syntax.ExprString(e))
	return konst(0)
}

// cond compiles a boolean control expression.
func (c *compiler) cond(e syntax.Expr) func(*frame) bool {
	switch e := e.(type) {
	case *syntax.BoolLit:
		v := e.Value
		return func(*frame) bool { return v }
	case *syntax.Name:
		s := c.lookup(e.Name)
		if s != nil && s.kind == symBool {
			slot := s.slot
			return func(fr *frame) bool { return fr.ints[slot] != 0 }
		}
		if s == nil {
			c.errorf(e.Pos(), CodeUnknown, "undefined: %s", e.Name)
		} else {
			c.errorf(e.Pos(), CodeUnsupported, "%s is not a bool", e.Name)
		}
		return func(*frame) bool { return false }
	case *syntax.Unary:
		if e.Op == "not" {
			x := c.cond(e.X)
			return func(fr *frame) bool { return !x(fr) }
		}
	case *syntax.Binary:
		switch e.Op {
		case "and":
			x, y := c.cond(e.X), c.cond(e.Y)
			return func(fr *frame) bool { return x(fr) && y(fr) }
		case "or":
			x, y := c.cond(e.X), c.cond(e.Y)
			return func(fr *frame) bool { return x(fr) || y(fr) }
		case "==", "!=", "<", "<=", ">", ">=":
			if (c.isBool(e.X) || c.isBool(e.Y)) && (e.Op == "==" || e.Op == "!=") {
				x, y := c.cond(e.X), c.cond(e.Y)
				if e.Op == "==" {
					return func(fr *frame) bool { return x(fr) == y(fr) }
				}
				return func(fr *frame) bool { return x(fr) != y(fr) }
			}
			x, y := c.ctrl(e.X).func_(), c.ctrl(e.Y).func_()
			switch e.Op {
			case "==":
				return func(fr *frame) bool { return x(fr) == y(fr) }
			case "!=":
				return func(fr *frame) bool { return x(fr) != y(fr) }
			case "<":
				return func(fr *frame) bool { return x(fr) < y(fr) }
			case "<=":
				return func(fr *frame) bool { return x(fr) <= y(fr) }
			case ">":
				return func(fr *frame) bool { return x(fr) > y(fr) }
			default:
				return func(fr *frame) bool { return x(fr) >= y(fr) }
			}
		}
	}
	if a, ok := e.(*syntax.Attr); ok && configKey(a) != "" {
		f := c.configRead(a)
		return func(fr *frame) bool { return f(fr) != 0 }
	}
	c.errorf(e.Pos(), CodeUnsupported, "%s is not a boolean control expression", syntax.ExprString(e))
	return func(*frame) bool { return false }
}

func (c *compiler) isBool(e syntax.Expr) bool {
	switch e := e.(type) {
	case *syntax.BoolLit:
		return true
	case *syntax.Name:
		s := c.lookup(e.Name)
		return s != nil && s.kind == symBool
	case *syntax.Unary:
		return e.Op == "not"
	case *syntax.Binary:
		switch e.Op {
		case "and", "or", "==", "!=", "<", "<=", ">", ">=":
			return true
		}
	}
	return false
}

// offset compiles the element access sy[idx] (all point indices) to a
// function returning the view and the flat offset, checking bounds.
func (c *compiler) offset(sy *sym, idx []cexpr, pos diag.Pos, text string) func(*frame) (*view, int) {
	slot := sy.slot
	oob := func(fr *frame, v *view, d int, i int64) {
		fail(fr, pos, CodeOOB, "index %d out of bounds for dimension %d of %s (size %d) in %s", i, d, v.name, v.shape[d], text)
	}
	switch len(idx) {
	case 0:
		return func(fr *frame) (*view, int) { v := fr.bufs[slot]; return v, v.off }
	case 1:
		a := idx[0]
		if a.slot >= 0 {
			as, av := a.slot, a.val
			return func(fr *frame) (*view, int) {
				v := fr.bufs[slot]
				i := fr.ints[as] + av
				if uint64(i) >= uint64(v.shape[0]) {
					oob(fr, v, 0, i)
				}
				return v, v.off + int(i)*v.strides[0]
			}
		}
	case 2:
		a, b := idx[0], idx[1]
		if a.slot >= 0 && b.slot >= 0 {
			as, av, bs, bv := a.slot, a.val, b.slot, b.val
			return func(fr *frame) (*view, int) {
				v := fr.bufs[slot]
				i, j := fr.ints[as]+av, fr.ints[bs]+bv
				if uint64(i) >= uint64(v.shape[0]) {
					oob(fr, v, 0, i)
				}
				if uint64(j) >= uint64(v.shape[1]) {
					oob(fr, v, 1, j)
				}
				return v, v.off + int(i)*v.strides[0] + int(j)*v.strides[1]
			}
		}
	}
	return func(fr *frame) (*view, int) {
		v := fr.bufs[slot]
		o := v.off
		for d := range idx {
			i := idx[d].eval(fr)
			if uint64(i) >= uint64(v.shape[d]) {
				oob(fr, v, d, i)
			}
			o += int(i) * v.strides[d]
		}
		return v, o
	}
}

// oob2 reports which of the two indices i, j of v is out of bounds.
func oob2(fr *frame, pos diag.Pos, text string, v *view, i, j int64) {
	d, x := 0, i
	if uint64(i) < uint64(v.shape[0]) {
		d, x = 1, j
	}
	fail(fr, pos, CodeOOB, "index %d out of bounds for dimension %d of %s (size %d) in %s", x, d, v.name, v.shape[d], text)
}

// window compiles a window expression y[lo:hi, i, :] or a whole buffer y.
func (c *compiler) window(e syntax.Expr) (func(*frame) *view, int, Elem) {
	if n, ok := e.(*syntax.Name); ok {
		s := c.lookup(n.Name)
		if s == nil || s.kind != symBuf {
			c.errorf(n.Pos(), CodeUnknown, "undefined data buffer: %s", n.Name)
			return nil, 0, Invalid
		}
		slot := s.slot
		return func(fr *frame) *view { return fr.bufs[slot] }, s.rank, s.elem
	}
	ix, ok := e.(*syntax.Index)
	var base *syntax.Name
	if ok {
		base, ok = ix.X.(*syntax.Name)
	}
	if !ok {
		c.errorf(e.Pos(), CodeUnsupported, "%s is not a window", syntax.ExprString(e))
		return nil, 0, Invalid
	}
	s := c.lookup(base.Name)
	if s == nil || s.kind != symBuf {
		c.errorf(base.Pos(), CodeUnknown, "undefined data buffer: %s", base.Name)
		return nil, 0, Invalid
	}
	if len(ix.Indices) != s.rank {
		c.errorf(ix.Pos(), CodeUnsupported, "%s has %d dimensions, indexed with %d", base.Name, s.rank, len(ix.Indices))
		return nil, 0, Invalid
	}
	type dim struct {
		slice  bool
		lo, hi cexpr
		whole  bool // `:` or hi omitted
		pos    diag.Pos
	}
	dims := make([]dim, len(ix.Indices))
	rank := 0
	for i, x := range ix.Indices {
		if sl, ok := x.(*syntax.Slice); ok {
			d := dim{slice: true, lo: konst(0), pos: x.Pos()}
			if sl.Lo != nil {
				d.lo = c.ctrl(sl.Lo)
			}
			if sl.Hi != nil {
				d.hi = c.ctrl(sl.Hi)
			} else {
				d.whole = true
			}
			dims[i] = d
			rank++
		} else {
			dims[i] = dim{lo: c.ctrl(x), pos: x.Pos()}
		}
	}
	slot := s.slot
	text := syntax.ExprString(e)
	return func(fr *frame) *view {
		v := fr.bufs[slot]
		w := &view{mem: v.mem, off: v.off, elem: v.elem, name: text,
			shape: make([]int, 0, rank), strides: make([]int, 0, rank)}
		for d, dm := range dims {
			n := int64(v.shape[d])
			lo := dm.lo.eval(fr)
			if !dm.slice {
				if uint64(lo) >= uint64(n) {
					fail(fr, dm.pos, CodeOOB, "index %d out of bounds for dimension %d of %s (size %d) in %s", lo, d, v.name, n, text)
				}
				w.off += int(lo) * v.strides[d]
				continue
			}
			hi := n
			if !dm.whole {
				hi = dm.hi.eval(fr)
			}
			if lo < 0 || hi < lo || hi > n {
				fail(fr, dm.pos, CodeOOB, "window %d:%d out of bounds for dimension %d of %s (size %d) in %s", lo, hi, d, v.name, n, text)
			}
			w.off += int(lo) * v.strides[d]
			w.shape = append(w.shape, int(hi-lo))
			w.strides = append(w.strides, v.strides[d])
		}
		return w
	}, rank, s.elem
}

// typeOf is the element type of a data expression: the join of its
// operands' types; Invalid for untyped (literals, control values).
func (c *compiler) typeOf(e syntax.Expr) Elem {
	switch e := e.(type) {
	case *syntax.Name:
		if s := c.lookup(e.Name); s != nil && s.kind == symBuf {
			return s.elem
		}
	case *syntax.Index:
		if n, ok := e.X.(*syntax.Name); ok {
			if s := c.lookup(n.Name); s != nil && s.kind == symBuf {
				return s.elem
			}
		}
	case *syntax.Unary:
		return c.typeOf(e.X)
	case *syntax.Binary:
		return join(c.typeOf(e.X), c.typeOf(e.Y))
	case *syntax.Call:
		t := Invalid
		for _, a := range e.Args {
			t = join(t, c.typeOf(a))
		}
		return t
	}
	return Invalid
}

// data compiles a data expression computed in type t: every operation's
// result is rounded to t (see the package doc for why this is exact).
func (c *compiler) data(e syntax.Expr, t Elem) func(*frame) float64 {
	switch e := e.(type) {
	case *syntax.FloatLit:
		v := round(t, e.Value)
		return func(*frame) float64 { return v }
	case *syntax.IntLit:
		v := round(t, float64(e.Value))
		return func(*frame) float64 { return v }
	case *syntax.BoolLit:
		v := 0.0
		if e.Value {
			v = 1
		}
		return func(*frame) float64 { return v }
	case *syntax.Name:
		s := c.lookup(e.Name)
		switch {
		case s == nil:
			c.errorf(e.Pos(), CodeUnknown, "undefined: %s", e.Name)
		case s.kind == symBuf && s.rank == 0:
			return c.read(s, nil, e.Pos(), e.Name, t)
		case s.kind == symBuf:
			c.errorf(e.Pos(), CodeUnsupported, "%s has %d dimensions: index it to read an element", e.Name, s.rank)
		case s.kind == symInt || s.kind == symConst || s.kind == symBool:
			// A control value read as data (exact for |v| < 2^53).
			f := c.ctrl(e).func_()
			if s.kind == symBool {
				slot := s.slot
				f = func(fr *frame) int64 { return fr.ints[slot] }
			}
			return func(fr *frame) float64 { return round(t, float64(f(fr))) }
		default:
			c.errorf(e.Pos(), CodeUnsupported, "%s is not a data value", e.Name)
		}
		return func(*frame) float64 { return 0 }
	case *syntax.Index:
		n, ok := e.X.(*syntax.Name)
		var s *sym
		if ok {
			s = c.lookup(n.Name)
		}
		if s == nil || s.kind != symBuf {
			c.errorf(e.X.Pos(), CodeUnknown, "undefined data buffer: %s", syntax.ExprString(e.X))
			return func(*frame) float64 { return 0 }
		}
		if len(e.Indices) != s.rank {
			c.errorf(e.Pos(), CodeUnsupported, "%s has %d dimensions, indexed with %d", n.Name, s.rank, len(e.Indices))
			return func(*frame) float64 { return 0 }
		}
		idx := make([]cexpr, len(e.Indices))
		for i, x := range e.Indices {
			if _, sl := x.(*syntax.Slice); sl {
				c.errorf(x.Pos(), CodeUnsupported, "a window is not a data value")
				return func(*frame) float64 { return 0 }
			}
			idx[i] = c.ctrl(x)
		}
		return c.read(s, idx, e.Pos(), syntax.ExprString(e), t)
	case *syntax.Unary:
		if e.Op == "-" {
			x := c.data(e.X, t)
			if t.IsFloat() {
				return func(fr *frame) float64 { return -x(fr) }
			}
			return func(fr *frame) float64 { return wrapInt(t, -int64(x(fr))) }
		}
	case *syntax.Binary:
		switch e.Op {
		case "+", "-", "*", "/":
			return arith(e.Op, t, c.data(e.X, t), c.data(e.Y, t), e.Pos())
		}
	case *syntax.Call:
		return c.builtin(e, t)
	case *syntax.Attr:
		if configKey(e) != "" {
			f := c.configRead(e)
			return func(fr *frame) float64 { return round(t, f(fr)) }
		}
	}
	c.errorf(e.Pos(), CodeUnsupported, "%s is not a data expression", syntax.ExprString(e))
	return func(*frame) float64 { return 0 }
}

// read compiles a read of sy[idx] converted to computation type t.
func (c *compiler) read(sy *sym, idx []cexpr, pos diag.Pos, text string, t Elem) func(*frame) float64 {
	conv := t != sy.elem && t.IsFloat() != sy.elem.IsFloat()
	if !conv && len(idx) == 2 && idx[0].slot >= 0 && idx[1].slot >= 0 {
		// The hot case of dense kernels, A[i, k] with iterators (plus
		// constants): one closure, no call to compute the offset.
		slot := sy.slot
		as, av, bs, bv := idx[0].slot, idx[0].val, idx[1].slot, idx[1].val
		return func(fr *frame) float64 {
			v := fr.bufs[slot]
			i, j := fr.ints[as]+av, fr.ints[bs]+bv
			if uint64(i) >= uint64(v.shape[0]) || uint64(j) >= uint64(v.shape[1]) {
				oob2(fr, pos, text, v, i, j)
			}
			o := v.off + int(i)*v.strides[0] + int(j)*v.strides[1]
			m := v.mem
			if m.elem == F32 {
				x := m.f32[o]
				if math.Float32bits(x) == uninit32 {
					uninitRead(fr, pos, v, o)
				}
				return float64(x)
			}
			x := m.get(o)
			if isUninit(x) {
				uninitRead(fr, pos, v, o)
			}
			return x
		}
	}
	at := c.offset(sy, idx, pos, text)
	if !conv {
		// A value of a narrower type is exactly representable in t (join
		// only widens), so no rounding is needed.
		return func(fr *frame) float64 {
			v, o := at(fr)
			x := v.mem.get(o)
			if isUninit(x) {
				uninitRead(fr, pos, v, o)
			}
			return x
		}
	}
	return func(fr *frame) float64 {
		v, o := at(fr)
		x := v.mem.get(o)
		if isUninit(x) {
			uninitRead(fr, pos, v, o)
		}
		return round(t, x)
	}
}

// arith compiles x op y in type t.
func arith(op string, t Elem, x, y func(*frame) float64, pos diag.Pos) func(*frame) float64 {
	switch t {
	case F64:
		switch op {
		case "+":
			return func(fr *frame) float64 { return x(fr) + y(fr) }
		case "-":
			return func(fr *frame) float64 { return x(fr) - y(fr) }
		case "*":
			return func(fr *frame) float64 { return x(fr) * y(fr) }
		case "/":
			return func(fr *frame) float64 { return x(fr) / y(fr) }
		}
	case F32:
		switch op {
		case "+":
			return func(fr *frame) float64 { return float64(float32(x(fr) + y(fr))) }
		case "-":
			return func(fr *frame) float64 { return float64(float32(x(fr) - y(fr))) }
		case "*":
			return func(fr *frame) float64 { return float64(float32(x(fr) * y(fr))) }
		case "/":
			return func(fr *frame) float64 { return float64(float32(x(fr) / y(fr))) }
		}
	}
	o := op[0]
	return func(fr *frame) float64 { return binop(t, o, x(fr), y(fr), fr, pos) }
}

// binop is the general case of arith: f16/bf16 and the integer types.
func binop(t Elem, op byte, a, b float64, fr *frame, pos diag.Pos) float64 {
	if t.IsFloat() || t == Invalid {
		var r float64
		switch op {
		case '+':
			r = a + b
		case '-':
			r = a - b
		case '*':
			r = a * b
		default:
			r = a / b
		}
		if t == Invalid {
			return r
		}
		return round(t, r)
	}
	x, y := int64(a), int64(b)
	switch op {
	case '+':
		return wrapInt(t, x+y)
	case '-':
		return wrapInt(t, x-y)
	case '*':
		return wrapInt(t, x*y)
	}
	if y == 0 {
		fail(fr, pos, CodeDivZero, "integer division by zero")
	}
	return wrapInt(t, x/y) // C semantics: truncation toward zero
}

// builtin compiles the scalar builtins of Exo's data language.
func (c *compiler) builtin(e *syntax.Call, t Elem) func(*frame) float64 {
	name := e.FunName()
	args := make([]func(*frame) float64, len(e.Args))
	for i, a := range e.Args {
		args[i] = c.data(a, t)
	}
	if ext := lib.Externs[name]; ext != nil && len(args) == ext.Arity && len(e.Kwargs) == 0 {
		return c.extern(ext, args, t)
	}
	want := map[string]int{"max": 2, "min": 2}[name]
	if want == 0 || len(args) != want || len(e.Kwargs) > 0 {
		if want == 0 {
			c.errorf(e.Pos(), CodeUnsupported, "unknown function %s in a data expression (extern functions: %s; builtins: max, min)", syntax.ExprString(e.Fun), lib.ExternNames())
		} else {
			c.errorf(e.Pos(), CodeUnsupported, "%s takes %d arguments", name, want)
		}
		return func(*frame) float64 { return 0 }
	}
	switch name {
	case "max":
		x, y := args[0], args[1]
		return func(fr *frame) float64 { return math.Max(x(fr), y(fr)) }
	default:
		x, y := args[0], args[1]
		return func(fr *frame) float64 { return math.Min(x(fr), y(fr)) }
	}
}
