package amir_test

import (
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/internal/testrepo"
	"weft.dev/weft/lang/weft/amir"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syncheck"
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

// TestLazyPlansRepo: on every program of the repository, the machine's
// Result and the symmetric entries it makes with its thread plans made
// at its asks (plan_lazy.go) are those of the program converted again
// with every plan made at Finish.
func TestLazyPlansRepo(t *testing.T) {
	progs, fast := 0, int64(0)
	all, _ := testrepo.WeftPrograms(t, "../../..", lib.MustStd(), syncheck.Directives)
	for _, c := range all {
		for _, p := range c.Procs {
			var e1, e2 diag.List
			lazy := syncheck.Convert(c.File, p, c.GPU, c.GPU.Lib, &e1)
			eager := syncheck.Convert(c.File, p, c.GPU, c.GPU.Lib, &e2)
			if e1.HasErrors() || lazy == nil || lazy.AMIR == nil {
				continue
			}
			a, b, c1, c2 := amir.LazyEagerRuns(lazy.AMIR, eager.AMIR)
			if a != b {
				t.Fatalf("%s, proc %s:\nlazy  %s\neager %s", c.Path, p.Name.Name, a, b)
			}
			if c1 != c2 {
				t.Fatalf("%s, proc %s: symmetric entries lazy %v, eager %v", c.Path, p.Name.Name, c1, c2)
			}
			progs++
			for _, n := range c1 {
				fast += n
			}
		}
	}
	t.Logf("%d programs, %d symmetric entries", progs, fast)
	if progs < 40 || fast < 50 {
		t.Fatalf("weak coverage: %d programs, %d symmetric entries", progs, fast)
	}
}
