package amir

import (
	"fmt"
	"math/rand"
	"testing"
)

// Lazy thread plans (plan_lazy.go, issue 13, stop 37): a plan made at
// the machine's first ask is the plan main's eager Finish made, whatever
// the order of the asks, and the machine's Results do not change.

// planShuffled asks for every pending plan of p, the loops and the two
// kinds of plan in an order drawn from rng (a 2-D plan often before its
// loops' thread plans).
func planShuffled(p *Program, rng *rand.Rand) {
	var loops []*Stmt
	Walk(p.Body, func(s *Stmt) {
		if s.Kind == KLoop {
			loops = append(loops, s, s)
		}
	})
	rng.Shuffle(len(loops), func(i, j int) { loops[i], loops[j] = loops[j], loops[i] })
	seen := map[*Stmt]bool{}
	for _, s := range loops {
		if seen[s] != (rng.Intn(2) == 0) {
			p.th2PlanOf(s)
		} else {
			p.thPlanOf(s)
		}
		seen[s] = true
	}
	p.planAll() // what the draw left
}

// fastRuns counts the symmetric entries a machine has made: thread
// symmetry's (plain, pinned, private, classes), the 2-D nests' and the
// grids'.
func fastRuns(m *Machine) [6]int64 {
	return [6]int64{m.thSymRuns, m.thPinRuns, m.thPrivRuns, m.thClassRuns, m.th2Runs, m.gridRuns}
}

// TestLazyPlansMatchEager: on every random generator, the plans asked
// for in random orders after Finish are the eager Finish's (finishRef,
// finish_tree37_ref_test.go, with every other field of Finish's walks),
// and the machine's Results with the plans made at its asks are those
// with every plan made right after Finish (two runs each).
func TestLazyPlansMatchEager(t *testing.T) {
	plans, runs, asked, never := 0, 0, 0, 0
	for gi, gen := range randomGens() {
		for seed := int64(0); seed < 300; seed++ {
			p := gen(seed)
			if p == nil {
				continue
			}
			d, what, pl, r := finishTreeAgrees(p, rand.New(rand.NewSource(seed)))
			if d >= 0 {
				t.Fatalf("generator %d, seed %d: statement %d: %s differ from the eager Finish's", gi, seed, d, what)
			}
			plans += pl
			runs += r
			cfg := Config{MaxHazards: 100}
			lazy, eager := gen(seed), gen(seed)
			eager.planAll()
			m1, m2 := New(lazy, cfg), New(eager, cfg)
			for rep := 0; rep < 2; rep++ {
				a, b := fmt.Sprintf("%+v", *m1.Run(nil)), fmt.Sprintf("%+v", *m2.Run(nil))
				if a != b {
					t.Fatalf("generator %d seed %d run %d:\nlazy  %s\neager %s", gi, seed, rep, a, b)
				}
				// The same fast paths were taken (the Results of the
				// symmetric runs are the plain runs' by design).
				if c1, c2 := fastRuns(m1), fastRuns(m2); c1 != c2 {
					t.Fatalf("generator %d seed %d run %d: fast paths taken lazy %v, eager %v", gi, seed, rep, c1, c2)
				}
			}
			Walk(lazy.Body, func(s *Stmt) {
				if s.Kind != KLoop {
					return
				}
				if s.thsym == thPending || s.th2 == th2Pending {
					never++
				} else if s.thsym != nil || s.th2 != nil {
					asked++
				}
			})
		}
	}
	t.Logf("%d plans, %d runs; the machine made %d plans and left %d loops' pending", plans, runs, asked, never)
	if plans < 1000 || asked < 1000 || never < 300 {
		t.Fatalf("weak coverage: %d plans, %d made by the machine, %d never asked for", plans, asked, never)
	}
}
