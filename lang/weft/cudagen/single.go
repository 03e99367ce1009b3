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
// too; the first pass's own consistency errors, which Generate has always
// dropped, are not). Where it reads a fact that can change a diagnostic or
// the statements lowered after it, it either logs the read (factRead) or,
// for facts that decide diagnostics only, keeps those diagnostics until the
// fact's final value is known (deferred, below). When at the end each
// logged read still gives the value the pass saw, the second pass would
// have read the same values, taken the same paths and reported the same
// diagnostics: the single pass's diagnostics are the result and the second
// pass is skipped. Otherwise Generate runs the second pass as before
// (issue 13: the second pass was half of the generator's time in weft
// check).
//
// Facts read only for the text (the capture order, mbarrier bytes, expect-tx
// bytes, which iterators and scalars are read, the arrive counts, the
// commit-group timeline of a fence) need no log: CheckOnly formats none.

// Some facts decide diagnostics only, and the pass reads them before the
// statements that give them their final value: the number of distributed
// dimensions of a device allocation (facts.distDims, given by the accesses
// after it), the ring sizes of an mbarrier (its Awaits' lags), whether a
// ring block has remote arrivals (another code path's multicast Arrive).
// The second pass would read their final values. For those the single
// pass computes the diagnostics of every possible value, or of the one
// that needs them, where it reads the fact, and reports those of the final
// value at the end (deferred, run by reportDeferred). Nothing else of the
// statement depends on the fact under CheckOnly (the declaration, the SMEM
// and mbarrier offsets, the barrier chosen are text). The reports come
// later in the list than the second pass would put them; weft check sorts
// the diagnostics (frontend.Report).

type pendingErr struct {
	n         syntax.Node
	code, msg string
}

// collect is a reportFunc that keeps the problems in errs.
func collect(errs *[]pendingErr) reportFunc {
	return func(n syntax.Node, code, format string, args ...any) {
		*errs = append(*errs, pendingErr{n, code, fmt.Sprintf(format, args...)})
	}
}

func (g *gen) reportErrs(errs []pendingErr) {
	for _, e := range errs {
		g.errorf(e.n, e.code, "%s", e.msg)
	}
}

// pendingAlloc records the diagnostics of allocation a for each possible
// number of distributed dimensions, to report those of the final number.
func (g *gen) pendingAlloc(x *exprCtx, v *sym, a *syntax.Alloc, mem string) {
	byND := make([][]pendingErr, len(v.dims)+1)
	for nd := range byND {
		g.allocLen(x, v, a, mem, v.dims[nd:], collect(&byND[nd]))
	}
	// Nothing to wait for when no count reports anything (most
	// allocations): the deferred report would be empty.
	empty := true
	for _, errs := range byND {
		empty = empty && len(errs) == 0
	}
	if empty {
		return
	}
	off := a.Pos().Offset
	g.deferred = append(g.deferred, func() {
		g.reportErrs(byND[min(g.facts.distDims.at(off), len(v.dims))])
	})
}

// reportDeferred reports the diagnostics that wait for final facts.
func (g *gen) reportDeferred() {
	for _, f := range g.deferred {
		f()
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
