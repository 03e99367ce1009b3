package driver

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"weft.dev/weft/diag"
	"weft.dev/weft/frontend"
	"weft.dev/weft/lang/weft/check"
	"weft.dev/weft/lang/weft/interp"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syncheck"
	"weft.dev/weft/lang/weft/syntax"
	"weft.dev/weft/safeio"
)

// libProcs resolves calls to the standard library's instructions and helper
// procs for the interpreter.
func libProcs(l *lib.Library) func(string) *syntax.Proc {
	return l.Decl
}

// DefaultMaxSteps is the default of `weft run --max-steps` (about a minute
// of interpretation): every run ends (issue 14).
const DefaultMaxSteps = 1 << 31

func runVerb(env *frontend.Env, args []string) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	asJSON := fs.Bool("json", false, "diagnostics as JSON on stdout")
	procName := fs.String("proc", "", "`NAME`: the proc to run (default: the file's only non-instruction proc)")
	seed := fs.Uint64("seed", 1, "seed of A=rand")
	outDir := fs.String("out", "", "write every array argument to `DIR`/NAME.npy after the run")
	inDir := fs.String("inputs", "", "write every array argument to `DIR`/NAME.npy before the run (the inputs of the program of weft build --harness)")
	print := fs.Bool("print", false, "print every array argument after the run")
	compareDir := fs.String("compare", "", "compare every array argument after the run with `DIR`/NAME.npy where it exists (e.g. the GPU results of weft build --harness): exit 1 with W0812 when |ref-x| > atol + rtol*|x| anywhere")
	rtol := fs.Float64("rtol", 0, "relative tolerance of --compare (default 0: bit-exact)")
	atol := fs.Float64("atol", 0, "absolute tolerance of --compare (default 0: bit-exact)")
	maxSteps := fs.Int64("max-steps", DefaultMaxSteps, "stop with W0811 after N loop iterations, calls and allocated elements (0: no limit)")
	maxMemory := frontend.ByteSize(interp.DefaultMaxMemory)
	fs.Var(&maxMemory, "max-memory", "`BYTES`: stop with W0813 when the array arguments together, or one allocation, would take more than BYTES (each element at its type's width: f32 4 bytes, f16 2, i8 1, f64 8)")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return 2
	}
	if !frontend.NonNegative(env, fs, "max-steps") {
		return 2
	}
	files, assigns := splitAssignments(pos)
	if len(files) != 1 {
		return frontend.Usagef(env, "usage: weft run FILE.weft [NAME=VALUE ...] [flags] (weft help run .weft)")
	}
	var errs diag.List
	src, ok := frontend.ReadSource(env, files[0])
	if !ok {
		return 2
	}
	f := syntax.Parse(src, &errs)
	if errs.HasErrors() {
		return frontend.Report(env, &errs, *asJSON)
	}
	l, err := lib.Std()
	if err != nil {
		fmt.Fprintf(env.Stderr, "weft: standard library: %v\n", err)
		return 2
	}
	// The static checks of the language come first: the interpreter gives a
	// meaning only to well-typed programs.
	check.Check(f, l, &errs)
	if errs.HasErrors() {
		return frontend.Report(env, &errs, *asJSON)
	}
	if errs.Len() > 0 && !*asJSON {
		frontend.Report(env, &errs, false) // warnings
		errs = diag.List{}
	}
	procs := libProcs(l)
	prog := interp.New(f, interp.Options{Procs: procs, MaxSteps: *maxSteps, MaxMemory: int64(maxMemory)})
	p, err := prog.Main(*procName)
	if err != nil {
		var le *diag.ListError
		if errors.As(err, &le) {
			return frontend.Report(env, le.List, *asJSON)
		}
		return frontend.Usagef(env, "%v", err)
	}
	assigns = withDirectiveSizes(src, p, assigns)
	callArgs, arrays, err := p.Bind(assigns, *seed, interp.ReadNpyFile)
	if err != nil {
		return frontend.Usagef(env, "%v", err)
	}
	// Data scalars (`alpha: f32 @ DRAM`) are passed as 0-d arrays, so what
	// the proc writes to one is an output like a tensor's: --out writes
	// NAME.npy for it, as the generated harness does (weft validate
	// compares them).
	var scalars []string
	for _, q := range p.Params {
		if f, ok := callArgs[q.Name].(float64); ok && q.Kind == interp.KindScalar {
			a := interp.NewArray(q.Elem, nil)
			a.Set(0, f)
			callArgs[q.Name] = a
			scalars = append(scalars, q.Name)
		}
	}
	if *inDir != "" {
		if err := writeArrays(*inDir, arrays, callArgs); err != nil {
			fmt.Fprintf(env.Stderr, "weft: %v\n", err)
			return 2
		}
	}
	stop := frontend.Progress(env, "weft run "+files[0])
	err = p.Call(callArgs)
	stop()
	if err != nil {
		var re *interp.RuntimeError
		if errors.As(err, &re) {
			errs.Add(re.Diag)
			return frontend.Report(env, &errs, *asJSON)
		}
		return frontend.Usagef(env, "%v", err)
	}
	if *print {
		for _, name := range arrays {
			fmt.Fprintf(env.Stdout, "%s = %v\n", name, callArgs[name])
		}
	}
	if *outDir != "" {
		if err := writeArrays(*outDir, append(append([]string(nil), arrays...), scalars...), callArgs); err != nil {
			fmt.Fprintf(env.Stderr, "weft: %v\n", err)
			return 2
		}
	}
	if *compareDir != "" {
		return compare(env, p, *compareDir, arrays, callArgs, *rtol, *atol, *asJSON)
	}
	return 0
}

