package cudagen

import (
	"fmt"

	"weft.dev/weft/lang/weft/syntax"
)

// weft check runs the generator for its diagnostics alone
// (Options.CheckOnly). Generate's two passes differ only in what the facts
// of the first pass (facts) hold when the second one reads them: the first
// pass learns them as it goes, the second reads them complete. So under
// CheckOnly the first pass runs in single mode: it reports what the second
// pass would report (the errors only the second pass reports are reported
// too, the first pass's own consistency errors, which Generate has always
// dropped, are not) and logs every fact it reads that can change a
// diagnostic or the statements lowered after it (factRead). When at the end
// each logged read still gives the value the pass saw, the second pass
// would have read the same values, taken the same paths and reported the
// same diagnostics in the same order: the single pass's diagnostics are
// the result and the second pass is skipped. Otherwise Generate runs the
// second pass as before (issue 13: the second pass was half of the
// generator's time in weft check).
//
// Facts read only for the text (the capture order, mbarrier bytes, expect-tx
// bytes, which iterators and scalars are read, the arrive counts, the
// commit-group timeline of a fence) need no log: CheckOnly formats none.

// A device allocation reads the number of its distributed dimensions
// (facts.distDims), which the accesses after it give. When the pass has not
// seen such an access yet, the second pass would read the final count, so
// the single pass keeps the diagnostics of every possible count
// (pendingAlloc) and reports those of the final count at the end
// (reportPending). Which diagnostics those are is all that the lowering of
// the allocation changes under CheckOnly: the rest of it (the declaration,
// the SMEM offsets, a register's scalarization) is text. The report comes
// later in the list than the second pass would put it; weft check sorts
// the diagnostics (frontend.Report).
type pending struct {
	off  int
	errs [][]pendingErr // by the number of distributed dimensions
}

type pendingErr struct {
	n         syntax.Node
	code, msg string
}

// pendingAlloc records the diagnostics of allocation a for each possible
// number of distributed dimensions.
func (g *gen) pendingAlloc(x *exprCtx, v *sym, a *syntax.Alloc, mem string) {
	p := pending{off: a.Pos().Offset}
	for nd := 0; nd <= len(v.dims); nd++ {
		var errs []pendingErr
		g.allocLen(x, v, a, mem, v.dims[nd:], func(n syntax.Node, code, format string, args ...any) {
			errs = append(errs, pendingErr{n, code, fmt.Sprintf(format, args...)})
		})
		p.errs = append(p.errs, errs)
	}
	g.pending = append(g.pending, p)
}

// reportPending reports the diagnostics of the pending allocations for the
// final numbers of distributed dimensions.
func (g *gen) reportPending() {
	for _, p := range g.pending {
		nd := g.facts.distDims[p.off]
		if nd >= len(p.errs) {
			nd = len(p.errs) - 1
		}
		for _, e := range p.errs[nd] {
			g.errorf(e.n, e.code, "%s", e.msg)
		}
	}
}

// factRead notes that the pass read a fact that can change a diagnostic;
// ok reports whether the fact, read again now, gives the same value.
func (g *gen) factRead(ok func() bool) {
	if g.single {
		g.reads = append(g.reads, ok)
	}
}

// readsHold reports whether every logged fact read still holds.
func (g *gen) readsHold() bool {
	for _, ok := range g.reads {
		if !ok() {
			return false
		}
	}
	return true
}

// pass1Errorf reports a consistency error the first pass finds while it
// learns a fact. Generate drops the first pass's diagnostics, so these have
// never been reported; the single pass of CheckOnly, which reports its
// diagnostics, leaves them out too, to report exactly what two passes do.
func (g *gen) pass1Errorf(n syntax.Node, code, format string, args ...any) {
	if !g.single {
		g.errorf(n, code, format, args...)
	}
}
