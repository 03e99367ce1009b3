package amir

import (
	"fmt"
	"testing"
)

// TestGridUniformMatchesWalk: gridCompare's uniform regions
// (thgrid_uni.go) give the Result of the walk of every point
// (noGridUniform) and of runs without grids, on every random program
// generator, with lazy records at every size (lazyCellsMin 1) or at 64
// cells.
func TestGridUniformMatchesWalk(t *testing.T) {
	defer func(n int) { lazyCellsMin = n }(lazyCellsMin)
	var skips, hazards int64
	for k, prog := range randomGens() {
		for seed := int64(0); seed < 400; seed++ {
			lazyCellsMin = []int{1, 64}[seed%2]
			ms := [3]*Machine{}
			for i := range ms {
				ms[i] = New(prog(seed), Config{MaxHazards: 100})
			}
			ms[1].noGridUniform = true
			ms[2].noGrid = true
			if runWays(t, fmt.Sprintf("generator %d seed %d", k, seed), ms[:], []string{"uniform", "walked ", "full   "}) {
				hazards++
			}
			if ms[1].gridUniSkips != 0 {
				t.Fatalf("generator %d seed %d: noGridUniform skipped %d points", k, seed, ms[1].gridUniSkips)
			}
			skips += ms[0].gridUniSkips
		}
	}
	t.Logf("%d points skipped in uniform regions, %d programs with hazards", skips, hazards)
	if skips < 5000 || hazards < 1000 {
		t.Fatalf("weak coverage: %d points skipped, %d programs with hazards", skips, hazards)
	}
}
