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

// checkSource runs the front end, the collective analysis and the sync
// check over one source text.
func checkSource(t testing.TB, name, src string, opts Options) (*diag.List, []*Run) {
	l := lib.MustStd()
	var errs diag.List
	f := syntax.Parse(diag.NewFile(name, []byte(src)), &errs)
	if errs.HasErrors() {
		t.Fatalf("%s: syntax errors:\n%s", name, expect.List(&errs))
	}
	check.Check(f, l, &errs)
	if errs.HasErrors() {
		t.Fatalf("%s: check errors:\n%s", name, expect.List(&errs))
	}
	gpu := gpucheck.Check(f, gpucheck.Options{Lib: l, Sizes: opts.Sizes}, &errs)
	if strings.Contains(src, "# allow W0405") {
		// gpucheck counts a proc call's window arguments as CPU reads
		// of GPU memory (W0405); the inlining tests pass windows of GMEM.
		var kept diag.List
		for _, d := range errs.Diags {
			if d.Code != "W0405" {
				kept.Add(d)
			}
		}
		errs = kept
	}
	if errs.HasErrors() {
		t.Fatalf("%s: gpucheck errors:\n%s", name, expect.List(&errs))
	}
	runs := Check(f, gpu, l, opts, &errs)
	return &errs, runs
}

// checkSourceProgram converts the first proc with a device function.
func checkSourceProgram(t testing.TB, name, src string, use func(*Program)) {
	l := lib.MustStd()
	var errs diag.List
	f := syntax.Parse(diag.NewFile(name, []byte(src)), &errs)
	check.Check(f, l, &errs)
	gpu := gpucheck.Check(f, gpucheck.Options{Lib: l}, &errs)
	if errs.HasErrors() {
		t.Fatalf("%s:\n%s", name, expect.List(&errs))
	}
	for _, d := range f.Decls {
		if p, ok := d.(*syntax.Proc); ok && !lib.IsInstr(p) && hasDevice(p.Body) {
			use(Convert(f, p, gpu, l, &errs))
			return
		}
	}
	t.Fatalf("%s: no proc with a device function", name)
}

var mutantsAccepted int

// TestData checks every chunk of testdata/*.weft against its markers; a
// chunk without markers must be accepted.
func TestData(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.weft")
	if len(files) == 0 {
		t.Fatal("no testdata")
	}
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, chunk := range expect.Chunks(string(src)) {
			if strings.TrimSpace(chunk) == "" {
				continue
			}
			// Accepted chunks are mutation-tested: --redundant-sync removes
			// each sync statement in turn and any removal that creates no
			// hazard must be marked (WARN W0630).
			errs, runs := checkSource(t, file, chunk, Options{MaxHazards: 10, RedundantSync: true})
			expect.Match(t, file, chunk, errs)
			for _, r := range runs {
				if r.Result.OK() {
					mutantsAccepted += len(r.Redundant)
				}
			}
		}
	}
}
