package syntax

import (
	"os"
	"testing"

	"weft.dev/weft/diag"
)

// BenchmarkParseSmall parses a small kernel (the three-ring mbarrier
// program of the sync checker's testdata, about 9 KB): parsing is part of
// the fixed cost of every `weft check` (issue 13).
func BenchmarkParseSmall(b *testing.B) {
	src, err := os.ReadFile("../syncheck/testdata/three_rings_exo.weft")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		var errs diag.List
		Parse(diag.NewFile("three_rings_exo.weft", src), &errs)
	}
}
