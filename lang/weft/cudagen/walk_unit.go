package cudagen

import (
	"weft.dev/weft/lang/weft/coll"
	"weft.dev/weft/lang/weft/syntax"
)

// unitQuick is unitMatches's test of a loop unit without building the
// generator's unit (issue 13, stop 38: docs/weft-sync.md "Stop 38:
// gen38"): where it answers true, unitMatches would answer true too, so
// a false only sends the loop to the general test (loopUnit and
// sameUnitOn), never to a diagnostic.
//
// Building the unit was most of the walk on the small rows (stop 37's
// lead: about 900 instructions a distinct unit, the half of row 5's
// walk): LookupUnit's copy, Scaled's new box, Threads's resolution and
// sameUnitOn's evaluation of both units. What sameUnitOn reads of the
// generator's unit is its name, scale, coordinate counts and the values
// of its coordinates on the machine; what loopUnit reads is whether it
// resolves there. unitQuick takes them from the library unit itself (a
// name, or a constant times a unit, as unitTo evaluates them: the
// constant on the left first), with the scale applied to the one
// coordinate Scaled changes (Sym.scaled multiplies Num), and compares
// them with the checker's unit a on the checker's machine am, which must
// be the walk's. With every value equal, the generator's unit resolves
// exactly when resolveInto's tests pass on these values (no wildcard in
// the domain, each box coordinate within its domain coordinate, the
// domain's threads dividing the machine's), which are made here.
// Strided units (calls) and anything else take the general test.
func (w *walker) unitQuick(e syntax.Expr, a *coll.Unit, am coll.Machine) bool {
	if am != w.m {
		return false
	}
	// unitTo's chain of constant factors down to the unit's name.
	var ks [4]int
	nk := 0
	name := "cuda_thread" // the default unit (threadsLoop: no unit=)
	for e != nil {
		switch x := e.(type) {
		case *syntax.Name:
			name, e = x.Name, nil
		case *syntax.Binary:
			if x.Op != "*" || nk == len(ks) {
				return false
			}
			if k, ok := w.constValue(x.X); ok {
				ks[nk], e = int(k), x.Y
			} else if k, ok := w.constValue(x.Y); ok {
				ks[nk], e = int(k), x.X
			} else {
				return false
			}
			nk++
		default:
			return false
		}
	}
	u, ok := coll.LookupUnit(name)
	if !ok {
		return false
	}
	// Scaled, innermost factor first (unitTo scales the unit its
	// operand resolved to).
	scale := u.Scale
	var boxSD coll.Sym
	if u.ScaledDim >= 0 && u.ScaledDim < len(u.Box) {
		boxSD = u.Box[u.ScaledDim]
	}
	for i := nk - 1; i >= 0; i-- {
		k := ks[i]
		if k < 1 || u.ScaledDim < 0 || u.ScaledDim >= len(u.Box) {
			return false // Scaled's error
		}
		boxSD.Num *= k
		if scale == 0 {
			scale = 1
		}
		scale *= k
	}
	n := len(u.Domain)
	if a.Name != u.Name || a.Scale != scale || n == 0 || len(a.Domain) != n || len(u.Box) != n || len(a.Box) != n {
		return false
	}
	m := w.m
	total := 1
	for i := 0; i < n; i++ {
		if u.Domain[i].Any {
			return false // resolveInto's error
		}
		d, ok := sameSym(a.Domain[i], u.Domain[i], m)
		if !ok {
			return false
		}
		ub := u.Box[i]
		if nk > 0 && i == u.ScaledDim {
			ub = boxSD
		}
		b, ok := sameSym(a.Box[i], ub, m)
		if !ok || b > d {
			return false
		}
		total *= d
	}
	return total <= m.Threads() && m.Threads()%total == 0
}

// sameSym is x's value on m when x and y have the same valid value there
// (sameSyms on one coordinate); a wildcard's value is -1.
func sameSym(x, y coll.Sym, m coll.Machine) (int, bool) {
	v, err := x.Eval(m)
	if err != nil {
		return 0, false
	}
	if x == y {
		return v, true
	}
	v2, err := y.Eval(m)
	return v, err == nil && v == v2
}
