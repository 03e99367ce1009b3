package sem

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/cudac/syntax"
)

// The std::string and std::vector<T> subset host code uses (C++17
// [basic.string], [vector]). An object is a 24-byte header in memory,
// {data, size, capacity}; all zero is a valid empty object, so a zeroed
// temporary or member is default-constructed. The buffer is a heap object
// of exactly size elements (plus the terminator of a string), so an
// element access past the end is out of bounds for the checker as well as
// for operator[] (which checks the index: C0403). Copies are deep (value
// semantics): initialization, assignment and passing or returning by value
// copy the buffers of every std member (__std_copy). Destructors are not
// run: a buffer lives until the program ends. Elements of a vector are
// scalars or structs without std members; the class types are host-only,
// as in CUDA.

const (
	stdString = 1
	stdVector = 2
)

var tString *Type

// initTString builds tString (tables.go).
func initTString() {
	t := structOf("std::string", "__data", tCharP, "__size", tULong, "__cap", tULong)
	t.std, t.stdElem = stdString, tChar
	tString = t
}

// stdVectorOf is std::vector<elem> (one type per element type).
func (c *compiler) stdVectorOf(elem *Type, pos diag.Pos) *Type {
	if c.vectors == nil {
		c.vectors = map[string]*Type{}
	}
	key := typeKey(elem)
	if t := c.vectors[key]; t != nil {
		return t
	}
	if !elem.complete || elem.Kind == Void || elem.Kind == Array {
		c.errorf(pos, "C0309", "std::vector<%s> is not modeled (elements are scalars, pointers, structs and std objects)", elem)
	}
	t := structOf("std::vector<"+elem.String()+">", "__data", ptrTo(elem), "__size", tULong, "__cap", tULong)
	t.std, t.stdElem = stdVector, elem
	c.vectors[key] = t
	return t
}

// hasStd reports whether t is or contains a std class object.
func hasStd(t *Type) bool {
	switch t.Kind {
	case Struct:
		if t.std != 0 {
			return t.std != stdAtomicRef && t.std != stdChrono // (chrono values are plain bytes)
		}
		for _, f := range t.Fields {
			if hasStd(f.Type) {
				return true
			}
		}
	case Array:
		return t.Len > 0 && hasStd(t.Elem)
	}
	return false
}

// stdField is one std object inside a struct, for deep copies.
type stdField struct {
	off  int
	kind int
	es   int // element size (1 for a string)
	elem int // layout of an element holding std objects, or -1
}

func (c *compiler) stdFields(t *Type, base int, out []stdField) []stdField {
	switch t.Kind {
	case Struct:
		if t.std == stdAtomicRef || t.std == stdChrono {
			return out
		}
		if t.std != 0 {
			return append(out, stdField{off: base, kind: t.std, es: t.stdElem.size, elem: c.elemLayout(t)})
		}
		for _, f := range t.Fields {
			out = c.stdFields(f.Type, base+f.Offset, out)
		}
	case Array:
		if hasStd(t.Elem) {
			for i := 0; i < t.Len; i++ {
				out = c.stdFields(t.Elem, base+i*t.Elem.size, out)
			}
		}
	}
	return out
}

// elemLayout is the deep-copy layout of the elements of std container t,
// or -1 when they hold no std objects.
func (c *compiler) elemLayout(t *Type) int {
	if t.std != stdVector || !hasStd(t.stdElem) {
		return -1
	}
	return c.stdLayout(t.stdElem)
}

// copyValue copies a value of type t: dst and src are on the stack, dst
// is left (OpMemcpy, or a deep copy when t holds std objects).
func (c *compiler) copyValue(t *Type, pos diag.Pos) {
	if vbOf(t) != nil || t.poly {
		// a new object of a class with virtual bases, or a polymorphic
		// one: of its own class (vbase.go)
		c.vbCopy(t, true, pos)
		return
	}
	if !hasStd(t) {
		c.emit(OpMemcpy, 0, int64(t.size), pos)
		return
	}
	c.emit(OpConst, 0, int64(c.stdLayout(t)), pos)
	c.emit(OpBuiltin, c.builtinIndexOf("__std_copy", pos), 3, pos)
}

func (c *compiler) stdLayout(t *Type) int {
	key := t.String() + fmt.Sprintf("#%p", t)
	if i, ok := c.layoutIdx[key]; ok {
		return i
	}
	if c.layoutIdx == nil {
		c.layoutIdx = map[string]int{}
	}
	i := len(c.prog.StdLayouts)
	c.prog.StdLayouts = append(c.prog.StdLayouts, stdLayout{size: t.size})
	c.layoutIdx[key] = i
	c.prog.StdLayouts[i].fields = c.stdFields(t, 0, nil)
	return i
}

type stdLayout struct {
	size   int
	fields []stdField
}

// stdZero default-constructs the std members of the object on the stack
// (kept): their headers are zeroed.
func (c *compiler) stdZero(t *Type, pos diag.Pos) {
	for _, f := range c.stdFields(t, 0, nil) {
		c.emit(OpDup, 0, 0, pos)
		c.emit(OpConst, 0, int64(f.off), pos)
		c.emit(OpPtrAdd, 1, 0, pos)
		c.emit(OpMemzero, 0, 24, pos)
		c.emit(OpPop, 0, 0, pos)
	}
}

func (c *compiler) stdHostOnly(pos diag.Pos) {
	if c.deviceOnly() {
		c.errorf(pos, "C0307", "std::string and std::vector are host-only")
	}
}

// stdBuiltin emits a call of runtime helper name with n arguments.
func (c *compiler) stdBuiltin(name string, n int, pos diag.Pos) {
	c.emit(OpBuiltin, c.builtinIndexOf(name, pos), int64(n), pos)
}

