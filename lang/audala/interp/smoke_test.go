package interp

import (
	"bytes"
	"os"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/audala/check"
	"weft.dev/weft/lang/audala/initfile"
)

func loadFile(t testing.TB, path string) *check.Program {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var diags diag.List
	prog := Load(diag.NewFile(path, src), &diags)
	if prog == nil {
		t.Fatalf("%s: %v", path, diags.Err())
	}
	return prog
}

func loadInit(t testing.TB, prog *check.Program, path string) *initfile.Data {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var diags diag.List
	d := initfile.Parse(diag.NewFile(path, src), prog, &diags)
	if d == nil {
		t.Fatalf("%s: %v", path, diags.Err())
	}
	return d
}

func TestSmoke(t *testing.T) {
	for _, sem := range []Semantics{Relaxed, Strict} {
		prog := loadFile(t, "../testdata/fig1.adl")
		var out bytes.Buffer
		m := New(prog, nil, Options{Semantics: sem, Workers: 1, Out: &out})
		if err := m.Run(); err != nil {
			t.Fatal(err)
		}
		t.Logf("%v iters=%d\n%s", sem, m.Stats.Iterations, out.String())
		prog = loadFile(t, "../testdata/ps_thesis.adl")
		out.Reset()
		m = New(prog, loadInit(t, prog, "../testdata/ps8.init"), Options{Semantics: sem, Workers: 1, Out: &out})
		if err := m.Run(); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s", out.String())
	}
}
