package distmem

import (
	"fmt"
	"strings"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/gpucheck"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// genProgram builds a device function with blocks of 5 statements each:
// a distributed register allocation and a warp x thread nest that writes
// and reads it (the simple_dist pattern), so every analysis step runs on
// every block.
func genProgram(blocks int) string {
	var b strings.Builder
	b.WriteString("def big(A: f32[256] @ CudaGmemLinear):\n")
	b.WriteString("    with CudaDeviceFunction(blockDim=256):\n")
	b.WriteString("        for task in cuda_tasks(0, 1):\n")
	for i := 0; i < blocks; i++ {
		fmt.Fprintf(&b, "            x%d: f32[8, 32, 4] @ CudaRmem\n", i)
		b.WriteString("            for w in cuda_threads(0, 8, unit=cuda_warp):\n")
		b.WriteString("                for t in cuda_threads(0, 32):\n")
		fmt.Fprintf(&b, "                    x%d[w, t, 0] = A[w * 32 + t]\n", i)
		fmt.Fprintf(&b, "                    A[w * 32 + t] = x%d[w, t, 1]\n", i)
	}
	return b.String()
}

// BenchmarkCheck measures collective + distributed memory analysis on
// generated programs of growing size; ns/stmt stays flat when the
// analyses are linear in program size.
func BenchmarkCheck(b *testing.B) {
	l := lib.MustStd()
	for _, blocks := range []int{200, 800, 3200} {
		src := genProgram(blocks)
		var perrs diag.List
		f := syntax.Parse(diag.NewFile("big.weft", []byte(src)), &perrs)
		if perrs.HasErrors() {
			b.Fatal(perrs.Err())
		}
		stmts := 5 * blocks
		// Baseline: parsing the same program, so the analyses' cost reads
		// as a ratio that machine load does not change.
		b.Run(fmt.Sprintf("parse/stmts=%d", stmts), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				var errs diag.List
				syntax.Parse(diag.NewFile("big.weft", []byte(src)), &errs)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(stmts), "ns/stmt")
		})
		b.Run(fmt.Sprintf("check/stmts=%d", stmts), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				var errs diag.List
				g := gpucheck.Check(f, gpucheck.Options{Lib: l}, &errs)
				Check(g, &errs)
				if errs.HasErrors() {
					b.Fatal(errs.Err())
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(stmts), "ns/stmt")
		})
	}
}

// TestGeneratedProgram keeps the benchmark's program valid.
func TestGeneratedProgram(t *testing.T) {
	var errs diag.List
	f := syntax.Parse(diag.NewFile("big.weft", []byte(genProgram(20))), &errs)
	g := gpucheck.Check(f, gpucheck.Options{Lib: lib.MustStd()}, &errs)
	r := Check(g, &errs)
	if errs.HasErrors() {
		t.Fatal(errs.Err())
	}
	if len(r.Deductions) != 20 || r.Deductions[19].Chain() != "w: 256 -> 32, t: 32 -> 1" {
		t.Fatalf("%d deductions, last chain %q", len(r.Deductions), r.Deductions[len(r.Deductions)-1].Chain())
	}
}
