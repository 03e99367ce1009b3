package cudagen

import "weft.dev/weft/lang/weft/syntax"

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
