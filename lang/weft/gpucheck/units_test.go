package gpucheck

import (
	"fmt"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/coll"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// TestLibraryUnitsMatchFig11 checks that the units of lib/units.weft, as
// this package evaluates them, resolve exactly like coll's built-in
// definitions of seed 000 Fig. 11, on every launch shape, scaled or not.
func TestLibraryUnitsMatchFig11(t *testing.T) {
	l := lib.MustStd()
	var errs diag.List
	f := syntax.Parse(diag.NewFile("u.weft", []byte("x = 1\n")), &errs)
	u := newUnitEnv(l, f, &consts{vals: map[string]int64{}})
	cases := []struct {
		expr string
		want func(k int) (coll.Unit, error)
	}{
		{"cuda_thread", func(k int) (coll.Unit, error) { return scale(coll.CudaThread, k) }},
		{"cuda_warp", func(k int) (coll.Unit, error) { return scale(coll.CudaWarp, k) }},
		{"cuda_warpgroup", func(k int) (coll.Unit, error) { return scale(coll.CudaWarpgroup, k) }},
		{"cuda_quadpair", func(k int) (coll.Unit, error) { return scale(coll.CudaQuadpair, k) }},
		{"cuda_cta_in_cluster", func(k int) (coll.Unit, error) { return scale(coll.CudaCtaInCluster, k) }},
		{"cuda_warp_in_cluster", func(k int) (coll.Unit, error) { return scale(coll.CudaWarpInCluster, k) }},
		{"cuda_cluster", func(k int) (coll.Unit, error) { return scale(coll.CudaCluster, k) }},
		{"standalone_thread", func(k int) (coll.Unit, error) { return scale(coll.StandaloneThread, k) }},
		{"cuda_agnostic_sub_cta", func(k int) (coll.Unit, error) { return scale(coll.CudaAgnosticSubCta, k) }},
		{"cuda_agnostic_intact_cta", func(k int) (coll.Unit, error) { return scale(coll.CudaAgnosticIntactCta, k) }},
		{"cuda_threads_strided(2, 8)", func(k int) (coll.Unit, error) { return scale(coll.ThreadsStrided(2, 8), k) }},
		{"cuda_cta_in_cluster_strided(2)", func(k int) (coll.Unit, error) { return scale(coll.CtaInClusterStrided(2), k) }},
		{"cuda_warp_in_cluster_strided(2)", func(k int) (coll.Unit, error) { return scale(coll.WarpInClusterStrided(2), k) }},
	}
	n := 0
	for _, c := range cases {
		for _, k := range []int{1, 2, 4} {
			src := c.expr
			if k > 1 {
				src = fmt.Sprintf("%d * %s", k, c.expr)
			}
			var perrs diag.List
			pf := syntax.Parse(diag.NewFile("e.weft", []byte("x = "+src+"\n")), &perrs)
			if perrs.HasErrors() {
				t.Fatal(perrs.Err())
			}
			e := pf.Decls[0].(*syntax.Global).Values[0]
			for _, bd := range []int{32, 64, 128, 256, 384, 1024} {
				for _, cd := range []int{1, 2, 4, 8} {
					m := coll.Machine{BlockDim: bd, ClusterDim: cd}
					// Either may fail at either step (the library unit is
					// evaluated for m at once, coll's is symbolic until
					// Resolve): compare the outcome.
					var wd, wb, gd, gb []int
					want, werr := c.want(k)
					if werr == nil {
						wd, wb, werr = want.Resolve(m)
					}
					got, gerr := u.resolve(e, m)
					if gerr == nil {
						gd, gb, gerr = got.Resolve(m)
					}
					if (werr != nil) != (gerr != nil) {
						t.Errorf("%s on %+v: library unit resolves with %v, Fig. 11 with %v", src, m, gerr, werr)
						continue
					}
					if werr == nil && (fmt.Sprint(wd) != fmt.Sprint(gd) || fmt.Sprint(wb) != fmt.Sprint(gb)) {
						t.Errorf("%s on %+v: domain %v box %v, Fig. 11 says %v %v", src, m, gd, gb, wd, wb)
					}
					n++
				}
			}
		}
	}
	t.Logf("%d unit resolutions compared", n)
}

func scale(u coll.Unit, k int) (coll.Unit, error) {
	if k == 1 {
		return u, nil
	}
	return u.Scaled(k)
}
