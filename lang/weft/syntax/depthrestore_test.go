package syntax

import (
	"strings"
	"testing"

	"weft.dev/weft/diag"
)

// TestDepthAfterErrors: a syntax error abandons its statement in the
// middle of nested expressions and blocks, skipping their leaves (stop
// 33: enter and leave without defer); the statement's recovery restores
// the nesting depth, so 300 such errors, each 5 levels deep, do not make
// a later statement 400 levels deep too deep (it would be, 300*5 > 500,
// were the depth kept), in a block and at the top level.
func TestDepthAfterErrors(t *testing.T) {
	deep := strings.Repeat("(", 400) + "1.0" + strings.Repeat(")", 400)
	var b strings.Builder
	b.WriteString("@proc\ndef f(N: size, X: f32[N]):\n")
	for range 300 {
		b.WriteString("    X[0] = f(((-(1 + ))))\n")
		b.WriteString("    if N > 0:\n        X[0] = g(((not (1 < ))))\n")
	}
	b.WriteString("    X[0] = " + deep + "\n")
	for range 300 {
		b.WriteString("G = f(((-(1 + ))))\n")
	}
	b.WriteString("H = " + deep + "\n")
	var errs diag.List
	Parse(diag.NewFile("errs.weft", []byte(b.String())), &errs)
	for _, d := range errs.Diags {
		if d.Code == ErrNesting {
			t.Fatalf("%d:%d: %s: the depth was not restored after the errors", d.Pos.Line(), d.Pos.Col(), d.Message)
		}
	}
	if errs.Len() == 0 {
		t.Fatal("no errors reported")
	}
}
