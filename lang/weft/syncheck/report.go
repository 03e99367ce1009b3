package syncheck

import (
	"math/bits"
	"sort"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/amir"
	"weft.dev/weft/lang/weft/coll"
	"weft.dev/weft/lang/weft/lib"
)

var hazardCodes = map[amir.HazardKind]string{
	amir.ReadAfterWrite:    codeRAW,
	amir.WriteAfterRead:    codeWAR,
	amir.WriteAfterWrite:   codeWAW,
	amir.AsyncInFlight:     codeInFlight,
	amir.UseAfterFree:      codeFree,
	amir.BarrierMismatch:   codeBarrier,
	amir.AwaitBeforeArrive: codeEarlyAwait,
	amir.PhaseAlias:        codePhase,
}

func pos(p amir.Pos) diag.Pos {
	if d, ok := p.(diag.Pos); ok {
		return d
	}
	return diag.Pos{}
}

// report turns a run's hazards and faults into diagnostics. The messages
// are appended to one buffer (report_text.go).
//
// A run without either reports nothing: it returns before the buffer
// and the qualifiers' names (fillQuals), which only hazards print, are
// made (a kilobyte and two allocations of every passing check; issue 13,
// stop 41). The rest of report reads faults and hazards alone (the count
// of hazards not shown is of a run with some).
func report(prog *Program, run *Run, errs *diag.List) {
	res := run.Result
	if len(res.Faults) == 0 && len(res.Hazards) == 0 {
		return
	}
	prog.fillQuals()
	p := prog.AMIR
	at := ""
	if run.Sizes != "" {
		at = " at " + run.Sizes
	}
	nd := len(res.Faults) + len(res.Hazards)
	if res.Distinct > len(res.Hazards) {
		nd++ // the count of those not shown
	}
	m := &msgText{b: make([]byte, 0, msgFirst), ds: make([]diagRoom, nd), nb: make([]byte, 0, 256)}
	for _, f := range res.Faults {
		prog.fillPos(f.Src)
		if f.Limit != "" {
			m.b = appendf(m.b, "the sync check of %s stopped%s: %s (%s raises it)", str(p.Name), str(at), str(f.Msg), str(limitFlags[f.Limit]))
			m.addDiag(errs, diag.Error, pos(p.Srcs[f.Src].Pos), codeLimit, m.take())
			continue
		}
		m.b = appendf(m.b, "the sync check of %s faulted%s: %s", str(p.Name), str(at), str(f.Msg))
		m.addDiag(errs, diag.Error, pos(p.Srcs[f.Src].Pos), codeFault, m.take())
	}
	for i := range res.Hazards {
		prog.fillPos(res.Hazards[i].Src)
		prog.fillText(res.Hazards[i].Other)
	}
	for i := range res.Hazards {
		m.nb = m.nb[:0] // the last hazard's names are dead (cut)
		h := &res.Hazards[i]
		src := p.Srcs[h.Src]
		if h.Kind == amir.BarrierMismatch && h.Arrives == 0 && p.Vars[h.Var].OneShotArrive {
			m.b = appendf(m.b, "barrier never arrived%s: ", str(at))
			m.b = appendCell(m.b, p, h)
			m.b = append(m.b, " is freed in "...)
			m.b = appendTaskName(m.b, p, h.TaskCoords)
			m.b = append(m.b, " without an Arrive; each logical barrier of a ring-buffered array must be arrived exactly once (pre-arrived indices count), or its ring slot's mbarrier stays a phase behind for the CTA's next task"...)
			m.addDiag(errs, diag.Error, pos(src.Pos), codeBarrier, m.take())
			continue
		}
		if h.Kind == amir.BarrierMismatch {
			m.b = appendf(m.b, "arrive/await count mismatch%s: ", str(at))
			m.b = appendCell(m.b, p, h)
			m.b = appendf(m.b, " has %d arrives and %d awaits when it is freed in ", num(h.Arrives), num(h.Awaits))
			m.b = appendTaskName(m.b, p, h.TaskCoords)
			m.b = append(m.b, "; every Arrive needs its Await"...)
			m.addDiag(errs, diag.Error, pos(src.Pos), codeBarrier, m.take())
			continue
		}
		if h.Kind == amir.AwaitBeforeArrive {
			m.b = appendf(m.b, "await before its arrive%s: this Await by ", str(at))
			m.b = appendThreadName(m.b, p, h.TaskCoords, h.Task, h.Thread, 1)
			m.b = appendf(m.b, " is await %d on ", num(h.Awaits))
			m.b = appendCell(m.b, p, h)
			m.b = appendf(m.b, " and pairs with arrive %d (0-based, lag %d), but only %d arrives precede it in program order; it would wait for an Arrive that comes after it (on hardware a deadlock, or a pairing with another arrive): give it a larger lag, or arrive first",
				num(h.Paired), num(h.Awaits-h.Paired), num(h.Arrives))
			if h.Occurrences > 1 {
				m.b = appendf(m.b, " (%d awaits)", count(h.Occurrences))
			}
			m.addDiag(errs, diag.Error, pos(src.Pos), codeEarlyAwait, m.take())
			continue
		}
		if h.Kind == amir.PhaseAlias {
			phaseReport(p, h, at, src, errs, m)
			continue
		}
		other := p.Srcs[h.Other]
		q := p.QualNames
		n := len(m.b)
		m.b = appendThreadName(m.b, p, h.OtherTaskCoords, h.OtherTask, h.OtherStart, h.OtherThreads)
		m.b = appendf(m.b, " (%s, %s)", str(qname(q, h.OtherQ)), str(h.OtherLevel.String()))
		earlier := m.cut(n)
		verb := ""
		switch h.Kind {
		case amir.ReadAfterWrite:
			verb = "reads %s, but the write by %s is not visible to it"
		case amir.WriteAfterWrite:
			verb = "writes %s, but the earlier write by %s is not ordered before it"
		case amir.WriteAfterRead:
			verb = "writes %s, but the earlier read by %s may not have finished"
		case amir.AsyncInFlight:
			verb = "accesses %s, but its own async access (%s) is still in flight"
		case amir.UseAfterFree:
			verb = "frees %s, but the access by %s may still be outstanding"
		}
		if h.Kind == amir.AsyncInFlight {
			m.b = appendf(m.b, "%s%s: ", str(h.Kind.String()), str(at))
		} else {
			m.b = appendf(m.b, "%s hazard%s: ", str(h.Kind.String()), str(at))
		}
		m.b = appendThreadName(m.b, p, h.TaskCoords, h.Task, h.Thread, 1)
		m.b = appendf(m.b, " (%s) ", str(h.Quals.Names(q)))
		n = len(m.b)
		m.b = appendCell(m.b, p, h)
		z := m.cut(n)
		m.b = appendf(m.b, verb, str(z), str(earlier))
		m.b = append(m.b, "; "...)
		m.b = appendSuggest(m.b, prog, h)
		if h.Occurrences > 1 {
			m.b = appendf(m.b, " (%d failing checks)", count(h.Occurrences))
		}
		d := m.addDiag(errs, diag.Error, pos(src.Pos), hazardCodes[h.Kind], m.take())
		what := "the earlier access"
		switch h.Kind {
		case amir.ReadAfterWrite, amir.WriteAfterWrite:
			what = "the write"
		case amir.WriteAfterRead:
			what = "the read"
		case amir.AsyncInFlight:
			what = "the async access"
		}
		m.b = appendf(m.b, "%s is here: %s by %s", str(what), str(other.Text), str(earlier))
		d.addNote(pos(other.Pos), m.take())
	}
	if more := res.Distinct - len(res.Hazards); more > 0 {
		m.b = appendf(m.b, "%d more distinct hazards%s not shown (%d failing checks in all; see --max-hazards)", num(more), str(at), count(res.Occurrences))
		m.addDiag(errs, diag.Info, pos(p.Srcs[res.Hazards[len(res.Hazards)-1].Src].Pos), codeMore, m.take())
	}
}

