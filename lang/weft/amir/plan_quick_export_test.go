package amir

// PlanQuickAgrees is planQuickAgrees for the external tests: the non-task
// loops of p, how many the cheap first tests refused, and the first
// disagreement with the full planners.
func PlanQuickAgrees(p *Program) (loops, refused int, err error) {
	f, err := planQuickAgrees(p)
	return f.loops, f.noStart + f.noInner, err
}
