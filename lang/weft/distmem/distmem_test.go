package distmem

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"weft.dev/weft/lang/weft/internal/expect"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/gpucheck"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

var chainMarker = regexp.MustCompile(`# CHAIN "([^"]*)"`)

// TestData runs every chunk of testdata/*.weft through the collective
// analysis and, when it passes, the distributed memory analysis; it checks
// diagnostics against `# ERROR Wxxxx@COL "re"` markers and the deduced
// tiling chain of an allocation against `# CHAIN "..."` on its line.
func TestData(t *testing.T) {
	l := lib.MustStd()
	files, _ := filepath.Glob("testdata/*.weft")
	n := 0
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, chunk := range expect.Chunks(string(src)) {
			if strings.TrimSpace(chunk) == "" {
				continue
			}
			n++
			var errs diag.List
			f := syntax.Parse(diag.NewFile(file, []byte(chunk)), &errs)
			if errs.HasErrors() {
				t.Fatalf("%s: syntax errors: %v", file, errs.Err())
			}
			g := gpucheck.Check(f, gpucheck.Options{Lib: l}, &errs)
			var res *Result
			if !errs.HasErrors() {
				res = Check(g, &errs)
			}
			for ln, text := range strings.Split(chunk, "\n") {
				if m := chainMarker.FindStringSubmatch(text); m != nil {
					if res == nil {
						t.Errorf("%s:%d: CHAIN marker but the program was rejected", file, ln+1)
						continue
					}
					found := false
					for _, d := range res.Deductions {
						if d.Var.Pos.Line() == ln+1 {
							found = true
							if got := d.Chain(); got != m[1] {
								t.Errorf("%s:%d: chain of %s is %q, want %q", file, ln+1, d.Var.Name, got, m[1])
							}
						}
					}
					if !found {
						t.Errorf("%s:%d: no deduction for the allocation on this line", file, ln+1)
					}
				}
			}
			expect.Match(t, file, chunk, &errs)
		}
	}
	t.Logf("%d cases", n)
}

// FuzzCheck runs both analyses on arbitrary programs that parse.
func FuzzCheck(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.weft")
	for _, file := range files {
		src, _ := os.ReadFile(file)
		for _, c := range expect.Chunks(string(src)) {
			f.Add(c)
		}
	}
	l := lib.MustStd()
	f.Fuzz(func(t *testing.T, src string) {
		var errs diag.List
		file := syntax.Parse(diag.NewFile("fuzz.weft", []byte(src)), &errs)
		g := gpucheck.Check(file, gpucheck.Options{Lib: l}, &errs)
		Check(g, &errs)
	})
}

// TestEveryCodeTested: each W03xx-W05xx code registered by the collective
// and distributed memory analyses is expected by some testdata marker.
func TestEveryCodeTested(t *testing.T) {
	seen := map[string]bool{}
	for _, pat := range []string{"testdata/*.weft", "../gpucheck/testdata/*.weft"} {
		files, _ := filepath.Glob(pat)
		for _, f := range files {
			src, _ := os.ReadFile(f)
			for _, m := range expect.Marker.FindAllStringSubmatch(string(src), -1) {
				seen[m[2]] = true
			}
		}
	}
	_, tables := diag.Tables()
	n := 0
	for _, c := range tables["weft"] {
		if c.Code >= "W0300" && c.Code < "W0600" {
			n++
			if !seen[c.Code] {
				t.Errorf("%s (%s) has no failing testdata", c.Code, c.Summary)
			}
		}
	}
	if n < 20 {
		t.Errorf("only %d codes registered", n)
	}
}
