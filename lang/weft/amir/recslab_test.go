package amir

import (
	"fmt"
	"testing"
)

// TestRecSlabReuseMatchesFresh: a machine run again reuses its record
// chunks, whose records then hold the last run's contents until taken
// (recslab.go: takeRecord zeroes them), and runs exactly as a fresh
// machine on a fresh copy of the program. TestThreadReplayMatchesFull's
// programs (per-thread commit groups and shared barriers: records that
// gain grants and counts, freed and taken again), TestGridEventMatchesEager's
// (grid copies of records), TestThreadSymMatchesFull's (thread-symmetric
// copies) and TestThreadGroupsMatchPerThread's (group expansions) run
// three times on one machine and once on a fresh one; every Result must
// be identical (the memory estimate counts the chunks the machine holds).
// Some of the programs must hold more records than one chunk.
func TestRecSlabReuseMatchesFresh(t *testing.T) {
	progs := []func(int64) *Program{randomReplayProgram, randomGridProgram, randomThreadSymProgram, randomGroupProgram}
	gridEvents = true
	defer func() { gridEvents = false }()
	multi := 0
	for k, gen := range progs {
		for seed := int64(0); seed < 800; seed++ {
			m := New(gen(seed), Config{MaxHazards: 100})
			want := *New(gen(seed), Config{MaxHazards: 100}).Run(nil)
			want.Stats.Memory = 0
			w := fmt.Sprintf("%+v", want)
			for rep := 0; rep < 3; rep++ {
				got := *m.Run(nil)
				got.Stats.Memory = 0
				if g := fmt.Sprintf("%+v", got); g != w {
					t.Fatalf("generator %d seed %d run %d:\nreused %s\nfresh  %s", k, seed, rep, g, w)
				}
			}
			if len(m.recs.tab) > 1 {
				multi++
			}
		}
	}
	t.Logf("%d programs took more than one chunk", multi)
	if multi < 100 {
		t.Fatalf("weak coverage: %d programs took more than one chunk", multi)
	}
}
