package amir

import (
	"fmt"
	"testing"
)

// TestReplayClassNotKeptAcrossRuns: a second Run of one Machine takes no
// replay class kept by the first (stop 42, mut42's lead). The class is
// keyed on the log length and the record's stamp, which restart with
// every run, so a class the last run kept could match a record of the
// next one whose range holds other events (another run's arguments).
// The first run's kept end state is made wrong on purpose; the second
// run must still agree with a fresh machine.
func TestReplayClassNotKeptAcrossRuns(t *testing.T) {
	kept := 0
	for seed := int64(0); seed < 300; seed++ {
		m := New(replayClassProgram(seed), Config{MaxHazards: 100})
		m.Run(nil)
		if !m.rclass.ok {
			continue
		}
		kept++
		// A wrong end state: no grants, a reach no replay gives.
		m.rclass.reachOut = -7
		m.rclass.grantsOut = m.rclass.grantsOut[:0]
		r1 := *m.Run(nil)
		r2 := *New(replayClassProgram(seed), Config{MaxHazards: 100}).Run(nil)
		r1.Stats.Memory, r2.Stats.Memory = 0, 0
		if a, b := fmt.Sprintf("%+v", r1), fmt.Sprintf("%+v", r2); a != b {
			t.Fatalf("seed %d: second run\n%s\nfresh machine\n%s", seed, a, b)
		}
	}
	if kept < 30 {
		t.Fatalf("weak coverage: %d of 300 first runs kept a replay class", kept)
	}
}
