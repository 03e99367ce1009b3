package driver

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"weft.dev/weft/frontend"
)

// TestCheckFlagsReset: every flag a check sets is back at its default for
// the next check, whether that one declares the flag set or not
// (checkArgs), and the output is that of a first check.
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

// flagVars is the state of every flag variable of weft check's checkers.
func flagVars() string {
	return fmt.Sprint(syncMaxHazards, syncStopAfter, syncRedundantSync, syncStats, syncMaxTasks, syncMaxCells, int64(syncMaxMemory), gpuThreads.mode)
}

// TestCheckArgsFastPath: arguments that checkArgs reads without the flag
// set give the positional arguments, switches and flag variables that the
// flag package gives them, after a check that had set every flag; every
// other argument starting with "-" goes through the flag package.
func TestCheckArgsFastPath(t *testing.T) {
	setAll := []string{"f.weft", "--max-hazards", "3", "--stop-after", "1", "--max-memory", "1G", "--max-tasks", "7", "--max-cells", "9", "--threads=svg", "--sync-stats", "--redundant-sync"}
	plain := [][]string{
		nil,
		{"f.weft"},
		{"f.weft", "N=1"},
		{"-q", "f.weft", "NCTA=2"},
		{"f.weft", "--json", "M=4", "-q"},
		{"--q", "a", "-json", "b=1", ""},
		{"f.weft", "x", "y"},
	}
	var errb bytes.Buffer
	env := &frontend.Env{Stdout: &errb, Stderr: &errb}
	for _, args := range plain {
		if _, _, _, ok := plainCheckArgs(args); !ok {
			t.Fatalf("%q: not read without the flag set", args)
		}
		if _, _, _, ok := checkArgs(env, setAll); !ok {
			t.Fatal(errb.String())
		}
		pos, asJSON, quiet, ok := checkArgs(env, args)
		fast := fmt.Sprint(pos, asJSON, quiet, ok, flagVars())
		if _, _, _, ok := checkArgs(env, setAll); !ok {
			t.Fatal(errb.String())
		}
		cf := newCheckFlagSet()
		cf.fs.SetOutput(&errb)
		fpos, err := parseArgs(cf.fs, args)
		if err != nil {
			t.Fatalf("%q: %v", args, err)
		}
		if fpos == nil {
			fpos = []string{}
		}
		full := fmt.Sprint(fpos, *cf.asJSON, *cf.quiet, true, flagVars())
		if fast != full {
			t.Errorf("%q: without the flag set %s, with it %s", args, fast, full)
		}
	}
	for _, args := range [][]string{
		{"f.weft", "-q=true"}, {"f.weft", "--json=false"}, {"-"}, {"--", "f.weft"}, {"-h"}, {"f.weft", "--sync-stats"},
		{"f.weft", "---q"}, {"f.weft", "-Q"}, {"f.weft", "--max-hazards", "2"}, {"-threads", "f.weft"},
	} {
		if _, _, _, ok := plainCheckArgs(args); ok {
			t.Errorf("%q: read without the flag set", args)
		}
	}
}
