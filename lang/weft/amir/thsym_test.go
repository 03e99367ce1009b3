package amir

import (
	"fmt"
	"math/rand"
	"testing"

	"weft.dev/weft/lang/weft/coll"
)

// TestThreadSymMatchesFull: thread symmetry (thsym.go) changes nothing in
// the Result but the skipped-operation count and the memory estimate.
// Random task loops hold sequential loops of cuda_threads loops over
// 2-6 one-thread units (thread pitch 1 or 2, first thread 0 or 3) whose
// statements write and read their own column of a shared-memory ring,
// in order or async, some completing on a per-thread commit group, write
// their own row of a global output (sometimes past its end in the last
// task), read a global input, fence, commit and wait on their commit
// group, under conditions on the sequential iterator. Some loops break
// symmetry: a read of another thread's column, a window that is not a
// translation (a closure of the thread, two different slices of one
// variable, overlapping ranges), a condition on the thread, a warp
// statement. Between the loops: CTA, warp, one-thread and all-thread
// fences, a CTA read of the whole ring, a CTA Await on the commit group;
// at the end of a task, the final waits, CheckBarrier and the free. Every
// program runs with and without symmetry, twice on one machine; the
// whole Result must be identical (bar SkippedOps and Memory).
func TestThreadSymMatchesFull(t *testing.T) {
	var runs int64
	hazards, faults, broken := 0, 0, 0
	for seed := int64(0); seed < 3000; seed++ {
		m1 := New(randomThreadSymProgram(seed), Config{MaxHazards: 100})
		m2 := New(randomThreadSymProgram(seed), Config{MaxHazards: 100})
		m2.noThreadSym = true
		for rep := 0; rep < 2; rep++ {
			r1, r2 := *m1.Run(nil), *m2.Run(nil)
			r1.Stats.Memory, r2.Stats.Memory = 0, 0
			r1.Stats.SkippedOps, r2.Stats.SkippedOps = 0, 0
			g, w := fmt.Sprintf("%+v", r1), fmt.Sprintf("%+v", r2)
			if g != w {
				t.Fatalf("seed %d run %d:\nsymmetric %s\nfull      %s", seed, rep, g, w)
			}
			if rep == 0 {
				if r1.Distinct > 0 {
					hazards++
				}
				if len(r1.Faults) > 0 {
					faults++
				}
			}
		}
		if m1.thSymRuns == 0 {
			broken++
		}
		runs += m1.thSymRuns
	}
	t.Logf("%d symmetric loop runs, %d programs with hazards, %d with faults, %d never symmetric", runs, hazards, faults, broken)
	if runs < 5000 || hazards < 600 || hazards > 2700 || faults < 50 || broken < 200 {
		t.Fatalf("weak coverage: %d symmetric loop runs, %d programs with hazards, %d with faults, %d never symmetric", runs, hazards, faults, broken)
	}
}

