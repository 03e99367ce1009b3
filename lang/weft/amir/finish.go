package amir

import "slices"

// Finish computes the derived facts the machine uses to skip work that
// cannot change a verdict. Call it once the program is complete.
//
//   - NoReadRecords / NoMutateRecords: records no check inspects.
//   - NeverRead / NeverMutated: checks that can only see empty lists.
//   - Task symmetry: an innermost cuda_tasks loop whose body reads the task
//     iterators only in indices of variables allocated outside it (global
//     memory) runs every task identically on its task-local variables
//     (SMEM, registers, barriers, all allocated afresh per task) and on
//     the sync events; records of one task can only be witnessed by its own
//     events (a task's threads are disjoint from every other task's). So
//     after the first task, later tasks execute only their events and
//     their accesses to shared variables: hazards on task-local variables
//     are those of the first task, exactly.
//
// The program is walked twice (issue 13, stop 31: it had been twelve
// walks and recursions, and Walk a twelfth of a small kernel's Convert;
// stop 37: four): the facts each statement gives alone, top down (facts,
// which also gathers what the task loops' symmetry needs: symmetric);
// then, bottom up (finishTree), the lite marks with the dead statements,
// the loops' symmetry plans (planThreadSym and planGrid: a plan reads
// the marks of its whole nest) and what each statement's own body gives
// (runs, hoisting, inner slots, the lite bounds box).
func (p *Program) Finish() {
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
	p.rigN = 0
	f := &r.f
	*f = finisher{p: p, flags: flags, keys: r.keys[:0], caches: r.caches[:0], tasks: r.taskF[:0], slab: r.gs[:], chunk: 16}
	if n <= finVars {
		f.self = r.self[:n]
	} else {
		f.self = make([]selfVar, n)
	}
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
	// Thread symmetry's stop-29 extensions (thsym.go) are for programs
	// with no grid nest: a loop they make virtual sets thAny, which turns
	// grid symmetry off for the rest of the run (the naive GEMM and the
	// TMA tester had run 300x slower).
	p.thExt = true
	p.rdTrack = nil // the tree walk adds each grid plan's sources (rdTrackGrid)
	var buf [32]int
	var stmts [64]*Stmt
	w := treeWalk{flags: f.flags, r: r, stmts: &stmts, odd: f.odd}
	p.finishTree(p.Body, buf[:0], &w)
	for i := range p.Vars {
		p.Vars[i].noCells = f.flags[i]&used == 0
	}
	p.th = &r.th
}

// treeWalk is finishTree's state: the variables' flags (markLite),
// Finish's room and the n statements walked other than loops, blocks and
// Ifs, in preorder (a loop's are the tail its body adds), the first 64 in
// stmts, an array on Finish's stack. (A slice of it kept here, or any
// slice appended to here, would move it to the heap: escape analysis
// does not tell a struct's fields apart.)
type treeWalk struct {
	flags []uint8
	r     *finRoom
	stmts *[64]*Stmt
	n     int
	// lo, hi, loBad: the range refused last looked at, and its answer.
	lo, hi int
	loBad  bool
	// odd: a statement other than a loop, block or If has a body (the
	// IR never makes one; facts notes it), which gridCollect would not
	// walk: the grid plans are made by planGrid's walks, not from the
	// tails above.
	odd bool
}

