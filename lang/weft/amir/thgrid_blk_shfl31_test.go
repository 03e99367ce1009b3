package amir

import (
	"fmt"
	"math/rand"
	"testing"

	"weft.dev/weft/lang/weft/coll"
)

// TestLazyRegionsMatchEager: a block grid's deferred regions left unbuilt
// under a check by a set uniform on every region's frame (gridCheckRun
// over several regions) and under a lazy record (lazyOverRegions: stop
// 31, shfl31) change nothing in the Result. The programs of
// TestGridBlockMatchesFull and kill30's edge form (randomBlockProgram:
// the host's copy into D and out of it around the nests, parts of the
// grid reading or writing all of D between the phases, events by a lane,
// a pair, a block, a warp or the CTA) run four ways: both paths on, the
// regions built before the check (gridCheckDeferred off) or the record
// (noLazyRegions), and without grid symmetry, twice on one machine.
func TestLazyRegionsMatchEager(t *testing.T) {
	var checks, lazy, hazards int64
	// D has fewer cells than lazycells.go's threshold in most programs:
	// lazy records at every size in half of them.
	defer func(n int) { lazyCellsMin = n }(lazyCellsMin)
	for _, edges := range []bool{false, true} {
		for seed := int64(0); seed < 1500; seed++ {
			lazyCellsMin = []int{1, 64}[seed%2]
			ms := [4]*Machine{}
			for i := range ms {
				ms[i] = New(randomBlockProgram(seed, edges), Config{MaxHazards: 100})
			}
			ms[1].gridCheckDeferred = false
			ms[2].noLazyRegions = true
			ms[3].noGrid = true
			if runWays(t, fmt.Sprintf("edges %v seed %d", edges, seed), ms[:], []string{"kept        ", "checks built", "record built", "full        "}) {
				hazards++
			}
			checks += ms[0].regionChecks
			lazy += ms[0].lazyRegions
		}
	}
	t.Logf("%d checks over several regions, %d lazy records over regions, %d programs with hazards", checks, lazy, hazards)
	if checks < 100 || lazy < 50 || hazards < 500 {
		t.Fatalf("weak coverage: %d checks over several regions, %d lazy records over regions, %d programs with hazards", checks, lazy, hazards)
	}
}

// TestLazyRegionsHostMatchEager aims at lazyOverRegions' guards with
// small programs of shfl_xor's first phase: in a host loop run once or
// twice, nS entries of a block nest read D (a region of D each) after an
// optional host write of D, then a statement outside any nest records
// on all of D by the host, the CTA, a lane, a block's pair or a warp,
// alone (a statement of its own, not a fused run) or after its check;
// a second round finds the first round's records of the same source on
// D; then, in the task, the same set or a lane of the first block may
// write all of D. Each runs with the regions kept, built first
// (noLazyRegions), and without grid symmetry.
func TestLazyRegionsHostMatchEager(t *testing.T) {
	defer func(n int) { lazyCellsMin = n }(lazyCellsMin)
	lazyCellsMin = 1
	var lazy int64
	for seed := int64(0); seed < 3000; seed++ {
		ms := [3]*Machine{}
		for i := range ms {
			ms[i] = New(hostRegionProgram(seed), Config{MaxHazards: 100})
		}
		ms[1].noLazyRegions = true
		ms[2].noGrid = true
		for rep := 0; rep < 2; rep++ {
			var out [3]string
			for i, m := range ms {
				r := *m.Run(nil)
				r.Stats.Memory, r.Stats.SkippedOps = 0, 0
				out[i] = fmt.Sprintf("%+v", r)
			}
			if out[0] != out[2] || out[1] != out[2] {
				t.Fatalf("seed %d run %d:\nkept  %s\nbuilt %s\nfull  %s", seed, rep, out[0], out[1], out[2])
			}
		}
		lazy += ms[0].lazyRegions
	}
	t.Logf("%d lazy records over regions", lazy)
	if lazy < 1000 {
		t.Fatalf("weak coverage: %d lazy records over regions", lazy)
	}
}

