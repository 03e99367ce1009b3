// Package testrepo lists the repository's own programs for the
// differential tests of several packages (amir's planners, syncheck's
// Src filter): every file with a given extension below the repository
// root, in WalkDir's lexical order, skipping .git and node_modules.
// It is imported by tests only.
package testrepo

import (
	"io/fs"
	"path/filepath"
	"testing"
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
