package lower_test

import (
	"os"
	"path/filepath"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/prism/check"
	"weft.dev/weft/lang/prism/syntax"
)

func load(t *testing.T, path string) (*check.Info, *diag.List) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, errs := syntax.Parse(diag.NewFile(filepath.Base(path), data))
	if errs.HasErrors() {
		t.Fatalf("%s: %v", path, errs.Err())
	}
	info := check.Check(f, errs)
	if errs.HasErrors() {
		t.Fatalf("%s: %v", path, errs.Err())
	}
	return info, errs
}
