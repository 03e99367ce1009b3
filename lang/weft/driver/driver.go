package driver

import (
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/diff"

	"weft.dev/weft/diag"
	"weft.dev/weft/frontend"
	"weft.dev/weft/internal/gcpolicy"
	"weft.dev/weft/lang/weft/check"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// buildVerb implements `weft build` for .weft files. build.go (code
// generation) assigns it in its init; until then the verb says it is not
// available.
var buildVerb frontend.Verb

func init() {
	frontend.Register(&frontend.FrontEnd{
		Name:       "weft",
		Extensions: []string{".weft"},
		Summary:    "the Weft kernel language (Exo-GPU): static collective and sync checks, sequential interpreter, CUDA codegen",
		Check:      checkVerb,
		Run:        runVerb,
		Build:      build,
		Fmt:        fmtVerb,
		Sched:      schedVerb,
		Help:       help,
	})
}

func build(env *frontend.Env, args []string) int {
	if buildVerb == nil {
		return frontend.Usagef(env, "weft build for .weft files is not available in this build")
	}
	return buildVerb(env, args)
}

// help prints the synopsis of verb for .weft files, then the flags the
// verb declares (it is run with -help, which prints them and stops), so
// the help lists exactly the flags the verb accepts.
func help(w io.Writer, verb string) {
	var v frontend.Verb
	switch verb {
	case "check":
		v = checkVerb
		fmt.Fprintln(w, `weft check FILE.weft [NAME=VALUE ...] [flags]
  names, types and memories; collective, distributed-memory and instruction checks; and the
  sync check (seed 000 §5) at the sizes NAME=VALUE (e.g. N=1024) or the file's "# check:"
  lines; exit 1 when the program is rejected`)
	case "run":
		v = runVerb
		fmt.Fprintln(w, `weft run FILE.weft [NAME=VALUE ...] [flags]
  run a proc's sequential meaning on the CPU (docs/weft-run.md); every parameter binds by name:
  NAME=VALUE  a size/index/scalar (N=1024, flag=True, alpha=0.5) or an array: A=file.npy,
              A=zeros, A=ones, A=rand (uniform in [-1, 1) from --seed), A=iota (0, 1, 2, ...);
              arrays not named are zeros, sizes not named come from the file's "# check:" line`)
	case "build":
		v = buildVerb
		fmt.Fprintln(w, `weft build FILE.weft -o DIR [NAME=VALUE ...] [flags]
  host C and CUDA C++ for nvcc (docs/weft-codegen.md), for programs weft check accepts
  (sizes for the sync check from NAME=VALUE or the file's "# check:" lines)`)
	case "fmt":
		v = fmtVerb
		fmt.Fprintln(w, `weft fmt FILE.weft [flags]
  print the file canonically (comments kept); a file that does not parse is never rewritten`)
	case "sched":
		v = schedVerb
		fmt.Fprintln(w, `weft sched FILE.weft SCRIPT.star [NAME=VALUE ...] [flags]
  run the Starlark schedule SCRIPT over FILE (docs/weft-sched.md), print the scheduled file
  canonically (stdout, or OUT with -o; the script's print() goes to stderr), then run weft
  check on it (sync check sizes from NAME=VALUE or the file's "# check:" lines)`)
	default:
		return
	}
	if v != nil {
		v(&frontend.Env{Stdout: w, Stderr: w}, []string{"-help"})
	}
}

// parse reads and parses path; ok is false on an I/O error (already printed).
func parse(env *frontend.Env, path string, errs *diag.List) (*syntax.File, bool) {
	src, ok := frontend.ReadSource(env, path)
	if !ok {
		return nil, false
	}
	return syntax.Parse(src, errs), true
}

// splitAssignments separates NAME=VALUE arguments from the rest.
func splitAssignments(pos []string) (files []string, assigns [][2]string) {
	for _, a := range pos {
		if as, ok := assignment(a); ok {
			assigns = append(assigns, as)
			continue
		}
		files = append(files, a)
	}
	return files, assigns
}

// assignment is a NAME=VALUE argument's name and value; ok is false for
// any other argument.
func assignment(a string) (as [2]string, ok bool) {
	if i := strings.IndexByte(a, '='); i > 0 && isIdent(a[:i]) {
		return [2]string{a[:i], a[i+1:]}, true
	}
	return as, false
}

// checkSplit is splitAssignments for weft check, which reads one file:
// the first of the arguments that are not NAME=VALUE and their number,
// and the assignments, in buf while they fit (splitAssignments's two
// slices were an allocation of every check, two with sizes; issue 13,
// stop 43). TestCheckSplit compares the two.
func checkSplit(pos []string, buf *[4][2]string) (file string, nfiles int, assigns [][2]string) {
	assigns = buf[:0]
	for _, a := range pos {
		if as, ok := assignment(a); ok {
			assigns = append(assigns, as)
			continue
		}
		if nfiles == 0 {
			file = a
		}
		nfiles++
	}
	return file, nfiles, assigns
}

func isIdent(s string) bool {
	for i, c := range s {
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && '0' <= c && c <= '9') {
			return false
		}
	}
	return s != ""
}

