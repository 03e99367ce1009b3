package lower_test

import (
	"os"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/prism/check"
	"weft.dev/weft/lang/prism/lower"
	"weft.dev/weft/lang/prism/syntax"
)

// The pipeline's phases on the H100 GEMM (seed 001 B.5). Parsing is the
// baseline: compare the others as ratios to it.
func benchSource(b *testing.B) []byte {
	src, err := os.ReadFile("../../../examples/prism/b5_hgemm.prism")
	if err != nil {
		b.Fatal(err)
	}
	return src
}

func BenchmarkParse(b *testing.B) {
	src := benchSource(b)
	for i := 0; i < b.N; i++ {
		syntax.Parse(diag.NewFile("b5.prism", src))
	}
}

func BenchmarkCheck(b *testing.B) {
	src := benchSource(b)
	f, _ := syntax.Parse(diag.NewFile("b5.prism", src))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var errs diag.List
		check.Check(f, &errs)
	}
}

func BenchmarkLower(b *testing.B) {
	src := benchSource(b)
	f, errs := syntax.Parse(diag.NewFile("b5.prism", src))
	info := check.Check(f, errs)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		lower.Lower(info, lower.Options{}, errs)
	}
}
