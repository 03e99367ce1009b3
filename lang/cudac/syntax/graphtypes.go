package syntax

// The CUDA graph API's types (cuda_runtime_api.h, driver_types.h), known to
// the parser as typedef names; lang/cudac/sem/graph.go models them.
var graphTypeNames = []string{"cudaGraph_t", "cudaGraphExec_t", "cudaGraphNode_t", "cudaGraphConditionalHandle",
	"cudaKernelNodeParams", "cudaGraphNodeParams", "cudaConditionalNodeParams", "cudaGraphNodeType",
	"cudaGraphConditionalNodeType"}

func init() { BuiltinTypeNames = append(BuiltinTypeNames, graphTypeNames...) }