func randomThreadSymProgram(seed int64) *Program {
	rng := rand.New(rand.NewSource(seed))
	b := newBuilder(64)
	task, kk, th := b.slot("task"), b.slot("k"), b.slot("tid")
	nTasks := 1 + rng.Intn(3)
	nT := 2 + rng.Intn(5)
	ring := 1 + rng.Intn(3)
	nK := 1 + rng.Intn(4)
	pitch := 1 + rng.Intn(2)
	first := []int{0, 3}[rng.Intn(2)]
	// The loops' own threads as one collective: a check by exactly them
	// sees grants that the threads' own fences add on top of a CTA-wide
	// one (the taint rule of thsym.go).
	frameShape := b.p.AddShape(coll.Collective{N: 1, Runs: [coll.MaxRuns]coll.Run{{Count: nT, Stride: pitch}}})
	frameStart := &Affine{K: first}
	frame := Exec{Shape: frameShape, Start: frameStart.Eval, StartAff: frameStart}
	rows := nTasks * nT
	if rng.Intn(6) == 0 {
		rows-- // the last task's last thread writes past y
	}
	y := b.newVar("y", false, rows, nK+1)
	inRows := nTasks * nT
	if rng.Intn(5) == 0 {
		inRows-- // a dead read past the input in the last task
	}
	in := b.newVar("A", false, inRows, nK+1)
	bufCols := nT + 2
	buf := b.local("buf", ring, bufCols)
	cg := b.newVar("cg", true)
	b.p.Vars[cg].PerThreadQueue = true
	b.p.Vars[cg].Param = false
	aff := func(k int, terms ...Term) *Affine { return &Affine{K: k, Terms: terms} }
	pt := func(a *Affine) Window { return Window{Lo: a.Eval, LoAff: a} }
	rg := func(lo, hi *Affine) Window { return Window{Lo: lo.Eval, Hi: hi.Eval, LoAff: lo, HiAff: hi} }
	me := func() Exec {
		st := aff(first, Term{th, pitch})
		return Exec{Shape: shThread, Start: st.Eval, StartAff: st}
	}
	kIdx := func() Window {
		switch rng.Intn(3) {
		case 0:
			return pt(aff(rng.Intn(ring)))
		case 1:
			f := &ModAffine{Aff: Affine{Terms: []Term{{kk, 1}}}, M: ring, Sign: 1}
			return Window{Lo: f.Eval, LoMod: f}
		}
		return pt(aff(0, Term{kk, 0}))
	}
	ownBuf := func() *Access {
		w := pt(aff(0, Term{th, 1}))
		if rng.Intn(3) == 0 {
			w = rg(aff(0, Term{th, 1}), aff(1, Term{th, 1}))
		}
		return &Access{Var: buf, Idx: []Window{kIdx(), w}, Slots: []int{kk, th}}
	}
	ownY := func() *Access {
		return &Access{Var: y, Idx: []Window{pt(aff(0, Term{task, nT}, Term{th, 1})), pt(aff(0, Term{kk, 1}))}, Slots: []int{task, th, kk}}
	}
	quals := []Qual{qCuda2, qSm80}
	write := func(e Exec, a *Access) {
		q := quals[rng.Intn(2)]
		lvl := FullyOrdered
		if q == qSm80 {
			lvl = Unordered
		}
		b.add(&Stmt{Kind: KCheckReads, Exec: e, Acc: a, Level: TemporallyOrdered, Quals: Of(q), What: AccWrite})
		b.add(&Stmt{Kind: KCheckMutates, Exec: e, Acc: a, Level: TemporallyOrdered, Quals: Of(q), What: AccWrite})
		b.add(&Stmt{Kind: KClearReads, Acc: a})
		b.add(&Stmt{Kind: KClearMutates, Acc: a})
		var bars []*Access
		if q == qSm80 && rng.Intn(2) == 0 {
			bars = []*Access{at(cg)}
		}
		b.add(&Stmt{Kind: KRecordMutate, Exec: e, Acc: a, Level: lvl, Q: q, Bars: bars})
	}
	tls := []syncTL{cudaInOrder, sm80Generic, sm80CpAsync}
	var stmt func(breaker bool, depth int)
	stmt = func(breaker bool, depth int) {
		if breaker && rng.Intn(3) == 0 {
			switch rng.Intn(7) {
			case 0: // another thread's column
				b.read(me(), &Access{Var: buf, Idx: []Window{kIdx(), pt(aff(0))}, Slots: []int{kk}}, quals[rng.Intn(2)])
			case 1: // a condition on the thread
				b.open()
				write(me(), ownBuf())
				body := b.close()
				b.add(&Stmt{Kind: KIf, Sync: -1, CtlSlots: []int{th}, Body: body, Ctl: &Ctl{Cond: func(env []int) bool { return env[th]%2 == 0 }}})
			case 2: // the next thread's column, as a closure
				b.read(me(), &Access{Var: buf, Idx: []Window{kIdx(), {Lo: func(env []int) int { return (env[th] + 1) % nT }}}, Slots: []int{kk, th}}, qCuda2)
			case 3: // a second slice of buf per thread
				write(me(), &Access{Var: buf, Idx: []Window{kIdx(), pt(aff(1, Term{th, 1}))}, Slots: []int{kk, th}})
			case 4: // overlapping ranges
				write(me(), &Access{Var: buf, Idx: []Window{kIdx(), rg(aff(0, Term{th, 1}), aff(2, Term{th, 1}))}, Slots: []int{kk, th}})
			case 5: // a warp statement
				b.fence(Exec{Shape: shWarp}, cudaInOrder, cudaInOrder)
			case 6: // a count that reads the thread
				s := b.await(me(), at(cg), cudaInOrder, 0)
				s.N = func(env []int) int { return env[th] % 2 }
				s.CtlSlots = []int{th}
			}
			return
		}
		switch rng.Intn(9) {
		case 0, 1:
			write(me(), ownBuf())
		case 2:
			b.read(me(), ownBuf(), quals[rng.Intn(2)])
		case 3:
			write(me(), ownY())
		case 4:
			a := &Access{Var: in, Idx: []Window{pt(aff(0, Term{task, nT}, Term{th, 1})), pt(aff(0, Term{kk, 1}))}, Slots: []int{task, th, kk}}
			b.read(me(), a, qCuda2)
		case 5:
			b.fence(me(), tls[rng.Intn(3)], tls[rng.Intn(2)])
		case 6:
			s := &Stmt{Kind: KArrive, Exec: me(), Convergent: false, Bars: []*Access{at(cg)}, Event: &Event{Pre: sm80CpAsync.full}}
			if rng.Intn(2) == 0 {
				s.Convergent, s.Pre = true, cudaInOrder.full
			}
			b.add(s)
			s.Sync = len(b.p.Syncs)
			b.p.Syncs = append(b.p.Syncs, SyncInfo{Src: s.Src})
		case 7:
			b.await(me(), at(cg), []syncTL{cudaInOrder, sm80Generic}[rng.Intn(2)], rng.Intn(2))
		case 8:
			if depth > 0 {
				write(me(), ownBuf())
				return
			}
			b.open()
			for n := 1 + rng.Intn(3); n > 0; n-- {
				stmt(breaker, depth+1)
			}
			body := b.close()
			b.add(&Stmt{Kind: KIf, Sync: -1, CtlSlots: []int{kk}, Body: body, Ctl: &Ctl{Cond: func(env []int) bool { return env[kk]%2 == 0 }}})
		}
	}
	threadLoop := func(breaker bool, n int) {
		b.loop(th, 0, nT, false, func() {
			for ; n > 0; n-- {
				stmt(breaker, 0)
			}
		})
	}
	between := func() {
		switch rng.Intn(10) {
		case 0:
			b.fence(cta(), tls[rng.Intn(3)], tls[rng.Intn(3)])
		case 1:
			one := aff(first + pitch)
			b.fence(Exec{Shape: shThread, Start: one.Eval, StartAff: one}, tls[rng.Intn(3)], cudaInOrder)
		case 2:
			b.fence(warp(task), cudaInOrder, cudaInOrder) // warp 0 holds every thread; 32 on none
		case 3:
			b.read(cta(), &Access{Var: buf}, quals[rng.Intn(2)])
		case 6, 7:
			b.read(frame, &Access{Var: buf}, quals[rng.Intn(2)])
		case 4:
			b.await(cta(), at(cg), cudaInOrder, 0)
		case 5:
			b.fence(Exec{All: true}, cudaInOrder, cudaInOrder)
		}
	}
	if rng.Intn(3) == 0 {
		b.fence(Exec{All: true}, cudaInOrder, cudaInOrder)
	}
	breakAll := rng.Intn(5) == 0
	b.loop(task, 0, nTasks, true, func() {
		b.alloc(buf)
		b.alloc(cg)
		b.loop(kk, 0, nK, false, func() {
			for n := 1 + rng.Intn(2); n > 0; n-- {
				threadLoop(breakAll || rng.Intn(6) == 0, 1+rng.Intn(6))
				if rng.Intn(3) == 0 {
					between()
				}
			}
		})
		if rng.Intn(2) == 0 {
			b.loop(th, 0, nT, false, func() { b.await(me(), at(cg), cudaInOrder, 0) })
		}
		if rng.Intn(2) == 0 {
			b.fence(cta(), tls[rng.Intn(3)], tls[rng.Intn(3)])
		}
		fq := quals[rng.Intn(2)]
		b.add(&Stmt{Kind: KCheckBarrier, Acc: at(cg)})
		b.add(&Stmt{Kind: KCheckReads, Exec: cta(), Acc: &Access{Var: buf}, Level: TemporallyOrdered, Quals: Of(fq), What: AccFree})
		b.add(&Stmt{Kind: KCheckMutates, Exec: cta(), Acc: &Access{Var: buf}, Level: TemporallyOrdered, Quals: Of(fq), What: AccFree})
	})
	if rng.Intn(2) == 0 {
		b.fence(Exec{All: true}, cudaInOrder, cudaInOrder)
	}
	return b.build()
}

