// Package testrepo lists the repository's own programs for the
// differential tests of several packages (amir's planners, syncheck's
// Src filter): every file with a given extension below the repository
// root, in WalkDir's lexical order, skipping .git and node_modules, and
// the Weft programs among them that the front end and the GPU checker
// accept. It is imported by tests only.
package testrepo

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/check"
	"weft.dev/weft/lang/weft/gpucheck"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// Files returns the paths below root whose extension is ext (".weft");
// a walk error fails the test.
func Files(t testing.TB, root, ext string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if !d.IsDir() && filepath.Ext(path) == ext {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// Checked is one repository program that the Weft front end and the GPU
// checker accept: its tree, the checker's result and its procs (the
// library's instruction procs left out).
type Checked struct {
	Path  string
	File  *syntax.File
	GPU   *gpucheck.Result
	Procs []*syntax.Proc
}

// WeftPrograms parses, checks and GPU-checks every .weft file below root
// at the sizes sizes gives it (syncheck.Directives' first `# check:`
// line, passed in because syncheck's own tests use this package), and
// returns those with no error, in Files' order, with the number of files
// read. A file that cannot be read fails the test.
func WeftPrograms(t testing.TB, root string, l *lib.Library, sizes func(*diag.File, *diag.List) []map[string]int64) ([]Checked, int) {
	t.Helper()
	files := Files(t, root, ".weft")
	var out []Checked
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var errs diag.List
		src := diag.NewFile(path, data)
		f := syntax.Parse(src, &errs)
		check.Check(f, l, &errs)
		var sz map[string]int64
		if ds := sizes(src, &errs); len(ds) > 0 {
			sz = ds[0]
		}
		gpu := gpucheck.Check(f, gpucheck.Options{Lib: l, Sizes: sz}, &errs)
		if errs.HasErrors() {
			continue
		}
		c := Checked{Path: path, File: f, GPU: gpu}
		for _, d := range f.Decls {
			if p, ok := d.(*syntax.Proc); ok && !lib.IsInstr(p) {
				c.Procs = append(c.Procs, p)
			}
		}
		out = append(out, c)
	}
	return out, len(files)
}
