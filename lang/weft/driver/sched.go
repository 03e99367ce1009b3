package driver

import (
	"flag"
	"fmt"
	"sort"
	"strings"

	"weft.dev/weft/diag"
	"weft.dev/weft/frontend"
	"weft.dev/weft/lang/weft/check"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/sched"
	"weft.dev/weft/lang/weft/syntax"
)

// schedVerb implements `weft sched FILE.weft SCRIPT.star [-o OUT]`: it runs
// the Starlark schedule script over the file (package sched), prints the
// scheduled file in canonical syntax, then runs `weft check`'s static
// checks on the result (seed 000 §2.3: the rewrites keep seq[p1] ≡ seq[pN];
// the checks, the sync check included, establish seq[pN] ≡ par[pN]).
func schedVerb(env *frontend.Env, args []string) int {
	fs := flag.NewFlagSet("sched", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	asJSON := fs.Bool("json", false, "diagnostics as JSON on stdout (needs -o)")
	out := fs.String("o", "", "`OUT`: write the scheduled file there instead of to stdout")
	noCheck := fs.Bool("no-check", false, "do not run weft check on the result")
	trace := fs.Bool("trace", false, "print the rewritten proc to stderr after every rewrite")
	timeout := fs.Duration("script-timeout", sched.DefaultTimeout, "`D`: stop the schedule script (W0950) after this wall time")
	scriptMem := frontend.ByteSize(sched.DefaultMemory)
	fs.Var(&scriptMem, "script-memory", "`BYTES`: stop the schedule script (W0950) when it has allocated more than BYTES")
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
	if len(files) != 2 {
		return frontend.Usagef(env, "usage: weft sched FILE.weft SCRIPT.star [NAME=VALUE ...] [flags] (weft help sched .weft)")
	}
	if *asJSON && *out == "" {
		// stdout carries the JSON diagnostics, so the program needs a file.
		return frontend.Usagef(env, "weft sched --json needs -o OUT for the scheduled file")
	}
	sizes, ok := sizeArgs(env, assigns)
	if !ok {
		return 2
	}
	var errs diag.List
	f, ok := parse(env, files[0], &errs)
	if !ok {
		return 2
	}
	script, ok := frontend.ReadSource(env, files[1])
	if !ok {
		return 2
	}
	if errs.HasErrors() {
		return frontend.Report(env, &errs, *asJSON)
	}
	l, err := lib.Std()
	if err != nil {
		fmt.Fprintf(env.Stderr, "weft: standard library: %v\n", err)
		return 2
	}
	// The input must be a valid program: rewrites rely on resolved names.
	check.Check(f, l, &errs)
	if errs.HasErrors() {
		return frontend.Report(env, &errs, *asJSON)
	}
	opts := sched.Options{Lib: l, Print: env.Stderr, Timeout: *timeout, MaxMemory: uint64(scriptMem)}
	if *trace {
		opts.Trace = env.Stderr
	}
	stop := frontend.Progress(env, "weft sched "+script.Name)
	res := sched.Run(f, script, opts, &errs)
	stop()
	if errs.HasErrors() {
		return frontend.Report(env, &errs, *asJSON)
	}
	text := []byte(syntax.Print(res.File))
	if len(sizes) > 0 {
		// The result is checked at these sizes: its `# check:` lines say
		// so, so that a later `weft check OUT` checks the same thing and
		// not sizes the rewrites' asserts may exclude (issue 14).
		text = setCheckSizes(text, sizes)
	}
	name := "<stdout>"
	if *out != "" {
		name = *out
		if !frontend.WriteFile(env, *out, text) {
			return 2
		}
	} else {
		env.Stdout.Write(text)
	}
	for _, r := range res.Reassociated {
		fmt.Fprintf(env.Stderr, "weft sched: note: %s lets reductions into one element commute; float results may differ by reassociation\n", r)
	}
	if *noCheck {
		fmt.Fprintf(env.Stderr, "weft sched: %d rewrites applied; weft check not run (--no-check)\n", res.Steps)
		return frontend.Report(env, &errs, *asJSON)
	}
	// Check the printed text, so diagnostics point into what the user sees.
	src := diag.NewFile(name, text)
	f2 := syntax.Parse(src, &errs)
	if !errs.HasErrors() {
		prog := check.Lean(f2, l, &errs) // as weft check
		// Checker reports (sync statistics) go to stderr: stdout holds the program.
		cenv := *env
		cenv.Stdout = env.Stderr
		ctx := &CheckContext{Env: &cenv, File: f2, Prog: prog, Sizes: sizes, Errs: &errs}
		runCheckers(ctx)
	}
	if errs.HasErrors() {
		fmt.Fprintf(env.Stderr, "weft sched: %d rewrites applied; weft check rejects the result:\n", res.Steps)
		return frontend.Report(env, &errs, *asJSON)
	}
	fmt.Fprintf(env.Stderr, "weft sched: %d rewrites applied; weft check: ok\n", res.Steps)
	return frontend.Report(env, &errs, *asJSON)
}

// setCheckSizes rewrites the `# check: NAME=VALUE ...` lines of text so
// that the names in sizes have those values (added where missing); other
// lines and names are kept.
func setCheckSizes(text []byte, sizes map[string]int64) []byte {
	lines := strings.SplitAfter(string(text), "\n")
	for i, line := range lines {
		body := strings.TrimRight(line, "\n")
		t := strings.TrimSpace(body)
		if !strings.HasPrefix(t, "#") {
			continue
		}
		rest, ok := strings.CutPrefix(strings.TrimSpace(strings.TrimPrefix(t, "#")), "check:")
		if !ok {
			continue
		}
		indent := body[:len(body)-len(strings.TrimLeft(body, " \t"))]
		seen := map[string]bool{}
		var fields []string
		for _, f := range strings.Fields(rest) {
			if k, _, found := strings.Cut(f, "="); found {
				if v, given := sizes[k]; given {
					f = fmt.Sprintf("%s=%d", k, v)
					seen[k] = true
				}
			}
			fields = append(fields, f)
		}
		names := make([]string, 0, len(sizes))
		for k := range sizes {
			if !seen[k] {
				names = append(names, k)
			}
		}
		sort.Strings(names)
		for _, k := range names {
			fields = append(fields, fmt.Sprintf("%s=%d", k, sizes[k]))
		}
		lines[i] = indent + "# check: " + strings.Join(fields, " ") + line[len(body):]
	}
	return []byte(strings.Join(lines, ""))
}
