package amir_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"weft.dev/weft/lang/weft/amir"
)

// The hardware mbarrier model's differential tests (hwstale, mbar_clock,
// mut30, clk30) each compare `weft check --json` of a program with a fast
// path on and off (amir.HWNoStale, amir.HWNoClock: a switch that returns
// the fast path's hit counter). Stop 30's tests wrote that comparison out
// again each time; these are the one copy (issue 13, stop 31).

// writeChunk writes src to dir/name, a chunk checked at args.
func writeChunk(t *testing.T, dir, name, src string, args []string) mbarChunk {
	t.Helper()
	c := mbarChunk{src: name, path: filepath.Join(dir, name), args: args}
	if err := os.WriteFile(c.path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return c
}

// hwOnAfter turns both fast paths back on when t ends.
func hwOnAfter(t *testing.T) {
	t.Cleanup(func() {
		amir.HWNoClock(false)
		amir.HWNoStale(false)
	})
}

// hwTally counts a differential test's programs by the plain path's
// output (W0609 among its diagnostics, or none at all) and the checks the
// fast path answered.
type hwTally struct {
	w0609, clean, hits int
}

// fastVsPlain checks c with the fast path that sw switches on, then off,
// and reports (t.Errorf, naming the run by label and the outputs by on
// and off, with c's source) whether both gave the same output; it tallies
// the plain output and the fast path's hits, and returns the plain one.
func (h *hwTally) fastVsPlain(t *testing.T, c mbarChunk, sw func(off bool) *int, label, on, off string) (string, bool) {
	t.Helper()
	n := sw(false)
	fast := c.checkJSON()
	sw(true)
	plain := c.checkJSON()
	h.hits += *n
	switch {
	case strings.Contains(plain, "W0609"):
		h.w0609++
	case strings.TrimSpace(plain) == "[]":
		h.clean++
	}
	if fast != plain {
		src, _ := os.ReadFile(c.path)
		t.Errorf("%s:\n%s\n%s:\n%s\n%s:\n%s", label, src, on, fast, off, plain)
		return plain, false
	}
	return plain, true
}
