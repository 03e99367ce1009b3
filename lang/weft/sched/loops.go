package sched

import (
	"fmt"
	"strings"

	"weft.dev/weft/lang/weft/syntax"
)

// Loop rewrites beyond divide/reorder/fission. Each states the order of
// the original iterations it changes and proves that exactly those pairs
// commute (seed 000 §2.3), with the dependence test of effects.go.

// loopExtent is the constant trip count of a loop, or 0.
func loopExtent(f *syntax.For, pi *procInfo) int64 {
	lo, ok1 := toLin(f.Lo, pi)
	hi, ok2 := toLin(f.Hi, pi)
	if ok1 && ok2 {
		if d := hi.add(lo, -1); d.isConst() && d.Const > 0 {
			return d.Const
		}
	}
	return 0
}

// pipelineLoop software-pipelines a loop: the first n statements P of its
// body run one iteration ahead of the rest R,
//
//	for k in seq(lo, hi): P(k); R(k)
//
// becomes
//
//	for k in seq(lo, hi + 1):
//	    if k < hi: P(k)
//	    if k > lo: R(k - 1)
//
// (the cp.async double buffering of seed 002's xgemm_Sm80_fence: the loads
// of stage k overlap the multiply of stage k - 1). The original order
// P(lo) R(lo) P(lo+1) R(lo+1) ... becomes P(lo) P(lo+1) R(lo) P(lo+2)
// R(lo+1) ...: only the adjacent pairs R(k) and P(k + 1) swap, so the
// precondition is that the effects of R(k) and P(k + 1) commute for every
// k, which the dependence test proves with P's iterator shifted by one
// (so a ring buffer indexed k % 2 written by P and read by R is fine: the
// slots (k + 1) % 2 and k % 2 differ). Names P declares must not be used by
// R, and asserts do not move past memory effects.
func (w *workspace) pipelineLoop(p *syntax.Proc, loop string, n int) error {
	c, f, err := w.findLoop(p, loop, "pipeline_loop")
	if err != nil {
		return err
	}
	if f.Mode.Name != "seq" {
		return errorf(CodeLoop, "pipeline_loop: loop %s is a %s loop; pipeline sequential loops", f.Var.Name, f.Mode.Name).at(f, "this loop")
	}
	if n < 1 || n >= len(f.Body) {
		return errorf(CodeArgs, "pipeline_loop: n=%d: the body of loop %s has %d statements; P takes 1 to %d of them", n, f.Var.Name, len(f.Body), len(f.Body)-1).at(f, "this loop")
	}
	pi := w.info(p)
	tp := pi.textual()
	lo, ok1 := toLin(f.Lo, tp)
	hi, ok2 := toLin(f.Hi, tp)
	if !ok1 || !ok2 {
		return errorf(CodeLoop, "pipeline_loop: the bounds of loop %s are not control expressions", f.Var.Name).at(f, "this loop")
	}
	pStmts, rStmts := f.Body[:n], f.Body[n:]
	rP0 := pi.effects(pStmts)
	for _, name := range sortedKeys(rP0.declared) {
		if _, isIter := rP0.internal[name]; !isIter && stmtsMention(rStmts, name) {
			return errorf(CodeDependence, "pipeline_loop: %s is declared in the first %d statements and used after them; they would run in different iterations", name, n).at(pStmts[n-1], "the split is after this statement")
		}
	}
	// P(k + 1): P with the iterator shifted.
	shifted := cloneStmts(pStmts)
	substStmts(shifted, f.Var.Name, varLin(f.Var.Name).add(constLin(1), 1).expr())
	shifted = normStmts(shifted, pi, []string{f.Var.Name}, false)
	rP, rR := pi.effects(shifted), pi.effects(rStmts)
	if len(rP.asserts) > 0 && len(rR.accs) > 0 || len(rR.asserts) > 0 && len(rP.accs) > 0 {
		return errorf(CodeDependence, "pipeline_loop: an assert would move past statements that access memory").at(pStmts[n-1], "the split is after this statement")
	}
	if cf, reassoc := commute(rR.accs, rP.accs, nil, rR.internal, rP.internal); cf != nil {
		return errorf(CodeDependence, "pipeline_loop: iteration %s - 1 of the rest of the body would run after iteration %s of the first %d statements, but a %s and a %s (of the next iteration) may touch the same element",
			f.Var.Name, f.Var.Name, n, accessText(cf.a), accessText(cf.b)).at(cf.a.node, "this %s in iteration %s", accessText(cf.a), f.Var.Name).at(cf.b.node, "may conflict with this %s in iteration %s + 1", accessText(cf.b), f.Var.Name)
	} else if reassoc {
		w.reassoc = append(w.reassoc, fmt.Sprintf("pipeline_loop(%s, %s)", p.Name.Name, patternText(loop)))
	}
	k := varLin(f.Var.Name)
	rBody := w.cloneFwd(rStmts)
	substStmts(rBody, f.Var.Name, k.add(constLin(1), -1).expr())
	rBody = normStmts(rBody, tp, []string{f.Var.Name}, false)
	ifP := &syntax.If{Cond: &syntax.Binary{Op: "<", X: k.expr(), Y: hi.expr()}, Then: append([]syntax.Stmt{}, pStmts...)}
	ifR := &syntax.If{Cond: &syntax.Binary{Op: ">", X: k.expr(), Y: lo.expr()}, Then: rBody}
	f.Hi = hi.add(constLin(1), 1).expr()
	f.Body = []syntax.Stmt{ifP, ifR}
	_ = c
	return nil
}

