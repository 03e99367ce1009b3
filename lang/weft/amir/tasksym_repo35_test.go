package amir_test

import (
	"testing"

	"weft.dev/weft/lang/weft/amir"
)

// TestTaskSymmetryRepo: on every program of the repository, each
// cuda_tasks loop's symmetry (Finish: facts' one walk, stop 35) is the
// plain definition's (symmetricRef).
func TestTaskSymmetryRepo(t *testing.T) {
	yes, no := 0, 0
	forRepoPrograms(t, func(path, proc string, p *amir.Program) {
		y, n := amir.TaskSymAgrees(t, path+" "+proc, p)
		yes += y
		no += n
	})
	t.Logf("%d symmetric task loops, %d not", yes, no)
	if yes < 30 || no < 10 {
		t.Fatalf("weak coverage: %d symmetric task loops, %d not", yes, no)
	}
}

// TestRdTrackRepo: on every program of the repository, the read-creator
// index's sources gathered while planning (stop 35) are those a walk of
// the finished program gathers.
func TestRdTrackRepo(t *testing.T) {
	some := 0
	forRepoPrograms(t, func(path, proc string, p *amir.Program) {
		ok, s := amir.RdTrackAgrees(p)
		if !ok {
			t.Fatalf("%s, proc %s: rdTrack differs from the walk's", path, proc)
		}
		if s {
			some++
		}
	})
	t.Logf("%d programs with tracked sources", some)
	if some < 3 {
		t.Fatalf("weak coverage: %d programs with tracked sources", some)
	}
}
