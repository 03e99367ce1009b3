package syncheck

import (
	"os"
	"strings"
	"testing"
)

// TestStopAfter: Options.StopAfter (weft check --stop-after N) ends a run
// at its Nth distinct hazard. tk_split_gemm without the consumers'
// Await(full) (bench/syncref: test_coop_missing_await_raw) has several
// distinct hazards; with StopAfter 1 the run reports exactly the full
// run's first one, rejected all the same, after fewer failing checks.
func TestStopAfter(t *testing.T) {
	b, err := os.ReadFile("../../../examples/weft/exo/tk_split_gemm.weft")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	if strings.TrimSpace(lines[87]) != "Await(full[cn, k], cuda_generic_and_async_proxy, 0)" {
		t.Fatalf("line 88 is %q", lines[87])
	}
	src := strings.Join(append(lines[:87:87], lines[88:]...), "\n")
	sizes := map[string]int64{"L": 1, "M": 128, "N": 128, "S": 1, "K": 128}
	_, full := checkSource(t, "tk.weft", src, Options{Sizes: sizes, MaxHazards: 10})
	_, first := checkSource(t, "tk.weft", src, Options{Sizes: sizes, MaxHazards: 10, StopAfter: 1})
	if len(full) != 1 || len(first) != 1 {
		t.Fatalf("runs: %d, %d", len(full), len(first))
	}
	f, s := full[0].Result, first[0].Result
	if f.Distinct < 3 || s.Distinct != 1 || len(s.Hazards) != 1 || s.OK() {
		t.Fatalf("distinct hazards: full run %d, stopped run %d (%d reported)", f.Distinct, s.Distinct, len(s.Hazards))
	}
	h0, h1 := f.Hazards[0], s.Hazards[0]
	if h0.Kind != h1.Kind || h0.Src != h1.Src || h0.Other != h1.Other || h0.Task != h1.Task || h0.Thread != h1.Thread {
		t.Fatalf("first hazard: full run %+v, stopped run %+v", h0, h1)
	}
	if s.Occurrences >= f.Occurrences || s.Stats.MemOps >= f.Stats.MemOps {
		t.Fatalf("the stopped run did not stop: %d of %d failing checks, %d of %d memory ops", s.Occurrences, f.Occurrences, s.Stats.MemOps, f.Stats.MemOps)
	}
}
