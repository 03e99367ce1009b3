package check_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/prism/check"
	"weft.dev/weft/lang/prism/lower"
	"weft.dev/weft/lang/prism/syntax"
)

// FuzzCheck: no parsed input makes the checker panic, every diagnostic has
// a code and a position, and accepted programs lower to CUDA without
// panicking.
func FuzzCheck(f *testing.F) {
	files, _ := filepath.Glob("../../../examples/prism/*.prism")
	more, _ := filepath.Glob("testdata/*.prism")
	for _, p := range append(files, more...) {
		data, _ := os.ReadFile(p)
		for _, part := range strings.Split(string(data), "\n---\n") {
			f.Add([]byte(part))
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		file, errs := syntax.Parse(diag.NewFile("fuzz.prism", src))
		if errs.HasErrors() {
			return
		}
		info := check.Check(file, errs)
		for _, d := range errs.Diags {
			if d.Code == "" || d.Pos.File == nil {
				t.Fatalf("diagnostic without code or position: %+v", d)
			}
		}
		if errs.HasErrors() {
			return
		}
		lower.Lower(info, lower.Options{}, errs)
	})
}
