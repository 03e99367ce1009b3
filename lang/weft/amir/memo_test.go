package amir

import (
	"fmt"
	"math/rand"
	"testing"
)

// TestMemoMatchesPlain: the memo of repeated run executions (memo.go)
// changes no result and no statistic. Random loop nests of reads and
// writes (convergent or per thread, by threads and warps, at levels and
// timelines that pass or fail the memo's static conditions), fences,
// reallocations and accesses that repeat one cell across iterations run
// with and without the memo; the whole Result must be identical.
func TestMemoMatchesPlain(t *testing.T) {
	var hits [3]int64
	hazards := 0
	for seed := int64(0); seed < 3000; seed++ {
		p1, p2 := randomMemoProgram(seed), randomMemoProgram(seed)
		Walk(p2.Body, func(s *Stmt) {
			for _, f := range s.fused {
				if f.Kind == kRun {
					f.memoKind = memoNone
				}
			}
		})
		m1 := New(p1, Config{MaxHazards: 100})
		r1 := m1.Run(nil)
		r2 := New(p2, Config{MaxHazards: 100}).Run(nil)
		g, w := fmt.Sprintf("%+v", *r1), fmt.Sprintf("%+v", *r2)
		if g != w {
			t.Fatalf("seed %d:\nmemo  %s\nplain %s", seed, g, w)
		}
		// A second Run of the same machine starts afresh.
		if r := m1.Run(nil); fmt.Sprintf("%+v", *r) != w {
			t.Fatalf("seed %d: second run differs:\n%+v\n%s", seed, *r, w)
		}
		for i, h := range m1.memoHits {
			hits[i] += h
		}
		if r1.Distinct > 0 {
			hazards++
		}
	}
	if hits[memoRead] < 2000 || hits[memoWrite] < 2000 || hazards < 300 {
		t.Fatalf("weak coverage: %d/%d memo hits (read/write), %d programs with hazards", hits[memoRead], hits[memoWrite], hazards)
	}
}

func randomMemoProgram(seed int64) *Program {
	rng := rand.New(rand.NewSource(seed))
	b := newBuilder(64)
	y0, y1, y2 := b.slot("y0"), b.slot("y1"), b.slot("y2")
	l := b.local("l", 4, 4)
	x := b.newVar("x", false, 4, 4)
	idx := func() IntExpr {
		switch rng.Intn(4) {
		case 0:
			return v(y0)
		case 1:
			return v(y1)
		case 2:
			return func(env []int) int { return env[y2] % 4 }
		}
		return k(rng.Intn(4))
	}
	starts := map[[2]int]*Affine{} // shared so that one g_s serves a run
	exec := func() Exec {
		key := [2]int{rng.Intn(4), rng.Intn(2)}
		f := starts[key]
		if f == nil {
			switch key[0] {
			case 0:
				f = &Affine{Terms: []Term{{Slot: y0, Coef: 1}}}
			case 1:
				f = &Affine{Terms: []Term{{Slot: y1, Coef: 1}}}
			case 2:
				f = &Affine{Terms: []Term{{Slot: y0, Coef: 32}}}
			default:
				f = &Affine{K: key[1]}
			}
			starts[key] = f
		}
		shape := shThread
		if key[0] == 2 {
			shape = shWarp
		}
		return Exec{Shape: shape, Start: f.Eval, StartAff: f}
	}
	quals := []Qual{qCuda1, qCuda2, qSm80}
	access := func() {
		vr := []int{l, l, x}[rng.Intn(3)]
		a := at(vr, idx(), idx())
		e := exec()
		q := quals[rng.Intn(3)]
		conv := rng.Intn(3) > 0
		if rng.Intn(2) == 0 {
			b.add(&Stmt{Kind: KCheckMutates, Exec: e, Acc: a, Level: []Level{FullyOrdered, TemporallyOrdered}[rng.Intn(2)], Quals: Of(q) | Of(quals[rng.Intn(3)]), Convergent: conv, What: AccRead})
			b.add(&Stmt{Kind: KRecordRead, Exec: e, Acc: a, Level: []Level{FullyOrdered, Unordered}[rng.Intn(2)], Q: q, Convergent: conv})
			return
		}
		b.add(&Stmt{Kind: KCheckMutates, Exec: e, Acc: a, Level: []Level{FullyOrdered, TemporallyOrdered}[rng.Intn(2)], Quals: Of(q) | Of(quals[rng.Intn(3)]), Convergent: conv, What: AccWrite})
		b.add(&Stmt{Kind: KCheckReads, Exec: e, Acc: a, Level: TemporallyOrdered, Quals: Of(q), Convergent: conv, What: AccWrite})
		b.add(&Stmt{Kind: KClearReads, Acc: a})
		b.add(&Stmt{Kind: KClearMutates, Acc: a})
		b.add(&Stmt{Kind: KRecordMutate, Exec: e, Acc: a, Level: []Level{FullyOrdered, Unordered}[rng.Intn(2)], Q: q, Convergent: conv})
	}
	b.alloc(l)
	b.loop(y0, 0, 1+rng.Intn(3), false, func() {
		if rng.Intn(3) == 0 {
			b.alloc(l)
		}
		b.loop(y1, 0, 1+rng.Intn(3), false, func() {
			for n := 1 + rng.Intn(3); n > 0; n-- {
				access()
			}
			b.loop(y2, 0, 1+rng.Intn(4), false, func() {
				for n := 1 + rng.Intn(3); n > 0; n-- {
					access()
					if rng.Intn(6) == 0 {
						b.fence(cta(), cudaInOrder, cudaInOrder)
					}
				}
			})
			if rng.Intn(2) == 0 {
				b.fence(cta(), []syncTL{cudaInOrder, sm80Generic}[rng.Intn(2)], cudaInOrder)
			}
		})
	})
	return b.build()
}
