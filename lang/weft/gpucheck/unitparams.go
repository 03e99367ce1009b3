package gpucheck

import (
	"weft.dev/weft/lang/weft/check"
	"weft.dev/weft/lang/weft/coll"
	"weft.dev/weft/lang/weft/syntax"
)

// The library's parameterized units in closed form (issue 13, stop 41).
//
// build evaluates a parameterized unit's coordinates (the strided units
// of units.weft: `blockDim / n3`, `n3`, `1`, `n2`) in an environment of
// the unit's parameters, blockDim and clusterDim, then the file's
// constants, by walking each expression and looking every name up: on
// shfl_xor (row 15) each of its three such resolutions (`2 *
// cuda_threads_strided(1, laneMask)`) took about 1.4 K instructions.
// A coordinate that is a literal, a parameter, blockDim or clusterDim,
// or one binary operation of two of them, is compiled once per library
// (libUnits, with the unit's unitDecl) to those atoms, and build takes
// its value from the arguments and the launch shape, with the same
// operation (check.ControlOp, as consts.eval applies it). The names
// resolve as build's environment resolves them: the parameters first,
// the last of a repeated name first, then clusterDim and blockDim; a
// coordinate naming anything else (a file's constant) or of another
// form is not compiled, and the unit is then built as before. Build's
// checks of each value (positive, else its error) are unchanged.
// TestFastUnitsMatchBuild and TestParamUnitsSynthetic compare the two.

// paramAtom is a literal (kind 0, its value), blockDim (1), clusterDim
// (2) or the parameter of index v (3).
type paramAtom struct {
	kind byte
	v    int64
}

// paramCoord is x, or x op y.
type paramCoord struct {
	x, y paramAtom
	op   string // "": x alone
}

// paramUnit is a parameterized unit's coordinates in closed form (a box
// coordinate `_` is build's to make: it is left zero here).
type paramUnit struct {
	domain, box []paramCoord
}

// compileParams is d's coordinates in closed form, or nil (d has no
// parameters, or a coordinate is not compiled).
func compileParams(d *unitDecl) *paramUnit {
	if len(d.params) == 0 || len(d.domain) == 0 || len(d.domain) != len(d.box) {
		return nil
	}
	p := &paramUnit{domain: make([]paramCoord, len(d.domain)), box: make([]paramCoord, len(d.box))}
	for i := range d.domain {
		var ok bool
		if p.domain[i], ok = compileParamCoord(d.domain[i], d.params); !ok {
			return nil
		}
		if n, isName := d.box[i].(*syntax.Name); isName && n.Name == "_" {
			continue // the wildcard (build)
		}
		if p.box[i], ok = compileParamCoord(d.box[i], d.params); !ok {
			return nil
		}
	}
	return p
}

// compileParamCoord is e as a paramCoord.
func compileParamCoord(e syntax.Expr, params []string) (paramCoord, bool) {
	if b, ok := e.(*syntax.Binary); ok {
		x, ok1 := compileParamAtom(b.X, params)
		y, ok2 := compileParamAtom(b.Y, params)
		return paramCoord{x: x, y: y, op: b.Op}, ok1 && ok2 && b.Op != ""
	}
	x, ok := compileParamAtom(e, params)
	return paramCoord{x: x}, ok
}

// compileParamAtom is e as a paramAtom.
func compileParamAtom(e syntax.Expr, params []string) (paramAtom, bool) {
	switch e := e.(type) {
	case *syntax.IntLit:
		return paramAtom{v: e.Value}, true
	case *syntax.Name:
		for i := len(params) - 1; i >= 0; i-- {
			if params[i] == e.Name {
				return paramAtom{kind: 3, v: int64(i)}, true
			}
		}
		switch e.Name {
		case "clusterDim":
			return paramAtom{kind: 2}, true
		case "blockDim":
			return paramAtom{kind: 1}, true
		}
	}
	return paramAtom{}, false
}

// value is a's value for m and the arguments args.
func (a paramAtom) value(m coll.Machine, args []int64) int64 {
	switch a.kind {
	case 1:
		return int64(m.BlockDim)
	case 2:
		return int64(m.ClusterDim)
	case 3:
		return args[a.v]
	}
	return a.v
}

// eval is c's value for m and args, as consts.eval computes the
// expression it was compiled from.
func (c paramCoord) eval(m coll.Machine, args []int64) (int64, bool) {
	x := c.x.value(m, args)
	if c.op == "" {
		return x, true
	}
	return check.ControlOp(c.op, x, c.y.value(m, args))
}
