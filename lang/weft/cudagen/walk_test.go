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

// walkCase parses and checks text as weft check does before the build
// checker; ok is false when it does not parse.
func walkCase(l *lib.Library, name, text string) (f *syntax.File, prog *check.Program, gpu *gpucheck.Result, ok bool) {
	var perrs diag.List
	f = syntax.Parse(diag.NewFile(name, []byte(text)), &perrs)
	if perrs.HasErrors() {
		return nil, nil, nil, false
	}
	var cerrs diag.List
	prog = check.Check(f, l, &cerrs)
	gpu = gpucheck.Check(f, gpucheck.Options{Lib: l, Prog: prog}, &cerrs)
	return f, prog, gpu, true
}

// TestWalkCleanOnlyWhenClean is the differential test of the
// diagnostics-only walk (walk.go): wherever it answers that the generator
// reports nothing, a full generation (two passes, all text, as weft
// build runs it) and the CheckOnly pass without the walk report nothing,
// on every program and variant of the differential corpus (the repo's
// .weft files and their one-line deletions, stop 36's 4 683). It also
// counts the programs the walk answers for, which must include programs
// of each kind it accepts.
func TestWalkCleanOnlyWhenClean(t *testing.T) {
	l := lib.MustStd()
	variants, clean, answered := 0, 0, 0
	forEachProgramVariant(t, func(name, text string) {
		f, prog, gpu, ok := walkCase(l, name, text)
		if !ok {
			return
		}
		variants++
		walkOff = true
		pass := generateDiags(f, l, Options{CheckOnly: true, Prog: prog, GPU: gpu})
		walkOff = false
		if pass == "" {
			clean++
		}
		if !walkClean(f, l, gpu) {
			return
		}
		answered++
		if pass != "" {
			t.Errorf("%s: the walk answers clean; the CheckOnly pass reports\n%s", name, pass)
		}
		if full := generateDiags(f, l, Options{Prog: prog}); full != "" {
			t.Errorf("%s: the walk answers clean; a full build reports\n%s", name, full)
		}
	})
	t.Logf("%d programs and variants, %d clean, the walk answers for %d", variants, clean, answered)
	if variants < 1000 || answered < 200 {
		t.Errorf("the comparison exercised too little")
	}
}

// TestWalkAnswersRows: the walk answers for the benchmark rows it was made
// for (issue 13): a change that makes it fall back on them loses the
// stop's gain without failing the differential test.
func TestWalkAnswersRows(t *testing.T) {
	l := lib.MustStd()
	for _, path := range []string{"../../../bench/syncref/weft/per_cta_alloc.weft", "../../../examples/weft/exo/rmem_uniform.weft", "../../../examples/weft/exo/shfl_xor.weft"} {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f, _, gpu, ok := walkCase(l, path, string(src))
		if !ok || !walkClean(f, l, gpu) {
			t.Errorf("%s: the walk does not answer", path)
		}
	}
	empty := "@proc\ndef empty():\n    with CudaDeviceFunction(blockDim=32):\n        for task in cuda_tasks(0, 1):\n            for t in cuda_threads(0, 32, unit=cuda_thread):\n                pass\n"
	f, _, gpu, _ := walkCase(l, "empty.weft", empty)
	if !walkClean(f, l, gpu) {
		t.Errorf("empty kernel: the walk does not answer")
	}
}

// walkMutants are programs each of which makes the generator report one
// diagnostic on a construct the walk accepts, with the statement that
// does: the walk must fall back on each (TestWalkMutants).
var walkMutants = []struct{ name, text string }{
	// stripDist: W0910, the leading index is not the iterator.
	{"dist", `
@proc
def p():
    with CudaDeviceFunction(blockDim=256):
        for task in cuda_tasks(0, 1):
            r: f32[16, 16] @ CudaRmem
            for i in cuda_threads(0, 16, unit=16 * cuda_thread):
                for j in cuda_threads(0, 16, unit=cuda_thread):
                    r[0, j] = 1.0
`},
	// capture: W0909, a DRAM tensor read in device code.
	{"dram", `
@proc
def p(a: f32[16] @ DRAM):
    with CudaDeviceFunction(blockDim=32):
        for task in cuda_tasks(0, 1):
            for t in cuda_threads(0, 16, unit=cuda_thread):
                x: f32 @ CudaRmem
                x = a[t]
`},
	// threadBarrierTo: W0906, no barrier for 24 threads.
	{"fence", `
@proc
def p():
    with CudaDeviceFunction(blockDim=64):
        for task in cuda_tasks(0, 1):
            for t in cuda_threads(0, 2, unit=24 * cuda_thread):
                Fence(cuda_in_order, cuda_in_order)
`},
	// allocLen: W0903, SMEM with a dimension that is not a constant.
	{"smem", `
@proc
def p(n: size):
    with CudaDeviceFunction(blockDim=32):
        for task in cuda_tasks(0, 1):
            s: f32[n] @ CudaSmemLinear
            for t in cuda_threads(0, 32, unit=cuda_thread):
                pass
`},
	// exprCtx.name: W0901, a tensor used as a value.
	{"tensor", `
@proc
def p():
    with CudaDeviceFunction(blockDim=32):
        for task in cuda_tasks(0, 1):
            r: f32[32] @ CudaRmem
            for t in cuda_threads(0, 32, unit=cuda_thread):
                x: f32 @ CudaRmem
                x = r
`},
	// threadsLoop: W0904, a loop that does not start at 0.
	{"lo", `
@proc
def p():
    with CudaDeviceFunction(blockDim=32):
        for task in cuda_tasks(0, 1):
            for t in cuda_threads(1, 32, unit=cuda_thread):
                pass
`},
	// alloc: W0909, a GMEM scalar in CPU code.
	{"gmem", `
@proc
def p():
    x: f32 @ CudaGmemLinear
    with CudaDeviceFunction(blockDim=32):
        for task in cuda_tasks(0, 1):
            for t in cuda_threads(0, 32, unit=cuda_thread):
                pass
`},
}

// TestWalkMutants: each mutant makes the generator report (the mutant is
// live) and the walk fall back; and the walk answers for the program with
// the mutant's statement fixed (so the fallback is the guard's).
func TestWalkMutants(t *testing.T) {
	l := lib.MustStd()
	for _, m := range walkMutants {
		f, prog, gpu, ok := walkCase(l, m.name, strings.TrimPrefix(m.text, "\n"))
		if !ok {
			t.Fatalf("%s: does not parse", m.name)
		}
		full := generateDiags(f, l, Options{Prog: prog})
		if full == "" {
			t.Errorf("%s: the generator reports nothing (dead mutant)", m.name)
		}
		if walkClean(f, l, gpu) {
			t.Errorf("%s: the walk answers clean; the generator reports\n%s", m.name, full)
		}
	}
}
