package sched

import "weft.dev/weft/diag"

// Diagnostic codes of the scheduler. W0901-W0949 belong to code generation
// (package cudagen); the scheduler uses W0950 and up.
const (
	CodeScript     = "W0950" // Starlark syntax or runtime error
	CodeArgs       = "W0951" // bad arguments to a scheduling operation
	CodeProc       = "W0952" // unknown proc
	CodePattern    = "W0953" // malformed cursor pattern
	CodeNoMatch    = "W0954" // pattern matches no statement of the right kind
	CodeDivide     = "W0955" // divide_loop precondition
	CodeNameClash  = "W0956" // a new name is already in use
	CodeNest       = "W0957" // reorder_loops: not a perfect, rectangular nest; fission: not in a loop
	CodeDependence = "W0958" // effects do not commute (reorder_loops, reorder_stmts, fission)
	CodeLoopMode   = "W0959" // set_loop_mode precondition
	CodeDevice     = "W0960" // wrap_device_function precondition
	CodeMemory     = "W0961" // set_memory precondition
	CodeStage      = "W0962" // stage_mem precondition
	CodeUnify      = "W0963" // replace: block does not unify with the behaviour
	CodeInstr      = "W0964" // replace: unknown instruction or unprovable assert
	CodeSync       = "W0965" // sync insertion precondition
	CodeAssert     = "W0966" // add_assert / rename precondition
	CodeAlloc      = "W0967" // expand_dim / lift_alloc / reorder_dim precondition
	CodeLoop       = "W0968" // loop rewrite precondition (pipeline_loop, unroll_loop, cut_loop, ...)
	CodeExpr       = "W0969" // expression rewrite precondition (rewrite_expr, bind_expr, commute_expr)
	CodeProcs      = "W0970" // proc-level rewrite precondition (inline, extract_subproc, call_eqv, copy_proc)
)

func init() {
	diag.Register("weft", []diag.Code{
		{Code: CodeScript, Summary: "sched: the schedule script has a Starlark syntax or runtime error"},
		{Code: CodeArgs, Summary: "sched: wrong arguments to a scheduling operation"},
		{Code: CodeProc, Summary: "sched: no proc of that name in the file"},
		{Code: CodePattern, Summary: "sched: malformed cursor pattern"},
		{Code: CodeNoMatch, Summary: "sched: the cursor pattern matches no statement of the kind the operation needs"},
		{Code: CodeDivide, Summary: "sched: divide_loop precondition failed (factor, loop mode, or divisibility not provable for tail=\"perfect\")"},
		{Code: CodeNameClash, Summary: "sched: a name the rewrite introduces is already used in the proc"},
		{Code: CodeNest, Summary: "sched: reorder_loops needs two perfectly nested loops whose inner bounds do not depend on the outer iterator"},
		{Code: CodeDependence, Summary: "sched: the effects of the reordered code may not commute (conservative dependence check on index expressions)"},
		{Code: CodeLoopMode, Summary: "sched: set_loop_mode precondition failed (unknown mode or unit, lo != 0 or non-constant hi for cuda_threads)"},
		{Code: CodeDevice, Summary: "sched: wrap_device_function precondition failed (nested device functions, bad launch arguments)"},
		{Code: CodeMemory, Summary: "sched: set_memory precondition failed (unknown memory, or not a data or barrier variable)"},
		{Code: CodeStage, Summary: "sched: stage_mem precondition failed (bad window, access outside it, or a use that cannot be redirected)"},
		{Code: CodeUnify, Summary: "sched: replace: the code block does not unify with the instruction's behaviour body"},
		{Code: CodeInstr, Summary: "sched: replace: unknown instruction, or an instruction assert that does not hold for the bound arguments"},
		{Code: CodeSync, Summary: "sched: sync insertion precondition failed (unknown timeline or barrier)"},
		{Code: CodeAssert, Summary: "sched: add_assert or rename precondition failed"},
		{Code: CodeLoop, Summary: "sched: a loop rewrite's precondition failed (loop mode, bounds that are not control expressions or not constant, a body the rewrite cannot restructure)"},
		{Code: CodeExpr, Summary: "sched: an expression rewrite's precondition failed (rewrite_expr cannot prove the two expressions equal, bind_expr or commute_expr finds nothing to rewrite)"},
		{Code: CodeProcs, Summary: "sched: a proc-level rewrite's precondition failed (inline: not a proc of the file, unprovable callee assert; extract_subproc: a name the block declares is used after it; call_eqv: not an equivalent proc)"},
		{Code: CodeAlloc, Summary: "sched: expand_dim, lift_alloc or reorder_dim precondition failed (index not provably in range, shape uses the loop iterator, whole or windowed uses)"},
	})
}
