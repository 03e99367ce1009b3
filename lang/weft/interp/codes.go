package interp

import "weft.dev/weft/diag"

// Diagnostic codes of the interpreter and `weft run` (W08xx).
const (
	CodeOOB         = "W0801" // index or window out of bounds
	CodeUninit      = "W0802" // read of uninitialized memory
	CodeAssert      = "W0803" // assert failed
	CodeDivZero     = "W0804" // division by zero
	CodeArgShape    = "W0805" // argument shape or type does not match the parameter
	CodeArgValue    = "W0806" // bad argument value (size <= 0, missing argument)
	CodeUnsupported = "W0807" // construct without a sequential meaning
	CodeUnknown     = "W0808" // unknown name or proc
	CodeRecursion   = "W0809" // recursive proc call
	CodeRunArg      = "W0810" // bad NAME=VALUE on the command line
	CodeSteps       = "W0811" // step limit exceeded
	CodeCompare     = "W0812" // weft run --compare: a result differs from the reference
	CodeMemory      = "W0813" // memory limit exceeded
)

func init() {
	diag.Register("weft", []diag.Code{
		{Code: CodeOOB, Summary: "index or window out of bounds at run time"},
		{Code: CodeUninit, Summary: "read of uninitialized memory at run time"},
		{Code: CodeAssert, Summary: "assert failed at run time"},
		{Code: CodeDivZero, Summary: "division or modulo by zero at run time"},
		{Code: CodeArgShape, Summary: "argument shape or element type does not match the parameter"},
		{Code: CodeArgValue, Summary: "bad argument value (size not positive, argument missing)"},
		{Code: CodeUnsupported, Summary: "construct the sequential interpreter cannot give a meaning to"},
		{Code: CodeUnknown, Summary: "unknown name or proc (interpreter)"},
		{Code: CodeRecursion, Summary: "recursive proc call"},
		{Code: CodeRunArg, Summary: "bad NAME=VALUE argument of weft run"},
		{Code: CodeSteps, Summary: "the run exceeded its step limit (weft run --max-steps)"},
		{Code: CodeCompare, Summary: "weft run --compare: an array differs from the reference .npy beyond the tolerance"},
		{Code: CodeMemory, Summary: "the run exceeded its memory limit (weft run --max-memory)"},
	})
}
