package sched

import (
	"weft.dev/weft/lang/weft/syntax"
)

// Normalization (simplify, seed 000 figures "xgemm = simplify(xgemm)"):
// every maximal control subexpression is rewritten to its quasi-affine
// normal form (affine.go), which folds constants and collects terms; an if
// whose condition folds is replaced by the branch taken. Integer arithmetic
// on control values is exact, so the sequential meaning is unchanged.

// normExpr normalizes the control subexpressions of e. If only is
// non-empty, just those mentioning one of its names are rewritten (so a
// rewrite touches only the indices it changed).
func normExpr(e syntax.Expr, pi *procInfo, only []string) syntax.Expr {
	switch e.(type) {
	case nil, *syntax.Name, *syntax.IntLit, *syntax.FloatLit, *syntax.BoolLit, *syntax.StringLit:
		return e
	}
	if l, ok := toLin(e, pi); ok && touches(e, only) {
		return l.expr()
	}
	switch x := e.(type) {
	case *syntax.Binary:
		x.X = normExpr(x.X, pi, only)
		x.Y = normExpr(x.Y, pi, only)
	case *syntax.Unary:
		x.X = normExpr(x.X, pi, only)
	case *syntax.Index:
		for i := range x.Indices {
			x.Indices[i] = normExpr(x.Indices[i], pi, only)
		}
	case *syntax.Slice:
		x.Lo = normExpr(x.Lo, pi, only)
		x.Hi = normExpr(x.Hi, pi, only)
	case *syntax.Call:
		for i := range x.Args {
			x.Args[i] = normExpr(x.Args[i], pi, only)
		}
		for _, k := range x.Kwargs {
			k.Value = normExpr(k.Value, pi, only)
		}
	}
	return e
}

func touches(e syntax.Expr, only []string) bool {
	if len(only) == 0 {
		return true
	}
	for _, n := range only {
		if mentions(e, n) {
			return true
		}
	}
	return false
}

// normStmts normalizes the control expressions of ss in place, folding ifs
// with constant conditions when fold is set.
func normStmts(ss []syntax.Stmt, pi *procInfo, only []string, fold bool) []syntax.Stmt {
	var out []syntax.Stmt
	for _, s := range ss {
		switch s := s.(type) {
		case *syntax.Alloc:
			for i := range s.Type.Dims {
				s.Type.Dims[i] = normExpr(s.Type.Dims[i], pi, only)
			}
		case *syntax.Assign:
			s.LHS = normExpr(s.LHS, pi, only)
			s.RHS = normExpr(s.RHS, pi, only)
		case *syntax.For:
			s.Lo = normExpr(s.Lo, pi, only)
			s.Hi = normExpr(s.Hi, pi, only)
			s.Body = normStmts(s.Body, pi, only, fold)
		case *syntax.If:
			s.Cond = normExpr(s.Cond, pi, only)
			s.Then = normStmts(s.Then, pi, only, fold)
			if s.Else != nil {
				s.Else = normStmts(s.Else, pi, only, fold)
			}
			if fold {
				fp := *pi
				fp.fold = true // decide with integer globals folded, print without
				if v, ok := evalCond(s.Cond, &fp); ok {
					if v {
						out = append(out, s.Then...)
					} else {
						out = append(out, s.Else...)
					}
					continue
				}
			}
		case *syntax.With:
			s.Body = normStmts(s.Body, pi, only, fold)
		case *syntax.CallStmt:
			normExpr(s.Call, pi, only)
			for i := range s.Barriers {
				s.Barriers[i] = normExpr(s.Barriers[i], pi, only)
			}
		case *syntax.Arrive:
			for i := range s.Barriers {
				s.Barriers[i] = normExpr(s.Barriers[i], pi, only)
			}
		case *syntax.Await:
			s.Bar = normExpr(s.Bar, pi, only)
		case *syntax.Assert:
			s.Cond = normExpr(s.Cond, pi, only)
		}
		out = append(out, s)
	}
	return out
}

// evalCond decides a boolean control expression when it is constant (or
// compares two equal expressions).
func evalCond(e syntax.Expr, pi *procInfo) (bool, bool) {
	switch x := e.(type) {
	case *syntax.BoolLit:
		return x.Value, true
	case *syntax.Unary:
		if x.Op == "not" {
			v, ok := evalCond(x.X, pi)
			return !v, ok
		}
	case *syntax.Binary:
		switch x.Op {
		case "and", "or":
			a, okA := evalCond(x.X, pi)
			b, okB := evalCond(x.Y, pi)
			if x.Op == "and" {
				if okA && !a || okB && !b {
					return false, true
				}
				return a && b, okA && okB
			}
			if okA && a || okB && b {
				return true, true
			}
			return a || b, okA && okB
		}
		l, ok1 := toLin(x.X, pi)
		r, ok2 := toLin(x.Y, pi)
		if !ok1 || !ok2 {
			return false, false
		}
		d := l.add(r, -1)
		if !d.isConst() {
			return false, false
		}
		switch x.Op {
		case "==":
			return d.Const == 0, true
		case "!=":
			return d.Const != 0, true
		case "<":
			return d.Const < 0, true
		case "<=":
			return d.Const <= 0, true
		case ">":
			return d.Const > 0, true
		case ">=":
			return d.Const >= 0, true
		}
	}
	return false, false
}
