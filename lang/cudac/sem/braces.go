package sem

import (
	"math"
	"strconv"
	"strings"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/cudac/syntax"
)

// Brace elision (C11 6.7.9p20, C++ [dcl.init.aggr]p15): in a list that
// initializes an aggregate, a member or element that is itself an
// aggregate may take its initializers without braces of its own, as many
// of the following ones as it has members ("int a[2][2] = {1, 2, 3, 4};",
// "std::array<int, 3> a = {1, 2, 3};" of a struct holding an array). The
// compiler groups them first (braceElide), then initializes as from the
// fully braced list. A class with constructors is no aggregate, a
// character array takes a string literal, and a struct takes a value of
// its own type: those consume one initializer. A designator ends the
// grouping of the subaggregate it falls in.

// elidable reports whether an initializer of type t may have its braces
// elided: an aggregate (an array, or a struct without constructors that
// is no std object, dim3 or cooperative-groups handle).
func (c *compiler) elidable(t *Type) bool {
	switch t.Kind {
	case Array:
		return true
	case Struct:
		return t.std == 0 && t.cg == 0 && !isDim3(t) && len(t.Fields) > 0 && c.ctorOf(t, -1) == nil && !t.poly && len(t.bases) == 0
	}
	return false
}

// slots is the types of an aggregate's members in initialization order
// (n for an array of unknown size: as many as asked).
func aggSlots(t *Type, n int) []*Type {
	switch t.Kind {
	case Array:
		l := t.Len
		if l < 0 {
			l = n
		}
		s := make([]*Type, l)
		for i := range s {
			s[i] = t.Elem
		}
		return s
	case Struct:
		if t.Union {
			return []*Type{t.Fields[0].Type}
		}
		s := make([]*Type, len(t.Fields))
		for i, f := range t.Fields {
			s[i] = f.Type
		}
		return s
	}
	return nil
}

// needsElision reports whether a list for t has an element that brace
// elision groups: a non-list initializer of an aggregate member.
func (c *compiler) needsElision(t *Type, il *syntax.InitList) bool {
	if !c.elidable(t) {
		return false
	}
	slots := aggSlots(t, len(il.Elems))
	for i, el := range il.Elems {
		if i >= len(slots) || el.Field != "" || el.Index != nil {
			return false
		}
		if c.takesOne(slots[i], el.X) {
			continue
		}
		return true
	}
	return false
}

// takesOne reports whether initializer x initializes a member of type mt
// by itself (no elision).
func (c *compiler) takesOne(mt *Type, x syntax.Expr) bool {
	if _, list := x.(*syntax.InitList); list || !c.elidable(mt) {
		return true
	}
	if _, str := x.(*syntax.StringLitExpr); str && mt.Kind == Array && mt.Elem.size == 1 {
		return true
	}
	if mt.Kind == Struct {
		c.dry++
		xt := c.typeOf(x, true)
		c.dry--
		return xt == mt || xt.Kind == Struct && xt.Name == mt.Name && xt.Name != ""
	}
	return false
}

// braceElide returns the fully braced form of list il for aggregate t.
func (c *compiler) braceElide(t *Type, il *syntax.InitList) *syntax.InitList {
	out, n := c.elideFrom(t, il.Elems, true)
	out.Pos = il.Pos
	// what no member took stays, for the excess-elements error
	out.Elems = append(out.Elems, il.Elems[n:]...)
	return out
}

