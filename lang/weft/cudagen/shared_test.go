package cudagen

import (
	"fmt"
	"strings"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/check"
	"weft.dev/weft/lang/weft/gpucheck"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// TestSharedTilingsMatchDerived: CheckOnly generation that takes the GPU
// checker's tilings (Options.GPU, shared.go) reports what generation that
// derives its own reports, on every program and variant of the
// differential corpus, with the checker's result whether or not the
// checker reported errors; and it takes them (no shareMiss) on most.
func TestSharedTilingsMatchDerived(t *testing.T) {
	l := lib.MustStd()
	variants, shared, missed, withDiags, sharedDiags := 0, 0, 0, 0, 0
	forEachProgramVariant(t, func(name, text string) {
		var perrs diag.List
		f := syntax.Parse(diag.NewFile(name, []byte(text)), &perrs)
		if perrs.HasErrors() {
			return
		}
		var cerrs diag.List
		prog := check.Check(f, l, &cerrs)
		gpu := gpucheck.Check(f, gpucheck.Options{Lib: l, Prog: prog}, &cerrs)
		if len(gpu.Devices) == 0 {
			return
		}
		variants++
		text1, ok := runShared(f, l, Options{CheckOnly: true, Prog: prog, GPU: gpu}, false)
		if !ok {
			missed++
		} else {
			shared++
		}
		plain, _ := runShared(f, l, Options{CheckOnly: true, Prog: prog}, false)
		whole, _ := runShared(f, l, Options{CheckOnly: true, Prog: prog, GPU: gpu}, true)
		if plain != "" {
			withDiags++
			if ok {
				sharedDiags++
			}
		}
		if ok && text1 != plain {
			t.Errorf("%s: with the checker's tilings\n%s\nderived\n%s", name, text1, plain)
		}
		if whole != plain {
			t.Errorf("%s: Generate with the checker's tilings\n%s\nderived\n%s", name, whole, plain)
		}
	})
	t.Logf("%d programs and variants with device functions: %d took the checker's tilings, %d generated again; %d with generator diagnostics, %d of them with the checker's tilings",
		variants, shared, missed, withDiags, sharedDiags)
	if shared < variants*9/10 || withDiags < 50 || sharedDiags < withDiags/2 {
		t.Errorf("the comparison exercised too little")
	}
}

// runShared runs CheckOnly generation (runPassesOnce, or runPasses when
// whole) and returns its sorted diagnostics as text, and whether
// the checker's tilings were taken throughout.
func runShared(f *syntax.File, l *lib.Library, opt Options, whole bool) (s string, ok bool) {
	var errs diag.List
	defer func() {
		if r := recover(); r != nil {
			s = fmt.Sprintf("panic: %v", r)
		}
	}()
	if whole {
		runPasses(f, l, opt, &errs, false)
		ok = true
	} else {
		_, _, ok = runPassesOnce(f, l, opt, &errs, false)
	}
	errs.Sort()
	var b strings.Builder
	diag.WriteText(&b, errs.Diags)
	return b.String(), ok
}