// wrapWithContext moves count statements into `with ctx:` (Exo-GPU's
// wrap_with_context): CudaAsync(tl) for an async instruction timeline of
// the library, or CudaWarps(...) for a warp range or named warp role. The
// sequential semantics runs a with block's body (seed 000 §2.1), so the
// meaning is unchanged; whether the context is valid where it is (inside a
// device function, async instructions only) is for the static checks.
func (w *workspace) wrapWithContext(p *syntax.Proc, stmt string, count int, ctx string) error {
	c, err := w.find(p, stmt)
	if err != nil {
		return err
	}
	if count < 1 || c.idx()+count > len(*c.block()) {
		return errorf(CodeArgs, "wrap_with_context: count=%d: the block has %d statements from the match on", count, len(*c.block())-c.idx())
	}
	e, err := parseExpr(ctx)
	if err != nil {
		return errorf(CodeDevice, "wrap_with_context: %v", err)
	}
	call, ok := e.(*syntax.Call)
	if !ok {
		return errorf(CodeDevice, "wrap_with_context: %s is not CudaAsync(...) or CudaWarps(...)", ctx)
	}
	switch call.FunName() {
	case "CudaAsync":
		if len(call.Args) != 1 || len(call.Kwargs) != 0 {
			return errorf(CodeDevice, "wrap_with_context: CudaAsync takes one instruction timeline, e.g. CudaAsync(Sm80_cp_async)")
		}
		n, ok := call.Args[0].(*syntax.Name)
		if !ok || w.lib.Timelines[n.Name] == nil {
			return errorf(CodeDevice, "wrap_with_context: %s is not a timeline of the library (it has %s)", syntax.ExprString(call.Args[0]), strings.Join(sortedKeys(w.lib.Timelines), ", "))
		}
	case "CudaWarps":
		if len(call.Args) == 0 && len(call.Kwargs) == 0 {
			return errorf(CodeDevice, "wrap_with_context: CudaWarps needs a warp range (lo, hi) or name=")
		}
	case "CudaDeviceFunction":
		return errorf(CodeDevice, "wrap_with_context: use wrap_device_function for CudaDeviceFunction (it checks the launch arguments)")
	default:
		return errorf(CodeDevice, "wrap_with_context: unknown context %s (want CudaAsync(...) or CudaWarps(...))", call.FunName())
	}
	stmts := (*c.block())[c.idx() : c.idx()+count]
	if n, decl := escapes(stmts, (*c.block())[c.idx()+count:]); n != "" {
		return errorf(CodeDevice, "wrap_with_context: the block declares %s, which is used after it", n).at(decl, "declared here")
	}
	with := &syntax.With{Ctx: e, Body: append([]syntax.Stmt{}, stmts...)}
	splice(c.block(), c.idx(), count, []syntax.Stmt{with})
	return nil
}
