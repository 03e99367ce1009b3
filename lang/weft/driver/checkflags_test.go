package driver

import (
	"bytes"
	"strings"
	"testing"

	"weft.dev/weft/frontend"
)

// TestCheckFlagsReset: weft check's flag sets are reused between checks
// (checkFlagSets); every flag a check sets is back at its default for the
// next one, and the output is that of a first check.
func TestCheckFlagsReset(t *testing.T) {
	src := "../../../bench/syncref/weft/per_cta_alloc.weft"
	run := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		env := &frontend.Env{Stdout: &out, Stderr: &errb, Stdin: bytes.NewReader(nil)}
		rc := checkVerb(env, append([]string{src, "NCTA=1"}, args...))
		return rc, out.String(), errb.String()
	}
	rc0, out0, err0 := run()
	if rc0 != 0 || !strings.Contains(err0, "weft check: ") {
		t.Fatalf("first check: %d %q %q", rc0, out0, err0)
	}
	for range 3 {
		rc, out, errs := run("--json", "-q", "--max-hazards", "3", "--stop-after", "1", "--max-memory", "1G", "--threads", "--sync-stats", "--redundant-sync")
		if rc != 0 || out == "" {
			t.Fatalf("check with flags: %d %q %q", rc, out, errs)
		}
		if syncMaxHazards != 3 || syncStopAfter != 1 || int64(syncMaxMemory) != 1<<30 || gpuThreads.mode != "text" || !syncStats || !syncRedundantSync {
			t.Fatalf("flags not set: %d %d %d %q %v %v", syncMaxHazards, syncStopAfter, syncMaxMemory, gpuThreads.mode, syncStats, syncRedundantSync)
		}
		rc, out, errs = run()
		if rc != rc0 || out != out0 || errs != err0 {
			t.Errorf("check after one with flags: %d %q %q, want %d %q %q", rc, out, errs, rc0, out0, err0)
		}
		if syncMaxHazards != 10 || syncStopAfter != 0 || gpuThreads.mode != "" || syncStats || syncRedundantSync {
			t.Errorf("flags not reset: %d %d %q %v %v", syncMaxHazards, syncStopAfter, gpuThreads.mode, syncStats, syncRedundantSync)
		}
	}
	// An unknown flag is a usage error, and the next check is unaffected.
	if rc, _, errs := run("--no-such-flag"); rc != 2 || !strings.Contains(errs, "no-such-flag") {
		t.Errorf("unknown flag: %d %q", rc, errs)
	}
	if rc, out, errs := run(); rc != rc0 || out != out0 || errs != err0 {
		t.Errorf("check after a usage error: %d %q %q", rc, out, errs)
	}
}
