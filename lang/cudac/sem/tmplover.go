package sem

import "weft.dev/weft/lang/cudac/syntax"

// Overloaded function templates (C++ [temp.over]): templates of one name
// are overloads by their number of parameters (<memory>'s make_unique of
// zero to four arguments, a variadic template's recursion), and among
// those of one arity by the class-template instances their parameters
// name (<mma.h>'s load_matrix_sync of a matrix_a or a matrix_b
// fragment); each has its own instances (compile.go, instantiate). The
// value category of a call to one (rvalue.go) is read from the chosen
// template's result type.

// templateResult is the result type, as written, of the function
// template a call names (the overload of its number of arguments), or
// nil when the call names none.
func (c *compiler) templateResult(e *syntax.Call) *syntax.TypeExpr {
	n, ok := e.Fun.(*syntax.Name)
	if !ok || c.lookup(n.Name) != nil {
		return nil
	}
	td := c.templates[n.Name]
	if td == nil || c.funcs[n.Name] != nil && len(e.TypeArgs) == 0 && len(e.TArgExpr) == 0 {
		return nil
	}
	td = c.templateByArity(td, e)
	if td.Type == nil {
		return nil
	}
	return td.Type.Elem
}

// noteTemplate records function template t among the templates of its
// name: templates of one name that differ in their number of parameters
// are overloads (C++ [temp.over]; <memory>'s make_unique of zero to four
// constructor arguments).
func (c *compiler) noteTemplate(t *syntax.FuncDecl) {
	if c.tmplOvs == nil {
		c.tmplOvs = map[string][]*syntax.FuncDecl{}
	}
	c.tmplOvs[t.Name] = append(c.tmplOvs[t.Name], t)
}

// templateByArity is the template of td's name whose number of
// parameters matches e's arguments, td (the last declared) when none or
// several do.
func (c *compiler) templateByArity(td *syntax.FuncDecl, e *syntax.Call) *syntax.FuncDecl {
	ovs := c.tmplOvs[td.Name]
	if len(ovs) < 2 {
		return td
	}
	var byArity []*syntax.FuncDecl
	for _, t := range ovs {
		if len(t.Type.Params) == len(e.Args) || t.Type.Variadic && len(e.Args) >= len(t.Type.Params) || variadicFits(t, len(e.Args)) {
			byArity = append(byArity, t)
		}
	}
	switch len(byArity) {
	case 0:
		return td
	case 1:
		return byArity[0]
	}
	// several of that arity: the first whose class-template parameters
	// (fragment<matrix_a, M, N, K, T, row_major> &) match the arguments'
	// types, as deduction would fail for the others ([temp.deduct])
	// A template without a pack is more specialized than one with a
	// pack ([temp.deduct.partial]p8-11, [temp.func.order]): put(i, a)
	// ends the recursion of put(i, a, rest...) when rest is empty.
	for _, packs := range []bool{false, true} {
		for _, t := range byArity {
			if (t.TPack != "") == packs && c.templateMatches(t, e) {
				return t
			}
		}
	}
	return td
}

// templateMatches reports whether the arguments of e match every
// parameter of template t written as a class template instance.
func (c *compiler) templateMatches(t *syntax.FuncDecl, e *syntax.Call) bool {
	params := map[string]bool{}
	for i, n := range t.TParams {
		params[n] = i < len(t.TValue) && t.TValue[i]
	}
	tm, tv := map[string]*Type{}, map[string]int64{}
	for i, p := range t.Type.Params {
		if i >= len(e.Args) {
			break
		}
		te := p.Type
		if te.Kind == syntax.TRef {
			te = te.Elem
		}
		if te.Kind != syntax.TNamed || len(te.TArgs) == 0 || c.classTmpls[te.Name] == nil {
			continue
		}
		at := c.typeOf(e.Args[i], false)
		if at.Ref {
			at = at.Elem
		}
		if !c.matchType(te, at, params, tm, tv) {
			return false
		}
	}
	return true
}
