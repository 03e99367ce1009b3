package gpucheck

import (
	"fmt"
	"math/rand"
	"testing"

	"weft.dev/weft/lang/weft/coll"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// TestParamUnitsSynthetic compiles random parameterized unit
// declarations (parameters p and q, a repeated name, one named blockDim;
// coordinates of literals from -2 up, blockDim, clusterDim, the
// parameters, a file constant, the wildcard, one operation of two of
// them or nested ones, operators ControlOp does not take) and builds
// each for random arguments and launch shapes with the closed form
// (unitparams.go) and with build's evaluation: the same unit or error
// text. Some must compile and some must not.
func TestParamUnitsSynthetic(t *testing.T) {
	r := rand.New(rand.NewSource(41))
	atom := func() syntax.Expr {
		switch r.Intn(8) {
		case 0:
			return &syntax.Name{Name: "blockDim"}
		case 1:
			return &syntax.Name{Name: "clusterDim"}
		case 2:
			return &syntax.Name{Name: "N"}
		case 3:
			return &syntax.Name{Name: "p"}
		case 4:
			return &syntax.Name{Name: "q"}
		}
		return &syntax.IntLit{Value: int64(r.Intn(40) - 2)}
	}
	ops := []string{"*", "*", "/", "/", "//", "%", "+", "-", "**"}
	coord := func(box bool) syntax.Expr {
		switch r.Intn(8) {
		case 0:
			if box {
				return &syntax.Name{Name: "_"}
			}
		case 1, 2, 3:
			return &syntax.Binary{Op: ops[r.Intn(len(ops))], X: atom(), Y: atom()}
		case 4:
			if r.Intn(3) == 0 {
				return &syntax.Binary{Op: "*", X: atom(), Y: &syntax.Binary{Op: "/", X: atom(), Y: atom()}}
			}
		}
		return atom()
	}
	c := &consts{}
	c.set("N", 8)
	c.set("p", 5) // shadowed by the parameter
	compiled, declined := 0, 0
	for trial := 0; trial < 30000; trial++ {
		d := &unitDecl{name: "u", scale: r.Intn(4) - 1}
		d.params = [][]string{{"p"}, {"p", "q"}, {"q", "p"}, {"p", "p"}, {"blockDim", "p"}}[r.Intn(5)]
		for i := 1 + r.Intn(3); i > 0; i-- {
			d.domain = append(d.domain, coord(false))
		}
		for i := len(d.domain) - r.Intn(9)/8; i > 0; i-- {
			d.box = append(d.box, coord(true))
		}
		if d.fastP = compileParams(d); d.fastP != nil {
			compiled++
		} else {
			declined++
		}
		args := make([]int64, len(d.params))
		for i := range args {
			args[i] = int64(r.Intn(11) - 1)
		}
		m := coll.Machine{BlockDim: []int{1, 2, 32, 48, 256}[r.Intn(5)], ClusterDim: 1 + r.Intn(3)}
		got, gerr := (&unitEnv{c: c}).build(d, args, m)
		var want coll.Unit
		var werr error
		withoutFast(func() { want, werr = (&unitEnv{c: c}).build(d, args, m) })
		if a, b := fmt.Sprintf("%#v %v", got, gerr), fmt.Sprintf("%#v %v", want, werr); a != b {
			t.Fatalf("trial %d: params %v args %v: %s / %s for %+v: %s, build %s", trial, d.params, args, exprList(d.domain), exprList(d.box), m, a, b)
		}
	}
	if compiled < 3000 || declined < 3000 {
		t.Errorf("compiled %d, declined %d", compiled, declined)
	}
	t.Logf("compiled %d, declined %d", compiled, declined)
}

// TestParamUnitsSwitch checks that the comparison above compares two
// ways: a closed form that deliberately disagrees with its expressions
// (domain p, closed form 2 * p) gives its own unit, and the expressions'
// with the closed forms off; the library's parameterized units compile.
func TestParamUnitsSwitch(t *testing.T) {
	d := &unitDecl{name: "w", scale: 0, params: []string{"p"},
		domain: []syntax.Expr{&syntax.Name{Name: "p"}}, box: []syntax.Expr{&syntax.IntLit{Value: 1}}}
	d.fastP = &paramUnit{domain: []paramCoord{{x: paramAtom{v: 2}, y: paramAtom{kind: 3}, op: "*"}}, box: []paramCoord{{x: paramAtom{v: 1}}}}
	m := coll.Machine{BlockDim: 64, ClusterDim: 1}
	got, _ := (&unitEnv{c: &consts{}}).build(d, []int64{4}, m)
	var off coll.Unit
	withoutFast(func() { off, _ = (&unitEnv{c: &consts{}}).build(d, []int64{4}, m) })
	if got.Domain[0].Num != 8 || off.Domain[0].Num != 4 {
		t.Fatalf("closed form %v, expressions %v: want domains 8 and 4", got, off)
	}
	n := 0
	for name, ud := range libUnits(lib.MustStd()) {
		if len(ud.params) > 0 {
			if ud.fastP == nil {
				t.Errorf("library unit %s did not compile", name)
			}
			n++
		}
	}
	if n < 3 {
		t.Errorf("only %d parameterized library units", n)
	}
}
