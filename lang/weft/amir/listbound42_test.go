package amir

import (
	"fmt"
	"testing"
)

// Every test of the package runs with the list bound tested at each
// bounded walk (listbound.go): a place that puts a record on an empty
// list without widening the bound panics there.
func init() { listBoundCheck = true }

// TestListBoundMatchesFull: walks bounded by varState's list range
// (alloc's free, thsymKeep's walks) give the Result of walks of every
// cell (noListBound), on every random generator, twice per machine (the
// second run reallocates over the first's state); the bound must be
// shorter than the cells often.
func TestListBoundMatchesFull(t *testing.T) {
	var short int64
	for g, gen := range randomGens() {
		for seed := int64(0); seed < 200; seed++ {
			m1 := New(gen(seed), Config{MaxHazards: 100})
			m2 := New(gen(seed), Config{MaxHazards: 100})
			m2.noListBound = true
			for rep := 0; rep < 2; rep++ {
				r1, r2 := *m1.Run(nil), *m2.Run(nil)
				a, b := fmt.Sprintf("%+v", r1), fmt.Sprintf("%+v", r2)
				if a != b {
					t.Fatalf("generator %d seed %d run %d:\nbound %s\nfull  %s", g, seed, rep, a, b)
				}
			}
			short += m1.listShort
			if m2.listShort != 0 {
				t.Fatalf("generator %d seed %d: %d bounded walks with noListBound", g, seed, m2.listShort)
			}
		}
	}
	t.Logf("%d bounded walks shorter than their cells", short)
	if short < 1000 {
		t.Fatalf("weak coverage: %d bounded walks shorter than their cells", short)
	}
}
