package amir

import (
	"fmt"
	"math/rand"
	"testing"
)

// planFacts counts what planQuickAgrees saw.
type planFacts struct {
	loops, noStart, noInner, thsym, grid int
}

func (f *planFacts) add(g planFacts) {
	f.loops += g.loops
	f.noStart += g.noStart
	f.noInner += g.noInner
	f.thsym += g.thsym
	f.grid += g.grid
}

// planGridFull is planGrid without its gridInner test (the plan of stop
// 31).
func (p *Program) planGridFull(s *Stmt) *gridPlan {
	stmts, ok := gridDataStmts(s)
	if !ok {
		return nil
	}
	if g := p.planGridMode(s, stmts, false); g != nil {
		return g
	}
	if !blkCandidate(s, stmts) {
		return nil
	}
	return &gridPlan{blk: true, lazy: true}
}

// gridDataStmts lists nest s's statements but loops, blocks and Ifs, and
// whether all are data statements planGrid takes.
func gridDataStmts(s *Stmt) ([]*Stmt, bool) {
	var stmts []*Stmt
	ok := true
	Walk(s, func(t *Stmt) {
		switch t.Kind {
		case KBlock, KLoop, KIf:
		case KRecordRead, KRecordMutate, KClearReads, KClearMutates, KCheckReads, KCheckMutates:
			if t.Acc == nil || len(t.Bars) > 0 || t.TxBytes != 0 || t.TxCheck || t.Sync >= 0 {
				ok = false
			}
			stmts = append(stmts, t)
		default:
			ok = false
		}
	})
	return stmts, ok
}

// planQuickAgrees checks, on every non-task loop of finished program p,
// that the planners' cheap first tests (plan_quick.go) only refuse what
// the full planners refuse: startReadsIter false implies planThreadSym
// and the full planGrid give nil; gridInner false implies planGridMode's
// one-thread form gives nil; and Finish's plans are there exactly when
// the full planners give one (thread plans less those Finish drops when
// some nest has a one-thread grid plan).
func planQuickAgrees(p *Program) (planFacts, error) {
	var f planFacts
	var err error
	Walk(p.Body, func(s *Stmt) {
		if err != nil || s.Kind != KLoop || s.Tasks {
			return
		}
		f.loops++
		th, gr := p.planThreadSym(s), p.planGridFull(s)
		if !startReadsIter(s) {
			f.noStart++
			if th != nil || gr != nil {
				err = fmt.Errorf("loop of slot %d: startReadsIter refuses, the planners give thsym %v grid %v", s.Slot, th != nil, gr != nil)
				return
			}
		}
		if stmts, ok := gridDataStmts(s); ok {
			if e := firstExec(s.Body); e != nil && !e.Exec.All && e.Exec.StartAff != nil && !gridInner(s, e.Exec.StartAff) {
				f.noInner++
				if p.planGridMode(s, stmts, false) != nil {
					err = fmt.Errorf("loop of slot %d: gridInner refuses, planGridMode plans it", s.Slot)
					return
				}
			}
		}
		wantTh := th != nil && (p.thExt || !(th.inner || len(th.private) > 0 || len(th.yconds) > 0))
		if (p.thPlanOf(s) != nil) != wantTh || (s.grid != nil) != (gr != nil) {
			err = fmt.Errorf("loop of slot %d: Finish planned thsym %v grid %v, the full planners %v %v", s.Slot, p.thPlanOf(s) != nil, s.grid != nil, wantTh, gr != nil)
			return
		}
		if gr != nil && (s.grid.blk != gr.blk || s.grid.lazy != gr.lazy) {
			err = fmt.Errorf("loop of slot %d: grid plan blk %v lazy %v, the full planner's %v %v", s.Slot, s.grid.blk, s.grid.lazy, gr.blk, gr.lazy)
			return
		}
		if th != nil {
			f.thsym++
		}
		if gr != nil {
			f.grid++
		}
	})
	return f, err
}

// TestPlanQuickAgrees runs planQuickAgrees on the symmetry tests' random
// programs and on randomPlanProgram's nests, which put sequential loops
// around thread loops, starts that read some enclosing iterators and not
// others, clears, Allocs and Ifs before the first statement, and thread
// nests with and without inner loops.
func TestPlanQuickAgrees(t *testing.T) {
	gens := []struct {
		name string
		gen  func(seed int64) *Program
		n    int64
	}{
		{"plan", randomPlanProgram, 5000},
		{"thsym", randomThreadSymProgram, 300},
		{"private", randomPrivateThreadSymProgram, 300},
		{"classes", randomClassesProgram, 300},
		{"grid", randomGridProgram, 300},
		{"block", func(seed int64) *Program { return randomBlockProgram(seed, seed%2 == 0) }, 300},
	}
	for _, g := range gens {
		var all planFacts
		for seed := int64(0); seed < g.n; seed++ {
			f, err := planQuickAgrees(g.gen(seed))
			if err != nil {
				t.Fatalf("%s seed %d: %v", g.name, seed, err)
			}
			all.add(f)
		}
		t.Logf("%s: %d loops, %d refused by startReadsIter, %d by gridInner, %d thread plans, %d grid plans", g.name, all.loops, all.noStart, all.noInner, all.thsym, all.grid)
		if g.name == "plan" && (all.noStart < 2000 || all.noInner < 1000 || all.thsym < 1000 || all.grid < 500) {
			t.Fatalf("weak coverage: %+v", all)
		}
	}
}

