package amir_test

import (
	"testing"

	"weft.dev/weft/lang/weft/amir"
)

// TestFinishTreeRepo: on every program of the repository, Finish's one
// bottom-up walk (issue 13, stop 37) sets what the three walks it
// replaced set (finish_tree37_ref_test.go).
func TestFinishTreeRepo(t *testing.T) {
	progs, plans, runs := 0, 0, 0
	forRepoPrograms(t, func(path, proc string, p *amir.Program) {
		d, what, pl, r := amir.FinishTreeAgrees(p)
		if d >= 0 {
			t.Fatalf("%s, proc %s: statement %d: %s differ from the three walks'", path, proc, d, what)
		}
		progs++
		plans += pl
		runs += r
	})
	t.Logf("%d programs, %d planned loops, %d runs", progs, plans, runs)
	if progs < 40 || plans < 100 || runs < 300 {
		t.Fatalf("weak coverage: %d programs, %d planned loops, %d runs", progs, plans, runs)
	}
}
