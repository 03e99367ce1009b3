package amir

import (
	"math/rand"
	"testing"
)

// TestNextListMatchesPlain: nextList's four-at-a-time scan finds the
// first non-empty list at or after c that a cell-by-cell scan finds, for
// every start, on random cells of every length up to 70 with few, many
// or no records (heads 0, large ones near the sign bit, and -1).
func TestNextListMatchesPlain(t *testing.T) {
	rng := rand.New(rand.NewSource(36))
	plain := func(cells []cell, c int, reads bool) (int, int32) {
		for ; c < len(cells); c++ {
			h := cells[c].muts
			if reads {
				h = cells[c].reads
			}
			if h >= 0 {
				return c, h
			}
		}
		return len(cells), -1
	}
	found := 0
	for i := 0; i < 5000; i++ {
		n := rng.Intn(71)
		cells := make([]cell, n)
		density := []int{0, 1, 5, 50}[rng.Intn(4)]
		for c := range cells {
			cells[c].reads, cells[c].muts = -1, -1
			if rng.Intn(100) < density {
				cells[c].reads = []int32{0, 1, int32(rng.Intn(1 << 20)), 1<<31 - 1}[rng.Intn(4)]
			}
			if rng.Intn(100) < density {
				cells[c].muts = []int32{0, 3, int32(rng.Intn(1 << 20)), 1<<31 - 1}[rng.Intn(4)]
			}
		}
		for c := 0; c <= n; c++ {
			for _, reads := range [2]bool{true, false} {
				gc, gh := nextList(cells, c, reads)
				wc, wh := plain(cells, c, reads)
				if gc != wc || gh != wh {
					t.Fatalf("case %d, %d cells from %d (reads %v): got cell %d head %d, want %d %d", i, n, c, reads, gc, gh, wc, wh)
				}
				if wc < n {
					found++
				}
			}
		}
	}
	if found < 10000 {
		t.Fatalf("weak coverage: %d lists found", found)
	}
}
