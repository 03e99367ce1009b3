package pyscan

import (
	"reflect"
	"strings"
	"testing"
)

// TestFastRunRoom compares Toks with Next on lines that fill fastRun's
// arrays: brackets nested deeper than the scanner's first bracket array
// (parenBuf, 8) and lines of more tokens than Toks' first estimate
// leaves room for. fastRun writes both arrays by index up to their
// capacity (stop 35); a guard that let it write past either fails here
// (a panic) or makes the tokens differ.
func TestFastRunRoom(t *testing.T) {
	var srcs []string
	for _, depth := range []int{7, 8, 9, 16, 40} {
		srcs = append(srcs,
			"x = "+strings.Repeat("(", depth)+"a"+strings.Repeat(")", depth)+"\n",
			"y = "+strings.Repeat("[a, (", depth)+"b"+strings.Repeat(")]", depth)+"\n",
			"f("+strings.Repeat("g(", depth)+strings.Repeat(")", depth)+")\nz\n")
	}
	for _, n := range []int{10, 100, 1000} {
		srcs = append(srcs,
			"x = f("+strings.Repeat("a,b,", n)+")\n",
			"# "+strings.Repeat("c", 3*n)+"\n"+strings.Repeat("a ", n)+"\n")
	}
	for _, src := range srcs {
		want, e1, _ := scanByNext(src)
		got, e2, _ := scanByToks(src)
		if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(e1, e2) {
			t.Errorf("%.60q: Toks and Next differ:\n%v %v\n%v %v", src, got, e2, want, e1)
		}
	}
}

// TestFastLoopBound compares Toks with Next where fastLoop's bound (the
// source up to its last '\n', stop 42) matters: names, numbers and
// operators just before the last line end, a last line without one, a
// file without any, brackets left open across the last line end. Its
// loads past a token are unchecked: a bound that let one read past the
// line end would make the tokens differ here (or fail under -race's
// checkptr).
func TestFastLoopBound(t *testing.T) {
	for _, src := range []string{
		"", "\n", "x", "x\n", "x = abc", "x = abc\n", "x = abc\nyy", "x = abc\nyy ", "12", "x = 12\n", "x = 12\n3",
		"a.\n", "a.", "a *\n", "a *", "a -\n", "a -", "a =\n", "a =", "f(a,\nb)", "f(a,\nb", "f(a,\n", "x = (1,\n2",
		"x = [a, b]\n  y = c", "def f():\n    return a_1 + b2\n", "x = 0x\n", "x = 1_0\n", "x = 1.\n", "x = 1.5",
		"a\rb\n", "a \\\nb\n", "# c\nx = y", "x = y # c",
	} {
		want, e1, _ := scanByNext(src)
		got, e2, _ := scanByToks(src)
		if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(e1, e2) {
			t.Errorf("%q: Toks and Next differ:\n%v %v\n%v %v", src, got, e2, want, e1)
		}
	}
}
