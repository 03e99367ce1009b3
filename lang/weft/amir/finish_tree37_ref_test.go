package amir

import (
	"math/rand"
	"reflect"
	"slices"
	"testing"
)

// Finish's bottom-up walk (finishTree, issue 13, stop 37: conv37) against
// the three walks it replaced: markLite (bottom up), planLoops (top down)
// and finishLoops (bottom up), kept here verbatim from main a0a2dfe as
// finishRef (the names suffixed Ref; fuse allocated each run and each
// body with runs, newRunRef). Every field the walks set must be the
// same: the lite and dead marks, the plans (thread, 2-D, grid), p.thExt
// and rdTrack, the runs (their members, marks, g_s member and memo form),
// the hoisted accesses and g_s plans, the inner slots, the bounds boxes
// and the variables' noCells. (Stop 43 added the self-checked variables'
// dead marks, selfcheck.go, to both: facts gathers them for each.)

// finishRef is Finish as it was at main a0a2dfe: facts, then markLite,
// planLoops and finishLoops, three walks.
func (p *Program) finishRef() {
	r := newFinRoom(p)
	if p.TaskSlots == nil {
		p.TaskSlots = r.tasks[:0]
	}
	p.TaskSlots = p.TaskSlots[:0]
	n := len(p.Vars)
	for i := range p.Vars {
		p.Vars[i].TaskLocal = false
	}
	var cnt []int32
	var flags []uint8
	if n <= finVars {
		cnt, flags = r.cnt[:2*n], r.flags[:n]
	} else {
		cnt, flags = make([]int32, 2*n), make([]uint8, n)
	}
	p.accN, p.allocN = cnt[:n:n], cnt[n:2*n:2*n]
	f := &r.f
	*f = finisher{p: p, flags: flags, keys: r.keys[:0], caches: r.caches[:0], tasks: r.taskF[:0], slab: r.gs[:], chunk: 64}
	f.self = make([]selfVar, n) // stop 43's self-checked variables (selfcheck.go), as Finish
	f.facts(p.Body, -1)
	f.symmetric()
	// A first log of one event per event statement (a loop's run grows
	// it): a small kernel's first event had allocated room for 256
	// (grow2; per_cta_alloc logs 3, stop 30).
	p.logHint = max(p.logHint, f.nev)
	for i := range p.Vars {
		v := &p.Vars[i]
		fl := f.flags[i]
		v.NoReadRecords = fl&readChecked == 0
		v.NoMutateRecords = fl&mutChecked == 0
		v.NeverRead = fl&read == 0 || v.NoReadRecords
		v.NeverMutated = fl&mutated == 0 || v.NoMutateRecords
		v.selfChecked = f.selfChecked(i) // its statements all dead (selfcheck.go)
	}
	p.markLiteRef(p.Body, f.flags)
	for i := range p.Vars {
		p.Vars[i].noCells = f.flags[i]&used == 0
	}
	// Thread symmetry's stop-29 extensions (thsym.go) are for programs
	// with no grid nest: a loop they make virtual sets thAny, which turns
	// grid symmetry off for the rest of the run (the naive GEMM and the
	// TMA tester had run 300x slower).
	p.thExt = true
	p.rdTrack = nil // planLoopsRef adds each grid plan's sources (rdTrackGrid)
	p.planLoopsRef(p.Body, &r.th)
	if !p.thExt {
		p.dropThExtRef(p.Body)
	}
	var buf [32]int
	p.finishLoopsRef(p.Body, buf[:0], r)
}

// planLoopsRef sets the symmetry plans of the loops in s, s included, top
// down, and clears p.thExt when some loop has a one-thread grid plan. th
// is the thread planner, its scratch shared by the loops (stop 33).
func (p *Program) planLoopsRef(s *Stmt, th *thPlanner) {
	if s.Kind == KLoop {
		s.thsym, s.grid = nil, nil
		if !s.Tasks && startReadsIter(s) {
			s.thsym = th.plan(p, s)
			s.grid = p.planGrid(s)
			if s.grid != nil && !s.grid.blk {
				p.thExt = false
			}
			p.rdTrackGrid(s)
		}
	}
	for _, b := range s.Body {
		p.planLoopsRef(b, th)
	}
	if s.Kind == KLoop {
		s.th2 = p.planThreadSym2(s) // after the inner loop's plan (thsym2d.go)
	}
}

