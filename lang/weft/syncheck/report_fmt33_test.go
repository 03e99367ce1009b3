package syncheck

import (
	"fmt"
	"strings"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/amir"
	"weft.dev/weft/lang/weft/lib"
)

// The report as it was before stop 33, with fmt.Sprintf: the reference
// the appending report (report.go, report_text.go) must match byte for
// byte (TestReportMatchesFmt). Only the names changed.

// report turns a run's hazards and faults into diagnostics.
func fmtReport(prog *Program, run *Run, errs *diag.List) {
	prog.fillQuals()
	p := prog.AMIR
	res := run.Result
	at := ""
	if run.Sizes != "" {
		at = " at " + run.Sizes
	}
	for _, f := range res.Faults {
		prog.fillPos(f.Src)
		if f.Limit != "" {
			errs.Errorf(pos(p.Srcs[f.Src].Pos), codeLimit, "the sync check of %s stopped%s: %s (%s raises it)", p.Name, at, f.Msg, limitFlags[f.Limit])
			continue
		}
		errs.Errorf(pos(p.Srcs[f.Src].Pos), codeFault, "the sync check of %s faulted%s: %s", p.Name, at, f.Msg)
	}
	for i := range res.Hazards {
		prog.fillPos(res.Hazards[i].Src)
		prog.fillText(res.Hazards[i].Other)
	}
	for i := range res.Hazards {
		h := &res.Hazards[i]
		src := p.Srcs[h.Src]
		if h.Kind == amir.BarrierMismatch && h.Arrives == 0 && p.Vars[h.Var].OneShotArrive {
			errs.Errorf(pos(src.Pos), codeBarrier, "barrier never arrived%s: %s is freed in %s without an Arrive; each logical barrier of a ring-buffered array must be arrived exactly once (pre-arrived indices count), or its ring slot's mbarrier stays a phase behind for the CTA's next task",
				at, fmtCell(p, h), fmtTaskName(p, h.TaskCoords))
			continue
		}
		if h.Kind == amir.BarrierMismatch {
			errs.Errorf(pos(src.Pos), codeBarrier, "arrive/await count mismatch%s: %s has %d arrives and %d awaits when it is freed in %s; every Arrive needs its Await",
				at, fmtCell(p, h), h.Arrives, h.Awaits, fmtTaskName(p, h.TaskCoords))
			continue
		}
		if h.Kind == amir.AwaitBeforeArrive {
			msg := fmt.Sprintf("await before its arrive%s: this Await by %s is await %d on %s and pairs with arrive %d (0-based, lag %d), but only %d arrives precede it in program order; it would wait for an Arrive that comes after it (on hardware a deadlock, or a pairing with another arrive): give it a larger lag, or arrive first",
				at, fmtThreadName(p, h.TaskCoords, h.Task, h.Thread, 1), h.Awaits, fmtCell(p, h), h.Paired, h.Awaits-h.Paired, h.Arrives)
			if h.Occurrences > 1 {
				msg += fmt.Sprintf(" (%d awaits)", h.Occurrences)
			}
			errs.Errorf(pos(src.Pos), codeEarlyAwait, "%s", msg)
			continue
		}
		if h.Kind == amir.PhaseAlias {
			fmtPhaseReport(p, h, at, src, errs)
			continue
		}
		other := p.Srcs[h.Other]
		q := p.QualNames
		later := fmt.Sprintf("%s (%s)", fmtThreadName(p, h.TaskCoords, h.Task, h.Thread, 1), h.Quals.Names(q))
		earlier := fmt.Sprintf("%s (%s, %s)", fmtThreadName(p, h.OtherTaskCoords, h.OtherTask, h.OtherStart, h.OtherThreads), qname(q, h.OtherQ), h.OtherLevel)
		verb := map[amir.HazardKind]string{
			amir.ReadAfterWrite:  "reads %s, but the write by %s is not visible to it",
			amir.WriteAfterWrite: "writes %s, but the earlier write by %s is not ordered before it",
			amir.WriteAfterRead:  "writes %s, but the earlier read by %s may not have finished",
			amir.AsyncInFlight:   "accesses %s, but its own async access (%s) is still in flight",
			amir.UseAfterFree:    "frees %s, but the access by %s may still be outstanding",
		}[h.Kind]
		msg := fmt.Sprintf("%s hazard%s: %s "+verb, h.Kind, at, later, fmtCell(p, h), earlier)
		if h.Kind == amir.AsyncInFlight {
			msg = fmt.Sprintf("%s%s: %s "+verb, h.Kind, at, later, fmtCell(p, h), earlier)
		}
		msg += "; " + fmtSuggest(prog, h)
		if h.Occurrences > 1 {
			msg += fmt.Sprintf(" (%d failing checks)", h.Occurrences)
		}
		d := errs.Errorf(pos(src.Pos), hazardCodes[h.Kind], "%s", msg)
		what := "the earlier access"
		switch h.Kind {
		case amir.ReadAfterWrite, amir.WriteAfterWrite:
			what = "the write"
		case amir.WriteAfterRead:
			what = "the read"
		case amir.AsyncInFlight:
			what = "the async access"
		}
		d.Note(pos(other.Pos), "%s is here: %s by %s", what, other.Text, earlier)
	}
	if more := res.Distinct - len(res.Hazards); more > 0 {
		errs.Infof(pos(p.Srcs[res.Hazards[len(res.Hazards)-1].Src].Pos), codeMore, "%d more distinct hazards%s not shown (%d failing checks in all; see --max-hazards)", more, at, res.Occurrences)
	}
}

