package amir

import (
	"fmt"
	"testing"
)

// TestPendArenaMatchesOwn: records whose first arrive counts live in the
// shared arena (pendStore) behave as records with lists of their own.
// TestThreadReplayMatchesFull's programs (per-thread commit groups and
// shared barriers: many records gain counts, from one Arrive or several),
// TestGridEventMatchesEager's (grid copies of records with counts),
// TestThreadSymMatchesFull's (thread-symmetric copies) and
// TestThreadGroupsMatchPerThread's (group expansions) run both ways,
// twice on one machine; the whole Result must be identical.
func TestPendArenaMatchesOwn(t *testing.T) {
	progs := []func(int64) *Program{randomReplayProgram, randomGridProgram, randomThreadSymProgram, randomGroupProgram}
	gridEvents = true
	defer func() { gridEvents = false }()
	used := 0
	for k, gen := range progs {
		for seed := int64(0); seed < 1500; seed++ {
			m1 := New(gen(seed), Config{MaxHazards: 100})
			m2 := New(gen(seed), Config{MaxHazards: 100})
			m2.noPendArena = true
			for rep := 0; rep < 2; rep++ {
				r1, r2 := *m1.Run(nil), *m2.Run(nil)
				g, w := fmt.Sprintf("%+v", r1), fmt.Sprintf("%+v", r2)
				if g != w {
					t.Fatalf("generator %d seed %d run %d:\narena %s\nown   %s", k, seed, rep, g, w)
				}
			}
			if len(m1.pendArena) > 0 {
				used++
			}
		}
	}
	t.Logf("%d programs used the arena", used)
	if used < 2000 {
		t.Fatalf("weak coverage: %d programs used the arena", used)
	}
}
