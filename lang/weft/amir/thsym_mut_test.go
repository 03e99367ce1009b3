package amir

import (
	"fmt"
	"math/rand"
	"testing"
)

// Focused programs for the stop-29 thread-symmetry conditions that the
// random differential tests (TestThreadSymPrivateMatchesFull,
// TestThreadSymClassesMatchesFull, TestThreadSymLazyAdoptMatchesFull)
// did not break when removed (docs/weft-sync.md, stop 29: mutants of the
// thread-symmetry extensions). Each runs with and without symmetry; the
// Results must be identical (bar SkippedOps and Memory), and each states
// what the full run finds.

// symVsFull runs mk's program with and without thread symmetry and fails
// when the Results differ; it returns the full run's Result and the
// symmetric machine.
func symVsFull(t *testing.T, name string, mk func() *Program) (Result, *Machine) {
	t.Helper()
	m1 := New(mk(), Config{MaxHazards: 100})
	m2 := New(mk(), Config{MaxHazards: 100})
	m2.noThreadSym = true
	r1, r2 := *m1.Run(nil), *m2.Run(nil)
	r1.Stats.Memory, r2.Stats.Memory = 0, 0
	r1.Stats.SkippedOps, r2.Stats.SkippedOps = 0, 0
	if g, w := fmt.Sprintf("%+v", r1), fmt.Sprintf("%+v", r2); g != w {
		t.Fatalf("%s:\nsymmetric %s\nfull      %s", name, g, w)
	}
	return r2, m1
}

// symHazards runs mk's program with and without symmetry (symVsFull)
// and fails unless the full run's hazards, as "kind tTHREAD [index]" in
// order, are want and (loops >= 0) the symmetric run ran loops virtual
// loops.
func symHazards(t *testing.T, name string, mk func() *Program, want string, loops int64) {
	t.Helper()
	r, m := symVsFull(t, name, mk)
	var got []string
	for _, h := range r.Hazards {
		got = append(got, fmt.Sprintf("%s t%d %v", h.Kind, h.Thread, h.Index))
	}
	if fmt.Sprint(got) != want || loops >= 0 && m.thSymRuns != loops {
		t.Fatalf("%s: %v, want %s (%d virtual loops, want %d)", name, got, want, m.thSymRuns, loops)
	}
}

// oneThread is thread x's Exec.
func oneThread(x int) Exec {
	a := &Affine{K: x}
	return Exec{Shape: shThread, Start: a.Eval, StartAff: a}
}

// at1 is element x of a one-dimensional variable.
func at1(v, x int) *Access {
	a := &Affine{K: x}
	return &Access{Var: v, Idx: []Window{{Lo: a.Eval, LoAff: a}}}
}

// waitRead: thread x waits for its commit groups and reads element i of
// buf with Sm80; then the commit groups are checked.
func waitRead(b *builder, cg, buf, x, i int) {
	b.await(oneThread(x), at(cg), sm80Generic, 0)
	b.read(oneThread(x), at1(buf, i), qSm80)
	b.add(&Stmt{Kind: KCheckBarrier, Acc: at(cg)})
}

// commitGroup declares a commit group: a barrier with a queue a thread,
// not a parameter.
func commitGroup(b *builder) int {
	cg := b.newVar("cg", true)
	b.p.Vars[cg].PerThreadQueue = true
	b.p.Vars[cg].Param = false
	return cg
}

// cgArrive is e's commit of its accesses of timelines pre on cg.
func cgArrive(b *builder, cg int, e Exec, pre QualSet) {
	s := b.add(&Stmt{Kind: KArrive, Exec: e, Bars: []*Access{at(cg)}, Event: &Event{Pre: pre}})
	s.Sync = len(b.p.Syncs)
	b.p.Syncs = append(b.p.Syncs, SyncInfo{Src: s.Src})
}

