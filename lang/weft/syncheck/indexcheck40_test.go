package syncheck

import (
	"math/rand"
	"strings"
	"testing"
)

// TestIndexCheckMatchesIndex: indexCheck (check.go), which hops over the
// k's (stop 44; over the colons before), finds what strings.Index finds
// from every offset, on texts made of pieces of "check:" (partial,
// doubled, at both ends) and other bytes.
func TestIndexCheckMatchesIndex(t *testing.T) {
	rng := rand.New(rand.NewSource(40))
	pieces := []string{"check:", "check", "heck:", ":", "c", "k", "checkcheck:", "::", "x", "\n", "# check: N=4", "chec:"}
	for iter := 0; iter < 3000; iter++ {
		var b strings.Builder
		for n := rng.Intn(12); n > 0; n-- {
			b.WriteString(pieces[rng.Intn(len(pieces))])
		}
		text := b.String()
		for from := 0; from <= len(text); from++ {
			want := strings.Index(text[from:], "check:")
			if want >= 0 {
				want += from
			}
			if got := indexCheck(text, from); got != want {
				t.Fatalf("indexCheck(%q, %d) = %d, want %d", text, from, got, want)
			}
		}
	}
}
