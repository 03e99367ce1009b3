package cudagen

import "weft.dev/weft/diag"

// Diagnostic codes of the code generator (W09xx).
const (
	codeUnsupported = "W0901" // a construct the code generator cannot lower
	codeName        = "W0902" // unknown name, or a name of the wrong kind
	codeConst       = "W0903" // a value that must be a compile-time constant is not
	codeThreads     = "W0904" // a cuda_threads loop or CudaWarps block cannot be lowered
	codeDevice      = "W0905" // a malformed CudaDeviceFunction
	codeFence       = "W0906" // a Fence whose collective has no barrier to lower to
	codeBarrier     = "W0907" // an Arrive/Await that cannot be lowered for its barrier memory
	codeInstr       = "W0908" // an instruction call whose template cannot be filled
	codeMemory      = "W0909" // an allocation or access the memory type does not allow here
	codeDist        = "W0910" // distributed indices that cannot be deduced
	codeHarness     = "W0911" // a proc the --harness main.cu cannot drive
)

func init() {
	diag.Register("weft", []diag.Code{
		{Code: codeUnsupported, Summary: "codegen: construct cannot be lowered to CUDA C++"},
		{Code: codeName, Summary: "codegen: unknown name or name of the wrong kind"},
		{Code: codeConst, Summary: "codegen: value must be a compile-time constant"},
		{Code: codeThreads, Summary: "codegen: cuda_threads loop or CudaWarps block cannot be lowered"},
		{Code: codeDevice, Summary: "codegen: malformed CudaDeviceFunction (launch shape, task loops, warp_config)"},
		{Code: codeFence, Summary: "codegen: Fence collective has no matching CUDA barrier"},
		{Code: codeBarrier, Summary: "codegen: Arrive/Await cannot be lowered for its barrier memory"},
		{Code: codeInstr, Summary: "codegen: instruction call does not fit its CUDA template"},
		{Code: codeMemory, Summary: "codegen: memory type does not allow this allocation or access here"},
		{Code: codeDist, Summary: "codegen: distributed indices of an allocation cannot be deduced"},
		{Code: codeHarness, Summary: "codegen: --harness cannot drive this proc"},
	})
}
