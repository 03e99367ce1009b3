package amir_test

import (
	"os"
	"path/filepath"
	"testing"

	"weft.dev/weft/diag"
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
	var files []string
	err := filepath.WalkDir("../../..", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if !d.IsDir() && filepath.Ext(path) == ".weft" {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
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
