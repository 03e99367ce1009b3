package sem

import "weft.dev/weft/lang/cudac/syntax"

// Calls of constexpr functions in constant expressions (C++
// [dcl.constexpr], [expr.const]): an array size, a template argument, a
// static_assert, a case label may call a constexpr function of the
// program whose body is a return statement (C++11's form; C++14's loops
// are not evaluated), with integer arguments that are constant
// expressions: the parameters are bound to the argument values (converted
// to their types) and the returned expression is evaluated, recursively
// (?: chooses before it evaluates, so a recursive constexpr function
// ends), at most constDepthMax calls deep. Anything else is not a constant
// expression, as before.

const constDepthMax = 512

func (c *compiler) constexprCall(e *syntax.Call) (int64, bool) {
	n, ok := e.Fun.(*syntax.Name)
	if !ok || len(e.TypeArgs) > 0 || len(e.Launch) > 0 || c.lookup(n.Name) != nil || len(c.overloads[n.Name]) > 1 {
		return 0, false
	}
	fn := c.funcs[n.Name]
	if fn == nil || fn.decl == nil || !fn.decl.Q.Constexpr || fn.decl.Body == nil || fn.decl.Recv != "" {
		return 0, false
	}
	fd := fn.decl
	ft := fn.Type
	if ft == nil {
		// a file-scope static_assert or array size before the function
		// types are resolved (Compile resolves them after the
		// declarations)
		ft = c.resolve(fd.Type)
	}
	if len(fd.Body.Stmts) != 1 || len(e.Args) != len(ft.Params) || ft.Variadic {
		return 0, false
	}
	ret, ok := fd.Body.Stmts[0].(*syntax.ReturnStmt)
	rt := ft.Elem
	if !ok || ret.X == nil || !rt.isInt() {
		return 0, false
	}
	vals := make([]int64, len(e.Args))
	for i, a := range e.Args {
		pt := ft.Params[i]
		v, ok := c.constExpr(a)
		if !ok || !pt.isInt() {
			return 0, false
		}
		vals[i] = int64(ext(uint64(v), pt.size*8, pt.isSigned()))
	}
	if c.constDepth >= constDepthMax {
		return 0, false
	}
	c.constDepth++
	c.push()
	for i, p := range fd.Type.Params {
		if p.Name != "" {
			c.declare(p.Name, &sym{kind: symSlot, t: ft.Params[i], isConst: true, val: vals[i]})
		}
	}
	v, ok := c.constExpr(ret.X)
	c.pop()
	c.constDepth--
	if !ok {
		return 0, false
	}
	return int64(ext(uint64(v), rt.size*8, rt.isSigned())), true
}
