package cudagen

import (
	"math/rand"
	"regexp"
	"strings"
	"testing"

	"weft.dev/weft/lang/weft/lib"
)

// TestReplacePlaceholders: the byte scan replaces exactly what the regexp
// \{[^{}]+\} (ReplaceAllStringFunc) does, on every template of the
// standard library and on random strings of braces and letters.
func TestReplacePlaceholders(t *testing.T) {
	re := regexp.MustCompile(`\{[^{}]+\}`)
	mark := func(m string) string { return "<" + strings.ToUpper(m) + ">" }
	check := func(s string) {
		t.Helper()
		if got, want := replacePlaceholders(s, mark), re.ReplaceAllStringFunc(s, mark); got != want {
			t.Fatalf("replacePlaceholders(%q) = %q, want %q", s, got, want)
		}
	}
	for _, s := range []string{"", "{", "}", "{}", "{{}}", "{a}", "{{a}}", "{a}{b}", "x{a{b}c}y", "{a}}", "{{a}", "a{ b }c", "{\n}", "{é}", "\xff{\xfe}"} {
		check(s)
	}
	n := 0
	for _, in := range lib.MustStd().Instrs() {
		check(in.CUDA)
		n++
	}
	if n < 50 {
		t.Fatalf("only %d library instructions", n)
	}
	r := rand.New(rand.NewSource(13))
	alpha := "{}ab \n"
	for i := 0; i < 20000; i++ {
		b := make([]byte, r.Intn(12))
		for j := range b {
			b[j] = alpha[r.Intn(len(alpha))]
		}
		check(string(b))
	}
}