// stdConstruct initializes the std object of type t on the stack (kept)
// from constructor arguments (T x(args) or T(args)).
func (c *compiler) stdConstruct(t *Type, args []syntax.Expr, pos diag.Pos) {
	if t.std == stdStream {
		c.streamConstruct(t, args, pos) // lib_sstream.go
		return
	}
	if t.std == stdChrono {
		c.chronoConstruct(t, args, pos) // lib_chrono.go
		return
	}
	c.stdHostOnly(pos)
	c.emit(OpDup, 0, 0, pos)
	c.emit(OpMemzero, 0, 24, pos)
	c.emit(OpPop, 0, 0, pos)
	switch {
	case len(args) == 0:
	case len(args) == 1 && c.isStd(c.typeOf(args[0], true), t.std):
		c.emit(OpDup, 0, 0, pos)
		c.expr(args[0])
		c.copyValue(t, pos)
		c.emit(OpPop, 0, 0, pos)
	case c.assocOf(t) != nil:
		c.assocRange(t, c.assocOf(t), args, pos) // lib_map.go
	case (t.std == stdVector || t.std == stdString) && c.isRangePair(args):
		c.stdRange(t, args, pos) // lib_vecrange.go
	case t.std == stdString && len(args) == 1:
		c.emit(OpDup, 0, 0, pos)
		at := c.expr(args[0])
		if at.Kind != Ptr {
			c.errorf(syntax.PosOf(args[0]), "C0302", "std::string from %s", at)
		}
		c.stdBuiltin("__str_assign", 2, pos)
		c.emit(OpPop, 0, 0, pos)
	case len(args) == 1 || len(args) == 2:
		// (n) or (n, value): n copies of value (value-initialized: zeros)
		c.emit(OpDup, 0, 0, pos)
		c.convert(c.expr(args[0]), tULong, pos)
		c.stdValuePtr(t, args[1:], pos)
		c.emit(OpConst, 0, int64(t.stdElem.size), pos)
		c.emit(OpConst, 0, int64(t.std), pos)
		c.emit(OpConst, 0, int64(c.elemLayout(t)), pos)
		c.stdBuiltin("__vec_resize", 6, pos)
		c.emit(OpPop, 0, 0, pos)
	default:
		c.errorf(pos, "C0304", "no constructor of %s takes %d arguments", t, len(args))
	}
}

// stdValuePtr pushes the address of a temporary holding the element value
// args[0] (or 0 for value-initialization).
func (c *compiler) stdValuePtr(t *Type, args []syntax.Expr, pos diag.Pos) {
	if len(args) == 0 {
		c.emit(OpConst, 0, 0, pos)
		return
	}
	et := t.stdElem
	c.emit(OpTemp, 0, int64(et.size), pos)
	c.initFrom(et, args[0])
}

func (c *compiler) isStd(t *Type, kind int) bool { return t.Kind == Struct && t.std == kind }

// stdInitFrom initializes std object t on the stack (kept) from an
// initializer expression: another object, a string literal or char*, or
// an initializer list of elements.
func (c *compiler) stdInitFrom(t *Type, e syntax.Expr) {
	pos := syntax.PosOf(e)
	c.stdHostOnly(pos)
	if t.std == stdChrono {
		c.chronoInit(t, e, pos) // lib_chrono.go
		return
	}
	if t.std == stdStream {
		if il, ok := e.(*syntax.InitList); ok && len(il.Elems) == 0 {
			c.streamConstruct(t, nil, pos)
		} else if !c.streamBind(t, e, pos) {
			c.errorf(pos, "C0302", "%s cannot be copied", t)
		}
		return
	}
	if il, ok := e.(*syntax.InitList); ok {
		if ai := c.assocOf(t); ai != nil {
			c.assocInit(t, ai, il, pos) // lib_map.go
			return
		}
		c.emit(OpDup, 0, 0, pos)
		c.emit(OpMemzero, 0, 24, pos)
		c.emit(OpPop, 0, 0, pos)
		if t.std == stdString {
			if len(il.Elems) == 1 {
				c.stdConstruct(t, []syntax.Expr{il.Elems[0].X}, pos)
			} else if len(il.Elems) > 1 {
				c.errorf(pos, "C0309", "std::string from a list of %d elements", len(il.Elems))
			}
			return
		}
		if t.std == stdVector && len(il.Elems) > 0 {
			// libstdc++ allocates an initializer list's size at once
			// (lib_vecalloc.go): capacity() is the list's length
			c.emit(OpDup, 0, 0, pos)
			c.emit(OpConst, 0, int64(len(il.Elems)), pos)
			c.emit(OpConst, 0, int64(t.stdElem.size), pos)
			c.emit(OpConst, 0, 1, pos)
			c.stdBuiltin("__vec_reserve", 4, pos)
			c.emit(OpPop, 0, 0, pos)
		}
		for _, el := range il.Elems {
			c.emit(OpDup, 0, 0, pos)
			c.stdValuePtr(t, []syntax.Expr{el.X}, pos)
			c.emit(OpConst, 0, int64(t.stdElem.size), pos)
			c.emit(OpConst, 0, int64(t.std), pos)
			c.emit(OpConst, 0, int64(c.elemLayout(t)), pos)
			c.stdBuiltin("__vec_push", 5, pos)
			c.emit(OpPop, 0, 0, pos)
		}
		return
	}
	vt := c.typeOf(e, true)
	if t.std == stdString && vt.Kind == Ptr {
		c.stdConstruct(t, []syntax.Expr{e}, pos)
		return
	}
	if !sameType(vt, t) {
		c.errorf(pos, "C0302", "cannot initialize %s from %s", t, vt)
		return
	}
	c.emit(OpDup, 0, 0, pos)
	c.expr(e)
	c.copyValue(t, pos)
	c.emit(OpPop, 0, 0, pos)
}

