package amir

import (
	"fmt"
	"math/rand"
	"testing"
)

// TestThreadSymClassesMatchesFull: a thread loop whose conditions read the
// thread runs by classes of iterations (thsym.go, thsymClasses) with the
// Result of the full run but for the skipped-operation count and the
// memory estimate. The programs have the form of CudaRmemUniform(32) and
// (64) (bench rmem_uniform, gmem and grid_constant): a thread loop writes
// each thread's register element, then a second thread loop allocates a
// private register, sets it, and under conditions on the thread (parity,
// the first or last thread, thread % 3, thread < 2, a mix with the
// sequential iterator) reads its own register element into it, then
// writes its own element of an output (or one past it: a fault in the
// last thread). Breakers: a fence in the loop, another thread's element,
// a condition in an inner loop. After the loops, one-thread checks of
// the output and registers by threads of the loop, CTA fences, and the
// host's read. Runs use StopAfter 0, 1 or 2, so a stop may fall in a
// class representative. Every program runs with and without symmetry,
// twice on one machine.
func TestThreadSymClassesMatchesFull(t *testing.T) {
	var runs, classes int64
	hazards, faults, stops := 0, 0, 0
	for seed := int64(0); seed < 3000; seed++ {
		cfg := Config{MaxHazards: 100, StopAfter: int(seed % 3)}
		m1 := New(randomClassesProgram(seed), cfg)
		m2 := New(randomClassesProgram(seed), cfg)
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
					if cfg.StopAfter > 0 && r1.Distinct == cfg.StopAfter {
						stops++
					}
				}
				if len(r1.Faults) > 0 {
					faults++
				}
			}
		}
		runs += m1.thSymRuns
		classes += m1.thClassRuns
	}
	t.Logf("%d symmetric loop runs, %d loops by classes; %d programs with hazards (%d stopped), %d with faults", runs, classes, hazards, stops, faults)
	if classes < 1000 || hazards < 300 || hazards > 2800 || stops < 100 || faults < 30 {
		t.Fatalf("weak coverage: %d by classes, %d with hazards, %d stopped, %d with faults", classes, hazards, stops, faults)
	}
}

func randomClassesProgram(seed int64) *Program { return randomClassesProgramCtl(seed, false) }

