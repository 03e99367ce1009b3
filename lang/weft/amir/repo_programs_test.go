package amir_test

import (
	"os"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/internal/testrepo"
	"weft.dev/weft/lang/weft/amir"
	"weft.dev/weft/lang/weft/check"
	"weft.dev/weft/lang/weft/gpucheck"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syncheck"
	"weft.dev/weft/lang/weft/syntax"
)

// forRepoPrograms converts every proc of the repository's .weft programs
// that the front end accepts (at the sizes of its first `# check:` line)
// and calls fn with each converted program; it returns the number of
// files read. The planners' differential tests (TestPlanQuickRepo,
// TestPlansAgreeRepo) share it.
func forRepoPrograms(t *testing.T, fn func(path, proc string, p *amir.Program)) int {
	t.Helper()
	files := testrepo.Files(t, "../../..", ".weft")
	l := lib.MustStd()
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var errs diag.List
		src := diag.NewFile(path, data)
		f := syntax.Parse(src, &errs)
		check.Check(f, l, &errs)
		var sizes map[string]int64
		if ds := syncheck.Directives(src, &errs); len(ds) > 0 {
			sizes = ds[0]
		}
		gpu := gpucheck.Check(f, gpucheck.Options{Lib: l, Sizes: sizes}, &errs)
		if errs.HasErrors() {
			continue
		}
		for _, d := range f.Decls {
			p, ok := d.(*syntax.Proc)
			if !ok || lib.IsInstr(p) {
				continue
			}
			var cerrs diag.List
			prog := syncheck.Convert(f, p, gpu, l, &cerrs)
			if cerrs.HasErrors() || prog == nil || prog.AMIR == nil {
				continue
			}
			fn(path, p.Name.Name, prog.AMIR)
		}
	}
	return len(files)
}
