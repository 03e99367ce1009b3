package main

import (
	"fmt"
	"os"
	"runtime/debug"
	"strings"

	"weft.dev/weft/frontend"
)

// exitCrash is the exit status of an internal error (a recovered panic),
// distinct from 0 success, 1 program rejected and 2 usage or I/O error, so
// that a script can tell a crash from a bad flag (issue 14). Documented in
// usage and the README.
const exitCrash = 3

// traceEnv names the environment variable that makes a crash print the Go
// stack trace.
const traceEnv = "WEFT_TRACEBACK"

// guard runs verb over args and turns a panic into one line naming the
// command and the file, asking for a report, with status exitCrash. The Go
// trace is printed only when WEFT_TRACEBACK is set to a non-empty value
// other than 0.
func guard(env *frontend.Env, verb string, args []string, run func() int) (status int) {
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		file := sourceArg(args)
		if file == "" {
			file = "(no file)"
		}
		fmt.Fprintf(env.Stderr, "weft: internal error in weft %s %s: %v\n", verb, file, r)
		if t := os.Getenv(traceEnv); t != "" && t != "0" {
			env.Stderr.Write(debug.Stack())
		} else {
			fmt.Fprintf(env.Stderr, "weft: this is a bug in weft: please report it with the input file (%s=1 prints the Go trace)\n", traceEnv)
		}
		status = exitCrash
	}()
	return run()
}

// sourceArg is the first argument that names a file of a registered
// language, else the first non-flag argument.
func sourceArg(args []string) string {
	first := ""
	for _, a := range args {
		if strings.HasPrefix(a, "-") {
			continue
		}
		if frontend.ForFile(a) != nil {
			return a
		}
		if first == "" {
			first = a
		}
	}
	return first
}

// globalFlags removes the flags every verb takes (--max-input BYTES,
// --force) from args and stores them in env. ok is false after a usage
// error, already printed.
func globalFlags(env *frontend.Env, verb string, args []string) (rest []string, ok bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || a == "-" || a == "--" {
			rest = append(rest, a)
			continue
		}
		switch name {
		case "force":
			switch {
			case !hasVal || val == "true" || val == "1":
				env.Force = true
			case val == "false" || val == "0":
				env.Force = false
			default:
				frontend.Usagef(env, "%s: invalid value %q for flag --force (weft help %s)", verb, val, verb)
				return nil, false
			}
		case "max-input":
			if !hasVal {
				if i+1 == len(args) {
					frontend.Usagef(env, "%s: flag --max-input needs a value (weft help %s)", verb, verb)
					return nil, false
				}
				i++
				val = args[i]
			}
			n, err := frontend.ParseBytes(val)
			if err != nil {
				frontend.Usagef(env, "%s: invalid value %q for flag --max-input: want a byte count such as 1000000, 64M or 2G (weft help %s)", verb, val, verb)
				return nil, false
			}
			env.MaxInput = n
			if n == 0 {
				env.MaxInput = -1 // explicitly unlimited
			}
		default:
			rest = append(rest, a)
		}
	}
	return rest, true
}
