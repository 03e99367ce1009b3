package check

import "weft.dev/weft/lang/weft/syntax"

// procSize counts, in one walk of a proc's tree, the names that can be
// uses of its variables and globals (Proc.Uses; not callees, memories,
// timelines or units) and its parameters and the statements that can
// declare (Proc.Defs),
// so that the two maps are made at their size: grown entry by entry they
// were rehashed five or six times, a third of the check of a small kernel
// (issue 13). Only a size hint: a bound that is off costs memory or a
// rehash, never a result.
type procSize struct {
	names, decls, loops int
	// callees, where not nil, collects the callee name of each call
	// statement naming one (FunName not ""): procContexts reads them
	// instead of walking the procs again.
	callees *[]string
	// declsOnly: count declarations and loops only (Lean makes no Uses
	// map, so the names, and the walk of every expression, are not
	// needed).
	declsOnly bool
}

func (k *procSize) proc(sp *syntax.Proc) {
	for _, prm := range sp.Params {
		k.decls++
		if prm != nil {
			k.typ(prm.Type)
		}
	}
	k.stmts(sp.Body)
}

func (k *procSize) typ(t *syntax.Type) {
	if t == nil || k.declsOnly {
		return
	}
	k.exprs(t.Dims)
	k.expr(t.Guard)
	k.exprs(t.DimAnns)
}

// expr and exprs count the names of e (es) unless declsOnly: small
// enough to be inlined, so that a declsOnly walk makes no call per
// expression (stop 42).
func (k *procSize) expr(e syntax.Expr) {
	if !k.declsOnly {
		k.exprNames(e)
	}
}

func (k *procSize) exprs(es []syntax.Expr) {
	if !k.declsOnly {
		k.exprsNames(es)
	}
}

func (k *procSize) stmts(ss []syntax.Stmt) {
	for _, s := range ss {
		switch s := s.(type) {
		case *syntax.Alloc:
			k.decls++
			k.typ(s.Type)
		case *syntax.Assign:
			if mayDeclare(s) {
				k.decls++ // a window statement declares
			}
			k.expr(s.LHS)
			k.expr(s.RHS)
		case *syntax.For:
			k.decls++
			k.loops++
			k.expr(s.Lo)
			k.expr(s.Hi)
			k.stmts(s.Body)
		case *syntax.If:
			k.expr(s.Cond)
			k.stmts(s.Then)
			k.stmts(s.Else)
		case *syntax.With:
			k.expr(s.Ctx)
			k.stmts(s.Body)
		case *syntax.CallStmt:
			if s.Call != nil {
				if n := s.Call.FunName(); n != "" && k.callees != nil {
					*k.callees = append(*k.callees, n)
				}
				k.expr(s.Call)
			}
			k.exprs(s.Barriers)
		case *syntax.Arrive:
			k.expr(s.N)
			k.exprs(s.Barriers)
		case *syntax.Await:
			k.expr(s.Bar)
			k.expr(s.N)
		case *syntax.Assert:
			k.expr(s.Cond)
		case *syntax.Free:
			k.names++
		}
	}
}

func (k *procSize) exprsNames(es []syntax.Expr) {
	for _, e := range es {
		k.exprNames(e)
	}
}

func (k *procSize) exprNames(e syntax.Expr) {
	switch e := e.(type) {
	case *syntax.Name:
		k.names++
	case *syntax.Binary:
		k.exprNames(e.X)
		k.exprNames(e.Y)
	case *syntax.Unary:
		k.exprNames(e.X)
	case *syntax.Index:
		k.exprNames(e.X)
		k.exprsNames(e.Indices)
	case *syntax.Slice:
		k.exprNames(e.Lo)
		k.exprNames(e.Hi)
	case *syntax.Call:
		k.exprsNames(e.Args)
		for _, kw := range e.Kwargs {
			if kw != nil {
				k.exprNames(kw.Value)
			}
		}
	case *syntax.Kwarg:
		k.exprNames(e.Value)
	case *syntax.List:
		k.exprsNames(e.Elems)
	case *syntax.Tuple:
		k.exprsNames(e.Elems)
	case *syntax.Attr:
		k.exprNames(e.X)
	}
}

// mayDeclare reports whether s can be a window statement, which declares
// (checker.assign: a name assigned with = and a memory, or a windowable
// right side); an assignment of data declares nothing, and counting it
// made a symbol of some 250 bytes for nothing (stop 41).
func mayDeclare(s *syntax.Assign) bool {
	if _, ok := s.LHS.(*syntax.Name); !ok || s.Op != "=" {
		return false
	}
	return s.Mem != nil || isWindowable(s.RHS)
}
