package sem

import (
	"math"
	"sort"
	"strings"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/cudac/syntax"
)

// <algorithm> and <numeric> over pointer ranges (issue 15 item 2's "the
// library real programs use"; C++ [alg.sort], [alg.min.max],
// [numeric.ops]): std::sort and std::stable_sort (ascending by <; the
// interpreter's sort is stable, which sort allows), std::min_element and
// std::max_element (the first smallest or largest, last for an empty
// range), std::accumulate (init = init + *it, in the type of init). A
// range is two pointers into one object (std::vector's begin()/end() are
// pointers, lib_std.go); its elements are integers or floating values.
// Every element is accessed through the memory checker (bounds, races).
// A comparator or an element type beyond these is C0309 at the call.

// value kinds of an algorithm's elements
const (
	algUnsigned = iota
	algSigned
	algFloat
)

func algKind(t *Type) int {
	switch {
	case t.isFloat():
		return algFloat
	case t.isSigned():
		return algSigned
	}
	return algUnsigned
}

// algCall compiles the calls above; ok is false for another name.
func (c *compiler) algCall(name string, e *syntax.Call) (*Type, bool) {
	if t, ok := c.algTemplateCall(name, e); ok {
		return t, true
	}
	var want int
	switch name {
	case "sort", "stable_sort", "min_element", "max_element":
		want = 2
	case "accumulate":
		want = 3
	default:
		return nil, false
	}
	pos := e.Pos
	fail := func(format string, args ...any) (*Type, bool) {
		c.errorf(pos, "C0309", format, args...)
		c.emit(OpConst, 0, 0, pos)
		return tInt, true
	}
	// the comparator of sort/stable_sort: <functional>'s std::less and
	// std::greater objects (C++14 [comparisons], the strict weak orders <
	// and >; syntax.CmpObjects); a lambda or another function object stays
	// C0309 below
	desc := int64(0)
	if len(e.Args) == 3 && (name == "sort" || name == "stable_sort") {
		if tr, isCmp := e.Args[2].(*syntax.Trait); isCmp && tr.Member == "()" {
			if strings.HasPrefix(tr.Name, "std::greater") {
				desc = 1
			}
			if len(tr.Types) == 1 {
				c.resolve(tr.Types[0]) // (the element type need not match: the values compare as their common type)
			}
			e = &syntax.Call{Pos: e.Pos, Fun: e.Fun, Args: e.Args[:2]}
		}
	}
	if len(e.Args) != want {
		if len(e.Args) == want+1 && name != "accumulate" {
			return fail("std::%s with this comparator is not modeled (std::less and std::greater objects are)", name)
		}
		if len(e.Args) == 4 && name == "accumulate" {
			return fail("std::accumulate with a binary operation is not modeled (+ is)")
		}
		c.errorf(pos, "C0304", "std::%s takes %d arguments, %d given", name, want, len(e.Args))
		c.emit(OpConst, 0, 0, pos)
		return tInt, true
	}
	c.stdHostOnly(pos)
	ft := c.expr(e.Args[0])
	lt := c.expr(e.Args[1])
	if ft.Kind != Ptr || lt.Kind != Ptr || !sameType(ft.Elem, lt.Elem) {
		c.emit(OpPop, 0, 0, pos)
		c.emit(OpPop, 0, 0, pos)
		return fail("std::%s over %s and %s: the range must be two pointers (or std::vector iterators) of one element type", name, ft, lt)
	}
	et := ft.Elem
	if !(et.isInt() || et.Kind == Float || et.Kind == Double) {
		c.emit(OpPop, 0, 0, pos)
		c.emit(OpPop, 0, 0, pos)
		return fail("std::%s over elements of type %s is not modeled (integers, float and double are)", name, et)
	}
	c.emit(OpConst, 0, int64(memCode(et)), pos)
	c.emit(OpConst, 0, int64(algKind(et)), pos)
	switch name {
	case "sort", "stable_sort":
		c.emit(OpConst, 0, desc, pos)
		c.stdBuiltin("__alg_sort", 5, pos)
		return tVoid, true
	case "min_element", "max_element":
		c.emit(OpConst, 0, b2i(name == "max_element"), pos)
		c.stdBuiltin("__alg_minmax", 5, pos)
		return ft, true
	}
	it := c.expr(e.Args[2])
	if !(it.isInt() || it.Kind == Float || it.Kind == Double) {
		c.emit(OpPop, 0, 0, pos)
		return fail("std::accumulate with an initial value of type %s is not modeled (integers, float and double are)", it)
	}
	c.emit(OpConst, 0, int64(memCode(it)), pos)
	c.emit(OpConst, 0, int64(algKind(it)), pos)
	c.stdBuiltin("__alg_accumulate", 7, pos)
	return it, true
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func initLibAlgorithm() {
	for name, s := range map[string]*bsig{
		"__alg_sort":       sig(tVoid, hostSide, tAny, tAny, tAny, tAny, tAny),
		"__alg_minmax":     sig(tULong, hostSide, tAny, tAny, tAny, tAny, tAny),
		"__alg_accumulate": sig(tULong, hostSide, tAny, tAny, tAny, tAny, tAny, tAny, tAny),
	} {
		builtinSigs[name] = s
	}
	defb("__alg_sort", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		mc, kind := int(a[2]), int(a[3])
		vals, b, st := m.algRange(t, a[0], a[1], mc, pos, true)
		if st != stDone {
			return 0, st
		}
		if a[4] != 0 { // std::greater: j before i when j < i
			sort.SliceStable(vals, func(i, j int) bool { return algLess(kind, vals[j], vals[i]) })
		} else {
			sort.SliceStable(vals, func(i, j int) bool { return algLess(kind, vals[i], vals[j]) })
		}
		size := mSize[mc]
		for i, v := range vals {
			storeN(b[i*size:], size, toMem(mc, v))
		}
		m.mver++
		return ok(0)
	})
	defb("__alg_minmax", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		mc, kind, isMax := int(a[2]), int(a[3]), a[4] != 0
		vals, _, st := m.algRange(t, a[0], a[1], mc, pos, false)
		if st != stDone {
			return 0, st
		}
		if len(vals) == 0 {
			return ok(a[1])
		}
		best := 0
		for i := 1; i < len(vals); i++ {
			if isMax && algLess(kind, vals[best], vals[i]) || !isMax && algLess(kind, vals[i], vals[best]) {
				best = i
			}
		}
		return ok(a[0] + uint64(best*mSize[mc]))
	})
	defb("__alg_accumulate", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		mc, kind := int(a[2]), int(a[3])
		acc, rc, rkind := a[4], int(a[5]), int(a[6])
		vals, _, st := m.algRange(t, a[0], a[1], mc, pos, false)
		if st != stDone {
			return 0, st
		}
		bits := mSize[rc] * 8
		for _, v := range vals {
			switch {
			case rkind == algFloat:
				x := math.Float64frombits(acc) + algFloat64(kind, v)
				if rc == mF32 {
					x = float64(float32(x))
				}
				acc = math.Float64bits(x)
			case kind == algFloat:
				// init + *it in floating point, converted back to the
				// integer type of init (C++ [conv.fpint]: truncation)
				x := math.Trunc(algFloat64(rkind, acc) + math.Float64frombits(v))
				if rkind == algSigned {
					acc = ext(uint64(int64(x)), bits, true)
				} else {
					acc = ext(uint64(x), bits, false)
				}
			default:
				acc = ext(acc+v, bits, rkind == algSigned)
			}
		}
		return ok(acc)
	})
}

