package amir

import (
	"fmt"
	"math/rand"
	"testing"

	"weft.dev/weft/lang/weft/coll"
)

// TestGridBlockMatchesFull: block grids (thgrid_blk.go) and their regions
// change nothing in the Result but the skipped-operation count and the
// memory estimate. Random programs of shfl_xor's form: in sequential
// loops s, nests p x y2 x y1 over lanes first + S·p + 2·y2 + y1 move a
// host-written global D (index s·stride + cD·p + 2·y2 + y1) into a
// register array R[p, y2, y1, s], exchange it through T by 2-thread
// collectives (the pairs along y1, then the strided pairs along y2), and
// write it back to D, which the host reads at the end. Variants: block
// pitches S that make blocks overlap or leave gaps, a D pitch cD that
// makes slabs overlap, phase 3's D moved (its regions meet phase 1's), D written before the nests by the host (with or
// without the launch fence), by the CTA or by one lane, a D too short
// (a fault), timelines that make hazards, events between the phases by
// the CTA, one lane, a warp or a pair, and breakers of the form (a fence
// in a nest, another point's R, a condition on a lane, a collective
// across blocks). Each program runs with block grids (regions deferred,
// and built when each nest ends) and without grid symmetry, twice on one
// machine; the Results must be identical.
func TestGridBlockMatchesFull(t *testing.T) {
	var runs, blkProgs, hazards, faults, never, clean int64
	for seed := int64(0); seed < 2000; seed++ {
		d := blockGridDiff(func() *Program { return randomBlockProgram(seed, false) })
		r1 := d.runs(t, fmt.Sprintf("seed %d", seed))
		if r1.Distinct > 0 {
			hazards++
		}
		if len(r1.Faults) > 0 {
			faults++
		}
		m1 := d.ms[0]
		if m1.gridRuns == 0 {
			never++
		} else if r := m1.Run(nil); r.OK() {
			clean++
		}
		runs += m1.gridRuns
		blk := false
		Walk(m1.p.Body, func(s *Stmt) { blk = blk || s.Kind == KLoop && s.grid != nil && s.grid.blk && !s.grid.lazy })
		if blk {
			blkProgs++
		}
	}
	t.Logf("%d block grid runs, %d programs with a block plan, %d with hazards, %d with faults, %d never on the grid, %d accepted on the grid", runs, blkProgs, hazards, faults, never, clean)
	if runs < 8000 || blkProgs < 1500 || hazards < 1000 || hazards > 1950 || faults < 100 || never < 100 || clean < 100 {
		t.Fatalf("weak coverage: %d block grid runs, %d programs with a block plan, %d with hazards, %d with faults, %d never on the grid, %d accepted on the grid", runs, blkProgs, hazards, faults, never, clean)
	}
}