// stdAssign compiles x = y, x += y for a std object x.
func (c *compiler) stdAssign(e *syntax.Binary, lt *Type) *Type {
	pos := e.Pos
	c.stdHostOnly(pos)
	if lt.std == stdChrono && e.Op == "=" {
		c.lvalue(e.X)
		c.chronoInit(lt, e.Y, pos) // lib_chrono.go
		return lt
	}
	if lt.std == stdStream || lt.std == stdIstream || lt.std == stdOstream {
		c.errorf(pos, "C0302", "%s cannot be assigned", lt)
		c.emit(OpConst, 0, 0, pos)
		return lt
	}
	lv := c.lvalue(e.X)
	if e.Op == "+=" {
		if lt.std != stdString {
			c.errorf(pos, "C0302", "operator += on %s", lt)
			return lt
		}
		c.emit(OpDup, 0, 0, pos)
		c.strAppendExpr(e.Y, pos)
		c.emit(OpPop, 0, 0, pos)
		return lv.t
	}
	if e.Op != "=" {
		c.errorf(pos, "C0302", "operator %s on %s", e.Op, lt)
		return lt
	}
	vt := c.typeOf(e.Y, true)
	if lt.std == stdString && vt.Kind == Ptr {
		c.emit(OpDup, 0, 0, pos)
		c.expr(e.Y)
		c.stdBuiltin("__str_assign", 2, pos)
		c.emit(OpPop, 0, 0, pos)
		return lt
	}
	if il, ok := e.Y.(*syntax.InitList); ok {
		if _, simple := e.X.(*syntax.Name); simple && lt.std == stdVector && c.assocOf(lt) == nil && !isDeque(lt) {
			// v = {...} is assign(list): the storage stays when the
			// list fits its capacity, else it is exactly the list's
			// (libstdc++ _M_assign_aux)
			call := func(name string, args ...syntax.Expr) {
				c.expr(&syntax.Call{Pos: pos, Fun: &syntax.Member{Pos: pos, X: e.X, Name: name}, Args: args, RParen: pos})
				c.emit(OpPop, 0, 0, pos)
			}
			call("clear")
			call("reserve", &syntax.IntLitExpr{Pos: pos, Value: uint64(len(il.Elems)), Type: "unsigned long"})
			for _, el := range il.Elems {
				call("push_back", el.X)
			}
			c.lvalue(e.X)
			return lt
		}
		c.stdInitFrom(lt, il)
		return lt
	}
	if !sameType(vt, lt) {
		c.errorf(pos, "C0302", "cannot assign %s to %s", vt, lt)
	}
	c.expr(e.Y)
	c.copyValue(lt, pos)
	return lt
}

// strAppendExpr appends y (a string, char* or char) to the string whose
// address is on the stack (consumed; the string's address is pushed).
func (c *compiler) strAppendExpr(y syntax.Expr, pos diag.Pos) {
	yt := c.expr(y)
	c.strAppendTyped(yt, pos)
}

// strAppendTyped appends the value on the stack, of type yt, to the string
// whose address is below it (both consumed; the string's address pushed).
func (c *compiler) strAppendTyped(yt *Type, pos diag.Pos) {
	switch {
	case c.isStd(yt, stdString):
		c.stdBuiltin("__str_append_str", 2, pos)
	case yt.Kind == Ptr:
		c.stdBuiltin("__str_append_cstr", 2, pos)
	case yt.isInt():
		c.convert(yt, tChar, pos)
		c.stdBuiltin("__str_push", 2, pos)
	default:
		c.errorf(pos, "C0302", "appending %s to a std::string", yt)
		c.emit(OpPop, 0, 0, pos)
	}
}

// stdBinaryOps applies +, ==, != and the orderings to the operands on the
// stack (x below y) when one is a std object.
func (c *compiler) stdBinaryOps(op string, tx, ty *Type, pos diag.Pos) *Type {
	if tx.std == stdChrono || ty.std == stdChrono {
		return c.chronoBinary(op, tx, ty, pos) // lib_chrono.go
	}
	c.stdHostOnly(pos)
	ys, xs := c.newSlot(), c.newSlot()
	c.emit(OpSetLocal, int32(ys), 0, pos)
	c.emit(OpPop, 0, 0, pos)
	c.emit(OpSetLocal, int32(xs), 0, pos)
	c.emit(OpPop, 0, 0, pos)
	// asString pushes operand slot as a std::string object
	asString := func(slot int, t *Type) {
		if c.isStd(t, stdString) {
			c.emit(OpLocal, int32(slot), 0, pos)
			return
		}
		c.emit(OpTemp, 0, 24, pos)
		c.emit(OpMemzero, 0, 24, pos)
		c.emit(OpLocal, int32(slot), 0, pos)
		c.strAppendTyped(t, pos)
	}
	str := c.isStd(tx, stdString) || c.isStd(ty, stdString)
	switch op {
	case "+":
		if !str {
			break
		}
		c.emit(OpTemp, 0, 24, pos)
		c.emit(OpMemzero, 0, 24, pos)
		c.emit(OpLocal, int32(xs), 0, pos)
		c.strAppendTyped(tx, pos)
		c.emit(OpLocal, int32(ys), 0, pos)
		c.strAppendTyped(ty, pos)
		return tString
	case "==", "!=", "<", ">", "<=", ">=":
		es := 1
		switch {
		case str:
			asString(xs, tx)
			asString(ys, ty)
		case sameType(tx, ty):
			c.emit(OpLocal, int32(xs), 0, pos)
			c.emit(OpLocal, int32(ys), 0, pos)
			es = tx.stdElem.size
		default:
			c.errorf(pos, "C0302", "comparing %s with %s", tx, ty)
			c.emit(OpConst, 0, 0, pos)
			return tInt
		}
		c.emit(OpConst, 0, int64(es), pos)
		c.stdBuiltin("__std_cmp", 3, pos)
		c.emit(OpConst, 0, 0, pos)
		c.arith(op, tInt, tInt, pos)
		return tInt
	}
	c.errorf(pos, "C0302", "operator %s on %s and %s", op, tx, ty)
	c.emit(OpConst, 0, 0, pos)
	return tInt
}

