package cudagen

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// programs are the .weft files whose generated code is golden and compiled
// with nvcc: the test programs here and the examples.
func programs(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, pat := range []string{"testdata/*.weft", "../../../examples/weft/gemm/*.weft"} {
		m, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	sort.Strings(files)
	if len(files) == 0 {
		t.Fatal("no programs")
	}
	return files
}

func generate(t *testing.T, path string, opt Options) (*Output, *diag.List) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var errs diag.List
	f := syntax.Parse(diag.NewFile(path, src), &errs)
	if errs.HasErrors() {
		return nil, &errs
	}
	out := Generate(f, lib.MustStd(), opt, &errs)
	return out, &errs
}

func diagText(l *diag.List) string {
	var b bytes.Buffer
	l.Sort()
	diag.WriteText(&b, l.Diags)
	return b.String()
}

// goldenName is the golden archive of a program: testdata/NAME.golden for
// the test programs, testdata/examples/NAME.golden for the examples.
func goldenName(path string) string {
	base := strings.TrimSuffix(filepath.Base(path), ".weft") + ".golden"
	if strings.Contains(path, "examples") {
		return filepath.Join("testdata", "examples", base)
	}
	return filepath.Join("testdata", base)
}

// TestGolden compares the generated files of every program with its golden
// txtar archive (go test -update rewrites them; review them in the diff).
func TestGolden(t *testing.T) {
	for _, path := range programs(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			out, errs := generate(t, path, Options{Harness: true})
			if errs.HasErrors() {
				t.Fatalf("generation failed:\n%s", diagText(errs))
			}
			ar := &txtar.Archive{}
			for _, f := range out.Files {
				ar.Files = append(ar.Files, txtar.File{Name: f.Name, Data: f.Data})
			}
			got := txtar.Format(ar)
			gold := goldenName(path)
			if *update {
				os.MkdirAll(filepath.Dir(gold), 0o755)
				if err := os.WriteFile(gold, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(gold)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("generated code differs from %s (run go test -update and review the diff)", gold)
			}
			// Determinism: a second generation is byte-identical.
			out2, _ := generate(t, path, Options{Harness: true})
			for i := range out.Files {
				if !bytes.Equal(out.Files[i].Data, out2.Files[i].Data) {
					t.Errorf("%s: two generations differ", out.Files[i].Name)
				}
			}
		})
	}
}

// FuzzGenerate feeds arbitrary programs to the code generator: it may
// reject them, but it must not panic.
func FuzzGenerate(f *testing.F) {
	addChunkSeeds(f, "testdata/*.weft", "testdata/lower/*.weft", "../../../examples/weft/gemm/*.weft")
	l := lib.MustStd()
	f.Fuzz(func(t *testing.T, src string) {
		var errs diag.List
		file := syntax.Parse(diag.NewFile("fuzz.weft", []byte(src)), &errs)
		Generate(file, l, Options{Harness: true}, &errs)
	})
}

// addChunkSeeds adds to f's corpus every program (each "---"-separated
// chunk) of the files the glob patterns name.
func addChunkSeeds(f *testing.F, pats ...string) {
	for _, pat := range pats {
		files, _ := filepath.Glob(pat)
		for _, p := range files {
			src, err := os.ReadFile(p)
			if err != nil {
				f.Fatal(err)
			}
			for _, chunk := range strings.Split(string(src), "\n---\n") {
				f.Add(chunk)
			}
		}
	}
}
