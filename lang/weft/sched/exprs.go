package sched

import (
	"weft.dev/weft/lang/weft/syntax"
)

// Expression rewrites (Exo's rewrite_expr): replace a control expression
// by another one that is provably equal for every value of its variables.

// equalForAll proves a == b for all integer values of the variables. The
// difference is normalized (affine.go); if it folds to 0 they are equal.
// Otherwise, when what remains is a constant plus modulo atoms `X % m`
// whose insides X are affine with integer coefficients (no nested atoms),
// the difference is periodic with period L = lcm(m...) in every variable,
// so checking every residue vector in [0, L)^n decides it exactly (at most
// 4096 vectors; beyond that the proof is refused).
func equalForAll(a, b Lin) bool {
	d := a.add(b, -1)
	if d.isConst() {
		return d.Const == 0
	}
	L := int64(1)
	vars := map[string]bool{}
	var atoms []struct {
		coef int64
		in   Lin
		m    int64
	}
	for _, t := range d.Terms {
		if !t.atom {
			return false
		}
		bin := t.expr.(*syntax.Binary)
		if bin.Op != "%" {
			return false
		}
		m := bin.Y.(*syntax.IntLit).Value
		in, ok := toLin(bin.X, freeEnv{})
		if !ok {
			return false
		}
		for _, it := range in.Terms {
			if it.atom {
				return false
			}
			vars[it.key] = true
		}
		atoms = append(atoms, struct {
			coef int64
			in   Lin
			m    int64
		}{t.coef, in, m})
		L = lcm(L, m)
		if L > 64 {
			return false
		}
	}
	names := sortedKeys(vars)
	total := int64(1)
	for range names {
		total *= L
		if total > 4096 {
			return false
		}
	}
	vals := map[string]int64{}
	for n := int64(0); n < total; n++ {
		r := n
		for _, v := range names {
			vals[v] = r % L
			r /= L
		}
		sum := d.Const
		for _, at := range atoms {
			x := at.in.Const
			for _, t := range at.in.Terms {
				x += t.coef * vals[t.key]
			}
			sum += at.coef * floorMod(x, at.m)
		}
		if sum != 0 {
			return false
		}
	}
	return true
}

func lcm(a, b int64) int64 {
	g, h := a, b
	for h != 0 {
		g, h = h, g%h
	}
	return a / g * b
}

// rewriteExpr replaces, in the selected block and everything inside it,
// every control expression equal (in normal form) to old by new, after
// proving old == new for every value (equalForAll). Replacing an
// expression by an equal one keeps every index, bound and condition, so
// the meaning is unchanged. Typical use: `(k1 - 1) % 2` by `1 - k1 % 2`,
// the form a double-buffered loop is usually written in.
func (w *workspace) rewriteExpr(p *syntax.Proc, where string, count int, oldText, newText string) error {
	c, err := w.find(p, where)
	if err != nil {
		return err
	}
	if count < 1 || c.idx()+count > len(*c.block()) {
		return errorf(CodeArgs, "rewrite_expr: count=%d: the block has %d statements from the match on", count, len(*c.block())-c.idx())
	}
	pi := w.info(p)
	oe, err1 := parseExpr(oldText)
	ne, err2 := parseExpr(newText)
	if err1 != nil || err2 != nil {
		return errorf(CodeExpr, "rewrite_expr: %q and %q must be Weft control expressions", oldText, newText)
	}
	ol, ok1 := toLin(oe, pi)
	nl, ok2 := toLin(ne, pi)
	if !ok1 || !ok2 {
		return errorf(CodeExpr, "rewrite_expr: %q and %q must be control expressions (sizes, indices, iterators, integer constants)", oldText, newText)
	}
	if !equalForAll(ol, nl) {
		return errorf(CodeExpr, "rewrite_expr: cannot prove %s == %s for every value of its variables", oldText, newText)
	}
	n := 0
	rw := func(e syntax.Expr) syntax.Expr {
		return replaceExprs(e, func(x syntax.Expr) (syntax.Expr, bool) {
			switch x.(type) {
			case *syntax.IntLit, *syntax.FloatLit, *syntax.BoolLit, *syntax.StringLit:
				return x, true
			}
			if l, ok := toLin(x, pi); ok && l.equal(ol) {
				n++
				return cloneExpr(ne), true
			}
			return nil, false
		})
	}
	walkStmts((*c.block())[c.idx():c.idx()+count], func(s syntax.Stmt) {
		switch s := s.(type) {
		case *syntax.Assign:
			s.LHS, s.RHS = rw(s.LHS), rw(s.RHS)
		case *syntax.For:
			s.Lo, s.Hi = rw(s.Lo), rw(s.Hi)
		case *syntax.If:
			s.Cond = rw(s.Cond)
		case *syntax.CallStmt:
			rw(s.Call)
			for i := range s.Barriers {
				s.Barriers[i] = rw(s.Barriers[i])
			}
		case *syntax.Arrive:
			for i := range s.Barriers {
				s.Barriers[i] = rw(s.Barriers[i])
			}
		case *syntax.Await:
			s.Bar = rw(s.Bar)
		case *syntax.Alloc:
			for i := range s.Type.Dims {
				s.Type.Dims[i] = rw(s.Type.Dims[i])
			}
		}
	})
	if n == 0 {
		return errorf(CodeExpr, "rewrite_expr: no expression equal to %s in the block", oldText).at(c.stmt, "the block starts here")
	}
	return nil
}

// replaceExprs rewrites e top-down: where f returns (r, true) the node is
// replaced by r and not descended into; elsewhere its operands, indices,
// slice bounds and call arguments are rewritten.
func replaceExprs(e syntax.Expr, f func(syntax.Expr) (syntax.Expr, bool)) syntax.Expr {
	if e == nil {
		return nil
	}
	if r, ok := f(e); ok {
		return r
	}
	rw := func(x syntax.Expr) syntax.Expr { return replaceExprs(x, f) }
	switch x := e.(type) {
	case *syntax.Binary:
		x.X, x.Y = rw(x.X), rw(x.Y)
	case *syntax.Unary:
		x.X = rw(x.X)
	case *syntax.Index:
		for i := range x.Indices {
			x.Indices[i] = rw(x.Indices[i])
		}
	case *syntax.Slice:
		x.Lo, x.Hi = rw(x.Lo), rw(x.Hi)
	case *syntax.Call:
		for i := range x.Args {
			x.Args[i] = rw(x.Args[i])
		}
		for _, k := range x.Kwargs {
			k.Value = rw(k.Value)
		}
	}
	return e
}
