package lib

import "weft.dev/weft/diag"

// Codes of library loading and instruction declarations (W0240-W0249).
// Package check registers the rest of the W02xx table.
func init() {
	diag.Register("weft", []diag.Code{
		{Code: "W0240", Summary: "library name defined twice"},
		{Code: "W0241", Summary: "library global is not `Name = Kind(...)` or `Name = Other`, or has an unknown kind"},
		{Code: "W0242", Summary: "sync timeline lists a qualitative timeline as both full and temp."},
		{Code: "W0243", Summary: "library declaration field missing, unknown or of the wrong type"},
		{Code: "W0244", Summary: "library declaration names something that is not declared (memory base, native unit, qualitative timeline, alias)"},
		{Code: "W0245", Summary: "bad @instr header: tl= must be an instruction timeline, unit= and cuda= are required"},
		{Code: "W0246", Summary: "bad @access decorator: unknown parameter, quality or timeline"},
	})
}
