package pyscan

import (
	"os"
	"syscall"
	"testing"

	"weft.dev/weft/diag"
)

// BenchmarkToks scans a small kernel (the Sm90 split-K GEMM of
// examples/weft/exo, 9 KB): scanning is part of the fixed cost of every
// `weft check` (issue 13).
func BenchmarkToks(b *testing.B) {
	src, err := os.ReadFile("../examples/weft/exo/tk_split_gemm.weft")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	n := 0
	t0 := cpuTime()
	for b.Loop() {
		toks := New(diag.NewFile("tk_split_gemm.weft", src), nil).Toks()
		n = len(toks)
	}
	b.ReportMetric(float64(cpuTime()-t0)/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(n), "tokens")
}

// cpuTime is the process's CPU time in nanoseconds: on a loaded machine
// steadier than the wall-clock time a benchmark reports.
func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
