package sem

import (
	"weft.dev/weft/diag"
	"weft.dev/weft/lang/cudac/syntax"
)

// Temporaries (C++ [class.temporary]). A prvalue of a class with a
// destructor that is materialized (bound to a reference: a reference
// parameter, an operator's operand, a local reference) is an object of
// its own, destroyed at the end of the full-expression it was made in
// (p4), or, bound to a local reference, when the reference's block ends
// (p6, lifetime extension). `g = make(9);` destroys make's result after
// the assignment; `relay(R(2));` destroys R(2) after the call.
//
// A materialized temporary's address is kept in a slot of its own, set
// where the temporary is made; the end of the full-expression destroys
// the temporaries whose slot is set, latest first, and clears the slots.
// A temporary made in an operand that was not evaluated (a && R(1).ok())
// leaves its slot zero (slots are zero at a call's entry), and one made
// in a loop is destroyed in each iteration; a throw in between destroys
// the ones made (cleanups, exc.go).
//
// Only the temporaries materialized from a call returning a class by
// value (a function, a member function, a closure's or function
// object's operator()) or an explicit construction (T(args), T{...})
// are counted: those are fresh objects; so is c ? x : y where both arms
// are, and (a, y) where y is. Other non-addressable class expressions
// (c ? x : r with an lvalue arm) are bitwise copies of objects that are
// destroyed in their own right, as before.

// fullTemp is a temporary awaiting the end of its full-expression: its
// slot, its destructor, and where the slot is set (to tell a temporary
// of code that was compiled and then discarded).
type fullTemp struct {
	slot int
	dtor *Function
	at   int
}

// materialized registers the class temporary whose address is on the
// stack, made from e, for destruction at the end of the full-expression.
// It reports whether it did.
func (c *compiler) materialized(t *Type, e syntax.Expr, pos diag.Pos) bool {
	if c.dry > 0 || t.Kind != Struct || t.std != 0 || !c.freshObject(e) {
		return false
	}
	dt := c.dtorOf(t)
	if dt == nil {
		return false
	}
	slot := c.newSlot()
	at := c.emit(OpSetLocal, int32(slot), 0, pos)
	c.temps = append(c.temps, fullTemp{slot: slot, dtor: dt, at: at})
	return true
}

// freshObject reports whether e makes a new object: a call of a function
// returning a class by value, or an explicit construction.
func (c *compiler) freshObject(e syntax.Expr) bool {
	switch e := e.(type) {
	case *syntax.Call:
		if m, ok := e.Fun.(*syntax.Member); ok {
			return c.memberByValue(m)
		}
		if by, isObj := c.objectCallByValue(e); isObj {
			return by
		}
		return c.isPrvalue(e)
	case *syntax.Cast:
		return e.Type != nil && e.Type.Kind != syntax.TRef && e.Type.Kind != syntax.TPointer && dynRefForm(e) == nil
	case *syntax.Binary:
		if e.Op == "," && !c.hasOps {
			// (a, make(2)): the right operand's object ([expr.comma])
			return c.freshObject(e.Y)
		}
		return c.isPrvalue(e) && e.Op != "," && c.operatorByValue(e.Op, e.X, e.Y)
	case *syntax.Cond:
		// c ? make(1) : make(2) is a prvalue, the object of the arm
		// evaluated ([expr.cond]p7); so is c ? x : make(2), x copied
		// (mixedClassCond)
		return c.freshObject(e.X) && c.freshObject(e.Y) || c.mixedClassCond(e)
	case *syntax.Unary:
		return !e.Post && (e.Op == "-" || e.Op == "+" || e.Op == "~" || e.Op == "!") && c.operatorByValue(e.Op, e.X, nil)
	}
	return false
}

// memberByValue reports whether the member function x.f / p->f names
// returns a class by value, so that x.f() is a prvalue that becomes a
// temporary when materialized (C++ [expr.call]p14, [class.temporary]p2):
// make(1).f().g() makes two temporaries besides make's result, each
// destroyed at the end of the full-expression. Every overload of the
// name must return by value (the one chosen is not known here); a member
// template, whose instance is not known here, is not counted.
func (c *compiler) memberByValue(m *syntax.Member) bool {
	st := c.typeOf(m.X, false)
	if m.Arrow {
		if st.Kind != Ptr {
			return false
		}
		st = st.Elem
	}
	if st == nil || st.Kind != Struct || st.std != 0 || st.cg != 0 || st.Name == "" {
		return false
	}
	fn := c.methodOf(st, tagOf(st), m.Name)
	if fn == nil {
		return false
	}
	byValue := func(fn *Function) bool {
		return fn != nil && fn.Type != nil && fn.Type.Elem != nil && !fn.Type.Elem.Ref && fn.Type.Elem.Kind == Struct
	}
	if fn.decl != nil {
		if ovs := c.overloads[fn.decl.Name]; len(ovs) > 1 {
			for _, o := range ovs {
				if !byValue(o) {
					return false
				}
			}
			return true
		}
	}
	return byValue(fn)
}

