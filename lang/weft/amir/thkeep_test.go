package amir

import (
	"fmt"
	"math/rand"
	"testing"

	"weft.dev/weft/lang/weft/coll"
)

// TestThreadSymKeepMatchesMaterialized: whole-variable checks and records
// run on a virtual variable (thkeep.go) change nothing in the Result but
// the skipped-operation count and the memory estimate, against the same
// run materializing the variable first (thsymNoKeep) and against a run
// with no symmetry. The programs have per_cta_alloc's form (bench rows
// 5-8): in each task, a tile of R rows of C threads, each row a thread
// loop writing (or reading, or cp.async-writing) its threads' own
// elements of the tile and of a global output; then statements on the
// whole tile (or a part of it) by the CTA, all threads, one row's threads
// (a frame), half a row, a warp or one thread: fences, checks of every
// level and timeline, reads with one record a cell or one a thread,
// writes, another row loop on the tile, one thread's read of one element;
// the free check; and, after the tasks, the host's read of the output.
// Every program runs three ways, twice on one machine.
func TestThreadSymKeepMatchesMaterialized(t *testing.T) {
	var keeps, runs int64
	hazards, keptHazards, broken := 0, 0, 0
	for seed := int64(0); seed < 3000; seed++ {
		d := keepDiff(func() *Program { return randomKeepProgram(seed) })
		m1, m2, m3 := d.ms[0], d.ms[1], d.ms[2]
		if r1 := d.run(t, fmt.Sprintf("seed %d run 0", seed)); r1.Distinct > 0 {
			hazards++
			if m1.thKeeps > 0 {
				keptHazards++
			}
		}
		d.run(t, fmt.Sprintf("seed %d run 1", seed))
		if m2.thKeeps != 0 || m3.thSymRuns != 0 {
			t.Fatalf("seed %d: the reference runs used the path under test", seed)
		}
		if m1.thSymRuns == 0 {
			broken++
		}
		keeps += m1.thKeeps
		runs += m1.thSymRuns
	}
	t.Logf("%d symmetric loop runs, %d statements kept virtual, %d programs with hazards (%d of them kept some), %d never symmetric",
		runs, keeps, hazards, keptHazards, broken)
	if keeps < 3000 || hazards < 300 || hazards > 2700 || keptHazards < 100 || broken < 100 {
		t.Fatalf("weak coverage: %d kept, %d with hazards (%d kept some), %d never symmetric", keeps, hazards, keptHazards, broken)
	}
}