// diagRoom is a diagnostic and the room for its first note: a
// report's diagnostics are made together (msgText.ds), where each had
// been one allocation and its note's slice another (rows 1-4 of issue
// 13, the three-ring bug variants: 12 of a check; stop 42).
type diagRoom struct {
	d    diag.Diagnostic
	note [1]diag.Note
}

// addDiag records a diagnostic whose message is made (List.Errorf and
// Infof would run it through fmt.Sprintf("%s") again), from m.ds while
// it lasts.
func (m *msgText) addDiag(errs *diag.List, sev diag.Severity, at diag.Pos, code, msg string) *diagRoom {
	var r *diagRoom
	if len(m.ds) > 0 {
		r, m.ds = &m.ds[0], m.ds[1:]
	} else {
		r = new(diagRoom)
	}
	r.d.Severity, r.d.Code, r.d.Pos, r.d.Message = sev, code, at, msg
	errs.Add(&r.d)
	return r
}

// addNote attaches a note whose message is made (Diagnostic.Note
// formats). The first is held in r's room, a slice of length and
// capacity 1, as append to a nil Notes made it.
func (r *diagRoom) addNote(at diag.Pos, msg string) {
	if r.d.Notes == nil {
		r.note[0] = diag.Note{Pos: at, Message: msg}
		r.d.Notes = r.note[:1:1]
		return
	}
	r.d.Notes = append(r.d.Notes, diag.Note{Pos: at, Message: msg})
}

