package amir

import (
	"fmt"
	"math/rand"
	"testing"
)

// randomSelfProgram is a thread loop (and sometimes a seq loop around
// it) whose body allocates a private variable priv and reads and writes
// it, each piece breaking a condition of selfChecked now and then: an
// access before the Alloc or outside the loop, an Alloc under an If or
// twice, another thread's or a warp's g_s, a start that differs, a
// timeline or level a check does not accept, every g_s a warp's (one
// record per thread), a loop or an IncTaskID
// between the Alloc and an access, a barrier access, fences between.
func randomSelfProgram(seed int64) *Program {
	rng := rand.New(rand.NewSource(seed))
	b := newBuilder(64)
	task, kk, th, ii := b.slot("task"), b.slot("k"), b.slot("g"), b.slot("i")
	nT := 2 + rng.Intn(5)
	out := b.newVar("dst", false, nT)
	priv := b.local("val", 1+rng.Intn(2))
	bar := b.local("bar", 1)
	b.p.Vars[bar].Barrier = true
	aff := func(k int, terms ...Term) *Affine { return &Affine{K: k, Terms: terms} }
	pt := func(a *Affine) Window { return Window{Lo: a.Eval, LoAff: a} }
	warpMe := rng.Intn(6) == 0 // the iterations' own g_s a warp
	me := func() Exec {
		if warpMe {
			return Exec{Shape: shWarp, StartAff: aff(0), Start: aff(0).Eval}
		}
		st := aff(0, Term{th, 1})
		if rng.Intn(12) == 0 {
			st = aff(0, Term{th, 1}, Term{kk, 0}) // the same value, not the same form
		}
		return Exec{Shape: shThread, Start: st.Eval, StartAff: st}
	}
	exec := func() Exec {
		switch rng.Intn(14) {
		case 0:
			st := aff(0)
			return Exec{Shape: shThread, Start: st.Eval, StartAff: st} // thread 0
		case 1:
			return Exec{Shape: shWarp, StartAff: aff(0), Start: aff(0).Eval}
		case 2:
			return Exec{All: true}
		case 3:
			return thread(th) // no affine form
		}
		return me()
	}
	quals := []Qual{qCuda2, qCuda2, qCuda2, qSm80}
	levels := []Level{FullyOrdered, FullyOrdered, FullyOrdered, Unordered, TemporallyOrdered}
	tls := []syncTL{cudaInOrder, sm80Generic, sm80CpAsync}
	whole := func() *Access { return &Access{Var: priv} }
	op := func() {
		switch rng.Intn(4) {
		case 0:
			b.read(exec(), whole(), quals[rng.Intn(len(quals))])
		case 1:
			// A read with another accepted set or level.
			e, q := exec(), quals[rng.Intn(len(quals))]
			b.add(&Stmt{Kind: KCheckMutates, Exec: e, Acc: whole(), Level: levels[rng.Intn(len(levels))], Quals: Of(q) | Of(quals[rng.Intn(len(quals))]), What: AccRead})
			b.add(&Stmt{Kind: KRecordRead, Exec: e, Acc: whole(), Level: levels[rng.Intn(len(levels))], Q: q})
		default:
			b.write(exec(), whole(), quals[rng.Intn(len(quals))], levels[rng.Intn(len(levels))])
		}
	}
	body := func() {
		if rng.Intn(10) == 0 {
			b.read(me(), whole(), qCuda2) // before the Alloc: the last iteration's
		}
		if rng.Intn(10) == 0 {
			b.open()
			b.alloc(priv)
			s := b.close()
			b.add(&Stmt{Kind: KIf, CtlSlots: []int{th}, Body: s, Ctl: &Ctl{Cond: func(env []int) bool { return env[th] != 1 }}})
		} else {
			b.alloc(priv)
		}
		for n := 1 + rng.Intn(4); n > 0; n-- {
			switch rng.Intn(12) {
			case 0:
				b.open()
				op()
				s := b.close()
				b.add(&Stmt{Kind: KIf, CtlSlots: []int{th}, Body: s, Ctl: &Ctl{Cond: func(env []int) bool { return env[th]%2 == 0 }}})
			case 1:
				b.fence(me(), tls[rng.Intn(3)], tls[rng.Intn(2)])
			case 2:
				b.loop(ii, 0, 1+rng.Intn(2), false, func() {
					if rng.Intn(2) == 0 {
						op()
					}
				})
			case 3:
				if rng.Intn(3) == 0 {
					b.add(&Stmt{Kind: KIncTaskID})
				}
			case 4:
				if rng.Intn(3) == 0 {
					b.alloc(priv)
				}
			case 5:
				if rng.Intn(3) == 0 {
					a := &Access{Var: bar, Idx: []Window{pt(aff(0))}}
					b.add(&Stmt{Kind: KRecordMutate, Exec: me(), Acc: whole(), Bars: []*Access{a}, Level: FullyOrdered, Q: qCuda2})
				}
			}
			op()
		}
		b.read(me(), whole(), qCuda2)
		b.write(me(), &Access{Var: out, Idx: []Window{pt(aff(0, Term{th, 1}))}, Slots: []int{th}}, qCuda2, FullyOrdered)
	}
	b.loop(task, 0, 1+rng.Intn(2), true, func() {
		b.alloc(bar)
		b.loop(kk, 0, 1+rng.Intn(2), false, func() {
			b.loop(th, 0, nT, false, body)
			if rng.Intn(8) == 0 {
				b.read(me(), whole(), qCuda2) // after the loop
			}
		})
	})
	return b.build()
}

