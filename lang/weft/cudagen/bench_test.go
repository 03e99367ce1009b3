package cudagen

import (
	"os"
	"testing"

	"weft.dev/weft/diag"
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
