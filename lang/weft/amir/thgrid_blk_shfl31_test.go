package amir

import (
	"fmt"
	"testing"
)

// TestLazyRegionsMatchEager: a block grid's deferred regions left unbuilt
// under a check by a set uniform on every region's frame (gridCheckRun
// over several regions) and under a lazy record (lazyOverRegions: stop
// 31, shfl31) change nothing in the Result. The programs of
// TestGridBlockMatchesFull and kill30's edge form (randomBlockProgram:
// the host's copy into D and out of it around the nests, parts of the
// grid reading or writing all of D between the phases, events by a lane,
// a pair, a block, a warp or the CTA) run four ways: both paths on, the
// regions built before the check (gridCheckDeferred off) or the record
// (noLazyRegions), and without grid symmetry, twice on one machine.
func TestLazyRegionsMatchEager(t *testing.T) {
	var checks, lazy, hazards int64
	for _, edges := range []bool{false, true} {
		for seed := int64(0); seed < 1500; seed++ {
			ms := [4]*Machine{}
			for i := range ms {
				ms[i] = New(randomBlockProgram(seed, edges), Config{MaxHazards: 100})
			}
			ms[1].gridCheckDeferred = false
			ms[2].noLazyRegions = true
			ms[3].noGrid = true
			for rep := 0; rep < 2; rep++ {
				var out [4]string
				for i, m := range ms {
					r := *m.Run(nil)
					r.Stats.Memory, r.Stats.SkippedOps = 0, 0
					out[i] = fmt.Sprintf("%+v", r)
					if i == 0 && rep == 0 && r.Distinct > 0 {
						hazards++
					}
				}
				if out[0] != out[3] || out[1] != out[3] || out[2] != out[3] {
					t.Fatalf("edges %v seed %d run %d:\nkept       %s\nchecks built %s\nrecord built %s\nfull       %s", edges, seed, rep, out[0], out[1], out[2], out[3])
				}
			}
			checks += ms[0].regionChecks
			lazy += ms[0].lazyRegions
		}
	}
	t.Logf("%d checks over several regions, %d lazy records over regions, %d programs with hazards", checks, lazy, hazards)
	if checks < 100 || lazy < 400 || hazards < 500 {
		t.Fatalf("weak coverage: %d checks over several regions, %d lazy records over regions, %d programs with hazards", checks, lazy, hazards)
	}
}
