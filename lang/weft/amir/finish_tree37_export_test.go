package amir

import "fmt"

// FinishTreeAgrees is finishTreeAgrees for the external tests: the first
// statement whose fields differ from the three walks' (-1: none), what
// differs, and the loops planned and the runs made.
func FinishTreeAgrees(p *Program) (diff int, what string, plans, runs int) {
	return finishTreeAgrees(p, nil)
}

// LazyEagerRuns runs the machine on lazy as Finish left it (its thread
// plans made at the machine's asks) and on eager, the same program
// converted again, with every plan made at once (planAll): the two
// Results and the symmetric entries each run made (fastRuns).
func LazyEagerRuns(lazy, eager *Program) (a, b string, lazyRuns, eagerRuns [6]int64) {
	cfg := Config{MaxHazards: 100}
	eager.planAll()
	m1, m2 := New(lazy, cfg), New(eager, cfg)
	a = fmt.Sprintf("%+v", *m1.Run(nil))
	b = fmt.Sprintf("%+v", *m2.Run(nil))
	return a, b, fastRuns(m1), fastRuns(m2)
}
