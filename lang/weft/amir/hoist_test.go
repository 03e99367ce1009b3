package amir

import (
	"fmt"
	"math/rand"
	"testing"
)

// TestHoistMatchesPlain: loop-entry planning of window evaluation
// (hoist.go) changes no result. Random loop nests of reads and writes
// with affine windows over the loop slots (in and out of bounds, aligned
// or not with the variables' block sizes, double-buffer indices, fences,
// allocations inside the loops) run with and without the plans; hazards,
// faults and statistics must be identical.
func TestHoistMatchesPlain(t *testing.T) {
	planned := 0
	for seed := int64(0); seed < 3000; seed++ {
		p1, p2 := randomLoopProgram(seed), randomLoopProgram(seed)
		Walk(p2.Body, func(s *Stmt) {
			if s.Kind == KLoop {
				s.hoist, s.hoistGS = nil, nil
			}
		})
		r1 := New(p1, Config{MaxHazards: 100}).Run(nil)
		r2 := New(p2, Config{MaxHazards: 100}).Run(nil)
		g, w := fmt.Sprintf("%+v", *r1), fmt.Sprintf("%+v", *r2)
		if g != w {
			t.Fatalf("seed %d:\nplanned %s\nplain   %s", seed, g, w)
		}
		Walk(p1.Body, func(s *Stmt) {
			if s.Kind != KLoop {
				return
			}
			for _, h := range s.hoist {
				if h.ok {
					planned++
				}
			}
		})
	}
	if planned < 300 {
		t.Fatalf("only %d plans were usable", planned)
	}
}

func randomLoopProgram(seed int64) *Program {
	rng := rand.New(rand.NewSource(seed))
	b := newBuilder(64)
	y0, y1, y2 := b.slot("y0"), b.slot("y1"), b.slot("y2")
	gran := func() []int { return []int{[]int{1, 1, 2, 4}[rng.Intn(4)], []int{1, 2, 4, 0}[rng.Intn(4)]} }
	x := b.newVar("x", false, 6+rng.Intn(20), 6+rng.Intn(20))
	b.p.Vars[x].Gran = gran()
	l := b.local("l", 16, 16)
	b.p.Vars[l].Gran = gran()
	// w's extents change with y1: reallocated in the loop body, its
	// block strides differ between iterations.
	w := b.local("w", 16, 16)
	b.p.Vars[w].Dims = []IntExpr{func(env []int) int { return 16 + 4*env[y1] }, k(16)}
	b.p.Vars[w].Gran = []int{1, 1}
	aff := func() *Affine {
		a := &Affine{K: rng.Intn(6)}
		if rng.Intn(3) > 0 {
			a.Terms = append(a.Terms, Term{Slot: y1, Coef: []int{1, 2, 4, -1}[rng.Intn(4)]})
		}
		if rng.Intn(2) == 0 {
			a.Terms = append(a.Terms, Term{Slot: y0, Coef: []int{1, 2, 4}[rng.Intn(3)]})
		}
		if rng.Intn(6) == 0 {
			// y2 is changed by a loop later in the same body: not
			// lexical scoping, but a hand-built program may do it.
			a.Terms = append(a.Terms, Term{Slot: y2, Coef: 1})
		}
		return a
	}
	window := func() Window {
		lo := aff()
		switch rng.Intn(4) {
		case 0:
			hi := &Affine{K: lo.K + 1 + rng.Intn(4), Terms: lo.Terms}
			return Window{Lo: lo.Eval, Hi: hi.Eval, LoAff: lo, HiAff: hi}
		case 1:
			f := &ModAffine{Aff: *lo, M: 2, Sign: 1}
			return Window{Lo: f.Eval, LoMod: f}
		}
		return Window{Lo: lo.Eval, LoAff: lo}
	}
	access := func(v int) *Access {
		a := &Access{Var: v}
		for d := 0; d < 2; d++ {
			a.Idx = append(a.Idx, window())
		}
		return a
	}
	exec := func() Exec {
		slot := []int{y0, y1, y1, y2}[rng.Intn(4)]
		f := &Affine{Terms: []Term{{Slot: slot, Coef: 1}}}
		return Exec{Shape: shThread, Start: f.Eval, StartAff: f}
	}
	n0, n1 := 1+rng.Intn(3), 1+rng.Intn(5)
	b.alloc(l)
	b.alloc(w)
	b.loop(y0, 0, n0, false, func() {
		if rng.Intn(2) == 0 {
			b.alloc(l) // a new incarnation in every iteration
		}
		b.loop(y1, rng.Intn(2), n1, false, func() {
			for k := 1 + rng.Intn(3); k > 0; k-- {
				v := []int{x, x, l, w}[rng.Intn(4)]
				e, a := exec(), access(v)
				if rng.Intn(2) == 0 {
					b.read(e, a, qCuda2)
				} else {
					b.write(e, a, qCuda2, []Level{FullyOrdered, Unordered}[rng.Intn(2)])
				}
				if rng.Intn(4) == 0 {
					b.fence(cta(), cudaInOrder, cudaInOrder)
				}
			}
			if rng.Intn(2) == 0 {
				b.alloc(w)
			}
			if rng.Intn(2) == 0 {
				b.loop(y2, 0, 1+rng.Intn(3), false, func() {
					b.read(exec(), access(x), qCuda2)
				})
			}
		})
	})
	return b.build()
}
