package amir

import (
	"fmt"
	"math/rand"
	"testing"
)

// TestThreadSymPrivateMatchesFull: the stop-29 extensions of thread
// symmetry (thsym.go: inner loops, the ones the thread start or an owned
// slice reads pinned to one iteration; variables allocated in the loop
// and used only there; in a loop with no event, owned slices adopted with
// the records left before it) change nothing in the Result but the
// skipped-operation count and the memory estimate. The programs have the
// form of CudaRmemUniform(1) (bench rmem_uniform, one_thread): a thread
// loop writes each thread's register slice from a global input, then a
// second thread loop nests a one-thread loop (bounds constant, or reading
// the sequential iterator) that allocates a private scalar, sets it, reads
// its own register slice under a condition on the inner iterator, and
// writes its own element of a global output; inner sequential loops index
// the output's other dimension. Before the loops, records that are (or are
// not) translations of one another across the threads' slices: a host
// write of all of a variable or of part of it, a one-thread write of one
// element, a write of every thread's element by its thread, fences by all
// threads, the CTA, or one thread. Breakers: an inner loop of two
// iterations the start reads, bounds that read the thread, the private
// variable read before its Alloc or indexed by the thread, another
// thread's element, a fence in the loop (no adoption then). Every program
// runs with and without symmetry, twice on one machine; the whole Result
// must be identical (bar SkippedOps and Memory).
func TestThreadSymPrivateMatchesFull(t *testing.T) {
	var runs, pins, privs, adopts, classes int64
	hazards, broken := 0, 0
	for seed := int64(0); seed < 3000; seed++ {
		m1 := New(randomPrivateThreadSymProgram(seed), Config{MaxHazards: 100})
		m2 := New(randomPrivateThreadSymProgram(seed), Config{MaxHazards: 100})
		m2.noThreadSym = true
		for rep := 0; rep < 2; rep++ {
			r1, r2 := *m1.Run(nil), *m2.Run(nil)
			r1.Stats.Memory, r2.Stats.Memory = 0, 0
			r1.Stats.SkippedOps, r2.Stats.SkippedOps = 0, 0
			g, w := fmt.Sprintf("%+v", r1), fmt.Sprintf("%+v", r2)
			if g != w {
				t.Fatalf("seed %d run %d:\nsymmetric %s\nfull      %s", seed, rep, g, w)
			}
			if rep == 0 && r1.Distinct > 0 {
				hazards++
			}
		}
		if m1.thSymRuns == 0 {
			broken++
		}
		runs += m1.thSymRuns
		pins += m1.thPinRuns
		privs += m1.thPrivRuns
		adopts += m1.thAdopts
		classes += m1.thClassRuns
	}
	t.Logf("%d symmetric loop runs (%d pinned, %d with private variables, %d slices adopted, %d loops run by classes), %d programs with hazards, %d never symmetric",
		runs, pins, privs, adopts, classes, hazards, broken)
	if runs < 3000 || pins < 1000 || privs < 1000 || adopts < 1000 || classes < 100 || hazards < 300 || hazards > 2700 || broken < 200 {
		t.Fatalf("weak coverage: %d runs, %d pinned, %d private, %d adopted, %d with hazards, %d never symmetric",
			runs, pins, privs, adopts, hazards, broken)
	}
}