func randomBlockProgram(seed int64, edges bool) *Program {
	rng := rand.New(rand.NewSource(seed))
	b := newBuilder(64)
	task, ys, yp, y2, y1 := b.slot("task"), b.slot("s"), b.slot("p"), b.slot("y2"), b.slot("y1")
	nTasks := 1 + rng.Intn(2)
	nP := 2 + rng.Intn(4)
	nS := 1 + rng.Intn(3)
	first := rng.Intn(2)
	S := []int{4, 4, 4, 5, 8, 3}[rng.Intn(6)] // 3: blocks overlap
	for first+S*nP+4 > 64 {
		nP--
	}
	cD := []int{4, 4, 4, 6, 3}[rng.Intn(5)] // 3: slabs overlap
	gaps := []int{0, 0, 4}
	if edges {
		gaps = append(gaps, -1, -1) // consecutive s's regions share one cell
	}
	stride := cD*nP + gaps[rng.Intn(len(gaps))]
	last := (nTasks-1)*nS*stride + (nS-1)*stride + cD*(nP-1) + 3
	dLen := max(last+1, nTasks*nS*stride)
	// Phase 3 writes D back moved by shift: its regions meet phase 1's
	// (thgrid_blk.go, "Regions") unless shift is 0.
	shifts := []int{0, 0, 0, 1, 4}
	if edges {
		shifts = append(shifts, cD*nP-1, cD*nP, 3)
	}
	shift := shifts[rng.Intn(len(shifts))]
	last += shift
	dLen = max(dLen, last+1)
	if rng.Intn(8) == 0 {
		dLen = last // the last lane of the last s reads or writes past D
	}
	aff := func(k int, terms ...Term) *Affine { return &Affine{K: k, Terms: terms} }
	pt := func(a *Affine) Window { return Window{Lo: a.Eval, LoAff: a} }
	rg := func(lo, hi *Affine) Window { return Window{Lo: lo.Eval, Hi: hi.Eval, LoAff: lo, HiAff: hi} }
	ex := func(sh int, a *Affine) Exec { return Exec{Shape: sh, Start: a.Eval, StartAff: a} }
	pair1 := b.p.AddShape(coll.Collective{N: 1, Runs: [coll.MaxRuns]coll.Run{{Count: 2, Stride: 1}}})
	pair2 := b.p.AddShape(coll.Collective{N: 1, Runs: [coll.MaxRuns]coll.Run{{Count: 2, Stride: 2}}})
	pairS := b.p.AddShape(coll.Collective{N: 1, Runs: [coll.MaxRuns]coll.Run{{Count: 2, Stride: S}}})
	lane := func() Exec {
		if blkStartS {
			// thgrid_move.go: starts that read s with different
			// coefficients (TestGridMoveBlockStarts).
			return ex(shThread, aff(first, Term{yp, S}, Term{y2, 2}, Term{y1, 1}, Term{ys, rng.Intn(2)}))
		}
		return ex(shThread, aff(first, Term{yp, S}, Term{y2, 2}, Term{y1, 1}))
	}
	someLane := func() Exec { return ex(shThread, aff(first+rng.Intn(S*nP))) }
	D := b.newVar("D", false, dLen)
	R := b.local("R", nP, 2, 2, nS)
	T := b.local("T", nP, 2, 2, nS)
	// One timeline a variable (one in six: Sm80, whose records the
	// in-order checks do not see: hazards), and now and then one
	// statement's own.
	tl := func() Qual { return []Qual{qCuda2, qCuda2, qCuda2, qCuda2, qCuda2, qSm80}[rng.Intn(6)] }
	vq := map[int]Qual{D: tl(), R: tl(), T: tl()}
	qOf := func(x int) Qual {
		if rng.Intn(40) == 0 {
			return tl()
		}
		return vq[x]
	}
	tls := []syncTL{cudaInOrder, sm80Generic, sm80CpAsync}
	rev := edges && rng.Intn(3) == 0
	dAt := func(sh int) *Access {
		i := aff(sh, Term{task, nS * stride}, Term{ys, stride}, Term{yp, cD}, Term{y2, 2}, Term{y1, 1})
		if rev {
			// kill30: s's slabs from the last down: each nest's new
			// region lies before the older ones.
			i = aff(sh+(nS-1)*stride, Term{task, nS * stride}, Term{ys, -stride}, Term{yp, cD}, Term{y2, 2}, Term{y1, 1})
		}
		return &Access{Var: D, Idx: []Window{pt(i)}, Slots: []int{task, ys, yp, y2, y1}}
	}
	rAt := func(x int) *Access {
		return &Access{Var: x, Idx: []Window{pt(aff(0, Term{yp, 1})), pt(aff(0, Term{y2, 1})), pt(aff(0, Term{y1, 1})), pt(aff(0, Term{ys, 1}))}, Slots: []int{yp, y2, y1, ys}}
	}
	breaker := rng.Intn(4) == 0
	breakIn := func() {
		if !breaker || rng.Intn(3) != 0 {
			return
		}
		switch rng.Intn(4) {
		case 0: // a fence in the nest
			b.fence(lane(), tls[rng.Intn(3)], cudaInOrder)
		case 1: // another point's R: not a translation
			b.read(lane(), &Access{Var: R, Idx: []Window{pt(aff(0)), pt(aff(0, Term{y2, 1})), pt(aff(0, Term{y1, 1})), pt(aff(0, Term{ys, 1}))}, Slots: []int{y2, y1, ys}}, qOf(R))
		case 2: // a condition on a lane
			b.open()
			b.write(lane(), rAt(R), qOf(R), FullyOrdered)
			body := b.close()
			b.add(&Stmt{Kind: KIf, Sync: -1, CtlSlots: []int{yp}, Body: body, Ctl: &Ctl{Cond: func(env []int) bool { return env[yp]%2 == 0 }}})
		case 3: // a collective across blocks
			b.read(ex(pairS, aff(first, Term{yp, S})), &Access{Var: D, Idx: []Window{pt(aff(0, Term{ys, stride}, Term{yp, cD}))}, Slots: []int{ys, yp}}, qOf(D))
		}
	}
	// converge makes the last collective's seven statements convergent
	// (a shuffle: one lane of the pair seeing a record is enough), but in
	// some programs.
	conv := rng.Intn(4) != 0
	converge := func() {
		top := b.stack[len(b.stack)-1]
		for _, s := range top[len(top)-7:] {
			s.Convergent = conv
		}
	}
	nest := func(body func()) {
		b.loop(ys, 0, nS, false, func() {
			b.loop(yp, 0, nP, false, body)
		})
	}
	// kill30: an mbarrier-like queue B arrived at and awaited between
	// the phases by a lane, a block, a pair, the CTA or a warp (the
	// events gridCommutes sees on D's deferred regions).
	// Only with edges (the draws and variables of the plain form are
	// those of TestGridBlockMatchesFull's seeds).
	var B int
	var part func() Exec
	if edges {
		B = b.newVar("B", true)
		b.p.Vars[B].PerThreadQueue = rng.Intn(2) == 0
	}
	sh4 := -1
	if edges {
		sh4 = b.p.AddShape(coll.Collective{N: 1, Runs: [coll.MaxRuns]coll.Run{{Count: 4, Stride: 1}}})
	}
	part = func() Exec {
		switch rng.Intn(5) {
		case 0:
			return someLane()
		case 1:
			return ex(sh4, aff(first+S*rng.Intn(nP)))
		case 2:
			return ex(pair1, aff(first+S*rng.Intn(nP)))
		case 3:
			return cta()
		}
		return warp(task)
	}
	between := func() {
		if edges && rng.Intn(4) == 0 {
			// kill30: a part of the grid reads or writes all of D as
			// windows (a fused run: gridCheckRun, gridRecordRun).
			x := &Access{Var: D, Idx: []Window{rg(aff(0), aff(dLen))}}
			if rng.Intn(2) == 0 {
				b.read(part(), x, qOf(D))
			} else {
				b.write(part(), x, qOf(D), FullyOrdered)
			}
			return
		}
		if edges && rng.Intn(3) == 0 {
			b.arrive(part(), tls[rng.Intn(3)], &Access{Var: B})
			if rng.Intn(4) != 0 {
				b.await(part(), &Access{Var: B}, tls[rng.Intn(3)], rng.Intn(2))
			}
			return
		}
		switch rng.Intn(6) {
		case 0, 1:
			b.fence(cta(), tls[rng.Intn(3)], tls[rng.Intn(3)])
		case 2:
			b.fence(someLane(), tls[rng.Intn(3)], cudaInOrder)
		case 3:
			b.fence(warp(task), cudaInOrder, cudaInOrder)
		case 4:
			b.fence(ex(pair1, aff(first+S*rng.Intn(nP))), cudaInOrder, cudaInOrder)
		}
	}
	// The host's copy into D, then the launch.
	switch rng.Intn(5) {
	case 0, 1, 2:
		b.write(Exec{All: true}, &Access{Var: D}, qStrm, FullyOrdered)
		if rng.Intn(5) != 0 {
			b.fence(Exec{All: true}, streamSync, cudaInOrder)
		}
	case 3:
		b.write(Exec{All: true}, &Access{Var: D}, qStrm, FullyOrdered)
		b.fence(Exec{All: true}, streamSync, cudaInOrder)
	}
	b.loop(task, 0, nTasks, true, func() {
		switch rng.Intn(6) {
		case 0:
			b.write(cta(), &Access{Var: D}, qOf(D), FullyOrdered)
			b.fence(cta(), cudaInOrder, cudaInOrder)
		case 1:
			b.write(someLane(), &Access{Var: D, Idx: []Window{rg(aff(0), aff(dLen))}}, qOf(D), FullyOrdered)
			if rng.Intn(2) == 0 {
				b.fence(cta(), cudaInOrder, cudaInOrder)
			}
		}
		b.alloc(R)
		b.alloc(T)
		// kill30: records of D made by pairs straddling each block's edge
		// by one lane (lanes first+S·k+S-1 and +S, or first+S·k-1 and
		// first+S·k), on cells of slab k: the same set in every block.
		straddle := 0
		if edges {
			straddle = rng.Intn(3)
		}
		switch straddle {
		case 1:
			e := ex(pair1, aff(first+S-1, Term{yp, S}))
			b.loop(yp, 0, nP, false, func() {
				b.write(e, &Access{Var: D, Idx: []Window{pt(aff(rng.Intn(4), Term{task, nS * stride}, Term{yp, cD}))}, Slots: []int{task, yp}}, qOf(D), FullyOrdered)
			})
		case 2:
			if first > 0 {
				e := ex(pair1, aff(first-1, Term{yp, S}))
				b.loop(yp, 0, nP, false, func() {
					b.write(e, &Access{Var: D, Idx: []Window{pt(aff(rng.Intn(4), Term{task, nS * stride}, Term{yp, cD}))}, Slots: []int{task, yp}}, qOf(D), FullyOrdered)
				})
			}
		}
		// Phase 1: R[p, y2, y1, s] = D[...].
		nest(func() {
			b.loop(y2, 0, 2, false, func() {
				b.loop(y1, 0, 2, false, func() {
					b.read(lane(), dAt(0), qOf(D))
					b.write(lane(), rAt(R), qOf(R), FullyOrdered)
					breakIn()
				})
			})
		})
		if rng.Intn(2) == 0 {
			between()
		}
		// Phase 2: the pairs along y1, then the strided pairs along y2.
		nest(func() {
			b.loop(y2, 0, 2, false, func() {
				e := ex(pair1, aff(first, Term{yp, S}, Term{y2, 2}))
				whole := func(x int) *Access {
					return &Access{Var: x, Idx: []Window{pt(aff(0, Term{yp, 1})), pt(aff(0, Term{y2, 1})), rg(aff(0), aff(2)), pt(aff(0, Term{ys, 1}))}, Slots: []int{yp, y2, ys}}
				}
				b.read(e, whole(R), qOf(R))
				b.write(e, whole(T), qOf(T), FullyOrdered)
				converge()
			})
			b.loop(y1, 0, 2, false, func() {
				e := ex(pair2, aff(first, Term{yp, S}, Term{y1, 1}))
				whole := func(x int) *Access {
					return &Access{Var: x, Idx: []Window{pt(aff(0, Term{yp, 1})), rg(aff(0), aff(2)), pt(aff(0, Term{y1, 1})), pt(aff(0, Term{ys, 1}))}, Slots: []int{yp, y1, ys}}
				}
				b.read(e, whole(T), qOf(T))
				b.write(e, whole(R), qOf(R), FullyOrdered)
				converge()
				breakIn()
			})
		})
		if rng.Intn(2) == 0 {
			between()
		}
		// Phase 3: D[...] = R[p, y2, y1, s].
		nest(func() {
			b.loop(y2, 0, 2, false, func() {
				b.loop(y1, 0, 2, false, func() {
					b.read(lane(), rAt(R), qOf(R))
					b.write(lane(), dAt(shift), qOf(D), FullyOrdered)
				})
			})
		})
		if edges && rng.Intn(3) == 0 {
			// kill30: a part of the grid arrives, the CTA awaits, then
			// reads all of D: only the arrived lanes' writes are ordered
			// before the read (a block grid's lanes other than its
			// first move with τ_p: gridCommutes' one-thread argument
			// does not hold for them).
			b.arrive(part(), tls[rng.Intn(3)], &Access{Var: B})
			b.await(cta(), &Access{Var: B}, tls[rng.Intn(3)], rng.Intn(2))
			b.read(cta(), &Access{Var: D}, qOf(D))
		}
		switch rng.Intn(6) {
		case 0:
		case 1:
			b.fence(cta(), tls[rng.Intn(3)], tls[rng.Intn(3)])
		default:
			b.fence(cta(), cudaInOrder, cudaInOrder)
		}
		for _, x := range []int{R, T} {
			fq := qOf(x)
			b.add(&Stmt{Kind: KCheckReads, Exec: cta(), Acc: &Access{Var: x}, Level: TemporallyOrdered, Quals: Of(fq), What: AccFree})
			b.add(&Stmt{Kind: KCheckMutates, Exec: cta(), Acc: &Access{Var: x}, Level: TemporallyOrdered, Quals: Of(fq), What: AccFree})
		}
	})
	// The end of the launch, the host's copy out of D.
	if rng.Intn(4) != 0 {
		b.fence(Exec{All: true}, cudaInOrder, streamSync)
	}
	b.read(Exec{All: true}, &Access{Var: D}, qStrm)
	return b.build()
}