// compare checks the arrays after the run against DIR/NAME.npy, the
// results of the same run elsewhere (the GPU program of weft build
// --harness), within |ref - x| <= atol + rtol*|x|. Arrays without a file
// in DIR are skipped; at least one must be there.
func compare(env *frontend.Env, p *interp.Proc, dir string, arrays []string, args map[string]any, rtol, atol float64, asJSON bool) int {
	var errs diag.List
	found := 0
	for _, name := range arrays {
		path := filepath.Join(dir, name+".npy")
		if _, err := os.Stat(path); os.IsNotExist(err) {
			continue
		}
		ref, err := interp.ReadNpyFile(path)
		if err != nil {
			fmt.Fprintf(env.Stderr, "weft: %v\n", err)
			return 2
		}
		found++
		if m := args[name].(*interp.Array).Compare(ref, rtol, atol); m != nil {
			pos := p.Decl.Pos()
			for _, q := range p.Params {
				if q.Name == name {
					pos = q.Pos
				}
			}
			errs.Errorf(pos, interp.CodeCompare, "%s differs from %s: %s", name, path, m)
		}
	}
	if found == 0 {
		return frontend.Usagef(env, "--compare %s: no NAME.npy for any array argument (%s)", dir, strings.Join(arrays, ", "))
	}
	return frontend.Report(env, &errs, asJSON)
}

// withDirectiveSizes adds the sizes of the file's first `# check: N=...`
// line (the sizes its sync check runs at) for control parameters the command
// line does not give, so `weft run FILE` runs the checked configuration.
func withDirectiveSizes(src *diag.File, p *interp.Proc, assigns [][2]string) [][2]string {
	var scratch diag.List // malformed directives are weft check's to report
	dirs := syncheck.Directives(src, &scratch)
	if len(dirs) == 0 {
		return assigns
	}
	given := map[string]bool{}
	for _, a := range assigns {
		given[a[0]] = true
	}
	for _, q := range p.Params {
		if q.Kind != interp.KindSize && q.Kind != interp.KindIndex || given[q.Name] {
			continue
		}
		if v, ok := dirs[0][q.Name]; ok {
			assigns = append(assigns, [2]string{q.Name, strconv.FormatInt(v, 10)})
		}
	}
	return assigns
}

// writeArrays writes the named array arguments to dir/NAME.npy, all or
// nothing (safeio.Batch): on an error or a signal no file is left partial.
func writeArrays(dir string, names []string, args map[string]any) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var b safeio.Batch
	for _, name := range names {
		f, err := b.Create(filepath.Join(dir, name+".npy"))
		if err != nil {
			b.Abort()
			return err
		}
		if err := interp.WriteNpy(f, args[name].(*interp.Array)); err != nil {
			b.Abort()
			return fmt.Errorf("writing %s: %w", f.Dest(), err)
		}
	}
	return b.Commit()
}
