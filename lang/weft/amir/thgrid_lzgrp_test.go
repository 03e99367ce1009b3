package amir

import (
	"fmt"
	"testing"
)

// TestLazySlabsMatchEager: deferred thread groups left deferred in
// deferred slabs (thgrid_lzgrp.go) change nothing in the Result but the
// memory estimate and SkippedOps. randomGridProgram with warp-like groups
// over the grid's threads (gridWarpRecs; with and without events) runs
// with them, with every group that gridCompare or a walk of deferred
// slabs meets made (noLazySlabs, the code before), with no deferred
// groups at all (noLazyGroups) and without grid symmetry, twice on one
// machine.
func TestLazySlabsMatchEager(t *testing.T) {
	gridWarpRecs = true
	defer func() { gridWarpRecs, gridEvents = false, false }()
	var kept, hazards int64
	for _, ev := range []bool{false, true} {
		gridEvents = ev
		for seed := int64(0); seed < gridSeeds; seed++ {
			ms := [4]*Machine{}
			for i := range ms {
				ms[i] = New(randomGridProgram(seed), Config{MaxHazards: 100})
			}
			ms[1].noLazySlabs = true
			ms[2].noLazyGroups = true
			ms[3].noGrid = true
			for rep := 0; rep < 2; rep++ {
				var out [4]string
				var distinct int
				for i, m := range ms {
					r := *m.Run(nil)
					r.Stats.Memory, r.Stats.SkippedOps = 0, 0
					out[i] = fmt.Sprintf("%+v", r)
					distinct = r.Distinct
				}
				if out[0] != out[1] || out[0] != out[2] || out[0] != out[3] {
					t.Fatalf("events %v seed %d run %d:\nlazy slabs %s\nmade       %s\neager      %s\nfull       %s", ev, seed, rep, out[0], out[1], out[2], out[3])
				}
				if rep == 0 && distinct > 0 {
					hazards++
				}
			}
			kept += ms[0].lzSlabKept
		}
	}
	t.Logf("%d slab copies compared deferred, %d programs with hazards", kept, hazards)
	if kept < 5000 || hazards < 300 {
		t.Fatalf("weak coverage: %d slab copies compared deferred, %d programs with hazards", kept, hazards)
	}
}
