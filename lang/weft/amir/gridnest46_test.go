package amir

import "testing"

// TestGridNestOfPastList: gridNestOf's list of nests and its map past it
// (issue 13, stop 46) give each nest one state for the run, the same at
// every entry, before and after the list fills.
func TestGridNestOfPastList(t *testing.T) {
	m := &Machine{}
	ss := make([]*Stmt, 3*gridNestsListed)
	for i := range ss {
		ss[i] = &Stmt{Src: i}
	}
	got := make([]*gridNest, len(ss))
	seen := map[*gridNest]bool{}
	for round := 0; round < 3; round++ {
		for i, s := range ss {
			if round == 0 && i > 0 {
				// An earlier nest again between first entries.
				if n := m.gridNestOf(ss[i-1]); n != got[i-1] {
					t.Fatalf("nest %d: a new state at its second entry", i-1)
				}
			}
			n := m.gridNestOf(s)
			if n.s != s {
				t.Fatalf("round %d: nest %d's state is another's", round, i)
			}
			if round == 0 {
				if seen[n] {
					t.Fatalf("nest %d shares a state", i)
				}
				seen[n], got[i] = true, n
			} else if got[i] != n {
				t.Fatalf("round %d: nest %d: a new state", round, i)
			}
		}
	}
	if m.gridBackoff == nil || len(m.gridBackoff) != len(ss) {
		t.Fatalf("past %d nests: no map of them all (%d)", gridNestsListed, len(m.gridBackoff))
	}
}
