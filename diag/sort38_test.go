package diag

import (
	"fmt"
	"math/rand"
	"slices"
	"sort"
	"testing"
)

// TestSortOneFile (stop 38): List.Sort of diagnostics in one File (or
// none) gives sort.SliceStable's order of before, on random lists with
// repeated offsets, codes and messages (so that stability shows: equal
// keys keep their order, told apart by identity).
func TestSortOneFile(t *testing.T) {
	r := rand.New(rand.NewSource(380))
	f := NewFile("a.weft", make([]byte, 50))
	for range 3000 {
		var l List
		for range r.Intn(40) {
			d := &Diagnostic{Code: fmt.Sprintf("W%d", r.Intn(3)), Message: fmt.Sprintf("m%d", r.Intn(3))}
			if r.Intn(9) > 0 {
				d.Pos = f.At(r.Intn(6))
			}
			l.Diags = append(l.Diags, d)
		}
		if !sameFile(l.Diags) {
			for _, d := range l.Diags {
				d.Pos = f.At(d.Pos.Offset)
			}
		}
		want := slices.Clone(l.Diags)
		sort.SliceStable(want, func(i, j int) bool {
			a, b := want[i], want[j]
			if a.Pos.File != b.Pos.File || a.Pos.Offset != b.Pos.Offset {
				return a.Pos.Before(b.Pos)
			}
			if a.Code != b.Code {
				return a.Code < b.Code
			}
			return a.Message < b.Message
		})
		l.Sort()
		for i := range want {
			if l.Diags[i] != want[i] {
				t.Fatalf("position %d: %+v, want %+v", i, *l.Diags[i], *want[i])
			}
		}
	}
}
