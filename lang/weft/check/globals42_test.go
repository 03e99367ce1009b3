package check

import (
	"strings"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// sameGlobalValues checks that globalValue gives Check's Globals (prog,
// of f) for every name of f's module-level declarations and for a name
// of none (stop 42: Lean makes no Globals and warpConfig asks
// globalValue).
func sameGlobalValues(t *testing.T, f *syntax.File, prog *Program) {
	t.Helper()
	names := []string{"no_such_global"}
	for _, d := range f.Decls {
		if g, ok := d.(*syntax.Global); ok {
			for _, n := range g.Names {
				names = append(names, n.Name)
			}
		}
	}
	for _, n := range names {
		want, wantOK := prog.Globals[n]
		got, ok := globalValue(f, n)
		if got != want || ok != wantOK {
			t.Errorf("%s: globalValue(%s) = %v, %v; Globals has %v, %v", f.Name, n, got, ok, want, wantOK)
		}
	}
	if v, ok := globalValue(nil, "x"); v != nil || ok {
		t.Errorf("globalValue of no file = %v, %v", v, ok)
	}
}

// TestGlobalValue covers the cases of declareGlobals that decide whether
// a name has a Globals entry: a second declaration (the first wins), a
// declaration unpacking too few values (no entry, and none after it), a
// simplify(...) rebinding (no entry, a later value does), and that Lean's
// warp_config read through globalValue reports as Check's map did.
func TestGlobalValue(t *testing.T) {
	srcs := []string{
		"A = 1\nA = 2\nB, C = 3, 4\n",
		"A, B = 1\nA = 2\n",
		"A = 3\nA, B = 1\n",
		"@proc\ndef p():\n    pass\np = simplify(p)\np = 5\n",
		"W = [CudaWarpConfig(\"A\", 2)]\nW = 3\n@proc\ndef k():\n    with CudaDeviceFunction(warp_config=W):\n        pass\n",
		"W = 3\nW = [CudaWarpConfig(\"A\", 2)]\n@proc\ndef k():\n    with CudaDeviceFunction(warp_config=W):\n        pass\n",
		"W, V = [CudaWarpConfig(\"A\", 2)]\n@proc\ndef k():\n    with CudaDeviceFunction(warp_config=W):\n        pass\n",
	}
	// listErr: the source's warp_config is not a list (its global's
	// entry is the integer, or it has none).
	listErr := map[int]bool{5: true, 6: true}
	for k, src := range srcs {
		var e1, e2 diag.List
		f := syntax.Parse(diag.NewFile("t.weft", []byte(src)), &e1)
		e2.Diags = append(e2.Diags, e1.Diags...)
		full := Check(f, lib.MustStd(), &e1)
		if (len(full.Globals) == 0) != (k == 1 || k == 6) {
			t.Errorf("%q: Globals %v", src, full.Globals)
		}
		sameGlobalValues(t, f, full)
		if strings.Contains(src, "warp_config") {
			var msgs strings.Builder
			for _, d := range e1.Diags {
				msgs.WriteString(d.Message + "\n")
			}
			got := strings.Contains(msgs.String(), "warp_config must be a list")
			if got != listErr[k] {
				t.Errorf("%q: reports warp_config not a list: %v, want %v ", src, got, listErr[k])
			}
		}
		Lean(f, lib.MustStd(), &e2)
		if len(e1.Diags) != len(e2.Diags) {
			t.Errorf("%q: Check reports %d, Lean %d", src, len(e1.Diags), len(e2.Diags))
			continue
		}
		for i := range e1.Diags {
			if e1.Diags[i].Message != e2.Diags[i].Message || e1.Diags[i].Pos != e2.Diags[i].Pos {
				t.Errorf("%q: Check %v, Lean %v", src, e1.Diags[i], e2.Diags[i])
			}
		}
	}
}