// elideFrom groups the initializers of one aggregate of type t from the
// start of elems; top: the list is t's own (designators apply to it).
func (c *compiler) elideFrom(t *Type, elems []*syntax.InitElem, top bool) (*syntax.InitList, int) {
	out := &syntax.InitList{}
	if len(elems) > 0 {
		out.Pos = syntax.PosOf(elems[0].X)
	}
	slots := aggSlots(t, len(elems))
	i := 0
	for k := 0; k < len(slots) && i < len(elems); k++ {
		el := elems[i]
		if el.Field != "" || el.Index != nil {
			if !top {
				break
			}
			// a designated element: the rest as written
			out.Elems = append(out.Elems, elems[i:]...)
			return out, len(elems)
		}
		if c.takesOne(slots[k], el.X) {
			out.Elems = append(out.Elems, el)
			i++
			continue
		}
		sub, n := c.elideFrom(slots[k], elems[i:], false)
		if n == 0 {
			break
		}
		out.Elems = append(out.Elems, &syntax.InitElem{X: sub})
		i += n
	}
	return out, i
}

// convertingCtor compiles T x = e, and an element or member initialized
// from e, where e is of another type and T has a constructor of one
// parameter: copy-initialization calls it (C++ [dcl.init]p17.6.2,
// [class.conv.ctor]) on the object whose address is on the stack (kept).
// It reports whether it did.
func (c *compiler) convertingCtor(t *Type, e syntax.Expr, pos diag.Pos) bool {
	if t.Kind != Struct || t.std != 0 {
		return false
	}
	ctor := c.ctorOf(t, 1)
	if ctor == nil {
		if cc := c.implicitCopyCtor(t, pos); cc != nil { // implcopy.go
			c.dry++
			vt := c.typeOf(e, true)
			c.dry--
			if vt == t || vt.Kind == Struct && vt.Name == t.Name && vt.Name != "" {
				if cc = c.copyCtorFor(t, e, pos); cc != nil {
					c.emit(OpDup, 0, 0, pos)
					c.construct(cc, []syntax.Expr{e}, pos)
					return true
				}
			}
		}
		return false
	}
	c.dry++
	vt := c.typeOf(e, true)
	c.dry--
	if vt == t || vt.Kind == Struct && (vt.Name == t.Name && vt.Name != "" || derivesFrom(vt, t)) {
		// a copy: by the class's copy or move constructor when it
		// declares one and e is a glvalue (rvalue.go); a prvalue
		// initializes the object directly (C++17 [dcl.init]p17.6.1)
		if cc := c.copyCtorFor(t, e, pos); cc != nil {
			c.emit(OpDup, 0, 0, pos)
			c.construct(cc, []syntax.Expr{e}, pos)
			return true
		}
		return false
	}
	if ctor.decl != nil {
		if ovs := c.overloads[ctor.decl.Name]; len(ovs) > 1 {
			if p := c.pickOverload(ovs, &syntax.Call{Pos: pos, Args: []syntax.Expr{e}}); p != nil {
				ctor = p
			}
		}
	}
	c.emit(OpDup, 0, 0, pos)
	c.construct(ctor, []syntax.Expr{e}, pos)
	return true
}

// listCtor compiles an element or member list-initialized from {args}
// when its class has constructors: the one the arguments choose (C++
// [dcl.init.list]p3.7), on the object whose address is on the stack
// (kept). It reports whether it did.
func (c *compiler) listCtor(t *Type, il *syntax.InitList, pos diag.Pos) bool {
	if t.Kind != Struct || t.std != 0 || c.ctorOf(t, -1) == nil {
		return false
	}
	var args []syntax.Expr
	for _, el := range il.Elems {
		if el.Field != "" || el.Index != nil {
			return false
		}
		args = append(args, el.X)
	}
	if ctor := c.initListCtor(t); ctor != nil {
		// a constructor taking std::initializer_list is the one a braced
		// list chooses (C++ [over.match.list]p1.1)
		c.emit(OpMemzero, 0, int64(t.size), pos)
		c.emit(OpDup, 0, 0, pos)
		c.construct(ctor, []syntax.Expr{il}, pos)
		return true
	}
	ctor := c.ctorForArgs(t, args, pos)
	if ctor == nil {
		return true // reported
	}
	if ctor.decl != nil {
		if ovs := c.overloads[ctor.decl.Name]; len(ovs) > 1 {
			if p := c.pickOverload(ovs, &syntax.Call{Pos: pos, Args: args}); p != nil {
				ctor = p
			}
		}
	}
	// (its padding zeroed, as the list initialization without a
	// constructor zeroes it: a copy of the whole object, a map's
	// insertion say, reads no uninitialized byte)
	c.emit(OpMemzero, 0, int64(t.size), pos)
	c.emit(OpDup, 0, 0, pos)
	c.construct(ctor, args, pos)
	return true
}

