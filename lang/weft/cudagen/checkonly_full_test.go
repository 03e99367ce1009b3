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

// TestCheckOnlyMatchesFullBuild is the end-to-end differential test of the
// CheckOnly pass (issue 13, stop 32): on every program and variant of the
// differential corpus, CheckOnly generation as weft check runs it (the
// checked program and the GPU checker's result, single pass, no text)
// reports exactly the diagnostics of a full generation (two passes, all
// text formatted, as weft build runs it). Every shortcut CheckOnly takes
// (single.go, shared.go, the text a discarding pass skips, the state it
// does not build) is checked by it at once.
func TestCheckOnlyMatchesFullBuild(t *testing.T) {
	l := lib.MustStd()
	variants, withDiags := 0, 0
	forEachProgramVariant(t, func(name, text string) {
		var perrs diag.List
		f := syntax.Parse(diag.NewFile(name, []byte(text)), &perrs)
		if perrs.HasErrors() {
			return
		}
		var cerrs diag.List
		prog := check.Check(f, l, &cerrs)
		gpu := gpucheck.Check(f, gpucheck.Options{Lib: l, Prog: prog}, &cerrs)
		variants++
		quick := generateDiags(f, l, Options{CheckOnly: true, Prog: prog, GPU: gpu})
		full := generateDiags(f, l, Options{Prog: prog})
		if full != "" {
			withDiags++
		}
		if quick != full {
			t.Errorf("%s: CheckOnly reports\n%s\na full build\n%s", name, quick, full)
		}
	})
	t.Logf("%d programs and variants, %d with generator diagnostics", variants, withDiags)
	if variants < 1000 || withDiags < 50 {
		t.Errorf("the comparison exercised too little")
	}
}

// generateDiags runs Generate and returns its sorted diagnostics (or its
// panic) as text.
func generateDiags(f *syntax.File, l *lib.Library, opt Options) (s string) {
	var errs diag.List
	defer func() {
		if r := recover(); r != nil {
			s = fmt.Sprintf("panic: %v", r)
		}
	}()
	Generate(f, l, opt, &errs)
	errs.Sort()
	var b strings.Builder
	diag.WriteText(&b, errs.Diags)
	return b.String()
}
