package driver

import (
	"flag"
	"fmt"
	"strings"

	cudainclude "weft.dev/weft/cuda/include"
	"weft.dev/weft/diag"
	"weft.dev/weft/frontend"
	"weft.dev/weft/lang/weft/cudagen"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
	"weft.dev/weft/safeio"
)

// build implements `weft build FILE.weft -o DIR [--harness] [--proc NAME]
// [--stem NAME] [--json]`: host C and CUDA C++ (lang/weft/cudagen), plus
// the runtime headers the generated code includes.
func init() {
	buildVerb = buildWeft
}

const buildUsage = "usage: weft build FILE.weft -o DIR [NAME=VALUE ...] [flags] (weft help build .weft)"

// buildOpts are the flags of `weft build`; buildFlags declares them once for
// both the verb and `weft help build`, so the help cannot drift.
type buildOpts struct {
	asJSON, harness, noCheck, quiet *bool
	out, proc, stem                 *string
}

func buildFlags() (*flag.FlagSet, *buildOpts) {
	fs := flag.NewFlagSet("build", flag.ContinueOnError)
	o := &buildOpts{
		asJSON:  fs.Bool("json", false, "diagnostics as JSON on stdout"),
		out:     fs.String("o", "", "`DIR`: the output directory (created if needed): STEM.h, STEM.c (host C), STEM.cuh, STEM.cu (CUDA C++) and the runtime headers"),
		harness: fs.Bool("harness", false, "also emit main.cu, which runs the proc on .npy inputs and writes .npy outputs"),
		proc:    fs.String("proc", "", "`NAME`: the proc the harness runs (default: the only non-instruction proc)"),
		stem:    fs.String("stem", "", "`STEM`: the base name of the generated files (default: the source file's)"),
		noCheck: fs.Bool("no-check", false, "skip the static and sync checks (generate code for an unchecked program)"),
		quiet:   fs.Bool("q", false, "print nothing on success (no summary line)"),
	}
	return fs, o
}

func buildWeft(env *frontend.Env, args []string) int {
	fs, opts := buildFlags()
	fs.SetOutput(env.Stderr)
	asJSON, out, harness, proc, stem, noCheck := opts.asJSON, opts.out, opts.harness, opts.proc, opts.stem, opts.noCheck
	pos, err := parseArgs(fs, args)
	if err != nil {
		return 2
	}
	files0, assigns := splitAssignments(pos)
	if len(files0) != 1 || *out == "" {
		return frontend.Usagef(env, "%s", buildUsage)
	}
	sizes, ok := sizeArgs(env, assigns)
	if !ok {
		return 2
	}
	pos = files0
	var errs diag.List
	f, ok := parse(env, pos[0], &errs)
	if !ok {
		return 2
	}
	if errs.HasErrors() {
		return frontend.Report(env, &errs, *asJSON)
	}
	if *proc != "" {
		// A --proc that names nothing is a usage error (status 2), as in
		// weft run, not a diagnostic without a position.
		var names []string
		found := false
		for _, d := range f.Decls {
			if p, ok := d.(*syntax.Proc); ok {
				names = append(names, p.Name.Name)
				found = found || p.Name.Name == *proc
			}
		}
		if !found {
			return frontend.Usagef(env, "build: no proc %q in %s (procs: %s)", *proc, pos[0], strings.Join(names, ", "))
		}
	}
	l, err := lib.Std()
	if err != nil {
		fmt.Fprintf(env.Stderr, "weft: standard library: %v\n", err)
		return 2
	}
	// The static checks run first: code is generated only for programs
	// weft check accepts.
	// NAME=VALUE sizes serve the sync check, as in weft check.
	if !*noCheck {
		ctx := &CheckContext{Env: env, File: f, Sizes: sizes, Errs: &errs, Build: true}
		stop := frontend.Progress(env, "weft build "+pos[0]+" (checking)")
		runCheckers(ctx)
		stop()
		if errs.HasErrors() {
			return frontend.Report(env, &errs, *asJSON)
		}
	}
	// A template that is not C++ would be pasted into the .cu as is.
	checkTemplates(f, &errs)
	if errs.HasErrors() {
		return frontend.Report(env, &errs, *asJSON)
	}
	stop := frontend.Progress(env, "weft build "+pos[0])
	o, crash := generate(f, l, cudagen.Options{Stem: *stem, Harness: *harness, Proc: *proc}, &errs)
	stop()
	if crash != nil {
		// The generator is fuzzed not to panic; if it still does, say so
		// plainly instead of printing a stack trace.
		fmt.Fprintf(env.Stderr, "weft: internal error in the code generator (please report it with the input): %v\n", crash)
		return 2
	}
	if errs.HasErrors() {
		return frontend.Report(env, &errs, *asJSON)
	}
	var outs []safeio.Output
	for _, file := range o.Files {
		outs = append(outs, safeio.Output{Name: file.Name, Data: file.Data})
	}
	for _, h := range cudainclude.Headers() {
		outs = append(outs, safeio.Output{Name: h.Name, Data: h.Data})
	}
	if !frontend.WriteOutputs(env, *out, outs) {
		return 2
	}
	rc := frontend.Report(env, &errs, *asJSON)
	if rc == 0 && !*opts.quiet && !*asJSON {
		// One line on success, so that a user sees what was written.
		var names []string
		for _, file := range o.Files {
			names = append(names, file.Name)
		}
		checked := "checked"
		if *noCheck {
			checked = "not checked (--no-check)"
		}
		fmt.Fprintf(env.Stderr, "weft build: %s: wrote %s and %d runtime headers to %s (program %s)\n",
			pos[0], strings.Join(names, ", "), len(cudainclude.Headers()), *out, checked)
	}
	return rc
}

func generate(f *syntax.File, l *lib.Library, opt cudagen.Options, errs *diag.List) (out *cudagen.Output, crash any) {
	defer func() { crash = recover() }()
	return cudagen.Generate(f, l, opt, errs), nil
}
