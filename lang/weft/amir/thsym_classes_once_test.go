package amir

import (
	"fmt"
	"testing"
)

// TestClassesOnceMatchesTwice: thsymClasses tests each class once and
// registers the slices kept from that test, checking them against the
// classes registered ahead (thsymMeetsClasses; issue 13, stop 33); the
// stop-32 path tested each class again at its registration
// (thsymClassesTwice). Both make the same decisions: the same Result
// and the same counts of virtual runs, class runs and adoptions, on the
// classes and private-variable programs of the differential tests.
func TestClassesOnceMatchesTwice(t *testing.T) {
	var classes int64
	for seed := int64(0); seed < 3000; seed++ {
		for g, mk := range []func(int64) *Program{randomClassesProgram, randomPrivateThreadSymProgram} {
			d := newDiff(func() *Program { return mk(seed) }, []string{"once", "twice"}, func(i int, m *Machine) {
				m.thsymClassesTwice = true
			})
			d.runs(t, fmt.Sprintf("generator %d seed %d", g, seed))
			a, b := d.ms[0], d.ms[1]
			if a.thSymRuns != b.thSymRuns || a.thClassRuns != b.thClassRuns || a.thAdopts != b.thAdopts {
				t.Fatalf("generator %d seed %d: once %d runs, %d class runs, %d adoptions; twice %d, %d, %d",
					g, seed, a.thSymRuns, a.thClassRuns, a.thAdopts, b.thSymRuns, b.thClassRuns, b.thAdopts)
			}
			classes += a.thClassRuns
		}
	}
	t.Logf("%d class runs", classes)
	if classes < 1000 {
		t.Fatalf("weak coverage: %d class runs", classes)
	}
}