// stdIndex compiles x[i] of a std object at the address on the stack: the
// element's address, after a range check.
func (c *compiler) stdIndex(t *Type, i syntax.Expr, pos diag.Pos) lval {
	c.stdHostOnly(pos)
	if ai := c.assocOf(t); ai != nil {
		if lv, ok := c.assocIndex(t, ai, i, pos); ok { // lib_map.go
			return lv
		}
	}
	it := c.expr(i)
	if !it.isInt() {
		c.errorf(syntax.PosOf(i), "C0302", "index of type %s", it)
	}
	c.convert(it, tULong, pos)
	c.emit(OpConst, 0, int64(t.stdElem.size), pos)
	c.emit(OpConst, 0, int64(t.std), pos)
	c.stdBuiltin("__std_at", 4, pos)
	return lval{t: t.stdElem, slot: -1}
}

// stdMethod compiles x.f(args) for a std object.
func (c *compiler) stdMethod(st *Type, m *syntax.Member, e *syntax.Call) *Type {
	if st.std == stdStream || st.std == stdOstream || st.std == stdIstream {
		return c.streamMethod(st, m, e) // lib_sstream.go
	}
	if st.std == stdChrono {
		return c.chronoMethod(st, m, e) // lib_chrono.go
	}
	if ai := c.assocOf(st); ai != nil {
		c.stdHostOnly(e.Pos)
		if t, ok := c.assocMethod(st, ai, m, e); ok { // lib_map.go
			return t
		}
	}
	pos := e.Pos
	c.stdHostOnly(pos)
	// front(), back() and at() return references: as an lvalue
	// (&v.front(), v.back() = x) the call is the element (operators.go)
	raw := c.rawRef
	c.rawRef = false
	recv := func() {
		if m.Arrow {
			c.expr(m.X)
		} else {
			lv := c.lvalue(m.X)
			if lv.slot >= 0 {
				c.errorf(pos, "C0303", "member function call on a value that is not an object")
			}
		}
	}
	args := e.Args
	nargs := func(min, max int) bool {
		if len(args) < min || len(args) > max {
			c.errorf(pos, "C0304", "%s::%s takes %d to %d arguments, %d given", st, m.Name, min, max, len(args))
			c.emit(OpConst, 0, 0, pos)
			return false
		}
		return true
	}
	field := func(off int, mc int32) {
		recv()
		if off > 0 {
			c.emit(OpConst, 0, int64(off), pos)
			c.emit(OpPtrAdd, 1, 0, pos)
		}
		c.emit(OpLoad, mc, 0, pos)
	}
	// self is the result of a member returning *this (basic_string&):
	// the object, whose address is on the stack, so calls chain
	self := func() *Type {
		if raw {
			c.gotRef = true
		}
		return st
	}
	isStr := st.std == stdString
	if isDeque(st) {
		if t, ok := c.dequeMethod(st, m, e, recv); ok { // lib_deque.go
			return t
		}
	}
	switch m.Name {
	case "size", "length":
		if !nargs(0, 0) {
			return tULong
		}
		field(8, mU64)
		return tULong
	case "empty":
		if !nargs(0, 0) {
			return tBool
		}
		field(8, mU64)
		c.emit(OpConst, 0, 0, pos)
		c.emit(OpEq, 0, 0, pos)
		return tBool
	case "capacity":
		field(16, mU64)
		return tULong
	case "data", "c_str":
		if !nargs(0, 0) {
			return ptrTo(st.stdElem)
		}
		recv()
		c.emit(OpConst, 0, int64(st.std), pos)
		c.stdBuiltin("__std_data", 2, pos)
		if isStr {
			return tCharP
		}
		return ptrTo(st.stdElem)
	case "begin", "end", "cbegin", "cend":
		// iterators are pointers into the elements (C++ [vector.overview]:
		// contiguous iterators); end() is one past the last
		et := st.stdElem
		if isStr {
			et = tChar
		}
		if !nargs(0, 0) {
			return iterTo(et, st.String())
		}
		recv()
		if m.Name == "begin" || m.Name == "cbegin" {
			c.emit(OpConst, 0, int64(st.std), pos)
			c.stdBuiltin("__std_data", 2, pos)
			return iterTo(et, st.String())
		}
		c.emit(OpDup, 0, 0, pos)
		c.emit(OpConst, 0, int64(st.std), pos)
		c.stdBuiltin("__std_data", 2, pos)
		c.emit(OpSwap, 0, 0, pos)
		c.emit(OpConst, 0, 8, pos)
		c.emit(OpPtrAdd, 1, 0, pos)
		c.emit(OpLoad, mU64, 0, pos)
		c.emit(OpPtrAdd, int32(et.size), 0, pos)
		return iterTo(et, st.String())
	case "clear":
		if !nargs(0, 0) {
			return tVoid
		}
		recv()
		c.emit(OpConst, 0, 0, pos)
		c.emit(OpConst, 0, 0, pos)
		c.emit(OpConst, 0, int64(st.stdElem.size), pos)
		c.emit(OpConst, 0, int64(st.std), pos)
		c.emit(OpConst, 0, int64(c.elemLayout(st)), pos)
		c.stdBuiltin("__vec_resize", 6, pos)
		return tVoid
	case "resize":
		if !nargs(1, 2) {
			return tVoid
		}
		recv()
		c.convert(c.expr(args[0]), tULong, pos)
		c.stdValuePtr(st, args[1:], pos)
		c.emit(OpConst, 0, int64(st.stdElem.size), pos)
		c.emit(OpConst, 0, int64(st.std), pos)
		c.emit(OpConst, 0, int64(c.elemLayout(st)), pos)
		c.stdBuiltin("__vec_resize", 6, pos)
		return tVoid
	case "assign":
		if !nargs(2, 2) {
			return tVoid
		}
		if c.isRangePair(args) {
			recv()
			c.stdRange(st, args, pos) // lib_vecrange.go
			c.emit(OpPop, 0, 0, pos)
			c.emit(OpConst, 0, 0, pos)
			return tVoid
		}
		for k := 0; k < 2; k++ {
			recv()
			if k == 0 {
				c.emit(OpConst, 0, 0, pos)
				c.emit(OpConst, 0, 0, pos)
			} else {
				c.convert(c.expr(args[0]), tULong, pos)
				c.stdValuePtr(st, args[1:], pos)
			}
			c.emit(OpConst, 0, int64(st.stdElem.size), pos)
			c.emit(OpConst, 0, int64(st.std), pos)
			c.emit(OpConst, 0, int64(c.elemLayout(st)), pos)
			c.stdBuiltin("__vec_resize", 6, pos)
			if k == 0 {
				c.emit(OpPop, 0, 0, pos)
			}
		}
		return tVoid
	case "reserve", "shrink_to_fit":
		if isStr {
			for _, a := range args {
				c.typeOf(a, true)
			}
			c.emit(OpConst, 0, 0, pos) // a string's capacity is its size (lib_vecalloc.go)
			return tVoid
		}
		if m.Name == "reserve" && !nargs(1, 1) || m.Name == "shrink_to_fit" && !nargs(0, 0) {
			return tVoid
		}
		// the vector's capacity and reallocation (lib_vecalloc.go)
		recv()
		if m.Name == "reserve" {
			c.convert(c.expr(args[0]), tULong, pos)
		} else {
			c.emit(OpConst, 0, 0, pos)
		}
		c.emit(OpConst, 0, int64(st.stdElem.size), pos)
		c.emit(OpConst, 0, map[bool]int64{true: 1, false: 0}[m.Name == "reserve"], pos)
		c.stdBuiltin("__vec_reserve", 4, pos)
		return tVoid
	case "push_back", "emplace_back":
		if !nargs(1, 1) {
			return tVoid
		}
		recv()
		c.stdValuePtr(st, args, pos)
		c.emit(OpConst, 0, int64(st.stdElem.size), pos)
		c.emit(OpConst, 0, int64(st.std), pos)
		c.emit(OpConst, 0, int64(c.elemLayout(st)), pos)
		c.stdBuiltin("__vec_push", 5, pos)
		return tVoid
	case "pop_back":
		if !nargs(0, 0) {
			return tVoid
		}
		recv()
		c.emit(OpConst, 0, int64(st.stdElem.size), pos)
		c.emit(OpConst, 0, int64(st.std), pos)
		c.stdBuiltin("__vec_pop", 3, pos)
		return tVoid
	case "back", "front", "at":
		var idx syntax.Expr
		switch m.Name {
		case "front":
			idx = &syntax.IntLitExpr{Pos: pos, Type: "int"}
		case "back":
			recv()
			c.emit(OpConst, 0, 8, pos)
			c.emit(OpPtrAdd, 1, 0, pos)
			c.emit(OpLoad, mU64, 0, pos)
			c.emit(OpConst, 0, 1, pos)
			c.emit(OpSub, 0, 0, pos)
			slot := c.newSlot()
			c.emit(OpSetLocal, int32(slot), 0, pos)
			c.emit(OpPop, 0, 0, pos)
			name := fmt.Sprintf("__back%d", slot)
			c.declare(name, &sym{kind: symSlot, t: tULong, slot: slot})
			idx = &syntax.Name{Pos: pos, Name: name}
		default:
			if !nargs(1, 1) {
				return st.stdElem
			}
			idx = args[0]
		}
		recv()
		lv := c.stdIndex(st, idx, pos)
		if raw {
			c.gotRef = true
			return lv.t
		}
		return c.load(lv, pos)
	case "append":
		if !isStr || !nargs(1, 2) {
			break
		}
		recv()
		if len(args) == 2 {
			// append(n, c)
			c.emit(OpDup, 0, 0, pos)
			c.convert(c.expr(args[0]), tULong, pos)
			c.convert(c.expr(args[1]), tChar, pos)
			c.stdBuiltin("__str_append_n", 3, pos)
			c.emit(OpPop, 0, 0, pos)
			return self()
		}
		c.emit(OpDup, 0, 0, pos)
		c.strAppendExpr(args[0], pos)
		c.emit(OpPop, 0, 0, pos)
		return self()
	case "find", "rfind", "find_first_of", "find_first_not_of", "find_last_of", "find_last_not_of":
		if !isStr || !nargs(1, 2) {
			break
		}
		recv()
		at := c.typeOf(args[0], true)
		switch {
		case c.isStd(at, stdString):
			c.expr(args[0])
			c.emit(OpConst, 0, stdString, pos)
			c.stdBuiltin("__std_data", 2, pos)
		case at.Kind == Ptr:
			c.expr(args[0])
		case at.isInt():
			// a char: find it as a one-character string
			c.emit(OpTemp, 0, 2, pos)
			c.emit(OpMemzero, 0, 2, pos)
			c.emit(OpDup, 0, 0, pos)
			c.convert(c.expr(args[0]), tChar, pos)
			c.emit(OpStore, mI8, 0, pos)
			c.emit(OpPop, 0, 0, pos)
		default:
			c.errorf(pos, "C0302", "std::string::find of %s", at)
			c.emit(OpConst, 0, 0, pos)
		}
		mode := map[string]int64{"find": 0, "rfind": 1, "find_first_of": 2, "find_first_not_of": 3, "find_last_of": 4, "find_last_not_of": 5}[m.Name]
		if len(args) == 2 {
			c.convert(c.expr(args[1]), tULong, pos)
		} else if mode == 1 || mode >= 4 {
			c.emit(OpConst, 0, -1, pos)
		} else {
			c.emit(OpConst, 0, 0, pos)
		}
		c.emit(OpConst, 0, mode, pos)
		c.stdBuiltin("__str_find", 4, pos)
		return tULong
	case "erase", "insert", "replace", "emplace":
		if isStr && c.strSplice(m.Name, args, recv, pos) { // lib_strsplice.go
			return self()
		}
		if !isStr && st.std == stdVector {
			if t, ok := c.vecSplice(st, m, e, recv); ok { // lib_vecsplice.go
				return t
			}
		}
	case "substr":
		if !isStr || !nargs(0, 2) {
			break
		}
		c.emit(OpTemp, 0, 24, pos)
		c.emit(OpMemzero, 0, 24, pos)
		recv()
		if len(args) > 0 {
			c.convert(c.expr(args[0]), tULong, pos)
		} else {
			c.emit(OpConst, 0, 0, pos)
		}
		if len(args) > 1 {
			c.convert(c.expr(args[1]), tULong, pos)
		} else {
			c.emit(OpConst, 0, -1, pos)
		}
		c.stdBuiltin("__str_substr", 4, pos)
		return tString
	}
	c.errorf(m.Pos, "C0309", "%s::%s is not modeled", st, m.Name)
	for _, a := range args {
		c.typeOf(a, true)
	}
	c.emit(OpConst, 0, 0, pos)
	return tInt
}