func randomPrivateThreadSymProgram(seed int64) *Program {
	rng := rand.New(rand.NewSource(seed))
	b := newBuilder(64)
	task, kk, th, t1, ii, jj := b.slot("task"), b.slot("k"), b.slot("g"), b.slot("t"), b.slot("i"), b.slot("j")
	nT := 2 + rng.Intn(6)
	nK := 1 + rng.Intn(3)
	pitch := 1 + rng.Intn(2)
	first := []int{0, 2}[rng.Intn(2)]
	nI := 2
	out := b.newVar("dst", false, nT, nI)
	reg := b.local("reg", nT)
	priv := b.local("val", nT)
	aff := func(k int, terms ...Term) *Affine { return &Affine{K: k, Terms: terms} }
	pt := func(a *Affine) Window { return Window{Lo: a.Eval, LoAff: a} }
	quals := []Qual{qCuda2, qSm80}
	level := func(q Qual) Level {
		if q == qSm80 {
			return Unordered
		}
		return FullyOrdered
	}
	// The thread of the write loop, and of the read loop's inner loop.
	me := func() Exec {
		st := aff(first, Term{th, pitch})
		return Exec{Shape: shThread, Start: st.Eval, StartAff: st}
	}
	// flat: the read loop's body is directly in the thread loop, no
	// inner loop (CudaRmemUniform(64)'s inner loop over the collective's
	// threads), its conditions may read the thread.
	flat := rng.Intn(2) == 0
	tc := 1
	if flat {
		tc = 0
	}
	meIn := func() Exec {
		st := aff(first, Term{th, pitch}, Term{t1, tc})
		return Exec{Shape: shThread, Start: st.Eval, StartAff: st}
	}
	one := func(th int) Exec {
		st := aff(th)
		return Exec{Shape: shThread, Start: st.Eval, StartAff: st}
	}
	own := func(x int, extra ...Window) *Access {
		return &Access{Var: x, Idx: append([]Window{pt(aff(0, Term{th, 1}))}, extra...), Slots: []int{th}}
	}
	whole := func(x int) *Access { return &Access{Var: x} }
	tls := []syncTL{cudaInOrder, sm80Generic, sm80CpAsync}

	// Records before the loops, on src (and sometimes dst): a writer
	// (the host, the CTA, a thread outside the loops' frame, or one in
	// it) of all of it or a part (element 0, the last element, outside
	// the frame's slices when src is longer, or elements 1 to nT), fences.
	ext := []int{nT, nT, nT + 1, nT + 2}[rng.Intn(4)]
	in := b.newVar("src", false, ext)
	before := func(x, n int) {
		for w := rng.Intn(3); w >= 0; w-- {
			e, q := Exec{All: true}, []Qual{qCPU, qCuda2, qSm80}[rng.Intn(3)]
			switch rng.Intn(5) {
			case 0:
				e, q = cta(), quals[rng.Intn(2)]
			case 1:
				e, q = one(63), quals[rng.Intn(2)]
			case 2:
				e, q = one([]int{first, first + pitch}[rng.Intn(2)]), quals[rng.Intn(2)]
			}
			a := whole(x)
			switch rng.Intn(6) {
			case 0:
				a = &Access{Var: x, Idx: []Window{pt(aff(0))}}
			case 1:
				a = &Access{Var: x, Idx: []Window{pt(aff(n - 1))}}
			case 2:
				a = &Access{Var: x, Idx: []Window{{Lo: k(1), Hi: k(nT), LoAff: aff(1), HiAff: aff(nT)}}}
			}
			if rng.Intn(4) == 0 {
				b.read(e, a, q)
			} else {
				b.write(e, a, q, level(q))
			}
			switch rng.Intn(6) {
			case 0:
				b.fence(Exec{All: true}, []syncTL{cudaInOrder, streamSync}[rng.Intn(2)], cudaInOrder)
			case 1:
				b.fence(cta(), tls[rng.Intn(3)], tls[rng.Intn(2)])
			case 2, 3: // one thread of the frame: a grant that is no translation
				b.fence(one([]int{first, first + pitch}[rng.Intn(2)]), tls[rng.Intn(3)], cudaInOrder)
			}
		}
		if rng.Intn(6) == 0 { // each thread its own element, in full
			b.loop(th, 0, nT, false, func() {
				b.write(me(), own(x), quals[rng.Intn(2)], FullyOrdered)
				b.fence(one(0), cudaInOrder, cudaInOrder) // breaks the loop's symmetry
			})
		}
	}
	pre := rng.Intn(5) > 0
	preOut := rng.Intn(3) == 0
	breaker := rng.Intn(4) == 0
	b.loop(task, 0, 1, true, func() {
		b.alloc(reg)
		if pre {
			before(in, ext)
		}
		if preOut {
			before(out, nT)
		}
		b.loop(kk, 0, nK, false, func() {
			// reg[g] = src[g]
			b.loop(th, 0, nT, false, func() {
				q := quals[rng.Intn(2)]
				b.read(me(), own(in), q)
				b.write(me(), own(reg), quals[rng.Intn(2)], level(q))
				if rng.Intn(3) == 0 {
					b.fence(me(), tls[rng.Intn(3)], tls[rng.Intn(2)])
				}
			})
			if rng.Intn(4) == 0 {
				b.fence(cta(), tls[rng.Intn(3)], tls[rng.Intn(2)])
			}
			// for g: for t in (0, 1): val = 0; if t % 2 == 0: val = reg[g] * 10; dst[g + t] = val
			b.loop(th, 0, nT, false, func() {
				if breaker && rng.Intn(4) == 0 { // val read before its Alloc, from the second k on
					b.open()
					b.read(meIn(), whole(priv), qCuda2)
					body := b.close()
					b.add(&Stmt{Kind: KIf, CtlSlots: []int{kk}, Body: body, Ctl: &Ctl{Cond: func(env []int) bool { return env[kk] > 0 }}})
				}
				inner := func() {
					b.alloc(priv)
					b.write(meIn(), whole(priv), qCuda2, FullyOrdered)
					b.open()
					b.read(meIn(), &Access{Var: reg, Idx: []Window{pt(aff(0, Term{th, 1}))}, Slots: []int{th}}, quals[rng.Intn(2)])
					if breaker && rng.Intn(4) == 0 { // another thread's element
						b.read(meIn(), &Access{Var: reg, Idx: []Window{pt(aff(0))}}, qCuda2)
					}
					b.write(meIn(), whole(priv), qCuda2, FullyOrdered)
					if rng.Intn(6) == 0 {
						b.fence(meIn(), tls[rng.Intn(3)], tls[rng.Intn(2)])
					}
					body := b.close()
					conds := []func([]int) bool{
						func(env []int) bool { return env[t1]%2 == 0 },
						func(env []int) bool { return env[kk]%2 == 1 },
						// On the thread: classes of iterations, some
						// not arithmetic progressions, some whose first
						// iterations are not the first ones.
						func(env []int) bool { return env[th]%2 == 0 },
						func(env []int) bool { return env[th]%2 == 1 || env[kk] == 1 },
						func(env []int) bool { return env[th] == 0 },
						func(env []int) bool { return env[th]%3 == 1 },
						func(env []int) bool { return env[th] < 2 },
						func(env []int) bool { return env[th] == nT-1 },
					}
					ctl := []int{t1, kk}
					c := rng.Intn(2)
					if flat || breaker && rng.Intn(4) == 0 {
						// In an inner loop: breaks symmetry.
						c = rng.Intn(len(conds))
					}
					if c >= 2 {
						ctl = append(ctl, th)
					}
					b.add(&Stmt{Kind: KIf, CtlSlots: ctl, Body: body, Ctl: &Ctl{Cond: conds[c]}})
					if flat && rng.Intn(3) == 0 {
						// A second condition on the thread.
						b.open()
						b.write(meIn(), whole(priv), qCuda2, FullyOrdered)
						body := b.close()
						b.add(&Stmt{Kind: KIf, CtlSlots: []int{th}, Body: body, Ctl: &Ctl{Cond: func(env []int) bool { return env[th]%4 < 2 }}})
					}
					b.read(meIn(), whole(priv), qCuda2)
					q := quals[rng.Intn(2)]
					if rng.Intn(2) == 0 {
						// dst[g + t, i] under a sequential loop
						b.loop(ii, 0, nI, false, func() {
							a := &Access{Var: out, Idx: []Window{pt(aff(0, Term{th, 1}, Term{t1, tc})), pt(aff(0, Term{ii, 1}))}, Slots: []int{th, t1, ii}}
							b.write(meIn(), a, q, level(q))
						})
					} else {
						a := &Access{Var: out, Idx: []Window{pt(aff(0, Term{th, 1}, Term{t1, tc})), pt(aff(rng.Intn(nI)))}, Slots: []int{th, t1}}
						b.write(meIn(), a, q, level(q))
					}
					if breaker && rng.Intn(5) == 0 { // val indexed by the thread
						b.read(meIn(), &Access{Var: priv, Idx: []Window{pt(aff(1, Term{th, 1}))}, Slots: []int{th}}, qCuda2)
					}
				}
				if flat {
					inner()
					return
				}
				b.open()
				inner()
				body := b.close()
				hi, ctl := k(1), []int(nil)
				switch {
				case breaker && rng.Intn(3) == 0: // two iterations the start reads
					hi = k(2)
				case breaker && rng.Intn(3) == 0: // a bound that reads the thread
					hi, ctl = func(env []int) int { return 1 + env[th]%2 }, []int{th}
				case rng.Intn(3) == 0: // a bound that reads the sequential iterator
					hi, ctl = func(env []int) int { return 1 + env[kk]%1 }, []int{kk}
				}
				if breaker && rng.Intn(3) == 0 {
					// In a sequential loop whose iterator its bound reads:
					// one iteration, then two.
					b.open()
					b.add(&Stmt{Kind: KLoop, Body: body, CtlSlots: []int{jj}, Ctl: &Ctl{Slot: t1, Lo: k(0), Hi: func(env []int) int { return 1 + env[jj] }}})
					b.add(&Stmt{Kind: KLoop, Body: b.close(), Ctl: &Ctl{Slot: jj, Lo: k(0), Hi: k(2)}})
					return
				}
				b.add(&Stmt{Kind: KLoop, Body: body, CtlSlots: ctl, Ctl: &Ctl{Slot: t1, Lo: k(0), Hi: hi}})
			})
			if breaker && rng.Intn(4) == 0 { // val read after the loop: not private
				b.read(one(first+pitch*(nT-1)), whole(priv), qCuda2)
			}
			if rng.Intn(3) == 0 {
				b.fence([]Exec{cta(), {All: true}, one(first)}[rng.Intn(3)], tls[rng.Intn(3)], tls[rng.Intn(2)])
			}
		})
		if ext == nT+2 && rng.Intn(4) > 0 {
			// A second frame over src's last two elements.
			b.loop(th, nT, nT+2, false, func() {
				b.read(me(), own(in), quals[rng.Intn(2)])
				if rng.Intn(2) == 0 {
					b.fence(me(), tls[rng.Intn(3)], tls[rng.Intn(2)])
				}
			})
		}
		for n := rng.Intn(5); n > 0; n-- {
			e := one(first + pitch*rng.Intn(nT))
			a := &Access{Var: in, Idx: []Window{pt(aff(rng.Intn(ext)))}}
			if rng.Intn(2) == 0 {
				a = &Access{Var: out, Idx: []Window{pt(aff(rng.Intn(nT))), pt(aff(rng.Intn(nI)))}}
			}
			if rng.Intn(2) == 0 {
				b.write(e, a, quals[rng.Intn(2)], FullyOrdered)
			} else {
				b.read(e, a, quals[rng.Intn(2)])
			}
		}
		if rng.Intn(2) == 0 {
			b.fence(cta(), tls[rng.Intn(3)], tls[rng.Intn(2)])
		}
		fq := quals[rng.Intn(2)]
		b.add(&Stmt{Kind: KCheckReads, Exec: cta(), Acc: whole(reg), Level: TemporallyOrdered, Quals: Of(fq), What: AccFree})
		b.add(&Stmt{Kind: KCheckMutates, Exec: cta(), Acc: whole(reg), Level: TemporallyOrdered, Quals: Of(fq), What: AccFree})
	})
	if rng.Intn(2) == 0 {
		b.fence(Exec{All: true}, cudaInOrder, cudaInOrder)
	}
	q := quals[rng.Intn(2)]
	b.read(Exec{All: true}, whole(out), q)
	b.read(Exec{All: true}, whole(in), q)
	return b.build()
}

