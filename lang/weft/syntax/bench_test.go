package syntax

import (
	"os"
	"testing"

	"weft.dev/weft/diag"
)

// BenchmarkParseSmall parses a small kernel (the Sm90 split-K GEMM of
// examples/weft/exo, 9 KB): parsing is part of the fixed cost of every
// `weft check` (issue 13), a quarter of it for this program's bug
// variants in bench/syncref.
func BenchmarkParseSmall(b *testing.B) {
	src, err := os.ReadFile("../../../examples/weft/exo/tk_split_gemm.weft")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		var errs diag.List
		Parse(diag.NewFile("tk_split_gemm.weft", src), &errs)
		if errs.HasErrors() {
			b.Fatal(errs.Err())
		}
	}
}