// TestSelfCheckedMatchesLive compares runs with self-checked variables
// (selfcheck.go) and without the marks (selfCheckOff), on the programs
// of randomSelfProgram and the private-variable and classes generators:
// the same Results but for the records made and the memory estimate.
// It counts the variables marked and the programs where an unmarked
// private variable has a hazard (a condition that mattered).
func TestSelfCheckedMatchesLive(t *testing.T) {
	defer func() { selfCheckOff = false }()
	var marked, refusedHazards int
	gens := []func(int64) *Program{randomSelfProgram, randomPrivateThreadSymProgram, randomClassesProgram}
	for seed := int64(0); seed < 1500; seed++ {
		for g, mk := range gens {
			selfCheckOff = false
			p := mk(seed)
			selfCheckOff = true
			q := mk(seed)
			selfCheckOff = false
			privHazard := map[int]bool{}
			for run := 0; run < 2; run++ {
				a := *New(p, Config{MaxHazards: 100}).Run(nil)
				c := *New(q, Config{MaxHazards: 100}).Run(nil)
				for _, h := range c.Hazards {
					privHazard[h.Var] = true
				}
				for _, r := range []*Result{&a, &c} {
					r.Stats.Memory, r.Stats.SkippedOps, r.Stats.Records = 0, 0, 0
				}
				if x, y := fmt.Sprintf("%+v", a), fmt.Sprintf("%+v", c); x != y {
					t.Fatalf("generator %d seed %d run %d:\nmarked %s\nlive   %s", g, seed, run, x, y)
				}
			}
			for i := range p.Vars {
				if p.Vars[i].selfChecked {
					marked++
					if privHazard[i] {
						t.Fatalf("generator %d seed %d: %s marked, with a hazard", g, seed, p.Vars[i].Name)
					}
				} else if !p.Vars[i].Param && !p.Vars[i].Barrier && privHazard[i] && p.allocN[i] == 1 {
					refusedHazards++
				}
			}
		}
	}
	t.Logf("%d variables marked, %d unmarked with a hazard", marked, refusedHazards)
	if marked < 500 || refusedHazards < 100 {
		t.Fatalf("weak coverage: %d marked, %d unmarked with a hazard", marked, refusedHazards)
	}
}
