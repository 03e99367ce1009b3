package gpucheck

import (
	"weft.dev/weft/lang/weft/coll"
	"weft.dev/weft/lang/weft/syntax"
)

// The library's parameterless units in closed form (issue 13, stop 37:
// docs/weft-sync.md "Stop 37: static37").
//
// build evaluates a unit's domain and box expressions for a launch shape
// in an environment of blockDim, clusterDim and the file's constants:
// every loop and instruction call of a check resolves a unit, and the
// first resolution of each (cuda_thread, its multiples, cuda_warp,
// cuda_cta_in_cluster) was a fifth to a quarter of the GPU checker on
// rows e, 5 and 15. The library's parameterless units (units.weft) have
// coordinates that are a literal, blockDim, clusterDim or a product of
// two of them: each is compiled once per library (libUnits, with the
// library's unitDecls) to a constant times blockDim and clusterDim to
// the power 0 or 1, and build evaluates that. Such a coordinate names
// nothing the file's constants could shadow (blockDim and clusterDim are
// the launch shape's first) and no parameter (build takes it only for a
// unit without arguments), so its value is the environment's. Any other
// unit (a parameter, a division, a sum, a wildcard, a file's CollUnit)
// and any coordinate that is not positive (build's error) take build's
// evaluation. TestFastUnitsMatchBuild compares the two.

// fastCoord is c * blockDim^bd * clusterDim^cd.
type fastCoord struct {
	c      int64
	bd, cd bool
}

// fastUnit is a unit's coordinates in closed form.
type fastUnit struct {
	domain, box []fastCoord
}

// unitFastOff makes build evaluate every unit's expressions (set by the
// tests that compare the two).
var unitFastOff bool

// compileFast is d's coordinates in closed form, or nil.
func compileFast(d *unitDecl) *fastUnit {
	if len(d.domain) == 0 || len(d.domain) != len(d.box) {
		return nil
	}
	f := &fastUnit{domain: make([]fastCoord, len(d.domain)), box: make([]fastCoord, len(d.box))}
	for i := range d.domain {
		var ok bool
		if f.domain[i], ok = fastAtomProduct(d.domain[i]); !ok {
			return nil
		}
		if f.box[i], ok = fastAtomProduct(d.box[i]); !ok {
			return nil
		}
	}
	return f
}

// fastAtomProduct is e as a fastCoord: an atom or a product of two.
func fastAtomProduct(e syntax.Expr) (fastCoord, bool) {
	if b, ok := e.(*syntax.Binary); ok {
		if b.Op != "*" {
			return fastCoord{}, false
		}
		x, ok1 := fastAtom(b.X)
		y, ok2 := fastAtom(b.Y)
		if !ok1 || !ok2 || x.bd && y.bd || x.cd && y.cd {
			return fastCoord{}, false
		}
		return fastCoord{c: x.c * y.c, bd: x.bd || y.bd, cd: x.cd || y.cd}, true
	}
	return fastAtom(e)
}

// fastAtom is a literal, blockDim or clusterDim as a fastCoord.
func fastAtom(e syntax.Expr) (fastCoord, bool) {
	switch e := e.(type) {
	case *syntax.IntLit:
		return fastCoord{c: e.Value}, true
	case *syntax.Name:
		switch e.Name {
		case "blockDim":
			return fastCoord{c: 1, bd: true}, true
		case "clusterDim":
			return fastCoord{c: 1, cd: true}, true
		}
	}
	return fastCoord{}, false
}

// eval is f's value on m.
func (f fastCoord) eval(m coll.Machine) int64 {
	v := f.c
	if f.bd {
		v *= int64(m.BlockDim)
	}
	if f.cd {
		v *= int64(m.ClusterDim)
	}
	return v
}

// buildFast is build(d, nil, m) for a unit compiled by compileFast; ok
// is false when a coordinate is not positive (build words the error).
func (u *unitEnv) buildFast(d *unitDecl, m coll.Machine) (out coll.Unit, ok bool) {
	f := d.fast
	n := len(f.domain)
	var vals [8]int64
	if 2*n > len(vals) {
		return coll.Unit{}, false
	}
	for i := 0; i < n; i++ {
		vals[i] = f.domain[i].eval(m)
		if vals[i] < 1 {
			return coll.Unit{}, false
		}
		if vals[n+i] = f.box[i].eval(m); vals[n+i] < 1 {
			return coll.Unit{}, false
		}
	}
	out = coll.Unit{Name: d.name, ScaledDim: d.scale}
	syms := u.syms(2 * n)
	out.Domain, out.Box = syms[:n:n], syms[n:2*n:2*n]
	for i := 0; i < n; i++ {
		out.Domain[i] = coll.Const(int(vals[i]))
		out.Box[i] = coll.Const(int(vals[n+i]))
	}
	if d.scale >= n {
		out.ScaledDim = -1
	}
	return out, true
}

// fastOnce is buildOnce(d, m) (k = 0) or scaledOnce(d, k, m) (k >= 1)
// for a unit with a closed form, from the same table of built units but
// without their closures (resolve's layers were most of a unit's cost
// once build was cheap); ok is false where the general way must run: no
// closed form, a coordinate not positive, a unit that cannot be scaled
// (their errors are worded there).
func (u *unitEnv) fastOnce(d *unitDecl, k int, m coll.Machine) (coll.Unit, bool) {
	if d.fast == nil || unitFastOff {
		return coll.Unit{}, false
	}
	for i := 0; i < u.nBuilt; i++ {
		if b := &u.built[i]; b.d == d && b.k == k && b.m == m {
			return b.u, b.err == nil
		}
	}
	out, ok := u.buildFast(d, m)
	if !ok {
		return coll.Unit{}, false
	}
	if k > 0 {
		// Scaled, on the unit's own new coordinates.
		if out.ScaledDim < 0 {
			return coll.Unit{}, false
		}
		out.Box[out.ScaledDim].Num *= k
		out.Scale = k
	}
	if u.nBuilt < len(u.built) {
		u.built[u.nBuilt] = builtUnit{d, k, m, out, nil}
		u.nBuilt++
	}
	return out, true
}

// scaled is base.Scaled(k), its box carved from the check's coordinates
// instead of a new array (Scaled words the errors).
func (u *unitEnv) scaled(base coll.Unit, k int) (coll.Unit, error) {
	if k < 1 || base.ScaledDim < 0 || unitFastOff {
		return base.Scaled(k)
	}
	v := base
	v.Box = u.syms(len(base.Box))
	copy(v.Box, base.Box)
	v.Box[base.ScaledDim].Num *= k
	if v.Scale == 0 {
		v.Scale = 1
	}
	v.Scale *= k
	return v, nil
}