// algLess compares two stack values of kind k.
func algLess(k int, x, y uint64) bool {
	switch k {
	case algFloat:
		return math.Float64frombits(x) < math.Float64frombits(y)
	case algSigned:
		return int64(x) < int64(y)
	}
	return x < y
}

func algFloat64(k int, v uint64) float64 {
	switch k {
	case algFloat:
		return math.Float64frombits(v)
	case algSigned:
		return float64(int64(v))
	}
	return float64(v)
}

// algRange reads the elements of [first, last) (memory code mc): their
// stack values and their bytes, checked as a read (or a write) of the
// whole range.
func (m *Machine) algRange(t *Thread, first, last uint64, mc int, pos int32, write bool) ([]uint64, []byte, status) {
	size := mSize[mc]
	if first>>32 != last>>32 && !(first == 0 && last == 0) {
		m.fault(t, pos, "C0410", "the range's two pointers point to different objects")
		return nil, nil, stFault
	}
	d := int64(int32(uint32(last))) - int64(int32(uint32(first)))
	if d < 0 || d%int64(size) != 0 {
		m.fault(t, pos, "C0403", "invalid range: last is %d bytes from first, not a non-negative multiple of the element size %d", d, size)
		return nil, nil, stFault
	}
	if d == 0 {
		return nil, nil, stDone
	}
	b, good := m.resolve(t, first, int(d), pos, write, false)
	if !good {
		return nil, nil, stFault
	}
	vals := make([]uint64, d/int64(size))
	for i := range vals {
		vals[i] = fromMem(mc, loadN(b[i*size:], size))
	}
	return vals, b, stDone
}

