package sem

import (
	"strings"

	"weft.dev/weft/lang/cudac/syntax"
)

// <iterator>'s functions over the model's iterators (C++
// [iterator.operations], [iterator.range]). The iterators of std::vector
// and std::string, and pointers, are random-access (iter.go: they are
// pointers), so std::distance(first, last) is last - first (a ptrdiff_t),
// std::next(it, n) it + n and std::prev(it, n) it - n (n defaults to 1,
// the result has it's type), std::advance(it, n) it += n (it an lvalue);
// std::begin(c)/std::end(c) are c.begin()/c.end() of a container and the
// first element's and one past the last's address of an array. Every
// pointer operation is the checked one of the program's own code: a
// range of two objects is C0402 as last - first is. The names keep their
// std:: qualifier (syntax.IterFuncs), so a program's own distance is
// untouched. Like the rest of the library they are host functions
// (constexpr ones: nvcc takes them on the device only with
// --expt-relaxed-constexpr): in device code C0307. Other iterators (the
// associative containers' are not modeled) are C0309. After using
// namespace std; the unqualified names call them too, unless the program
// declares a function, template or variable of the name (which C++
// name lookup finds first, or beside them for overloading).

func (c *compiler) iterCall(name string, e *syntax.Call) (*Type, bool) {
	if c.usingStd && syntax.IterFuncs[name] {
		// after using namespace std; the unqualified name, where the
		// program declares none of its own (call reaches the library
		// only then)
		name = "std::" + name
	}
	if !strings.HasPrefix(name, "std::") || !syntax.IterFuncs[name[5:]] {
		return nil, false
	}
	fn := name[5:]
	pos := e.Pos
	fail := func(code, format string, args ...any) (*Type, bool) {
		c.errorf(pos, code, format, args...)
		c.emit(OpConst, 0, 0, pos)
		return tInt, true
	}
	if c.deviceOnly() {
		return fail("C0307", "%s is a host function (constexpr: nvcc calls it from device code only with --expt-relaxed-constexpr)", name)
	}
	lo, hi := 2, 2
	switch fn {
	case "next", "prev":
		lo = 1
	case "begin", "end":
		lo, hi = 1, 1
	}
	if n := len(e.Args); n < lo || n > hi {
		want := "1 or 2 arguments"
		if lo == hi {
			want = map[int]string{1: "1 argument", 2: "2 arguments"}[lo]
		}
		return fail("C0304", "%s takes %s, %d given", name, want, n)
	}
	c.dry++
	t := c.typeOf(e.Args[0], false)
	c.dry--
	if fn == "begin" || fn == "end" {
		switch {
		case t.Kind == Array:
			// &a[0] and &a[0] + N: pointers into the array
			first := &syntax.Unary{Pos: pos, Op: "&", X: &syntax.Index{Pos: pos, X: e.Args[0], I: &syntax.IntLitExpr{Pos: pos}}}
			if fn == "begin" {
				return c.expr(first), true
			}
			return c.expr(&syntax.Binary{Pos: pos, Op: "+", X: first, Y: &syntax.IntLitExpr{Pos: pos, Value: uint64(t.Len)}}), true
		case t.Kind == Struct:
			return c.expr(&syntax.Call{Pos: pos, Fun: &syntax.Member{Pos: pos, X: e.Args[0], Name: fn}, RParen: e.RParen}), true
		}
		return fail("C0302", "no %s for an argument of type %s", name, t)
	}
	dt := t
	if dt.Kind == Array {
		dt = ptrTo(dt.Elem)
	}
	if dt.Kind != Ptr && dt.Kind != Struct {
		return fail("C0302", "no %s for an argument of type %s: not an iterator", name, t)
	}
	if dt.Kind != Ptr {
		return fail("C0309", "%s over %s is not modeled: only pointers and the iterators of std::vector and std::string", name, t)
	}
	var one syntax.Expr = &syntax.IntLitExpr{Pos: pos, Value: 1}
	if len(e.Args) == 2 {
		one = e.Args[1]
	}
	switch fn {
	case "distance":
		c.expr(&syntax.Binary{Pos: pos, Op: "-", X: e.Args[1], Y: e.Args[0]})
		return tLong, true
	case "next":
		return c.expr(&syntax.Binary{Pos: pos, Op: "+", X: e.Args[0], Y: one}), true
	case "prev":
		return c.expr(&syntax.Binary{Pos: pos, Op: "-", X: e.Args[0], Y: one}), true
	}
	// advance: void (the value of it += n stands for the void call's)
	c.expr(&syntax.Binary{Pos: pos, Op: "+=", X: e.Args[0], Y: e.Args[1]})
	return tVoid, true
}
