package amir

import (
	"fmt"
	"testing"
)

// TestThreadSymClassesSeenMatchesFull: thsymClassesOf reuses a thread
// loop's classes at its later entries over the same range when its
// conditions read only the thread (stop 31). The programs are
// TestThreadSymClassesMatchesFull's with exact control slots (conditions
// on the thread alone, and conditions on the thread and the enclosing
// k whose classes change with k: those must be classified again), the
// loop entered up to 3 times a task; each runs with and without
// symmetry, twice on one machine, and the reuse must have happened.
func TestThreadSymClassesSeenMatchesFull(t *testing.T) {
	var classes, reused int64
	hazards := 0
	for seed := int64(0); seed < 3000; seed++ {
		cfg := Config{MaxHazards: 100, StopAfter: int(seed % 3)}
		m1 := New(randomClassesProgramCtl(seed, true), cfg)
		m2 := New(randomClassesProgramCtl(seed, true), cfg)
		m2.noThreadSym = true
		for rep := 0; rep < 2; rep++ {
			before := m1.thClassRuns
			r1, r2 := *m1.Run(nil), *m2.Run(nil)
			r1.Stats.Memory, r2.Stats.Memory = 0, 0
			r1.Stats.SkippedOps, r2.Stats.SkippedOps = 0, 0
			g, w := fmt.Sprintf("%+v", r1), fmt.Sprintf("%+v", r2)
			if g != w {
				t.Fatalf("seed %d run %d:\nsymmetric %s\nfull      %s", seed, rep, g, w)
			}
			if rep == 0 && r1.Distinct > 0 {
				hazards++
			}
			if n := m1.thClassRuns - before; n > int64(len(m1.thClassSeen)) {
				reused += n - int64(len(m1.thClassSeen))
			}
		}
		classes += m1.thClassRuns
	}
	t.Logf("%d loops by classes, at least %d of them from reused classes; %d programs with hazards", classes, reused, hazards)
	if classes < 1000 || reused < 500 || hazards < 300 {
		t.Fatalf("weak coverage: %d by classes, %d reused, %d with hazards", classes, reused, hazards)
	}
}