// isCmpObject reports whether e is <functional>'s std::less or
// std::greater object, which the built-in sort serves.
func isCmpObject(e syntax.Expr) bool {
	tr, ok := e.(*syntax.Trait)
	return ok && tr.Member == "()"
}

// algTemplateCall compiles a call of an <algorithm> or <numeric> function
// that the built-ins above do not serve (a callable argument, elements
// that are not scalars, or a function without a built-in form) as a call
// of its model in the header's text (syntax/stdalgo.go, __std_NAME); ok is
// false where the built-ins apply or name is not one of them.
func (c *compiler) algTemplateCall(name string, e *syntax.Call) (*Type, bool) {
	n := len(e.Args)
	scalarElems := func() bool {
		if n == 0 {
			return true
		}
		c.dry++
		t := c.typeOf(e.Args[0], true)
		c.dry--
		return t.Kind != Ptr || t.Elem == nil || t.Elem.isInt() || t.Elem.Kind == Float || t.Elem.Kind == Double
	}
	args := e.Args
	for i, a := range e.Args {
		if isCmpObject(a) && !(n == 3 && (name == "sort" || name == "stable_sort")) {
			if c.templates["__std_make_less"] == nil {
				return nil, false // without <algorithm>: C0309 below
			}
			// <functional>'s std::less<T>() or std::greater<T>() passed
			// to a model: an object of the model's own comparison class
			// (std::greater<>(): of the range's element type)
			tr := a.(*syntax.Trait)
			which := "less"
			if strings.HasPrefix(tr.Name, "std::greater") {
				which = "greater"
			}
			call := &syntax.Call{Pos: tr.Pos, Fun: &syntax.Name{Pos: tr.Pos, Name: "__std_make_" + which}, TypeArgs: tr.Types, TArgExpr: make([]syntax.Expr, len(tr.Types)), RParen: tr.Pos}
			if len(tr.Types) == 0 {
				call = &syntax.Call{Pos: tr.Pos, Fun: &syntax.Name{Pos: tr.Pos, Name: "__std_" + which + "_for"}, Args: []syntax.Expr{e.Args[0]}, RParen: tr.Pos}
			}
			if i == len(args)-1 {
				args = append(append([]syntax.Expr(nil), args[:i]...), call)
			}
		}
	}
	e = &syntax.Call{Pos: e.Pos, Fun: e.Fun, Args: args, RParen: e.RParen}
	tmpl, header := "", "<algorithm>"
	switch name {
	case "sort", "stable_sort":
		if n == 3 && !isCmpObject(e.Args[2]) {
			tmpl = "__std_sort"
		} else if n == 2 && !scalarElems() {
			tmpl = "__std_sort_lt"
		}
	case "min_element", "max_element":
		if n == 3 {
			tmpl = "__std_" + name
		} else if n == 2 && !scalarElems() {
			tmpl = "__std_" + name + "_lt"
		}
	case "accumulate":
		header = "<numeric>"
		if n == 4 {
			tmpl = "__std_accumulate"
		} else if n == 3 && !scalarElems() {
			tmpl = "__std_accumulate_plus"
		}
	case "is_sorted":
		if n == 3 {
			tmpl = "__std_is_sorted"
		} else if n == 2 {
			tmpl = "__std_is_sorted_lt"
		}
	case "find_if", "find_if_not", "find", "count_if", "count", "any_of", "all_of", "none_of",
		"for_each", "remove_if", "remove", "fill", "copy", "iota":
		if n == 3 {
			tmpl = "__std_" + name
		}
		if name == "iota" {
			header = "<numeric>"
		}
	case "generate", "generate_n":
		if n == 3 {
			tmpl = "__std_" + name
		}
	case "shuffle":
		header = "<random>" // its engine's header defines it (stdrandom.go)
		if n == 3 {
			tmpl = "__std_shuffle"
		}
	case "copy_if":
		if n == 4 {
			tmpl = "__std_copy_if"
		}
	case "transform":
		if n == 4 {
			tmpl = "__std_transform"
		} else if n == 5 {
			tmpl = "__std_transform2"
		}
	case "reverse":
		if n == 2 {
			tmpl = "__std_reverse"
		}
	case "inner_product":
		header = "<numeric>"
		if n == 4 {
			tmpl = "__std_inner_product"
		}
	}
	if tmpl == "" {
		return nil, false
	}
	if c.templates[tmpl] == nil {
		c.errorf(e.Pos, "C0301", "std::%s as called here needs #include %s", name, header)
		c.emit(OpConst, 0, 0, e.Pos)
		return tInt, true
	}
	return c.call(&syntax.Call{Pos: e.Pos, Fun: &syntax.Name{Pos: e.Pos, Name: tmpl}, Args: e.Args, RParen: e.RParen}), true
}

