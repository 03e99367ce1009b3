package driver

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/diff"

	"weft.dev/weft/diag"
	"weft.dev/weft/frontend"
	"weft.dev/weft/lang/weft/check"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// buildVerb implements `weft build` for .weft files. build.go (code
// generation) assigns it in its init; until then the verb says it is not
// available.
var buildVerb frontend.Verb

// buildHelp, if set by build.go, prints the flags of `weft build`.
var buildHelp func(w io.Writer)

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

func help(w io.Writer, verb string) {
	switch verb {
	case "check":
		fmt.Fprintln(w, `weft check FILE.weft [NAME=VALUE ...] [--json] [checker flags]
  NAME=VALUE   concrete sizes for the checks that need them (e.g. N=1024)
  --json       diagnostics as JSON`)
		fs := flag.NewFlagSet("check", flag.ContinueOnError)
		for _, c := range checkers {
			if c.Flags != nil {
				c.Flags(fs)
			}
		}
		fs.SetOutput(w)
		fs.PrintDefaults()
	case "run":
		fmt.Fprintln(w, `weft run FILE.weft [--proc NAME] [NAME=VALUE ...] [--seed S] [--inputs DIR] [--out DIR] [--compare DIR [--rtol R] [--atol A]]
         [--print] [--max-steps N] [--json]
  --proc NAME   the proc to run (default: the file's only non-instruction proc)
  NAME=VALUE    a size/index/scalar argument (N=1024, flag=True, alpha=0.5) or an array argument:
                A=file.npy, A=zeros, A=ones, A=rand (uniform in [-1, 1) from --seed), A=iota (0, 1, 2, ...)
                (arrays default to zeros; sizes not given default to the file's first "# check:" line)
  --seed S      seed of A=rand (default 1)
  --out DIR     write every array argument to DIR/NAME.npy after the run
  --inputs DIR  write every array argument to DIR/NAME.npy before the run (inputs for the
                program of weft build --harness, whose results then compare with --out's)
  --compare DIR compare every array argument after the run with DIR/NAME.npy where it exists
                (e.g. the GPU results of weft build --harness): exit 1 with W0812 when
                |ref - x| > atol + rtol*|x| anywhere
  --rtol R, --atol A   tolerances of --compare (default 0: bit-exact)
  --print       print every array argument after the run
  --max-steps N stop with W0811 after N loop iterations, calls and allocated elements (0: no limit)
  --json        diagnostics as JSON`)
	case "build":
		if buildHelp != nil {
			buildHelp(w)
		}
	case "fmt":
		fmt.Fprintln(w, `weft fmt FILE.weft [-w] [-d]
  -w   rewrite the file in place
  -d   print a diff against the canonical form instead (exit 1 if they differ)`)
	}
}

// parseArgs parses flags placed before or after the positional arguments.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
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
		if i := strings.IndexByte(a, '='); i > 0 && isIdent(a[:i]) {
			assigns = append(assigns, [2]string{a[:i], a[i+1:]})
			continue
		}
		files = append(files, a)
	}
	return files, assigns
}

func isIdent(s string) bool {
	for i, c := range s {
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && '0' <= c && c <= '9') {
			return false
		}
	}
	return s != ""
}

func checkVerb(env *frontend.Env, args []string) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	asJSON := fs.Bool("json", false, "diagnostics as JSON")
	for _, c := range checkers {
		if c.Flags != nil {
			c.Flags(fs)
		}
	}
	pos, err := parseArgs(fs, args)
	if err != nil {
		return 2
	}
	files, assigns := splitAssignments(pos)
	if len(files) != 1 {
		return frontend.Usagef(env, "usage: weft check FILE.weft [NAME=VALUE ...] [--json]")
	}
	sizes := map[string]int64{}
	for _, a := range assigns {
		v, err := strconv.ParseInt(a[1], 0, 64)
		if err != nil {
			return frontend.Usagef(env, "%s=%s: want an integer", a[0], a[1])
		}
		sizes[a[0]] = v
	}
	var errs diag.List
	f, ok := parse(env, files[0], &errs)
	if !ok {
		return 2
	}
	if !errs.HasErrors() {
		l, err := lib.Std()
		if err != nil {
			fmt.Fprintf(env.Stderr, "weft: standard library: %v\n", err)
			return 2
		}
		prog := check.Check(f, l, &errs)
		ctx := &CheckContext{Env: env, File: f, Prog: prog, Sizes: sizes, Errs: &errs}
		runCheckers(ctx)
	}
	return frontend.Report(env, &errs, *asJSON)
}

func fmtVerb(env *frontend.Env, args []string) int {
	fs := flag.NewFlagSet("fmt", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	asJSON := fs.Bool("json", false, "diagnostics as JSON")
	write := fs.Bool("w", false, "rewrite the file in place")
	showDiff := fs.Bool("d", false, "print a diff against the canonical form")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) != 1 {
		return frontend.Usagef(env, "usage: weft fmt FILE.weft [-w] [-d]")
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
		if err := os.WriteFile(pos[0], out, 0o644); err != nil {
			fmt.Fprintf(env.Stderr, "weft: %v\n", err)
			return 2
		}
	}
	return 0
}