// finishTree is Finish's second walk, bottom up: at each statement, once
// its body is done, its lite marks (markLite), for a loop its symmetry
// plans (planLoops), then its runs, hoisting, inner slots and bounds box
// (finishLoops). It appends the slots of the loops in s, s included, to
// buf (a slot may repeat: finishLoop's inner slots) and returns it, with
// s's lite marks (keepLite, checkLite).
//
// A loop's grid plan is made from the walk's tails (the statements its
// body adds, the refused ones it counts, buf's slots), not by
// planGrid's walks of its subtree (gridCollect, firstExec, hasLoop,
// hasLoopOf: each nest's subtree had been walked four times or more,
// and again for each loop nested in it: a fifth of Finish on shfl_xor
// and per_cta_alloc; issue 13, stop 46). planFrom says why it is the
// same plan.
//
// It had been three walks, markLite (bottom up), planLoops (top down)
// and finishLoops (bottom up), each ~50-90 instructions a statement of
// calls, loops and tests besides its work (issue 13, stop 37: conv37).
// One walk gives the same fields, because of what each part reads:
//
//   - The marks of s (dead, keepLite, checkLite) read the variables'
//     facts (the first walk, facts, over the whole program) and the
//     marks of s's body: set, bottom up, before s's.
//   - A loop's plans (th.plan, planGrid, gridCollect, firstExec,
//     rdTrackGrid) read its subtree's statements, their dead marks and
//     the variables' facts, never another loop's plan, run, hoisting or
//     box; planThreadSym2 reads its inner loop's thread plan, made
//     before it bottom up as it was after it top down. Each plan is a
//     function of those alone (the planner's scratch is reset per plan),
//     so the order in which loops are planned does not matter; rdTrack
//     is a set, p.thExt an "and" over the grid plans, both complete
//     when the walk ends, and dropThExt still runs after it.
//   - Runs, hoisting, inner slots and the box (fuse, hoistTargets,
//     hoistGSTargets, planBox) read the body's marks, runs and g_s
//     caches and the loops' slots, never a plan: made after s's plans
//     as they were after all plans. finishLoops took the room's hoist
//     lists and inner slots in post order, as this walk does.
//
// The flags' used bits are complete only when the walk ends: noCells is
// set after it, as it was after markLite.
func (p *Program) finishTree(s *Stmt, buf []int, w *treeWalk) (out []int, keep, check bool) {
	list := [1]*Stmt{s}
	return p.finishList(list[:], buf, w)
}

// finishList is finishTree for each statement of list, in order, with the
// lite marks of them all: a statement without a body, not a loop, is
// taken in the loop, with no call of its own (stop 46).
func (p *Program) finishList(list []*Stmt, buf []int, w *treeWalk) (out []int, keep, check bool) {
	for _, s := range list {
		var k, c bool
		// (One switch: the dead marks had been set in a test of s.Acc and a
		// switch of their own, before this one; stop 46.)
		switch s.Kind {
		case KBlock, KLoop, KIf:
		case KFence, KArrive, KAwait, KIncTaskID:
			w.add(s)
			k = true
		case KAlloc:
			w.add(s)
			// Barriers are re-allocated in every task (their counts pair the
			// task's own Arrives and Awaits, which always run).
			v := &p.Vars[s.Acc.Var]
			k = !v.TaskLocal || v.Barrier
		case KRecordRead, KRecordMutate, KClearReads, KClearMutates, KCheckReads, KCheckMutates:
			w.add(s)
			v := &p.Vars[s.Acc.Var]
			// A self-checked variable's statements are dead too, its cells
			// those the other marks give it (used; selfcheck.go).
			var dead bool
			switch s.Kind {
			case KCheckMutates, KClearMutates:
				dead = v.NeverMutated
			case KCheckReads, KClearReads:
				dead = v.NeverRead
			case KRecordRead:
				dead = v.NoReadRecords
			default: // KRecordMutate
				dead = v.NoMutateRecords
			}
			s.dead = dead || v.selfChecked
			if !dead {
				w.flags[s.Acc.Var] |= used
			}
			k, c = p.liteShared(s, !v.TaskLocal)
		case KCheckBarrier:
			w.add(s)
			k, c = p.liteShared(s, !p.Vars[s.Acc.Var].TaskLocal)
		default:
			w.add(s)
		}
		if len(s.Body) > 0 || s.Kind == KLoop {
			start, from := len(buf), w.n
			var bk, bc bool
			buf, bk, bc = p.finishList(s.Body, buf, w)
			k, c = k || bk, c || bc
			buf = p.finishNode(s, buf, w, start, from, k, c)
		} else {
			s.keepLite, s.checkLite, s.fused = k, c, nil
		}
		keep = keep || k
		check = check || c
	}
	return buf, keep, check
}

