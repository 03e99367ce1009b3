package sched

import (
	"strconv"
	"weft.dev/weft/lang/weft/check"

	"weft.dev/weft/lang/weft/syntax"
)

// Quasi-affine control expressions (seed 000 Fig. 1: c ::= c1 + c2 | c1 - c2
// | c * n | c / n | c mod n). The scheduler's proofs (divisibility, bounds,
// dependence) all work on this normal form: a sum of integer multiples of
// terms plus a constant, where a term is a control variable or an opaque
// atom `e / n` or `e % n` whose inside is itself normalized.

// term is one summand's variable part.
type term struct {
	key  string      // variable name, or the canonical text of an atom
	expr syntax.Expr // *syntax.Name or the atom's expression
	atom bool
	coef int64
}

// Lin is a normalized quasi-affine expression. Terms keep the order in which
// they first appeared, so printing a rewritten index keeps the user's order
// ("256 * task + tid").
type Lin struct {
	Terms []term
	Const int64
}

// ctrlEnv tells which names are control values and what integer constants
// fold to.
type ctrlEnv interface {
	isControl(name string) bool
	constValue(name string) (int64, bool)
}

func (l Lin) isConst() bool { return len(l.Terms) == 0 }

func (l Lin) coef(key string) int64 {
	for _, t := range l.Terms {
		if t.key == key {
			return t.coef
		}
	}
	return 0
}

func (l Lin) add(o Lin, scale int64) Lin {
	r := Lin{Const: l.Const + scale*o.Const}
	r.Terms = append(r.Terms, l.Terms...)
	for _, t := range o.Terms {
		found := false
		for i := range r.Terms {
			if r.Terms[i].key == t.key {
				r.Terms[i].coef += scale * t.coef
				found = true
				break
			}
		}
		if !found {
			t.coef *= scale
			r.Terms = append(r.Terms, t)
		}
	}
	return r.clean()
}

func (l Lin) scale(c int64) Lin {
	r := Lin{Const: l.Const * c}
	for _, t := range l.Terms {
		t.coef *= c
		r.Terms = append(r.Terms, t)
	}
	return r.clean()
}

func (l Lin) clean() Lin {
	out := l.Terms[:0:0]
	for _, t := range l.Terms {
		if t.coef != 0 {
			out = append(out, t)
		}
	}
	l.Terms = out
	return l
}

func (l Lin) equal(o Lin) bool {
	d := l.add(o, -1)
	return d.isConst() && d.Const == 0
}

func constLin(c int64) Lin { return Lin{Const: c} }

func varLin(name string) Lin {
	return Lin{Terms: []term{{key: name, expr: &syntax.Name{Name: name}, coef: 1}}}
}

// floorDiv and floorMod are the control-expression / and % (seed 000 §3.1:
// floor semantics), shared with the checker and the interpreter.
func floorDiv(a, b int64) int64 { return check.FloorDiv(a, b) }

func floorMod(a, b int64) int64 { return a - b*check.FloorDiv(a, b) }

// toLin normalizes a control expression; ok is false if e is not one.
func toLin(e syntax.Expr, env ctrlEnv) (Lin, bool) {
	switch e := e.(type) {
	case *syntax.IntLit:
		return constLin(e.Value), true
	case *syntax.Name:
		if v, ok := env.constValue(e.Name); ok {
			return constLin(v), true
		}
		if env.isControl(e.Name) {
			return varLin(e.Name), true
		}
		return Lin{}, false
	case *syntax.Unary:
		if e.Op != "-" {
			return Lin{}, false
		}
		x, ok := toLin(e.X, env)
		return x.scale(-1), ok
	case *syntax.Binary:
		x, ok1 := toLin(e.X, env)
		y, ok2 := toLin(e.Y, env)
		if !ok1 || !ok2 {
			return Lin{}, false
		}
		switch e.Op {
		case "+":
			return x.add(y, 1), true
		case "-":
			return x.add(y, -1), true
		case "*":
			if x.isConst() {
				return y.scale(x.Const), true
			}
			if y.isConst() {
				return x.scale(y.Const), true
			}
			return Lin{}, false
		case "/", "//", "%":
			if !y.isConst() || y.Const <= 0 {
				return Lin{}, false
			}
			return divModLin(x, y.Const, e.Op == "%"), true
		}
	}
	return Lin{}, false
}

// divModLin is x / c (or x % c) for c > 0, folded where exact.
func divModLin(x Lin, c int64, mod bool) Lin {
	if x.isConst() {
		if mod {
			return constLin(floorMod(x.Const, c))
		}
		return constLin(floorDiv(x.Const, c))
	}
	allDiv := true
	for _, t := range x.Terms {
		if t.coef%c != 0 {
			allDiv = false
		}
	}
	if allDiv {
		if mod {
			return constLin(floorMod(x.Const, c))
		}
		if x.Const%c == 0 {
			r := Lin{Const: x.Const / c}
			for _, t := range x.Terms {
				t.coef /= c
				r.Terms = append(r.Terms, t)
			}
			return r
		}
	}
	op := "/"
	if mod {
		op = "%"
	}
	a := &syntax.Binary{Op: op, X: x.expr(), Y: intLit(c)}
	key := "(" + syntax.ExprString(a) + ")"
	return Lin{Terms: []term{{key: key, expr: a, atom: true, coef: 1}}}
}

func intLit(c int64) *syntax.IntLit {
	return &syntax.IntLit{Text: strconv.FormatInt(c, 10), Value: c}
}

// expr prints l back as a syntax tree: terms in order with the coefficient
// first ("256 * task + tid"), the constant last.
func (l Lin) expr() syntax.Expr {
	var e syntax.Expr
	for _, t := range l.Terms {
		c := t.coef
		neg := c < 0 && e != nil
		if neg {
			c = -c
		}
		var x syntax.Expr = cloneExpr(t.expr)
		if c != 1 {
			if c == -1 && e == nil {
				x = &syntax.Unary{Op: "-", X: x}
			} else {
				x = &syntax.Binary{Op: "*", X: intLit(c), Y: x}
			}
		}
		switch {
		case e == nil:
			e = x
		case neg:
			e = &syntax.Binary{Op: "-", X: e, Y: x}
		default:
			e = &syntax.Binary{Op: "+", X: e, Y: x}
		}
	}
	switch {
	case e == nil:
		return intLit(l.Const)
	case l.Const > 0:
		return &syntax.Binary{Op: "+", X: e, Y: intLit(l.Const)}
	case l.Const < 0:
		return &syntax.Binary{Op: "-", X: e, Y: intLit(-l.Const)}
	}
	return e
}

// subst replaces variable name by r.
func (l Lin) subst(name string, r Lin) Lin {
	c := l.coef(name)
	if c == 0 {
		return l
	}
	out := Lin{Const: l.Const}
	for _, t := range l.Terms {
		if t.key != name {
			out.Terms = append(out.Terms, t)
		}
	}
	return out.add(r, c)
}

// vars reports whether any term is the variable name.
func (l Lin) has(name string) bool { return l.coef(name) != 0 }
