package cudagen

import (
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/check"
	"weft.dev/weft/lang/weft/gpucheck"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// FuzzWalkClean is the diagnostics-only walk (walk.go) on arbitrary
// programs that pass the checks weft check runs before the build checker
// (parse, check, the GPU checker), as the driver runs it: the walk never
// panics, and wherever it answers that the generator reports nothing, the
// CheckOnly pass without the walk reports nothing either (the corpus
// test's rule, TestWalkCleanOnlyWhenClean, on inputs the fuzzer makes).
func FuzzWalkClean(f *testing.F) {
	addChunkSeeds(f, "testdata/*.weft", "../../../examples/weft/exo/*.weft", "../../../bench/syncref/weft/*.weft")
	// Programs that pass the checks and make the generator report (the
	// walk must fall back on each): without them no seed tests the rule.
	for _, m := range walkMutants {
		f.Add(m.text)
	}
	l := lib.MustStd()
	f.Fuzz(func(t *testing.T, src string) {
		var errs diag.List
		file := syntax.Parse(diag.NewFile("fuzz.weft", []byte(src)), &errs)
		if errs.HasErrors() {
			return
		}
		prog := check.Check(file, l, &errs)
		if errs.HasErrors() {
			return
		}
		gpu := gpucheck.Check(file, gpucheck.Options{Lib: l, Prog: prog}, &errs)
		if errs.HasErrors() {
			return
		}
		if !walkClean(file, l, gpu) {
			return
		}
		walkOff = true
		pass := generateDiags(file, l, Options{CheckOnly: true, Prog: prog, GPU: gpu})
		walkOff = false
		if pass != "" {
			t.Errorf("the walk answers clean; the CheckOnly pass reports\n%s", pass)
		}
	})
}
