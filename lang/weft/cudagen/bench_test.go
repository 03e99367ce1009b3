package cudagen

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

// The code generator's cost is measured against parsing the same file (the
// baseline every verb pays): go test -bench . -run XXX ./lang/weft/cudagen
// prints both, and docs/weft-codegen.md records the ratio.
func benchFiles(b *testing.B) map[string][]byte {
	out := map[string][]byte{}
	for _, p := range []string{"../../../examples/weft/gemm/xgemm_sm80.weft", "../../../examples/weft/gemm/xgemm_sm90.weft"} {
		src, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		out[p] = src
	}
	return out
}

func BenchmarkParseBaseline(b *testing.B) {
	files := benchFiles(b)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		for p, src := range files {
			var errs diag.List
			syntax.Parse(diag.NewFile(p, src), &errs)
		}
	}
}

func BenchmarkGenerate(b *testing.B) {
	files := benchFiles(b)
	l := lib.MustStd()
	parsed := map[string]*syntax.File{}
	for p, src := range files {
		var errs diag.List
		parsed[p] = syntax.Parse(diag.NewFile(p, src), &errs)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, f := range parsed {
			var errs diag.List
			Generate(f, l, Options{Harness: true}, &errs)
			if errs.HasErrors() {
				b.Fatal(errs.Err())
			}
		}
	}
}

// BenchmarkCheckOnly is the generator as weft check runs it (the build
// checker: Options.CheckOnly, the checked Program given) on the small
// programs of bench/syncref's tiny rows and on a GEMM (issue 13).
func BenchmarkCheckOnly(b *testing.B) {
	l := lib.MustStd()
	for _, c := range []struct{ name, path string }{
		{"per_cta_alloc", "../../../bench/syncref/weft/per_cta_alloc.weft"},
		{"three_rings_1", "../syncheck/testdata/three_rings_exo.weft"},
		{"rmem_uniform", "../../../examples/weft/exo/rmem_uniform.weft"},
		{"shfl_xor", "../../../examples/weft/exo/shfl_xor.weft"},
		{"tk_split_gemm", "../../../examples/weft/exo/tk_split_gemm.weft"},
	} {
		src, err := os.ReadFile(c.path)
		if err != nil {
			b.Fatal(err)
		}
		src = []byte(strings.Split(string(src), "\n---\n")[0]) // a chunked file's first program
		var errs diag.List
		f := syntax.Parse(diag.NewFile(c.path, src), &errs)
		prog := check.Check(f, l, &errs)
		if errs.HasErrors() {
			b.Fatalf("%s: %v", c.name, errs.Err())
		}
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			cpu0 := cpuSeconds()
			for i := 0; i < b.N; i++ {
				var errs diag.List
				Generate(f, l, Options{CheckOnly: true, Prog: prog}, &errs)
				if errs.HasErrors() {
					b.Fatal(errs.Err())
				}
			}
			// CPU time per op: the machine may be shared (stop 28).
			b.ReportMetric((cpuSeconds()-cpu0)*1e9/float64(b.N), "cpu-ns/op")
		})
		// Each part alone: the GPU checker, and the generator given the
		// checker's result computed once (issue 13, stop 31: the split).
		b.Run(c.name+"/gpucheck", func(b *testing.B) {
			b.ReportAllocs()
			cpu0 := cpuSeconds()
			for i := 0; i < b.N; i++ {
				var errs diag.List
				gpucheck.Check(f, gpucheck.Options{Lib: l, Prog: prog}, &errs)
				if errs.HasErrors() {
					b.Fatal(errs.Err())
				}
			}
			b.ReportMetric((cpuSeconds()-cpu0)*1e9/float64(b.N), "cpu-ns/op")
		})
		b.Run(c.name+"/given", func(b *testing.B) {
			var errs diag.List
			gpu := gpucheck.Check(f, gpucheck.Options{Lib: l, Prog: prog}, &errs)
			b.ReportAllocs()
			cpu0 := cpuSeconds()
			for i := 0; i < b.N; i++ {
				var errs diag.List
				Generate(f, l, Options{CheckOnly: true, Prog: prog, GPU: gpu}, &errs)
				if errs.HasErrors() {
					b.Fatal(errs.Err())
				}
			}
			b.ReportMetric((cpuSeconds()-cpu0)*1e9/float64(b.N), "cpu-ns/op")
		})
		// The GPU checker and the generator, as weft check runs them: the
		// generator deriving its tilings again, or taking the checker's
		// (Options.GPU, shared.go; issue 13, stop 30).
		for _, shared := range []bool{false, true} {
			name := c.name + "/gpucheck+derived"
			if shared {
				name = c.name + "/gpucheck+shared"
			}
			b.Run(name, func(b *testing.B) {
				b.ReportAllocs()
				cpu0 := cpuSeconds()
				for i := 0; i < b.N; i++ {
					var errs diag.List
					gpu := gpucheck.Check(f, gpucheck.Options{Lib: l, Prog: prog}, &errs)
					opt := Options{CheckOnly: true, Prog: prog}
					if shared {
						opt.GPU = gpu
					}
					Generate(f, l, opt, &errs)
					if errs.HasErrors() {
						b.Fatal(errs.Err())
					}
				}
				b.ReportMetric((cpuSeconds()-cpu0)*1e9/float64(b.N), "cpu-ns/op")
			})
		}
	}
}
