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

// TestPlansAgreeRepo converts every proc of the repository's .weft
// programs that the front end accepts (at the sizes of its first
// `# check:` line) and compares the planners with their stop-32
// references on each (amir.PlansAgree, plan_agree_test.go).
func TestPlansAgreeRepo(t *testing.T) {
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
	progs, loops, plans := 0, 0, 0
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
			n, r, err := amir.PlansAgree(prog.AMIR)
			if err != nil {
				t.Fatalf("%s, proc %s: %v", path, p.Name.Name, err)
			}
			progs++
			loops += n
			plans += r
		}
	}
	t.Logf("%d files, %d programs, %d loops, %d plans compared", len(files), progs, loops, plans)
	if progs < 50 || plans < 100 {
		t.Fatalf("weak coverage: %d programs, %d plans", progs, plans)
	}
}
