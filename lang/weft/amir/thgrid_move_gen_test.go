package amir

import (
	"fmt"
	"math/rand"
	"testing"
)

// moveProgram is a generator for the moved layouts' guards
// (thgrid_move.go): one-thread grid nests inside an outer loop k whose
// windows and start read k with varied coefficients (negative ones
// included, so that a later entry's window leaves the variable at
// either end), range windows whose width grows with k, two accesses of
// one variable with different coefficients on k, a variable blocked by 2
// along a dimension that moves by an odd step, and a variable allocated
// again at each k with an extent that changes (another incarnation).
func moveProgram(seed int64) *Program {
	rng := rand.New(rand.NewSource(seed))
	b := newBuilder(64)
	task, kk, ya, yi := b.slot("task"), b.slot("k"), b.slot("a"), b.slot("i")
	nA := 2 + rng.Intn(3)
	nI := 1 + rng.Intn(2)
	nK := 2 + rng.Intn(3)
	gran := []int{1, 1, 2}[rng.Intn(3)]
	ca := gran * (1 + rng.Intn(2)) // rows per point
	aff := func(c int, terms ...Term) *Affine { return &Affine{K: c, Terms: terms} }
	// The start: 8 + a (+ k·sk).
	sk := []int{0, 0, 0, 1, 2}[rng.Intn(5)]
	first := 8
	st := aff(first, Term{ya, 1}, Term{kk, sk})
	me := Exec{Shape: shThread, Start: st.Eval, StartAff: st}
	// O's rows: each point's ca rows, moved by ck·k from a base row.
	ck := []int{0, 1, 2, 3, -1, -2, ca, -ca}[rng.Intn(8)]
	rows := nA*ca + rng.Intn(3)*ca
	base := 0
	if ck < 0 {
		base = rows - nA*ca + rng.Intn(2)*ca // moves down, may leave at 0
	} else if rng.Intn(2) == 0 {
		base = rng.Intn(rows - nA*ca + 1) // may leave at the end
	}
	cols := func(env []int) int { return nI + 1 }
	realloc := rng.Intn(3) == 0
	if realloc {
		cols = func(env []int) int { return nI + 1 + env[kk]%2 } // another shape at odd k
	}
	O := b.local("O", rows, nI+1)
	b.p.Vars[O].Dims = []IntExpr{k(rows), cols}
	b.p.Vars[O].Gran = []int{gran, 1}
	row := func(extra int) *Affine { return aff(base+extra, Term{ya, ca}, Term{kk, ck}) }
	win := func(extra int) Window { r := row(extra); return Window{Lo: r.Eval, LoAff: r} }
	colW := func() Window { c := aff(0, Term{yi, 1}); return Window{Lo: c.Eval, LoAff: c} }
	allocO := func() {
		b.add(&Stmt{Kind: KAlloc, Acc: &Access{Var: O}, Ctl: &Ctl{Dims: b.p.Vars[O].Dims}})
	}
	body := func() {
		q := qCuda2
		switch rng.Intn(4) {
		case 0: // a range of the point's rows whose width grows with k
			lo := row(0)
			w := rng.Intn(2)
			hi := aff(base+ca, Term{ya, ca}, Term{kk, ck + w})
			a := &Access{Var: O, Idx: []Window{{Lo: lo.Eval, Hi: hi.Eval, LoAff: lo, HiAff: hi}, colW()}, Slots: []int{ya, kk, yi}}
			b.write(me, a, q, FullyOrdered)
		case 1: // two accesses with different coefficients on k
			b.write(me, &Access{Var: O, Idx: []Window{win(0), colW()}, Slots: []int{ya, kk, yi}}, q, FullyOrdered)
			r2 := aff(base+ca-1, Term{ya, ca}, Term{kk, ck + []int{0, 1}[rng.Intn(2)]})
			b.read(me, &Access{Var: O, Idx: []Window{{Lo: r2.Eval, LoAff: r2}, colW()}, Slots: []int{ya, kk, yi}}, q)
		default:
			b.write(me, &Access{Var: O, Idx: []Window{win(0), colW()}, Slots: []int{ya, kk, yi}}, q, FullyOrdered)
			if rng.Intn(2) == 0 {
				b.read(me, &Access{Var: O, Idx: []Window{win(0), colW()}, Slots: []int{ya, kk, yi}}, q)
			}
		}
	}
	b.loop(task, 0, 1, true, func() {
		if !realloc {
			allocO()
		}
		b.loop(kk, 0, nK, false, func() {
			if realloc {
				allocO()
			}
			if rng.Intn(3) == 0 {
				b.write(cta(), &Access{Var: O}, qCuda2, FullyOrdered)
				b.fence(cta(), cudaInOrder, cudaInOrder)
			}
			b.loop(ya, 0, nA, false, func() {
				b.loop(yi, 0, nI, false, body)
			})
			if rng.Intn(2) == 0 {
				b.fence(cta(), cudaInOrder, cudaInOrder)
				b.read(cta(), &Access{Var: O}, qCuda2)
			}
		})
		b.add(&Stmt{Kind: KCheckReads, Exec: cta(), Acc: &Access{Var: O}, Level: TemporallyOrdered, Quals: Of(qCuda2), What: AccFree})
		b.add(&Stmt{Kind: KCheckMutates, Exec: cta(), Acc: &Access{Var: O}, Level: TemporallyOrdered, Quals: Of(qCuda2), What: AccFree})
	})
	return b.build()
}

