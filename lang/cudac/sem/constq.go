package sem

import (
	"fmt"

	"weft.dev/weft/lang/cudac/syntax"
)

// const-qualified objects (C++ [dcl.type.cv], [expr.ass]): an assignment,
// compound assignment, ++ or -- whose target is const, and a call of a
// member function that is not const on a const object, are errors, as
// nvcc and g++ report them ("expression must be a modifiable lvalue",
// "the object has type qualifiers that are not compatible with the member
// function"). What makes an object const here:
//
//   - a variable declared const, or a reference to const (sym.ro);
//   - a copy captured by a lambda that is not mutable (sym.cnst, lambda.go);
//   - an object reached through a pointer or reference to const (Type.cst:
//     *p, p[i], p->m), this in a const member function included;
//   - a member ('.') or array element of a const object, and an element of
//     a const std container (its operator[] and at() return const T&);
//
// but a mutable member is never const. The types of values the program
// computes do not carry const (Type has no cv-qualified scalars), so this
// is the syntactic part of the rule: the forms real programs write, with
// no false report on a program g++ accepts.

// teConst reports a const-qualified type expression: written const, or a
// typedef name of a const type ("typedef const int CI;").
func (c *compiler) teConst(te *syntax.TypeExpr) bool {
	if te == nil {
		return false
	}
	if te.Const {
		return true
	}
	if te.Kind == syntax.TNamed {
		if s := c.lookup(te.Name); s != nil && s.kind == symTypedef {
			return s.ro
		}
	}
	return false
}

// declRO reports whether declaration d declares a const object or a
// reference to const.
func (c *compiler) declRO(d *syntax.Decl) bool {
	if d == nil || d.Type == nil {
		return false
	}
	if d.Type.Kind == syntax.TRef {
		return c.teConst(d.Type.Elem)
	}
	return c.teConst(d.Type)
}

// markRO marks the variable that a declaration just added to the
// innermost scope (prev: what that scope held under the name before).
func (c *compiler) markRO(name string, prev *sym, ro bool) {
	if !ro || name == "" {
		return
	}
	s := c.scopes[len(c.scopes)-1][name]
	if s == nil || s == prev {
		return
	}
	switch s.kind {
	case symSlot, symMem, symGlobal, symShared, symDynShared, symRef:
		s.ro = true
	}
}

// innermost is the symbol the innermost scope holds under name, or nil.
func (c *compiler) innermost(name string) *sym {
	return c.scopes[len(c.scopes)-1][name]
}

// readOnly reports whether x denotes a const object, and why.
func (c *compiler) readOnly(x syntax.Expr) (string, bool) {
	switch e := x.(type) {
	case *syntax.Name:
		s := c.lookup(e.Name)
		if s == nil {
			if c.recv != nil {
				if f := c.recv.field(e.Name); f != nil && f.Type.Kind == Ptr && f.Type.Ref {
					return refMember(f)
				} else if f != nil && !f.Mutable {
					if th := c.lookup("this"); th != nil && th.t.Kind == Ptr && th.t.cst {
						return fmt.Sprintf("%s is a member of the object of a const member function", e.Name), true
					}
				}
			}
			return "", false
		}
		switch {
		case s.cnst:
			return fmt.Sprintf("%s is a copy captured by a lambda that is not mutable, so it is const in the lambda's body", e.Name), true
		case s.ro && s.kind == symRef:
			return fmt.Sprintf("%s is a reference to const", e.Name), true
		case s.ro:
			return fmt.Sprintf("%s is declared const", e.Name), true
		}
	case *syntax.Member:
		st := c.typeOf(e.X, !e.Arrow)
		if e.Arrow && st.Kind == Ptr {
			st = st.Elem
		}
		if st.Kind == Struct {
			if f := st.field(e.Name); f != nil && f.Type.Kind == Ptr && f.Type.Ref {
				return refMember(f)
			}
		}
		if e.Arrow {
			t := c.typeOf(e.X, true)
			if t.Kind == Ptr && t.cst && !mutableMember(t.Elem, e.Name) {
				return fmt.Sprintf("%s is reached through a pointer to const", e.Name), true
			}
			return "", false
		}
		if mutableMember(c.typeOf(e.X, false), e.Name) {
			return "", false
		}
		return c.readOnly(e.X)
	case *syntax.Index:
		t := c.typeOf(e.X, false)
		switch {
		case t.Kind == Ptr && t.cst:
			return "the element is reached through a pointer to const", true
		case t.Kind == Array:
			return c.readOnly(e.X)
		case t.Kind == Struct && t.std != 0:
			return c.readOnly(e.X)
		}
	case *syntax.Unary:
		if e.Op == "*" {
			if t := c.typeOf(e.X, true); t.Kind == Ptr && t.cst {
				return "the object is reached through a pointer to const", true
			}
		}
	case *syntax.Call:
		// f() = v where f returns a reference to const (C++
		// [expr.ass]p1: a const lvalue is not modifiable)
		if name, ok := c.constRefResult(e); ok {
			return fmt.Sprintf("%s returns a reference to const", name), true
		}
	}
	return "", false
}