// checkFlagSet is the flag set of weft check with the flags it declares.
type checkFlagSet struct {
	fs            *flag.FlagSet
	asJSON, quiet *bool
}

// newCheckFlagSet declares weft check's flags anew (which sets every flag
// variable of the checkers to its default).
func newCheckFlagSet() *checkFlagSet {
	cf := &checkFlagSet{fs: flag.NewFlagSet("check", flag.ContinueOnError)}
	cf.asJSON = cf.fs.Bool("json", false, "diagnostics as JSON on stdout")
	cf.quiet = cf.fs.Bool("q", false, "print nothing on success (no summary line per sync check)")
	for _, c := range checkers {
		if c.Flags != nil {
			c.Flags(cf.fs)
		}
	}
	return cf
}

// checkArgs reads weft check's arguments: the positional ones (the file
// and NAME=VALUE sizes) and the flags; ok is false on a usage error or a
// help request, already printed.
//
// Arguments that are positional or one of the verb's own switches, -q and
// --json (spelled -name or --name, without a value), are read without
// declaring the flag set: its dozen flags (a map grown flag by flag, each
// default formatted, a closure per checker) were a few µs of a small
// kernel's check (issue 13). The checkers' flag variables are then set to
// their defaults (Checker.Defaults), as declaring them does, so a check
// never sees a flag of an earlier one. Any other argument that starts
// with "-" (another flag, a value, "--", "-", help) goes through the flag
// package as before. TestCheckArgsFastPath compares both.
func checkArgs(env *frontend.Env, args []string) (pos []string, asJSON, quiet, ok bool) {
	if pos, asJSON, quiet, ok = plainCheckArgs(args); ok {
		for _, c := range checkers {
			if c.Defaults != nil {
				c.Defaults()
			}
		}
		return pos, asJSON, quiet, true
	}
	cf := newCheckFlagSet()
	cf.fs.SetOutput(env.Stderr)
	pos, err := parseArgs(cf.fs, args)
	if err != nil {
		return nil, false, false, false
	}
	if !frontend.NonNegative(env, cf.fs, "max-hazards", "max-tasks", "max-cells", "max-memory") {
		return nil, false, false, false
	}
	return pos, *cf.asJSON, *cf.quiet, true
}

// isSwitch reports whether a is not positional: it starts with "-".
func isSwitch(a string) bool { return a != "" && a[0] == '-' }

// plainCheckArgs is checkArgs for arguments that are positional, -q/--q
// or -json/--json; ok is false for any other argument starting with "-".
func plainCheckArgs(args []string) (pos []string, asJSON, quiet, ok bool) {
	for _, a := range args {
		if !isSwitch(a) {
			continue
		}
		switch a {
		case "-q", "--q":
			quiet = true
		case "-json", "--json":
			asJSON = true
		default:
			return nil, false, false, false
		}
	}
	// Where the positional arguments are one run of args (all of them,
	// or all but switches before and after, as weftime's "-q FILE
	// N=..."), pos is that part of args, not a copy (an allocation of
	// every check; issue 13, stop 43); its cap ends with it, and its
	// reader, checkSplit, does not write it.
	lo, hi := 0, len(args)
	for lo < hi && isSwitch(args[lo]) {
		lo++
	}
	for hi > lo && isSwitch(args[hi-1]) {
		hi--
	}
	run := true
	for _, a := range args[lo:hi] {
		if isSwitch(a) {
			run = false
			break
		}
	}
	if run {
		return args[lo:hi:hi], asJSON, quiet, true
	}
	pos = make([]string, 0, len(args))
	for _, a := range args {
		if !isSwitch(a) {
			pos = append(pos, a)
		}
	}
	return pos, asJSON, quiet, true
}

func noProgress() {}