// randomPlanProgram builds a task loop around a random tree of loops
// (sequential or thread loops: a thread loop's iterator is in the starts
// below it), Ifs, Allocs, clears, data statements and fences. Only its
// plans are compared (planQuickAgrees); it is not run.
func randomPlanProgram(seed int64) *Program {
	rng := rand.New(rand.NewSource(seed))
	b := newBuilder(256)
	task := b.slot("task")
	const nv = 4
	var vars []int
	for i := 0; i < nv; i++ {
		vars = append(vars, b.newVar(fmt.Sprintf("G%d", i), false, 64, 64))
	}
	var locals []int
	aff := func(k int, terms ...Term) *Affine { return &Affine{K: k, Terms: terms} }
	// threads are the enclosing thread loops' slots, with their steps.
	type thr struct{ slot, step int }
	var gen func(depth int, threads []thr, seqs []int)
	// tidy programs give every statement of a thread nest the nest's
	// start and windows that read each thread once (the plannable form),
	// but for a few breakers.
	tidy := rng.Intn(2) == 0
	exec := func(threads []thr, seqs []int) Exec {
		if tidy && rng.Intn(10) != 0 {
			a := aff(0)
			for _, th := range threads {
				a.Terms = append(a.Terms, Term{th.slot, th.step})
			}
			return Exec{Shape: shThread, Start: a.Eval, StartAff: a}
		}
		switch rng.Intn(12) {
		case 0:
			return Exec{All: true}
		case 1:
			return thread(task) // a closure start
		}
		a := aff(rng.Intn(2))
		for _, th := range threads {
			if rng.Intn(6) != 0 {
				a.Terms = append(a.Terms, Term{th.slot, th.step})
			}
		}
		if len(seqs) > 0 && rng.Intn(5) == 0 {
			a.Terms = append(a.Terms, Term{seqs[rng.Intn(len(seqs))], 1 + rng.Intn(2)})
		}
		return Exec{Shape: []int{shThread, shThread, shThread, shWarp}[rng.Intn(4)], Start: a.Eval, StartAff: a}
	}
	access := func(threads []thr, seqs []int) *Access {
		x := vars[rng.Intn(nv)]
		if len(locals) > 0 && rng.Intn(3) == 0 {
			x = locals[rng.Intn(len(locals))]
		}
		a := &Access{Var: x}
		if tidy && len(threads) > 0 && rng.Intn(10) != 0 {
			w0, w1 := aff(0), aff(0)
			for i, th := range threads {
				w := w1
				if i == len(threads)-1 {
					w = w0
				}
				w.Terms = append(w.Terms, Term{th.slot, 1})
				a.Slots = append(a.Slots, th.slot)
			}
			for _, sl := range seqs {
				if rng.Intn(2) == 0 {
					w1.Terms = append(w1.Terms, Term{sl, 1})
					a.Slots = append(a.Slots, sl)
				}
			}
			a.Idx = []Window{{Lo: w0.Eval, LoAff: w0}, {Lo: w1.Eval, LoAff: w1}}
			return a
		}
		for d := 0; d < 2; d++ {
			w := aff(0)
			for _, th := range threads {
				if rng.Intn(2) == 0 {
					w.Terms = append(w.Terms, Term{th.slot, 1 + rng.Intn(2)})
					a.Slots = append(a.Slots, th.slot)
				}
			}
			for _, sl := range seqs {
				if rng.Intn(3) == 0 {
					w.Terms = append(w.Terms, Term{sl, 1})
					a.Slots = append(a.Slots, sl)
				}
			}
			a.Idx = append(a.Idx, Window{Lo: w.Eval, LoAff: w})
		}
		return a
	}
	gen = func(depth int, threads []thr, seqs []int) {
		n := 1 + rng.Intn(3)
		for i := 0; i < n; i++ {
			switch r := rng.Intn(16); {
			case r < 5 && depth < 4: // a loop
				y := b.slot(fmt.Sprintf("y%d", len(b.p.Slots)))
				hi := 1 + rng.Intn(4)
				if rng.Intn(2) == 0 {
					step := 1 << rng.Intn(4)
					b.loop(y, 0, hi, false, func() { gen(depth+1, append(threads[:len(threads):len(threads)], thr{y, step}), seqs) })
				} else {
					b.loop(y, 0, hi, false, func() { gen(depth+1, threads, append(seqs[:len(seqs):len(seqs)], y)) })
				}
			case r < 6: // an If
				b.open()
				gen(depth+1, threads, seqs)
				body := b.close()
				var ctl []int
				if len(threads) > 0 && rng.Intn(2) == 0 {
					ctl = []int{threads[rng.Intn(len(threads))].slot}
				}
				b.add(&Stmt{Kind: KIf, Sync: -1, CtlSlots: ctl, Body: body, Ctl: &Ctl{Cond: func([]int) bool { return true }}})
			case r < 7 && (!tidy || rng.Intn(4) == 0): // an Alloc
				x := b.local(fmt.Sprintf("L%d", len(b.p.Vars)), 64, 64)
				locals = append(locals, x)
				b.alloc(x)
			case r < 8: // clears
				a := access(threads, seqs)
				b.add(&Stmt{Kind: KClearReads, Acc: a})
				b.add(&Stmt{Kind: KClearMutates, Acc: a})
			case r < 9 && (!tidy || rng.Intn(4) == 0):
				b.fence(exec(threads, seqs), cudaInOrder, cudaInOrder)
			case r < 12:
				b.read(exec(threads, seqs), access(threads, seqs), qCuda2)
			default:
				b.write(exec(threads, seqs), access(threads, seqs), qCuda2, FullyOrdered)
			}
		}
	}
	b.loop(task, 0, 1, true, func() { gen(0, nil, nil) })
	return b.build()
}