// finishNode is finishTree's work on s, a loop or a statement with a
// body, once its body is done (buf and the walk's statements from start
// and from on are its) and its lite marks keep and check are known: what
// its body gives s. (finishList calls itself: a second function in the
// recursion had moved buf to the heap.)
func (p *Program) finishNode(s *Stmt, buf []int, w *treeWalk, start, from int, keep, check bool) []int {
	s.keepLite, s.checkLite = keep, check
	if s.Kind == KLoop {
		// The loop's symmetry plans (planLoops had made them top down);
		// the thread plans at the machine's first ask (plan_lazy.go).
		s.thsym, s.grid, s.th2 = nil, nil, nil
		// The walk's tails serve when its statements are all in the
		// array and none but loops, blocks and Ifs has a body.
		tails := !w.odd && w.n <= len(w.stmts)
		var first *Stmt // firstExec(s.Body)
		if s.Tasks {
		} else if tails {
			first = w.firstExec(from)
		} else {
			first = firstExec(s.Body)
		}
		if first != nil && startReads(s, first) { // startReadsIter(s)
			s.thsym = thPending
			if !tails {
				s.grid = p.planGrid(s)
			} else if len(buf) > start && !w.refused(from) {
				// (Both grid forms need a loop nested in s: planFrom.)
				s.grid = p.planFrom(s, w.stmts[from:w.n], first, buf[start:])
			}
			if s.grid != nil && !s.grid.blk {
				p.thExt = false
			}
			p.rdTrackGrid(s)
		}
		if th2Candidate(s) {
			s.th2 = th2Pending
		}
	}
	s.fused = nil
	if len(s.Body) >= 2 {
		p.fuse(s, &w.r.f)
	}
	if s.Kind == KLoop {
		buf = p.finishLoop(s, buf, start, w.r)
	}
	return buf
}

// liteShared is finishTree's lite marks of s, a check, clear or record
// (shared: its access is to a variable that is not task-local): keep when
// live and shared, check when dead and its accesses, barrier ones
// included, are to a shared variable.
func (p *Program) liteShared(s *Stmt, shared bool) (keep, check bool) {
	for _, b := range s.Bars {
		shared = shared || !p.Vars[b.Var].TaskLocal
	}
	if s.dead {
		// Nothing to do in any task but the bounds checks of its
		// shared accesses (a later task's windows into global
		// memory differ from the first task's). Clears of dead
		// lists are never evaluated (effect).
		return false, shared && s.Kind != KClearReads && s.Kind != KClearMutates
	}
	return shared, false
}

// add appends s, not a loop, block or If, to the walk's statements
// (counts it past the array's).
func (w *treeWalk) add(s *Stmt) {
	if w.n < len(w.stmts) {
		w.stmts[w.n] = s
	}
	w.n++
}

// firstExec is firstExec(s.Body) for the loop s whose statements are the
// walk's from the from-th on (all in the array, none but a loop, block or
// If with a body): the first that is not an Alloc or a clear.
func (w *treeWalk) firstExec(from int) *Stmt {
	for _, t := range w.stmts[from:w.n] {
		switch t.Kind {
		case KAlloc, KClearReads, KClearMutates:
		default:
			return t
		}
	}
	return nil
}

// refused reports whether gridCollect refuses a statement of the walk's
// from the from-th on (all in the array). The last range asked, which a
// loop's inner loops' are inside, is remembered: a chain of loops, each
// the only statement of the previous one's body, has one range, looked
// at once.
func (w *treeWalk) refused(from int) bool {
	lo, hi := w.lo, w.hi
	var r bool
	if from <= lo && hi <= w.n && lo < hi {
		r = w.loBad || anyRefused(w.stmts[from:lo]) || anyRefused(w.stmts[hi:w.n])
	} else {
		r = anyRefused(w.stmts[from:w.n])
	}
	w.lo, w.hi, w.loBad = from, w.n, r
	return r
}

// anyRefused reports whether gridCollect refuses one of stmts.
func anyRefused(stmts []*Stmt) bool {
	for _, t := range stmts {
		if gridRefuses(t) {
			return true
		}
	}
	return false
}

// Per-variable facts of finishFacts and markLite (finisher.flags).
const (
	readChecked uint8 = 1 << iota // a CheckReads inspects it
	mutChecked                    // a CheckMutates inspects it
	read                          // a RecordRead records it
	mutated                       // a RecordMutate records it
	used                          // a live statement records, clears or checks it
)

// gsKey identifies the g_s that statements share: one start form, one
// shape.
type gsKey struct {
	start *Affine
	shape int
}

