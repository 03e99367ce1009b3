package gpucheck

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

var update = flag.Bool("update", false, "rewrite the golden files of TestReports")

// TestReports checks the --threads text and SVG of testdata/report/*.weft
// against golden files (go test -update rewrites them) and that two runs
// print the same bytes.
func TestReports(t *testing.T) {
	files, _ := filepath.Glob("testdata/report/*.weft")
	if len(files) == 0 {
		t.Fatal("no report testdata")
	}
	l := lib.MustStd()
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		render := func() (string, string) {
			var errs diag.List
			f := syntax.Parse(diag.NewFile(filepath.Base(file), src), &errs)
			res := Check(f, Options{Lib: l}, &errs)
			if errs.HasErrors() {
				t.Fatalf("%s: %v", file, errs.Err())
			}
			var txt, svg bytes.Buffer
			res.WriteThreads(&txt)
			res.WriteThreadsSVG(&svg)
			return txt.String(), svg.String()
		}
		txt, svg := render()
		txt2, svg2 := render()
		if txt != txt2 || svg != svg2 {
			t.Errorf("%s: the report is not deterministic", file)
		}
		base := strings.TrimSuffix(file, ".weft")
		for _, g := range []struct{ path, got string }{{base + ".threads.golden", txt}, {base + ".svg.golden", svg}} {
			if *update {
				if err := os.WriteFile(g.path, []byte(g.got), 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			want, err := os.ReadFile(g.path)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if string(want) != g.got {
				t.Errorf("%s differs from the output (go test -update rewrites it):\n%s", g.path, g.got)
			}
		}
	}
}