// rangeForMembers compiles for (decl : r) over an object of a class with
// begin() and end() members (C++ [stmt.ranged]: auto b = r.begin(), e =
// r.end(); for (; b != e; ++b) { decl = *b; body }), std::array's among
// them; r is evaluated for each call, so it may not have side effects.
func (c *compiler) rangeForMembers(s *syntax.RangeFor) {
	pos := s.Pos
	if hasSideEffects(s.Range) {
		c.errorf(syntax.PosOf(s.Range), "C0309", "range for over an expression with calls or assignments (name the object first)")
		return
	}
	name := func(base string) *syntax.Name {
		for c.lookup(base) != nil {
			base += "_"
		}
		return &syntax.Name{Pos: pos, Name: base}
	}
	b, e := name("__range_b"), name("__range_e")
	auto := func(n *syntax.Name, m string) *syntax.Decl {
		return &syntax.Decl{Pos: pos, Name: n.Name, Type: &syntax.TypeExpr{Kind: syntax.TNamed, Name: "auto", Pos: pos},
			Init: &syntax.Call{Pos: pos, Fun: &syntax.Member{Pos: pos, X: s.Range, Name: m}, RParen: pos}}
	}
	v := *s.Var
	v.Init = &syntax.Unary{Pos: pos, Op: "*", X: b}
	c.push()
	defer c.pop()
	c.stmt(&syntax.DeclStmt{Pos: pos, Decls: []*syntax.Decl{auto(b, "begin"), auto(e, "end")}})
	c.stmt(&syntax.ForStmt{
		Pos:  pos,
		Cond: &syntax.Binary{Pos: pos, Op: "!=", X: b, Y: e},
		Post: &syntax.Unary{Pos: pos, Op: "++", X: b},
		Body: &syntax.Block{Pos: pos, Stmts: []syntax.Stmt{&syntax.DeclStmt{Pos: pos, Decls: []*syntax.Decl{&v}}, s.Body}},
	})
}

// isInitList reports an instance of <initializer_list>'s class template.
func isInitListType(t *Type) bool {
	return t != nil && t.Kind == Struct && strings.HasPrefix(tagOf(t), "std::initializer_list<") && len(t.Fields) == 2
}

// initListCtor is a constructor of t whose one parameter is a
// std::initializer_list (by value or const reference), or nil.
func (c *compiler) initListCtor(t *Type) *Function {
	ctor := c.ctorOf(t, 1)
	if ctor == nil || ctor.Type == nil || len(ctor.Type.Params) == 0 {
		return nil
	}
	p := ctor.Type.Params[len(ctor.Type.Params)-1]
	if p.Ref {
		p = p.Elem
	}
	if !isInitListType(p) {
		return nil
	}
	return ctor
}

// initListObject initializes a std::initializer_list<E> (its address on
// the stack, kept) from a braced list: the elements in a temporary array
// of E, the object pointing to it with their count. It reports whether t
// is one.
func (c *compiler) initListObject(t *Type, il *syntax.InitList, pos diag.Pos) bool {
	if !isInitListType(t) {
		return false
	}
	et := t.Fields[0].Type.Elem
	arr := arrayOf(et, len(il.Elems))
	c.emit(OpDup, 0, 0, pos)
	c.emit(OpTemp, 0, int64(max(arr.size, 1)), pos)
	c.initFrom(arr, il)
	c.emit(OpStore, int32(memCode(tULong)), 0, pos)
	c.emit(OpPop, 0, 0, pos)
	c.emit(OpDup, 0, 0, pos)
	c.emit(OpConst, 0, int64(t.Fields[1].Offset), pos)
	c.emit(OpPtrAdd, 1, 0, pos)
	c.emit(OpConst, 0, int64(len(il.Elems)), pos)
	c.emit(OpStore, int32(memCode(tULong)), 0, pos)
	c.emit(OpPop, 0, 0, pos)
	return true
}