// finisher is Finish's state for its first walk.
type finisher struct {
	p     *Program
	flags []uint8 // per variable
	nev   int     // event statements
	// keys and caches: the shared g_s caches made so far, by key; m
	// indexes them all once there are more than the last few a lookup
	// searches (shared).
	keys   []gsKey
	caches []*gsCache
	m      map[gsKey]*gsCache
	// slab backs the caches, the room's 8, a chunk of 16, then of 64: a
	// small kernel's few statements (stop 29: 64 were 2 KB of its
	// Convert; stop 45: the room's 16 were 512 bytes of a 6-line
	// kernel's check, which takes 4, rmem_uniform 8, the GEMMs 11-18).
	slab  []gsCache
	chunk int
	tasks []taskFacts // the cuda_tasks loops, in walk order
	// runs and bodies are fuse's slabs of run statements (newRun) and
	// of bodies with runs (runBody), made at their first use.
	runs   []runStmt
	bodies []*Stmt
	// cands counts the checks, clears and records (the statements that
	// may join a run), sizing the slabs' first chunks.
	cands int
	// moreRuns, moreBodies: a slab's first chunk was made.
	moreRuns, moreBodies bool
	// self, sc and seq: the self-checked variables' facts, the walk's
	// position and its statements' count (selfcheck.go).
	seq  int32
	self []selfVar
	sc   selfCtx
	// lastAcc is the last access counted in Program.rigN.
	lastAcc *Access
	// odd: a statement other than a loop, block or If has a body
	// (treeWalk.odd).
	odd bool
}

// newRun returns a kRun statement of these fields and its own runMemo,
// from the slab: one object had been made per run, ~300 instructions
// each (issue 13, stop 37). The first chunk has room for a quarter of
// the statements that may join a run, and one (a run has two members or
// more, and the converter's accesses are runs of three to five: rmem_
// uniform makes 11 runs of 40, shfl_xor 10 of 42, the naive GEMM 12 of
// 35, ping_pong 14 of 37, per_cta_alloc 1 of 7); the next chunks 4 each.
//
// The statement is set in place, field by field, in the slab's zeroed
// room: a Stmt literal copied in had been ~40 instructions a run (issue
// 13, stop 44).
func (f *finisher) newRun(src int, body []*Stmt, acc *Access, dead bool) *Stmt {
	if len(f.runs) == 0 {
		n := 4
		if !f.moreRuns {
			n, f.moreRuns = f.cands/4+1, true
		}
		f.runs = make([]runStmt, n)
	}
	r := &f.runs[0] // zero: the slab's chunks are made fresh, each room taken once
	f.runs = f.runs[1:]
	t := &r.s
	t.Kind, t.Src, t.Sync, t.Body, t.Acc, t.dead = kRun, src, -1, body, acc, dead
	t.runMemo = &r.m
	return t
}

// runBody returns an empty list of capacity n from the slab of bodies
// (fuse's out: one had been made per body with runs). A body with runs
// holds two of its statements or more that may join one: the first chunk
// has room for all of those and 8 more, the next at least 16.
func (f *finisher) runBody(n int) []*Stmt {
	if n > len(f.bodies) {
		c := 16
		if !f.moreBodies {
			c, f.moreBodies = f.cands+8, true
		}
		f.bodies = make([]*Stmt, max(c, n))
	}
	b := f.bodies[:0:n]
	f.bodies = f.bodies[n:]
	return b
}

// cache returns a new g_s cache from the slab.
func (f *finisher) cache() *gsCache {
	if len(f.slab) == 0 {
		f.slab = make([]gsCache, f.chunk)
		f.chunk = 64
	}
	c := &f.slab[0]
	f.slab = f.slab[1:]
	return c
}

// shared returns the cache of the statements of key k. The statements
// of one source statement, which share a key, are converted in a row, so
// the last keys are searched first; a map had been a fortieth of a small
// kernel's Convert (stop 31).
func (f *finisher) shared(k gsKey) *gsCache {
	const recent = 8
	for i := len(f.keys) - 1; i >= 0 && i >= len(f.keys)-recent; i-- {
		if f.keys[i] == k {
			return f.caches[i]
		}
	}
	if len(f.keys) > recent {
		if f.m == nil {
			f.m = make(map[gsKey]*gsCache, 2*len(f.keys))
			for i, kk := range f.keys {
				f.m[kk] = f.caches[i]
			}
		}
		if c := f.m[k]; c != nil {
			return c
		}
	}
	c := f.cache()
	f.keys, f.caches = append(f.keys, k), append(f.caches, c)
	if f.m != nil {
		f.m[k] = c
	}
	return c
}