// randomClassesProgramCtl is randomClassesProgram; with exact, each
// condition declares only the slots it reads (the thread alone, or the
// thread and k: thsymClassesOf's reuse of classes), conditions whose
// classes change with k are drawn too, and k has up to 3 iterations.
func randomClassesProgramCtl(seed int64, exact bool) *Program {
	rng := rand.New(rand.NewSource(seed))
	b := newBuilder(64)
	task, kk, th, t1 := b.slot("task"), b.slot("k"), b.slot("g"), b.slot("t")
	nT := 2 + rng.Intn(7)
	nK := 1 + rng.Intn(2)
	if exact {
		nK = 1 + rng.Intn(3)
	}
	first := []int{0, 8}[rng.Intn(2)]
	out := b.newVar("dst", false, nT+2, 2)
	in := b.newVar("src", false, nT)
	reg := b.local("reg", nT)
	priv := b.local("val", 1)
	aff := func(k int, terms ...Term) *Affine { return &Affine{K: k, Terms: terms} }
	pt := func(a *Affine) Window { return Window{Lo: a.Eval, LoAff: a} }
	qual := func() Qual {
		if rng.Intn(5) == 0 {
			return qSm80
		}
		return qCuda2
	}
	level := func(q Qual) Level {
		if q == qSm80 {
			return Unordered
		}
		return FullyOrdered
	}
	me := func() Exec {
		st := aff(first, Term{th, 1})
		return Exec{Shape: shThread, Start: st.Eval, StartAff: st}
	}
	one := func(x int) Exec {
		st := aff(x)
		return Exec{Shape: shThread, Start: st.Eval, StartAff: st}
	}
	own := func(x int) *Access {
		return &Access{Var: x, Idx: []Window{pt(aff(0, Term{th, 1}))}, Slots: []int{th}}
	}
	whole := func(x int) *Access { return &Access{Var: x} }
	tls := []syncTL{cudaInOrder, sm80Generic, sm80CpAsync}
	conds := []func([]int) bool{
		func(env []int) bool { return env[th]%2 == 0 },
		func(env []int) bool { return env[th]%2 == 1 },
		func(env []int) bool { return env[th] == 0 },
		func(env []int) bool { return env[th]%3 == 1 },
		func(env []int) bool { return env[th] < 2 },
		func(env []int) bool { return env[th] == nT-1 },
		func(env []int) bool { return (env[th]+env[kk])%2 == 0 },
		func(env []int) bool { return env[th]%4 < 2 },
	}
	readsK := []bool{false, false, false, false, false, false, true, false}
	if exact {
		conds = append(conds,
			func(env []int) bool { return env[th] == env[kk] },
			func(env []int) bool { return env[th] < env[kk]+1 },
			func(env []int) bool { return env[th]%(env[kk]+2) == 0 })
		readsK = append(readsK, true, true, true)
	}
	cond := func() (func([]int) bool, []int) {
		c := rng.Intn(len(conds))
		if exact && !readsK[c] {
			return conds[c], []int{th}
		}
		return conds[c], []int{th, kk}
	}
	breaker := rng.Intn(5) == 0
	if rng.Intn(2) == 0 {
		q := []Qual{qCPU, qCuda2, qSm80}[rng.Intn(3)]
		b.write(Exec{All: true}, whole(in), q, level(q))
		if rng.Intn(3) > 0 {
			b.fence(Exec{All: true}, []syncTL{cudaInOrder, streamSync}[rng.Intn(2)], cudaInOrder)
		}
	}
	b.loop(task, 0, 1+rng.Intn(2), true, func() {
		b.alloc(reg)
		b.loop(kk, 0, nK, false, func() {
			b.loop(th, 0, nT, false, func() {
				q := qual()
				b.read(me(), own(in), q)
				b.write(me(), own(reg), qual(), level(q))
			})
			if rng.Intn(3) == 0 {
				b.fence(cta(), tls[rng.Intn(3)], tls[rng.Intn(2)])
			}
			b.loop(th, 0, nT, false, func() {
				b.alloc(priv)
				b.write(me(), whole(priv), qCuda2, FullyOrdered)
				c, ctl := cond()
				b.open()
				if rng.Intn(4) == 0 {
					// The register loop's frame: this loop then runs in
					// full (a class frame would overlap it).
					b.read(me(), own(reg), qual())
				}
				b.write(me(), whole(priv), qual(), FullyOrdered)
				if rng.Intn(4) == 0 {
					c2, ctl2 := cond()
					b.open()
					b.write(me(), &Access{Var: out, Idx: []Window{pt(aff(0, Term{th, 1})), pt(aff(1))}, Slots: []int{th}}, qual(), FullyOrdered)
					b.add(&Stmt{Kind: KIf, CtlSlots: ctl2, Body: b.close(), Ctl: &Ctl{Cond: c2}})
				}
				if breaker {
					switch rng.Intn(3) {
					case 0:
						b.fence(me(), tls[rng.Intn(3)], tls[rng.Intn(2)])
					case 1:
						b.read(me(), &Access{Var: reg, Idx: []Window{pt(aff(0))}}, qCuda2)
					case 2: // a condition on the thread in an inner loop
						body := b.close()
						b.open()
						b.add(&Stmt{Kind: KIf, CtlSlots: ctl, Body: body, Ctl: &Ctl{Cond: c}})
						c, ctl = func([]int) bool { return true }, nil
						b.add(&Stmt{Kind: KLoop, Body: b.close(), Ctl: &Ctl{Slot: t1, Lo: k(0), Hi: k(1)}})
						b.open()
					}
				}
				b.add(&Stmt{Kind: KIf, CtlSlots: ctl, Body: b.close(), Ctl: &Ctl{Cond: c}})
				b.read(me(), whole(priv), qual())
				q := qual()
				col := rng.Intn(2)
				row := aff(0, Term{th, 1})
				if rng.Intn(12) == 0 {
					row = aff(3, Term{th, 1}) // past the end in the last thread
				}
				b.write(me(), &Access{Var: out, Idx: []Window{pt(row), pt(aff(col))}, Slots: []int{th}}, q, level(q))
			})
			if exact && rng.Intn(3) == 0 {
				// The class loop starts at min(k, nT-2): its range
				// changes with k (the reuse is per range).
				top := b.stack[len(b.stack)-1]
				l := top[len(top)-1]
				l.Lo = func(env []int) int { return min(env[kk], nT-2) }
				l.CtlSlots = append(l.CtlSlots, kk)
			}
			if rng.Intn(3) > 0 {
				b.fence(cta(), tls[rng.Intn(2)], cudaInOrder)
			}
			for n := rng.Intn(4); n > 0; n-- {
				e := one(first + rng.Intn(nT))
				a := &Access{Var: out, Idx: []Window{pt(aff(rng.Intn(nT))), pt(aff(rng.Intn(2)))}}
				if rng.Intn(3) == 0 {
					a = &Access{Var: reg, Idx: []Window{pt(aff(rng.Intn(nT)))}}
				}
				if rng.Intn(2) == 0 {
					b.write(e, a, qual(), FullyOrdered)
				} else {
					b.read(e, a, qual())
				}
			}
			if rng.Intn(3) == 0 {
				b.fence(cta(), tls[rng.Intn(3)], tls[rng.Intn(2)])
			}
		})
	})
	if rng.Intn(4) > 0 {
		b.fence(Exec{All: true}, cudaInOrder, cudaInOrder)
	}
	b.read(Exec{All: true}, whole(out), qCuda2)
	return b.build()
}
