package amir

import (
	"fmt"
	"math/rand"
	"testing"

	"weft.dev/weft/lang/weft/coll"
)

// th2Diff: 2-D nests (thsym2d.go) against the same run with kept
// statements materializing first, against the one-dimensional path
// (thsymNo2D) and against no thread symmetry.
func th2Diff(mk func() *Program) *diffMachines {
	return newDiff(mk, []string{"2-D", "2-D mat", "1-D", "full"}, func(i int, m *Machine) {
		switch i {
		case 1:
			m.thsymNoKeep = true
		case 2:
			m.thsymNo2D = true
		default:
			m.noThreadSym = true
		}
	})
}

// TestThreadSym2DKeepMatches: per_cta_alloc's programs of
// TestThreadSymKeepMatchesMaterialized (a row loop of column loops on a
// tile and a global output, then whole-tile statements of every kind),
// four ways.
func TestThreadSym2DKeepMatches(t *testing.T) {
	var runs2, runs1 int64
	hazards := 0
	for seed := int64(0); seed < 2000; seed++ {
		d := th2Diff(func() *Program { return randomKeepProgram(seed) })
		if r := d.runs(t, fmt.Sprintf("seed %d", seed)); r.Distinct > 0 {
			hazards++
		}
		if d.ms[2].th2Runs != 0 || d.ms[3].th2Runs != 0 {
			t.Fatalf("seed %d: a reference run entered a 2-D nest", seed)
		}
		runs2 += d.ms[0].th2Runs
		runs1 += d.ms[2].thSymRuns
	}
	t.Logf("%d 2-D nests entered (the 1-D path: %d loops), %d programs with hazards", runs2, runs1, hazards)
	if runs2 < 1000 || hazards < 200 {
		t.Fatalf("weak coverage: %d 2-D nests, %d programs with hazards", runs2, hazards)
	}
}

// TestThreadSym2DMatches: random 2-D nests (random2DProgram), four ways.
func TestThreadSym2DMatches(t *testing.T) {
	var runs2 int64
	hazards, entered := 0, 0
	n := int64(EnvCount("WEFT_TH2_SEEDS", 4000))
	for seed := int64(0); seed < n; seed++ {
		d := th2Diff(func() *Program { return random2DProgram(seed) })
		if r := d.runs(t, fmt.Sprintf("seed %d", seed)); r.Distinct > 0 {
			hazards++
		}
		if d.ms[0].th2Runs > 0 {
			entered++
		}
		runs2 += d.ms[0].th2Runs
	}
	t.Logf("%d 2-D nests entered in %d of %d programs, %d programs with hazards", runs2, entered, n, hazards)
	if entered < int(n)/4 || entered > int(n)*9/10 || hazards < int(n)/5 {
		t.Fatalf("weak coverage: 2-D nests in %d programs, %d with hazards", entered, hazards)
	}
}