// facts walks s top down (task: the index in f.tasks of the innermost
// cuda_tasks loop around s, -1 none): the accesses and allocations per
// variable, the g_s caches, the task slots, the checked and recorded
// variables, the task-local variables, the event statements and, per
// task loop, whether a task loop is nested in it and the slots its
// statements read (taskFacts). It reports whether s is or holds a
// cuda_tasks loop.
func (f *finisher) facts(s *Stmt, task int) bool {
	list := [1]*Stmt{s}
	return f.factsList(list[:], task)
}

// factsList is facts for each statement of list, in order: a statement
// without a body is taken in the loop, with no call of its own (stop 46:
// the calls were a fifth of facts's instructions).
func (f *finisher) factsList(list []*Stmt, task int) bool {
	p := f.p
	has := false
	// taskAcc: the last access of list whose slots were added to the
	// task loop's reads (a local: two fields in the finisher had moved
	// the room past its size class; stop 47).
	var taskAcc *Access
	for _, s := range list {
		f.seq++
		if s.Acc == nil {
			// selfNote notes a loop's or IncTaskID's number and refuses a
			// barrier access's variable; it leaves the rest (a block, an If,
			// a fence without barriers) as they were (stop 46: the call).
			if s.Kind == KLoop || s.Kind == KIncTaskID || len(s.Bars) > 0 {
				f.selfNote(s, f.seq)
			}
		} else if s.Kind == KAlloc || len(s.Bars) > 0 || f.self[s.Acc.Var].state != selfNo {
			f.selfNote(s, f.seq) // (the call skipped for a variable refused already)
		}
		if s.Kind == KAlloc {
			p.allocN[s.Acc.Var]++
			if task >= 0 {
				p.Vars[s.Acc.Var].TaskLocal = true
			}
		} else if s.Acc != nil {
			p.accN[s.Acc.Var]++
			if len(s.Acc.Idx) > 0 && s.Acc != f.lastAcc {
				p.rigN++ // (a check and a record of one argument share one Access, in a row)
				f.lastAcc = s.Acc
			}
		}
		for _, b := range s.Bars {
			p.accN[b.Var]++
		}
		if task >= 0 {
			// The slots symmetricBody tests (symmetric): its control
			// slots, its accesses' and its barrier accesses'.
			// An access's slots once: the statements of one access
			// follow each other in one list (one task loop) and share
			// it, and the set is an "or" (issue 13, stop 47).
			r := slotBits(s.CtlSlots)
			if s.Acc != nil && s.Acc != taskAcc {
				r |= slotBits(s.Acc.Slots)
				taskAcc = s.Acc
			}
			for _, b := range s.Bars {
				r |= slotBits(b.Slots)
			}
			f.tasks[task].reads |= r
		}
		// g_s caches: shared by the statements of one start form and shape,
		// else one per statement. Statements that never evaluate g_s (control
		// statements and clears) or evaluate it without the cache (Exec.All,
		// Machine.gs) get none: no code tests a non-run statement's cache for
		// nil, and a run's is its checks' and records' (fuse).
		s.gsc = nil
		switch s.Kind {
		case KBlock, KLoop, KIf, KIncTaskID, KClearReads, KClearMutates:
		default:
			if s.Exec.All {
				break
			}
			if s.Exec.StartAff == nil {
				s.gsc = f.cache()
			} else if k := (gsKey{s.Exec.StartAff, s.Exec.Shape}); len(f.keys) > 0 && f.keys[len(f.keys)-1] == k {
				// shared's first probe, without its call: the statements
				// of one access follow each other (stop 46).
				s.gsc = f.caches[len(f.keys)-1]
			} else {
				s.gsc = f.shared(k)
			}
		}
		switch s.Kind {
		case KLoop:
			if s.Tasks {
				p.TaskSlots = append(p.TaskSlots, s.Slot)
				s.symmetric = false
				i := len(f.tasks) // the loops nested in s come after it
				f.tasks = append(f.tasks, taskFacts{loop: s})
				sc := f.selfEnter(s)
				inner := f.factsList(s.Body, i) // (it may grow f.tasks)
				f.tasks[i].inner = inner
				f.selfLeave(sc)
				has = true
				continue
			}
		case KCheckReads:
			f.flags[s.Acc.Var] |= readChecked
			f.cands++
		case KCheckMutates:
			f.flags[s.Acc.Var] |= mutChecked
			f.cands++
		case KRecordRead:
			f.flags[s.Acc.Var] |= read
			f.cands++
		case KRecordMutate:
			f.flags[s.Acc.Var] |= mutated
			f.cands++
		case KClearReads, KClearMutates:
			f.cands++
		case KFence, KArrive, KAwait:
			f.nev++
		}
		if len(s.Body) > 0 {
			switch s.Kind {
			case KBlock, KLoop, KIf:
			default:
				f.odd = true
			}
			sc := f.selfEnter(s)
			if f.factsList(s.Body, task) {
				has = true
			}
			f.selfLeave(sc)
		}
	}
	return has
}

