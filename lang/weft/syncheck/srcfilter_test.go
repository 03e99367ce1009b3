package syncheck

import (
	"reflect"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/internal/testrepo"
	"weft.dev/weft/lang/weft/amir"
	"weft.dev/weft/lang/weft/lib"
)

// TestSrcFilterMatchesSearch: every proc of the repository's programs
// converts to the same Srcs (their statements, in order, their
// timelines and machines) and the same AMIR with srcIndex's filter
// (srcFilter) as with the plain search it answers for.
func TestSrcFilterMatchesSearch(t *testing.T) {
	defer func() { srcFilterOff = false }()
	progs, srcs := 0, 0
	checked, _ := testrepo.WeftPrograms(t, "../../..", lib.MustStd(), Directives)
	for _, c := range checked {
		path, f, gpu, l := c.Path, c.File, c.GPU, c.GPU.Lib
		for _, p := range c.Procs {
			var e1, e2 diag.List
			srcFilterOff = false
			got := Convert(f, p, gpu, l, &e1)
			srcFilterOff = true
			want := Convert(f, p, gpu, l, &e2)
			srcFilterOff = false
			if got == nil || want == nil || got.AMIR == nil {
				continue
			}
			if len(got.srcStmts) != len(want.srcStmts) {
				t.Fatalf("%s %s: %d Srcs with the filter, %d without", path, p.Name.Name, len(got.srcStmts), len(want.srcStmts))
			}
			for i := range got.srcStmts {
				if got.srcStmts[i] != want.srcStmts[i] || got.AMIR.Srcs[i] != want.AMIR.Srcs[i] || got.Machines[i] != want.Machines[i] {
					t.Fatalf("%s %s: Src %d differs with the filter", path, p.Name.Name, i)
				}
			}
			if !reflect.DeepEqual(srcsOf(got.AMIR.Body), srcsOf(want.AMIR.Body)) || len(e1.Diags) != len(e2.Diags) {
				t.Fatalf("%s %s: the statements' Srcs or the diagnostics differ with the filter", path, p.Name.Name)
			}
			progs++
			srcs += len(got.srcStmts)
		}
	}
	t.Logf("%d programs, %d Srcs", progs, srcs)
	if progs < 50 || srcs < 800 {
		t.Fatalf("weak coverage: %d programs, %d Srcs", progs, srcs)
	}
}

// srcsOf lists the Src of every statement of s, in preorder.
func srcsOf(s *amir.Stmt) []int {
	out := []int{s.Src}
	for _, b := range s.Body {
		out = append(out, srcsOf(b)...)
	}
	return out
}