// narrowing reports e, an element of a braced initializer (or the one
// value of T x{e}) initializing a scalar of type t, when it converts a
// constant with narrowing (C++11 [dcl.init.list]p7): a floating value to
// an integer; a floating constant beyond the range of a narrower floating
// type; an integer constant that a floating type cannot hold exactly or
// that an integer type (bool: 0 and 1) cannot hold, its value taken in
// its own type (1 << 31 is the int -2147483648). Such a program is
// ill-formed, and nvcc stops at it (g++: "narrowing conversion of '300'
// from 'int' to 'unsigned char'"). A narrowing conversion of a value that
// is not constant is ill-formed too, but g++ only warns about it and the
// model does not report it; nor does it check narrowing in a function
// call's braced argument, a constructor's or a return's.
func (c *compiler) narrowing(t *Type, e syntax.Expr) {
	if _, list := e.(*syntax.InitList); list || c.dry > 0 || c.narrowed[e] || !t.isArith() || t.isHalf() {
		return
	}
	st := c.typeOf(e, true)
	if st == nil || !st.isArith() || st.isHalf() {
		return
	}
	var what string
	switch {
	case st.isFloat():
		f, ok := c.constFloat(e)
		if !ok {
			return
		}
		if t.isInt() || t.Kind == Float && st.Kind == Double && !math.IsInf(f, 0) && !math.IsNaN(f) && math.Abs(f) > math.MaxFloat32 {
			what = strconv.FormatFloat(f, 'g', -1, 64)
		}
	default:
		v, ok := c.constExpr(e)
		if !ok {
			return
		}
		// the value in the source's own type
		v = int64(ext(uint64(v), st.size*8, st.isSigned()))
		big := !st.isSigned() && v < 0 // an unsigned 64-bit value of 2^63 or more
		if t.isInt() {
			if !fitsInt(t, v, big) {
				what = strconv.FormatInt(v, 10)
				if big {
					what = strconv.FormatUint(uint64(v), 10)
				}
			}
		} else {
			f := float64(v)
			if big {
				f = float64(uint64(v))
			}
			if t.Kind == Float {
				f = float64(float32(f))
			}
			if exact := !big && f >= -(1<<63) && f < 1<<63 && int64(f) == v || big && f < 1<<64 && uint64(f) == uint64(v); !exact {
				what = strconv.FormatInt(v, 10)
				if big {
					what = strconv.FormatUint(uint64(v), 10)
				}
			}
		}
	}
	if what == "" {
		return
	}
	if c.narrowed == nil {
		c.narrowed = map[syntax.Expr]bool{}
	}
	c.narrowed[e] = true
	c.errorf(syntax.PosOf(e), "C0302", "narrowing conversion of '%s' from '%s' to '%s' in a braced initializer (C++11 [dcl.init.list]; write a cast to convert)", what, st, t)
}

// fitsInt reports whether integer type t holds v (big: v is an unsigned
// value of 2^63 or more, read as negative).
func fitsInt(t *Type, v int64, big bool) bool {
	if t.Kind == Bool {
		return !big && (v == 0 || v == 1)
	}
	bits := t.size * 8
	if t.isSigned() {
		return !big && (bits == 64 || v >= -(1<<(bits-1)) && v < 1<<(bits-1))
	}
	return big || v >= 0 && (bits == 64 || v < 1<<bits)
}