// random2DProgram: in each task, a tile of R x C x Z (the third dimension
// optional) written by a nest `for r in threads(0, R): for c in
// threads(0, C)` whose thread is r*S + c (S = C: one frame; S > C: not
// consecutive, refused), each thread writing or reading its cell, or a
// window of W columns every W (the tile then has C*W columns), in the tile
// laid out [r, c] or [c, r], and a global output by rows; sometimes the
// nest breaks the 2-D form (a condition on the row, a window reading the
// row in the column's dimension, two slices of one row, an element every
// row shares). Then statements on the tile by threads of every kind: a
// fence, a one-thread read of one element, whole-tile checks, reads and
// writes, a second nest, a second 1-D row loop; the free check; the host
// reads the output.
func random2DProgram(seed int64) *Program {
	rng := rand.New(rand.NewSource(seed))
	b := newBuilder(64)
	task, rr, cc := b.slot("task"), b.slot("row"), b.slot("col")
	nTasks := 1 + rng.Intn(2)
	R, C := 2+rng.Intn(3), 1+rng.Intn(5)
	W := 1
	if rng.Intn(4) == 0 {
		W = 2
	}
	S := C
	if rng.Intn(8) == 0 {
		S = C + 1
	}
	third := rng.Intn(4) == 0
	transposed := rng.Intn(3) == 0
	// wide: the column dimension has room for every thread of the nest
	// (a 1-D loop of R*S threads on row 0, the flattened index).
	wide := rng.Intn(3) == 0
	cols := C * W
	if wide {
		cols = R * S * W
	}
	rows := R
	// ovl 1, 2: some windows overlap the next row's (column's), in
	// bounds.
	ovl := rng.Intn(10)
	switch ovl {
	case 1:
		rows++
	case 2:
		cols++
	}
	switch rng.Intn(12) {
	case 0:
		rows-- // the last row's windows are out of bounds: a fault
	case 1:
		cols = max(cols-1, 1) // the last column's (or the nest's, one column)
	}
	dims := []int{rows, cols}
	if transposed {
		dims = []int{cols, rows}
	}
	if third {
		dims = append(dims, 2)
	}
	tile := b.local("tile", dims...)
	y := b.newVar("y", false, nTasks*R, C)
	aff := func(k int, terms ...Term) *Affine { return &Affine{K: k, Terms: terms} }
	pt := func(a *Affine) Window { return Window{Lo: a.Eval, LoAff: a} }
	rg := func(lo, hi *Affine) Window { return Window{Lo: lo.Eval, Hi: hi.Eval, LoAff: lo, HiAff: hi} }
	exec := func(a *Affine, shape int) Exec { return Exec{Shape: shape, Start: a.Eval, StartAff: a} }
	me := exec(aff(0, Term{rr, S}, Term{cc, 1}), shThread)
	rowShape := b.p.AddShape(coll.Collective{N: 1, Runs: [coll.MaxRuns]coll.Run{{Count: C, Stride: 1}}})
	// break: 0 none; 1 a condition on the row; 2 the column window also
	// reads the row; 3 all rows on row 0; 4 two slices of a row.
	brk := 0
	if rng.Intn(5) == 0 {
		brk = 1 + rng.Intn(5)
	}
	own := func(k int) *Access {
		var colW Window
		if W == 1 {
			colW = pt(aff(0, Term{cc, 1}))
		} else {
			colW = rg(aff(0, Term{cc, W}), aff(1+rng.Intn(W), Term{cc, W}))
		}
		rowW := pt(aff(0, Term{rr, 1}))
		switch {
		case ovl == 1 && rng.Intn(2) == 0: // neighbouring threads' windows overlap: in the row's dimension
			rowW = rg(aff(0, Term{rr, 1}), aff(2, Term{rr, 1}))
		case ovl == 2 && rng.Intn(2) == 0: // or the column's
			colW = rg(aff(0, Term{cc, W}), aff(W+1, Term{cc, W}))
		}
		switch {
		case brk == 2:
			colW = pt(aff(0, Term{cc, W}, Term{rr, 1}))
			if wide {
				// The flattened index of the thread, row 0.
				colW, rowW = pt(aff(0, Term{cc, W}, Term{rr, S * W})), pt(aff(0))
			} else if rng.Intn(2) == 0 {
				colW = pt(aff(0, Term{cc, W}))
			}
		case brk == 3:
			rowW = pt(aff(0))
		case brk == 4 && k == 1:
			rowW = pt(aff(0, Term{rr, 1}))
			colW = pt(aff(0, Term{cc, W}))
			if W == 1 {
				rowW = pt(aff(R-1, Term{rr, -1}))
			}
		}
		idx := []Window{rowW, colW}
		if transposed {
			idx = []Window{colW, rowW}
		}
		if third {
			idx = append(idx, pt(aff(rng.Intn(2))))
		}
		return &Access{Var: tile, Idx: idx, Slots: []int{rr, cc}}
	}
	quals := []Qual{qCuda2, qSm80}
	tls := []syncTL{cudaInOrder, sm80Generic, sm80CpAsync}
	levels := []Level{Unordered, TemporallyOrdered, FullyOrdered}
	whole := func() *Access {
		if rng.Intn(3) == 0 {
			full := make([]Window, len(dims))
			for i, d := range dims {
				full[i] = rg(aff(0), aff(d))
			}
			return &Access{Var: tile, Idx: full}
		}
		return &Access{Var: tile}
	}
	who := func() Exec {
		switch rng.Intn(7) {
		case 0:
			return Exec{All: true}
		case 1:
			return exec(aff(S*rng.Intn(R)), rowShape)
		case 2:
			return exec(aff(0), shWarp)
		case 3:
			return exec(aff(rng.Intn(R*S)), shThread)
		}
		return cta()
	}
	// A loop of columns that brk 5 makes triangular (its bound reads the
	// row).
	colLoop := func(body func()) {
		if brk != 5 {
			b.loop(cc, 0, C, false, body)
			return
		}
		b.open()
		body()
		b.add(&Stmt{Kind: KLoop, Body: b.close(), CtlSlots: []int{rr}, Ctl: &Ctl{Slot: cc, Lo: k(0), Hi: func(env []int) int { return max(C-env[rr], 1) }}})
	}
	nest := func() {
		b.loop(rr, 0, R, false, func() {
			colLoop(func() {
				body := func() {
					for n := 1 + rng.Intn(3); n > 0; n-- {
						switch rng.Intn(6) {
						case 0:
							b.read(me, own(n), quals[rng.Intn(2)])
						case 1:
							ya := &Access{Var: y, Idx: []Window{pt(aff(0, Term{task, R}, Term{rr, 1})), pt(aff(0, Term{cc, 1}))}, Slots: []int{task, rr, cc}}
							b.write(me, ya, qCuda2, FullyOrdered)
						default:
							q, lvl := qCuda2, FullyOrdered
							if rng.Intn(4) == 0 {
								q, lvl = qSm80, levels[rng.Intn(3)]
							}
							b.write(me, own(n), q, lvl)
						}
					}
				}
				if brk == 1 {
					b.open()
					body()
					b.add(&Stmt{Kind: KIf, Sync: -1, CtlSlots: []int{rr}, Body: b.close(), Ctl: &Ctl{Cond: func(env []int) bool { return env[rr] != 1 }}})
				} else {
					body()
				}
			})
		})
	}
	rowLoop := func() { // a 1-D loop on row 0's threads and elements
		n := C
		if wide && rng.Intn(2) == 0 {
			n = R * S // every thread of the nest, on row 0 of the tile
		}
		b.loop(cc, 0, n, false, func() {
			colW, rowW := pt(aff(0, Term{cc, W})), pt(aff(0))
			idx := []Window{rowW, colW}
			if transposed {
				idx = []Window{colW, rowW}
			}
			if third {
				idx = append(idx, pt(aff(0)))
			}
			b.write(exec(aff(0, Term{cc, 1}), shThread), &Access{Var: tile, Idx: idx, Slots: []int{cc}}, qCuda2, FullyOrdered)
		})
	}
	after := func() {
		switch rng.Intn(9) {
		case 0, 1:
			b.fence(who(), tls[rng.Intn(3)], tls[rng.Intn(2)])
		case 2: // checks after a CTA fence, or not
			if rng.Intn(2) == 0 {
				b.fence(cta(), tls[rng.Intn(3)], cudaInOrder)
			}
			e, a := who(), whole()
			kind := []Kind{KCheckReads, KCheckMutates}[rng.Intn(2)]
			b.add(&Stmt{Kind: kind, Exec: e, Acc: a, Level: levels[rng.Intn(3)], Quals: Of(qCuda2), What: AccFree, Convergent: rng.Intn(4) == 0})
		case 3:
			e, a := who(), whole()
			q := quals[rng.Intn(2)]
			b.add(&Stmt{Kind: KCheckMutates, Exec: e, Acc: a, Level: levels[rng.Intn(3)], Quals: Of(q), What: AccRead})
			b.add(&Stmt{Kind: KRecordRead, Exec: e, Acc: a, Level: FullyOrdered, Q: q, Convergent: rng.Intn(2) == 0})
		case 4:
			b.write(who(), whole(), quals[rng.Intn(2)], FullyOrdered)
			if rng.Intn(2) == 0 {
				rowLoop()
			}
		case 5:
			nest()
		case 6:
			rowLoop()
		case 7: // one thread's read of one element
			idx := make([]Window, len(dims))
			for i, d := range dims {
				idx[i] = pt(aff(rng.Intn(d)))
			}
			b.read(exec(aff(rng.Intn(R*S)), shThread), &Access{Var: tile, Idx: idx}, qCuda2)
		case 8:
			b.fence(cta(), cudaInOrder, cudaInOrder)
			// One thread reads the element at the iterators' values
			// after the loops (the last row's and column's).
			idx := []Window{pt(aff(0, Term{rr, 1})), pt(aff(0, Term{cc, 1}))}
			if transposed {
				idx[0], idx[1] = idx[1], idx[0]
			}
			if third {
				idx = append(idx, pt(aff(0)))
			}
			b.read(exec(aff(0), shThread), &Access{Var: tile, Idx: idx, Slots: []int{rr, cc}}, qCuda2)
		}
	}
	b.loop(task, 0, nTasks, true, func() {
		b.alloc(tile)
		if rng.Intn(6) == 0 {
			after() // before the nest: the tile may hold records
		}
		nest()
		for n := rng.Intn(5); n > 0; n-- {
			after()
		}
		if rng.Intn(6) != 0 {
			b.fence(cta(), cudaInOrder, cudaInOrder)
		}
		b.add(&Stmt{Kind: KCheckReads, Exec: cta(), Acc: &Access{Var: tile}, Level: TemporallyOrdered, Quals: Of(qCuda2), What: AccFree})
		b.add(&Stmt{Kind: KCheckMutates, Exec: cta(), Acc: &Access{Var: tile}, Level: TemporallyOrdered, Quals: Of(qCuda2), What: AccFree})
	})
	if rng.Intn(4) != 0 {
		b.fence(Exec{All: true}, cudaInOrder, syncTL{true, set(qCPU, qStrm, qCuda1, qCuda2), allDevice})
	}
	b.read(Exec{All: true}, &Access{Var: y, Idx: []Window{rg(aff(0), aff(nTasks*R)), rg(aff(0), aff(C))}}, qCPU)
	return b.build()
}