// TestThreadSymPrivateScope: a variable allocated in a thread loop is the
// iteration's own only if every access of the program follows its Alloc
// in the loop, in the Alloc's statement list: read after an If that
// allocates it only at k = 0 (the next k sees the last iteration's
// incarnation), or read after the loop by the last thread, the loop must
// run in full, and does, with the full run's Result.
func TestThreadSymPrivateScope(t *testing.T) {
	for c := 0; c < 2; c++ {
		mk := func() (*Program, *Stmt) {
			b := newBuilder(64)
			task, kk, th := b.slot("task"), b.slot("k"), b.slot("g")
			out := b.newVar("dst", false, 4)
			val := b.local("val", 1)
			st := &Affine{Terms: []Term{{th, 1}}}
			me := Exec{Shape: shThread, Start: st.Eval, StartAff: st}
			last := &Affine{K: 3}
			b.loop(task, 0, 1, true, func() {
				b.loop(kk, 0, 2, false, func() {
					b.loop(th, 0, 4, false, func() {
						if c == 0 {
							b.open()
							b.alloc(val)
							b.write(me, &Access{Var: val}, qSm80, Unordered)
							b.add(&Stmt{Kind: KIf, CtlSlots: []int{kk}, Body: b.close(), Ctl: &Ctl{Cond: func(env []int) bool { return env[kk] == 0 }}})
						} else {
							b.alloc(val)
							b.write(me, &Access{Var: val}, qSm80, Unordered)
						}
						b.read(me, &Access{Var: val}, qCuda2)
						b.write(me, &Access{Var: out, Idx: []Window{{Lo: st.Eval, LoAff: st}}, Slots: []int{th}}, qCuda2, FullyOrdered)
					})
					if c == 1 {
						b.read(Exec{Shape: shThread, Start: last.Eval, StartAff: last}, &Access{Var: val}, qCuda2)
					}
				})
			})
			p := b.build()
			var loop *Stmt
			Walk(p.Body, func(s *Stmt) {
				if s.Kind == KLoop && s.Slot == th {
					loop = s
				}
			})
			return p, loop
		}
		p, loop := mk()
		if p.thPlanOf(loop) != nil {
			t.Fatalf("case %d: the loop has a thread-symmetry plan", c)
		}
		r1 := *New(p, Config{MaxHazards: 10}).Run(nil)
		p2, _ := mk()
		m2 := New(p2, Config{MaxHazards: 10})
		m2.noThreadSym = true
		r2 := *m2.Run(nil)
		r1.Stats.Memory, r2.Stats.Memory = 0, 0
		if g, w := fmt.Sprintf("%+v", r1), fmt.Sprintf("%+v", r2); g != w || r1.Distinct == 0 {
			t.Fatalf("case %d (want a hazard: another thread's incarnation):\nsymmetric %s\nfull      %s", c, g, w)
		}
	}
}