// TestGridMoveGuards: moveProgram's nests with moved layouts, made
// layouts and no grid give one Result, and every moved layout is the one
// made; the generator moves some layouts, refuses some moves, and faults
// in some programs.
func TestGridMoveGuards(t *testing.T) {
	var moved, made, faults int64
	for seed := int64(0); seed < 3000; seed++ {
		ms := [3]*Machine{}
		for i := range ms {
			ms[i] = New(moveProgram(seed), Config{MaxHazards: 100})
		}
		ms[0].gridMoveVerify = true
		ms[1].noGridMove = true
		ms[2].noGrid = true
		label := fmt.Sprintf("moveProgram seed %d", seed)
		runWays(t, label, ms[:], []string{"moved", "made ", "full "})
		if ms[0].gridMoveBad != 0 {
			t.Fatalf("%s: %d moved layouts differ from the ones made", label, ms[0].gridMoveBad)
		}
		moved += ms[0].gridMoved
		made += ms[1].gridRuns
		if len(ms[2].Run(nil).Faults) > 0 {
			faults++
		}
	}
	t.Logf("%d moved layouts, %d grid runs without moves, %d programs with faults", moved, made, faults)
	if moved < 1000 || faults < 100 {
		t.Fatalf("weak coverage: %d moved layouts, %d programs with faults", moved, faults)
	}
}

// blkStartS makes randomBlockProgram's lanes start at a term in s with a
// coefficient of 0 or 1 drawn per statement (TestGridMoveBlockStarts).
var blkStartS bool

// TestGridMoveBlockStarts: block nests whose statements' starts read the
// outer loop s with different coefficients (a block grid's th0 is the
// least start, which then moves by no one Δ: makeGridMoveInfo refuses
// such plans) give the Result of made layouts and of no grid, and no
// moved layout differs from the one made.
func TestGridMoveBlockStarts(t *testing.T) {
	defer func() { blkStartS = false }()
	var runs int64
	for _, edges := range []bool{false, true} {
		for seed := int64(0); seed < 600; seed++ {
			blkStartS = true
			ms := [3]*Machine{}
			for i := range ms {
				ms[i] = New(randomBlockProgram(seed, edges), Config{MaxHazards: 100})
			}
			blkStartS = false
			ms[0].gridMoveVerify = true
			ms[1].noGridMove = true
			ms[2].noGrid = true
			label := fmt.Sprintf("edges %v seed %d", edges, seed)
			runWays(t, label, ms[:], []string{"moved", "made ", "full "})
			if ms[0].gridMoveBad != 0 {
				t.Fatalf("%s: %d moved layouts differ from the ones made", label, ms[0].gridMoveBad)
			}
			runs += ms[0].gridRuns
		}
	}
	t.Logf("%d grid runs", runs)
	if runs < 500 {
		t.Fatalf("weak coverage: %d grid runs", runs)
	}
}
