package gpucheck

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"

	"weft.dev/weft/lang/weft/coll"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// scaled is the unit expression k * e.
func scaled(k int64, e syntax.Expr) syntax.Expr {
	return &syntax.Binary{Op: "*", X: &syntax.IntLit{Value: k}, Y: e}
}

// TestBuildOnceMatchesBuild checks unitEnv.buildOnce and scaledOnce (a
// parameterless unit built, and scaled, once per check and launch shape)
// against build and Scaled: on the repository's programs, every library
// unit, scaled by 2, 3 and 0, commuted and twice, resolved through one
// Result for several launch shapes, in two rounds (the second from the
// memo), equals the unit a fresh environment builds, error text included;
// and every cuda_threads iterator's unit is the one a fresh environment
// resolves for its loop.
func TestBuildOnceMatchesBuild(t *testing.T) {
	l := lib.MustStd()
	programs := checkedPrograms(t, l)
	if len(programs) < 50 {
		t.Fatalf("only %d programs", len(programs))
	}
	var names []string
	for name, d := range l.Units {
		if len(d.Params) == 0 {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	machines := []coll.Machine{{BlockDim: 256, ClusterDim: 1}, {BlockDim: 384, ClusterDim: 2}, {BlockDim: 32, ClusterDim: 1}, {BlockDim: 48, ClusterDim: 4}, {BlockDim: 128, ClusterDim: 1}}
	show := func(u coll.Unit, err error) string { return fmt.Sprintf("%#v %v", u, err) }
	compared := 0
	for _, c := range programs {
		path, f, r := c.path, c.file, c.res
		if len(r.Devices) == 0 {
			continue
		}
		for _, d := range r.Devices {
			for _, it := range d.Iters {
				var ue syntax.Expr = defaultUnit
				for _, k := range it.Loop.Kwargs {
					if k.Name.Name == "unit" {
						ue = k.Value
					}
				}
				want, _ := newUnitEnv(l, f, r.consts).resolve(ue, it.Parent.M)
				if !reflect.DeepEqual(it.Unit, want) {
					t.Errorf("%s: iterator %s's unit %#v, fresh %#v", path, it.Name, it.Unit, want)
				}
				compared++
			}
		}
		for round := 0; round < 2; round++ {
			for _, m := range machines {
				for _, name := range names {
					n := &syntax.Name{Name: name}
					for _, e := range []syntax.Expr{n, scaled(2, n), scaled(3, n), scaled(0, n), &syntax.Binary{Op: "*", X: n, Y: &syntax.IntLit{Value: 4}}, scaled(2, scaled(2, n))} {
						got := show(r.ResolveUnit(e, m))
						want := show(newUnitEnv(l, f, r.consts).resolve(e, m))
						if got != want {
							t.Fatalf("%s: %s for %+v, round %d: %s, fresh %s", path, exprString(e), m, round, got, want)
						}
						compared++
					}
				}
			}
		}
	}
	t.Logf("%d units compared", compared)
	if compared < 1000 || !strings.Contains(strings.Join(names, " "), "cuda_thread") {
		t.Errorf("the comparison exercised too little")
	}
}