// TestThreadSymAdoptPendingRefused: records with arrive counts are not
// adopted (thsymAdoptable's len(r.pend) test on the first thread's
// records and len(q.pend) on the others'). Each thread writes its own
// element of buf (Sm80, unordered); then some threads' records get
// counts on the writer's own commit group, which the translation test
// does not compare: (0) the write itself names the group (Stmt.Bars),
// (1) thread 0 alone, (2) every thread but thread 0, commits with an
// Arrive that witnesses its Sm80 write. buf is not virtual when the quiet
// loop that reads each thread's element enters (the first loop reads a
// shared element of other, and the Arrives tell the threads apart).
// Adopted, a later materialization (no virtual barrier, no thSubs entry)
// would copy the first thread's records into the others' slices with the
// first thread's counts, on its queue, or without any. Afterwards one
// thread commits (an Arrive that witnesses no Sm80 write) and waits,
// then reads an element with cuda_in_order: complete for the waiting
// thread exactly when the element's record has a count on its queue.
// (0) and (2): thread 1 reads its own element, no hazard in full (a copy
// without a count on queue 1 would report async access still in flight);
// (1): thread 0 reads thread 1's, a read-after-write in full (a copy with
// thread 0's count would hide it).
func TestThreadSymAdoptPendingRefused(t *testing.T) {
	const nT = 4
	for c, tc := range []struct {
		bars     bool
		arrivers []int
		obs, rd  int
		distinct int
	}{
		{true, nil, 1, 1, 2},
		{false, []int{0}, 0, 1, 3},
		{false, []int{1, 2, 3}, 1, 1, 3},
	} {
		mk := func() *Program {
			b := newBuilder(64)
			task, th := b.slot("task"), b.slot("g")
			buf := b.local("buf", nT)
			other := b.newVar("other", false, 1)
			cg := commitGroup(b)
			st := &Affine{Terms: []Term{{th, 1}}}
			me := Exec{Shape: shThread, Start: st.Eval, StartAff: st}
			own := &Access{Var: buf, Idx: []Window{{Lo: st.Eval, LoAff: st}}, Slots: []int{th}}
			one := oneThread
			arrive := func(e Exec, pre QualSet) { cgArrive(b, cg, e, pre) }
			b.loop(task, 0, 1, true, func() {
				b.alloc(buf)
				b.alloc(cg)
				b.loop(th, 0, nT, false, func() {
					b.add(&Stmt{Kind: KCheckReads, Exec: me, Acc: own, Level: TemporallyOrdered, Quals: Of(qSm80), What: AccWrite})
					b.add(&Stmt{Kind: KCheckMutates, Exec: me, Acc: own, Level: TemporallyOrdered, Quals: Of(qSm80), What: AccWrite})
					b.add(&Stmt{Kind: KClearReads, Acc: own})
					b.add(&Stmt{Kind: KClearMutates, Acc: own})
					var bars []*Access
					if tc.bars {
						bars = []*Access{at(cg)}
					}
					b.add(&Stmt{Kind: KRecordMutate, Exec: me, Acc: own, Level: Unordered, Q: qSm80, Bars: bars})
					b.read(me, &Access{Var: other, Idx: []Window{{Lo: k(0), LoAff: &Affine{}}}}, qCuda2) // not symmetric
				})
				for _, x := range tc.arrivers {
					arrive(one(x), sm80CpAsync.full) // witnesses x's write
				}
				b.loop(th, 0, nT, false, func() { b.read(me, own, qCuda2) }) // quiet
				rd := &Affine{K: tc.rd}
				arrive(one(tc.obs), cudaInOrder.full)
				b.await(one(tc.obs), at(cg), sm80Generic, 0)
				b.read(one(tc.obs), &Access{Var: buf, Idx: []Window{{Lo: rd.Eval, LoAff: rd}}}, qCuda2)
				b.add(&Stmt{Kind: KCheckBarrier, Acc: at(cg)})
			})
			b.write(Exec{All: true}, &Access{Var: other}, qCPU, FullyOrdered) // other's records live
			return b.build()
		}
		r, _ := symVsFull(t, fmt.Sprintf("case %d", c), mk)
		if r.Distinct != tc.distinct {
			t.Fatalf("case %d: %d distinct hazards in full, want %d: %+v", c, r.Distinct, tc.distinct, r)
		}
	}
}