// markLiteRef sets the dead statements (records and checks that can never
// matter), the variables a live statement uses (flags' used) and the lite
// marks keepLite and checkLite, bottom up.
func (p *Program) markLiteRef(s *Stmt, flags []uint8) (keep, check bool) {
	if s.Acc != nil {
		v := &p.Vars[s.Acc.Var]
		// A self-checked variable's statements are dead too, its cells
		// those the other marks give it (used; selfcheck.go).
		dead, mark := false, true
		switch s.Kind {
		case KCheckMutates, KClearMutates:
			dead = v.NeverMutated
		case KCheckReads, KClearReads:
			dead = v.NeverRead
		case KRecordRead:
			dead = v.NoReadRecords
		case KRecordMutate:
			dead = v.NoMutateRecords
		default:
			mark = false
		}
		if mark {
			s.dead = dead || v.selfChecked
			if !dead {
				flags[s.Acc.Var] |= used
			}
		}
	}
	local := func(a *Access) bool { return p.Vars[a.Var].TaskLocal }
	switch s.Kind {
	case KFence, KArrive, KAwait, KIncTaskID:
		keep = true
	case KAlloc:
		// Barriers are re-allocated in every task (their counts pair the
		// task's own Arrives and Awaits, which always run).
		keep = !local(s.Acc) || p.Vars[s.Acc.Var].Barrier
	case KRecordRead, KRecordMutate, KClearReads, KClearMutates, KCheckReads, KCheckMutates, KCheckBarrier:
		shared := !local(s.Acc)
		for _, b := range s.Bars {
			shared = shared || !local(b)
		}
		if s.dead {
			// Nothing to do in any task but the bounds checks of its
			// shared accesses (a later task's windows into global
			// memory differ from the first task's). Clears of dead
			// lists are never evaluated (effect).
			check = shared && s.Kind != KClearReads && s.Kind != KClearMutates
		} else {
			keep = shared
		}
	}
	for _, b := range s.Body {
		k, c := p.markLiteRef(b, flags)
		keep = keep || k
		check = check || c
	}
	s.keepLite, s.checkLite = keep, check
	return keep, check
}

// finishLoopsRef sets, bottom up, what each statement's own body gives: its
// runs (fuse) and, for a loop, the accesses and g_s plans hoisted at its
// entry, its inner slots and its lite bounds box. It appends the slots of
// the loops in s, s included, to buf (a slot may repeat) and returns it.
//
// The inner slots are gathered in one buffer, a loop's set copied out of
// it at its size: a list per statement with a body had been a tenth of a
// small kernel's Convert objects (stop 29), and each loop had walked its
// whole subtree (stop 27). The set is read by slices.Contains only, and
// only by the hoisted plans (hoist.go: prepareStatic, planGS): a loop
// with none keeps an empty set (issue 13, stop 35).
func (p *Program) finishLoopsRef(s *Stmt, buf []int, r *finRoom) []int {
	start := len(buf)
	for _, b := range s.Body {
		buf = p.finishLoopsRef(b, buf, r)
	}
	p.fuseRef(s)
	if s.Kind != KLoop {
		return buf
	}
	s.hoist, s.hoistGS = nil, nil
	if p.mayHoist(s, r) {
		s.hoist = hoistTargets(s, r)
		s.hoistGS = hoistGSTargets(s, r)
	}
	s.innerSlots = s.innerSlots[:0]
	if len(s.hoist) > 0 || len(s.hoistGS) > 0 {
		inner := buf[start:]
		n := 0
		for i, x := range inner {
			if !slices.Contains(inner[:i], x) {
				n++
			}
		}
		if cap(s.innerSlots) < n {
			s.innerSlots = r.intsOf(n)
		}
		for _, x := range inner {
			if !slices.Contains(s.innerSlots, x) {
				s.innerSlots = append(s.innerSlots, x)
			}
		}
	}
	s.box = nil
	if s.checkLite && !s.keepLite {
		s.box = p.planBox(s)
	}
	return append(buf, s.Slot)
}

