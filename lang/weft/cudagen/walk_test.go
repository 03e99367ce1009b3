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
	return walkCaseSizes(l, name, text, nil)
}

// walkCaseSizes is walkCase with NAME=VALUE sizes for the GPU checker.
func walkCaseSizes(l *lib.Library, name, text string, sizes map[string]int64) (f *syntax.File, prog *check.Program, gpu *gpucheck.Result, ok bool) {
	var perrs diag.List
	f = syntax.Parse(diag.NewFile(name, []byte(text)), &perrs)
	if perrs.HasErrors() {
		return nil, nil, nil, false
	}
	var cerrs diag.List
	prog = check.Check(f, l, &cerrs)
	gpu = gpucheck.Check(f, gpucheck.Options{Lib: l, Prog: prog, Sizes: sizes}, &cerrs)
	return f, prog, gpu, true
}

// TestWalkCleanOnlyWhenClean is the differential test of the
// diagnostics-only walk (walk.go): wherever it answers that the generator
// reports nothing, a full generation (two passes, all text, as weft
// build runs it) and the CheckOnly pass without the walk report nothing,
// on every program and variant of the differential corpus (the repo's
// .weft files and their one-line deletions, stop 36's 4 683). Each
// program is walked twice: with the GPU checker's result (its tilings
// shared) and with an empty one, where the walk and the pass derive
// every tiling themselves (the device functions whose launch shape the
// checker read from other sizes). It also counts the programs the walk
// answers for.
func TestWalkCleanOnlyWhenClean(t *testing.T) {
	l := lib.MustStd()
	variants, clean, answered, answeredOwn := 0, 0, 0, 0
	forEachProgramVariant(t, func(name, text string) {
		f, prog, gpu, ok := walkCase(l, name, text)
		if !ok {
			return
		}
		variants++
		var full string
		for i, g := range []*gpucheck.Result{gpu, {}} {
			walkOff = true
			pass := generateDiags(f, l, Options{CheckOnly: true, Prog: prog, GPU: g})
			walkOff = false
			if pass == "" && i == 0 {
				clean++
			}
			if !walkClean(f, l, g) {
				continue
			}
			if i == 0 {
				answered++
			} else {
				answeredOwn++
			}
			if pass != "" {
				t.Errorf("%s (%d): the walk answers clean; the CheckOnly pass reports\n%s", name, i, pass)
			}
			if full == "" {
				full = generateDiags(f, l, Options{Prog: prog})
			}
			if full != "" {
				t.Errorf("%s (%d): the walk answers clean; a full build reports\n%s", name, i, full)
			}
		}
	})
	t.Logf("%d programs and variants, %d clean, the walk answers for %d (%d deriving its tilings)", variants, clean, answered, answeredOwn)
	if variants < 1000 || answered < 500 || answeredOwn < 500 {
		t.Errorf("the comparison exercised too little")
	}
}