func checkVerb(env *frontend.Env, args []string) int {
	// A process that runs many checks collects between them, not in
	// their middle (gcpolicy.Between; nothing in the weft command's one
	// check, whose heap is still empty).
	gcpolicy.Between()
	pos, asJSON, quiet, ok := checkArgs(env, args)
	if !ok {
		return 2
	}
	var assignBuf [4][2]string
	file, nfiles, assigns := checkSplit(pos, &assignBuf)
	if nfiles != 1 {
		return frontend.Usagef(env, "usage: weft check FILE.weft [NAME=VALUE ...] [flags] (weft help check .weft)")
	}
	sizes, ok := sizeArgs(env, assigns)
	if !ok {
		return 2
	}
	// The context holds the check's diagnostic list: one object, where
	// the list, which escapes through ctx.Errs, had been one of its own
	// (issue 13, stop 43).
	ctx := &CheckContext{Env: env, Sizes: sizes, WantSummary: !quiet && !asJSON}
	errs := &ctx.errs
	ctx.Errs = errs
	f, ok := parse(env, file, errs)
	if !ok {
		return 2
	}
	if !errs.HasErrors() {
		l, err := lib.Std()
		if err != nil {
			fmt.Fprintf(env.Stderr, "weft: standard library: %v\n", err)
			return 2
		}
		// Lean: the checkers read the program's constants, procs and
		// configs, never the per-node index Check also builds.
		prog := check.Lean(f, l, errs)
		if AfterFrontEnd != nil {
			AfterFrontEnd()
		}
		ctx.File, ctx.Prog = f, prog
		stop := noProgress
		if env.StderrIsTerminal { // the label only where a line can show it
			stop = frontend.Progress(env, "weft check "+file)
		}
		runCheckers(ctx)
		stop()
		defer func() {
			// After the diagnostics: what was checked, so that a pass is
			// never silent about having checked nothing (issue 14).
			if errs.HasErrors() || quiet || asJSON {
				return
			}
			for _, s := range ctx.Summary {
				fmt.Fprintf(env.Stderr, "weft check: %s\n", s)
			}
			if len(ctx.Summary) == 0 {
				fmt.Fprintf(env.Stderr, "weft check: %s: static checks passed; no sync check ran (no proc with device code, or no sizes)\n", file)
			}
		}()
	}
	return frontend.Report(env, errs, asJSON)
}

func fmtVerb(env *frontend.Env, args []string) int {
	fs := flag.NewFlagSet("fmt", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	asJSON := fs.Bool("json", false, "diagnostics as JSON on stdout")
	write := fs.Bool("w", false, "rewrite the file in place (only if it changes)")
	showDiff := fs.Bool("d", false, "print a diff against the canonical form instead; exit 1 if they differ")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) != 1 {
		return frontend.Usagef(env, "usage: weft fmt FILE.weft [flags] (weft help fmt .weft)")
	}
	src, ok := frontend.ReadSource(env, pos[0])
	if !ok {
		return 2
	}
	var errs diag.List
	f := syntax.Parse(src, &errs)
	if errs.HasErrors() {
		// Never rewrite a file that did not parse: the printer would drop
		// what the parser skipped.
		return frontend.Report(env, &errs, *asJSON)
	}
	out := []byte(syntax.Print(f))
	switch {
	case *showDiff:
		d := diff.Diff(pos[0]+".orig", src.Src, pos[0], out)
		if len(d) == 0 {
			return 0
		}
		env.Stdout.Write(d)
		if *write {
			break
		}
		return 1
	case !*write:
		env.Stdout.Write(out)
		return 0
	}
	if *write && string(out) != string(src.Src) {
		if !frontend.WriteFile(env, pos[0], out) {
			return 2
		}
	}
	return 0
}

// sizeArgs reads NAME=VALUE size arguments (N=1024); a value that is not an
// integer is a usage error, already printed when ok is false.
func sizeArgs(env *frontend.Env, assigns [][2]string) (map[string]int64, bool) {
	var sizes map[string]int64 // nil without sizes: a map per check for nothing (stop 32)
	if len(assigns) > 0 {
		sizes = make(map[string]int64, len(assigns))
	}
	for _, a := range assigns {
		v, err := strconv.ParseInt(a[1], 0, 64)
		if err != nil {
			frontend.Usagef(env, "%s=%s: want an integer", a[0], a[1])
			return nil, false
		}
		sizes[a[0]] = v
	}
	return sizes, true
}
