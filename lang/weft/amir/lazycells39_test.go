package amir

import (
	"math/rand"
	"testing"
)

// TestLazyAloneMatchesPerCell: lazyAlone's four-cells-at-a-time test
// (issue 13, stop 39) answers as the per-cell test it replaced, for every
// length 0-41 with all heads empty and with one non-empty head (reads or
// muts, index 0 or larger) at each position, and on random cells.
func TestLazyAloneMatchesPerCell(t *testing.T) {
	plain := func(st *varState) bool {
		for i := range st.cells {
			if st.cells[i].reads >= 0 || st.cells[i].muts >= 0 {
				return false
			}
		}
		return true
	}
	check := func(st *varState, label string, at int) {
		t.Helper()
		if a, b := lazyAlone(st), plain(st); a != b {
			t.Fatalf("%s, %d cells, at %d: lazyAlone %v, per cell %v", label, len(st.cells), at, a, b)
		}
	}
	for n := 0; n <= 41; n++ {
		st := &varState{cells: make([]cell, n)}
		for i := range st.cells {
			st.cells[i].reads, st.cells[i].muts = -1, -1
		}
		check(st, "empty", -1)
		for at := 0; at < n; at++ {
			for _, h := range []int32{0, 1, 7, 1 << 30} {
				st.cells[at].reads = h
				check(st, "reads", at)
				st.cells[at].reads, st.cells[at].muts = -1, h
				check(st, "muts", at)
				st.cells[at].muts = -1
			}
		}
	}
	rng := rand.New(rand.NewSource(39))
	for k := 0; k < 20000; k++ {
		st := &varState{cells: make([]cell, rng.Intn(70))}
		for i := range st.cells {
			st.cells[i].reads, st.cells[i].muts = -1, -1
			if rng.Intn(60) == 0 {
				st.cells[i].reads = int32(rng.Intn(5))
			}
			if rng.Intn(60) == 0 {
				st.cells[i].muts = int32(rng.Intn(5))
			}
		}
		check(st, "random", k)
	}
}

// TestIdentityCellsMatchesPerCell: identityCells (recordLazy's test,
// four at a time; stop 39) answers as the per-cell comparison, for every
// length 0-41 with the identity and with each position changed (to
// another index, its neighbour's, -1, a large value), and on random
// permutations and lists.
func TestIdentityCellsMatchesPerCell(t *testing.T) {
	plain := func(cs []int32) bool {
		for i, c := range cs {
			if c != int32(i) {
				return false
			}
		}
		return true
	}
	check := func(cs []int32, at int) {
		t.Helper()
		if a, b := identityCells(cs), plain(cs); a != b {
			t.Fatalf("%v at %d: identityCells %v, per cell %v", cs, at, a, b)
		}
	}
	for n := 0; n <= 41; n++ {
		cs := make([]int32, n)
		for i := range cs {
			cs[i] = int32(i)
		}
		check(cs, -1)
		for at := 0; at < n; at++ {
			for _, v := range []int32{int32(at) + 1, int32(at) - 1, -1, 1 << 30, int32(at) ^ 4, int32(at) ^ 1} {
				cs[at] = v
				check(cs, at)
			}
			cs[at] = int32(at)
		}
	}
	rng := rand.New(rand.NewSource(39))
	for k := 0; k < 20000; k++ {
		n := rng.Intn(70)
		cs := make([]int32, n)
		for i := range cs {
			cs[i] = int32(i)
		}
		switch rng.Intn(3) {
		case 0:
			if n > 1 {
				i, j := rng.Intn(n), rng.Intn(n)
				cs[i], cs[j] = cs[j], cs[i]
			}
		case 1:
			for i := range cs {
				cs[i] = int32(rng.Intn(n + 1))
			}
		}
		check(cs, k)
	}
}
