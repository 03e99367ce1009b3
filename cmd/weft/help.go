package main

import (
	"fmt"
	"io"

	"weft.dev/weft/diag"
	"weft.dev/weft/frontend"
)

const version = "0.1.0"

func usage(w io.Writer) {
	fmt.Fprint(w, `usage: weft <command> FILE [flags]

commands:
  check FILE   static checks; .weft adds the sync check, .cu a checked run
  run   FILE   execute on the CPU
  build FILE   emit CUDA C++ (and host C) for nvcc
  fmt   FILE   print canonically (-w rewrites, -d shows a diff)
  sched FILE SCRIPT   apply a schedule (.weft)
  help [command|codes]   this text, a command's flags, or every diagnostic code
  version      print the version

The file's extension picks the language:
`)
	for _, fe := range frontend.All() {
		fmt.Fprintf(w, "  %-14v %s\n", fe.Extensions, fe.Summary)
	}
	fmt.Fprint(w, `
exit status: 0 success, 1 program rejected (diagnostics printed), 2 usage or I/O error
`)
}

func help(env *frontend.Env, args []string) int {
	if len(args) == 0 {
		usage(env.Stdout)
		return 0
	}
	switch args[0] {
	case "codes":
		diag.WriteMarkdown(env.Stdout)
		return 0
	case "check", "run", "build", "fmt", "sched":
		for _, fe := range frontend.All() {
			if fe.Verb(args[0]) == nil {
				continue
			}
			fmt.Fprintf(env.Stdout, "weft %s %v:\n", args[0], fe.Extensions)
			if fe.Help != nil {
				fe.Help(env.Stdout, args[0])
			}
		}
		return 0
	}
	return frontend.Usagef(env, "help: unknown topic %q", args[0])
}
