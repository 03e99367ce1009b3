// Command weft is the toolchain's single binary: the same verbs (check, run,
// build, fmt, sched) for every language, picked by the file's extension.
package main

import (
	"fmt"
	"io"
	"os"

	// Initialized before go.starlark.net: drops Starlark's log line about
	// 4 GB of address space under ulimit -v (issue 14).
	_ "early.weft.dev/logfilter"
	"golang.org/x/term"

	"weft.dev/weft/frontend"
	"weft.dev/weft/internal/gcpolicy"
	"weft.dev/weft/safeio"
	"weft.dev/weft/validate"
)

func main() {
	// Outputs are written to temporaries and renamed (safeio); on SIGINT or
	// SIGTERM the temporaries are removed, so nothing partial is left.
	safeio.CleanupOnSignal()
	// Less GC while the heap is small, Go's defaults once it is not
	// (internal/gcpolicy; issue 13).
	gcpolicy.Set()
	os.Exit(main1(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// main1 is main without os.Exit, so testscript can run it in-process.
func main1(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	env := &frontend.Env{Stdout: stdout, Stderr: stderr, Stdin: stdin}
	if f, ok := stderr.(*os.File); ok {
		env.StderrIsTerminal = term.IsTerminal(int(f.Fd()))
	}
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	switch args[0] {
	case "check", "run", "build", "fmt", "sched":
		verb := args[0]
		rest, ok := globalFlags(env, verb, args[1:])
		if !ok {
			return 2
		}
		return guard(env, verb, rest, func() int { return dispatch(env, verb, rest) })
	case "validate":
		return guard(env, "validate", args[1:], func() int { return validate.Main(env, args[1:]) })
	case "help", "-h", "--help":
		return help(env, args[1:])
	case "env":
		return envCmd(env)
	case "version", "--version":
		fmt.Fprintln(stdout, "weft", version)
		return 0
	}
	fmt.Fprintf(stderr, "weft: unknown command %q\n", args[0])
	usage(stderr)
	return 2
}
