package amir

import (
	"fmt"
	"os"
	"strconv"
	"testing"
)

// TestMut30GridBlockSeeds (stop 30, mut30): TestGridBlockMatchesFull's
// comparison (block grids, thgrid_blk.go, against the same program with
// no grid and with eager slabs) on further seeds of randomBlockProgram.
// MUT30_BLK_N sets the seeds (default 300; the mutant runs of
// docs/weft-sync.md "stop 30: mutants of the new fast paths" used 6 000).
func TestMut30GridBlockSeeds(t *testing.T) {
	n := int64(300)
	if s := os.Getenv("MUT30_BLK_N"); s != "" {
		v, _ := strconv.Atoi(s)
		n = int64(v)
	}
	var runs int64
	for seed := int64(100000); seed < 100000+n; seed++ {
		m1 := New(randomBlockProgram(seed, false), Config{MaxHazards: 100})
		m2 := New(randomBlockProgram(seed, false), Config{MaxHazards: 100})
		m3 := New(randomBlockProgram(seed, false), Config{MaxHazards: 100})
		m2.noGrid = true
		m3.gridDefer = false
		for rep := 0; rep < 2; rep++ {
			r1, r2, r3 := *m1.Run(nil), *m2.Run(nil), *m3.Run(nil)
			for _, r := range []*Result{&r1, &r2, &r3} {
				r.Stats.Memory, r.Stats.SkippedOps = 0, 0
			}
			g, w, e := fmt.Sprintf("%+v", r1), fmt.Sprintf("%+v", r2), fmt.Sprintf("%+v", r3)
			if g != w || e != w {
				t.Fatalf("seed %d run %d:\nblock grid %s\neager      %s\nfull       %s", seed, rep, g, e, w)
			}
		}
		runs += m1.gridRuns
	}
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
	n := int64(300)
	if s := os.Getenv("MUT30_KEEP_N"); s != "" {
		v, _ := strconv.Atoi(s)
		n = int64(v)
	}
	var keeps int64
	for seed := int64(100000); seed < 100000+n; seed++ {
		m1 := New(randomKeepProgram(seed), Config{MaxHazards: 100})
		m2 := New(randomKeepProgram(seed), Config{MaxHazards: 100})
		m2.thsymNoKeep = true
		m3 := New(randomKeepProgram(seed), Config{MaxHazards: 100})
		m3.noThreadSym = true
		for rep := 0; rep < 2; rep++ {
			r1, r2, r3 := *m1.Run(nil), *m2.Run(nil), *m3.Run(nil)
			for _, r := range []*Result{&r1, &r2, &r3} {
				r.Stats.Memory, r.Stats.SkippedOps = 0, 0
			}
			g, w, f := fmt.Sprintf("%+v", r1), fmt.Sprintf("%+v", r2), fmt.Sprintf("%+v", r3)
			if g != w || g != f {
				t.Fatalf("seed %d run %d:\nkept         %s\nmaterialized %s\nfull         %s", seed, rep, g, w, f)
			}
		}
		keeps += m1.thKeeps
	}
	if keeps == 0 {
		t.Fatalf("no statement kept virtual in %d seeds", n)
	}
}