// fuseRef builds Stmt.fused: a run of two or more consecutive statements on
// one Access whose kinds are checks, clears and records without barrier
// accesses, none dead or implementing a sync statement, whose non-clear
// members share one g_s, executes as one kRun statement (Machine.execRun):
// the converter emits a data access as such a run (Fig. 5 and 19), and
// one dispatch, one cells and one g_s lookup serve it. The order of the
// statements, and of the cells within each, is unchanged. (s's body,
// not its nested bodies: finishLoopsRef calls it bottom up.)
func (p *Program) fuseRef(s *Stmt) {
	s.fused = nil
	if len(s.Body) < 2 {
		return
	}
	kindOK := func(t *Stmt) bool {
		switch t.Kind {
		case KCheckReads, KCheckMutates, KClearReads, KClearMutates, KRecordRead, KRecordMutate:
			return t.Acc != nil && t.Sync < 0 && len(t.Bars) == 0
		}
		return false
	}
	fusible := func(t *Stmt) bool { return kindOK(t) && !t.dead }
	usesGS := func(t *Stmt) bool { return t.Kind != KClearReads && t.Kind != KClearMutates }
	// out is made at the first run, holding the (unchanged) statements
	// before it: a body without runs allocates nothing, one with runs
	// once (stop 29: its growth was a tenth of a small kernel's Convert
	// objects).
	var out []*Stmt
	keep := func(t *Stmt) {
		if out != nil {
			out = append(out, t)
		}
	}
	startRun := func(i int) {
		if out == nil {
			out = append(make([]*Stmt, 0, len(s.Body)), s.Body[:i]...)
		}
	}
	changed := false
	for i := 0; i < len(s.Body); {
		t := s.Body[i]
		if t.dead && kindOK(t) {
			// A run of dead statements on one access (the CheckMutates
			// and RecordRead of an input): one count serves them all.
			j := i + 1
			for j < len(s.Body) && s.Body[j].dead && kindOK(s.Body[j]) && s.Body[j].Acc == t.Acc {
				j++
			}
			if j-i >= 2 {
				run := newRunRef(Stmt{Kind: kRun, Src: t.Src, Sync: -1, Body: s.Body[i:j:j], Acc: t.Acc, dead: true})
				for _, u := range run.Body {
					// keepLite stays false: lite tasks only check bounds.
					run.checkLite = run.checkLite || u.checkLite
				}
				startRun(i)
				out = append(out, run)
				changed = true
				i = j
				continue
			}
		}
		if !fusible(t) {
			keep(t)
			i++
			continue
		}
		var gsOf *Stmt // the member whose g_s the run uses
		j := i
		for ; j < len(s.Body); j++ {
			u := s.Body[j]
			if !fusible(u) || u.Acc != t.Acc {
				break
			}
			if usesGS(u) {
				if gsOf == nil {
					gsOf = u
				} else if u.gsc != gsOf.gsc || u.Exec.All != gsOf.Exec.All || u.gsc == nil {
					break
				}
			}
		}
		if j-i < 2 {
			keep(t)
			i++
			continue
		}
		run := newRunRef(Stmt{Kind: kRun, Src: t.Src, Sync: -1, Body: s.Body[i:j:j], Acc: t.Acc})
		for _, u := range run.Body {
			run.keepLite = run.keepLite || u.keepLite
			run.checkLite = run.checkLite || u.checkLite
		}
		if gsOf != nil {
			run.Exec, run.gsc = gsOf.Exec, gsOf.gsc
		}
		// Its memo table (memoKind != memoNone) is made at its first
		// execution on one cell (execRun): most runs of a small check
		// never get one (issue 13: 13 KB per Convert of tk_split_gemm).
		run.memoKind, run.memoOps, run.memoRecs = memoForm(run)
		startRun(i)
		out = append(out, run)
		changed = true
		i = j
	}
	if changed {
		s.fused = out
	}
}

// newRunRef returns a kRun statement with s's fields and its own runMemo.
func newRunRef(s Stmt) *Stmt {
	r := &runStmt{s: s}
	r.s.runMemo = &r.m
	return &r.s
}

