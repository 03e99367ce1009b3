package interp

import (
	"weft.dev/weft/diag"
	"weft.dev/weft/lang/audala/check"
	"weft.dev/weft/lang/audala/syntax"
)

// Load parses and checks src; it returns nil with diagnostics in diags when
// the program is rejected.
func Load(file *diag.File, diags *diag.List) *check.Program {
	prog := syntax.Parse(file, diags)
	if prog == nil {
		return nil
	}
	return check.Check(file, prog, diags)
}
