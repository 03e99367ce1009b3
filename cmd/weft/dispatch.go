package main

import (
	"strings"

	"weft.dev/weft/frontend"
)

// dispatch finds the source file among args (the first argument that is not
// a flag and has a registered extension) and hands all args to its front
// end's verb.
func dispatch(env *frontend.Env, verb string, args []string) int {
	var fe *frontend.FrontEnd
	for _, a := range args {
		if strings.HasPrefix(a, "-") {
			continue
		}
		if fe = frontend.ForFile(a); fe != nil {
			break
		}
	}
	if fe == nil {
		return frontend.Usagef(env, "%s: no source file (.weft, .cu, .adl or .prism) among the arguments", verb)
	}
	v := fe.Verb(verb)
	if v == nil {
		return frontend.Usagef(env, "%s: not supported for %s files", verb, fe.Name)
	}
	return v(env, args)
}
