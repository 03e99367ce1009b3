package amir

import (
	"fmt"
	"testing"
)

// TestRdIndexMatchesWalk: the read-creator index (rdindex.go) only spares
// gridSharedOK walks that find no failing read record. TestGridMatchesFull's
// programs (nests entered again over shared rows they read before, by the
// same or other threads, group records, staging by the grid's threads;
// with and without the Arrives and Awaits of TestGridEventMatchesEager)
// run with the index, verified (every spared walk done as well: none may
// find a record that fails condition 2), and without it (every walk
// done); the whole Result and the grid's uses must be identical, twice on
// one machine.
func TestRdIndexMatchesWalk(t *testing.T) {
	var skips, walks int64
	for _, ev := range []bool{false, true} {
		gridEvents = ev
		for seed := int64(0); seed < gridSeeds; seed++ {
			m1 := New(randomGridProgram(seed), Config{MaxHazards: 100})
			m2 := New(randomGridProgram(seed), Config{MaxHazards: 100})
			m1.rdVerify = true
			m2.noRdIdx = true
			for rep := 0; rep < 2; rep++ {
				r1, r2 := *m1.Run(nil), *m2.Run(nil)
				g, w := fmt.Sprintf("%+v", r1), fmt.Sprintf("%+v", r2)
				if g != w || m1.gridRuns != m2.gridRuns {
					t.Fatalf("events %v seed %d run %d:\nindex %s (%d grid runs)\nwalk %s (%d grid runs)", ev, seed, rep, g, m1.gridRuns, w, m2.gridRuns)
				}
				if m1.rdWrong != 0 {
					t.Fatalf("events %v seed %d run %d: the index spared %d walks that fail", ev, seed, rep, m1.rdWrong)
				}
			}
			skips += m1.rdSkips
			walks += m2.rdSkips
		}
	}
	gridEvents = false
	if walks != 0 {
		t.Fatalf("noRdIdx spared %d walks", walks)
	}
	t.Logf("%d read-list walks spared", skips)
	if skips < 1000 {
		t.Fatalf("weak coverage: %d read-list walks spared", skips)
	}
}