// TestThreadSymCopyCountsOwnFrame: materializing a frame moves only the
// arrive counts on its own first thread's queues (thsymCopy, thSub). A
// virtual loop of threads 8 and 9 arrives on its commit groups, and
// thread 8's wait materializes them (thread 8's queue then has copies:
// Machine.thSubs). A virtual loop of threads 0-3 writes each its own
// element of buf; a CTA fence (cuda_in_order) gives the records a grant
// thread 8 shares, so thread 8's next commit witnesses every element's
// record and gives it a count on thread 8's queue (in full, each of the
// four records). Thread 8 then reads element 3 with Sm80, which
// materializes buf: before the fix every copy's count on thread 8's queue
// moved to thread 8+i's (thSubs was looked up by queue only), so thread
// 1's element counted on thread 9's queue. (0) Thread 8 waits and reads
// element 1 with Sm80: complete in full, a read-after-write was reported
// with symmetry; (1) thread 9 commits (witnessing nothing) and waits, and
// reads element 1 with Sm80: a read-after-write in full, missed with
// symmetry (its wait completed the copy).
func TestThreadSymCopyCountsOwnFrame(t *testing.T) {
	const nT = 4
	for c, obs := range []int{8, 9} {
		mk := func() *Program {
			b := newBuilder(64)
			task, th := b.slot("task"), b.slot("g")
			buf := b.local("buf", nT)
			cg := commitGroup(b)
			one := oneThread
			elem := func(x int) *Access { return at1(buf, x) }
			st := &Affine{Terms: []Term{{th, 1}}}
			me := Exec{Shape: shThread, Start: st.Eval, StartAff: st}
			st8 := &Affine{K: 8, Terms: []Term{{th, 1}}}
			me8 := Exec{Shape: shThread, Start: st8.Eval, StartAff: st8}
			arrive := func(e Exec, pre QualSet) { cgArrive(b, cg, e, pre) }
			b.loop(task, 0, 1, true, func() {
				b.alloc(buf)
				b.alloc(cg)
				b.loop(th, 0, 2, false, func() { arrive(me8, cudaInOrder.full) }) // virtual queues of threads 8, 9
				b.await(one(8), at(cg), cudaInOrder, 0)                           // materializes them
				b.loop(th, 0, nT, false, func() {
					b.write(me, &Access{Var: buf, Idx: []Window{{Lo: st.Eval, LoAff: st}}, Slots: []int{th}}, qCuda2, FullyOrdered)
				})
				b.fence(cta(), cudaInOrder, cudaInOrder)
				arrive(one(8), cudaInOrder.full)
				b.read(one(8), elem(3), qSm80)
				if obs == 9 {
					arrive(one(9), sm80CpAsync.full)
				}
				waitRead(b, cg, buf, obs, 1)
			})
			return b.build()
		}
		// Full: thread 8's read of element 3 before its wait, (1) thread
		// 9's read of element 1, and the unpaired arrives at the check.
		symHazards(t, fmt.Sprintf("case %d", c), mk, []string{
			"[read-after-write t8 [3] arrive/await count mismatch t-1 []]",
			"[read-after-write t8 [3] read-after-write t9 [1] arrive/await count mismatch t-1 []]",
		}[c], 2)
	}
}