func fmtCell(p *amir.Program, h *amir.Hazard) string {
	v := p.Vars[h.Var]
	if len(h.Index) == 0 {
		return v.Name
	}
	var parts []string
	for d, i := range h.Index {
		g := 1
		if d < len(h.Block) {
			g = h.Block[d]
		}
		if g > 1 {
			parts = append(parts, fmt.Sprintf("%d:%d", i, i+g))
		} else {
			parts = append(parts, fmt.Sprint(i))
		}
	}
	return v.Name + "[" + strings.Join(parts, ", ") + "]"
}

func fmtThreadName(p *amir.Program, coords []int, task, t, n int) string {
	switch {
	case task < 0:
		return "the CPU"
	case n > 1:
		return fmt.Sprintf("threads [%d, %d) of %s", t, t+n, fmtTaskName(p, coords))
	}
	return fmt.Sprintf("thread %d of %s", t, fmtTaskName(p, coords))
}

// taskName names a task by its cuda_tasks iterator values.
func fmtTaskName(p *amir.Program, coords []int) string {
	var parts []string
	for i, v := range coords {
		if i < len(p.TaskSlots) {
			parts = append(parts, fmt.Sprintf("%s=%d", p.Slots[p.TaskSlots[i]], v))
		}
	}
	return "task [" + strings.Join(parts, ", ") + "]"
}

// suggest says which synchronization would have ordered the two accesses:
// sync timelines whose full set holds the earlier access's timeline (first
// argument) and whose full (for reads) or temporal (for writes) set holds
// the later access's (second argument), in the smallest collective holding
// both threads.
func fmtSuggest(prog *Program, h *amir.Hazard) string {
	m := prog.Machines[h.Src]
	if h.OtherTask >= 0 && h.Task >= 0 && h.OtherTask != h.Task {
		return "accesses from different cuda_tasks iterations cannot be synchronized within one kernel: make the tasks access disjoint data"
	}
	// An async access is best waited for with its own instruction
	// timeline (e.g. wmma_async for a wgmma); otherwise the smallest
	// timeline covering it.
	first := ""
	if tl := prog.Lib.Timelines[prog.AMIR.Srcs[h.Other].Timeline]; tl != nil && amir.QualSet(tl.FullSet).Has(h.OtherQ) {
		first = tl.Name
	} else {
		first = pickTL(prog.Lib, func(tl *lib.SyncTL) bool { return amir.QualSet(tl.FullSet).Has(h.OtherQ) })
	}
	second := pickTL(prog.Lib, func(tl *lib.SyncTL) bool {
		if h.Kind == amir.ReadAfterWrite || h.Kind == amir.AsyncInFlight {
			return amir.QualSet(tl.FullSet)&h.Quals != 0
		}
		return amir.QualSet(tl.TemporalSet)&h.Quals != 0
	})
	if first == "" || second == "" {
		return "no sync timeline orders these timelines"
	}
	scope := scopeOf(m, h)
	if h.Kind == amir.UseAfterFree {
		return fmt.Sprintf("insert Fence(%s, %s) %s before the end of its scope", first, second, scope)
	}
	return fmt.Sprintf("order them with Fence(%s, %s) %s, or an Arrive(%s)/Await(_, %s) pair", first, second, scope, first, second)
}

