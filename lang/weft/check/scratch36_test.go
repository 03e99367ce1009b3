package check

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"weft.dev/weft/diag"
)

// TestScratchTablesAcrossProcs (stop 36): the per-proc tables start in
// one checkScratch (names' first 16 slots, declared's and marks' first
// 8), and each proc's check reuses what the last left. A first proc of
// n parameters (past 8, names grows out of its first slots and declared
// out of its first array) and a second proc that uses the first's names
// must give the second proc the diagnostics it has alone: each of those
// names unknown (W0201), nothing else. Resetting names to its first
// slots at every proc (they still hold the entries of before the growth,
// with the count at zero) fails it: a probe that never meets a free slot
// hangs, caught here by a time limit.
func TestScratchTablesAcrossProcs(t *testing.T) {
	for _, n := range []int{1, 7, 8, 9, 17, 40} {
		var params, uses []string
		for i := range n {
			params = append(params, fmt.Sprintf("p%d: size", i))
			uses = append(uses, fmt.Sprintf("    assert p%d >= 0\n", i))
		}
		first := "def f(" + strings.Join(params, ", ") + "):\n    pass\n\n"
		second := "def g():\n" + strings.Join(uses, "")
		var alone, both *diag.List
		done := make(chan bool, 1)
		go func() {
			_, alone = checkSrc("g.weft", second)
			_, both = checkSrc("fg.weft", first+second)
			done <- true
		}()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Fatalf("n=%d: the checks did not end", n)
		}
		if len(alone.Diags) != n {
			t.Fatalf("n=%d: g alone: %d diagnostics, want %d:\n%s", n, len(alone.Diags), n, dump(alone))
		}
		if len(both.Diags) != len(alone.Diags) {
			t.Fatalf("n=%d: f then g: %d diagnostics, g alone %d:\n%s", n, len(both.Diags), len(alone.Diags), dump(both))
		}
		for i, d := range both.Diags {
			if a := alone.Diags[i]; d.Code != a.Code || d.Message != a.Message {
				t.Errorf("n=%d: diagnostic %d: %s %q after f, %s %q alone", n, i, d.Code, d.Message, a.Code, a.Message)
			}
		}
	}
}
