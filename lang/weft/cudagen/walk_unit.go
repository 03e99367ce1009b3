package cudagen

import (
	"strconv"

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
// A cuda_threads_strided call of constant arguments is taken the same
// way, its name compared rather than formatted (threadsStridedIn; stop
// 41). Other strided units and anything else take the general test.
func (w *walker) unitQuick(e syntax.Expr, a *coll.Unit, am coll.Machine) bool {
	if am != w.m {
		return false
	}
	// unitTo's chain of constant factors down to the unit's name, or to
	// a strided unit's call.
	var ks [4]int
	nk := 0
	name := "cuda_thread" // the default unit (threadsLoop: no unit=)
	var call *syntax.Call
	for e != nil {
		switch x := e.(type) {
		case *syntax.Name:
			name, e = x.Name, nil
		case *syntax.Call:
			call, e = x, nil
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
	// u points to the library unit (coll's variable, read only), or to
	// the strided unit made in sus: no copy of a unit (issue 13, stop 46).
	var u *coll.Unit
	var sus stridedUnit
	n2, n3 := 0, 0
	if call != nil {
		// A cuda_threads_strided call of constant arguments (unitTo's
		// StridedUnit); any other call is the general test's.
		var ok bool
		if n2, n3, ok = w.stridedArgs(call); !ok {
			return false
		}
		sus.u = threadsStridedIn(n2, n3, &sus.syms)
		u = &sus.u
	} else if u = stdUnitRef(name); u == nil {
		lu, ok := coll.LookupUnit(name)
		if !ok {
			return false
		}
		u = &lu
	}
	// Scaled, innermost factor first (unitTo scales the unit its
	// operand resolved to): the scaled coordinate's Num times the
	// factors' product.
	scale := u.Scale
	sd := u.ScaledDim
	kp := 1
	for i := nk - 1; i >= 0; i-- {
		k := ks[i]
		if k < 1 || sd < 0 || sd >= len(u.Box) {
			return false // Scaled's error
		}
		kp *= k
		if scale == 0 {
			scale = 1
		}
		scale *= k
	}
	n := len(u.Domain)
	if a.Scale != scale || n == 0 || len(a.Domain) != n || len(u.Box) != n || len(a.Box) != n {
		return false
	}
	if call != nil {
		if !isStridedName(a.Name, n2, n3) {
			return false
		}
	} else if a.Name != u.Name {
		return false
	}
	m := w.m
	total := 1
	for i := 0; i < n; i++ {
		if u.Domain[i].Any {
			return false // resolveInto's error
		}
		d, ok := sameSymRef(&a.Domain[i], &u.Domain[i], 1, m)
		if !ok {
			return false
		}
		k := 1
		if nk > 0 && i == sd {
			k = kp
		}
		b, ok := sameSymRef(&a.Box[i], &u.Box[i], k, m)
		if !ok || b > d {
			return false
		}
		total *= d
	}
	return total <= m.Threads() && m.Threads()%total == 0
}

// unitThreads is u.Threads(m) where it has no error, else 0. A unit of
// one dimension (every standard unit) takes threadsOne's steps (coll's
// fast path of Threads) in place, without a copy of the unit and its
// coordinates and with symEval for Eval (issue 13, stop 46: a third of
// the walk of a small kernel's SMEM allocation); where they fail,
// Threads answers. TestUnitThreads compares it with Threads.
func unitThreads(u *coll.Unit, m coll.Machine) int {
	if len(u.Domain) == 1 && len(u.Box) == 1 {
		if n, ok := threadsOneRef(&u.Domain[0], &u.Box[0], m); ok {
			return n
		}
	}
	if n, err := u.Threads(m); err == nil {
		return n
	}
	return 0
}

// threadsOneRef is coll's threadsOne: the threads of a unit of domain d
// and box b on m where that is a positive domain value dividing the
// machine's threads and a box within it (the wildcard box counts as the
// domain); ok false elsewhere.
func threadsOneRef(d, b *coll.Sym, m coll.Machine) (int, bool) {
	if d.Any {
		return 0, false
	}
	dv, ok := symEval(d, d.Num, m)
	if !ok {
		return 0, false
	}
	n := dv
	if !b.Any {
		bv, ok := symEval(b, b.Num, m)
		if !ok || bv > dv {
			return 0, false
		}
		n = bv
	}
	if t := m.Threads(); dv > t || t%dv != 0 {
		return 0, false
	}
	return n, true
}

// stridedUnit is the room of a strided unit unitQuick makes.
type stridedUnit struct {
	u    coll.Unit
	syms [4]coll.Sym
}

// sameSym is x's value on m when x and y have the same valid value there
// (sameSyms on one coordinate); a wildcard's value is -1. The
// coordinates are compared field by field (a struct comparison of Sym
// was a call of memequal; issue 13, stop 42).
func sameSym(x, y coll.Sym, m coll.Machine) (int, bool) {
	return sameSymRef(&x, &y, 1, m)
}

// sameSymRef is sameSym(*x, y', m) for y' the coordinate *y with its Num
// times k (Sym.scaled: unitQuick's scaled box coordinate), read in place
// and evaluated by symEval (a copy of each coordinate and a call of Eval
// per coordinate were a third of unitQuick; issue 13, stop 46).
func sameSymRef(x, y *coll.Sym, k int, m coll.Machine) (int, bool) {
	v, ok := symEval(x, x.Num, m)
	if !ok {
		return 0, false
	}
	yn := y.Num * k
	if x.Num == yn && x.Div == y.Div && x.BlockDim == y.BlockDim && x.ClusterDim == y.ClusterDim && x.Any == y.Any {
		return v, true
	}
	v2, ok := symEval(y, yn, m)
	return v, ok && v == v2
}

// symEval is s.Eval(m) of s with Num num, ok where it has no error: the
// value of its terms over its divisor (1 when 0), which must divide
// them and be positive, or -1 for the wildcard. TestSameSym and
// TestSymEval compare it with Eval.
func symEval(s *coll.Sym, num int, m coll.Machine) (int, bool) {
	if s.Any {
		return -1, true
	}
	v := num
	if s.BlockDim {
		v *= m.BlockDim
	}
	if s.ClusterDim {
		v *= m.ClusterDim
	}
	d := s.Div
	if d == 0 {
		d = 1
	}
	if d < 0 || v%d != 0 || v/d <= 0 {
		return 0, false
	}
	return v / d, true
}

// stridedArgs is unitTo's test of a strided unit's call for
// cuda_threads_strided(n2, n3) (gen.unitTo folds each argument with
// constValue; coll.StridedUnit takes two with 1 <= n2 <= n3); ok is
// false for any other call and wherever unitTo reports.
func (w *walker) stridedArgs(c *syntax.Call) (n2, n3 int, ok bool) {
	if c.FunName() != "cuda_threads_strided" || len(c.Args) != 2 {
		return 0, 0, false
	}
	a, ok1 := w.constValue(c.Args[0])
	b, ok2 := w.constValue(c.Args[1])
	n2, n3 = int(a), int(b)
	if !ok1 || !ok2 || n2 < 1 || n3 < 1 || n2 > n3 {
		return 0, 0, false
	}
	return n2, n3, true
}

// threadsStridedIn is coll.ThreadsStrided(n2, n3) without its name, its
// coordinates in syms: unitQuick compares the name with isStridedName
// instead of formatting it (issue 13, stop 41: the formatting was the
// most of the walk's unit tests on shfl_xor). TestThreadsStridedIn
// compares the two.
func threadsStridedIn(n2, n3 int, syms *[4]coll.Sym) coll.Unit {
	syms[0], syms[1] = coll.BlockDimSym(1, n3), coll.Const(n3)
	syms[2], syms[3] = coll.Const(1), coll.Const(n2)
	return coll.Unit{Domain: syms[0:2:2], Box: syms[2:4:4], ScaledDim: 0}
}

// isStridedName reports whether name is coll.ThreadsStrided(n2, n3)'s
// name, "cuda_threads_strided(n2, n3)".
func isStridedName(name string, n2, n3 int) bool {
	var buf [64]byte
	b := append(buf[:0], "cuda_threads_strided("...)
	b = strconv.AppendInt(b, int64(n2), 10)
	b = append(b, ", "...)
	b = strconv.AppendInt(b, int64(n3), 10)
	b = append(b, ')')
	return string(b) == name
}

// stdUnitRef is stdUnit's unit by reference: coll's variable of a
// standard unit (read only), nil for any other name.
func stdUnitRef(name string) *coll.Unit {
	switch name {
	case "cuda_thread":
		return &coll.CudaThread
	case "cuda_warp":
		return &coll.CudaWarp
	case "cuda_warpgroup":
		return &coll.CudaWarpgroup
	case "cuda_cta_in_cluster":
		return &coll.CudaCtaInCluster
	case "cuda_warp_in_cluster":
		return &coll.CudaWarpInCluster
	}
	return nil
}

// stdUnit is coll.LookupUnit(name) for the walk: the standard units of
// seed 000 Fig. 11 by a switch on the name, their values coll's exported
// variables, which coll's table holds under their names (a map lookup
// was a tenth of unitQuick; issue 13, stop 41). Any other name is
// LookupUnit's. TestStdUnit compares the two on every unit and others.
func stdUnit(name string) (coll.Unit, bool) {
	switch name {
	case "cuda_thread":
		return coll.CudaThread, true
	case "cuda_warp":
		return coll.CudaWarp, true
	case "cuda_warpgroup":
		return coll.CudaWarpgroup, true
	case "cuda_cta_in_cluster":
		return coll.CudaCtaInCluster, true
	case "cuda_warp_in_cluster":
		return coll.CudaWarpInCluster, true
	}
	return coll.LookupUnit(name)
}
