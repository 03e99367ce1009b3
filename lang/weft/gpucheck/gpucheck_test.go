package gpucheck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"weft.dev/weft/lang/weft/internal/expect"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// TestData runs every chunk of testdata/*.weft through the collective
// analysis and checks the diagnostics against the `# ERROR` markers
// (code, line and column, message regexp). A chunk without markers must
// be accepted.
func TestData(t *testing.T) {
	l := lib.MustStd()
	files, _ := filepath.Glob("testdata/*.weft")
	if len(files) == 0 {
		t.Fatal("no testdata")
	}
	n := 0
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, chunk := range expect.Chunks(string(src)) {
			if strings.TrimSpace(chunk) == "" {
				continue
			}
			n++
			var errs diag.List
			f := syntax.Parse(diag.NewFile(file, []byte(chunk)), &errs)
			if errs.HasErrors() {
				t.Fatalf("%s: syntax errors:\n%s", file, expect.List(&errs))
			}
			Check(f, Options{Lib: l}, &errs)
			expect.Match(t, file, chunk, &errs)
		}
	}
	t.Logf("%d cases", n)
}

// FuzzCheck runs the collective analysis and the thread reports on
// arbitrary programs that parse: no input may make them panic.
func FuzzCheck(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.weft")
	for _, file := range files {
		src, _ := os.ReadFile(file)
		for _, c := range expect.Chunks(string(src)) {
			f.Add(c)
		}
	}
	l := lib.MustStd()
	f.Fuzz(func(t *testing.T, src string) {
		var errs diag.List
		file := syntax.Parse(diag.NewFile("fuzz.weft", []byte(src)), &errs)
		res := Check(file, Options{Lib: l}, &errs)
		var b strings.Builder
		res.WriteThreads(&b)
		res.WriteThreadsSVG(&b)
	})
}

// TestNoLibrary: without a library the analysis still runs (units and
// timelines are unknown, so it reports them) and never panics.
func TestNoLibrary(t *testing.T) {
	src := "@instr(tl=cuda_in_order, unit=cuda_warp, cuda=\"x\")\ndef g(a: f32):\n    a = 0.0\n\n\ndef f():\n    with CudaDeviceFunction(blockDim=64):\n        for t in cuda_tasks(0, 1):\n            for w in cuda_threads(0, 2, unit=cuda_warp):\n                pass\n"
	var errs diag.List
	f := syntax.Parse(diag.NewFile("t.weft", []byte(src)), &errs)
	Check(f, Options{}, &errs)
	if len(errs.Diags) != 1 || errs.Diags[0].Code != codeUnit {
		t.Fatalf("got %v", errs.Err())
	}
}
