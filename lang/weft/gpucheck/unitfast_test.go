package gpucheck

import (
	"fmt"
	"math/rand"
	"sort"
	"testing"

	"weft.dev/weft/lang/weft/coll"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// withoutFast runs f with build's evaluation only (unitfast.go off).
func withoutFast(f func()) {
	unitFastOff = true
	defer func() { unitFastOff = false }()
	f()
}

// TestFastUnitsMatchBuild resolves every library unit (scaled by -1, 0,
// 1, 2, 3, commuted, twice; parameterized ones with arguments; the
// uniform writers' n * cuda_thread) on launch shapes from 1 thread up,
// in fresh environments, with the closed forms (unitfast.go) and
// without: the same unit (coordinates, name, scale) or error text. Most
// library units must compile.
func TestFastUnitsMatchBuild(t *testing.T) {
	l := lib.MustStd()
	f := &syntax.File{}
	var names []string
	for name := range l.Units {
		names = append(names, name)
	}
	sort.Strings(names)
	fast := 0
	for _, name := range names {
		if libUnits(l)[name].fast != nil {
			fast++
		}
	}
	if fast < 8 {
		t.Errorf("only %d of %d library units compiled", fast, len(names))
	}
	show := func(u coll.Unit, err error) string { return fmt.Sprintf("%#v %v", u, err) }
	compared := 0
	for _, bd := range []int{1, 2, 16, 32, 48, 64, 96, 128, 256, 384} {
		for _, cd := range []int{1, 2, 3, 4} {
			m := coll.Machine{BlockDim: bd, ClusterDim: cd}
			for _, name := range names {
				var n syntax.Expr = &syntax.Name{Name: name}
				if d := l.Units[name]; len(d.Params) > 0 {
					c := &syntax.Call{Fun: &syntax.Name{Name: name}}
					for i := range d.Params {
						c.Args = append(c.Args, &syntax.IntLit{Value: int64(1 + i)})
					}
					n = c
				}
				exprs := []syntax.Expr{n, &syntax.Binary{Op: "*", X: n, Y: &syntax.IntLit{Value: 4}}, scaled(2, scaled(2, n))}
				for _, k := range []int64{-1, 0, 1, 2, 3} {
					exprs = append(exprs, scaled(k, n))
				}
				for _, e := range exprs {
					c := &consts{}
					got := show(newUnitEnv(l, f, c).resolve(e, m))
					var want string
					withoutFast(func() { want = show(newUnitEnv(l, f, c).resolve(e, m)) })
					if got != want {
						t.Fatalf("%s for %+v: %s, build %s", exprString(e), m, got, want)
					}
					compared++
				}
			}
			for _, k := range []int64{-1, 0, 1, 2, 5, 32} {
				got := show(newUnitEnv(l, f, &consts{}).threads(k, m))
				var want string
				withoutFast(func() { want = show(newUnitEnv(l, f, &consts{}).threads(k, m)) })
				if got != want {
					t.Fatalf("threads(%d) for %+v: %s, build %s", k, m, got, want)
				}
				// threads is resolve of `k * cuda_thread`, after that
				// unit was resolved (its closed form built) or not.
				e := &syntax.Binary{Op: "*", X: &syntax.IntLit{Value: k}, Y: &syntax.Name{Name: "cuda_thread"}}
				if r := show(newUnitEnv(l, f, &consts{}).resolve(e, m)); got != r {
					t.Fatalf("threads(%d) for %+v: %s, resolve %s", k, m, got, r)
				}
				env := newUnitEnv(l, f, &consts{})
				env.resolve(e, m)
				if again := show(env.threads(k, m)); again != got {
					t.Fatalf("threads(%d) for %+v after resolve: %s, fresh %s", k, m, again, got)
				}
			}
		}
	}
	t.Logf("%d of %d library units compiled, %d resolutions compared", fast, len(names), compared)
}

// TestFastUnitsSynthetic compiles random unit declarations (coordinates
// of literals from -2 up, blockDim, clusterDim, the wildcard, a file
// constant, a parameter, products, quotients and sums of them; domains
// and boxes of different lengths) and builds each for random launch
// shapes with the closed form and with build's evaluation: the same
// unit or error text. Some must compile and some must not.
func TestFastUnitsSynthetic(t *testing.T) {
	r := rand.New(rand.NewSource(37))
	atom := func() syntax.Expr {
		switch r.Intn(7) {
		case 0:
			return &syntax.Name{Name: "blockDim"}
		case 1:
			return &syntax.Name{Name: "clusterDim"}
		case 2:
			return &syntax.Name{Name: "N"}
		case 3:
			return &syntax.Name{Name: "p"}
		}
		return &syntax.IntLit{Value: int64(r.Intn(40) - 2)}
	}
	coord := func(box bool) syntax.Expr {
		switch r.Intn(6) {
		case 0:
			if box {
				return &syntax.Name{Name: "_"}
			}
		case 1, 2:
			return &syntax.Binary{Op: []string{"*", "*", "*", "/", "+"}[r.Intn(5)], X: atom(), Y: atom()}
		}
		return atom()
	}
	c := &consts{}
	c.set("N", 8)
	c.set("blockDim", 3) // shadowed by the launch shape's
	compiled, declined, compared := 0, 0, 0
	for trial := 0; trial < 20000; trial++ {
		d := &unitDecl{name: "u", scale: r.Intn(4) - 1}
		for i := r.Intn(3) + r.Intn(2); i > 0; i-- {
			d.domain = append(d.domain, coord(false))
		}
		for i := len(d.domain) + r.Intn(5)/4 - r.Intn(9)/8; i > 0; i-- {
			d.box = append(d.box, coord(true))
		}
		var args []int64
		if r.Intn(4) == 0 {
			// A parameter that shadows the launch shape's blockDim,
			// with an argument, or without (as build never is).
			d.params = []string{"blockDim"}
			if r.Intn(2) == 0 {
				args = []int64{int64(r.Intn(5))}
			}
		}
		if d.fast = compileFast(d); d.fast != nil {
			compiled++
		} else {
			declined++
		}
		m := coll.Machine{BlockDim: []int{1, 2, 32, 48, 256}[r.Intn(5)], ClusterDim: 1 + r.Intn(3)}
		u := &unitEnv{c: c}
		got, gerr := u.build(d, args, m)
		var want coll.Unit
		var werr error
		withoutFast(func() { want, werr = (&unitEnv{c: c}).build(d, args, m) })
		if a, b := fmt.Sprintf("%#v %v", got, gerr), fmt.Sprintf("%#v %v", want, werr); a != b {
			t.Fatalf("trial %d: %s / %s for %+v: %s, build %s", trial, exprList(d.domain), exprList(d.box), m, a, b)
		}
		compared++
	}
	if compiled < 1000 || declined < 1000 {
		t.Errorf("compiled %d, declined %d", compiled, declined)
	}
	t.Logf("compiled %d, declined %d", compiled, declined)
}

func exprList(es []syntax.Expr) string {
	s := "["
	for i, e := range es {
		if i > 0 {
			s += ", "
		}
		s += exprString(e)
	}
	return s + "]"
}

// TestFastUnitsSwitch checks that the comparisons above compare two
// ways: a unit whose closed form deliberately disagrees with its
// expressions (domain 8, closed form 4) resolves to the closed form's
// unit, scaled or not, and to the expressions' with the closed forms
// off; a closed form that cannot be scaled gives build's error, again
// from the table of built units.
func TestFastUnitsSwitch(t *testing.T) {
	m := coll.Machine{BlockDim: 64, ClusterDim: 1}
	w := &unitDecl{name: "w", scale: 0, domain: []syntax.Expr{&syntax.IntLit{Value: 8}}, box: []syntax.Expr{&syntax.IntLit{Value: 1}}}
	w.fast = &fastUnit{domain: []fastCoord{{c: 4}}, box: []fastCoord{{c: 1}}}
	v := &unitDecl{name: "v", scale: -1, domain: w.domain, box: w.box, fast: w.fast}
	env := func() *unitEnv {
		return &unitEnv{c: &consts{}, decls: map[string]*unitDecl{"w": w, "v": v}}
	}
	n := &syntax.Name{Name: "w"}
	for _, e := range []syntax.Expr{n, scaled(2, n)} {
		u := env()
		for round := 0; round < 2; round++ {
			got, err := u.resolve(e, m)
			if err != nil || got.Domain[0].Num != 4 {
				t.Fatalf("%s round %d: %v %v, want the closed form's domain 4", exprString(e), round, got, err)
			}
		}
		var off coll.Unit
		withoutFast(func() { off, _ = env().resolve(e, m) })
		if off.Domain[0].Num != 8 {
			t.Fatalf("%s without closed forms: %v, want domain 8", exprString(e), off)
		}
	}
	u := env()
	for round := 0; round < 2; round++ {
		if _, err := u.resolve(scaled(2, &syntax.Name{Name: "v"}), m); err == nil {
			t.Fatalf("round %d: 2 * v scaled a unit that cannot be", round)
		}
	}
}