// dropThExtRef drops the thread plans in s that need the stop-29
// extensions (p.thExt false).
func (p *Program) dropThExtRef(s *Stmt) {
	if s.Kind == KLoop {
		if pl := s.thsym; pl != nil && (pl.inner || len(pl.private) > 0 || len(pl.yconds) > 0) {
			s.thsym = nil
		}
		s.th2 = nil // the 2-D form is a stop-29 extension (quiet loops)
	}
	for _, b := range s.Body {
		p.dropThExtRef(b)
	}
}

// finSnap is what Finish's walks set on one statement, with the objects
// Finish makes copied or compared by value (reflect.DeepEqual: the
// objects they point to that Finish does not make, statements, accesses
// and forms, are the same objects in both runs on one program).
type finSnap struct {
	dead, keepLite, checkLite bool
	thsym                     *thPlan
	th2                       *th2Plan
	grid                      *gridPlan
	box                       *liteBox
	hoist                     []hoistState
	hoistGS                   []gsPlan
	innerSlots                []int
	fused                     []runSnap // nil: no runs
}

// runSnap is one entry of a statement's fused body: a member kept as is
// (stmt), or a run with its fields and the index of the member whose
// g_s cache it uses (-1: none).
type runSnap struct {
	stmt                      *Stmt
	src, sync                 int
	body                      []*Stmt
	acc                       *Access
	dead, keepLite, checkLite bool
	exec                      execSnap
	gsMember                  int
	memoKind                  uint8
	memoOps                   int
	memoRecs                  int
}

// execSnap is an Exec with its start function by address (DeepEqual
// never finds two non-nil functions equal).
type execSnap struct {
	all      bool
	shape    int
	start    uintptr
	startAff *Affine
}

func snapExec(e Exec) execSnap {
	x := execSnap{all: e.All, shape: e.Shape, startAff: e.StartAff}
	if e.Start != nil {
		x.start = reflect.ValueOf(e.Start).Pointer()
	}
	return x
}

// progSnap is the snapshot of a finished program.
type progSnap struct {
	stmts   []finSnap // in preorder
	thExt   bool
	rdTrack []bool
	noCells []bool
}

func snapFinish(p *Program) progSnap {
	var ps progSnap
	ps.thExt = p.thExt
	ps.rdTrack = slices.Clone(p.rdTrack)
	for i := range p.Vars {
		ps.noCells = append(ps.noCells, p.Vars[i].noCells)
	}
	var walk func(s *Stmt)
	walk = func(s *Stmt) {
		f := finSnap{dead: s.dead, keepLite: s.keepLite, checkLite: s.checkLite}
		if s.Ctl != nil {
			if s.thsym == thPending || s.th2 == th2Pending {
				panic("a plan still pending")
			}
			f.thsym, f.th2, f.grid, f.box = s.thsym, s.th2, s.grid, s.box
			f.hoist = slices.Clone(s.hoist)
			for _, g := range s.hoistGS {
				f.hoistGS = append(f.hoistGS, *g)
			}
			f.innerSlots = slices.Clone(s.innerSlots)
		}
		if s.fused != nil {
			f.fused = []runSnap{}
			for _, u := range s.fused {
				if u.Kind != kRun {
					f.fused = append(f.fused, runSnap{stmt: u})
					continue
				}
				r := runSnap{src: u.Src, sync: u.Sync, body: u.Body, acc: u.Acc, dead: u.dead,
					keepLite: u.keepLite, checkLite: u.checkLite, exec: snapExec(u.Exec), gsMember: -1}
				if u.runMemo != nil {
					r.memoKind, r.memoOps, r.memoRecs = u.memoKind, u.memoOps, u.memoRecs
				}
				for k, m := range u.Body {
					if u.gsc != nil && m.gsc == u.gsc {
						r.gsMember = k
						break
					}
				}
				if u.gsc != nil && r.gsMember < 0 {
					r.gsMember = -2 // a cache no member has
				}
				f.fused = append(f.fused, r)
			}
		}
		ps.stmts = append(ps.stmts, f)
		for _, b := range s.Body {
			walk(b)
		}
	}
	walk(p.Body)
	return ps
}