// stdCall compiles calls of the modeled std functions (std::to_string).
func (c *compiler) stdCall(name string, e *syntax.Call) (*Type, bool) {
	if t, ok := c.streamCall(name, e); ok { // std::getline (lib_sstream.go)
		return t, true
	}
	if t, ok := c.chronoCall(name, e); ok { // lib_chrono.go
		return t, true
	}
	if t, ok := c.stoCall(name, e); ok { // std::stoi ... (lib_stoi.go)
		return t, true
	}
	if t, ok := c.cudartCall(name, e); ok { // lib_cudart_mem.go
		return t, true
	}
	if t, ok := c.divCall(name, e); ok { // lib_div.go
		return t, true
	}
	if t, ok := c.iterCall(name, e); ok { // lib_iterator.go
		return t, true
	}
	if t, ok := c.warpReduceCall(name, e); ok { // warpreduce.go
		return t, true
	}
	if name != "std::to_string" {
		return nil, false
	}
	pos := e.Pos
	c.stdHostOnly(pos)
	if len(e.Args) != 1 {
		c.errorf(pos, "C0304", "std::to_string takes 1 argument, %d given", len(e.Args))
		c.emit(OpConst, 0, 0, pos)
		return tString, true
	}
	c.emit(OpTemp, 0, 24, pos)
	c.emit(OpMemzero, 0, 24, pos)
	at := c.expr(e.Args[0])
	kind := int64(0)
	switch {
	case at.isFloat():
		c.convert(at, tDouble, pos)
		kind = 2
	case at.isInt() && !at.isSigned():
		c.convert(at, tULLong, pos)
		kind = 1
	case at.isInt():
		c.convert(at, tLLong, pos)
	default:
		c.errorf(syntax.PosOf(e.Args[0]), "C0302", "std::to_string of %s", at)
	}
	c.emit(OpConst, 0, kind, pos)
	c.stdBuiltin("__to_string", 3, pos)
	return tString, true
}

