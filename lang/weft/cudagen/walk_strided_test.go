package cudagen

import (
	"reflect"
	"testing"

	"weft.dev/weft/lang/weft/coll"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// TestThreadsStridedIn: unitQuick's strided unit (threadsStridedIn,
// stridedArgs, isStridedName) is coll.StridedUnit's: the same
// coordinates, scaled dimension and scale, the same name, and the same
// arguments rejected.
func TestThreadsStridedIn(t *testing.T) {
	w := &walker{l: lib.MustStd()}
	for n2 := -1; n2 <= 9; n2++ {
		for n3 := -1; n3 <= 9; n3++ {
			c := &syntax.Call{Fun: &syntax.Name{Name: "cuda_threads_strided"},
				Args: []syntax.Expr{&syntax.IntLit{Value: int64(n2)}, &syntax.IntLit{Value: int64(n3)}}}
			want, err := coll.StridedUnit("cuda_threads_strided", []int{n2, n3})
			a, b, ok := w.stridedArgs(c)
			if ok != (err == nil) {
				t.Errorf("(%d, %d): stridedArgs ok %v; StridedUnit: %v", n2, n3, ok, err)
				continue
			}
			if !ok {
				continue
			}
			var syms [4]coll.Sym
			got := threadsStridedIn(a, b, &syms)
			if !isStridedName(want.Name, a, b) || isStridedName(want.Name+"x", a, b) {
				t.Errorf("(%d, %d): isStridedName does not take %q alone", n2, n3, want.Name)
			}
			got.Name = want.Name
			if !reflect.DeepEqual(got, want) {
				t.Errorf("(%d, %d): threadsStridedIn = %+v, StridedUnit = %+v", n2, n3, got, want)
			}
		}
	}
	for _, c := range []*syntax.Call{
		{Fun: &syntax.Name{Name: "cuda_cta_in_cluster_strided"}, Args: []syntax.Expr{&syntax.IntLit{Value: 2}}},
		{Fun: &syntax.Name{Name: "cuda_threads_strided"}, Args: []syntax.Expr{&syntax.IntLit{Value: 1}}},
		{Fun: &syntax.Name{Name: "cuda_threads_strided"}, Args: []syntax.Expr{&syntax.IntLit{Value: 1}, &syntax.Name{Name: "x"}}},
	} {
		if _, _, ok := w.stridedArgs(c); ok {
			t.Errorf("stridedArgs takes %s", syntaxString(c))
		}
	}
}
