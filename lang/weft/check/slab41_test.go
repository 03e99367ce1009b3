package check

import (
	"testing"

	"weft.dev/weft/lang/weft/syntax"
)

// TestSlabs: the checker's carvings (stop 41) are distinct and do not
// alias: an append to one carving copies it rather than writing into the
// next, and each literal keeps its own value.
func TestSlabs(t *testing.T) {
	var c checker
	a := c.exprSlab(2)
	b := c.exprSlab(3)
	if len(a) != 2 || cap(a) != 2 || len(b) != 3 || a[0] != nil || b[2] != nil {
		t.Fatalf("carvings: len %d cap %d, len %d", len(a), cap(a), len(b))
	}
	x := &syntax.Name{Name: "x"}
	a = append(a, x) // past a's cap: a copy
	if b[0] != nil {
		t.Fatalf("append to one carving wrote into the next: %v", b[0])
	}
	big := c.exprSlab(100) // larger than a slab: a slab of its own
	if len(big) != 100 {
		t.Fatalf("big carving: %d", len(big))
	}
	var lits []*syntax.IntLit
	for v := int64(0); v < 20; v++ {
		lits = append(lits, c.intLit(v*7))
	}
	for i, l := range lits {
		if want := int64(i * 7); l.Value != want || l.Text != itoa(want) {
			t.Fatalf("literal %d: %q %d", i, l.Text, l.Value)
		}
	}
}