// runAcc is t's access when t may join a run (fuse): a check, clear or
// record without barrier accesses that implements no sync statement;
// nil otherwise.
func runAcc(t *Stmt) *Access {
	switch t.Kind {
	case KCheckReads, KCheckMutates, KClearReads, KClearMutates, KRecordRead, KRecordMutate:
		if t.Sync < 0 && len(t.Bars) == 0 {
			return t.Acc
		}
	}
	return nil
}

// taskFacts is what facts gathers of one cuda_tasks loop for its
// symmetry (symmetric): whether a cuda_tasks loop is nested in it, and
// the slots its statements read in their controls and accesses, as
// slotBits.
type taskFacts struct {
	loop  *Stmt
	inner bool
	reads uint64
}

// slotBits is the set of slots as bits modulo 64 (a bit may stand for
// several slots: a set that meets another may be a false alarm, one that
// does not is exact).
func slotBits(slots []int) uint64 {
	var r uint64
	for _, x := range slots {
		r |= 1 << (uint(x) & 63)
	}
	return r
}

// symmetric sets the task symmetry of every cuda_tasks loop (Finish's
// comment): an innermost one whose body reads no task iterator in its
// controls or its task-local accesses (symmetricBody). facts gathered,
// in its one walk, the loops nested in each and the slots their
// statements read: a body whose slots meet no task slot is symmetric
// without a second walk of it (issue 13, stop 35: symmetricBody and
// hasTasks, two walks of every task's body, had been a tenth of
// per_cta_alloc's Finish); one that may read one is walked as before.
func (f *finisher) symmetric() {
	p := f.p
	task := slotBits(p.TaskSlots)
	for i := range f.tasks {
		t := &f.tasks[i]
		t.loop.symmetric = !t.inner && (t.reads&task == 0 || p.symmetricBody(t.loop.Body))
	}
}

