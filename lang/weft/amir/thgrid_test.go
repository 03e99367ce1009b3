package amir

import (
	"fmt"

	"math/rand"
	"testing"
	"weft.dev/weft/lang/weft/coll"
)

// TestGridMatchesFull: grid symmetry (thgrid.go) changes nothing in the
// Result but the skipped-operation count and the memory estimate. Random
// task loops hold sequential loops of cuda_threads nests, one axis or two
// (outer units of nB threads, thread pitch 1 or 2, first thread 0 or 3),
// whose threads write and read their own cells of a register array O,
// read rows of a shared array S that the threads of one outer point share
// and rows of T that the threads of one inner point share, write their
// own element of a global output (past its end in the last task, in some
// programs), and read a global input, in sequential loops. Before the
// nests: staging writes of S and T by the grid's threads or by the CTA,
// CTA, warp, one-thread and all-thread fences, CTA writes and reads of O.
// Some nests break a condition: static ones (a write of S in the nest, a
// read of another point's O, a fence, a condition on a thread) and run-time
// ones (overlapping slices of O2, records of another thread in a slab, a
// read record of the nest's own statement on S from an earlier
// execution, a staging write not yet visible to every thread). Every
// program runs with and without the grid, twice on one machine; the whole
// Result must be identical (bar SkippedOps and Memory).
func TestGridMatchesFull(t *testing.T) { testGridMatchesFull(t, true) }

// TestGridEagerMatchesFull is TestGridMatchesFull with every slab built
// when its nest ends (no deferred slabs: thgrid_lazy.go).
func TestGridEagerMatchesFull(t *testing.T) { testGridMatchesFull(t, false) }

