package driver

import (
	"bytes"
	"os"
	"strings"
	"syscall"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/frontend"
	"weft.dev/weft/internal/gcpolicy"
	"weft.dev/weft/lang/weft/check"
	"weft.dev/weft/lang/weft/distmem"
	"weft.dev/weft/lang/weft/gpucheck"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// BenchmarkCheckPhases times the phases of `weft check` before the sync
// checker, one at a time, on WEFT_PHASE_FILE (default: the Sm90 split-K
// GEMM of examples/weft/exo) with the sizes of WEFT_PHASE_ARGS
// (space-separated NAME=VALUE): reading the file, parsing, the static
// checks, the collective checks (gpucheck), distributed memory, and the
// whole check for comparison (issue 13: the fixed cost of a check).
//
//	WEFT_PHASE_FILE=bench/syncref/weft/per_cta_alloc.weft go test -run '^$' -bench CheckPhases ./lang/weft/driver
func BenchmarkCheckPhases(b *testing.B) {
	gcpolicy.Set() // as weftime and the weft command run
	path := os.Getenv("WEFT_PHASE_FILE")
	if path == "" {
		path = "../../../examples/weft/exo/tk_split_gemm.weft"
	}
	var args []string
	if a := os.Getenv("WEFT_PHASE_ARGS"); a != "" {
		args = strings.Fields(a)
	}
	_, assigns := splitAssignments(args)
	env := &frontend.Env{Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}}
	sizes, ok := sizeArgs(env, assigns)
	if !ok {
		b.Fatal(env.Stderr)
	}
	l, err := lib.Std()
	if err != nil {
		b.Fatal(err)
	}
	var errs diag.List
	f, ok := parse(env, path, &errs)
	if !ok || errs.HasErrors() {
		b.Fatal(env.Stderr, errs.Err())
	}
	src, _ := frontend.ReadSource(env, path)
	prog := check.Lean(f, l, &errs)
	b.Run("read", func(b *testing.B) {
		b.ReportAllocs()
		t0 := cpuTime()
		for b.Loop() {
			frontend.ReadSource(env, path)
		}
		b.ReportMetric(float64(cpuTime()-t0)/float64(b.N), "cpu-ns/op")
	})
	b.Run("parse", func(b *testing.B) {
		b.ReportAllocs()
		t0 := cpuTime()
		for b.Loop() {
			src := diag.NewFile(src.Name, src.Src)
			var errs diag.List
			syntax.Parse(src, &errs)
		}
		b.ReportMetric(float64(cpuTime()-t0)/float64(b.N), "cpu-ns/op")
	})
	b.Run("check", func(b *testing.B) {
		b.ReportAllocs()
		t0 := cpuTime()
		for b.Loop() {
			var errs diag.List
			check.Lean(f, l, &errs) // as weft check
		}
		b.ReportMetric(float64(cpuTime()-t0)/float64(b.N), "cpu-ns/op")
	})
	var res *gpucheck.Result
	b.Run("gpucheck", func(b *testing.B) {
		b.ReportAllocs()
		t0 := cpuTime()
		for b.Loop() {
			var errs diag.List
			res = gpucheck.Check(f, gpucheck.Options{Lib: l, Sizes: sizes, Prog: prog}, &errs)
		}
		b.ReportMetric(float64(cpuTime()-t0)/float64(b.N), "cpu-ns/op")
	})
	b.Run("distmem", func(b *testing.B) {
		b.ReportAllocs()
		t0 := cpuTime()
		for b.Loop() {
			var errs diag.List
			distmem.Check(res, &errs)
		}
		b.ReportMetric(float64(cpuTime()-t0)/float64(b.N), "cpu-ns/op")
	})
	b.Run("whole", func(b *testing.B) {
		b.ReportAllocs()
		fe := frontend.ForExt(".weft")
		t0 := cpuTime()
		for b.Loop() {
			var out, errb bytes.Buffer
			env := &frontend.Env{Stdout: &out, Stderr: &errb, Stdin: bytes.NewReader(nil)}
			fe.Check(env, append([]string{"-q", path}, args...))
		}
		b.ReportMetric(float64(cpuTime()-t0)/float64(b.N), "cpu-ns/op")
	})
}

// cpuTime is the process's user plus system CPU time in nanoseconds, as
// weftime measures a check: on a loaded machine it is steadier than the
// wall-clock time a benchmark reports.
func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
