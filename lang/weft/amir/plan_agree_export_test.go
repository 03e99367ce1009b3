package amir

// PlansAgree is plansAgree for the external tests: the non-task loops of
// p, the plans compared (thread, grid, block, box) and the first
// difference from the reference planners.
func PlansAgree(p *Program) (loops, plans int, err error) {
	f, err := plansAgree(p)
	return f.loops, f.thsym + f.grid + f.blk + f.box, err
}
