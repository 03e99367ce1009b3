package amir_test

import (
	"testing"

	"weft.dev/weft/lang/weft/amir"
)

// TestPlanQuickRepo compares the planners' cheap first tests with the
// full planners (amir.PlanQuickAgrees, plan_quick.go) on every program of
// the repository (forRepoPrograms).
func TestPlanQuickRepo(t *testing.T) {
	progs, loops, refused := 0, 0, 0
	files := forRepoPrograms(t, func(path, proc string, p *amir.Program) {
		n, r, err := amir.PlanQuickAgrees(p)
		if err != nil {
			t.Fatalf("%s, proc %s: %v", path, proc, err)
		}
		progs++
		loops += n
		refused += r
	})
	t.Logf("%d files, %d programs, %d loops, %d refusals by the first tests", files, progs, loops, refused)
	if progs < 50 || refused < 100 {
		t.Fatalf("weak coverage: %d programs, %d refusals", progs, refused)
	}
}
