package syncheck

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"weft.dev/weft/diag"
)

// directivesByLines is Directives as it read every line of the file (the
// reference of TestDirectivesMatchLines).
func directivesByLines(src *diag.File, errs *diag.List) []map[string]int64 {
	var out []map[string]int64
	for n := 1; n <= src.Lines(); n++ {
		if m, ok := directive(src, src.Line(n), src.Offset(n, 1), errs); ok {
			out = append(out, m)
		}
	}
	return out
}

// TestDirectivesMatchLines: Directives, which reads only the lines that
// hold "check:", returns the sizes and diagnostics of the line by line
// reading on every .weft file of the repository and on inputs with every
// line ending, "check:" outside comments, several on a line, malformed
// directives and none.
func TestDirectivesMatchLines(t *testing.T) {
	inputs := []string{
		"",
		"check:",
		"# check: N=1",
		"# check: N=1\n# check: N=2 M=3\n",
		"x = 1  # check: N=4\n#check:N=5\n  #   check:   N=6   M=0x10\n",
		"# check: N=1\r\n# check: M=2\r\n",
		"# check: N=1\r# check: M=2\r\rcheck:\r",
		"# check: N=1\r\n\r# check: M=2 bad\n# check: =3 K=x L=4",
		"# not check: N=1\n# check: N=1 # check: M=2\ncheck: N=3\n\"\"\"\n# check: S=9\n\"\"\"",
		"\n\n\r\n# check:\n# check: N=-1 check: M=2",
		"# check: N=1\r",
		"# check: N=1\n",
	}
	filepath.WalkDir("../../..", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".weft") {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			inputs = append(inputs, string(src))
		}
		return nil
	})
	if len(inputs) < 100 {
		t.Fatalf("only %d inputs", len(inputs))
	}
	found := 0
	for i, in := range inputs {
		var e1, e2 diag.List
		f := diag.NewFile(fmt.Sprint("in", i, ".weft"), []byte(in))
		got := fmt.Sprint(Directives(f, &e1), e1.Diags)
		want := fmt.Sprint(directivesByLines(f, &e2), e2.Diags)
		if got != want {
			t.Errorf("input %d %.60q: %s, line by line %s", i, in, got, want)
		}
		if len(Directives(f, &e1)) > 0 {
			found++
		}
	}
	if found < 20 {
		t.Errorf("only %d inputs with directives", found)
	}
}
