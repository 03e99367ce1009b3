package lib

import (
	"math"
	"strings"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/syntax"
)

// TestExternProcs: the externs declared as library procs with behaviour
// bodies (externs.weft) have Exo's values and C expressions; malformed
// declarations are W0245 with the reason.
func TestExternProcs(t *testing.T) {
	MustStd()
	for _, tc := range []struct {
		name string
		args []float64
		want float64
	}{
		{"relu", []float64{-1.5}, 0},
		{"relu", []float64{2.5}, 2.5},
		{"relu", []float64{0}, 0},
		{"sigmoid", []float64{0}, 0.5},
		{"sigmoid", []float64{2}, 1 / (1 + math.Exp(-2))},
	} {
		x := Externs[tc.name]
		if x == nil || x.Arity != len(tc.args) {
			t.Fatalf("%s: %+v", tc.name, x)
		}
		if got := x.Eval(tc.args); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s%v = %v, want %v", tc.name, tc.args, got, tc.want)
		}
	}
	if c := Externs["relu"].CUDA; c != "((0.0f) < (({0})) ? (({0})) : (0.0f))" {
		t.Errorf("relu C template %q", c)
	}
	if c := Externs["sigmoid"].CUDA; c != "(1.0f / (1.0f + expf((-({0})))))" {
		t.Errorf("sigmoid C template %q", c)
	}
	for _, tc := range []struct{ src, want string }{
		{"@extern\ndef e(x: R):\n    x = 1.0\n", "needs its arguments and a last parameter"},
		{"@extern\ndef e(x: R[4], r: R):\n    r = 1.0\n", "parameter x must be a scalar"},
		{"@extern\ndef e(x: R, r: R):\n    x = r\n", "assigns the last parameter, r"},
		{"@extern\ndef e(x: R, r: R):\n    r = cos(x)\n", "cos is not an extern function of 1 arguments"},
		{"@extern\ndef e(x: R, r: R):\n    r = x % 2\n", "cannot appear in an extern's body"},
	} {
		var errs diag.List
		f := syntax.Parse(diag.NewFile("e.weft", []byte(tc.src)), &errs)
		p := f.Decls[0].(*syntax.Proc)
		if x := ParseExtern(p, &errs); x != nil || !errs.HasErrors() || !strings.Contains(errs.Diags[0].Error(), tc.want) || errs.Diags[0].Code != "W0245" {
			t.Errorf("%q: got %v, %v; want W0245 %q", tc.src, x, errs.Err(), tc.want)
		}
	}
}
