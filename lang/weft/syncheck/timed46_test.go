package syncheck

import (
	"os"
	"testing"
)

// TestTimedRuns: a run reads the clock only when Options.Timed asks
// (`--sync-stats`; issue 13, stop 46), and then its Elapsed is the run's.
func TestTimedRuns(t *testing.T) {
	src, err := os.ReadFile("../../../examples/weft/sync/smem_sum.weft")
	if err != nil {
		t.Fatal(err)
	}
	for _, timed := range []bool{false, true} {
		errs, runs := checkSource(t, "smem_sum.weft", string(src), Options{Timed: timed})
		if errs.HasErrors() || len(runs) == 0 {
			t.Fatalf("timed=%v: %d runs, errors %v", timed, len(runs), errs.Err())
		}
		for _, r := range runs {
			if timed && r.Elapsed <= 0 {
				t.Errorf("timed run %s %s: Elapsed %v, want > 0", r.Proc, r.Sizes, r.Elapsed)
			}
			if !timed && r.Elapsed != 0 {
				t.Errorf("untimed run %s %s: Elapsed %v, want 0", r.Proc, r.Sizes, r.Elapsed)
			}
		}
	}
}