// mixedClassCond reports whether c ? x : y has one arm a class prvalue
// and the other an lvalue of the same class (with a destructor): the
// result is a prvalue, a copy of the lvalue when that arm is taken
// (C++ [expr.cond]p4, p7.1), which condExpr makes.
func (c *compiler) mixedClassCond(e *syntax.Cond) bool {
	fx, fy := c.freshObject(e.X), c.freshObject(e.Y)
	if fx == fy {
		return false
	}
	lv := e.X
	if fx {
		lv = e.Y
	}
	if !c.addressable(lv) {
		return false
	}
	tx, ty := c.typeOf(e.X, true), c.typeOf(e.Y, true)
	return tx.Kind == Struct && tx.std == 0 && tx.cg == 0 && ty.Kind == Struct && tx.Name == ty.Name && tx.Name != "" && c.dtorOf(tx) != nil
}

// objectCallByValue reports, for f(args) where f is a variable of class
// type (a closure, lambda.go, or a function object), whether its
// operator() returns a class by value; isObj is whether f is one.
func (c *compiler) objectCallByValue(e *syntax.Call) (byValue, isObj bool) {
	n, ok := e.Fun.(*syntax.Name)
	if !ok {
		return false, false
	}
	s := c.lookup(n.Name)
	if s == nil || s.t == nil || s.t.Kind != Struct {
		return false, false
	}
	return c.memberByValue(&syntax.Member{Pos: n.Pos, X: n, Name: "operator()"}), true
}

// operatorByValue reports whether the operator function operatorCall
// would call for x op y is one that returns a class by value: a member
// function of x's class, or every free function of the name (function
// templates, whose instance is not known here, are not counted).
func (c *compiler) operatorByValue(op string, x, y syntax.Expr) bool {
	if !c.hasOps {
		return false
	}
	byValue := func(fn *Function) bool {
		return fn != nil && fn.Type != nil && fn.Type.Elem != nil && !fn.Type.Elem.Ref && fn.Type.Elem.Kind == Struct
	}
	name := "operator" + op
	tx := c.typeOf(x, false)
	if tx.Kind == Struct && tx.Name != "" && tx.std == 0 && tx.cg == 0 {
		if fn := c.funcs[tagOf(tx)+"::"+name]; fn != nil {
			return byValue(fn) && len(c.overloads[tagOf(tx)+"::"+name]) < 2
		}
	}
	if c.templates[name] != nil {
		return false
	}
	ovs := c.overloads[name]
	if len(ovs) == 0 {
		ovs = []*Function{c.funcs[name]}
	}
	for _, fn := range ovs {
		if !byValue(fn) {
			return false
		}
	}
	return true
}

// fullExpr is the number of temporaries pending before a full-expression,
// to give to endFullExpr after it.
func (c *compiler) fullExpr() int { return len(c.temps) }

// endFullExpr destroys the temporaries made since mark, latest first.
// The value of the full-expression, if any, stays on the stack.
func (c *compiler) endFullExpr(mark int, pos diag.Pos) {
	if mark > len(c.temps) {
		mark = len(c.temps)
	}
	for i := len(c.temps) - 1; i >= mark; i-- {
		tp := c.temps[i]
		if !c.liveTemp(tp, i, mark) {
			continue
		}
		// a throw between the temporary's making and here destroys it
		// too ([except.ctor]p1; exc.go)
		c.noteCleanup(cleanup{start: tp.at, end: c.here(), slot: tp.slot, dtor: tp.dtor, temp: true})
		c.checkCallSpace(tp.dtor, pos)
		c.emit(OpLocal, int32(tp.slot), 0, pos)
		skip := c.emit(OpJz, 0, 0, pos)
		c.emit(OpLocal, int32(tp.slot), 0, pos)
		c.emit(OpCall, int32(c.funcIndex(tp.dtor)), 1, pos)
		c.emit(OpPop, 0, 0, pos)
		c.emit(OpConst, 0, 0, pos)
		c.emit(OpSetLocal, int32(tp.slot), 0, pos)
		c.emit(OpPop, 0, 0, pos)
		c.patch(skip)
	}
	c.temps = c.temps[:mark]
}

// liveTemp reports whether temps[i] is still in the code: the code that
// sets its slot was not discarded (a trial compilation rolled back), and
// no later entry (the same code compiled again) stands for it.
func (c *compiler) liveTemp(tp fullTemp, i, mark int) bool {
	if tp.at >= len(c.code) || c.code[tp.at].Op != OpSetLocal || int(c.code[tp.at].A) != tp.slot || tp.slot >= c.nslots {
		return false
	}
	for j := i + 1; j < len(c.temps); j++ {
		if c.temps[j].at == tp.at {
			return false
		}
	}
	return true
}

// extendTemp moves the temporary registered last, at index i, to the
// automatic objects of the current block: a temporary bound to a local
// reference lives as long as the reference (C++ [class.temporary]p6).
func (c *compiler) extendTemp(i int) {
	if i < 0 || i >= len(c.temps) || len(c.dtors) == 0 {
		return
	}
	tp := c.temps[i]
	c.temps = append(c.temps[:i], c.temps[i+1:]...)
	c.dtors[len(c.dtors)-1] = append(c.dtors[len(c.dtors)-1], autoObj{slot: tp.slot, dtor: tp.dtor, start: c.here()})
}
