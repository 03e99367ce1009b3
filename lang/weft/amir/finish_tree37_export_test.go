package amir

// FinishTreeAgrees is finishTreeAgrees for the external tests: the first
// statement whose fields differ from the three walks' (-1: none), what
// differs, and the loops planned and the runs made.
func FinishTreeAgrees(p *Program) (diff int, what string, plans, runs int) {
	return finishTreeAgrees(p)
}
