package amir_test

import (
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/internal/testrepo"
	"weft.dev/weft/lang/weft/amir"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syncheck"
)

// forRepoPrograms converts every proc of the repository's .weft programs
// that the front end accepts (at the sizes of its first `# check:` line)
// and calls fn with each converted program; it returns the number of
// files read. The planners' differential tests (TestPlanQuickRepo,
// TestPlansAgreeRepo) share it.
func forRepoPrograms(t *testing.T, fn func(path, proc string, p *amir.Program)) int {
	t.Helper()
	progs, files := testrepo.WeftPrograms(t, "../../..", lib.MustStd(), syncheck.Directives)
	for _, c := range progs {
		for _, p := range c.Procs {
			var cerrs diag.List
			prog := syncheck.Convert(c.File, p, c.GPU, c.GPU.Lib, &cerrs)
			if cerrs.HasErrors() || prog == nil || prog.AMIR == nil {
				continue
			}
			fn(c.Path, p.Name.Name, prog.AMIR)
		}
	}
	return files
}
