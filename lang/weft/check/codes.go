package check

import "weft.dev/weft/diag"

// The W02xx table (W0240-W0249 belong to package lib). Each code is tested
// by at least one case in testdata/*.weft (TestEveryCodeTested).
var codes = []diag.Code{
	{Code: "W0201", Summary: "undefined name"},
	{Code: "W0202", Summary: "name declared twice in the same scope"},
	{Code: "W0203", Summary: "unknown type, or a type that cannot appear here (dims or memory on a control type, allocating a control value or a window)"},
	{Code: "W0204", Summary: "unknown memory, a memory of the wrong kind (data vs barrier), an abstract memory allocated, or memory parameters/tile shape that do not fit"},
	{Code: "W0205", Summary: "control expression is not quasi-affine (seed 000 Fig. 1: multiply, divide and modulo only by constants)"},
	{Code: "W0206", Summary: "expected a control expression (an integer built from sizes, indices, iterators and constants)"},
	{Code: "W0207", Summary: "expected a data expression (data reads and literals; control values and barriers are not data)"},
	{Code: "W0208", Summary: "expected a boolean expression (comparisons of control expressions, and/or/not, bool parameters)"},
	{Code: "W0209", Summary: "wrong number of indices for the tensor's rank, or a point access where a window is needed"},
	{Code: "W0210", Summary: "index or window slice statically out of bounds"},
	{Code: "W0211", Summary: "bad loop: unknown loop mode, bad keyword argument, cuda_threads bounds not (0, constant), or parallel loop outside a CudaDeviceFunction"},
	{Code: "W0212", Summary: "call to an unknown proc or instruction"},
	{Code: "W0213", Summary: "call arguments do not match the parameters (count, unknown or repeated keyword)"},
	{Code: "W0214", Summary: "argument of the wrong kind or data type for its parameter"},
	{Code: "W0215", Summary: "argument memory does not derive from the parameter's memory"},
	{Code: "W0216", Summary: "argument shape does not match the parameter's dimensions"},
	{Code: "W0217", Summary: "invalid assignment: target is not data, or a window statement of something that is not data"},
	{Code: "W0218", Summary: "expected a barrier expression (a barrier variable, optionally indexed)"},
	{Code: "W0219", Summary: "unknown timeline, or a timeline not allowed here (CudaAsync needs an async instruction timeline)"},
	{Code: "W0220", Summary: "bad collective unit expression (unknown unit, scaling an unscalable unit, wrong unit arguments)"},
	{Code: "W0221", Summary: "bad with block: unknown context, bad arguments, or CudaDeviceFunction/CudaAsync/CudaWarps in the wrong place"},
	{Code: "W0222", Summary: "bad decorator or proc declaration"},
	{Code: "W0223", Summary: "bad module-level declaration"},
	{Code: "W0224", Summary: "memory does not permit this access here (seed 002 memory permissions: CPU, in-order CUDA, CudaAsync)"},
	{Code: "W0225", Summary: "ReverseArrive/ReverseAwait on a barrier whose memory does not support it (mbarriers only)"},
	{Code: "W0226", Summary: "free of something that is not a local allocation"},
	{Code: "W0227", Summary: "bad special window statement (window type parameters, or a source memory the window does not accept)"},
	{Code: "W0228", Summary: "barrier count must be an integer constant"},
	{Code: "W0229", Summary: "bad config declaration or use (unknown field, wrong kind, config in CUDA code); a warning when a config is not declared and its fields are inferred from their uses"},
	{Code: "W0230", Summary: "an Exo form Weft deliberately does not accept; the message names the Weft form (docs/weft-reference.md, \"Coming from Exo\")"},
}

func init() { diag.Register("weft", codes) }