// poison sets every mark Finish's walks set on p's statements to v (and
// its plans to nil): a walk that reads a mark before setting it then
// reads the poison, not the last Finish's answer.
func poison(p *Program, v bool) {
	var walk func(s *Stmt)
	walk = func(s *Stmt) {
		s.keepLite, s.checkLite = v, v
		switch s.Kind {
		case KCheckMutates, KClearMutates, KCheckReads, KClearReads, KRecordRead, KRecordMutate:
			if s.Acc != nil {
				s.dead = v // the kinds whose mark the walks set
			}
		}
		s.fused = nil
		if s.Ctl != nil {
			s.thsym, s.th2, s.grid, s.box = nil, nil, nil, nil
			if s.Kind == KLoop && v {
				s.thsym, s.th2 = thPending, th2Pending // Finish sets both on loops
			}
			s.hoist, s.hoistGS, s.innerSlots = nil, nil, nil
		}
		for _, b := range s.Body {
			walk(b)
		}
	}
	walk(p.Body)
	for i := range p.Vars {
		p.Vars[i].noCells = v
	}
	p.thExt = v
}

// finishTreeAgrees finishes p with finishRef, then with Finish (each
// from the marks poisoned, true and false) and its pending plans made
// (planAll, or in an order drawn from rng when it is not nil), and
// reports the first statement (preorder) whose fields differ, or -1; it
// counts the loops planned (a thread, 2-D or grid plan) and the runs.
func finishTreeAgrees(p *Program, rng *rand.Rand) (diff int, what string, plans, runs int) {
	poison(p, false)
	p.finishRef()
	want := snapFinish(p)
	for _, v := range []bool{true, false} {
		poison(p, v)
		p.Finish()
		if rng == nil {
			p.planAll()
		} else {
			planShuffled(p, rng)
		}
		if d, what := compareSnaps(snapFinish(p), want); d >= 0 {
			return d, what, 0, 0
		}
	}
	for _, w := range want.stmts {
		if w.thsym != nil || w.th2 != nil || w.grid != nil {
			plans++
		}
		for _, r := range w.fused {
			if r.stmt == nil {
				runs++
			}
		}
	}
	return -1, "", plans, runs
}

// compareSnaps returns the first statement whose snapshot differs (0 for
// the program's fields) and what differs, or -1.
func compareSnaps(got, want progSnap) (int, string) {
	if got.thExt != want.thExt || !reflect.DeepEqual(got.rdTrack, want.rdTrack) || !reflect.DeepEqual(got.noCells, want.noCells) {
		return 0, "program"
	}
	if len(got.stmts) != len(want.stmts) {
		return 0, "statement count"
	}
	for i := range got.stmts {
		g, w := got.stmts[i], want.stmts[i]
		if !reflect.DeepEqual(g, w) {
			what := "fields"
			switch {
			case g.dead != w.dead || g.keepLite != w.keepLite || g.checkLite != w.checkLite:
				what = "marks"
			case !reflect.DeepEqual(g.thsym, w.thsym) || !reflect.DeepEqual(g.th2, w.th2) || !reflect.DeepEqual(g.grid, w.grid):
				what = "plans"
			case !reflect.DeepEqual(g.fused, w.fused):
				what = "runs"
			}
			return i, what
		}
	}
	return -1, ""
}

// TestFinishTreeMatchesWalks: on every random generator of the machine's
// tests, Finish's one bottom-up walk sets what the three walks it
// replaced set.
func TestFinishTreeMatchesWalks(t *testing.T) {
	plans, runs, progs := 0, 0, 0
	for gi, gen := range randomGens() {
		for seed := int64(0); seed < 400; seed++ {
			p := gen(seed)
			if p == nil {
				continue
			}
			d, what, pl, r := finishTreeAgrees(p, nil)
			if d >= 0 {
				t.Fatalf("generator %d, seed %d: statement %d: %s differ from the three walks'", gi, seed, d, what)
			}
			plans += pl
			runs += r
			progs++
		}
	}
	t.Logf("%d programs, %d planned loops, %d runs", progs, plans, runs)
	if plans < 1000 || runs < 1000 {
		t.Fatalf("weak coverage: %d planned loops, %d runs", plans, runs)
	}
}