func randomKeepProgram(seed int64) *Program {
	rng := rand.New(rand.NewSource(seed))
	b := newBuilder(32)
	task, rr, th, it := b.slot("task"), b.slot("row"), b.slot("col"), b.slot("it")
	nTasks := 1 + rng.Intn(2)
	R, C := 1+rng.Intn(4), 2+rng.Intn(5)
	tile := b.local("tile", R, C)
	g := b.newVar("g", false, C)
	adoptG := rng.Intn(4) == 0
	yRows := nTasks * R
	y := b.newVar("y", false, yRows, C)
	aff := func(k int, terms ...Term) *Affine { return &Affine{K: k, Terms: terms} }
	pt := func(a *Affine) Window { return Window{Lo: a.Eval, LoAff: a} }
	rg := func(lo, hi int) Window {
		l, h := aff(lo), aff(hi)
		return Window{Lo: l.Eval, Hi: h.Eval, LoAff: l, HiAff: h}
	}
	exec := func(a *Affine, shape int) Exec { return Exec{Shape: shape, Start: a.Eval, StartAff: a} }
	rowShape := b.p.AddShape(coll.Collective{N: 1, Runs: [coll.MaxRuns]coll.Run{{Count: C, Stride: 1}}})
	halfShape := b.p.AddShape(coll.Collective{N: 1, Runs: [coll.MaxRuns]coll.Run{{Count: (C + 1) / 2, Stride: 1}}})
	me := exec(aff(0, Term{rr, C}, Term{th, 1}), shThread)
	own := func() *Access {
		return &Access{Var: tile, Idx: []Window{pt(aff(0, Term{rr, 1})), pt(aff(0, Term{th, 1}))}, Slots: []int{rr, th}}
	}
	quals := []Qual{qCuda2, qSm80}
	tls := []syncTL{cudaInOrder, sm80Generic, sm80CpAsync}
	levels := []Level{Unordered, TemporallyOrdered, FullyOrdered}
	// Whole-tile accesses: no windows, or windows spanning it; parts.
	whole := func() *Access {
		switch rng.Intn(4) {
		case 0:
			return &Access{Var: tile, Idx: []Window{rg(0, R), rg(0, C)}}
		case 1: // a part: the first row, all but the last column or the first
			switch rng.Intn(3) {
			case 0:
				return &Access{Var: tile, Idx: []Window{pt(aff(0)), rg(0, C)}}
			case 1:
				return &Access{Var: tile, Idx: []Window{rg(0, R), rg(1, C)}}
			}
			return &Access{Var: tile, Idx: []Window{rg(0, R), rg(0, C-1)}}
		}
		return &Access{Var: tile}
	}
	who := func() Exec {
		switch rng.Intn(8) {
		case 0:
			return Exec{All: true}
		case 1:
			return exec(aff(C*rng.Intn(R)), rowShape) // one frame's threads
		case 2:
			return exec(aff(C*rng.Intn(R)), halfShape) // part of a frame
		case 3:
			return exec(aff(0), shWarp)
		case 4:
			return exec(aff(rng.Intn(R*C)), shThread)
		}
		return cta()
	}
	// broken: the rows' threads all write their row's first element (no
	// loop runs virtually).
	broken := rng.Intn(8) == 0
	rowLoop := func() {
		b.loop(rr, 0, R, false, func() {
			b.loop(th, 0, C, false, func() {
				if broken {
					b.write(me, &Access{Var: tile, Idx: []Window{pt(aff(0, Term{rr, 1})), pt(aff(0))}, Slots: []int{rr}}, qCuda2, FullyOrdered)
				}
				for n := 1 + rng.Intn(2); n > 0; n-- {
					switch rng.Intn(5) {
					case 0:
						b.read(me, own(), quals[rng.Intn(2)])
					case 1:
						ya := &Access{Var: y, Idx: []Window{pt(aff(0, Term{task, R}, Term{rr, 1})), pt(aff(0, Term{th, 1}))}, Slots: []int{task, rr, th}}
						b.write(me, ya, qCuda2, FullyOrdered)
					default:
						q, lvl := qCuda2, FullyOrdered
						if rng.Intn(4) == 0 {
							q, lvl = qSm80, Unordered
						}
						b.write(me, own(), q, lvl)
					}
				}
			})
		})
	}
	after := func() {
		switch rng.Intn(9) {
		case 0, 1:
			b.fence(who(), tls[rng.Intn(3)], tls[rng.Intn(2)])
		case 2, 3: // checks, mostly after a CTA fence
			if rng.Intn(2) == 0 {
				b.fence(cta(), tls[rng.Intn(3)], cudaInOrder)
			}
			e, a := who(), whole()
			for n := 1 + rng.Intn(2); n > 0; n-- {
				kind := []Kind{KCheckReads, KCheckMutates}[rng.Intn(2)]
				b.add(&Stmt{Kind: kind, Exec: e, Acc: a, Level: levels[rng.Intn(3)], Quals: Of(qCuda2), What: AccFree, Convergent: rng.Intn(4) == 0})
			}
		case 4: // a read: a record a cell, or a thread
			e, a := who(), whole()
			q := quals[rng.Intn(2)]
			conv := rng.Intn(2) == 0
			b.add(&Stmt{Kind: KCheckMutates, Exec: e, Acc: a, Level: levels[rng.Intn(3)], Quals: Of(q), What: AccRead, Convergent: conv})
			b.add(&Stmt{Kind: KRecordRead, Exec: e, Acc: a, Level: FullyOrdered, Q: q, Convergent: conv})
			if rng.Intn(3) == 0 { // a check after the record
				b.add(&Stmt{Kind: KCheckReads, Exec: e, Acc: a, Level: TemporallyOrdered, Quals: Of(q), What: AccWrite})
			}
		case 5:
			b.write(who(), whole(), quals[rng.Intn(2)], FullyOrdered)
		case 6:
			rowLoop()
		case 7: // one thread's read of one element
			j := rng.Intn(R * C)
			b.read(exec(aff(j), shThread), &Access{Var: tile, Idx: []Window{pt(aff(j / C)), pt(aff(j % C))}}, qCuda2)
		case 8: // the same statement twice: its record is then in the lists
			e, a := who(), whole()
			s := &Stmt{Kind: KRecordRead, Exec: e, Acc: a, Level: FullyOrdered, Q: qCuda2, Convergent: rng.Intn(2) == 0}
			b.add(s)
			b.add(&Stmt{Kind: KRecordRead, Exec: e, Acc: a, Level: FullyOrdered, Q: qCuda2, Convergent: s.Convergent})
		}
	}
	b.loop(task, 0, nTasks, true, func() {
		if adoptG {
			// The host reads all of g, then each thread its own
			// element (a loop with no event: g's records are
			// adopted, thread 0's slice keeps the host's record and
			// the others' copies go); twice, so the second host read
			// finds its own record in thread 0's slice only.
			b.loop(it, 0, 2, false, func() {
				b.read(Exec{All: true}, &Access{Var: g}, qCPU)
				b.loop(th, 0, C, false, func() {
					b.read(exec(aff(0, Term{th, 1}), shThread), &Access{Var: g, Idx: []Window{pt(aff(0, Term{th, 1}))}, Slots: []int{th}}, qCuda2)
				})
			})
		}
		b.alloc(tile)
		rowLoop()
		for n := rng.Intn(5); n > 0; n-- {
			after()
		}
		if rng.Intn(8) != 0 {
			b.fence(cta(), sm80CpAsync, cudaInOrder)
			b.fence(cta(), cudaInOrder, cudaInOrder)
		}
		fq := qCuda2
		b.add(&Stmt{Kind: KCheckReads, Exec: cta(), Acc: &Access{Var: tile}, Level: TemporallyOrdered, Quals: Of(fq), What: AccFree})
		b.add(&Stmt{Kind: KCheckMutates, Exec: cta(), Acc: &Access{Var: tile}, Level: TemporallyOrdered, Quals: Of(fq), What: AccFree})
	})
	if rng.Intn(4) != 0 {
		b.fence(Exec{All: true}, cudaInOrder, syncTL{true, set(qCPU, qStrm, qCuda1, qCuda2), allDevice})
	}
	b.read(Exec{All: true}, &Access{Var: y, Idx: []Window{rg(0, yRows), rg(0, C)}}, qCPU)
	if adoptG {
		b.write(Exec{All: true}, &Access{Var: g}, qCPU, FullyOrdered) // g's read records are live
	}
	return b.build()
}
