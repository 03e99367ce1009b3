package syncheck

import (
	"weft.dev/weft/lang/weft/check"
	"weft.dev/weft/lang/weft/syntax"
)

// A sync check that executes nothing cannot fail, so it must not pass
// (issue 14): at sizes that violate one of the proc's top-level asserts
// (vector_add with N=100 runs cuda_tasks(0, N/128), no task at all), or
// at which the machine runs no task, the run is an error (codeVacuous)
// instead of "0 hazards".

// violatedAssert returns the first top-level assert of p that is false at
// the sizes set, or nil (also when an assert cannot be evaluated from the
// sizes alone).
func violatedAssert(p *syntax.Proc, set map[string]int64) *syntax.Assert {
	for _, st := range p.Body {
		a, ok := st.(*syntax.Assert)
		if !ok {
			continue
		}
		if v, ok := evalControl(a.Cond, set); ok && v == 0 {
			return a
		}
	}
	return nil
}

// evalControl evaluates a control expression (seed 000 §3.1: integer
// arithmetic, comparisons and boolean connectives over sizes) with the
// names bound by env; booleans are 0 and 1. ok is false for anything else.
func evalControl(e syntax.Expr, env map[string]int64) (int64, bool) {
	b2i := func(b bool) int64 {
		if b {
			return 1
		}
		return 0
	}
	switch e := e.(type) {
	case *syntax.IntLit:
		return e.Value, true
	case *syntax.BoolLit:
		return b2i(e.Value), true
	case *syntax.Name:
		v, ok := env[e.Name]
		return v, ok
	case *syntax.Unary:
		x, ok := evalControl(e.X, env)
		switch {
		case !ok:
			return 0, false
		case e.Op == "-":
			return -x, true
		case e.Op == "not":
			return b2i(x == 0), true
		}
	case *syntax.Binary:
		x, ok1 := evalControl(e.X, env)
		y, ok2 := evalControl(e.Y, env)
		if !ok1 || !ok2 {
			return 0, false
		}
		switch e.Op {
		case "==":
			return b2i(x == y), true
		case "!=":
			return b2i(x != y), true
		case "<":
			return b2i(x < y), true
		case "<=":
			return b2i(x <= y), true
		case ">":
			return b2i(x > y), true
		case ">=":
			return b2i(x >= y), true
		case "and":
			return b2i(x != 0 && y != 0), true
		case "or":
			return b2i(x != 0 || y != 0), true
		}
		return check.ControlOp(e.Op, x, y)
	}
	return 0, false
}