// TestThreadSymAdoptLazyReplayCounts: a lazy variable is adopted only if
// its remembered record, replayed, has no arrive count
// (thsymAdoptableLazy). A virtual loop of threads 0-3 arrives on its
// commit groups and thread 0's wait materializes them (Machine.thSubs
// maps thread 0's queue to threads 1-3's). The host writes all of buf
// (Sm80; one remembered record) and thread 0 commits, witnessing every
// cell's record: each gets a count on thread 0's queue. The quiet loop of
// threads 0-3 that reads its own elements adopted buf (the test looked at
// the write's own counts only), and thread 0's read of element 3
// materialized it, moving thread i's copy's count to thread i's queue.
// (0) Thread 0 waits and reads element 1: complete in full, async access
// still in flight was reported with symmetry; (1) thread 1 commits and
// waits and reads element 1: in flight in full, missed with symmetry.
func TestThreadSymAdoptLazyReplayCounts(t *testing.T) {
	defer func(n int) { lazyCellsMin = n }(lazyCellsMin)
	lazyCellsMin = 1
	const nT = 4
	for obs := 0; obs < 2; obs++ {
		mk := func() *Program {
			b := newBuilder(64)
			task, th := b.slot("task"), b.slot("g")
			buf := b.local("buf", nT)
			cg := commitGroup(b)
			one := oneThread
			elem := func(x int) *Access { return at1(buf, x) }
			st := &Affine{Terms: []Term{{th, 1}}}
			me := Exec{Shape: shThread, Start: st.Eval, StartAff: st}
			arrive := func(e Exec, pre QualSet) { cgArrive(b, cg, e, pre) }
			b.loop(task, 0, 1, true, func() {
				b.alloc(buf)
				b.alloc(cg)
				b.loop(th, 0, nT, false, func() { arrive(me, cudaInOrder.full) })
				b.await(one(0), at(cg), cudaInOrder, 0) // materializes the queues
				b.write(Exec{All: true}, &Access{Var: buf}, qSm80, Unordered)
				arrive(one(0), sm80CpAsync.full) // witnesses every cell's record
				b.loop(th, 0, nT, false, func() {
					b.read(me, &Access{Var: buf, Idx: []Window{{Lo: st.Eval, LoAff: st}}, Slots: []int{th}}, qCuda2)
				})
				b.read(one(0), elem(3), qSm80)
				if obs == 1 {
					arrive(one(1), cudaInOrder.full)
				}
				waitRead(b, cg, buf, obs, 1)
			})
			return b.build()
		}
		// Full: the quiet loop's reads (thread 0's shown), thread 0's read
		// of element 3 before any wait, (1) thread 1's read, and the
		// unpaired arrives.
		symHazards(t, fmt.Sprintf("case %d", obs), mk, []string{
			"[async access still in flight t0 [0] async access still in flight t0 [3] arrive/await count mismatch t-1 []]",
			"[async access still in flight t0 [0] async access still in flight t0 [3] async access still in flight t1 [1] arrive/await count mismatch t-1 []]",
		}[obs], -1)
	}
}

// TestThreadSymBoxes: slices limited to the box of the other dimensions
// (thMap.nbox) copy only the box's cells and take the hull of both boxes
// when a frame's slices come back. v is 4 x 4, each thread of a loop owns
// its row (dimension 0). (0) Two loops of one frame (threads 0-3): the
// first writes every column of its row in a sequential inner loop (its
// windows read the inner iterator: no box), the second writes column 0
// (box: column 0); the hull of no box and a box is no box (mapping the
// first's zero bounds would keep column 0 only, and the materialization
// for thread 0's read of v[2][3] would lose thread 2's write there: a
// missed read-after-write). (1) Two frames, threads 0-3 writing column 0
// and threads 0-1 writing column 2: their slices do not meet (apart
// boxes); materializing the first copies only its box (copying row 0's
// column 2 too would give rows 2 and 3 thread 2's and 3's writes that no
// thread made: thread 5's read of v[3][2] would report a
// read-after-write). Expected in full: (0) one read-after-write (thread
// 0, v[2][3]); (1) none.
func TestThreadSymBoxes(t *testing.T) {
	for c := 0; c < 2; c++ {
		mk := func() *Program {
			b := newBuilder(64)
			task, th, ii := b.slot("task"), b.slot("g"), b.slot("i")
			v := b.local("v", 4, 4)
			pv := b.local("pv", 1)
			st := &Affine{Terms: []Term{{th, 1}}}
			me := Exec{Shape: shThread, Start: st.Eval, StartAff: st}
			row := Window{Lo: st.Eval, LoAff: st}
			col := func(x int) Window {
				a := &Affine{K: x}
				return Window{Lo: a.Eval, LoAff: a}
			}
			one := oneThread
			b.loop(task, 0, 1, true, func() {
				b.alloc(v)
				if c == 0 {
					b.loop(th, 0, 4, false, func() {
						// A private register: no grid nest (planGrid),
						// so the stop-29 extensions apply (Program.thExt).
						b.alloc(pv)
						b.write(me, &Access{Var: pv}, qCuda2, FullyOrdered)
						b.loop(ii, 0, 4, false, func() {
							ia := &Affine{Terms: []Term{{ii, 1}}}
							b.write(me, &Access{Var: v, Idx: []Window{row, {Lo: ia.Eval, LoAff: ia}}, Slots: []int{th, ii}}, qCuda2, FullyOrdered)
						})
					})
					b.loop(th, 0, 4, false, func() {
						b.write(me, &Access{Var: v, Idx: []Window{row, col(0)}, Slots: []int{th}}, qCuda2, FullyOrdered)
					})
					b.read(one(0), &Access{Var: v, Idx: []Window{col(2), col(3)}}, qCuda2)
				} else {
					b.loop(th, 0, 4, false, func() {
						b.write(me, &Access{Var: v, Idx: []Window{row, col(0)}, Slots: []int{th}}, qCuda2, FullyOrdered)
					})
					b.loop(th, 0, 2, false, func() {
						b.write(me, &Access{Var: v, Idx: []Window{row, col(2)}, Slots: []int{th}}, qCuda2, FullyOrdered)
					})
					b.read(one(5), &Access{Var: v, Idx: []Window{col(3), col(2)}}, qCuda2)
				}
			})
			return b.build()
		}
		symHazards(t, fmt.Sprintf("case %d", c), mk, []string{"[read-after-write t0 [2 3]]", "[]"}[c], 2)
	}
}