// TestWalkAnswersRows: the walk answers for the benchmark rows it was made
// for (issue 13): a change that makes it fall back on them loses the
// stop's gain without failing the differential test.
func TestWalkAnswersRows(t *testing.T) {
	l := lib.MustStd()
	for _, path := range []string{"../../../bench/syncref/weft/per_cta_alloc.weft", "../../../examples/weft/exo/rmem_uniform.weft", "../../../examples/weft/exo/shfl_xor.weft", "../../../examples/weft/exo/rmem_uniform_grid_constant.weft"} {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f, _, gpu, ok := walkCase(l, path, string(src))
		if !ok || !walkClean(f, l, gpu) {
			t.Errorf("%s: the walk does not answer", path)
		}
	}
	// per_cta_alloc's other rows (run.sh): NCTA=2 on the command line
	// (the generator reads the file's NCTA = 1: its own tilings), the
	// tile in swizzled SMEM.
	src, err := os.ReadFile("../../../bench/syncref/weft/per_cta_alloc.weft")
	if err != nil {
		t.Fatal(err)
	}
	for i, text := range []string{string(src), strings.ReplaceAll(string(src), "@ CudaSmemLinear", "@ Sm90_SmemSwizzled(128, )")} {
		for _, n := range []int64{1, 2} {
			f, _, gpu, ok := walkCaseSizes(l, "per_cta_alloc.weft", text, map[string]int64{"NCTA": n})
			if !ok || !walkClean(f, l, gpu) {
				t.Errorf("per_cta_alloc (%d) NCTA=%d: the walk does not answer", i, n)
			}
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
	// threadBarrierTo: W0906, no barrier for 48 threads.
	{"fence", `
@proc
def p():
    with CudaDeviceFunction(blockDim=96):
        for task in cuda_tasks(0, 1):
            for t in cuda_threads(0, 2, unit=48 * cuda_thread):
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

func init() {
	walkMutants = append(walkMutants, []struct{ name, text string }{
		// procGen.alloc: W0903, a grid constant whose size is not a
		// constant.
		{"gridconst", `
@proc
def p(n: size):
    c: f32[n] @ CudaGridConstant
    with CudaDeviceFunction(blockDim=32):
        for task in cuda_tasks(0, 1):
            for t in cuda_threads(0, 32, unit=cuda_thread):
                pass
`},
		// exprCtx.access in CPU code: W0909, GMEM read by the CPU.
		{"cpugmem", `
@proc
def p():
    d: f32[16] @ CudaGmemLinear
    x: f32 @ DRAM
    for i in seq(0, 16):
        x = d[i]
`},
		// launchShape's own configuration: W0905, a cluster that does
		// not fit (the GPU checker read another NCTA).
		{"cluster", `
NCTA = 17
@proc
def p():
    with CudaDeviceFunction(clusterDim=NCTA, blockDim=256):
        for task in cuda_tasks(0, 1):
            for t in cuda_threads(0, 256, unit=cuda_thread):
                pass
`},
		// instrCall: W0908, a one-thread instruction called by a warp.
		{"instrunit", `
@proc
def p(g: f16[4] @ CudaGmemLinear):
    with CudaDeviceFunction(blockDim=32):
        for task in cuda_tasks(0, 1):
            cuda_copy_f16(g[0], g[1])
`},
		// placeholderExpr: W0908, a template expression over a size that
		// is not a constant (the template is not plain).
		{"template", `
@proc
def p(n: size, g: f32[16] @ CudaGmemLinear):
    with CudaDeviceFunction(blockDim=32):
        for task in cuda_tasks(0, 1):
            s: f32[16] @ CudaSmemLinear
            for t in cuda_threads(0, 1, unit=cuda_thread):
                Sm80_cp_async_f32(n, s[0:4], g[0:4])
`},
	}...)
}

// TestWalkMutants: each mutant makes the generator report (the mutant is
// live) and the walk fall back, with the GPU checker's tilings and with
// its own. (Each of the walk's guards named above, weakened by hand,
// makes the walk answer clean on its mutant or on the corpus.)
func TestWalkMutants(t *testing.T) {
	l := lib.MustStd()
	for _, m := range walkMutants {
		f, prog, gpu, ok := walkCaseSizes(l, m.name, strings.TrimPrefix(m.text, "\n"), map[string]int64{"NCTA": 2})
		if !ok {
			t.Fatalf("%s: does not parse", m.name)
		}
		full := generateDiags(f, l, Options{Prog: prog})
		if full == "" {
			t.Errorf("%s: the generator reports nothing (dead mutant)", m.name)
		}
		for i, g := range []*gpucheck.Result{gpu, {}} {
			if walkClean(f, l, g) {
				t.Errorf("%s (%d): the walk answers clean; the generator reports\n%s", m.name, i, full)
			}
		}
	}
}

// TestWalkOwnStores: the walk's own derivations (threadsLoop without the
// checker's tilings) make a one-dimensional loop's tiling in the walk's
// stores (coll.CudaThreadsIn's one pass) and leave a unit of more levels
// (cuda_threads_strided's domain [blockDim, 1]) to the general
// derivation, the stores unused; the walk answers on both and the
// CheckOnly pass agrees (TestWalkCleanOnlyWhenClean compares the two on
// the whole corpus).
func TestWalkOwnStores(t *testing.T) {
	l := lib.MustStd()
	for _, c := range []struct {
		unit string
		used int
	}{{"cuda_thread", 2}, {"2 * cuda_threads_strided(1, 1)", 0}} {
		text := "@proc\ndef p():\n    with CudaDeviceFunction(blockDim=64):\n        for task in cuda_tasks(0, 1):\n" +
			"            for t in cuda_threads(0, 32, unit=" + c.unit + "):\n                pass\n" +
			"            for t in cuda_threads(0, 16, unit=" + c.unit + "):\n                pass\n"
		f, prog, _, ok := walkCase(l, "p.weft", text)
		if !ok {
			t.Fatalf("%s: does not parse", c.unit)
		}
		// With the tilings (a CTA's are Flats: TestWalkFlatSameAnswers).
		var w walker
		flatOff = true
		if !w.clean(f, l, &gpucheck.Result{}) {
			t.Errorf("%s: the walk does not answer", c.unit)
		}
		flatOff = false
		if w.nstores != c.used {
			t.Errorf("%s: %d loops' tilings in the walk's stores, want %d", c.unit, w.nstores, c.used)
		}
		walkOff = true
		pass := generateDiags(f, l, Options{CheckOnly: true, Prog: prog, GPU: &gpucheck.Result{}})
		walkOff = false
		if pass != "" {
			t.Errorf("%s: the walk answers clean; the pass reports\n%s", c.unit, pass)
		}
	}
}

// TestWalkDeviceProcSkipped: clean walks each proc before asking whether
// it is a device proc (deviceCode || proc, in the other order): a device
// proc, whose walk fails, is still skipped, and a CPU proc the walk does
// not accept still ends it, whichever comes first in the file.
func TestWalkDeviceProcSkipped(t *testing.T) {
	l := lib.MustStd()
	empty := "@proc\ndef empty():\n    with CudaDeviceFunction(blockDim=32):\n        for task in cuda_tasks(0, 1):\n            for t in cuda_threads(0, 32, unit=cuda_thread):\n                pass\n"
	dev := "@proc\ndef dev_helper(x: f32[32] @ CudaRmem):\n    for t in cuda_threads(0, 32, unit=cuda_thread):\n        pass\n"
	host := "@proc\ndef host_if(n: size):\n    if n > 0:\n        pass\n"
	// dev_helper is a device proc whose own walk fails (the case the
	// order matters for).
	if f, _, _, ok := walkCase(l, "dev.weft", dev); !ok {
		t.Fatal("dev_helper does not parse")
	} else {
		w := walker{l: l}
		p := f.Decls[0].(*syntax.Proc)
		if !w.deviceCode(p.Body) || w.proc(p) {
			t.Errorf("dev_helper: want a device proc whose walk fails")
		}
	}
	for _, tc := range []struct {
		text string
		want bool
	}{
		{empty, true},
		{empty + dev, true},
		{dev + empty, true},
		{dev, true},
		{host, false},
		{dev + host, false},
		{host + dev + empty, false},
	} {
		f, _, gpu, ok := walkCase(l, "devproc.weft", tc.text)
		if !ok {
			t.Fatalf("does not parse:\n%s", tc.text)
		}
		if got := walkClean(f, l, gpu); got != tc.want {
			t.Errorf("walkClean = %v, want %v:\n%s", got, tc.want, tc.text)
		}
	}
}

// walkAndPass parses and checks text (walkCase) and runs the CheckOnly
// pass on it without the walk: the file, the GPU checker's result and
// the pass's diagnostics.
func walkAndPass(t *testing.T, l *lib.Library, text string) (*syntax.File, *gpucheck.Result, string) {
	t.Helper()
	f, prog, gpu, ok := walkCase(l, "walk.weft", text)
	if !ok {
		t.Fatalf("does not parse:\n%s", text)
	}
	walkOff = true
	pass := generateDiags(f, l, Options{CheckOnly: true, Prog: prog, GPU: gpu})
	walkOff = false
	return f, gpu, pass
}

// TestWalkDefaultUnit: a loop without unit= shares the memo entry of
// unit=cuda_thread (unitMatches reads nil as that name), in either
// order, and the walk's answer is the CheckOnly pass's, where the
// default unit matches the checker's and where it does not (a loop of
// warps' lanes, whose cuda_thread default holds where a unit=cuda_warp
// loop's memo entry must not answer for it).
func TestWalkDefaultUnit(t *testing.T) {
	l := lib.MustStd()
	kernel := func(body string) string {
		return "@proc\ndef k():\n    with CudaDeviceFunction(blockDim=256):\n        for task in cuda_tasks(0, 1):\n" + body
	}
	for _, tc := range []struct {
		body   string
		nunits int
	}{
		{"            for g in cuda_threads(0, 256, unit=cuda_thread):\n                pass\n            for g in cuda_threads(0, 256):\n                pass\n", 1},
		{"            for g in cuda_threads(0, 256):\n                pass\n            for g in cuda_threads(0, 256, unit=cuda_thread):\n                pass\n", 1},
		{"            for g in cuda_threads(0, 256):\n                for t in cuda_threads(0, 1, unit=cuda_thread):\n                    pass\n", 1},
		{"            for g in cuda_threads(0, 8, unit=cuda_warp):\n                for t in cuda_threads(0, 32):\n                    pass\n", 2},
		{"            for g in cuda_threads(0, 8, unit=cuda_warp):\n                for t in cuda_threads(0, 32, unit=cuda_warp):\n                    pass\n", -1},
	} {
		text := kernel(tc.body)
		f, gpu, pass := walkAndPass(t, l, text)
		var w walker
		clean := w.clean(f, l, gpu)
		if clean && pass != "" {
			t.Errorf("the walk answers clean; the pass reports\n%s\n%s", pass, text)
		}
		if tc.nunits >= 0 && (!clean || w.nunits != tc.nunits) {
			t.Errorf("clean %v with %d units, want true with %d:\n%s", clean, w.nunits, tc.nunits, text)
		}
		if tc.nunits < 0 && clean {
			t.Errorf("the walk answers clean, want not:\n%s", text)
		}
	}
}

// TestWalkScalarAssign: devStmt's test of an assigned scalar name (its
// lookup and capture, without walking the name again as an expression)
// answers as the CheckOnly pass: a device scalar is clean, a CPU
// scalar in DRAM assigned in device code is not (capture).
func TestWalkScalarAssign(t *testing.T) {
	l := lib.MustStd()
	for _, tc := range []struct {
		decl string // the scalar's declaration, in CPU code or device code
		dev  bool
		want bool
	}{
		{"x: f32 @ CudaRmemLinear", true, true},
		{"x: f32 @ DRAM", false, false},
	} {
		text := "@proc\ndef k():\n"
		if !tc.dev {
			text += "    " + tc.decl + "\n"
		}
		text += "    with CudaDeviceFunction(blockDim=32):\n        for task in cuda_tasks(0, 1):\n            for t in cuda_threads(0, 32, unit=cuda_thread):\n"
		if tc.dev {
			text += "                " + tc.decl + "\n"
		}
		text += "                x = 1.0\n"
		f, gpu, pass := walkAndPass(t, l, text)
		got := walkClean(f, l, gpu)
		if got != tc.want || got && pass != "" || !tc.want && pass == "" {
			t.Errorf("walkClean = %v (want %v), the pass reports %q:\n%s", got, tc.want, pass, text)
		}
	}
}

// TestWalkMemory: the walk's memory is the library's table, whether it
// answers from its last answer (the same name again) or looks the name
// up (another name, one of no memory).
func TestWalkMemory(t *testing.T) {
	l := lib.MustStd()
	w := walker{l: l}
	for _, name := range []string{"DRAM", "DRAM", "CudaRmem", "nosuchmemory", "nosuchmemory", "DRAM", "CudaSmemLinear", "CudaRmem"} {
		if got, want := w.memory(name), l.Memories[name]; got != want {
			t.Errorf("memory(%q) = %p, want %p", name, got, want)
		}
	}
}