// Run-time helpers.

// stdHdr reads the header of the std object at p.
func (m *Machine) stdHdr(t *Thread, p uint64, pos int32) (data, size, capy uint64, good bool) {
	b, good := m.resolve(t, p, 24, pos, false, false)
	if !good {
		return 0, 0, 0, false
	}
	return loadN(b, 8), loadN(b[8:], 8), loadN(b[16:], 8), true
}

func (m *Machine) stdSetHdr(t *Thread, p, data, size, capy uint64, pos int32) bool {
	b, good := m.resolve(t, p, 24, pos, true, false)
	if !good {
		return false
	}
	storeN(b, 8, data)
	storeN(b[8:], 8, size)
	storeN(b[16:], 8, capy)
	return true
}

// stdSetBytes replaces the contents of the object at p with n elements of
// es bytes taken from src (nil: zeros); a string keeps a terminator.
func (m *Machine) stdSetBytes(t *Thread, p uint64, src []byte, n uint64, es int, str bool, pos int32) bool {
	total := n * uint64(es)
	extra := uint64(0)
	if str {
		extra = 1
	}
	if total+extra >= 1<<31 {
		m.fault(t, pos, "C0403", "std::%s of %d elements exceeds the model's 2 GiB objects", map[bool]string{true: "string", false: "vector"}[str], n)
		return false
	}
	if n == 0 && !str {
		return m.stdSetHdr(t, p, 0, 0, 0, pos)
	}
	o := m.newObject(int(total+extra), SpaceHost, "std buffer", pos)
	if m.failed {
		return false
	}
	o.Heap = true
	copy(o.Data, src)
	o.init.setAll()
	return m.stdSetHdr(t, p, ptrOf(o, 0), n, n, pos)
}

// stdBytes returns the elements of the object at p.
func (m *Machine) stdBytes(t *Thread, p uint64, es int, pos int32) ([]byte, uint64, bool) {
	data, size, _, good := m.stdHdr(t, p, pos)
	if !good {
		return nil, 0, false
	}
	if size == 0 {
		return nil, 0, true
	}
	b, good := m.resolve(t, data, int(size)*es, pos, false, false)
	return b, size, good
}

