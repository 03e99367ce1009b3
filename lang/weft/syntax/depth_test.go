package syntax

import (
	"strings"
	"testing"

	"weft.dev/weft/diag"
)

// TestDeepNesting: 10^6 parentheses, brackets or unary operators, and
// blocks nested past the limit, are one W0107 error where the 501st level
// starts, not a Go stack overflow (issue 14); 450 levels parse and print.
func TestDeepNesting(t *testing.T) {
	// 10^6 for parentheses, 10^5 for the rest (the same code path, and the
	// test stays fast on a loaded machine).
	const n, m = 1000000, 100000
	head := "@proc\ndef f(N: size, X: f32[N]):\n    X[0] = "
	var blocks strings.Builder
	blocks.WriteString("@proc\ndef f(N: size, X: f32[N]):\n")
	for i := range 600 {
		blocks.WriteString(strings.Repeat(" ", i+1) + "if N > 0:\n")
	}
	blocks.WriteString(strings.Repeat(" ", 601) + "X[0] = 1.0\n")
	for _, c := range []struct {
		name, src string
		line, col int
	}{
		// The statement's expression is the first level.
		{"parentheses", head + strings.Repeat("(", n) + "1.0" + strings.Repeat(")", n) + "\n", 3, 12 + 499},
		{"brackets", head + strings.Repeat("[", m) + "1.0" + strings.Repeat("]", m) + "\n", 3, 12 + 499},
		{"unary minus", head + strings.Repeat("-", m) + "1.0\n", 3, 12 + 499},
		{"not", head + strings.Repeat("not ", m) + "True\n", 3, 12 + 4*499},
		// The proc body is the first block; the 500th if's condition is
		// the 501st level.
		{"blocks", blocks.String(), 3 + 499, 500 + 4},
	} {
		var errs diag.List
		Parse(diag.NewFile("deep.weft", []byte(c.src)), &errs)
		if errs.Len() == 0 {
			t.Errorf("%s: no error", c.name)
			continue
		}
		d := errs.Diags[0]
		if d.Code != ErrNesting || d.Pos.Line() != c.line || d.Pos.Col() != c.col || d.Message != "nested too deeply (more than 500 levels of expressions or blocks)" {
			t.Errorf("%s: got %s at %d:%d: %s; want %s at %d:%d", c.name, d.Code, d.Pos.Line(), d.Pos.Col(), d.Message, ErrNesting, c.line, c.col)
		}
	}
	src := head + strings.Repeat("(", 450) + strings.Repeat("-", 45) + "1.0" + strings.Repeat(")", 450) + "\n"
	var errs diag.List
	f := Parse(diag.NewFile("ok.weft", []byte(src)), &errs)
	if errs.Len() != 0 {
		t.Fatalf("450 levels: %v", errs.Err())
	}
	if out := Print(f); !strings.Contains(out, "X[0] = "+strings.Repeat("-", 45)+"1.0") {
		t.Errorf("printed %q", out)
	}
}

// TestAttrOfIntLiteral: `A=0 .A` parses, and must print as something that
// parses to the same tree, not `0.A` (a fuzz crasher of issue 14).
func TestAttrOfIntLiteral(t *testing.T) {
	src := "@proc\ndef f(N: size, A: f32[N]):\n    A=0 .A\n"
	var errs diag.List
	f := Parse(diag.NewFile("a.weft", []byte(src)), &errs)
	if errs.Len() != 0 {
		t.Fatal(errs.Err())
	}
	out := Print(f)
	if !strings.Contains(out, "    A = (0).A\n") {
		t.Fatalf("printed %q", out)
	}
	var errs2 diag.List
	Parse(diag.NewFile("b.weft", []byte(out)), &errs2)
	if errs2.Len() != 0 {
		t.Errorf("printed form does not parse: %v", errs2.Err())
	}
}
