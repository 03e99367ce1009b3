package syncheck

import (
	"os"
	"strings"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/check"
	"weft.dev/weft/lang/weft/gpucheck"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// BenchmarkConvert is Convert alone (the front end and the collective
// analysis run once) on the small programs of issue 13's slow rows: the
// per-CTA allocation test, a three-ring mbarrier chunk, rmem_uniform,
// shfl_xor and tk_split_gemm,
// whose bug variants stop at their first hazard (Convert was a fifth of
// their whole check; docs/weft-sync.md, stop 27).
func BenchmarkConvert(b *testing.B) {
	for _, tc := range []struct {
		name, path string
		chunk      int
		sizes      map[string]int64
	}{
		{"per_cta_alloc", "../../../bench/syncref/weft/per_cta_alloc.weft", 0, map[string]int64{"NCTA": 1}},
		{"three_rings_1", "testdata/three_rings_exo.weft", 1, nil},
		{"rmem_uniform", "../../../examples/weft/exo/rmem_uniform.weft", 0, nil},
		{"shfl_xor", "../../../examples/weft/exo/shfl_xor.weft", 0, nil},
		{"tk_split_gemm", "../../../examples/weft/exo/tk_split_gemm.weft", 0, map[string]int64{"L": 1, "M": 1024, "N": 896, "S": 1, "K": 736}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			data, err := os.ReadFile(tc.path)
			if err != nil {
				b.Fatal(err)
			}
			src := string(data)
			if tc.chunk > 0 {
				src = strings.Split(src, "\n---\n")[tc.chunk-1]
			}
			l := lib.MustStd()
			var errs diag.List
			f := syntax.Parse(diag.NewFile(tc.name+".weft", []byte(src)), &errs)
			check.Check(f, l, &errs)
			gpu := gpucheck.Check(f, gpucheck.Options{Lib: l, Sizes: tc.sizes}, &errs)
			if errs.HasErrors() {
				b.Fatalf("%s: %v", tc.name, errs.Diags)
			}
			var p *syntax.Proc
			for _, d := range f.Decls {
				if q, ok := d.(*syntax.Proc); ok && !lib.IsInstr(q) && hasDevice(q.Body) {
					p = q
				}
			}
			b.ReportAllocs()
			b.ResetTimer()
			cpu0 := cpuSeconds()
			for i := 0; i < b.N; i++ {
				var errs diag.List
				Convert(f, p, gpu, l, &errs)
				if errs.HasErrors() {
					b.Fatal(errs.Diags)
				}
			}
			b.ReportMetric((cpuSeconds()-cpu0)*1e9/float64(b.N), "cpu-ns/op")
		})
	}
}
