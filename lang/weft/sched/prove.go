package sched

import (
	"weft.dev/weft/lang/weft/syntax"
)

// Proofs over quasi-affine control expressions: divisibility (for
// divide_loop's tail="perfect") and non-negativity (for stage_mem's window
// bounds). Both are sound and incomplete: "false" means "not proven".

// facts are the proc's top-level assertions `E % c == 0` (preconditions
// the caller guarantees; the interpreter checks them).
func (pi *procInfo) modFacts() []struct {
	e Lin
	c int64
} {
	var out []struct {
		e Lin
		c int64
	}
	for _, s := range pi.proc.Body {
		a, ok := s.(*syntax.Assert)
		if !ok {
			continue
		}
		var conj func(e syntax.Expr)
		conj = func(e syntax.Expr) {
			b, ok := e.(*syntax.Binary)
			if !ok {
				return
			}
			if b.Op == "and" {
				conj(b.X)
				conj(b.Y)
				return
			}
			if b.Op != "==" {
				return
			}
			x, y := b.X, b.Y
			if z, ok := toLin(x, pi); ok && z.isConst() && z.Const == 0 {
				x, y = y, x
			}
			if z, ok := toLin(y, pi); !ok || !z.isConst() || z.Const != 0 {
				return
			}
			m, ok := x.(*syntax.Binary)
			if !ok || m.Op != "%" {
				return
			}
			e1, ok1 := toLin(m.X, pi)
			c, ok2 := toLin(m.Y, pi)
			if ok1 && ok2 && c.isConst() && c.Const > 0 {
				out = append(out, struct {
					e Lin
					c int64
				}{e1, c.Const})
			}
		}
		conj(a.Cond)
	}
	return out
}

// allDivisible reports whether every coefficient and the constant of l are
// multiples of f.
func allDivisible(l Lin, f int64) bool {
	if l.Const%f != 0 {
		return false
	}
	for _, t := range l.Terms {
		if t.coef%f != 0 {
			return false
		}
	}
	return true
}

// divisible proves n % f == 0: n is a multiple of f term by term, or n
// differs by such a multiple from an asserted E with E % c == 0, f | c.
func (pi *procInfo) divisible(n Lin, f int64) bool {
	if allDivisible(n, f) {
		return true
	}
	for _, fact := range pi.modFacts() {
		if fact.c%f == 0 && allDivisible(n.add(fact.e, -1), f) {
			return true
		}
	}
	return false
}

// iterRange is a loop iterator with its bounds, for bound proofs.
type iterRange struct {
	name   string
	lo, hi Lin // hi exclusive
}

// nonneg proves l >= 0 for every value of the iterators (given innermost
// last) and every positive value of the size parameters. Iterators are
// eliminated innermost first by their worst bound; then sizes (>= 1) and
// atoms e / c (>= 0 when e >= 0) and e % c (in [0, c-1]) take their least
// values.
func (pi *procInfo) nonneg(l Lin, iters []iterRange) bool {
	for k := len(iters) - 1; k >= 0; k-- {
		it := iters[k]
		c := l.coef(it.name)
		switch {
		case c > 0:
			l = l.subst(it.name, it.lo)
		case c < 0:
			l = l.subst(it.name, it.hi.add(constLin(1), -1))
		}
	}
	// c*m * (e / c) = m*e - m*(e % c); e % c is 0 when e is provably a
	// multiple of c. This is what proves 8 * (K / 8) <= K.
	for changed := true; changed; {
		changed = false
		for _, t := range l.Terms {
			if !t.atom {
				continue
			}
			b := t.expr.(*syntax.Binary)
			c := b.Y.(*syntax.IntLit).Value
			if b.Op != "/" || t.coef%c != 0 {
				continue
			}
			e, ok := toLin(b.X, pi)
			if !ok {
				continue
			}
			m := t.coef / c
			l = l.add(Lin{Terms: []term{t}}, -1).add(e, m)
			if !pi.divisible(e, c) {
				l = l.add(divModLin(e, c, true), -m)
			}
			changed = true
			break
		}
	}
	min := l.Const
	for _, t := range l.Terms {
		ni := pi.names[t.key]
		switch {
		case !t.atom && ni != nil && ni.kind == "size":
			if t.coef < 0 {
				return false
			}
			min += t.coef
		case t.atom:
			b := t.expr.(*syntax.Binary)
			c := b.Y.(*syntax.IntLit).Value
			if b.Op == "%" {
				if t.coef < 0 {
					min += t.coef * (c - 1)
				}
				continue
			}
			inner, ok := toLin(b.X, pi)
			if t.coef < 0 || !ok || !pi.nonneg(inner, nil) {
				return false
			}
		default:
			return false
		}
	}
	return min >= 0
}