// TestThreadSymLazyAdoptMatchesFull: TestThreadSymPrivateMatchesFull's
// programs with every whole-variable record deferred (lazycells.go, at
// one cell and up): an adopted lazy variable makes only the first
// thread's slice (thsymAdoptableLazy, thsymDropCopies), with the Result of
// the full run.
func TestThreadSymLazyAdoptMatchesFull(t *testing.T) {
	defer func(n int) { lazyCellsMin = n }(lazyCellsMin)
	lazyCellsMin = 1
	var lazy int64
	for seed := int64(0); seed < 3000; seed++ {
		m1 := New(randomPrivateThreadSymProgram(seed), Config{MaxHazards: 100})
		m2 := New(randomPrivateThreadSymProgram(seed), Config{MaxHazards: 100})
		m2.noThreadSym = true
		for rep := 0; rep < 2; rep++ {
			r1, r2 := *m1.Run(nil), *m2.Run(nil)
			r1.Stats.Memory, r2.Stats.Memory = 0, 0
			r1.Stats.SkippedOps, r2.Stats.SkippedOps = 0, 0
			if g, w := fmt.Sprintf("%+v", r1), fmt.Sprintf("%+v", r2); g != w {
				t.Fatalf("seed %d run %d:\nsymmetric %s\nfull      %s", seed, rep, g, w)
			}
		}
		lazy += m1.thLazyAdopts
	}
	t.Logf("%d lazy variables adopted", lazy)
	if lazy < 200 {
		t.Fatalf("weak coverage: %d lazy variables adopted", lazy)
	}
}