// phaseReport renders a PhaseAlias hazard (amir/mbar.go): the barrier, the
// phases involved and the thread that breaks the hardware requirement.
func fmtPhaseReport(p *amir.Program, h *amir.Hazard, at string, src amir.Src, errs *diag.List) {
	who := fmtThreadName(p, h.TaskCoords, h.Task, h.Thread, 1)
	z := fmtCell(p, h)
	r := h.Ring
	ph := func(a int) string { return fmt.Sprintf("phase %d of ring slot %d", a/r, a%r) }
	var msg, note string
	if h.Across {
		msg, note = fmtAcrossReport(p, h, at, z, ph)
	}
	switch {
	case h.Across:
	case h.Phase == amir.PhaseCount:
		msg = fmt.Sprintf("mbarrier arrival count mismatch%s: this Arrive by %d threads (%s first) arrives on %s, whose mbarriers are initialized with arrival count %d; a phase would complete early or never: every Arrive on a barrier must come from collectives of one size",
			at, h.Awaits, who, z, h.Paired)
		note = "the arrival count is fixed by this Arrive"
	case h.Phase == amir.PhaseSlot:
		msg = fmt.Sprintf("mbarrier phase aliasing%s: %s arrives on %s as its own arrive %d, into %s, but this is arrive %d of the queue barrier, %s; each thread indexes the ring of %d mbarriers with its own count, so every thread of an Arrive must have made the same arrives",
			at, who, z, h.Awaits, ph(h.Awaits), h.Arrives, ph(h.Arrives), r)
	case h.Phase == amir.PhaseWrong:
		own := fmt.Sprintf("as its own await %d, which is one of its first %d awaits and returns at once", h.Arrives, h.Lag)
		if h.Arrives >= h.Lag {
			own = fmt.Sprintf("as its own await %d, waiting for the parity of %s (arrive %d)", h.Arrives, ph(h.Arrives-h.Lag), h.Arrives-h.Lag)
		}
		pair := "no arrive (one of the first lag awaits)"
		if h.Paired >= 0 {
			pair = fmt.Sprintf("arrive %d, %s", h.Paired, ph(h.Paired))
		}
		msg = fmt.Sprintf("mbarrier await of the wrong phase%s: %s awaits %s %s, but the queue barrier pairs this await (await %d) with %s; it can be satisfied by the wrong phase, or hang: every thread of an Await must have made the same awaits",
			at, who, z, own, h.Awaits, pair)
	case h.Phase == amir.PhaseUnawaited:
		last := "no arrive has been awaited yet"
		if h.Paired >= 0 {
			last = fmt.Sprintf("the latest awaited is arrive %d", h.Paired)
		}
		msg = fmt.Sprintf("mbarrier phase aliasing%s: arrive %d on %s (%s) reuses the mbarrier of arrive %d (%s) before any Await has observed that phase (%s); the await lag is too large for the ring of %d mbarriers",
			at, h.Arrives, z, ph(h.Arrives), h.Arrives-r, ph(h.Arrives-r), last, r)
	case h.Phase == amir.PhaseAhead:
		msg = fmt.Sprintf("mbarrier phase aliasing%s: no thread of this Arrive (%s) on %s (arrive %d, %s) is ordered after thread %d, which awaits the same mbarrier's previous phase (arrive %d, %s); the Arrive can complete phase %d before that thread observes phase %d (the mbarrier tracks only its phase parity), which it then misses: some arriving thread must wait, directly or through other barriers, for something that follows that Await",
			at, fmtThreadName(p, h.TaskCoords, h.Task, h.Thread, h.OtherThreads), z, h.Arrives, ph(h.Arrives), h.OtherStart, h.Arrives-r, ph(h.Arrives-r), h.Arrives/r, h.Arrives/r-1)
		note = fmt.Sprintf("the Await of phase %d is here, by thread %d", h.Arrives/r-1, h.OtherStart)
	case h.Phase == amir.PhaseEarly:
		msg = fmt.Sprintf("mbarrier phase aliasing%s: %s arrives on %s (arrive %d, %s), but is not ordered after any Await of the same mbarrier's previous phase (arrive %d, %s); it can run ahead and arrive while phase %d is still open, completing it early with an arrival meant for phase %d (the mbarrier tracks only its phase parity): it must wait, directly or through other barriers, for something that follows such an Await",
			at, who, z, h.Arrives, ph(h.Arrives), h.Arrives-r, ph(h.Arrives-r), h.Arrives/r-1, h.Arrives/r)
		note = fmt.Sprintf("an Await of phase %d is here, by thread %d", h.Arrives/r-1, h.OtherStart)
	case h.Phase == amir.PhaseStale:
		why := fmt.Sprintf("phase %d of that mbarrier; the mbarrier may still be in phase %d, whose parity differs, and the wait would return at once", h.Arrives-1, h.Arrives-1)
		if h.Arrives == 0 {
			why = "the pre-arrived indices that map to the same mbarrier (its phase -1, as the reference implementation counts them)"
		}
		msg = fmt.Sprintf("mbarrier await of a stale phase%s: %s awaits %s, phase %d of its hardware mbarrier (ring of %d), but is not ordered after any Await of %s: the awaiting threads must follow, directly or through other barriers, an Await of the previous phase (a thread taking over another thread's awaits must first observe its last one)",
			at, who, z, h.Arrives, r, why)
		note = fmt.Sprintf("an Await of the previous phase is here, by thread %d", h.OtherStart)
	case h.Phase == amir.PhaseCarry:
		what, fix := "arrives", fmt.Sprintf("its next arrive would go to ring slot %d while the queue's goes to slot %d", h.Arrives%r, h.Awaits%r)
		if h.Paired == 1 {
			what, fix = "awaits", "its first awaits there would wait for the parity of other phases than the queue's (satisfied by the wrong phase, or hanging)"
		}
		msg = fmt.Sprintf("mbarrier counters out of step at the end of the task%s: %s has made %d %s on %s, the queue barrier %d; a persistent CTA's next task continues each thread's ring counters (exo_SyncState), so %s: every thread that %s on a barrier must make all of its %s in every task",
			at, who, h.Arrives, what, z, h.Awaits, fix, what, what)
	case h.Phase == amir.PhaseTx:
		ann := fmt.Sprintf("announces %d bytes with expect_tx (the SMEM bytes of the TMA copies completing on %s that precede it in the program since the barrier's previous TMA Arrive)", h.Paired, p.Vars[h.Var].Name)
		msg = fmt.Sprintf("mbarrier transaction count mismatch%s: this Arrive on %s (arrive %d, %s) %s, but the TMA copies completing on this phase transfer %d bytes; the phase would never complete, or complete before all data has landed: every phase's copies must match its Arrive's count",
			at, z, h.Arrives, ph(h.Arrives), ann, h.Awaits)
		note = "a copy counted in this phase is here"
		if h.Awaits == 0 {
			note = "the count includes this copy"
		}
	}
	if h.Occurrences > 1 {
		msg += fmt.Sprintf(" (%d occurrences)", h.Occurrences)
	}
	d := errs.Errorf(pos(src.Pos), codePhase, "%s", msg)
	if note != "" && h.Other >= 0 {
		d.Note(pos(p.Srcs[h.Other].Pos), "%s: %s", note, p.Srcs[h.Other].Text)
	}
}

