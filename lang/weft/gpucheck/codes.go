package gpucheck

import "weft.dev/weft/diag"

// Diagnostic codes of the collective analysis (W03xx device structure and
// tilings, W04xx timelines, collective requirements and memory
// permissions).
const (
	codeDeviceArgs    = "W0301"
	codeDeviceWhere   = "W0302"
	codeTasksNest     = "W0303"
	codeTasksWhere    = "W0304"
	codeLoopMode      = "W0305"
	codeThreadsBounds = "W0306"
	codeThreadsFit    = "W0307"
	codeUnit          = "W0308"
	codeWarps         = "W0309"
	codeAsync         = "W0310"
	codeWith          = "W0311"
	codeDeviceConst   = "W0312"
	codeProcCall      = "W0313"

	codeInstrTL     = "W0401"
	codeInstrUnit   = "W0402"
	codeScalarWrite = "W0403"
	codeAlloc       = "W0404"
	codeRead        = "W0405"
	codeWrite       = "W0406"
)

func init() {
	diag.Register("weft", []diag.Code{
		{Code: codeDeviceArgs, Summary: "invalid CudaDeviceFunction arguments (blockDim or warp_config, clusterDim, blocks_per_sm, CudaWarpConfig)"},
		{Code: codeDeviceWhere, Summary: "CudaDeviceFunction opened outside CPU code"},
		{Code: codeTasksNest, Summary: "the only child of CudaDeviceFunction must be a nest of cuda_tasks loops"},
		{Code: codeTasksWhere, Summary: "cuda_tasks loop outside the top-level nest of a CudaDeviceFunction"},
		{Code: codeLoopMode, Summary: "loop mode not allowed here (CPU code allows only seq and par loops; device code seq and cuda_threads)"},
		{Code: codeThreadsBounds, Summary: "cuda_threads needs lo = 0 and a compile-time constant hi"},
		{Code: codeThreadsFit, Summary: "cuda_threads loop cannot subdivide its scope's collective (e.g. it needs more threads than the scope has)"},
		{Code: codeUnit, Summary: "invalid collective unit"},
		{Code: codeWarps, Summary: "invalid CudaWarps block (unknown name, range, nesting)"},
		{Code: codeAsync, Summary: "invalid CudaAsync block (outside device code, nested, or not an async instruction timeline)"},
		{Code: codeWith, Summary: "unknown with-block context"},
		{Code: codeDeviceConst, Summary: "launch parameter is not a compile-time constant"},
		{Code: codeProcCall, Summary: "proc called in device code (procs are called only from CPU code; device code calls instructions)"},
		{Code: codeInstrTL, Summary: "wrong instr-tl: instruction used outside a scope of its instruction timeline"},
		{Code: codeInstrUnit, Summary: "wrong collective unit for an instruction"},
		{Code: codeScalarWrite, Summary: "scalar write or reduce in device code executed by more than one thread"},
		{Code: codeAlloc, Summary: "memory type cannot be allocated in this scope's timeline"},
		{Code: codeRead, Summary: "memory type does not allow reads in this scope's timeline"},
		{Code: codeWrite, Summary: "memory type does not allow writes in this scope's timeline"},
	})
}
