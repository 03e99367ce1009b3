package amir

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// emptyLoopProgram: in 1-3 tasks, statements on x by threads and the CTA
// between empty loops (no statement in the body) of 0 to 700 iterations,
// some nested in loops with statements, some reversed (hi < lo); the
// statements after an empty loop index x by its iterator (its last value,
// or the value before it when it ran no iteration; sometimes out of
// bounds).
func emptyLoopProgram(seed int64) *Program {
	rng := rand.New(rand.NewSource(seed))
	b := newBuilder(64)
	task, y, z := b.slot("task"), b.slot("y"), b.slot("z")
	n := 8 + rng.Intn(60)
	x := b.newVar("x", false, n)
	empty := func(slot int) {
		lo := rng.Intn(5)
		hi := lo + []int{0, 1, 2, 40, 255, 256, 257, 700, -2}[rng.Intn(9)]
		b.loop(slot, lo, hi, false, func() {})
	}
	stmt := func(slot int) {
		switch rng.Intn(5) {
		case 0:
			b.write(thread(slot), at(x, v(slot)), qCuda2, FullyOrdered)
		case 1:
			b.read(thread(slot), at(x, v(slot)), qCuda2)
		case 2:
			b.fence(cta(), syncTL{full: Of(qCuda2), trans: true}, syncTL{full: Of(qCuda2)})
		case 3:
			b.write(cta(), at(x, k(rng.Intn(n))), qCuda2, FullyOrdered)
		default:
			empty(slot)
		}
	}
	b.loop(task, 0, 1+rng.Intn(3), true, func() {
		for i := 0; i < 2+rng.Intn(5); i++ {
			if rng.Intn(3) == 0 {
				b.loop(z, 0, 1+rng.Intn(4), false, func() {
					stmt(z)
					empty(y)
					stmt(y)
				})
				continue
			}
			empty(y)
			stmt(y)
		}
	})
	return b.build()
}

// TestEmptyLoopMatchesIterated: skipping empty loops (skipEmptyLoop)
// leaves the Result of iterating them, on emptyLoopProgram (with and
// without a memory limit that the 256th tick's test hits) and on amir's
// random program generators, two runs each.
func TestEmptyLoopMatchesIterated(t *testing.T) {
	gens := append([]func(int64) *Program{emptyLoopProgram}, randomGens()...)
	var skipped int64
	limited := 0
	for g, gen := range gens {
		seeds := int64(200)
		if g == 0 {
			seeds = 2000
		}
		for seed := int64(0); seed < seeds; seed++ {
			cfg := Config{MaxHazards: 100}
			if g == 0 && seed%3 == 0 {
				// Past x's allocation, below a run's log (stop 41: the
				// state's first room is smaller, 16-record chunks and the
				// log's short first growth; 1200 + seed%5*2000 had left
				// 47 memory stops).
				cfg.MaxMemory = 1400 + seed%5*300
			}
			m1, m2 := New(gen(seed), cfg), New(gen(seed), cfg)
			m2.noEmptyLoop = true
			for rep := 0; rep < 2; rep++ {
				r1, r2 := *m1.Run(nil), *m2.Run(nil)
				a, b := fmt.Sprintf("%+v", r1), fmt.Sprintf("%+v", r2)
				if a != b {
					t.Fatalf("generator %d seed %d run %d:\nskipped  %s\niterated %s", g, seed, rep, a, b)
				}
				for _, f := range r1.Faults {
					if f.Limit == "memory" && strings.HasPrefix(f.Msg, "the checker's state takes") {
						limited++
					}
				}
			}
			skipped += m1.emptyLoops
			if m2.emptyLoops != 0 {
				t.Fatalf("generator %d seed %d: %d empty loops skipped with noEmptyLoop", g, seed, m2.emptyLoops)
			}
		}
	}
	t.Logf("%d empty loops skipped, %d runs stopped by a loop's memory test", skipped, limited)
	if skipped < 5000 || limited < 200 {
		t.Fatalf("weak coverage: %d empty loops skipped, %d memory stops", skipped, limited)
	}
}
