package sem

import (
	"weft.dev/weft/lang/cudac/syntax"
)

// Deduced result types (C++ [dcl.spec.auto.general]p3,
// [dcl.type.auto.deduct]p2.2): `auto f(params) { ... return e; }` returns
// the decayed type of e in its first return, void without one. Before,
// a function template with an `auto` result was instantiated with int
// silently when the instantiation came from a typeOf (errors suppressed),
// so `template <class T> auto halve(T x) { return x / 2.0; }` printed
// 0.000000 for halve(3), and a plain function's was C0309.
//
// The first return's operand is typed in a scope holding the parameters
// (as an inline lambda's result is deduced, lambda.go), with a memo of
// its own, since one body's expressions have other types per instance.
// A member function's deduced result (its return may name members) is
// still C0309, reported even where the instantiation is a dry one.

// resolveFunc resolves the type of function d, deducing an `auto` result.
func (c *compiler) resolveFunc(d *syntax.FuncDecl) *Type {
	te := d.Type
	if te == nil || te.Kind != syntax.TFunc || te.Elem == nil || te.Elem.Kind != syntax.TNamed || te.Elem.Name != "auto" {
		return c.resolve(te)
	}
	saved := c.autoT
	c.autoT = tVoid // a placeholder, replaced below
	ft := c.resolve(te)
	c.autoT = saved
	if ft == nil || ft.Kind != Func {
		return ft
	}
	rt := c.deduceResult(d, ft)
	if rt == nil {
		if c.autoReported == nil {
			c.autoReported = map[*syntax.TypeExpr]bool{}
		}
		if !c.autoReported[te] {
			c.autoReported[te] = true
			c.diags.Errorf(te.Elem.Pos, "C0309", "a deduced (auto) result type of member function %s is not modeled; write the type", d.Name)
		}
		rt = tInt
	}
	nt := *ft
	nt.Elem = rt
	return &nt
}

// deduceResult is the type of the operand of d's first return, with d's
// parameters of types ft.Params in scope; nil where not deduced here.
func (c *compiler) deduceResult(d *syntax.FuncDecl, ft *Type) *Type {
	if d.Body == nil || d.Recv != "" || len(ft.Params) < len(d.Type.Params) {
		return nil
	}
	r := firstReturn(d.Body) // lambda.go
	if r == nil || r.X == nil {
		return tVoid
	}
	if _, ok := r.X.(*syntax.InitList); ok {
		return nil // auto from a braced list: ill-formed ([dcl.type.auto.deduct]p2.1)
	}
	saveMemo, saveAuto := c.typeMemo, c.autoT
	c.typeMemo = map[typeKeyOf]*Type{}
	c.autoT = nil
	c.dry++
	c.push()
	for i, p := range d.Type.Params {
		pt := ft.Params[i]
		if p.Name == "" {
			continue
		}
		slot := c.newSlot()
		switch {
		case pt.Ref:
			c.declare(p.Name, &sym{kind: symRef, t: pt.Elem, slot: slot})
		case pt.Kind == Struct || pt.Kind == Array:
			c.declare(p.Name, &sym{kind: symMem, t: pt, slot: slot})
		default:
			c.declare(p.Name, &sym{kind: symSlot, t: pt, slot: slot})
		}
	}
	t := c.typeOf(r.X, true)
	c.pop()
	c.dry--
	c.typeMemo, c.autoT = saveMemo, saveAuto
	if t != nil && t.Ref {
		t = t.Elem // auto drops the reference ([dcl.type.auto.deduct]p2.3)
	}
	return t
}
