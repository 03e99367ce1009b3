package driver

import (
	"flag"
	"fmt"

	"weft.dev/weft/lang/weft/distmem"
	"weft.dev/weft/lang/weft/gpucheck"
	"weft.dev/weft/lang/weft/lib"
)

// threadsFlag is `--threads` (a text report of every scope's thread
// mapping) or `--threads=svg` (the same as an SVG picture).
type threadsFlag struct{ mode string }

func (f *threadsFlag) String() string { return f.mode }
func (f *threadsFlag) Set(s string) error {
	switch s {
	case "true", "text":
		f.mode = "text"
	case "false", "":
		f.mode = ""
	case "svg":
		f.mode = "svg"
	default:
		return fmt.Errorf("want --threads or --threads=svg, not %q", s)
	}
	return nil
}
func (f *threadsFlag) IsBoolFlag() bool { return true }

var gpuThreads threadsFlag

func init() {
	RegisterChecker(Checker{
		Name:     "gpu",
		Order:    20,
		Defaults: func() { gpuThreads = threadsFlag{} },
		Flags: func(fs *flag.FlagSet) {
			gpuThreads = threadsFlag{}
			fs.Var(&gpuThreads, "threads", "print the thread mapping of every statement in device code (--threads=svg: as an SVG picture)")
		},
		Run: func(ctx *CheckContext) {
			l, err := lib.Std()
			if err != nil {
				fmt.Fprintf(ctx.Env.Stderr, "weft: standard library: %v\n", err)
				return
			}
			res := gpucheck.Check(ctx.File, gpucheck.Options{Lib: l, Sizes: ctx.Sizes, Prog: ctx.Prog}, ctx.Errs)
			if ctx.Errs.HasErrors() {
				return
			}
			switch gpuThreads.mode {
			case "text":
				res.WriteThreads(ctx.Env.Stdout)
			case "svg":
				res.WriteThreadsSVG(ctx.Env.Stdout)
			}
			ctx.gpu = res
		},
	})
	RegisterChecker(Checker{
		Name:  "distmem",
		Order: 30,
		Run: func(ctx *CheckContext) {
			if ctx.gpu == nil {
				return
			}
			res := distmem.Check(ctx.gpu, ctx.Errs)
			if gpuThreads.mode == "text" && !ctx.Errs.HasErrors() {
				res.Write(ctx.Env.Stdout)
			}
		},
	})
}
