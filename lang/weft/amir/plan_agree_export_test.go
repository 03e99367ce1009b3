package amir

import "testing"

// PlansAgree is plansAgree for the external tests: the non-task loops of
// p, the plans compared (thread, grid, block, box) and the first
// difference from the reference planners.
func PlansAgree(p *Program) (loops, plans int, err error) {
	f, err := plansAgree(p)
	return f.loops, f.thsym + f.grid + f.blk + f.box, err
}

// TaskSymAgrees is taskSymAgrees for the external tests: the task loops
// of a finished p whose mark symmetricRef confirms, true and false.
func TaskSymAgrees(t *testing.T, name string, p *Program) (yes, no int) {
	taskSymAgrees(t, name, p, &yes, &no)
	return yes, no
}

// RdTrackAgrees is rdTrackAgrees for the external tests.
func RdTrackAgrees(p *Program) (agree, some bool) { return rdTrackAgrees(p) }
