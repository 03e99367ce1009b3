package syntax_test

import (
	"strings"
	"testing"
)

// TestDeepNesting: 10^6 parentheses, braces, unary operators, initializer
// braces or pointer stars are one C0220 error where the 1001st level of
// the parser's nesting starts (the declaration's initializer or the
// function body counts as one), not a Go stack overflow (issue 14); 990
// levels parse.
func TestDeepNesting(t *testing.T) {
	// 10^6 for parentheses, 10^5 for the rest (the same code path, and the
	// test stays fast on a loaded machine).
	const n, m = 1000000, 100000
	for _, c := range []struct {
		name, src string
		col       int
	}{
		{"parentheses", "int x = " + strings.Repeat("(", n) + "1" + strings.Repeat(")", n) + ";", 8 + 1000},
		{"blocks", "void f() " + strings.Repeat("{", m) + strings.Repeat("}", m), 9 + 1002},
		{"unary", "int x = " + strings.Repeat("~", m) + "1;", 8 + 1000},
		{"initializer", "int x[1] = " + strings.Repeat("{", m) + "1" + strings.Repeat("}", m) + ";", 11 + 1001},
		{"pointers", "int " + strings.Repeat("*", m) + "p;", 4 + 1001},
	} {
		_, diags := parse(c.src)
		if diags.Len() == 0 {
			t.Errorf("%s: no error", c.name)
			continue
		}
		d := diags.Diags[0]
		if d.Code != "C0220" || d.Pos.Line() != 1 || d.Pos.Col() != c.col || d.Message != "nested too deeply (more than 1000 levels)" {
			t.Errorf("%s: got %s at %d:%d: %s, want C0220 at 1:%d", c.name, d.Code, d.Pos.Line(), d.Pos.Col(), d.Message, c.col)
		}
	}
	if _, diags := parse("int x = " + strings.Repeat("(", 990) + "1" + strings.Repeat(")", 990) + ";"); diags.Len() != 0 {
		t.Errorf("990 parentheses: %v", diags.Err())
	}
}
