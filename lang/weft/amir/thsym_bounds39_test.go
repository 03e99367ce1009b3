package amir

import (
	"fmt"
	"math/rand"
	"testing"
)

// TestWholeBoundsMatchesPerClass: thsymClasses tests the windows' bounds
// once over the loop's whole range and, when they hold, its classes skip
// their own tests (thsymInBounds; issue 13, stop 39). Against each class
// testing its own ends (thsymNoWholeBounds) and against no thread
// symmetry, on every random generator of amir's tests, the classes
// generator with exact control slots and boundsClassesProgram: the same
// Result, and against the per-class tests the same virtual runs and
// class runs.
func TestWholeBoundsMatchesPerClass(t *testing.T) {
	t.Cleanup(func() { thsymNoWholeBounds = false })
	gens := append(randomGens(), func(s int64) *Program { return randomClassesProgramCtl(s, true) }, boundsClassesProgram)
	seeds := int64(EnvCount("WEFT_BOUNDS39_SEEDS", 1000))
	var classRuns, faults int64
	for g, mk := range gens {
		for seed := int64(0); seed < seeds; seed++ {
			label := fmt.Sprintf("generator %d seed %d", g, seed)
			var outs [3]string
			var ms [3]*Machine
			for i := range ms {
				m := New(mk(seed), Config{MaxHazards: 100})
				m.noThreadSym = i == 2
				thsymNoWholeBounds = i == 1
				for run := 0; run < 2; run++ {
					r := *m.Run(nil)
					r.Stats.Memory, r.Stats.SkippedOps = 0, 0
					o := fmt.Sprintf("%+v", r)
					if run == 1 && o != outs[i] {
						t.Fatalf("%s: machine %d's second run differs:\n%s\n%s", label, i, outs[i], o)
					}
					outs[i] = o
					if i == 0 && run == 0 && len(r.Faults) > 0 {
						faults++
					}
				}
				ms[i] = m
			}
			thsymNoWholeBounds = false
			if outs[0] != outs[1] || outs[0] != outs[2] {
				t.Fatalf("%s:\nwhole     %s\nper class %s\nfull      %s", label, outs[0], outs[1], outs[2])
			}
			a, b := ms[0], ms[1]
			if a.thSymRuns != b.thSymRuns || a.thClassRuns != b.thClassRuns {
				t.Fatalf("%s: whole %d runs, %d class runs; per class %d, %d", label, a.thSymRuns, a.thClassRuns, b.thSymRuns, b.thClassRuns)
			}
			classRuns += a.thClassRuns
		}
	}
	t.Logf("%d class runs, %d faulting programs", classRuns, faults)
	if classRuns < 1000 {
		t.Fatalf("weak coverage: %d class runs", classRuns)
	}
}

// boundsClassesProgram is a loop of classes (a condition on the thread)
// whose windows may leave their variable at either end of its range
// (offsets -2 to 2, point and range windows, the variable one longer or
// not): for the whole-range bounds test of thsymClasses (stop 39), which
// the other generators reach only past the high end.
func boundsClassesProgram(seed int64) *Program {
	rng := rand.New(rand.NewSource(seed))
	b := newBuilder(64)
	task, th := b.slot("task"), b.slot("g")
	nT := 2 + rng.Intn(7)
	out := b.newVar("dst", false, nT)
	in := b.newVar("src", false, nT+rng.Intn(2))
	aff := func(k int, terms ...Term) *Affine { return &Affine{K: k, Terms: terms} }
	me := func() Exec {
		st := aff(0, Term{th, 1})
		return Exec{Shape: shThread, Start: st.Eval, StartAff: st}
	}
	conds := []func([]int) bool{
		func(env []int) bool { return env[th]%2 == 0 },
		func(env []int) bool { return env[th]%3 == 1 },
		func(env []int) bool { return env[th] < 2 },
	}
	b.loop(task, 0, 1, true, func() {
		b.loop(th, 0, nT, false, func() {
			off := rng.Intn(5) - 2
			lo := aff(off, Term{th, 1})
			w := Window{Lo: lo.Eval, LoAff: lo}
			if rng.Intn(2) == 0 {
				hi := aff(off+1+rng.Intn(2), Term{th, 1})
				w.Hi, w.HiAff = hi.Eval, hi
			}
			b.open()
			b.read(me(), &Access{Var: in, Idx: []Window{w}, Slots: []int{th}}, qCuda2)
			b.add(&Stmt{Kind: KIf, CtlSlots: []int{th}, Body: b.close(), Ctl: &Ctl{Cond: conds[rng.Intn(len(conds))]}})
			own := aff(0, Term{th, 1})
			b.write(me(), &Access{Var: out, Idx: []Window{{Lo: own.Eval, LoAff: own}}, Slots: []int{th}}, qCuda2, FullyOrdered)
		})
	})
	b.read(Exec{All: true}, &Access{Var: out}, qCuda2)
	return b.build()
}