func initLibStd() {
	for name, s := range map[string]*bsig{
		"__std_copy":        sig(tVoidP, hostSide, tAny, tAny, tAny),
		"__std_cmp":         sig(tInt, hostSide, tAny, tAny, tAny),
		"__std_at":          sig(tVoidP, hostSide, tAny, tAny, tAny, tAny),
		"__std_data":        sig(tVoidP, hostSide, tAny, tAny),
		"__vec_resize":      sig(tVoid, hostSide, tAny, tAny, tAny, tAny, tAny, tAny),
		"__vec_push":        sig(tVoid, hostSide, tAny, tAny, tAny, tAny, tAny),
		"__vec_pop":         sig(tVoid, hostSide, tAny, tAny, tAny),
		"__str_assign":      sig(tVoidP, hostSide, tAny, tAny),
		"__str_append_str":  sig(tVoidP, hostSide, tAny, tAny),
		"__str_append_cstr": sig(tVoidP, hostSide, tAny, tAny),
		"__str_append_n":    sig(tVoidP, hostSide, tAny, tAny, tAny),
		"__str_push":        sig(tVoidP, hostSide, tAny, tAny),
		"__str_find":        sig(tULong, hostSide, tAny, tAny, tAny, tAny),
		"__str_substr":      sig(tVoidP, hostSide, tAny, tAny, tAny, tAny),
		"__to_string":       sig(tVoidP, hostSide, tAny, tAny, tAny),
	} {
		builtinSigs[name] = s
	}
	namedConsts["std::string::npos"] = -1
	defb("__std_copy", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if !m.copyDeep(t, a[0], a[1], int(a[2]), pos) {
			return 0, stFault
		}
		return ok(a[0])
	})
	defb("__std_cmp", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		x, _, good := m.stdBytes(t, a[0], int(a[2]), pos)
		if !good {
			return 0, stFault
		}
		y, _, good := m.stdBytes(t, a[1], int(a[2]), pos)
		if !good {
			return 0, stFault
		}
		r := int64(0)
		switch s, u := string(x), string(y); {
		case s < u:
			r = -1
		case s > u:
			r = 1
		}
		return ok(uint64(r))
	})
	defb("__std_at", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		data, size, _, good := m.stdHdr(t, a[0], pos)
		if !good {
			return 0, stFault
		}
		// a string's terminator s[size()] may be read ([string.access])
		limit := size
		if a[3] == stdString {
			limit++
		}
		if a[1] >= limit {
			m.fault(t, pos, "C0403", "index %d out of range of a std::%s of size %d", int64(a[1]), map[bool]string{true: "string", false: "vector"}[a[3] == stdString], size)
			return 0, stFault
		}
		if data == 0 {
			return ok(m.runtimeString(""))
		}
		return ok(data + a[1]*a[2])
	})
	defb("__std_data", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		data, _, _, good := m.stdHdr(t, a[0], pos)
		if !good {
			return 0, stFault
		}
		if data == 0 && a[1] == stdString {
			return ok(m.runtimeString(""))
		}
		return ok(data)
	})
	defb("__vec_resize", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		es := int(a[3])
		old, size, good := m.stdBytes(t, a[0], es, pos)
		if !good {
			return 0, stFault
		}
		n := a[1]
		if n >= 1<<31 {
			m.fault(t, pos, "C0403", "resize to %d elements exceeds the model's 2 GiB objects", n)
			return 0, stFault
		}
		buf := make([]byte, int(n)*es)
		copy(buf, old)
		deep := int64(a[5]) >= 0 && a[2] != 0
		if a[2] != 0 && n > size && !deep {
			v, good := m.resolve(t, a[2], es, pos, false, false)
			if !good {
				return 0, stFault
			}
			for i := size; i < n; i++ {
				copy(buf[int(i)*es:], v)
			}
		}
		var freed *Object
		if a[4] == stdString {
			if !m.stdSetBytes(t, a[0], buf, n, es, true, pos) {
				return 0, stFault
			}
		} else if freed, good = m.vecResize(t, a[0], buf, n, es, pos); !good { // lib_vecalloc.go
			return 0, stFault
		}
		defer m.vecFree(freed, "resize", pos)
		if deep {
			data, _, _, good := m.stdHdr(t, a[0], pos)
			if !good {
				return 0, stFault
			}
			for i := size; i < n; i++ {
				if !m.copyDeep(t, data+i*uint64(es), a[2], int(a[5]), pos) {
					return 0, stFault
				}
			}
		}
		return ok(0)
	})
	defb("__vec_push", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		es := int(a[2])
		if a[3] != stdString {
			// capacity and reallocation (lib_vecalloc.go)
			if !m.vecPush(t, a[0], a[1], es, int(int64(a[4])), pos) {
				return 0, stFault
			}
			return ok(0)
		}
		old, size, good := m.stdBytes(t, a[0], es, pos)
		if !good {
			return 0, stFault
		}
		v, good := m.resolve(t, a[1], es, pos, false, false)
		if !good {
			return 0, stFault
		}
		buf := append(append(make([]byte, 0, len(old)+es), old...), v...)
		if !m.stdSetBytes(t, a[0], buf, size+1, es, a[3] == stdString, pos) {
			return 0, stFault
		}
		if int64(a[4]) >= 0 {
			data, _, _, good := m.stdHdr(t, a[0], pos)
			if !good || !m.copyDeep(t, data+size*uint64(es), a[1], int(a[4]), pos) {
				return 0, stFault
			}
		}
		return ok(0)
	})
	defb("__vec_pop", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		es := int(a[1])
		old, size, good := m.stdBytes(t, a[0], es, pos)
		if !good {
			return 0, stFault
		}
		if size == 0 {
			m.fault(t, pos, "C0403", "pop_back of an empty std::vector")
			return 0, stFault
		}
		if a[2] == stdString {
			if !m.stdSetBytes(t, a[0], old[:len(old)-es], size-1, es, true, pos) {
				return 0, stFault
			}
		} else if freed, good := m.vecResize(t, a[0], old[:len(old)-es], size-1, es, pos); !good { // in place: the capacity stays
			return 0, stFault
		} else {
			m.vecFree(freed, "pop_back", pos)
		}
		return ok(0)
	})
	setStr := func(m *Machine, t *Thread, p uint64, s []byte, pos int32) (uint64, status) {
		if !m.stdSetBytes(t, p, s, uint64(len(s)), 1, true, pos) {
			return 0, stFault
		}
		return ok(p)
	}
	defb("__str_assign", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		s, good := m.cstring(t, a[1], pos)
		if !good {
			return 0, stFault
		}
		return setStr(m, t, a[0], []byte(s), pos)
	})
	appendB := func(m *Machine, t *Thread, p uint64, more []byte, pos int32) (uint64, status) {
		if done, good := m.strAppendInPlace(t, p, more, pos); !good { // lib_growth.go
			return 0, stFault
		} else if done {
			return ok(p)
		}
		old, _, good := m.stdBytes(t, p, 1, pos)
		if !good {
			return 0, stFault
		}
		return setStr(m, t, p, append(append([]byte(nil), old...), more...), pos)
	}
	defb("__str_append_str", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		b, _, good := m.stdBytes(t, a[1], 1, pos)
		if !good {
			return 0, stFault
		}
		return appendB(m, t, a[0], append([]byte(nil), b...), pos)
	})
	defb("__str_append_cstr", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		s, good := m.cstring(t, a[1], pos)
		if !good {
			return 0, stFault
		}
		return appendB(m, t, a[0], []byte(s), pos)
	})
	defb("__str_append_n", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if a[1] >= 1<<30 {
			m.fault(t, pos, "C0403", "append of %d characters", a[1])
			return 0, stFault
		}
		b := make([]byte, a[1])
		for i := range b {
			b[i] = byte(a[2])
		}
		return appendB(m, t, a[0], b, pos)
	})
	defb("__str_push", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		return appendB(m, t, a[0], []byte{byte(a[1])}, pos)
	})
	defb("__str_find", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		hay, _, good := m.stdBytes(t, a[0], 1, pos)
		if !good {
			return 0, stFault
		}
		needle, good := m.cstring(t, a[1], pos)
		if !good {
			return 0, stFault
		}
		from := a[2]
		h := string(hay)
		if a[3] >= 2 {
			// find_{first,last}_{of,not_of}: a character in (or not in) the set
			in := a[3] == 2 || a[3] == 4
			last := a[3] >= 4
			match := func(i int) bool { return strings.IndexByte(needle, h[i]) >= 0 == in }
			if last {
				i := len(h) - 1
				if from < uint64(len(h)) {
					i = int(from)
				}
				for ; i >= 0; i-- {
					if match(i) {
						return ok(uint64(i))
					}
				}
				return ok(^uint64(0))
			}
			for i := from; i < uint64(len(h)); i++ {
				if match(int(i)) {
					return ok(i)
				}
			}
			return ok(^uint64(0))
		}
		if a[3] != 0 { // rfind: the last match starting at or before from
			end := uint64(len(h))
			if from < end {
				end = from
			}
			lim := int(end) + len(needle)
			if lim > len(h) {
				lim = len(h)
			}
			i := strings.LastIndex(h[:lim], needle)
			if i < 0 {
				return ok(^uint64(0))
			}
			return ok(uint64(i))
		}
		if from > uint64(len(h)) {
			return ok(^uint64(0))
		}
		i := strings.Index(h[from:], needle)
		if i < 0 {
			return ok(^uint64(0))
		}
		return ok(from + uint64(i))
	})
	defb("__str_substr", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		b, size, good := m.stdBytes(t, a[1], 1, pos)
		if !good {
			return 0, stFault
		}
		p, n := a[2], a[3]
		if p > size {
			// std::out_of_range: exceptions are not modeled
			m.fault(t, pos, "C0403", "substr(%d) of a std::string of size %d (out_of_range)", p, size)
			return 0, stFault
		}
		if n > size-p {
			n = size - p
		}
		return setStr(m, t, a[0], append([]byte(nil), b[p:p+n]...), pos)
	})
	defb("__to_string", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		var s string
		switch a[2] {
		case 0:
			s = strconv.FormatInt(int64(a[1]), 10)
		case 1:
			s = strconv.FormatUint(a[1], 10)
		default:
			s = cFormatFloat(math.Float64frombits(a[1]))
		}
		return setStr(m, t, a[0], []byte(s), pos)
	})
}

