package main

import (
	"path/filepath"
	"strings"

	"weft.dev/weft/frontend"
)

// dispatch finds the source file among args (the first argument that is not
// a flag and has a registered extension) and hands all args to its front
// end's verb. -h, -help and --help anywhere print the verb's help (for the
// file's language when a file is given) instead, with status 0.
func dispatch(env *frontend.Env, verb string, args []string) int {
	var fe *frontend.FrontEnd
	wantHelp := false
	unknown := ""
	for _, a := range args {
		if a == "-h" || a == "-help" || a == "--help" {
			wantHelp = true
			continue
		}
		if strings.HasPrefix(a, "-") || fe != nil {
			continue
		}
		if fe = frontend.ForFile(a); fe == nil && unknown == "" && filepath.Ext(a) != "" && !strings.Contains(a, "=") {
			unknown = a
		}
	}
	if wantHelp {
		return verbHelp(env, verb, fe)
	}
	if fe == nil {
		if unknown != "" {
			return frontend.Usagef(env, "%s: %s: unknown file type %s (want .weft, .cu, .adl or .prism)", verb, unknown, filepath.Ext(unknown))
		}
		return frontend.Usagef(env, "%s: no source file (.weft, .cu, .adl or .prism) among the arguments (weft help %s)", verb, verb)
	}
	v := fe.Verb(verb)
	if v == nil {
		return frontend.Usagef(env, "%s", notSupported(verb, fe))
	}
	return v(env, args)
}
