package sem

import (
	"weft.dev/weft/diag"
	"weft.dev/weft/lang/cudac/syntax"
)

// Overloaded member access (C++ [over.ref]): x->m on an object of class
// type whose class declares operator-> is (x.operator->())->m, applied
// again while the result is itself such an object (the "drill-down"
// rule); this is how smart pointers (<memory>'s unique_ptr, shared_ptr)
// and iterator classes reach their pointee.

// arrowDepth bounds the drill-down: a chain of operator-> results longer
// than this is reported instead of followed (nvcc stops a cycle the same
// way, with an error).
const arrowDepth = 16

type arrowKey struct {
	m   *syntax.Member
	inl *inlineCtx
}

// arrowOp is m with its object replaced by the chain of operator-> calls
// that yields a pointer, or m itself when m is no overloaded ->. The
// rewrite is memoized per node and inlining context, so the typeOf memo
// (keyed by node) sees one node for one source expression.
func (c *compiler) arrowOp(m *syntax.Member) *syntax.Member {
	if !m.Arrow || !c.hasOps {
		return m
	}
	k := arrowKey{m, c.inl}
	if r, ok := c.arrowMemo[k]; ok {
		return r
	}
	out := m
	x := m.X
	for depth := 0; ; depth++ {
		xt := c.typeOf(x, false)
		if xt.Ref {
			xt = xt.Elem
		}
		if xt.Kind != Struct || xt.Name == "" || xt.std != 0 || xt.cg != 0 || c.methodOf(xt, tagOf(xt), "operator->") == nil {
			break
		}
		if depth == arrowDepth {
			c.errorf(m.Pos, "C0302", "operator-> of %s: more than %d overloaded -> in a chain", xt, arrowDepth)
			break
		}
		x = &syntax.Call{Pos: m.Pos, Fun: &syntax.Member{Pos: m.Pos, X: x, Name: "operator->"}, RParen: m.Pos}
		out = &syntax.Member{Pos: m.Pos, X: x, Name: m.Name, Arrow: true}
	}
	if c.arrowMemo == nil {
		c.arrowMemo = map[arrowKey]*syntax.Member{}
	}
	c.arrowMemo[k] = out
	return out
}

// structTruth converts an object of class type t (its address on the
// stack) used as a condition to its truth value by its conversion
// function to bool (C++ [conv]p4: contextual conversion to bool, which an
// explicit operator bool allows too), reporting whether it did.
func (c *compiler) structTruth(t *Type, e syntax.Expr) (*Type, bool) {
	if t.Kind != Struct {
		return t, false
	}
	fn := c.conversionOf(t, tBool)
	if fn == nil {
		return t, false
	}
	c.convert(t, tBool, syntax.PosOf(e))
	return tBool, true
}

// derefOperator is the call of the operator* that *x names when x is an
// object of a class with one (a member, or a free operator function), or
// nil: lvalue uses it so that (*p).m and *p = v reach the object the
// operator's reference result denotes, as x[i] does with operator[].
func (c *compiler) derefOperator(e *syntax.Unary) *syntax.Call {
	if e.Op != "*" || !c.hasOps {
		return nil
	}
	tx := c.typeOf(e.X, false)
	if tx.Ref {
		tx = tx.Elem
	}
	if tx.Kind != Struct || tx.Name == "" || tx.std != 0 || tx.cg != 0 {
		return nil
	}
	if c.methodOf(tx, tagOf(tx), "operator*") != nil {
		return &syntax.Call{Pos: e.Pos, Fun: &syntax.Member{Pos: e.Pos, X: e.X, Name: "operator*"}, RParen: e.Pos}
	}
	if c.funcs["operator*"] != nil || c.templates["operator*"] != nil && c.deducible(c.templates["operator*"], tx, nil) {
		return &syntax.Call{Pos: e.Pos, Fun: &syntax.Name{Pos: e.Pos, Name: "operator*"}, Args: []syntax.Expr{e.X}, RParen: e.Pos}
	}
	return nil
}

// operatorLvalue is the object an operator function's call denotes (x[i],
// *x on a class): the address its reference result gives, or the object
// it returns by value; a scalar returned by value is no object (C0303).
func (c *compiler) operatorLvalue(call *syntax.Call, op string, pos diag.Pos) lval {
	lv, ok := c.refResult(func() *Type { return c.call(call) })
	if !ok {
		c.errorf(pos, "C0303", "%s returns a value, not an object", op)
	}
	return lv
}

// refResult compiles a call or cast asking for the address its reference
// result denotes (rawRef): the object, and whether it is one (a reference
// result, or a class object returned by value).
func (c *compiler) refResult(compile func() *Type) (lval, bool) {
	c.rawRef = true
	t := compile()
	c.rawRef = false
	if c.gotRef {
		c.gotRef = false
		return lval{t: t, slot: -1}, true
	}
	return lval{t: t, slot: -1}, t.Kind == Struct
}
