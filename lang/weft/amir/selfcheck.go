package amir

import "slices"

// Self-checked variables (issue 13, stop 43: amir43).
//
// rmem_uniform's `dst_value: f32 @ CudaRmemLinear` is allocated at the
// top of a thread loop's body, written (`dst_value = 0.0`, under `if t %
// 2 == 0` again) and read (`d_dst[...] = dst_value`) by the iteration's
// own thread, and touched nowhere else. Its checks walk only records of
// that thread made since the Alloc, and each passes on checkCells's
// first test (the checking threads created the record at a level they
// accept: creator == g_s, q in the accepted set, level at least the
// check's). Its statements were a third of each representative
// iteration: three fused runs of checks, clears and records.
//
// Finish marks such a variable v (Var.selfChecked) when, in its first
// walk (facts, in program order):
//
//   - v has one Alloc A (Program.allocN), a direct child of the body of
//     its innermost enclosing loop L (or of the program's block), so A
//     runs at the start of every execution of the rest of that body;
//   - every statement that accesses v comes after A in that body, with
//     L its innermost loop too (inside Ifs and Blocks only), and no loop
//     and no IncTaskID comes between A and it in L's body: from A to
//     each access no slot changes (only loops set slots) and neither
//     does the task (only IncTaskID);
//   - each is a record, check or clear with no barrier access and no
//     sync statement, and every record and check has the g_s of the
//     first: not all threads, the same start (StartAff equal term by
//     term, or no start at all) and the same shape, which is one thread
//     (denseLen 1: the machine's shape list is [0]), so recordCells
//     makes one record per cell with creator g_s (not per thread);
//   - every record's timeline is in every check's accepted set and its
//     level is at least every check's.
//
// Then in the full run (no symmetry, grid or other shortcut) a check of
// v finds in v's cells only records made since the last A (A frees
// every list, and nothing else touches v), all by statements of this
// execution of L's body, with creator g_s, the check's own threads, in
// the task of the check: each passes on checkCells's first test, never
// reported, whatever events came between (failing's first test, which
// replay cannot change). The shortcuts decide as the full run does, so
// no check of v reports a hazard in any run. So every record and check
// of v is dead (Finish's meaning: counted and bounds checked as before,
// never executed; clears of dead lists are never evaluated): the
// verdict, the hazards and their order, MemOps and the faults are those
// of the full run. Only Stats.Records (the records made) and the memory
// estimate are lower: both count the state the machine actually holds,
// and the records are not made, so --max-memory (W0613), which reads
// the estimate, can stop a run later than before, never earlier. v keeps the cells the
// other marks give it (finishTree sets used for a statement those leave
// live), so the cell limit counts them as before.
//
// TestSelfCheckedMatchesLive (selfcheck43_test.go) compares Results with
// the marks and without (selfCheckOff) on random programs of private
// variables that fail each condition in turn, and counts the marks.

// selfCheckOff turns the marks off (tests).
var selfCheckOff bool

// selfVar is what facts gathers of one variable for selfChecked.
type selfVar struct {
	ex    *Stmt // the first record or check after A
	ctx   int32 // A's innermost loop, its number in the walk (0: none)
	at    int32 // A's number in the walk
	recQ  QualSet
	chkQ  QualSet
	state uint8
	// recLvl is the records' least level, chkLvl the checks' greatest.
	recLvl, chkLvl Level
}

// selfVar states.
const (
	selfUnseen uint8 = iota // no Alloc or access seen
	selfCand                // A seen, every access since meets the conditions
	selfNo
)

// selfCtx is facts's position for selfNote: the innermost loop's number,
// the number of the last loop or IncTaskID statement in its body (0:
// none yet), whether the statements walked are a direct child of its
// body, and the loops numbered.
type selfCtx struct {
	ctx, brk, n int32
	direct      bool
}

// selfEnter moves f's position into s's body and returns the one to
// restore (selfLeave) after it.
func (f *finisher) selfEnter(s *Stmt) selfCtx {
	old := f.sc
	if s.Kind == KLoop {
		f.sc.n++
		f.sc.ctx, f.sc.brk = f.sc.n, 0
	}
	f.sc.direct = s.Kind == KLoop || s == f.p.Body
	return old
}

// selfLeave restores the position old after a body (the loop count
// stays).
func (f *finisher) selfLeave(old selfCtx) {
	old.n = f.sc.n
	f.sc = old
}

// selfNote takes statement s, number seq of the walk, into the
// variables' selfVar.
func (f *finisher) selfNote(s *Stmt, seq int32) {
	switch s.Kind {
	case KAlloc:
		sv := &f.self[s.Acc.Var]
		if sv.state != selfUnseen || !f.sc.direct {
			sv.state = selfNo
			return
		}
		*sv = selfVar{state: selfCand, ctx: f.sc.ctx, at: seq, recLvl: ^Level(0), chkQ: ^QualSet(0)}
		return
	case KLoop, KIncTaskID:
		f.sc.brk = seq
	}
	for _, b := range s.Bars {
		f.self[b.Var].state = selfNo
	}
	if s.Acc == nil {
		return
	}
	sv := &f.self[s.Acc.Var]
	if sv.state != selfCand || f.sc.ctx != sv.ctx || f.sc.brk > sv.at || s.Sync >= 0 || len(s.Bars) > 0 {
		sv.state = selfNo
		return
	}
	switch s.Kind {
	case KClearReads, KClearMutates:
		return // no g_s
	case KRecordRead, KRecordMutate:
		sv.recQ |= Of(s.Q)
		sv.recLvl = min(sv.recLvl, s.Level)
	case KCheckReads, KCheckMutates:
		sv.chkQ &= s.Quals
		sv.chkLvl = max(sv.chkLvl, s.Level)
	default:
		sv.state = selfNo
		return
	}
	e := &s.Exec
	if e.All || e.StartAff == nil && e.Start != nil || e.Shape < 0 || e.Shape >= len(f.p.Shapes) || denseLen(&f.p.Shapes[e.Shape]) != 1 {
		sv.state = selfNo
		return
	}
	if sv.ex == nil {
		sv.ex = s
		return
	}
	// (One start, the statements of one access share it: equal without
	// comparing its terms; stop 46.)
	if x := &sv.ex.Exec; x.Shape != e.Shape || (x.StartAff == nil) != (e.StartAff == nil) ||
		x.StartAff != e.StartAff && x.StartAff != nil && (x.StartAff.K != e.StartAff.K || !slices.Equal(x.StartAff.Terms, e.StartAff.Terms)) {
		sv.state = selfNo
	}
}

// selfChecked reports whether variable i meets the conditions (after
// facts's walk of the whole program).
func (f *finisher) selfChecked(i int) bool {
	sv := &f.self[i]
	v := &f.p.Vars[i]
	return !selfCheckOff && sv.state == selfCand && f.p.allocN[i] == 1 && !v.Barrier && v.RingDepth == 0 && v.Ring == 0 &&
		sv.recQ&^sv.chkQ == 0 && sv.recLvl >= sv.chkLvl
}