// TestThreadSymCountsMatchesFull: random programs of the forms above
// (commit-group counts on records that thread symmetry adopts, copies or
// translates), with and without symmetry: optionally a virtual loop of
// one-thread Arrives by threads 0-1, 0-3, 8-9 or 8-11 and a wait that
// materializes their queues; buf's records made by each thread of 0-3
// (its element, Sm80 or cuda_in_order, on its commit group or not, by a
// symmetric loop or not) or by the host (all of it; lazy at lazyCellsMin
// 1 in half the seeds); a CTA fence or not; commits by threads 0, 1, 2,
// 8 that witness the writes or not; the quiet loop of threads 0-3
// reading their elements; then perhaps a read that materializes buf, and
// one thread's commit, wait and read of an element. The whole Result
// must be identical. It fails on the mutants of thsymAdoptable's two
// count tests and on main before mut29's lazy-replay fix
// (TestThreadSymAdoptLazyReplayCounts) within 6 000 seeds; the thSub
// collision (TestThreadSymCopyCountsOwnFrame) it did not reach in 30 000.
func TestThreadSymCountsMatchesFull(t *testing.T) {
	defer func(n int) { lazyCellsMin = n }(lazyCellsMin)
	var adopts, runs int64
	hazards := 0
	for seed := int64(0); seed < 6000; seed++ {
		lazyCellsMin = []int{1, 64}[seed%2]
		r2, m1 := symVsFull(t, fmt.Sprintf("seed %d", seed), func() *Program { return randomCountsProgram(seed) })
		if r2.Distinct > 0 {
			hazards++
		}
		adopts += m1.thAdopts
		runs += m1.thSymRuns
	}
	t.Logf("%d symmetric loop runs, %d adoptions, %d programs with hazards", runs, adopts, hazards)
	if runs < 6000 || adopts < 800 || hazards < 200 || hazards == 6000 {
		t.Fatalf("weak coverage: %d runs, %d adoptions, %d with hazards", runs, adopts, hazards)
	}
}