// isLibPos reports whether p is in a built-in header's text.
func isLibPos(p diag.Pos) bool {
	return p.File != nil && syntax.IsBuiltinHeader(p.File.Name)
}

// setLibAt records, for an instance of a template of a built-in header,
// the program's call that needs it (through other library templates).
func (c *compiler) setLibAt(fn *Function, td *syntax.FuncDecl, call diag.Pos) {
	if !isLibPos(td.Pos) {
		return
	}
	fn.libAt, fn.libFn = call, libName(td.Name)
	if isLibPos(call) && c.fn != nil {
		fn.libAt, fn.libFn = c.fn.libAt, c.fn.libFn
	}
}

// inheritLibAt gives fn, a function of a built-in header's text that
// the library model being compiled needs (a member of a class template
// instance), the model's call site.
func (c *compiler) inheritLibAt(fn *Function, d *syntax.FuncDecl) {
	if c.fn != nil && c.fn.libAt.File != nil && isLibPos(d.Pos) {
		fn.libAt, fn.libFn = c.fn.libAt, c.fn.libFn
	}
}

// libPos is where an error at p, inside the library model being
// compiled, is reported: the program's call.
func (c *compiler) libPos(p diag.Pos) (diag.Pos, bool) {
	if c.fn == nil || c.fn.libAt.File == nil || !isLibPos(p) {
		return p, false
	}
	return c.fn.libAt, true
}

// libName is the standard name of library model fn ("__std_sort_lt":
// std::sort).
func libName(fn string) string {
	if !strings.HasPrefix(fn, "__std_") {
		return fn
	}
	n := strings.TrimPrefix(fn, "__std_")
	for _, suf := range []string{"_lt", "_plus", "2"} {
		n = strings.TrimSuffix(n, suf)
	}
	return "std::" + n
}