// finishLoop sets what loop s's own body gives (finishTree, after the
// body's and s's runs): the accesses and g_s plans hoisted at its entry,
// its inner slots and its lite bounds box. buf[start:] holds the slots of
// the loops inside s (a slot may repeat); it returns buf with s's slot
// appended.
//
// The inner slots are gathered in one buffer, a loop's set copied out of
// it at its size: a list per statement with a body had been a tenth of a
// small kernel's Convert objects (stop 29), and each loop had walked its
// whole subtree (stop 27). The set is read by slices.Contains only, and
// only by the hoisted plans (hoist.go: prepareStatic, planGS): a loop
// with none keeps an empty set (issue 13, stop 35).
func (p *Program) finishLoop(s *Stmt, buf []int, start int, r *finRoom) []int {
	s.hoist, s.hoistGS = nil, nil
	// Only a run is hoisted, and runs are in s.fused only (fuse): a loop
	// whose body has none has no hoisted access or g_s (stop 46: its
	// mayHoist and its two walks of the body were ~130 instructions).
	if s.fused != nil && p.mayHoist(s, r) {
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

// mayHoist reports whether the machine may plan loop s's hoisted
// accesses and g_s (Machine.exec: only for a loop of hoistMinTrips
// iterations or more): false when its bounds read no slot (CtlSlots) and
// give fewer. shfl_xor's lane loops of two iterations had each listed
// their runs' accesses and g_s plans, and their inner slots, for the
// machine never to read them (issue 13, stop 35).
func (p *Program) mayHoist(s *Stmt, r *finRoom) bool {
	if len(s.CtlSlots) > 0 {
		return true
	}
	z := r.th.zero
	if len(z) < len(p.Slots) {
		z = make([]int, len(p.Slots))
		r.th.zero = z
	}
	return s.Hi(z)-s.Lo(z) >= hoistMinTrips
}

// symmetricBody reports whether no statement in body reads a task
// iterator in its control expressions or in an access to a task-local
// variable. A recursion that stops at the first that does (Walk's
// closures had been a twentieth of Finish on shfl_xor: stop 32).
func (p *Program) symmetricBody(body []*Stmt) bool {
	for _, s := range body {
		if p.usesTaskSlots(s.CtlSlots) {
			return false
		}
		if s.Acc != nil && p.Vars[s.Acc.Var].TaskLocal && p.usesTaskSlots(s.Acc.Slots) {
			return false
		}
		for _, a := range s.Bars {
			if p.Vars[a.Var].TaskLocal && p.usesTaskSlots(a.Slots) {
				return false
			}
		}
		if !p.symmetricBody(s.Body) {
			return false
		}
	}
	return true
}

// usesTaskSlots reports whether slots holds a task iterator's slot.
func (p *Program) usesTaskSlots(slots []int) bool {
	for _, s := range slots {
		if slices.Contains(p.TaskSlots, s) {
			return true
		}
	}
	return false
}

// fuse builds Stmt.fused: a run of two or more consecutive statements on
// one Access whose kinds are checks, clears and records without barrier
// accesses, none dead or implementing a sync statement, whose non-clear
// members share one g_s, executes as one kRun statement (Machine.execRun):
// the converter emits a data access as such a run (Fig. 5 and 19), and
// one dispatch, one cells and one g_s lookup serve it. The order of the
// statements, and of the cells within each, is unchanged. (s's body,
// not its nested bodies: finishTree calls it bottom up.)
//
// The caller (finishTree) sets s.fused to nil and calls it only for a
// body of two statements or more.
func (p *Program) fuse(s *Stmt, f *finisher) {
	usesGS := func(t *Stmt) bool { return t.Kind != KClearReads && t.Kind != KClearMutates }
	// out is taken at the first run, holding the (unchanged) statements
	// before it: a body without runs takes nothing, one with runs its
	// length from the slab of bodies (stop 29: its growth was a tenth of
	// a small kernel's Convert objects; stop 37: one object per body
	// with runs had been).
	var out []*Stmt
	startRun := func(i int) {
		if out == nil {
			out = append(f.runBody(len(s.Body)), s.Body[:i]...)
		}
	}
	// Each statement's runAcc is taken once (stop 46: three times had
	// been a third of fuse): u joins t's run when runAcc(u) is t's
	// access, t's kind ok, as kindOK(u) && u.Acc == t.Acc did.
	body := s.Body
	for i := 0; i < len(body); {
		t := body[i]
		acc := runAcc(t)
		if acc == nil {
			if out != nil {
				out = append(out, t)
			}
			i++
			continue
		}
		j := i + 1
		if t.dead {
			// A run of dead statements on one access (the CheckMutates
			// and RecordRead of an input): one count serves them all.
			for j < len(body) && body[j].dead && runAcc(body[j]) == acc {
				j++
			}
			if j-i < 2 {
				if out != nil {
					out = append(out, t)
				}
				i++
				continue
			}
			run := f.newRun(t.Src, body[i:j:j], acc, true)
			for _, u := range run.Body {
				// keepLite stays false: lite tasks only check bounds.
				run.checkLite = run.checkLite || u.checkLite
			}
			startRun(i)
			out = append(out, run)
			i = j
			continue
		}
		var gsOf *Stmt // the member whose g_s the run uses
		if usesGS(t) {
			gsOf = t
		}
		for ; j < len(body); j++ {
			u := body[j]
			if u.dead || runAcc(u) != acc {
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
			if out != nil {
				out = append(out, t)
			}
			i++
			continue
		}
		run := f.newRun(t.Src, body[i:j:j], acc, false)
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
		i = j
	}
	if out != nil {
		s.fused = out
	}
}

// runStmt is a kRun statement and its memo fields, one object.
type runStmt struct {
	s Stmt
	m runMemo
}