// constRefResult reports a call whose callee returns a reference to const,
// naming the callee: a function or function template called by name, or a
// member function chosen as the call would choose it (const overloads
// apart). A callee it cannot tell is not reported.
func (c *compiler) constRefResult(e *syntax.Call) (string, bool) {
	var fn *Function
	switch f := e.Fun.(type) {
	case *syntax.Name:
		if rt := c.templateResult(e); rt != nil {
			return f.Name, rt.Kind == syntax.TRef && rt.Elem != nil && rt.Elem.Const && !rt.RValue
		}
		fn = c.calleeOf(e)
	case *syntax.Member:
		st := c.typeOf(f.X, !f.Arrow)
		if st.Ref || f.Arrow && st.Kind == Ptr {
			st = st.Elem
		}
		if st.Kind != Struct || st.Name == "" || st.std != 0 || st.cg != 0 {
			return "", false
		}
		fn = c.methodOf(st, tagOf(st), f.Name)
		if fn != nil && fn.decl != nil {
			if ovs := c.overloads[fn.decl.Name]; len(ovs) > 1 {
				if vs := c.constViable(ovs, f.X, f.Arrow); len(vs) == 1 {
					fn = vs[0]
				} else {
					return "", false
				}
			}
		}
	}
	if fn == nil || fn.Type == nil || fn.Type.Elem == nil || fn.Name == "" {
		return "", false
	}
	rt := fn.Type.Elem
	return fn.Name, rt.Ref && rt.cst && !rt.rval
}

// refMember: a reference member names its object, which a const
// enclosing object does not make const (C++ [dcl.ref]: a reference is not
// an object); only a reference to const is read-only.
func refMember(f *FieldInfo) (string, bool) {
	if f.Type.cst {
		return fmt.Sprintf("%s is a reference to const", f.Name), true
	}
	return "", false
}

// mutableMember reports a mutable data member name of struct type t.
func mutableMember(t *Type, name string) bool {
	if t == nil || t.Kind != Struct {
		return false
	}
	f := t.field(name)
	return f != nil && f.Mutable
}

// constAssign reports an assignment, compound assignment, ++ or -- whose
// target is const, at the target's start (nvcc: "expression must be a
// modifiable lvalue").
func (c *compiler) constAssign(x syntax.Expr) {
	if why, ok := c.readOnly(x); ok {
		at := startPos(x)
		if call, isCall := x.(*syntax.Call); isCall {
			at = exprStart(call) // v.at(2) = 7: at v
		}
		c.errorf(at, "C0303", "expression must be a modifiable lvalue: %s", why)
	}
}

// constRecv reports whether the object a member function is called on is
// const: recv itself, or what it points to when arrow.
func (c *compiler) constRecv(recv syntax.Expr, arrow bool) (string, bool) {
	if arrow {
		if t := c.typeOf(recv, true); t.Kind == Ptr && t.cst {
			if n, ok := recv.(*syntax.Name); ok && n.Name == "this" {
				return "this points to const in a const member function", true
			}
			return "the object is reached through a pointer to const", true
		}
		return "", false
	}
	return c.readOnly(recv)
}

