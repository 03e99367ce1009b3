package gpucheck

import (
	"fmt"
	"sort"
	"testing"

	"weft.dev/weft/lang/weft/coll"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// TestParamOnceMatchesBuild checks unitEnv.paramOnce (a parameterized
// unit built once per check, launch shape and argument list) against a
// fresh environment's build: on the repository's programs, every
// parameterized library unit with several argument lists (errors among
// them: zero, negative, too many), scaled or not, for several launch
// shapes, resolved through one Result in two rounds (the second from the
// memo where it holds them, built again past its room), equals the unit
// a fresh environment resolves, error text included.
func TestParamOnceMatchesBuild(t *testing.T) {
	l := lib.MustStd()
	var names []string
	for name, d := range l.Units {
		if len(d.Params) > 0 {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	if len(names) < 3 {
		t.Fatalf("only %d parameterized units", len(names))
	}
	machines := []coll.Machine{{BlockDim: 256, ClusterDim: 1}, {BlockDim: 384, ClusterDim: 2}, {BlockDim: 64, ClusterDim: 4}}
	argLists := [][]int64{{1, 2}, {2, 4}, {1}, {4}, {0, 2}, {1, -2}, {2}, {1, 2, 3}, {8, 16}, {1, 2, 3, 4, 5}}
	show := func(u coll.Unit, err error) string { return fmt.Sprintf("%#v %v", u, err) }
	compared, memoized := 0, 0
	for _, c := range checkedPrograms(t, l) {
		f, r := c.file, c.res
		for round := 0; round < 2; round++ {
			for _, m := range machines {
				for _, name := range names {
					for _, args := range argLists {
						call := &syntax.Call{Fun: &syntax.Name{Name: name}}
						for _, a := range args {
							call.Args = append(call.Args, &syntax.IntLit{Value: a})
						}
						for _, e := range []syntax.Expr{call, scaled(2, call), scaled(2, call)} {
							got := show(r.ResolveUnit(e, m))
							want := show(newUnitEnv(l, f, r.consts).resolve(e, m))
							if got != want {
								t.Fatalf("%s: %s for %+v, round %d: %s, fresh %s", c.path, exprString(e), m, round, got, want)
							}
							compared++
						}
					}
				}
			}
		}
		if r.units.nParams == len(r.units.params) {
			memoized++
		}
	}
	t.Logf("%d units compared, %d checks with a full memo", compared, memoized)
	if compared < 10000 || memoized < 50 {
		t.Errorf("the comparison exercised too little")
	}
}