func randomCountsProgram(seed int64) *Program {
	rng := rand.New(rand.NewSource(seed))
	const nT = 4
	b := newBuilder(64)
	task, th := b.slot("task"), b.slot("g")
	buf := b.local("buf", nT)
	other := b.newVar("other", false, 1)
	cg := commitGroup(b)
	one := oneThread
	elem := func(x int) *Access { return at1(buf, x) }
	st := &Affine{Terms: []Term{{th, 1}}}
	me := Exec{Shape: shThread, Start: st.Eval, StartAff: st}
	own := &Access{Var: buf, Idx: []Window{{Lo: st.Eval, LoAff: st}}, Slots: []int{th}}
	arrive := func(e Exec, pre QualSet) { cgArrive(b, cg, e, pre) }
	pres := []QualSet{cudaInOrder.full, sm80CpAsync.full}
	threadsOf := []int{0, 1, 2, 3, 8, 9}
	anyThread := func() int { return threadsOf[rng.Intn(len(threadsOf))] }
	quals := []Qual{qCuda2, qSm80}
	b.loop(task, 0, 1, true, func() {
		b.alloc(buf)
		b.alloc(cg)
		if rng.Intn(3) > 0 { // a virtual loop of Arrives, its queues materialized
			base := []int{0, 8}[rng.Intn(2)]
			sa := &Affine{K: base, Terms: []Term{{th, 1}}}
			n := []int{2, nT}[rng.Intn(2)]
			b.loop(th, 0, n, false, func() { arrive(Exec{Shape: shThread, Start: sa.Eval, StartAff: sa}, cudaInOrder.full) })
			b.await(one(base), at(cg), cudaInOrder, 0)
		}
		wq, wl := qSm80, Unordered
		if rng.Intn(2) == 0 {
			wq, wl = qCuda2, FullyOrdered
		}
		write := func(e Exec, a *Access, bars []*Access) {
			b.add(&Stmt{Kind: KCheckReads, Exec: e, Acc: a, Level: TemporallyOrdered, Quals: Of(wq), What: AccWrite})
			b.add(&Stmt{Kind: KCheckMutates, Exec: e, Acc: a, Level: TemporallyOrdered, Quals: Of(wq), What: AccWrite})
			b.add(&Stmt{Kind: KClearReads, Acc: a})
			b.add(&Stmt{Kind: KClearMutates, Acc: a})
			b.add(&Stmt{Kind: KRecordMutate, Exec: e, Acc: a, Level: wl, Q: wq, Bars: bars})
		}
		var bars []*Access
		if rng.Intn(2) == 0 {
			bars = []*Access{at(cg)}
		}
		switch rng.Intn(3) {
		case 0: // each thread its element, virtually
			b.loop(th, 0, nT, false, func() { write(me, own, bars) })
		case 1: // each thread its element, in full
			b.loop(th, 0, nT, false, func() {
				write(me, own, bars)
				b.read(me, &Access{Var: other, Idx: []Window{{Lo: k(0), LoAff: &Affine{}}}}, qCuda2)
			})
		case 2: // the host, all of buf
			write(Exec{All: true}, &Access{Var: buf}, bars)
		}
		if rng.Intn(2) == 0 {
			b.fence(cta(), cudaInOrder, cudaInOrder)
		}
		for _, x := range []int{0, 1, 2, 8} { // commits that may witness the writes
			if rng.Intn(2) == 0 {
				arrive(one(x), pres[rng.Intn(2)])
			}
		}
		qq := quals[rng.Intn(2)]
		b.loop(th, 0, nT, false, func() { b.read(me, own, qq) }) // quiet
		// One thread commits, waits and reads an element, perhaps after
		// a read that materializes buf.
		x := []int{0, 1, 8, 9}[rng.Intn(4)]
		if rng.Intn(3) > 0 {
			b.read(one(anyThread()), elem(rng.Intn(nT)), quals[rng.Intn(2)])
		}
		if rng.Intn(2) == 0 {
			arrive(one(x), pres[rng.Intn(2)])
		}
		b.await(one(x), at(cg), sm80Generic, 0)
		b.read(one(x), elem(rng.Intn(nT)), quals[rng.Intn(2)])
		b.add(&Stmt{Kind: KCheckBarrier, Acc: at(cg)})
	})
	b.write(Exec{All: true}, &Access{Var: other}, qCPU, FullyOrdered) // other's records live
	return b.build()
}
