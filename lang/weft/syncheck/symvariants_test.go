package syncheck

import (
	"fmt"
	"testing"
)

// symTally counts a differential test's generated variants (symVariants).
type symTally struct {
	rejected, accepted, flagged int
	used, usedFlagged, unused   int
}

// symVariants makes n variants (gen: the i-th's file name, source, a
// description for the messages, and its sizes), converts each, and
// compares its check with and without symmetry (symVsFull; what names
// the symmetric run). More than n/4 variants rejected statically fail
// the test. It returns the counts: accepted or flagged by the check, and
// whether symmetry was used (it skipped operations beyond those of the
// full run), and flagged among those. TestThreadSymDiagnostics,
// TestGridDiagnostics, TestGridBlockDiagnostics and
// TestThreadSymRmemDiagnostics share it (issue 13, stop 31: the loop was
// written out in each).
func symVariants(t *testing.T, n int, what string, gen func(i int) (name, src string, desc any, args []int)) symTally {
	t.Helper()
	var c symTally
	for i := 0; i < n; i++ {
		name, src, desc, args := gen(i)
		prog, static := convertRing(name, src)
		if prog == nil {
			c.rejected++
			if c.rejected > n/4 {
				t.Fatalf("too many variants rejected statically; last %+v:\n%s\n%s", desc, static, src)
			}
			continue
		}
		res0, used := symVsFull(t, prog, args, fmt.Sprintf("variant %d %+v", i, desc), what, src)
		if res0.OK() {
			c.accepted++
		} else {
			c.flagged++
		}
		if used {
			c.used++
			if !res0.OK() {
				c.usedFlagged++
			}
		} else {
			c.unused++
		}
	}
	return c
}