// TestThreadSymTaint: after a CTA-wide fence has given the loop's records
// a grant every thread sees, each thread's own fence extends every
// thread's record (W of Definition B.3 through the CTA grant), so a loop
// of one-thread fences must run in full (the taint rule of thsym.go).
// Here the four threads' cp.async writes are witnessed by a CTA fence
// (Sm80_cp_async -> cuda_in_order: temporally ordered for Sm80 only),
// each thread then fences cuda_in_order -> Sm80_generic, and a check by
// exactly the four threads needs the Sm80 write fully ordered for each of
// them: accepted in a full run, and so with symmetry (the second loop
// runs in full); run virtually, three threads would lack the grant.
func TestThreadSymTaint(t *testing.T) {
	mk := func() *Program {
		b := newBuilder(64)
		task, th := b.slot("task"), b.slot("tid")
		buf := b.local("buf", 1, 4)
		four := b.p.AddShape(coll.Collective{N: 1, Runs: [coll.MaxRuns]coll.Run{{Count: 4, Stride: 1}}})
		zero := &Affine{}
		st := &Affine{Terms: []Term{{th, 1}}}
		me := Exec{Shape: shThread, Start: st.Eval, StartAff: st}
		col := &Affine{Terms: []Term{{th, 1}}}
		b.loop(task, 0, 1, true, func() {
			b.alloc(buf)
			b.loop(th, 0, 4, false, func() {
				b.write(me, &Access{Var: buf, Idx: []Window{{Lo: zero.Eval, LoAff: zero}, {Lo: col.Eval, LoAff: col}}, Slots: []int{th}}, qSm80, Unordered)
			})
			b.fence(cta(), sm80CpAsync, cudaInOrder)
			b.loop(th, 0, 4, false, func() { b.fence(me, cudaInOrder, sm80Generic) })
			b.read(Exec{Shape: four, Start: zero.Eval, StartAff: zero}, &Access{Var: buf}, qSm80)
		})
		return b.build()
	}
	m1 := New(mk(), Config{})
	r1 := *m1.Run(nil)
	m2 := New(mk(), Config{})
	m2.noThreadSym = true
	r2 := *m2.Run(nil)
	r1.Stats.Memory, r2.Stats.Memory, r1.Stats.SkippedOps, r2.Stats.SkippedOps = 0, 0, 0, 0
	if g, w := fmt.Sprintf("%+v", r1), fmt.Sprintf("%+v", r2); g != w || !r1.OK() || m1.thSymRuns != 1 {
		t.Fatalf("symmetric (%d virtual loops) %s\nfull %s", m1.thSymRuns, g, w)
	}
}
