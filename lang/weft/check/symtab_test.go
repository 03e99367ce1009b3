package check

import (
	"math/rand/v2"
	"sort"
	"testing"
)

// TestSymTabAgainstMap runs random sets, gets and deletes on a symTab and
// on a Go map, from a small alphabet of short names (so that probe runs
// collide, wrap around the table's end and grow it), in scope order (the
// checker's pushes and pops) and in any order; every get, the count and
// the key list must agree after each step.
func TestSymTabAgainstMap(t *testing.T) {
	r := rand.New(rand.NewPCG(32, 1))
	letters := "ab_c"
	name := func() string {
		b := make([]byte, 1+r.IntN(3))
		for i := range b {
			b[i] = letters[r.IntN(len(letters))]
		}
		return string(b)
	}
	syms := make([]Symbol, 64)
	for round := 0; round < 300; round++ {
		var tab symTab
		ref := map[string]*Symbol{}
		var order []string // insertion order, for scope-order deletes
		for step := 0; step < 200; step++ {
			n := name()
			switch op := r.IntN(10); {
			case op < 5:
				s := &syms[r.IntN(len(syms))]
				if _, ok := ref[n]; !ok {
					order = append(order, n)
				}
				tab.set(n, s)
				ref[n] = s
			case op < 7 && len(order) > 0:
				// The latest name, as pop deletes a scope's names.
				n = order[len(order)-1]
				order = order[:len(order)-1]
				tab.del(n)
				delete(ref, n)
			case op < 9:
				tab.del(n)
				delete(ref, n)
				for i, o := range order {
					if o == n {
						order = append(order[:i], order[i+1:]...)
						break
					}
				}
			default:
				tab.clear()
				clear(ref)
				order = order[:0]
			}
			if tab.n != len(ref) {
				t.Fatalf("round %d step %d: %d entries, want %d", round, step, tab.n, len(ref))
			}
			probe := []string{name(), name(), name(), name()}
			for k := range ref {
				probe = append(probe, k)
			}
			for _, k := range probe {
				if got, want := tab.get(k), ref[k]; got != want {
					t.Fatalf("round %d step %d: get(%q) = %p, want %p", round, step, k, got, want)
				}
			}
			keys := tab.keys()
			sort.Strings(keys)
			var want []string
			for k := range ref {
				want = append(want, k)
			}
			sort.Strings(want)
			if len(keys) != len(want) {
				t.Fatalf("round %d step %d: keys %q, want %q", round, step, keys, want)
			}
			for i := range keys {
				if keys[i] != want[i] {
					t.Fatalf("round %d step %d: keys %q, want %q", round, step, keys, want)
				}
			}
		}
	}
}

// TestSymTabZero: the zero table is empty and usable.
func TestSymTabZero(t *testing.T) {
	var tab symTab
	if tab.get("x") != nil || len(tab.keys()) != 0 {
		t.Fatal("zero symTab not empty")
	}
	tab.del("x")
	tab.clear()
	s := &Symbol{Name: "x"}
	tab.set("x", s)
	if tab.get("x") != s {
		t.Fatal("set then get failed")
	}
}
