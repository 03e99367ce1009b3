package sem

import (
	"fmt"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/cudac/syntax"
)

// Operator overloading (C++ [over.oper]) and functions returning
// references. x op y on a struct operand calls x.operator op(y) or
// operator op(x, y) (a free function, chosen among overloads); x op= y,
// -x, !x, x[i] and f(args) on an object likewise. A function returning T&
// returns the address of its object: a call used as a value loads it, a
// call used as an lvalue (a[i] = v, ++r()) is that object.

// result turns a call's result into its value, or (raw) keeps the address
// a reference result denotes for an lvalue.
func (c *compiler) result(rt *Type, raw bool, pos diag.Pos) *Type {
	if !rt.Ref {
		return rt
	}
	if raw {
		c.gotRef = true
		return rt.Elem
	}
	return c.load(lval{t: rt.Elem, slot: -1}, pos)
}

// operatorCall compiles x op y (y nil: a unary operator) as a call of an
// operator function when x (or, for a free function, y) is a struct that
// has one; ok is false otherwise.
func (c *compiler) operatorCall(op string, pos diag.Pos, x, y syntax.Expr) (*Type, bool) {
	tx := c.typeOf(x, false)
	var ty *Type
	if y != nil {
		ty = c.typeOf(y, false)
	}
	name := "operator" + op
	if tx.Kind == Struct && tx.Name != "" && tx.std == 0 && tx.cg == 0 {
		if fn := c.funcs[tagOf(tx)+"::"+name]; fn != nil {
			var args []syntax.Expr
			if y != nil {
				args = []syntax.Expr{y}
			}
			return c.call(&syntax.Call{Pos: pos, Fun: &syntax.Member{Pos: pos, X: x, Name: name}, Args: args, RParen: pos}), true
		}
	}
	// vector_types.h's float2, int4, ... have no operators of their own,
	// so a program's (helper_math.h's) apply to them; __half2 and
	// __nv_bfloat162 have cuda_fp16.h's built in
	isObj := func(t *Type) bool {
		return t != nil && t.Kind == Struct && t.std == 0 && t.cg == 0 && (t.vec == nil || !vecHasCtor(t))
	}
	if (isObj(tx) || isObj(ty)) && (c.funcs[name] != nil || c.templates[name] != nil && c.deducible(c.templates[name], tx, ty)) {
		// (an operator function template, deduced from the operands: the
		// comparisons of <utility>'s std::pair)
		args := []syntax.Expr{x}
		if y != nil {
			args = append(args, y)
		}
		return c.call(&syntax.Call{Pos: pos, Fun: &syntax.Name{Pos: pos, Name: name}, Args: args, RParen: pos}), true
	}
	return nil, false
}

// deducible reports whether operator function template td deduces all
// its template parameters from operands of types tx and ty (a template
// that does not match them is no candidate, C++ [temp.deduct]: the
// operator then stays the built-in one and its diagnostic).
func (c *compiler) deducible(td *syntax.FuncDecl, tx, ty *Type) bool {
	ps := td.Type.Params
	args := []*Type{tx, ty}
	if ty == nil {
		args = args[:1]
	}
	if len(ps) != len(args) {
		return false
	}
	tmap, tvals := map[string]*Type{}, map[string]int64{}
	for i, p := range ps {
		c.deduceParam(td, p.Type, args[i], tmap, tvals)
	}
	for _, n := range td.TParams {
		if tmap[n] == nil {
			if _, ok := tvals[n]; !ok {
				return false
			}
		}
	}
	return true
}

// indexOperator is x.operator[](i) for x[i] on a struct with one.
func (c *compiler) indexOperator(e *syntax.Index) *syntax.Call {
	tx := c.typeOf(e.X, false)
	if tx.Kind != Struct || tx.Name == "" || tx.std != 0 || c.funcs[tagOf(tx)+"::operator[]"] == nil {
		return nil
	}
	return &syntax.Call{Pos: e.Pos, Fun: &syntax.Member{Pos: e.Pos, X: e.X, Name: "operator[]"}, Args: []syntax.Expr{e.I}, RParen: e.Pos}
}

// half2Ops are the operators cuda_fp16.hpp and cuda_bf16.hpp define on
// __half2 and __nv_bfloat162, lane by lane: the intrinsics they call.
var half2Ops map[string]string

// initHalf2Ops builds half2Ops (tables.go).
func initHalf2Ops() {
	half2Ops = map[string]string{"+": "__hadd2", "-": "__hsub2", "*": "__hmul2", "/": "__h2div"}
}

// half2Op compiles x op y and x op= y on two __half2 (or __nv_bfloat162)
// values as the intrinsic CUDA's operator calls (one rounding per lane).
func (c *compiler) half2Op(e *syntax.Binary) (*Type, bool) {
	op := e.Op
	compound := len(op) == 2 && op[1] == '=' && half2Ops[op[:1]] != ""
	if compound {
		op = op[:1]
	}
	name := half2Ops[op]
	if name == "" {
		return nil, false
	}
	h2, b2 := vectorTypes["__half2"], vectorTypes["__nv_bfloat162"]
	tx := c.typeOf(e.X, true)
	if tx != h2 && tx != b2 {
		return nil, false
	}
	ty := c.typeOf(e.Y, true)
	if ty != tx {
		c.errorf(e.Pos, "C0302", "operator %s on %s and %s", e.Op, tx, ty)
		c.emit(OpConst, 0, 0, e.Pos)
		return tInt, true
	}
	call := &syntax.Call{Pos: e.Pos, Fun: &syntax.Name{Pos: e.Pos, Name: name}, Args: []syntax.Expr{e.X, e.Y}, RParen: e.Pos}
	if compound {
		return c.assign(&syntax.Binary{Pos: e.Pos, Op: "=", X: e.X, Y: call}), true
	}
	return c.call(call), true
}

// conversionOf is the conversion function (operator T(), C++
// [class.conv.fct]) of class st that converts to type to: one to exactly
// that type (const aside), else the first to a type to converts from.
func (c *compiler) conversionOf(st, to *Type) *Function {
	if st.Name == "" || st.std != 0 || st.cg != 0 {
		return nil
	}
	var first *Function
	for t := st; t != nil; t = t.base {
		for k := 0; k < 8; k++ {
			fn := c.funcs[fmt.Sprintf("%s::operator conv#%d", tagOf(t), k)]
			if fn == nil {
				break
			}
			rt := fn.Type.Elem
			if rt.Ref {
				rt = rt.Elem
			}
			if typeKey(rt) == typeKey(to) {
				return fn
			}
			if first == nil && (rt.isScalar() && to.isScalar() && (rt.Kind == Ptr) == (to.Kind == Ptr)) {
				first = fn
			}
		}
	}
	return first
}
