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

// TestSymTabInsert: insert is get then set where get finds nothing (stop
// 41), and delHashed with insert's hash is del; checked against a Go map
// over random steps in scope order.
func TestSymTabInsert(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 2))
	letters := "ab_c"
	syms := make([]Symbol, 32)
	for round := 0; round < 200; round++ {
		var tab symTab
		ref := map[string]*Symbol{}
		type entry struct {
			name string
			h    uint32
		}
		var open []entry
		for step := 0; step < 100; step++ {
			b := make([]byte, 1+r.IntN(3))
			for i := range b {
				b[i] = letters[r.IntN(len(letters))]
			}
			n := string(b)
			if r.IntN(3) > 0 || len(open) == 0 {
				s := &syms[r.IntN(len(syms))]
				prev, h := tab.insert(n, s)
				if want := ref[n]; prev != want {
					t.Fatalf("insert(%q) prev = %p, want %p", n, prev, want)
				}
				if h != hashName(n) {
					t.Fatalf("insert(%q) hash %x, want %x", n, h, hashName(n))
				}
				if prev == nil {
					ref[n] = s
					open = append(open, entry{n, h})
				}
			} else {
				e := open[len(open)-1]
				open = open[:len(open)-1]
				tab.delHashed(e.name, e.h)
				delete(ref, e.name)
			}
			if tab.n != len(ref) {
				t.Fatalf("count %d, want %d", tab.n, len(ref))
			}
			for k, v := range ref {
				if got := tab.get(k); got != v {
					t.Fatalf("get(%q) = %p, want %p", k, got, v)
				}
			}
		}
	}
}
