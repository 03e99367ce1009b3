package sem_test

import (
	"io"
	"runtime"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/cudac/sem"
)

// heapAfter runs prog and returns the live heap it leaves, the machine still
// held, in bytes above what was live before.
func heapAfter(b *testing.B, prog *sem.Program, check bool) float64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	var diags diag.List
	m := sem.NewMachine(prog, sem.Options{Stdout: io.Discard, Check: check}, &diags)
	m.Run()
	if diags.HasErrors() {
		b.Fatalf("%v", diags.Diags)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(m)
	return float64(after.HeapAlloc) - float64(before.HeapAlloc)
}

// BenchmarkShadowMemory measures the race checker's memory: 16 MB of global
// memory (a 2M-int input written by cudaMemset and read by 65536 threads, and
// an output they write) and an 8 MB host buffer written by the copy back.
// Every one of those 24 MB is touched. The run without checking is the
// baseline in the same run; B/tracked-B is the difference per touched byte.
func BenchmarkShadowMemory(b *testing.B) {
	const tracked = 3 << 23
	prog := loadExample(b, "testdata/bench/big.cu")
	var run, check float64
	for i := 0; i < b.N; i++ {
		run = heapAfter(b, prog, false)
		check = heapAfter(b, prog, true)
	}
	b.ReportMetric(run/(1<<20), "MB-run")
	b.ReportMetric(check/(1<<20), "MB-check")
	b.ReportMetric((check-run)/tracked, "B/tracked-B")
}
