package check

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestFindMemo: find answers from its memo only for the same string
// (address and length) while neither table has changed (stop 41). Each
// change below (a proc name declared, deleted, the scopes cleared, a
// module-level value set) must show in the next answer for the very
// string asked before; a string of the same bytes at another address
// gets the same answer.
func TestFindMemo(t *testing.T) {
	var c checker
	src := "tt t"
	name := src[0:2] // "tt"
	other := strings.Clone(name)
	a, b, g := &Symbol{Name: "tt"}, &Symbol{Name: "tt"}, &Symbol{Name: "tt", Kind: KindConst}
	if s := c.find(name); s != nil {
		t.Fatalf("empty tables: %v", s)
	}
	c.names.set("tt", a)
	if s := c.find(name); s != a {
		t.Fatalf("after set: %v", s)
	}
	if s := c.find(name); s != a {
		t.Fatalf("memo hit: %v", s)
	}
	if s := c.find(other); s != a {
		t.Fatalf("same bytes elsewhere: %v", s)
	}
	c.names.del("tt")
	if s := c.find(name); s != nil {
		t.Fatalf("after del: %v", s)
	}
	c.globals.set("tt", g)
	if s := c.find(name); s != g {
		t.Fatalf("global after del: %v", s)
	}
	c.names.set("tt", b)
	if s := c.find(name); s != b {
		t.Fatalf("proc name over the global: %v", s)
	}
	c.names.clear()
	if s := c.find(name); s != g {
		t.Fatalf("after clear: %v", s)
	}
	// A change to another name invalidates too (a memo keyed to the name
	// alone would be exact here, but the generation is the rule).
	c.names.set("t", a)
	if s := c.find(src[3:4]); s != a {
		t.Fatalf("t: %v", s)
	}
	if s := c.find(name); s != g {
		t.Fatalf("tt after setting t: %v", s)
	}
}

// TestFindAgainstSlow: random declarations, deletions, clears and global
// sets over a few names, each asked through many strings (substrings of
// one source text, so several addresses per name and memo slots shared);
// find must agree with findSlow after every step.
func TestFindAgainstSlow(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 1))
	words := []string{"i", "j", "ab", "ba", "n"}
	var sb strings.Builder
	for i := 0; i < 200; i++ {
		sb.WriteString(words[r.IntN(len(words))])
		sb.WriteByte(' ')
	}
	fields := strings.Fields(sb.String()) // substrings of one text
	syms := make([]Symbol, 16)
	var c checker
	for step := 0; step < 20000; step++ {
		w := words[r.IntN(len(words))]
		switch op := r.IntN(20); {
		case op < 3:
			c.names.set(w, &syms[r.IntN(len(syms))])
		case op < 5:
			c.names.del(w)
		case op == 5:
			c.names.clear()
		case op == 6:
			c.globals.set(w, &syms[r.IntN(len(syms))])
		default:
			f := fields[r.IntN(len(fields))]
			if got, want := c.find(f), c.findSlow(f); got != want {
				t.Fatalf("step %d: find(%q) = %p, findSlow %p", step, f, got, want)
			}
		}
	}
}
