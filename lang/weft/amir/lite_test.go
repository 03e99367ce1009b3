package amir

import (
	"fmt"
	"math/rand"
	"testing"
)

// TestLiteMatchesFull: task symmetry (later tasks run lite) changes no
// hazard and no fault, out-of-bounds reads of shared variables in later
// tasks included (lite.go). Random task loops over dead reads of a shared
// variable (windows affine in the task iterator and two inner loops,
// in and out of bounds, double-buffer indices, triangular inner loops,
// Ifs, reads nested at both depths) and writes of a task-local buffer
// run with and without symmetry; hazards and faults must be identical.
func TestLiteMatchesFull(t *testing.T) {
	faults, boxed := 0, 0
	for seed := int64(0); seed < 3000; seed++ {
		p1, p2 := randomTaskProgram(seed), randomTaskProgram(seed)
		Walk(p2.Body, func(s *Stmt) {
			if s.Kind == KLoop {
				s.symmetric = false
			}
		})
		r1 := New(p1, Config{MaxHazards: 100}).Run(nil)
		r2 := New(p2, Config{MaxHazards: 100}).Run(nil)
		g := fmt.Sprintf("%+v %+v %d %d", r1.Hazards, r1.Faults, r1.Distinct, r1.Occurrences)
		w := fmt.Sprintf("%+v %+v %d %d", r2.Hazards, r2.Faults, r2.Distinct, r2.Occurrences)
		if g != w {
			t.Fatalf("seed %d:\nsymmetric %s\nfull      %s", seed, g, w)
		}
		if r1.Stats.SkippedOps == 0 {
			continue
		}
		if len(r1.Faults) > 0 {
			faults++
		}
		Walk(p1.Body, func(s *Stmt) {
			if s.Kind == KLoop && s.box != nil {
				boxed++
			}
		})
	}
	// The generator must exercise faults in programs whose later tasks
	// run lite, and loops with a box plan.
	if faults < 100 || boxed < 300 {
		t.Fatalf("weak coverage: %d faulting programs with lite tasks, %d loops with a box", faults, boxed)
	}
}

func randomTaskProgram(seed int64) *Program {
	rng := rand.New(rand.NewSource(seed))
	b := newBuilder(64)
	task, y0, y1 := b.slot("task"), b.slot("y0"), b.slot("y1")
	nTasks := 2 + rng.Intn(3)
	x := b.newVar("x", false, 4+rng.Intn(12), 4+rng.Intn(12))
	if rng.Intn(2) == 0 {
		b.p.Vars[x].Gran = []int{1 + rng.Intn(2), 1}
	}
	buf := b.local("buf", 8, 8)
	aff := func(slots ...int) *Affine {
		a := &Affine{K: rng.Intn(4)}
		for _, s := range slots {
			if rng.Intn(3) > 0 {
				a.Terms = append(a.Terms, Term{Slot: s, Coef: []int{1, 2, 3, -1}[rng.Intn(4)]})
			}
		}
		return a
	}
	window := func(slots ...int) Window {
		lo := aff(slots...)
		switch rng.Intn(5) {
		case 0, 1:
			hi := &Affine{K: lo.K + rng.Intn(4), Terms: lo.Terms}
			if rng.Intn(4) == 0 {
				hi = aff(slots...) // a different affine end
			}
			return Window{Lo: lo.Eval, Hi: hi.Eval, LoAff: lo, HiAff: hi}
		case 2:
			f := &ModAffine{Aff: *lo, M: 2 + rng.Intn(5), Sign: []int{1, -1}[rng.Intn(2)], Add: rng.Intn(8)}
			return Window{Lo: f.Eval, LoMod: f}
		case 3:
			if rng.Intn(3) == 0 {
				return Window{Lo: func(env []int) int { return lo.Eval(env) / 2 }} // no affine form
			}
		}
		return Window{Lo: lo.Eval, LoAff: lo}
	}
	readX := func(slots ...int) {
		a := &Access{Var: x}
		for d := 0; d < 2; d++ {
			a.Idx = append(a.Idx, window(slots...))
		}
		a.Slots = slots
		b.read(thread(y0), a, qCuda2)
	}
	writeBuf := func() {
		a := &Access{Var: buf, Idx: []Window{{Lo: func(env []int) int { return env[y0] % 8 }}, {Lo: func(env []int) int { return env[y1] % 8 }}}, Slots: []int{y0, y1}}
		b.write(thread(y0), a, qCuda2, FullyOrdered)
	}
	n0, n1 := 1+rng.Intn(4), 1+rng.Intn(4)
	b.loop(task, 0, nTasks, true, func() {
		b.alloc(buf)
		if rng.Intn(3) == 0 {
			readX(task)
		}
		b.loop(y0, 0, n0, false, func() {
			if rng.Intn(2) == 0 {
				readX(task, y0)
			}
			b.open()
			if rng.Intn(2) == 0 {
				writeBuf()
			}
			readX(task, y0, y1)
			if rng.Intn(3) == 0 {
				readX(y1)
			}
			body := b.close()
			if rng.Intn(4) == 0 {
				// An If inside the nest: the box ignores conditions.
				body = []*Stmt{{Kind: KIf, Sync: -1, Ctl: &Ctl{Cond: func(env []int) bool { return env[y1]%2 == 0 }}, Body: body}}
			}
			inner := &Stmt{Kind: KLoop, Body: body, Sync: -1, Ctl: &Ctl{Slot: y1, Lo: k(rng.Intn(2)), Hi: k(n1)}}
			if rng.Intn(5) == 0 {
				// A triangular nest: no box.
				inner.Hi = func(env []int) int { return env[y0] + 1 }
				inner.CtlSlots = []int{y0}
			}
			b.add(inner)
		})
		if rng.Intn(2) == 0 {
			b.fence(cta(), cudaInOrder, cudaInOrder)
		}
	})
	return b.build()
}

// TestBoxArena: the arena's pieces are zeroed, capped at their lengths
// (an append to one copies instead of writing into the next), apart from
// each other, and a piece longer than a chunk's rest gets a fresh chunk;
// a nil arena makes each piece.
func TestBoxArena(t *testing.T) {
	ar := new(boxArena)
	a, b := ar.takeInts(3), ar.takeInts(4)
	if len(a) != 3 || cap(a) != 3 || len(b) != 4 || cap(b) != 4 {
		t.Fatalf("pieces %d/%d %d/%d, want capped", len(a), cap(a), len(b), cap(b))
	}
	if &a[0] != &ar.intsIn[0] || &b[0] != &ar.intsIn[3] {
		t.Fatal("the first pieces are not the arena's own chunk's (stop 46)")
	}
	for i := range a {
		a[i] = 7
	}
	a = append(a, 9)
	for _, v := range b {
		if v != 0 {
			t.Fatalf("append to one piece wrote into the next: %v", b)
		}
	}
	big := ar.takeInts(boxArenaInts + 1)
	if len(big) != boxArenaInts+1 || &big[0] == &b[0] {
		t.Fatal("a long piece shares a chunk")
	}
	for _, v := range big {
		if v != 0 {
			t.Fatal("piece not zeroed")
		}
	}
	var none *boxArena
	if d := none.takeDims(2); len(d) != 2 || cap(d) != 2 {
		t.Fatal("nil arena")
	}
	if tm := none.takeTerms(1); len(tm) != 1 {
		t.Fatal("nil arena terms")
	}
}
