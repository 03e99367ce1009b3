package main

import (
	"fmt"
	"io"
	"strings"

	"weft.dev/weft/diag"
	"weft.dev/weft/frontend"
	"weft.dev/weft/validate"
)

const version = "0.1.0"

// verbs are the commands every front end may implement, in help order.
var verbs = []struct{ name, args, summary string }{
	{"check", "FILE", "static checks; .weft adds the sync check, .cu a checked run"},
	{"run", "FILE", "execute on the CPU (the reference meaning)"},
	{"build", "FILE -o DIR", "emit CUDA C++ (and host C) for nvcc"},
	{"fmt", "FILE", "print canonically (-w rewrites, -d shows a diff)"},
	{"sched", "FILE SCRIPT", "apply a schedule script (.weft)"},
}

// docs are the pages of each language, for `weft help LANG`.
var docs = map[string]string{
	"weft":   "docs/weft-tutorial.md, docs/weft-reference.md and the other docs/weft-*.md",
	"cudac":  "docs/cudac.md",
	"audala": "docs/audala.md",
	"prism":  "docs/prism.md",
}

func usage(w io.Writer) {
	fmt.Fprint(w, "usage: weft COMMAND FILE [ARGS] [flags]\n\ncommands:\n")
	for _, v := range verbs {
		fmt.Fprintf(w, "  %-24s %s\n", v.name+" "+v.args, v.summary)
	}
	fmt.Fprintf(w, "  %-24s %s\n", "validate FILE", "build, run the generated CUDA in the CUDA-C semantics, compare with run")
	fmt.Fprintf(w, "  %-24s %s\n", "help [COMMAND] [LANG]", "this text, a command's flags (for one language), or a language's commands")
	fmt.Fprintf(w, "  %-24s %s\n", "help codes", "every diagnostic code (docs/diagnostics.md)")
	fmt.Fprintf(w, "  %-24s %s\n", "env", "where nvcc and the other tools are, and how to put nvcc on PATH")
	fmt.Fprintf(w, "  %-24s %s\n", "version", "print the version")
	fmt.Fprint(w, "\nThe file's extension picks the language (LANG: the name or the extension):\n")
	for _, fe := range frontend.All() {
		fmt.Fprintf(w, "  %-7s %-7s %s\n", strings.Join(fe.Extensions, " "), fe.Name, fe.Summary)
	}
	fmt.Fprint(w, `
Flags may be written -flag or --flag, before or after FILE; COMMAND -h prints its flags.
Every command also takes:
  --max-input BYTES  refuse input files (sources, scripts, .init) larger than BYTES
                     (default 16M; K, M, G suffixes; 0: no limit)
  --force            let build replace files in its output directory that weft did not generate
Exit status: 0 success, 1 program rejected (diagnostics printed), 2 usage or I/O error,
3 internal error (a bug in weft: please report it; WEFT_TRACEBACK=1 prints the Go trace).
Outputs (fmt -w, build -o, run --out, sched -o) are replaced atomically: on an
error or an interrupt nothing partial is left.
`)
}

// lookupLang finds a front end by name ("cudac"), extension (".cu" or "cu")
// or a file name with its extension.
func lookupLang(s string) *frontend.FrontEnd {
	for _, fe := range frontend.All() {
		if strings.EqualFold(s, fe.Name) {
			return fe
		}
	}
	if fe := frontend.ForExt(s); fe != nil {
		return fe
	}
	if fe := frontend.ForExt("." + s); fe != nil {
		return fe
	}
	return frontend.ForFile(s)
}

func isVerb(s string) bool {
	for _, v := range verbs {
		if v.name == s {
			return true
		}
	}
	return false
}

// help implements `weft help [codes | COMMAND [LANG] | LANG]`.
func help(env *frontend.Env, args []string) int {
	switch {
	case len(args) == 0:
		usage(env.Stdout)
		return 0
	case len(args) == 1 && args[0] == "codes":
		diag.WriteMarkdown(env.Stdout)
		return 0
	case len(args) == 1 && args[0] == "validate":
		fmt.Fprintln(env.Stdout, validate.Help)
		return 0
	case len(args) == 2 && isVerb(args[1]) && !isVerb(args[0]):
		return help(env, []string{args[1], args[0]}) // weft help LANG COMMAND
	case len(args) <= 2 && isVerb(args[0]):
		var only *frontend.FrontEnd
		if len(args) == 2 {
			if only = lookupLang(args[1]); only == nil {
				return frontend.Usagef(env, "help: unknown language %q (want %s)", args[1], langNames())
			}
		}
		return verbHelp(env, args[0], only)
	case len(args) == 1 && lookupLang(args[0]) != nil:
		fe := lookupLang(args[0])
		fmt.Fprintf(env.Stdout, "%s (%s): %s\n", fe.Name, strings.Join(fe.Extensions, " "), fe.Summary)
		if d := docs[fe.Name]; d != "" {
			fmt.Fprintf(env.Stdout, "documentation: %s\n", d)
		}
		for _, v := range verbs {
			if fe.Verb(v.name) != nil {
				fmt.Fprintln(env.Stdout)
				writeVerbHelp(env.Stdout, fe, v.name)
			}
		}
		return 0
	}
	return frontend.Usagef(env, "help: unknown topic %q (want codes, a command: check run build fmt sched, or a language: %s)", strings.Join(args, " "), langNames())
}

// verbHelp prints each language's part of a command's help (only's, when
// only is set), separated by blank lines, and names the languages without
// the command.
func verbHelp(env *frontend.Env, verb string, only *frontend.FrontEnd) int {
	if only != nil {
		if only.Verb(verb) == nil {
			return frontend.Usagef(env, "%s", notSupported(verb, only))
		}
		writeVerbHelp(env.Stdout, only, verb)
		return 0
	}
	var missing []string
	first := true
	for _, fe := range frontend.All() {
		if fe.Verb(verb) == nil {
			missing = append(missing, strings.Join(fe.Extensions, " "))
			continue
		}
		if !first {
			fmt.Fprintln(env.Stdout)
		}
		first = false
		writeVerbHelp(env.Stdout, fe, verb)
	}
	if len(missing) > 0 {
		fmt.Fprintf(env.Stdout, "\n(weft %s is not available for %s files)\n", verb, strings.Join(missing, ", "))
	}
	return 0
}

func writeVerbHelp(w io.Writer, fe *frontend.FrontEnd, verb string) {
	if fe.Help != nil {
		fe.Help(w, verb)
	}
}

func notSupported(verb string, fe *frontend.FrontEnd) string {
	var have []string
	for _, v := range verbs {
		if fe.Verb(v.name) != nil {
			have = append(have, v.name)
		}
	}
	return fmt.Sprintf("%s: not available for %s files (%s has %s)", verb, strings.Join(fe.Extensions, " "), fe.Name, strings.Join(have, ", "))
}

func langNames() string {
	var names []string
	for _, fe := range frontend.All() {
		names = append(names, fe.Name)
	}
	return strings.Join(names, ", ")
}