// acrossReport renders a rule-4 hazard across the task boundary
// (Hazard.Across; amir/mbar.go "Across tasks"): the Arrive is in a later
// task of the persistent CTA that ran task h.OtherTaskCoords, in which the
// phase it reuses was arrived.
func fmtAcrossReport(p *amir.Program, h *amir.Hazard, at, z string, ph func(int) string) (msg, note string) {
	r := h.Ring
	prev := fmtTaskName(p, h.OtherTaskCoords)
	next := "a later task of the persistent CTA that ran " + prev
	reused := fmt.Sprintf("arrive %d of %s, %s", h.PrevArrive, prev, ph(h.Arrives-r))
	cont := "the mbarriers and each thread's ring counters continue from one task to the next (exo_SyncState)"
	switch h.Phase {
	case amir.PhaseUnawaited:
		last := "no arrive has been awaited yet"
		if h.Paired >= 0 {
			last = fmt.Sprintf("the latest awaited is %s", ph(h.Paired))
		}
		msg = fmt.Sprintf("mbarrier phase aliasing across tasks%s: arrive %d on %s of %s (%s) reuses the mbarrier of %s before any Await has observed that phase (%s); %s, and the await lag is too large for the ring of %d mbarriers there",
			at, h.LocalArrive, z, next, ph(h.Arrives), reused, last, cont, r)
	case amir.PhaseAhead:
		msg = fmt.Sprintf("mbarrier phase aliasing across tasks%s: no thread of this Arrive (threads [%d, %d)) on %s in %s (its arrive %d there, %s) is ordered after thread %d, which awaits the same mbarrier's previous phase (%s); %s, so the Arrive can complete phase %d before that thread observes phase %d, which it then misses: some arriving thread must wait, directly or through other barriers, for something that follows that Await (a Fence(cuda_in_order, cuda_in_order) at the end of the task orders every thread)",
			at, h.Thread, h.Thread+h.OtherThreads, z, next, h.LocalArrive, ph(h.Arrives), h.OtherStart, reused, cont, h.Arrives/r, h.Arrives/r-1)
		note = fmt.Sprintf("the Await of phase %d is here, by thread %d", h.Arrives/r-1, h.OtherStart)
	case amir.PhaseEarly:
		msg = fmt.Sprintf("mbarrier phase aliasing across tasks%s: thread %d arrives on %s in %s (its arrive %d there, %s), but is not ordered after any Await of the same mbarrier's previous phase (%s); %s, so the thread can run ahead into the next task and arrive while phase %d is still open, completing it early with an arrival meant for phase %d: it must wait, directly or through other barriers, for something that follows such an Await (a Fence(cuda_in_order, cuda_in_order) at the end of the task orders every thread)",
			at, h.Thread, z, next, h.LocalArrive, ph(h.Arrives), reused, cont, h.Arrives/r-1, h.Arrives/r)
		note = fmt.Sprintf("an Await of phase %d is here, by thread %d", h.Arrives/r-1, h.OtherStart)
	}
	return msg, note
}