func qname(names []string, q amir.Qual) string {
	if int(q) < len(names) {
		return names[q]
	}
	return "?"
}

// appendSuggest appends which synchronization would have ordered the two
// accesses: sync timelines whose full set holds the earlier access's
// timeline (first argument) and whose full (for reads) or temporal (for
// writes) set holds the later access's (second argument), in the smallest
// collective holding both threads.
func appendSuggest(b []byte, prog *Program, h *amir.Hazard) []byte {
	m := prog.Machines[h.Src]
	if h.OtherTask >= 0 && h.Task >= 0 && h.OtherTask != h.Task {
		return append(b, "accesses from different cuda_tasks iterations cannot be synchronized within one kernel: make the tasks access disjoint data"...)
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
		return append(b, "no sync timeline orders these timelines"...)
	}
	scope := scopeOf(m, h)
	if h.Kind == amir.UseAfterFree {
		return appendf(b, "insert Fence(%s, %s) %s before the end of its scope", str(first), str(second), str(scope))
	}
	return appendf(b, "order them with Fence(%s, %s) %s, or an Arrive(%s)/Await(_, %s) pair", str(first), str(second), str(scope), str(first), str(second))
}

func scopeOf(m coll.Machine, h *amir.Hazard) string {
	if h.Task < 0 || h.OtherTask < 0 {
		return "at the kernel boundary"
	}
	if h.SameThread {
		return "by the thread itself"
	}
	lo, hi := h.OtherStart, h.OtherStart+h.OtherThreads-1
	t := h.Thread
	minT, maxT := min(lo, t), max(hi, t)
	switch {
	case minT/32 == maxT/32:
		return "across the warp"
	case m.BlockDim > 0 && minT/m.BlockDim == maxT/m.BlockDim:
		return "across the CTA"
	}
	return "across the cluster"
}

// pickTL returns the canonical sync timeline accepted by ok with the
// smallest full set, then the smallest temporal set, then by name.
func pickTL(l *lib.Library, ok func(*lib.SyncTL) bool) string {
	var names []string
	for n, tl := range l.Timelines {
		if tl.Name == n && ok(tl) {
			names = append(names, n)
		}
	}
	sort.Slice(names, func(i, j int) bool {
		a, b := l.Timelines[names[i]], l.Timelines[names[j]]
		fa, fb := bits.OnesCount64(uint64(a.FullSet)), bits.OnesCount64(uint64(b.FullSet))
		if fa != fb {
			return fa < fb
		}
		ca, cb := bits.OnesCount64(uint64(a.TemporalSet)), bits.OnesCount64(uint64(b.TemporalSet))
		if ca != cb {
			return ca < cb
		}
		return names[i] < names[j]
	})
	if len(names) == 0 {
		return ""
	}
	return names[0]
}

