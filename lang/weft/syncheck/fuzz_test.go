package syncheck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"weft.dev/weft/lang/weft/internal/expect"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/check"
	"weft.dev/weft/lang/weft/gpucheck"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// FuzzSyncCheck runs the whole pipeline up to the sync check on arbitrary
// source: whatever the input, the checker reports diagnostics and never
// panics. Seeds are the testdata chunks and the examples.
func FuzzSyncCheck(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.weft")
	more, _ := filepath.Glob(filepath.Join(examplesDir, "sync", "*.weft"))
	for _, file := range append(files, more...) {
		src, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for _, c := range expect.Chunks(string(src)) {
			f.Add(c)
		}
	}
	l := lib.MustStd()
	f.Fuzz(func(t *testing.T, src string) {
		var errs diag.List
		file := syntax.Parse(diag.NewFile("fuzz.weft", []byte(src)), &errs)
		if errs.HasErrors() {
			return
		}
		check.Check(file, l, &errs)
		if errs.HasErrors() {
			return
		}
		sizes := map[string]int64{"N": 128, "M": 192, "K": 32}
		gpu := gpucheck.Check(file, gpucheck.Options{Lib: l, Sizes: sizes}, &errs)
		if errs.HasErrors() {
			return
		}
		Check(file, gpu, l, Options{Sizes: sizes, MaxMemOps: 200000, RedundantSync: strings.Contains(src, "Fence")}, &errs)
		for _, d := range errs.Diags {
			if !d.Pos.IsValid() {
				t.Errorf("diagnostic without a position: %s", d.Message)
			}
		}
	})
}