// constCall reports a call of a member function that is not const on a
// const object, at the object expression (C++ [over.match.funcs]: the
// implicit object parameter of a non-const member function cannot bind a
// const object).
func (c *compiler) constCall(fn *Function, recv syntax.Expr, arrow bool) {
	if fn == nil || fn.decl == nil || fn.decl.Type == nil || fn.decl.Type.ConstThis || fn.decl.Ctor {
		return
	}
	if why, ok := c.constRecv(recv, arrow); ok {
		c.errorf(startPos(recv), "C0302", "the object has type qualifiers that are not compatible with the member function %q: %s", fn.Name, why)
	}
}

// constViable narrows overloaded member functions to those C++ can call
// on the object (C++ [over.match.funcs], [over.ics.rank]p3): on a const
// object only the const ones; on another, of two that differ only in
// const (T& operator[](int) and const T& operator[](int) const) the one
// that is not const. When no const one exists the list is kept, and
// constCall reports the call.
func (c *compiler) constViable(ovs []*Function, recv syntax.Expr, arrow bool) []*Function {
	if len(ovs) < 2 {
		return ovs
	}
	_, ro := c.constRecv(recv, arrow)
	isConst := func(f *Function) bool { return f.decl != nil && f.decl.Type != nil && f.decl.Type.ConstThis }
	var out []*Function
	for _, f := range ovs {
		if ro {
			if isConst(f) {
				out = append(out, f)
			}
			continue
		}
		twin := false
		if isConst(f) {
			for _, g := range ovs {
				if g != f && !isConst(g) && sameParams(g.Type, f.Type) {
					twin = true
				}
			}
		}
		if !twin {
			out = append(out, f)
		}
	}
	if len(out) == 0 {
		return ovs
	}
	return out
}

func sameParams(a, b *Type) bool {
	if a == nil || b == nil || len(a.Params) != len(b.Params) || a.Variadic != b.Variadic {
		return false
	}
	for i := range a.Params {
		if !sameType(a.Params[i], b.Params[i]) {
			return false
		}
	}
	return true
}

// constStdCall reports a call of a member function that changes a
// modeled std container (C++ gives them no const overload) on a const
// one, at the member's name.
func (c *compiler) constStdCall(st *Type, m *syntax.Member) {
	if !stdMutators[m.Name] {
		return
	}
	if why, ok := c.constRecv(m.X, m.Arrow); ok {
		c.errorf(m.Pos, "C0302", "the object has type qualifiers that are not compatible with the member function %q of %s: %s", m.Name, st, why)
	}
}

// assignList compiles x = {...} for an x that is no std object (C++
// [expr.ass]p9): a scalar takes the list's one element (0 for {}), a
// struct or union the temporary T{...}, as T x = {...} initializes one.
func (c *compiler) assignList(e *syntax.Binary, il *syntax.InitList) *Type {
	xt := c.typeOf(e.X, false)
	pos := il.Pos
	ne := *e
	switch {
	case xt.isScalar() && len(il.Elems) == 0:
		ne.Y = &syntax.IntLitExpr{Pos: pos, Type: "int"}
	case xt.isScalar() && len(il.Elems) == 1 && il.Elems[0].Field == "" && il.Elems[0].Index == nil:
		if _, nested := il.Elems[0].X.(*syntax.InitList); nested {
			c.errorf(pos, "C0302", "too many braces around the scalar initializer of %s", xt)
			return xt
		}
		ne.Y = il.Elems[0].X
	case xt.isScalar():
		c.errorf(pos, "C0302", "a list of %d elements assigned to %s, a scalar", len(il.Elems), xt)
		return xt
	case xt.Kind == Struct:
		// T{...} with T the type of x, named for the compiler by a
		// template parameter of its own
		save := c.tmap
		tm := make(map[string]*Type, len(save)+1)
		for k, v := range save {
			tm[k] = v
		}
		tm["__weft_assigned_T"] = xt
		c.tmap = tm
		defer func() { c.tmap = save }()
		ne.Y = &syntax.Cast{Pos: pos, Type: &syntax.TypeExpr{Kind: syntax.TNamed, Name: "__weft_assigned_T", Pos: pos}, X: il}
	case xt.Kind == Array:
		c.errorf(startPos(e.X), "C0303", "array is not assignable (assigning a list to %s)", xt)
		return xt
	default:
		c.errorf(pos, "C0302", "cannot assign a list to %s", xt)
		return xt
	}
	return c.assign(&ne)
}