// phaseReport renders a PhaseAlias hazard (amir/mbar.go): the barrier, the
// phases involved and the thread that breaks the hardware requirement.
func phaseReport(p *amir.Program, h *amir.Hazard, at string, src amir.Src, errs *diag.List, m *msgText) {
	n := len(m.b)
	m.b = appendThreadName(m.b, p, h.TaskCoords, h.Task, h.Thread, 1)
	who := m.cut(n)
	m.b = appendCell(m.b, p, h)
	z := m.cut(n)
	r := h.Ring
	ph := func(a int) arg { return phase(a, r) }
	// The note, if any: its format and arguments, appended after the
	// message is taken.
	var note string
	var noteArgs []arg
	switch {
	case h.Across:
		note, noteArgs = acrossReport(p, h, at, z, m)
	case h.Phase == amir.PhaseCount:
		m.b = appendf(m.b, "mbarrier arrival count mismatch%s: this Arrive by %d threads (%s first) arrives on %s, whose mbarriers are initialized with arrival count %d; a phase would complete early or never: every Arrive on a barrier must come from collectives of one size",
			str(at), num(h.Awaits), str(who), str(z), num(h.Paired))
		note = "the arrival count is fixed by this Arrive"
	case h.Phase == amir.PhaseSlot:
		m.b = appendf(m.b, "mbarrier phase aliasing%s: %s arrives on %s as its own arrive %d, into %s, but this is arrive %d of the queue barrier, %s; each thread indexes the ring of %d mbarriers with its own count, so every thread of an Arrive must have made the same arrives",
			str(at), str(who), str(z), num(h.Awaits), ph(h.Awaits), num(h.Arrives), ph(h.Arrives), num(r))
	case h.Phase == amir.PhaseWrong:
		m.b = appendf(m.b, "mbarrier await of the wrong phase%s: %s awaits %s ", str(at), str(who), str(z))
		if h.Arrives >= h.Lag {
			m.b = appendf(m.b, "as its own await %d, waiting for the parity of %s (arrive %d)", num(h.Arrives), ph(h.Arrives-h.Lag), num(h.Arrives-h.Lag))
		} else {
			m.b = appendf(m.b, "as its own await %d, which is one of its first %d awaits and returns at once", num(h.Arrives), num(h.Lag))
		}
		m.b = appendf(m.b, ", but the queue barrier pairs this await (await %d) with ", num(h.Awaits))
		if h.Paired >= 0 {
			m.b = appendf(m.b, "arrive %d, %s", num(h.Paired), ph(h.Paired))
		} else {
			m.b = append(m.b, "no arrive (one of the first lag awaits)"...)
		}
		m.b = append(m.b, "; it can be satisfied by the wrong phase, or hang: every thread of an Await must have made the same awaits"...)
	case h.Phase == amir.PhaseUnawaited:
		m.b = appendf(m.b, "mbarrier phase aliasing%s: arrive %d on %s (%s) reuses the mbarrier of arrive %d (%s) before any Await has observed that phase (",
			str(at), num(h.Arrives), str(z), ph(h.Arrives), num(h.Arrives-r), ph(h.Arrives-r))
		if h.Paired >= 0 {
			m.b = appendf(m.b, "the latest awaited is arrive %d", num(h.Paired))
		} else {
			m.b = append(m.b, "no arrive has been awaited yet"...)
		}
		m.b = appendf(m.b, "); the await lag is too large for the ring of %d mbarriers", num(r))
	case h.Phase == amir.PhaseAhead:
		m.b = appendf(m.b, "mbarrier phase aliasing%s: no thread of this Arrive (", str(at))
		m.b = appendThreadName(m.b, p, h.TaskCoords, h.Task, h.Thread, h.OtherThreads)
		m.b = appendf(m.b, ") on %s (arrive %d, %s) is ordered after thread %d, which awaits the same mbarrier's previous phase (arrive %d, %s); the Arrive can complete phase %d before that thread observes phase %d (the mbarrier tracks only its phase parity), which it then misses: some arriving thread must wait, directly or through other barriers, for something that follows that Await",
			str(z), num(h.Arrives), ph(h.Arrives), num(h.OtherStart), num(h.Arrives-r), ph(h.Arrives-r), num(h.Arrives/r), num(h.Arrives/r-1))
		note, noteArgs = "the Await of phase %d is here, by thread %d", []arg{num(h.Arrives/r - 1), num(h.OtherStart)}
	case h.Phase == amir.PhaseEarly:
		m.b = appendf(m.b, "mbarrier phase aliasing%s: %s arrives on %s (arrive %d, %s), but is not ordered after any Await of the same mbarrier's previous phase (arrive %d, %s); it can run ahead and arrive while phase %d is still open, completing it early with an arrival meant for phase %d (the mbarrier tracks only its phase parity): it must wait, directly or through other barriers, for something that follows such an Await",
			str(at), str(who), str(z), num(h.Arrives), ph(h.Arrives), num(h.Arrives-r), ph(h.Arrives-r), num(h.Arrives/r-1), num(h.Arrives/r))
		note, noteArgs = "an Await of phase %d is here, by thread %d", []arg{num(h.Arrives/r - 1), num(h.OtherStart)}
	case h.Phase == amir.PhaseStale:
		m.b = appendf(m.b, "mbarrier await of a stale phase%s: %s awaits %s, phase %d of its hardware mbarrier (ring of %d), but is not ordered after any Await of ",
			str(at), str(who), str(z), num(h.Arrives), num(r))
		if h.Arrives == 0 {
			m.b = append(m.b, "the pre-arrived indices that map to the same mbarrier (its phase -1, as the reference implementation counts them)"...)
		} else {
			m.b = appendf(m.b, "phase %d of that mbarrier; the mbarrier may still be in phase %d, whose parity differs, and the wait would return at once", num(h.Arrives-1), num(h.Arrives-1))
		}
		m.b = append(m.b, ": the awaiting threads must follow, directly or through other barriers, an Await of the previous phase (a thread taking over another thread's awaits must first observe its last one)"...)
		note, noteArgs = "an Await of the previous phase is here, by thread %d", []arg{num(h.OtherStart)}
	case h.Phase == amir.PhaseCarry:
		what := "arrives"
		if h.Paired == 1 {
			what = "awaits"
		}
		m.b = appendf(m.b, "mbarrier counters out of step at the end of the task%s: %s has made %d %s on %s, the queue barrier %d; a persistent CTA's next task continues each thread's ring counters (exo_SyncState), so ",
			str(at), str(who), num(h.Arrives), str(what), str(z), num(h.Awaits))
		if h.Paired == 1 {
			m.b = append(m.b, "its first awaits there would wait for the parity of other phases than the queue's (satisfied by the wrong phase, or hanging)"...)
		} else {
			m.b = appendf(m.b, "its next arrive would go to ring slot %d while the queue's goes to slot %d", num(h.Arrives%r), num(h.Awaits%r))
		}
		m.b = appendf(m.b, ": every thread that %s on a barrier must make all of its %s in every task", str(what), str(what))
	case h.Phase == amir.PhaseTx:
		m.b = appendf(m.b, "mbarrier transaction count mismatch%s: this Arrive on %s (arrive %d, %s) announces %d bytes with expect_tx (the SMEM bytes of the TMA copies completing on %s that precede it in the program since the barrier's previous TMA Arrive), but the TMA copies completing on this phase transfer %d bytes; the phase would never complete, or complete before all data has landed: every phase's copies must match its Arrive's count",
			str(at), str(z), num(h.Arrives), ph(h.Arrives), num(h.Paired), str(p.Vars[h.Var].Name), num(h.Awaits))
		note = "a copy counted in this phase is here"
		if h.Awaits == 0 {
			note = "the count includes this copy"
		}
	}
	if h.Occurrences > 1 {
		m.b = appendf(m.b, " (%d occurrences)", count(h.Occurrences))
	}
	d := m.addDiag(errs, diag.Error, pos(src.Pos), codePhase, m.take())
	if note != "" && h.Other >= 0 {
		m.b = appendf(m.b, note, noteArgs...)
		m.b = append(m.b, ": "...)
		m.b = append(m.b, p.Srcs[h.Other].Text...)
		d.addNote(pos(p.Srcs[h.Other].Pos), m.take())
	}
}

