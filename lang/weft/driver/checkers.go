package driver

import (
	"flag"
	"sort"

	"weft.dev/weft/diag"
	"weft.dev/weft/frontend"
	"weft.dev/weft/lang/weft/check"
	"weft.dev/weft/lang/weft/gpucheck"
	"weft.dev/weft/lang/weft/syntax"
)

// Checker is one static analysis run by `weft check` after name resolution
// and type checking.
type Checker struct {
	Name  string
	Order int                    // 20 gpucheck, 30 distmem, 40 syncheck, 50 build
	Flags func(fs *flag.FlagSet) // optional: extra flags of `weft check`
	// Defaults sets the variables of Flags's flags to their defaults, as
	// declaring them does (required with Flags): a check whose arguments
	// set none of them does not declare the flag set (checkArgs).
	Defaults func()
	Run      func(ctx *CheckContext) // appends diagnostics to ctx.Errs; may print reports to ctx.Env.Stdout
}

// CheckContext is what a Checker sees: the parsed and checked program, the
// sizes given on the command line, and the diagnostic list.
type CheckContext struct {
	Env   *frontend.Env
	File  *syntax.File
	Prog  *check.Program
	Sizes map[string]int64 // NAME=VALUE integers from the command line
	Errs  *diag.List
	// Build is set when weft build runs the checks: the build checker
	// (check_build.go) then leaves code generation to build itself.
	Build bool
	// gpu is the collective analysis (check_gpu.go), handed to the
	// checkers after it (distributed memory, sync). It lives in the
	// context, not in a package-level table, so that nothing of a check
	// outlives it (a process running many checks, as weftime and the
	// tests do, would otherwise keep every analysis alive for the GC to
	// scan).
	gpu *gpucheck.Result
	// Summary collects one line per check run ("vector_add at N=256: ..."),
	// which `weft check` prints on success unless -q; checkers build the
	// lines only when WantSummary is set (not for -q, --json, build or
	// sched, which print none: issue 13, strings built for nothing).
	Summary     []string
	WantSummary bool
	// errs is Errs's list where weft check made the context (checkVerb).
	errs diag.List
}

var checkers []Checker

// RegisterChecker adds c; call it from init. Checkers run in Order (then
// Name, so the order is deterministic).
func RegisterChecker(c Checker) {
	checkers = append(checkers, c)
	sort.SliceStable(checkers, func(i, j int) bool {
		if checkers[i].Order != checkers[j].Order {
			return checkers[i].Order < checkers[j].Order
		}
		return checkers[i].Name < checkers[j].Name
	})
}

// runCheckers runs every registered checker in order, stopping after the
// first one that reports an error (later analyses assume earlier ones
// passed).
func runCheckers(ctx *CheckContext) {
	for _, c := range checkers {
		if ctx.Errs.HasErrors() {
			return
		}
		c.Run(ctx)
	}
}