func hostRegionProgram(seed int64) *Program {
	rng := rand.New(rand.NewSource(seed))
	b := newBuilder(64)
	round, task, ys, yp, y2, y1 := b.slot("round"), b.slot("task"), b.slot("s"), b.slot("p"), b.slot("y2"), b.slot("y1")
	nP, nS := 2+rng.Intn(4), 1+rng.Intn(3)
	const S, cD = 4, 4
	stride := cD * nP
	D := b.newVar("D", false, nS*stride)
	R := b.local("R", nP, 2, 2, nS)
	aff := func(k int, terms ...Term) *Affine { return &Affine{K: k, Terms: terms} }
	ex := func(sh int, a *Affine) Exec { return Exec{Shape: sh, Start: a.Eval, StartAff: a} }
	pair := b.p.AddShape(coll.Collective{N: 1, Runs: [coll.MaxRuns]coll.Run{{Count: 2, Stride: 1}}})
	lane := ex(shThread, aff(0, Term{yp, S}, Term{y2, 2}, Term{y1, 1}))
	setOf := []Exec{{All: true}, {All: true}, cta(), ex(shThread, aff(rng.Intn(S*nP))), ex(pair, aff(S*rng.Intn(nP))), warp(task)}
	x := setOf[rng.Intn(len(setOf))]
	q := []Qual{qCuda2, qCuda2, qStrm, qSm80}[rng.Intn(4)]
	hostFirst := rng.Intn(2) == 0
	alone, write := rng.Intn(2) == 0, rng.Intn(3) == 0
	whole := func() *Access {
		if rng.Intn(2) == 0 {
			return &Access{Var: D}
		}
		return &Access{Var: D, Idx: []Window{{Lo: k(0), Hi: k(nS * stride), LoAff: aff(0), HiAff: aff(nS * stride)}}}
	}
	b.loop(round, 0, 1+rng.Intn(2), false, func() {
		if hostFirst {
			b.write(Exec{All: true}, &Access{Var: D}, qStrm, FullyOrdered)
			b.fence(Exec{All: true}, streamSync, cudaInOrder)
		}
		b.loop(task, 0, 1, true, func() {
			b.alloc(R)
			b.loop(ys, 0, nS, false, func() {
				b.loop(yp, 0, nP, false, func() {
					b.loop(y2, 0, 2, false, func() {
						b.loop(y1, 0, 2, false, func() {
							i := aff(0, Term{ys, stride}, Term{yp, cD}, Term{y2, 2}, Term{y1, 1})
							b.read(lane, &Access{Var: D, Idx: []Window{{Lo: i.Eval, LoAff: i}}, Slots: []int{ys, yp, y2, y1}}, qCuda2)
							r := &Access{Var: R, Idx: []Window{{Lo: aff(0, Term{yp, 1}).Eval, LoAff: aff(0, Term{yp, 1})}, {Lo: aff(0, Term{y2, 1}).Eval, LoAff: aff(0, Term{y2, 1})}, {Lo: aff(0, Term{y1, 1}).Eval, LoAff: aff(0, Term{y1, 1})}, {Lo: aff(0, Term{ys, 1}).Eval, LoAff: aff(0, Term{ys, 1})}}, Slots: []int{yp, y2, y1, ys}}
							b.write(lane, r, qCuda2, FullyOrdered)
						})
					})
				})
			})
			if !x.All {
				b.fence(cta(), cudaInOrder, cudaInOrder)
				b.recordAll(x, whole(), q, alone, write)
				// An observer that tells the points apart: the same set,
				// or a lane of the first block, writes all of D (its
				// checks build the regions; a record whose creator moved
				// with τ_p is another thread's there).
				switch rng.Intn(3) {
				case 0:
					b.write(x, whole(), qCuda2, FullyOrdered)
				case 1:
					b.write(ex(shThread, aff(rng.Intn(S))), whole(), qCuda2, FullyOrdered)
				}
			}
		})
		if x.All {
			if rng.Intn(4) != 0 {
				b.fence(Exec{All: true}, cudaInOrder, streamSync)
			}
			b.recordAll(x, whole(), q, alone, write)
		}
	})
	return b.build()
}

// recordAll records on a by e: the record alone, or after its check (a
// read's CheckMutates, a write's CheckReads and CheckMutates), each
// statement with its own Access (never one fused run).
func (b *builder) recordAll(e Exec, a *Access, q Qual, alone, write bool) {
	cp := func() *Access { c := *a; return &c }
	kind := KRecordRead
	if write {
		kind = KRecordMutate
		if !alone {
			b.add(&Stmt{Kind: KCheckReads, Exec: e, Acc: cp(), Level: TemporallyOrdered, Quals: Of(q), What: AccWrite})
		}
	}
	if !alone {
		b.add(&Stmt{Kind: KCheckMutates, Exec: e, Acc: cp(), Level: TemporallyOrdered, Quals: Of(q), What: AccRead})
	}
	b.add(&Stmt{Kind: kind, Exec: e, Acc: cp(), Level: FullyOrdered, Q: q})
}