// acrossReport appends the message of a rule-4 hazard across the task
// boundary (Hazard.Across; amir/mbar.go "Across tasks") to m and returns
// its note's format and arguments: the Arrive is in a later task of the
// persistent CTA that ran task h.OtherTaskCoords, in which the phase it
// reuses was arrived. z is the cell's name.
func acrossReport(p *amir.Program, h *amir.Hazard, at, z string, m *msgText) (note string, noteArgs []arg) {
	r := h.Ring
	n := len(m.b)
	m.b = append(m.b, "a later task of the persistent CTA that ran "...)
	m.b = appendTaskName(m.b, p, h.OtherTaskCoords)
	next := m.cut(n)
	m.b = appendf(m.b, "arrive %d of ", num(h.PrevArrive))
	m.b = appendTaskName(m.b, p, h.OtherTaskCoords)
	m.b = appendf(m.b, ", %s", phase(h.Arrives-r, r))
	reused := m.cut(n)
	const cont = "the mbarriers and each thread's ring counters continue from one task to the next (exo_SyncState)"
	switch h.Phase {
	case amir.PhaseUnawaited:
		m.b = appendf(m.b, "mbarrier phase aliasing across tasks%s: arrive %d on %s of %s (%s) reuses the mbarrier of %s before any Await has observed that phase (",
			str(at), num(h.LocalArrive), str(z), str(next), phase(h.Arrives, r), str(reused))
		if h.Paired >= 0 {
			m.b = appendf(m.b, "the latest awaited is %s", phase(h.Paired, r))
		} else {
			m.b = append(m.b, "no arrive has been awaited yet"...)
		}
		m.b = appendf(m.b, "); %s, and the await lag is too large for the ring of %d mbarriers there", str(cont), num(r))
	case amir.PhaseAhead:
		m.b = appendf(m.b, "mbarrier phase aliasing across tasks%s: no thread of this Arrive (threads [%d, %d)) on %s in %s (its arrive %d there, %s) is ordered after thread %d, which awaits the same mbarrier's previous phase (%s); %s, so the Arrive can complete phase %d before that thread observes phase %d, which it then misses: some arriving thread must wait, directly or through other barriers, for something that follows that Await (a Fence(cuda_in_order, cuda_in_order) at the end of the task orders every thread)",
			str(at), num(h.Thread), num(h.Thread+h.OtherThreads), str(z), str(next), num(h.LocalArrive), phase(h.Arrives, r), num(h.OtherStart), str(reused), str(cont), num(h.Arrives/r), num(h.Arrives/r-1))
		note, noteArgs = "the Await of phase %d is here, by thread %d", []arg{num(h.Arrives/r - 1), num(h.OtherStart)}
	case amir.PhaseEarly:
		m.b = appendf(m.b, "mbarrier phase aliasing across tasks%s: thread %d arrives on %s in %s (its arrive %d there, %s), but is not ordered after any Await of the same mbarrier's previous phase (%s); %s, so the thread can run ahead into the next task and arrive while phase %d is still open, completing it early with an arrival meant for phase %d: it must wait, directly or through other barriers, for something that follows such an Await (a Fence(cuda_in_order, cuda_in_order) at the end of the task orders every thread)",
			str(at), num(h.Thread), str(z), str(next), num(h.LocalArrive), phase(h.Arrives, r), str(reused), str(cont), num(h.Arrives/r-1), num(h.Arrives/r))
		note, noteArgs = "an Await of phase %d is here, by thread %d", []arg{num(h.Arrives/r - 1), num(h.OtherStart)}
	}
	return note, noteArgs
}