func testGridMatchesFull(t *testing.T, deferSlabs bool) {
	var runs, groups, expanded, rawSkips int64
	hazards, faults, never, cleanGrid := 0, 0, 0, 0
	for seed := int64(0); seed < gridSeeds; seed++ {
		m1 := New(randomGridProgram(seed), Config{MaxHazards: 100})
		m2 := New(randomGridProgram(seed), Config{MaxHazards: 100})
		m2.noGrid = true
		m1.gridDefer = deferSlabs
		for rep := 0; rep < 2; rep++ {
			r1, r2 := *m1.Run(nil), *m2.Run(nil)
			r1.Stats.Memory, r2.Stats.Memory = 0, 0
			r1.Stats.SkippedOps, r2.Stats.SkippedOps = 0, 0
			g, w := fmt.Sprintf("%+v", r1), fmt.Sprintf("%+v", r2)
			if g != w {
				t.Fatalf("seed %d run %d:\ngrid %s\nfull %s", seed, rep, g, w)
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
		if m1.gridRuns == 0 {
			never++
		} else if r := m1.Run(nil); r.OK() {
			cleanGrid++
		}
		runs += m1.gridRuns
		rawSkips += m1.gridRawSkips
		groups += m1.grpMade
		expanded += m1.grpExpanded
	}
	t.Logf("%d group records made, %d expanded, %d records compared unreplayed", groups, expanded, rawSkips)
	t.Logf("%d grid nest runs, %d programs with hazards, %d with faults, %d never on the grid, %d accepted on the grid", runs, hazards, faults, never, cleanGrid)
	if runs < 5000 || hazards < 600 || hazards > 2700 || faults < 50 || never < 200 || cleanGrid < 100 {
		t.Fatalf("weak coverage: %d grid nest runs, %d programs with hazards, %d with faults, %d never on the grid, %d accepted on the grid", runs, hazards, faults, never, cleanGrid)
	}
}

var gridSeeds int64 = 3000

func randomGridProgram(seed int64) *Program {
	rng := rand.New(rand.NewSource(seed))
	b := newBuilder(64)
	task, kk, ya, yb, yi, yj := b.slot("task"), b.slot("k"), b.slot("a"), b.slot("b"), b.slot("i"), b.slot("j")
	nTasks := 1 + rng.Intn(2)
	twoAxes := rng.Intn(4) != 0
	nA := 1
	if twoAxes {
		nA = 1 + rng.Intn(3)
	}
	nB := 2 + rng.Intn(3)
	nI := 1 + rng.Intn(3)
	nK := 1 + rng.Intn(3)
	pitch := 1 + rng.Intn(2)
	first := []int{0, 3}[rng.Intn(2)]
	ca, cb := 1+rng.Intn(2), 1+rng.Intn(2)
	aff := func(k int, terms ...Term) *Affine { return &Affine{K: k, Terms: terms} }
	pt := func(a *Affine) Window { return Window{Lo: a.Eval, LoAff: a} }
	rg := func(lo, hi *Affine) Window { return Window{Lo: lo.Eval, Hi: hi.Eval, LoAff: lo, HiAff: hi} }
	stepA, stepB := nB*pitch, pitch
	switch {
	case twoAxes && rng.Intn(20) == 0:
		stepA = pitch // two points on one thread
	case twoAxes && rng.Intn(5) == 0:
		stepA, stepB = pitch, nA*pitch // column-major threads
	}
	me := func() Exec {
		st := aff(first, Term{ya, stepA}, Term{yb, stepB})
		return Exec{Shape: shThread, Start: st.Eval, StartAff: st}
	}
	// A thread of the grid, fixed (for staging and fences outside).
	someThread := func() Exec {
		st := aff(first + pitch*rng.Intn(nA*nB))
		return Exec{Shape: shThread, Start: st.Eval, StartAff: st}
	}
	O := b.local("O", nA, nB, nI)
	// With gridWarpRecs: X, each point's own rows like O's, written and
	// read whole by a 16-thread group around the nests (thread group
	// records whose members are grid threads: TestGridGrpMatchesEager).
	var X, sh16 int
	if gridWarpRecs {
		X = b.local("X", nA, nB, nI)
		sh16 = b.p.AddShape(coll.Collective{N: 1, Runs: [coll.MaxRuns]coll.Run{{Count: 16, Stride: 1}}})
	}
	O2 := b.local("O2", nA, 2*nB+1)
	S := b.local("S", nA*ca+1, nK)
	T := b.local("T", nB*cb+1, nK)
	yRows := nTasks * nA * nB
	if rng.Intn(6) == 0 {
		yRows-- // the last task's last thread writes past Y
	}
	Y := b.newVar("Y", false, yRows)
	inRows := nTasks * nA * nB
	if rng.Intn(6) == 0 {
		inRows-- // a dead read past the input in the last task
	}
	in := b.newVar("In", false, inRows+1, nK)
	if rng.Intn(4) == 0 {
		// Blocks of two rows: a window [b, b+2) covers one block or two
		// as b is even or odd, so its count depends on the thread.
		b.p.Vars[in].Gran = []int{2, 1}
	}
	quals := []Qual{qCuda2, qCuda2, qCuda2, qSm80}
	lvlOf := func(q Qual) Level {
		if q == qSm80 {
			return Unordered
		}
		return FullyOrdered
	}
	wr := func(e Exec, a *Access) {
		q := quals[rng.Intn(4)]
		b.write(e, a, q, lvlOf(q))
	}
	ownO := func() *Access {
		return &Access{Var: O, Idx: []Window{pt(aff(0, Term{ya, 1})), pt(aff(0, Term{yb, 1})), pt(aff(0, Term{yi, 1}))}, Slots: []int{ya, yb, yi}}
	}
	tls := []syncTL{cudaInOrder, sm80Generic, sm80CpAsync}
	// body is the nest's innermost body: sequential loops i (0..nI) and j.
	stmt := func(breaker bool) {
		if breaker && rng.Intn(3) == 0 {
			switch rng.Intn(8) {
			case 0: // a write of S in the nest (static)
				wr(me(), &Access{Var: S, Idx: []Window{pt(aff(0, Term{ya, ca})), pt(aff(0))}, Slots: []int{ya}})
			case 1: // another point's O (static)
				b.read(me(), &Access{Var: O, Idx: []Window{pt(aff(0)), pt(aff(0, Term{yb, 1})), pt(aff(0, Term{yi, 1}))}, Slots: []int{yb, yi}}, qCuda2)
			case 2: // a fence (static)
				b.fence(me(), tls[rng.Intn(3)], cudaInOrder)
			case 3: // a condition on a thread (static)
				b.open()
				wr(me(), ownO())
				body := b.close()
				b.add(&Stmt{Kind: KIf, Sync: -1, CtlSlots: []int{yb}, Body: body, Ctl: &Ctl{Cond: func(env []int) bool { return env[yb]%2 == 0 }}})
			case 4: // overlapping slices (run time)
				b.loop(yj, 0, 3, false, func() {
					wr(me(), &Access{Var: O2, Idx: []Window{pt(aff(0, Term{ya, 1})), pt(aff(0, Term{yb, 2}, Term{yj, 1}))}, Slots: []int{ya, yb, yj}})
				})
			case 5: // a closure window of the thread (static)
				b.read(me(), &Access{Var: T, Idx: []Window{{Lo: func(env []int) int { return (env[yb] + 1) % (nB * cb) }}, pt(aff(0))}, Slots: []int{yb}}, qCuda2)
			case 6: // a window that is not a translation along b (static)
				wr(me(), &Access{Var: O2, Idx: []Window{pt(aff(0, Term{ya, 1})), rg(aff(0, Term{yb, 2}), aff(1, Term{yb, 1}))}, Slots: []int{ya, yb}})
			case 7: // a read of the whole of S
				b.read(me(), &Access{Var: S}, qCuda2)
			}
			return
		}
		if gridWarpRecs && rng.Intn(3) == 0 {
			x := &Access{Var: X, Idx: []Window{pt(aff(0, Term{ya, 1})), pt(aff(0, Term{yb, 1})), pt(aff(0, Term{yi, 1}))}, Slots: []int{ya, yb, yi}}
			if rng.Intn(8) == 0 {
				wr(me(), x) // the nest writes X: not read-only
			} else {
				b.read(me(), x, quals[rng.Intn(4)])
			}
			return
		}
		switch rng.Intn(11) {
		case 8: // rows of S that overlap the next outer point's
			b.loop(yj, 0, ca+1, false, func() {
				b.read(me(), &Access{Var: S, Idx: []Window{pt(aff(0, Term{ya, ca}, Term{yj, 1})), pt(aff(0, Term{kk, 1}))}, Slots: []int{ya, yj, kk}}, qCuda2)
			})
		case 10: // rows of T that overlap the next inner point's
			b.loop(yj, 0, cb+1, false, func() {
				b.read(me(), &Access{Var: T, Idx: []Window{pt(aff(0, Term{yb, cb}, Term{yj, 1})), pt(aff(0, Term{kk, 1}))}, Slots: []int{yb, yj, kk}}, qCuda2)
			})
		case 9: // a row of S every thread reads
			b.read(me(), &Access{Var: S, Idx: []Window{pt(aff(0, Term{yi, 1})), pt(aff(0, Term{kk, 1}))}, Slots: []int{yi, kk}}, qCuda2)
		case 0, 1:
			wr(me(), ownO())
		case 2:
			b.read(me(), ownO(), quals[rng.Intn(4)])
		case 3: // rows of S shared along b
			b.loop(yj, 0, ca, false, func() {
				b.read(me(), &Access{Var: S, Idx: []Window{pt(aff(0, Term{ya, ca}, Term{yj, 1})), pt(aff(0, Term{kk, 1}))}, Slots: []int{ya, yj, kk}}, quals[rng.Intn(4)])
			})
		case 4: // rows of T shared along a
			b.read(me(), &Access{Var: T, Idx: []Window{rg(aff(0, Term{yb, cb}), aff(cb, Term{yb, cb})), pt(aff(0, Term{kk, 1}))}, Slots: []int{yb, kk}}, qCuda2)
		case 5:
			wr(me(), &Access{Var: Y, Idx: []Window{pt(aff(0, Term{task, nA * nB}, Term{ya, nB}, Term{yb, 1}))}, Slots: []int{task, ya, yb}})
		case 6:
			row := aff(0, Term{task, nA * nB}, Term{ya, nB}, Term{yb, 1})
			b.read(me(), &Access{Var: in, Idx: []Window{rg(row, aff(2, row.Terms...)), pt(aff(0, Term{kk, 1}))}, Slots: []int{task, ya, yb, kk}}, qCuda2)
		case 7: // own O2 pair
			wr(me(), &Access{Var: O2, Idx: []Window{pt(aff(0, Term{ya, 1})), rg(aff(0, Term{yb, 2}), aff(2, Term{yb, 2}))}, Slots: []int{ya, yb}})
		}
	}
	nest := func(breaker bool, n int) {
		bHi := nB
		if nB >= 3 && rng.Intn(6) == 0 {
			bHi = nB - 1 // a smaller frame over the same slabs
		}
		inner := func() {
			b.loop(yi, 0, nI, false, func() {
				for k := n; k > 0; k-- {
					stmt(breaker)
				}
			})
		}
		ybLoop := func() {
			if !gridVaryN || bHi < 3 {
				b.loop(yb, 0, bHi, false, inner)
				return
			}
			// thgrid_pts.go: the points per axis change with k.
			b.open()
			inner()
			hi := bHi
			b.add(&Stmt{Kind: KLoop, Body: b.close(), CtlSlots: []int{kk},
				Ctl: &Ctl{Slot: yb, Lo: k(0), Hi: func(env []int) int { return hi - env[kk]%2 }}})
		}
		if twoAxes {
			b.loop(ya, 0, nA, false, ybLoop)
		} else {
			ybLoop()
		}
	}
	stage := func() {
		e := me
		cta := rng.Intn(3) == 0
		switch rng.Intn(3) {
		case 0:
			sa := func() {
				b.loop(yj, 0, ca, false, func() {
					a := &Access{Var: S, Idx: []Window{pt(aff(0, Term{ya, ca}, Term{yj, 1})), rg(aff(0), aff(nK))}, Slots: []int{ya, yj}}
					if cta {
						wr(Exec{Shape: shCTA}, a)
					} else {
						wr(e(), a)
					}
				})
			}
			if twoAxes {
				b.loop(ya, 0, nA, false, func() { b.loop(yb, 0, 1, false, sa) })
			} else {
				b.loop(yb, 0, 1, false, func() { sa() })
			}
		case 1:
			b.loop(yb, 0, nB, false, func() {
				a := &Access{Var: T, Idx: []Window{rg(aff(0, Term{yb, cb}), aff(cb, Term{yb, cb})), rg(aff(0), aff(nK))}, Slots: []int{yb}}
				if cta {
					wr(Exec{Shape: shCTA}, a)
				} else {
					wr(someThread(), a)
				}
			})
		case 2:
			wr(Exec{Shape: shCTA}, &Access{Var: O})
		}
	}
	// With gridEvents: an mbarrier-like queue B arrived at and awaited by
	// a part of the grid (one thread, four threads), by the CTA or by a
	// warp, between the nests (TestGridEventMatchesEager).
	var B, sh4 int
	if gridEvents {
		B = b.newVar("B", true)
		b.p.Vars[B].PerThreadQueue = rng.Intn(2) == 0
		sh4 = b.p.AddShape(coll.Collective{N: 1, Runs: [coll.MaxRuns]coll.Run{{Count: 4, Stride: 1}}})
	}
	part := func() Exec {
		switch rng.Intn(4) {
		case 0:
			return someThread()
		case 1:
			return Exec{Shape: sh4, Start: k(first + rng.Intn(3))}
		case 2:
			return cta()
		}
		return warp(task)
	}
	between := func() {
		if gridWarpRecs && rng.Intn(3) == 0 {
			e := Exec{Shape: sh16, Start: k([]int{0, 0, 2, 8}[rng.Intn(4)])}
			// All of X, as windows (a fused run) or whole.
			x := &Access{Var: X, Idx: []Window{rg(aff(0), aff(nA)), rg(aff(0), aff(nB)), rg(aff(0), aff(nI))}}
			if rng.Intn(4) == 0 {
				x = &Access{Var: X}
			}
			if rng.Intn(2) == 0 {
				b.read(e, x, quals[rng.Intn(4)])
			} else {
				wr(e, x)
			}
			if rng.Intn(3) != 0 {
				b.fence(cta(), tls[rng.Intn(3)], tls[rng.Intn(3)])
			}
			return
		}
		if gridEvents && rng.Intn(2) == 0 {
			b.arrive(part(), tls[rng.Intn(3)], &Access{Var: B})
			if rng.Intn(4) != 0 {
				b.await(part(), &Access{Var: B}, tls[rng.Intn(3)], rng.Intn(2))
			}
			return
		}
		switch rng.Intn(11) {
		case 0, 1, 9, 10:
			b.fence(cta(), tls[rng.Intn(3)], tls[rng.Intn(3)])
		case 2:
			b.fence(someThread(), tls[rng.Intn(3)], cudaInOrder)
		case 3:
			b.fence(warp(task), cudaInOrder, cudaInOrder)
		case 4:
			b.read(cta(), &Access{Var: O}, quals[rng.Intn(4)])
		case 5:
			b.fence(Exec{All: true}, cudaInOrder, cudaInOrder)
		case 6, 7:
			stage()
		}
	}
	breakAll := rng.Intn(5) == 0
	b.loop(task, 0, nTasks, true, func() {
		b.alloc(O)
		b.alloc(O2)
		b.alloc(S)
		b.alloc(T)
		if gridWarpRecs {
			b.alloc(X)
		}
		if rng.Intn(2) == 0 {
			stage()
			b.fence(cta(), cudaInOrder, cudaInOrder)
		}
		b.loop(kk, 0, nK, false, func() {
			for n := 1 + rng.Intn(3); n > 0; n-- {
				if rng.Intn(2) == 0 {
					between()
				}
				nest(breakAll || rng.Intn(6) == 0, 1+rng.Intn(4))
				if gridWarpRecs && rng.Intn(2) == 0 {
					// The TMA store's form: a 16-thread group reads all
					// of X right after a nest, after a CTA fence or not.
					if rng.Intn(3) != 0 {
						b.fence(cta(), cudaInOrder, cudaInOrder)
					}
					e := Exec{Shape: sh16, Start: k([]int{0, 0, 2, 8}[rng.Intn(4)])}
					// All of X, or the rows of some points only, or
					// the first i of every point.
					hiA, hiB, hiI := nA, nB, nI
					switch rng.Intn(5) {
					case 0:
						hiA = 1
					case 1:
						hiB = max(nB-1, 1)
					case 2:
						hiI = 1
					}
					b.read(e, &Access{Var: X, Idx: []Window{rg(aff(0), aff(hiA)), rg(aff(0), aff(hiB)), rg(aff(0), aff(hiI))}}, quals[rng.Intn(4)])
					if rng.Intn(2) == 0 {
						// A convergent check: one thread of the group
						// seeing a record is enough, so the creator's
						// own thread may decide it.
						top := b.stack[len(b.stack)-1]
						top[len(top)-2].Convergent = true
					}
				}
			}
		})
		if rng.Intn(2) == 0 {
			b.fence(cta(), tls[rng.Intn(3)], tls[rng.Intn(3)])
		}
		fq := quals[rng.Intn(4)]
		vars := []int{O, S, T}
		if gridWarpRecs {
			vars = append(vars, X)
		}
		for _, x := range vars {
			b.add(&Stmt{Kind: KCheckReads, Exec: cta(), Acc: &Access{Var: x}, Level: TemporallyOrdered, Quals: Of(fq), What: AccFree})
			b.add(&Stmt{Kind: KCheckMutates, Exec: cta(), Acc: &Access{Var: x}, Level: TemporallyOrdered, Quals: Of(fq), What: AccFree})
		}
	})
	return b.build()
}

// TestGroupOverlap: the threads (a, b) of a 2 x 2 grid read rows b and
// b + 1 of T (shared along a, translated along b), so row 1 is read by
// (0, 0), (0, 1), (1, 0) and (1, 1) in that order: its list is not a run
// of one point's group followed by the next's, and no group may be made
// there (thgroup.go). Thread (1, 1)'s unsynchronized write of row 1 then
// passes its own read record and reports the first other one, (1, 0)'s,
// as the full run does.
func TestGroupOverlap(t *testing.T) {
	mk := func() *Program {
		b := newBuilder(64)
		task, ya, yb, yj := b.slot("task"), b.slot("a"), b.slot("b"), b.slot("j")
		T := b.local("T", 3)
		st := &Affine{Terms: []Term{{ya, 2}, {yb, 1}}}
		me := Exec{Shape: shThread, Start: st.Eval, StartAff: st}
		row := &Affine{Terms: []Term{{yb, 1}, {yj, 1}}}
		one := &Affine{K: 1}
		b.loop(task, 0, 1, true, func() {
			b.alloc(T)
			b.loop(ya, 0, 2, false, func() {
				b.loop(yb, 0, 2, false, func() {
					b.loop(yj, 0, 2, false, func() {
						b.read(me, &Access{Var: T, Idx: []Window{{Lo: row.Eval, LoAff: row}}, Slots: []int{yb, yj}}, qCuda2)
					})
				})
			})
			th3 := &Affine{K: 3}
			b.write(Exec{Shape: shThread, Start: th3.Eval, StartAff: th3}, &Access{Var: T, Idx: []Window{{Lo: one.Eval, LoAff: one}}}, qCuda2, FullyOrdered)
		})
		return b.build()
	}
	m1, m2 := New(mk(), Config{}), New(mk(), Config{})
	m2.noGrid = true
	r1, r2 := *m1.Run(nil), *m2.Run(nil)
	r1.Stats.Memory, r2.Stats.Memory, r1.Stats.SkippedOps, r2.Stats.SkippedOps = 0, 0, 0, 0
	g, w := fmt.Sprintf("%+v", r1), fmt.Sprintf("%+v", r2)
	if g != w || m1.gridRuns != 1 || len(r1.Hazards) != 1 || r1.Hazards[0].OtherStart != 2 {
		t.Fatalf("grid (%d runs) %s\nfull %s", m1.gridRuns, g, w)
	}
}

// gridVaryN makes randomGridProgram's nests of three points or more along
// their last axis one point shorter in odd iterations of k (thgrid_pts.go).
var gridVaryN bool

// gridEvents makes randomGridProgram arrive at and await a barrier between
// its nests (TestGridEventMatchesEager).
var gridEvents bool

// gridWarpRecs makes randomGridProgram write and read a variable X whole
// by a 16-thread group between its nests, and read or write each point's
// own rows of it in the nests (TestGridGrpMatchesEager).
var gridWarpRecs bool

// TestGridGrpMatchesEager: group records whose members include grid
// threads in deferred slabs (thgrid_grp.go) change nothing in the Result.
// randomGridProgram with gridWarpRecs (and with and without gridEvents)
// runs with them, without them (noGridGrp: the slabs built, or the
// variable read-only and shared), without grid symmetry, and with every
// record gridCompare compares replayed (gridNoRawSkip), twice on one
// machine.
func TestGridGrpMatchesEager(t *testing.T) {
	gridWarpRecs = true
	defer func() { gridWarpRecs, gridEvents = false, false }()
	var admitted, kept, recKept, hazards int64
	for _, ev := range []bool{false, true} {
		gridEvents = ev
		for seed := int64(0); seed < gridSeeds; seed++ {
			m1 := New(randomGridProgram(seed), Config{MaxHazards: 100})
			m2 := New(randomGridProgram(seed), Config{MaxHazards: 100})
			m3 := New(randomGridProgram(seed), Config{MaxHazards: 100})
			m4 := New(randomGridProgram(seed), Config{MaxHazards: 100})
			m2.noGridGrp = true
			m3.noGrid = true
			m4.gridNoRawSkip = true
			for rep := 0; rep < 2; rep++ {
				r1, r2, r3, r4 := *m1.Run(nil), *m2.Run(nil), *m3.Run(nil), *m4.Run(nil)
				r1.Stats.Memory, r2.Stats.Memory, r3.Stats.Memory, r4.Stats.Memory = 0, 0, 0, 0
				r1.Stats.SkippedOps, r2.Stats.SkippedOps, r3.Stats.SkippedOps, r4.Stats.SkippedOps = 0, 0, 0, 0
				g, w, f, e := fmt.Sprintf("%+v", r1), fmt.Sprintf("%+v", r2), fmt.Sprintf("%+v", r3), fmt.Sprintf("%+v", r4)
				if g != w || g != f || g != e {
					t.Fatalf("events %v seed %d run %d:\ngroups deferred %s\nnot          %s\nfull         %s\nall replayed %s", ev, seed, rep, g, w, f, e)
				}
				if rep == 0 && r1.Distinct > 0 {
					hazards++
				}
			}
			admitted += m1.gridGrpAdmitted
			kept += m1.gridCheckKept
			recKept += m1.gridRecKept
		}
	}
	t.Logf("%d slabs with groups deferred, %d check runs and %d record runs on deferred slabs, %d programs with hazards", admitted, kept, recKept, hazards)
	if admitted < 500 || recKept < 500 || hazards < 300 {
		t.Fatalf("weak coverage: %d slabs with groups deferred, %d record runs on deferred slabs, %d programs with hazards", admitted, recKept, hazards)
	}
}

// TestGridEventMatchesEager: an Arrive or Await by part of a deferred
// frame's threads that commutes with τ_p on every record of the
// representative's slab (gridCommutes, thgrid_lazy.go) leaves the slabs
// deferred; the whole Result must be the run's without grid symmetry
// (bar SkippedOps and Memory), and the one that builds the slabs at
// every such event.
func TestGridEventMatchesEager(t *testing.T) {
	gridEvents = true
	defer func() { gridEvents = false }()
	kept := int64(0)
	hazards := 0
	for seed := int64(0); seed < gridSeeds; seed++ {
		m1 := New(randomGridProgram(seed), Config{MaxHazards: 100})
		m2 := New(randomGridProgram(seed), Config{MaxHazards: 100})
		m3 := New(randomGridProgram(seed), Config{MaxHazards: 100})
		m2.noGrid = true
		m3.gridEventCommutes = false
		for rep := 0; rep < 2; rep++ {
			r1, r2, r3 := *m1.Run(nil), *m2.Run(nil), *m3.Run(nil)
			r1.Stats.Memory, r2.Stats.Memory, r3.Stats.Memory = 0, 0, 0
			r1.Stats.SkippedOps, r2.Stats.SkippedOps, r3.Stats.SkippedOps = 0, 0, 0
			g, w, e := fmt.Sprintf("%+v", r1), fmt.Sprintf("%+v", r2), fmt.Sprintf("%+v", r3)
			if g != w || g != e {
				t.Fatalf("seed %d run %d:\ncommuting %s\nfull %s\neager events %s", seed, rep, g, w, e)
			}
			if rep == 0 && r1.Distinct > 0 {
				hazards++
			}
		}
		kept += m1.gridEventKept
	}
	t.Logf("%d events left slabs deferred, %d programs with hazards", kept, hazards)
	if kept < 300 || hazards < 300 {
		t.Fatalf("weak coverage: %d events left slabs deferred, %d programs with hazards", kept, hazards)
	}
}

// TestGridCheckRunMatchesEager: TestGridEventMatchesEager's programs (and
// TestGridMatchesFull's, which end each task with the CTA's free checks
// of every variable) with runs of checks on deferred slabs done through
// the representative's slab (gridCheckRun) and without (the slabs built
// first); the whole Result must be the same, and the run's without grid
// symmetry.
func TestGridCheckRunMatchesEager(t *testing.T) {
	kept := int64(0)
	for _, ev := range []bool{false, true} {
		gridEvents = ev
		for seed := int64(0); seed < gridSeeds; seed++ {
			m1 := New(randomGridProgram(seed), Config{MaxHazards: 100})
			m2 := New(randomGridProgram(seed), Config{MaxHazards: 100})
			m3 := New(randomGridProgram(seed), Config{MaxHazards: 100})
			m2.noGrid = true
			m3.gridCheckDeferred = false
			for rep := 0; rep < 2; rep++ {
				r1, r2, r3 := *m1.Run(nil), *m2.Run(nil), *m3.Run(nil)
				r1.Stats.Memory, r2.Stats.Memory, r3.Stats.Memory = 0, 0, 0
				r1.Stats.SkippedOps, r2.Stats.SkippedOps, r3.Stats.SkippedOps = 0, 0, 0
				g, w, e := fmt.Sprintf("%+v", r1), fmt.Sprintf("%+v", r2), fmt.Sprintf("%+v", r3)
				if g != w || g != e {
					t.Fatalf("events %v seed %d run %d:\nchecks on deferred slabs %s\nfull %s\nslabs built %s", ev, seed, rep, g, w, e)
				}
			}
			kept += m1.gridCheckKept
		}
	}
	gridEvents = false
	t.Logf("%d check runs on deferred slabs", kept)
	if kept < 1000 {
		t.Fatalf("weak coverage: %d check runs on deferred slabs", kept)
	}
}

// TestGridMergeMatchesPlain: read records of earlier grid entries merged
// into groups (thmerge.go) change nothing in the Result. The programs of
// TestGridMatchesFull and TestGridEventMatchesEager (nests entered again
// in sequential loops over rows other frames read before, with events
// that hold part of the threads) run with merging, without it, and
// without grid symmetry, twice on one machine.
func TestGridMergeMatchesPlain(t *testing.T) {
	var merges int64
	for _, ev := range []bool{false, true} {
		gridEvents = ev
		for seed := int64(0); seed < gridSeeds; seed++ {
			m1 := New(randomGridProgram(seed), Config{MaxHazards: 100})
			m2 := New(randomGridProgram(seed), Config{MaxHazards: 100})
			m3 := New(randomGridProgram(seed), Config{MaxHazards: 100})
			m2.noGridMerge = true
			m3.noGrid = true
			for rep := 0; rep < 2; rep++ {
				r1, r2, r3 := *m1.Run(nil), *m2.Run(nil), *m3.Run(nil)
				r1.Stats.Memory, r2.Stats.Memory, r3.Stats.Memory = 0, 0, 0
				r1.Stats.SkippedOps, r2.Stats.SkippedOps, r3.Stats.SkippedOps = 0, 0, 0
				g, w, f := fmt.Sprintf("%+v", r1), fmt.Sprintf("%+v", r2), fmt.Sprintf("%+v", r3)
				if g != w || g != f {
					t.Fatalf("events %v seed %d run %d:\nmerged %s\nplain  %s\nfull   %s", ev, seed, rep, g, w, f)
				}
			}
			merges += m1.gridMerges
		}
	}
	gridEvents = false
	t.Logf("%d records merged", merges)
	if merges < 1000 {
		t.Fatalf("weak coverage: %d records merged", merges)
	}
}
