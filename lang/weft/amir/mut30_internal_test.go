package amir

import (
	"fmt"
	"testing"
)

// TestMut30GridBlockSeeds (stop 30, mut30): TestGridBlockMatchesFull's
// comparison (block grids, thgrid_blk.go, against the same program with
// no grid and with eager slabs) on further seeds of randomBlockProgram.
// MUT30_BLK_N sets the seeds (default 300; the mutant runs of
// docs/weft-sync.md "stop 30: mutants of the new fast paths" used 6 000).
func TestMut30GridBlockSeeds(t *testing.T) {
	n := int64(EnvCount("MUT30_BLK_N", 300))
	runs := blockGridSeeds(t, 100000, n, false)
	t.Logf("%d seeds, %d block grid runs", n, runs)
	if runs == 0 {
		t.Fatalf("no block grid ran in %d seeds", n)
	}
}

// TestMut30KeepSeeds (stop 30, mut30): TestThreadSymKeepMatchesMaterialized's
// comparison (thkeep.go's whole-variable statements on the virtual state,
// against materializing first and against no symmetry) on further seeds
// of randomKeepProgram. MUT30_KEEP_N sets the seeds (default 300; once
// run with 20 000 on main, stop 30).
func TestMut30KeepSeeds(t *testing.T) {
	n := int64(EnvCount("MUT30_KEEP_N", 300))
	var keeps int64
	for seed := int64(100000); seed < 100000+n; seed++ {
		d := keepDiff(func() *Program { return randomKeepProgram(seed) })
		d.runs(t, fmt.Sprintf("seed %d", seed))
		keeps += d.ms[0].thKeeps
	}
	t.Logf("%d seeds, %d statements kept virtual", n, keeps)
	if keeps == 0 {
		t.Fatalf("no statement kept virtual in %d seeds", n)
	}
}
