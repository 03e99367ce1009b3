package amir

import (
	"fmt"
	"math/rand"
	"testing"
)

// randomDeadIfProgram is a thread loop whose body allocates a private
// variable priv (self-checked, finish.go's selfChecked, unless a piece
// breaks that) and touches it under conditions on the thread, beside a
// live owned slice out[g] and now and then a live condition: the Ifs
// thsymClassify may leave unsplit (thPlan.ydead) and the ones it must
// not: a live statement in the If, a window on the thread, an If inside
// a Block or holding a loop, more dead-only Ifs than thDeadConds, a
// first iteration that skips an If some later one takes, a window out
// of bounds (a fault).
func randomDeadIfProgram(seed int64) *Program {
	rng := rand.New(rand.NewSource(seed))
	b := newBuilder(64)
	task, kk, th, ii := b.slot("task"), b.slot("k"), b.slot("g"), b.slot("i")
	nT := 2 + rng.Intn(7)
	lo := rng.Intn(2)
	out := b.newVar("dst", false, nT+1)
	pn := 1 + rng.Intn(2)
	priv := b.local("val", pn)
	aff := func(k int, terms ...Term) *Affine { return &Affine{K: k, Terms: terms} }
	pt := func(a *Affine) Window { return Window{Lo: a.Eval, LoAff: a} }
	me := func() Exec {
		st := aff(0, Term{th, 1})
		return Exec{Shape: shThread, Start: st.Eval, StartAff: st}
	}
	conds := []func(env []int) bool{
		func(env []int) bool { return env[th]%2 == 0 },
		func(env []int) bool { return env[th]%2 == 1 },
		func(env []int) bool { return env[th] < 2 },
		func(env []int) bool { return env[th] >= 1 },
		func(env []int) bool { return env[th] != 2 },
		func(env []int) bool { return env[th]%3 == 0 },
		func(env []int) bool { return env[th] >= 0 },
	}
	privAcc := func() *Access {
		switch rng.Intn(24) {
		case 0:
			// A constant cell, out of bounds when it is pn.
			c := rng.Intn(pn + 1)
			return &Access{Var: priv, Idx: []Window{pt(aff(c))}}
		case 1:
			// A window on the thread (the plan refuses a private one).
			return &Access{Var: priv, Idx: []Window{pt(aff(-lo, Term{th, 1}))}, Slots: []int{th}}
		}
		return &Access{Var: priv}
	}
	// in is only read: its checks and records are dead (NeverMutated,
	// NoReadRecords), their window on the thread, and its last cell
	// missing now and then (a fault).
	in := b.newVar("src", false, lo+nT-rng.Intn(4)/3)
	privOp := func() {
		if rng.Intn(6) == 0 {
			b.read(me(), &Access{Var: in, Idx: []Window{pt(aff(0, Term{th, 1}))}, Slots: []int{th}}, qCuda2)
			return
		}
		if rng.Intn(2) == 0 {
			b.read(me(), privAcc(), qCuda2)
		} else {
			b.write(me(), privAcc(), qCuda2, FullyOrdered)
		}
	}
	outAcc := func() *Access {
		return &Access{Var: out, Idx: []Window{pt(aff(0, Term{th, 1}))}, Slots: []int{th}}
	}
	ifOn := func(body func()) {
		b.open()
		body()
		s := b.close()
		b.add(&Stmt{Kind: KIf, CtlSlots: []int{th}, Body: s, Ctl: &Ctl{Cond: conds[rng.Intn(len(conds))]}})
	}
	body := func() {
		b.alloc(priv)
		privOp()
		for n := 1 + rng.Intn(4); n > 0; n-- {
			switch rng.Intn(10) {
			case 0:
				// A live statement beside the dead ones.
				ifOn(func() {
					privOp()
					b.write(me(), outAcc(), qCuda2, FullyOrdered)
				})
			case 1:
				// Not directly in the loop's body.
				b.open()
				ifOn(privOp)
				s := b.close()
				b.add(&Stmt{Kind: KBlock, Body: s})
			case 2:
				ifOn(func() {
					b.loop(ii, 0, 1+rng.Intn(2), false, privOp)
				})
			case 3:
				privOp()
			default:
				ifOn(func() {
					for j := rng.Intn(3); j >= 0; j-- {
						privOp()
					}
				})
			}
		}
		if rng.Intn(3) == 0 {
			// A live condition (its own classes).
			ifOn(func() { b.read(me(), outAcc(), qCuda2) })
		}
		b.write(me(), outAcc(), qCuda2, FullyOrdered)
	}
	b.loop(task, 0, 1+rng.Intn(2), true, func() {
		b.loop(kk, 0, 1+rng.Intn(2), false, func() {
			b.loop(th, lo, lo+nT, false, body)
		})
	})
	return b.build()
}

// TestThreadSymDeadMerge: thread loops whose dead-only conditions split
// no class (thsymClassify, thPlan.ydead) give the Result of the same
// loops split by them (noDeadMerge) and of the full run, but for the
// memory estimate and the operations skipped; on randomDeadIfProgram,
// randomSelfProgram and the classes generator.
func TestThreadSymDeadMerge(t *testing.T) {
	var merges int64
	marked, split, faults := 0, 0, 0
	gens := []func(int64) *Program{randomDeadIfProgram, randomSelfProgram, randomClassesProgram}
	for seed := int64(0); seed < 1500; seed++ {
		for g, mk := range gens {
			cfg := Config{MaxHazards: 100, StopAfter: int(seed % 3)}
			p1 := mk(seed)
			m1, m2, m3 := New(p1, cfg), New(mk(seed), cfg), New(mk(seed), cfg)
			m2.noDeadMerge = true
			m3.noThreadSym = true
			for run := 0; run < 2; run++ {
				r1, r2, r3 := *m1.Run(nil), *m2.Run(nil), *m3.Run(nil)
				for _, r := range []*Result{&r1, &r2, &r3} {
					r.Stats.Memory, r.Stats.SkippedOps = 0, 0
				}
				x, y, z := fmt.Sprintf("%+v", r1), fmt.Sprintf("%+v", r2), fmt.Sprintf("%+v", r3)
				if x != y || x != z {
					t.Fatalf("generator %d seed %d run %d:\nmerged %s\nsplit  %s\nfull   %s", g, seed, run, x, y, z)
				}
				if run == 0 && len(r1.Faults) > 0 {
					faults++
				}
			}
			merges += m1.deadMerges
			if m1.deadMerges > 0 && m2.thClassRuns > 0 {
				split++
			}
			for _, s := range allStmts(p1.Body) {
				if s.Kind == KLoop && s.thsym != nil && s.thsym != thPending && s.thsym.ydead != 0 {
					marked++
				}
			}
		}
	}
	t.Logf("%d loops with dead-only conditions, %d entries merged (%d programs split without), %d programs with faults", marked, merges, split, faults)
	if marked < 800 || merges < 1200 || split < 250 || faults < 100 {
		t.Fatalf("weak coverage: %d marked, %d merged, %d split without, %d with faults", marked, merges, split, faults)
	}
}

// allStmts lists s and the statements under it.
func allStmts(s *Stmt) []*Stmt {
	if s == nil {
		return nil
	}
	out := []*Stmt{s}
	for _, c := range s.Body {
		out = append(out, allStmts(c)...)
	}
	return out
}