// cFormatFloat is std::to_string of a double: printf's "%f".
func cFormatFloat(v float64) string {
	switch {
	case math.IsNaN(v):
		if math.Signbit(v) {
			return "-nan"
		}
		return "nan"
	case math.IsInf(v, 1):
		return "inf"
	case math.IsInf(v, -1):
		return "-inf"
	}
	return strconv.FormatFloat(v, 'f', 6, 64)
}

// copyDeep copies the object at src to dst with layout l: the bytes, then
// a fresh buffer for every std member (recursively for their elements).
func (m *Machine) copyDeep(t *Thread, dst, src uint64, l int, pos int32) bool {
	lay := m.prog.StdLayouts[l]
	if !m.copyMem(t, dst, src, lay.size, pos, false) {
		return false
	}
	for _, f := range lay.fields {
		b, n, good := m.stdBytes(t, src+uint64(f.off), f.es, pos)
		if !good {
			return false
		}
		if !m.stdSetBytes(t, dst+uint64(f.off), b, n, f.es, f.kind == stdString, pos) {
			return false
		}
		if f.elem < 0 || n == 0 {
			continue
		}
		sdata, _, _, _ := m.stdHdr(t, src+uint64(f.off), pos)
		ddata, _, _, good := m.stdHdr(t, dst+uint64(f.off), pos)
		if !good {
			return false
		}
		for i := uint64(0); i < n; i++ {
			if !m.copyDeep(t, ddata+i*uint64(f.es), sdata+i*uint64(f.es), f.elem, pos) {
				return false
			}
		}
	}
	return true
}
