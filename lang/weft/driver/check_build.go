package driver

import (
	"fmt"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/cudagen"
	"weft.dev/weft/lang/weft/lib"
)

// The build checker makes `weft check` as strict as `weft build` (issue 19
// item 3): after the other checks pass, it runs the code generator without
// writing anything and reports what it rejects statically (non-constant
// SMEM, register or grid-constant shapes, tensor maps built in device code,
// direct accesses of swizzled SMEM, ...) with the code generator's own
// codes (W09xx), so a program weft check accepts also builds. weft build
// itself skips it (it generates the code right after the checks).
func init() {
	RegisterChecker(Checker{
		Name:  "build",
		Order: 50,
		Run: func(ctx *CheckContext) {
			if ctx.Build {
				return
			}
			l, err := lib.Std()
			if err != nil {
				fmt.Fprintf(ctx.Env.Stderr, "weft: standard library: %v\n", err)
				return
			}
			opt := cudagen.Options{CheckOnly: true, Prog: ctx.Prog, GPU: ctx.gpu}
			diagnoseInto(ctx.Errs, func(errs *diag.List) { cudagen.Diagnose(ctx.File, l, opt, errs) })
		},
	})
}

// diagnoseInto runs the generator's check (run) for the diagnostics it
// adds to errs, the check's list, and reports a crash of it as W0901,
// dropping what it added before the crash. It adds to errs itself: a
// list of its own, copied into errs, escaped to the heap on every check
// (issue 13, stop 38: gen38). A list with a limit takes a list of its
// own still: there the generator's additions past the limit are counted
// as dropped, which a crash could not undo.
func diagnoseInto(errs *diag.List, run func(*diag.List)) {
	if errs.Limit > 0 {
		var own diag.List
		if crash := diagnose(run, &own); crash != nil {
			errs.Errorf(diag.Pos{}, "W0901", "the code generator failed on this program: %v", crash)
			return
		}
		for _, d := range own.Diags {
			errs.Add(d)
		}
		return
	}
	n := len(errs.Diags)
	if crash := diagnose(run, errs); crash != nil {
		errs.Diags = errs.Diags[:n]
		errs.Errorf(diag.Pos{}, "W0901", "the code generator failed on this program: %v", crash)
	}
}

// diagnose is run(errs), a crash of it returned.
func diagnose(run func(*diag.List), errs *diag.List) (crash any) {
	defer func() { crash = recover() }()
	run(errs)
	return nil
}
