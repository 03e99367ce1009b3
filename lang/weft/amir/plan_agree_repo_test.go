package amir_test

import (
	"testing"

	"weft.dev/weft/lang/weft/amir"
)

// TestPlansAgreeRepo compares the planners with their stop-32 references
// (amir.PlansAgree, plan_agree_test.go) on every program of the
// repository (forRepoPrograms).
func TestPlansAgreeRepo(t *testing.T) {
	progs, loops, plans := 0, 0, 0
	files := forRepoPrograms(t, func(path, proc string, p *amir.Program) {
		n, r, err := amir.PlansAgree(p)
		if err != nil {
			t.Fatalf("%s, proc %s: %v", path, proc, err)
		}
		progs++
		loops += n
		plans += r
	})
	t.Logf("%d files, %d programs, %d loops, %d plans compared", files, progs, loops, plans)
	if progs < 50 || plans < 100 {
		t.Fatalf("weak coverage: %d programs, %d plans", progs, plans)
	}
}
