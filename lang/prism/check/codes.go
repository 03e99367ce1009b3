package check

import (
	"weft.dev/weft/diag"
	"weft.dev/weft/lang/prism/syntax"
)

// Diagnostic codes of the prism front end. The P01xx rows are the error
// classes of seed 001 §3 (the spec's E1..E15), one code per class.
const (
	ErrUndefined      = "P0100"
	ErrGroupBroaden   = "P0101" // E1
	ErrGroupDivide    = "P0102" // E2
	ErrSplitExceeds   = "P0103" // E3
	ErrSplitAlign     = "P0104" // E4
	ErrReadUp         = "P0105" // E5
	ErrWriteDown      = "P0106" // E6
	ErrHidden         = "P0107" // E7
	ErrClaimBranch    = "P0108" // E8
	ErrAsyncUse       = "P0109" // E9
	ErrSharedLevel    = "P0110" // E10
	ErrSmemBudget     = "P0111" // E11
	ErrSmemDevice     = "P0112" // E11 (device limit)
	ErrCallPersp      = "P0113" // E12
	ErrArgPersp       = "P0114" // E13
	ErrSingleWriter   = "P0115" // E14
	ErrPartitionLocal = "P0116" // E15
	ErrPartition      = "P0117"
	ErrDecorator      = "P0118"
	ErrType           = "P0119"
	ErrBadPersp       = "P0120"
	ErrIDTarget       = "P0121"
	ErrDeclBroader    = "P0122"
	ErrNoFunc         = "P0123"
	ErrReturn         = "P0124"
	ErrBranch         = "P0125"
	ErrSplitSubject   = "P0126"
	ErrRedeclared     = "P0127"
	ErrNotConst       = "P0128"
	ErrReturnEscapes  = "P0129"
)

func init() {
	diag.Register("prism", []diag.Code{
		{Code: syntax.ErrSyntax, Summary: "syntax error: unexpected token"},
		{Code: syntax.ErrBadDecl, Summary: "malformed declaration, parameter or type"},
		{Code: syntax.ErrBadPersp, Summary: "malformed perspective: want level[n]"},
		{Code: syntax.ErrTopLevel, Summary: "only decorated functions may appear at the top level"},
		{Code: syntax.ErrBadSuite, Summary: "missing indented block"},
		{Code: syntax.ErrNestedTooDeep, Summary: "nesting deeper than the parser allows"},
		{Code: ErrUndefined, Summary: "undefined or unusable name"},
		{Code: ErrGroupBroaden, Summary: "group may only narrow the code perspective (Fig. 7, ex. 1)"},
		{Code: ErrGroupDivide, Summary: "group target must divide the current perspective evenly (Fig. 7, ex. 2)"},
		{Code: ErrSplitExceeds, Summary: "split requests more units than the perspective holds (Fig. 9)"},
		{Code: ErrSplitAlign, Summary: "split branch is not aligned to its size (Fig. 10)"},
		{Code: ErrReadUp, Summary: "read-up: code cannot read a variable narrower than its perspective (Fig. 11)"},
		{Code: ErrWriteDown, Summary: "write-down: a narrower value cannot be written into a broader variable (Fig. 12)"},
		{Code: ErrHidden, Summary: "the original of a partitioned, claimed or async pointer is hidden in its scope"},
		{Code: ErrClaimBranch, Summary: "a claimed pointer is used by one collection of threads only: one split branch, not replicated by a group"},
		{Code: ErrAsyncUse, Summary: "an async variable may only be used by async data-movement intrinsics"},
		{Code: ErrSharedLevel, Summary: "shared memory is allocated and accessed only at block[1]"},
		{Code: ErrSmemBudget, Summary: "shared memory exceeds the smem= budget of @requires"},
		{Code: ErrSmemDevice, Summary: "shared memory exceeds the device limit"},
		{Code: ErrCallPersp, Summary: "call-site perspective cannot satisfy the callee's perspective bound"},
		{Code: ErrArgPersp, Summary: "argument perspective does not match the parameter's"},
		{Code: ErrSingleWriter, Summary: "thread-shared memory is written only from a thread[1] perspective"},
		{Code: ErrPartitionLocal, Summary: "partition/claim needs thread-shared memory and a dividing perspective"},
		{Code: ErrPartition, Summary: "malformed partition, claim or async"},
		{Code: ErrDecorator, Summary: "malformed @prism or @requires"},
		{Code: ErrType, Summary: "type error"},
		{Code: ErrBadPersp, Summary: "unknown perspective level or non-constant count"},
		{Code: ErrIDTarget, Summary: "id() needs a destination no broader than the code perspective"},
		{Code: ErrDeclBroader, Summary: "variable broader than the code perspective that writes it"},
		{Code: ErrNoFunc, Summary: "call of an unknown function or intrinsic"},
		{Code: ErrReturn, Summary: "misplaced or ill-typed return"},
		{Code: ErrBranch, Summary: "break/continue outside a loop of the same perspective"},
		{Code: ErrSplitSubject, Summary: "split over a level the code perspective cannot divide"},
		{Code: ErrRedeclared, Summary: "name declared twice in one scope"},
		{Code: ErrNotConst, Summary: "a compile-time constant is required"},
		{Code: ErrReturnEscapes, Summary: "return from code narrower than the function's perspective: the other threads wait for the returning ones"},
		{Code: "P0201", Summary: "no CUDA barrier spans the threads that must synchronize"},
		{Code: "P0301", Summary: "Bundl run is stuck: threads wait on a barrier others cannot reach"},
		{Code: "P0302", Summary: "Bundl run: out-of-bounds memory access"},
		{Code: "P0303", Summary: "Bundl run: arithmetic fault (division by zero)"},
		{Code: "P0304", Summary: "Bundl run: bad input argument"},
		{Code: "P0305", Summary: "Bundl run: step limit exceeded"},
		{Code: "P0306", Summary: "Bundl run: construct the interpreter does not model (raw CUDA, transposed wgmma)"},
		{Code: "P0307", Summary: "Bundl run: async misuse (wgmma accumulator used before its wait, operand changed in flight, extra mbarrier arrival)"},
	})
}
