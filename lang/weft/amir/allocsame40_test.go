package amir

import (
	"fmt"
	"testing"
)

// TestAllocSameMatchesFull: an allocation of the extents of the last one
// that keeps the per-dimension state (Machine.alloc, noAllocSame) changes
// nothing in the Result. The random programs of amir's tests run with the
// shortcut and with every allocation setting the state anew, twice each
// (the second run reuses the machine's state); the shortcut must be taken
// often, and never with noAllocSame.
func TestAllocSameMatchesFull(t *testing.T) {
	var same int64
	for g, gen := range randomGens() {
		for seed := int64(0); seed < 200; seed++ {
			m1 := New(gen(seed), Config{MaxHazards: 100})
			m2 := New(gen(seed), Config{MaxHazards: 100})
			m2.noAllocSame = true
			for rep := 0; rep < 2; rep++ {
				r1, r2 := *m1.Run(nil), *m2.Run(nil)
				r1.Stats.Memory, r2.Stats.Memory = 0, 0
				a, b := fmt.Sprintf("%+v", r1), fmt.Sprintf("%+v", r2)
				if a != b {
					t.Fatalf("generator %d seed %d run %d:\nkept %s\nset  %s", g, seed, rep, a, b)
				}
			}
			same += m1.allocSame
			if m2.allocSame != 0 {
				t.Fatalf("generator %d seed %d: %d kept with noAllocSame", g, seed, m2.allocSame)
			}
		}
	}
	t.Logf("%d allocations kept their state", same)
	if same < 1000 {
		t.Fatalf("weak coverage: %d allocations kept their state", same)
	}
}
