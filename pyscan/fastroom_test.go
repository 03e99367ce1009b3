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
