package driver

import (
	"fmt"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/cudagen"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
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
			var errs diag.List
			if crash := diagnose(ctx.File, l, cudagen.Options{CheckOnly: true, Prog: ctx.Prog, GPU: ctx.gpu}, &errs); crash != nil {
				ctx.Errs.Errorf(diag.Pos{}, "W0901", "the code generator failed on this program: %v", crash)
				return
			}
			for _, d := range errs.Diags {
				ctx.Errs.Add(d)
			}
		},
	})
}

// diagnose is generate for the diagnostics alone (cudagen.Diagnose: no
// Output is made).
func diagnose(f *syntax.File, l *lib.Library, opt cudagen.Options, errs *diag.List) (crash any) {
	defer func() { crash = recover() }()
	cudagen.Diagnose(f, l, opt, errs)
	return nil
}
