package sched

import (
	"fmt"
	"sort"
	"strings"

	"weft.dev/weft/lang/weft/syntax"
)

// The rewrites. Each works on a private copy of the proc (the script
// binding commits it only on success) and returns a *schedError for a
// failed precondition. Comments cite the rule each check enforces.

// divideLoop splits `for i in seq(lo, hi)` into an outer loop over chunks
// of factor iterations and an inner loop over one chunk, i = lo + factor *
// outer + inner. The tail policy handles hi - lo not divisible by factor:
// "perfect" requires a proof that it is (from the bounds or an assert
// E % c == 0 with factor | c), "guard" rounds the outer loop up and guards
// the body with `if factor * outer + inner < hi - lo`, "cut" adds a tail
// loop for the last (hi - lo) % factor iterations. Every iteration of the
// original loop runs exactly once and in the original order, so the
// sequential meaning is unchanged.
func (w *workspace) divideLoop(p *syntax.Proc, loop string, factor int64, outer, inner, tail string) error {
	c, f, err := w.findLoop(p, loop, "divide_loop")
	if err != nil {
		return err
	}
	if f.Mode.Name != "seq" {
		return errorf(CodeDivide, "divide_loop: loop %s is a %s loop; divide loops while they are sequential, then set_loop_mode", f.Var.Name, f.Mode.Name).at(f, "this loop")
	}
	if factor < 1 {
		return errorf(CodeDivide, "divide_loop: factor %d must be positive", factor)
	}
	if tail != "perfect" && tail != "guard" && tail != "cut" {
		return errorf(CodeArgs, "divide_loop: tail=%q: want \"cut\", \"guard\" or \"perfect\"", tail)
	}
	pi := w.info(p)
	if outer == inner {
		return errorf(CodeNameClash, "divide_loop: the outer and inner iterators need different names, both are %s", outer)
	}
	for _, n := range []string{outer, inner} {
		if err := pi.fresh(n); err != nil {
			return err
		}
	}
	lo, ok1 := toLin(f.Lo, pi.textual())
	hi, ok2 := toLin(f.Hi, pi.textual())
	if !ok1 || !ok2 {
		return errorf(CodeDivide, "divide_loop: the bounds of loop %s are not control expressions", f.Var.Name).at(f, "this loop")
	}
	n := hi.add(lo, -1)
	nFold, _ := toLin(f.Hi, pi)
	loFold, _ := toLin(f.Lo, pi)
	nFold = nFold.add(loFold, -1)
	if tail == "perfect" && !pi.divisible(nFold, factor) {
		return errorf(CodeDivide, "divide_loop: cannot prove that the trip count %s of loop %s is a multiple of %d (tail=\"perfect\"); assert it (e.g. add_assert(p, \"%s %% %d == 0\")) or use tail=\"guard\" or \"cut\"",
			syntax.ExprString(n.expr()), f.Var.Name, factor, syntax.ExprString(n.expr()), factor).at(f, "this loop")
	}
	// i = lo + factor*outer + inner.
	idx := varLin(outer).scale(factor).add(varLin(inner), 1)
	iExpr := lo.add(idx, 1).expr()
	body := w.cloneFwd(f.Body)
	substStmts(body, f.Var.Name, iExpr)
	pi.names[outer] = &nameInfo{kind: "iter"}
	pi.names[inner] = &nameInfo{kind: "iter"}
	tp := pi.textual()
	body = normStmts(body, tp, []string{outer, inner}, false)

	innerLoop := &syntax.For{Var: &syntax.Name{Name: inner}, Mode: &syntax.Name{Name: "seq"}, Lo: intLit(0), Hi: intLit(factor), Body: body}
	outerHi := divModLin(n, factor, false)
	if tail == "guard" {
		outerHi = divModLin(n.add(constLin(factor-1), 1), factor, false)
		if !(nFold.isConst() && nFold.Const%factor == 0) {
			cond := &syntax.Binary{Op: "<", X: idx.expr(), Y: n.expr()}
			innerLoop.Body = []syntax.Stmt{&syntax.If{Cond: cond, Then: body}}
		}
	}
	outerLoop := &syntax.For{Comments: f.Comments, Var: &syntax.Name{Name: outer}, Mode: &syntax.Name{Name: "seq"}, Lo: intLit(0), Hi: outerHi.expr(), Body: []syntax.Stmt{innerLoop}}
	w.forward(f, outerLoop)
	repl := []syntax.Stmt{outerLoop}
	if tail == "cut" && !(nFold.isConst() && nFold.Const%factor == 0) {
		// The tail: i = lo + factor * (n / factor) + inner, inner < n % factor.
		tailBody := cloneStmts(f.Body)
		base := lo.add(outerHi.scale(factor), 1).add(varLin(inner), 1)
		substStmts(tailBody, f.Var.Name, base.expr())
		tailBody = normStmts(tailBody, tp, []string{inner}, false)
		repl = append(repl, &syntax.For{Var: &syntax.Name{Name: inner}, Mode: &syntax.Name{Name: "seq"}, Lo: intLit(0), Hi: divModLin(n, factor, true).expr(), Body: tailBody})
	}
	splice(c.block(), c.idx(), 1, repl)
	return nil
}

// splice replaces n statements at i of *block by repl.
func splice(block *[]syntax.Stmt, i, n int, repl []syntax.Stmt) {
	out := append([]syntax.Stmt{}, (*block)[:i]...)
	out = append(out, repl...)
	out = append(out, (*block)[i+n:]...)
	*block = out
}

// reorderLoops swaps a loop with the single loop in its body. It requires a
// perfect, rectangular nest (the inner bounds do not use the outer
// iterator) and that every pair of iterations whose order the swap flips
// (i1 < i2 with j1 > j2) has commuting effects (seed 000 §2.3).
func (w *workspace) reorderLoops(p *syntax.Proc, loop string) error {
	// Exo's "i j": the loop over i, whose body must be the loop over j.
	var inner string
	if f := strings.Fields(loop); len(f) == 2 && isIdent(f[0]) && isIdent(f[1]) && !reserved[f[0]] && !reserved[f[1]] {
		loop, inner = f[0], f[1]
	}
	c, o, err := w.findLoop(p, loop, "reorder_loops")
	if err != nil {
		return err
	}
	if inner != "" {
		if in, ok := singleLoop(o); !ok || in.Var.Name != inner {
			return errorf(CodeNest, "reorder_loops: the body of loop %s is not the loop over %s", o.Var.Name, inner).at(o, "this loop")
		}
	}
	return w.reorderLoopsAt(p, c, o, loop)
}

// reorderLoopsAt is reorder_loops on the loop o at c.
func (w *workspace) reorderLoopsAt(p *syntax.Proc, c *cursor, o *syntax.For, loop string) error {
	if len(o.Body) != 1 {
		return errorf(CodeNest, "reorder_loops: the body of loop %s has %d statements; it must be exactly one loop", o.Var.Name, len(o.Body)).at(o, "this loop")
	}
	in, ok := o.Body[0].(*syntax.For)
	if !ok {
		return errorf(CodeNest, "reorder_loops: the body of loop %s is %s, not a loop", o.Var.Name, stmtKind(o.Body[0])).at(o.Body[0], "this statement")
	}
	if mentions(in.Lo, o.Var.Name) || mentions(in.Hi, o.Var.Name) {
		return errorf(CodeNest, "reorder_loops: the bounds of loop %s depend on the outer iterator %s", in.Var.Name, o.Var.Name).at(in, "this loop")
	}
	pi := w.info(p)
	r := pi.effects(in.Body)
	swaps := []swapVar{{o.Var.Name, -1, loopExtent(o, pi)}, {in.Var.Name, +1, loopExtent(in, pi)}}
	if cf, reassoc := commute(r.accs, r.accs, swaps, r.internal, r.internal); cf != nil {
		return errorf(CodeDependence, "reorder_loops: swapping loops %s and %s may reorder a %s and a %s that touch the same element",
			o.Var.Name, in.Var.Name, accessText(cf.a), accessText(cf.b)).at(cf.a.node, "this %s", accessText(cf.a)).at(cf.b.node, "may conflict with this %s in another iteration", accessText(cf.b))
	} else if reassoc {
		w.reassoc = append(w.reassoc, fmt.Sprintf("reorder_loops(%s, %s)", p.Name.Name, patternText(loop)))
	}
	newInner := &syntax.For{Var: o.Var, Mode: o.Mode, Lo: o.Lo, Hi: o.Hi, Kwargs: o.Kwargs, Comments: in.Comments, Body: in.Body}
	newOuter := &syntax.For{Var: in.Var, Mode: in.Mode, Lo: in.Lo, Hi: in.Hi, Kwargs: in.Kwargs, Comments: o.Comments, Body: []syntax.Stmt{newInner}}
	// Cursors follow the iterators: the cursor at loop o stays at the loop
	// over o's iterator.
	w.forward(o, newInner)
	w.forward(in, newOuter)
	splice(c.block(), c.idx(), 1, []syntax.Stmt{newOuter})
	return nil
}

// reorderStmts swaps a statement with the next one in its block when their
// effects commute (seed 000 §2.3): neither declares a name the other uses,
// no assert moves past a statement with effects, and every pair of
// accesses to one buffer with a write provably touches different elements.
func (w *workspace) reorderStmts(p *syntax.Proc, stmt string) error {
	c, err := w.find(p, stmt)
	if err != nil {
		return err
	}
	blk := *c.block()
	i := c.idx()
	if i+1 >= len(blk) {
		return errorf(CodeNoMatch, "reorder_stmts: %s is the last statement of its block; there is nothing to swap it with", stmtKind(c.stmt)).at(c.stmt, "this statement")
	}
	s1, s2 := blk[i], blk[i+1]
	pi := w.info(p)
	r1, r2 := pi.effects([]syntax.Stmt{s1}), pi.effects([]syntax.Stmt{s2})
	for n := range r1.declared {
		if stmtsMention([]syntax.Stmt{s2}, n) {
			return errorf(CodeDependence, "reorder_stmts: the second statement uses %s, which the first declares", n).at(s1, "declared here").at(s2, "used here")
		}
	}
	_, a1 := s1.(*syntax.Assert)
	_, a2 := s2.(*syntax.Assert)
	if a1 && len(r2.accs) > 0 || a2 && len(r1.accs) > 0 {
		return errorf(CodeDependence, "reorder_stmts: an assert does not commute with a statement that accesses memory (a failing assert would fail before or after it)").at(s1, "first statement").at(s2, "second statement")
	}
	if cf, reassoc := commute(r1.accs, r2.accs, nil, r1.internal, r2.internal); cf != nil {
		return errorf(CodeDependence, "reorder_stmts: the statements do not commute: a %s and a %s may touch the same element", accessText(cf.a), accessText(cf.b)).at(cf.a.node, "this %s", accessText(cf.a)).at(cf.b.node, "conflicts with this %s", accessText(cf.b))
	} else if reassoc {
		w.reassoc = append(w.reassoc, fmt.Sprintf("reorder_stmts(%s, %s)", p.Name.Name, patternText(stmt)))
	}
	blk[i], blk[i+1] = s2, s1
	return nil
}

// setLoopMode changes a loop's mode (seed 000 §3.4, seed 002 "Loop modes").
// The mode is an annotation: the sequential meaning runs every mode as a
// sequential loop. cuda_threads requires lo == 0 and a compile-time
// constant hi, and a collective unit (default cuda_thread).
func (w *workspace) setLoopMode(p *syntax.Proc, loop, mode string, unit string, unroll int64) error {
	_, f, err := w.findLoop(p, loop, "set_loop_mode")
	if err != nil {
		return err
	}
	pi := w.info(p)
	var kw []*syntax.Kwarg
	switch mode {
	case "seq":
		if unroll >= 0 {
			kw = append(kw, &syntax.Kwarg{Name: &syntax.Name{Name: "pragma_unroll"}, Value: intLit(unroll)})
		}
	case "par", "cuda_tasks":
	case "cuda_threads":
		lo, ok := toLin(f.Lo, pi)
		if !ok || !lo.isConst() || lo.Const != 0 {
			return errorf(CodeLoopMode, "set_loop_mode: a cuda_threads loop must start at 0, loop %s starts at %s", f.Var.Name, syntax.ExprString(f.Lo)).at(f, "this loop")
		}
		hi, ok := toLin(f.Hi, pi)
		if !ok || !hi.isConst() {
			return errorf(CodeLoopMode, "set_loop_mode: a cuda_threads loop needs a compile-time constant trip count, loop %s runs to %s (divide_loop it by a constant first)", f.Var.Name, syntax.ExprString(f.Hi)).at(f, "this loop")
		}
		if unit == "" {
			unit = "cuda_thread"
		}
		u, err := parseExpr(unit)
		if err != nil {
			return errorf(CodeLoopMode, "set_loop_mode: unit: %v", err)
		}
		var bad []string
		walkExpr(u, func(x syntax.Expr) {
			if n, ok := x.(*syntax.Name); ok && w.lib.Units[n.Name] == nil && !pi.allNames()[n.Name] {
				bad = append(bad, n.Name)
			}
		})
		if len(bad) > 0 {
			return errorf(CodeLoopMode, "set_loop_mode: unknown collective unit %s (the library has %s)", bad[0], strings.Join(sortedKeys(w.lib.Units), ", "))
		}
		kw = append(kw, &syntax.Kwarg{Name: &syntax.Name{Name: "unit"}, Value: u})
	default:
		return errorf(CodeLoopMode, "set_loop_mode: unknown loop mode %q (want seq, par, cuda_tasks or cuda_threads)", mode)
	}
	if unit != "" && mode != "cuda_threads" {
		return errorf(CodeLoopMode, "set_loop_mode: unit= is only for cuda_threads loops")
	}
	f.Mode = &syntax.Name{Name: mode}
	f.Kwargs = kw
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// wrapDeviceFunction moves count statements into `with
// CudaDeviceFunction(...)` (seed 000 §3.2, seed 002 "CudaDeviceFunction").
// The with block runs its body sequentially, so the meaning is unchanged;
// device functions do not nest.
func (w *workspace) wrapDeviceFunction(p *syntax.Proc, stmt string, count int, kwargs []*syntax.Kwarg) error {
	c, err := w.find(p, stmt)
	if err != nil {
		return err
	}
	if count < 1 || c.idx()+count > len(*c.block()) {
		return errorf(CodeArgs, "wrap_device_function: count=%d: the block has %d statements from the match on", count, len(*c.block())-c.idx())
	}
	for _, s := range c.enclosing() {
		if isDeviceFunction(s) {
			return errorf(CodeDevice, "wrap_device_function: the statement is already inside a CudaDeviceFunction").at(s, "the enclosing device function")
		}
	}
	stmts := (*c.block())[c.idx() : c.idx()+count]
	if n, decl := escapes(stmts, (*c.block())[c.idx()+count:]); n != "" {
		return errorf(CodeDevice, "wrap_device_function: the statements declare %s, which is used after them", n).at(decl, "declared here")
	}
	var inner syntax.Stmt
	walkStmts(stmts, func(s syntax.Stmt) {
		if inner == nil && isDeviceFunction(s) {
			inner = s
		}
	})
	if inner != nil {
		return errorf(CodeDevice, "wrap_device_function: the statements already contain a CudaDeviceFunction").at(inner, "this one")
	}
	if wc := findKwarg(kwargs, "warp_config"); wc != nil {
		// Warp specialization (seed 000 §3.2): the CTA is the sum of the
		// named warp groups; the static checks validate the list.
		if findKwarg(kwargs, "blockDim") != nil {
			return errorf(CodeDevice, "wrap_device_function: give blockDim= or warp_config=, not both")
		}
		if _, isList := wc.Value.(*syntax.List); !isList && !w.isGlobal(syntax.ExprString(wc.Value)) {
			return errorf(CodeDevice, "wrap_device_function: warp_config=%s must be a list of CudaWarpConfig(...) or a global holding one", syntax.ExprString(wc.Value))
		}
	} else if kw := findKwarg(kwargs, "blockDim"); kw == nil {
		return errorf(CodeDevice, "wrap_device_function: blockDim= (threads per CTA) or warp_config= is required")
	} else if l, ok := kw.Value.(*syntax.IntLit); !ok || l.Value < 1 || l.Value > 1024 {
		return errorf(CodeDevice, "wrap_device_function: blockDim=%s must be an integer in 1..1024", syntax.ExprString(kw.Value))
	}
	with := &syntax.With{Ctx: &syntax.Call{Fun: &syntax.Name{Name: "CudaDeviceFunction"}, Kwargs: kwargs}, Body: append([]syntax.Stmt{}, stmts...)}
	splice(c.block(), c.idx(), count, []syntax.Stmt{with})
	return nil
}

func findKwarg(ks []*syntax.Kwarg, name string) *syntax.Kwarg {
	for _, k := range ks {
		if k.Name.Name == name {
			return k
		}
	}
	return nil
}

func isDeviceFunction(s syntax.Stmt) bool {
	wt, ok := s.(*syntax.With)
	if !ok {
		return false
	}
	call, ok := wt.Ctx.(*syntax.Call)
	return ok && call.FunName() == "CudaDeviceFunction"
}

// setMemory changes the memory of a parameter or allocation (seed 000 §3.7,
// seed 002 "Memory types"): data to a data memory of the library, barriers
// to a barrier memory. Memories are annotations the sequential meaning
// ignores; whether an access is allowed where it happens is for the static
// checks that weft sched runs on the result.
func (w *workspace) setMemory(p *syntax.Proc, name, mem string, args []syntax.Expr) error {
	var typ *syntax.Type
	var decl syntax.Node
	for _, prm := range p.Params {
		if prm.Name.Name == name {
			typ, decl = prm.Type, prm
		}
	}
	walkStmts(p.Body, func(s syntax.Stmt) {
		if a, ok := s.(*syntax.Alloc); ok && a.Name.Name == name && typ == nil {
			typ, decl = a.Type, a
		}
	})
	if typ == nil || typ.Elem == nil {
		return errorf(CodeMemory, "set_memory: proc %s has no parameter or allocation named %s", p.Name.Name, name)
	}
	switch typ.Elem.Name {
	case "size", "index", "stride", "bool":
		return errorf(CodeMemory, "set_memory: %s is a %s, not data or a barrier", name, typ.Elem.Name).at(decl, "declared here")
	case "barrier":
		if w.lib.Barriers[mem] == nil {
			return errorf(CodeMemory, "set_memory: %s is a barrier; %s is not a barrier memory (the library has %s)", name, mem, strings.Join(sortedKeys(w.lib.Barriers), ", ")).at(decl, "declared here")
		}
	default:
		if w.lib.Memories[mem] == nil {
			return errorf(CodeMemory, "set_memory: unknown data memory %s (the library has %s)", mem, strings.Join(sortedKeys(w.lib.Memories), ", ")).at(decl, "declared here")
		}
	}
	var m syntax.Expr = &syntax.Name{Name: mem}
	if len(args) > 0 {
		m = &syntax.Call{Fun: m, Args: args}
	}
	typ.Mem = m
	return nil
}

// addAssert adds `assert cond` at the top of the proc, after its existing
// asserts. It is the one rewrite that narrows the domain: on inputs that
// satisfy cond the meaning is unchanged, on the others the proc now fails.
// cond may only use the proc's size and index parameters and constants.
func (w *workspace) addAssert(p *syntax.Proc, cond string) error {
	e, err := parseExpr(cond)
	if err != nil {
		return errorf(CodeAssert, "add_assert: %v", err)
	}
	pi := w.info(p)
	var bad string
	walkExpr(e, func(x syntax.Expr) {
		if n, ok := x.(*syntax.Name); ok && bad == "" {
			ni := pi.names[n.Name]
			_, isConst := w.consts[n.Name]
			if !(ni != nil && (ni.kind == "size" || ni.kind == "index") && isParam(p, n.Name) || isConst) {
				bad = n.Name
			}
		}
	})
	if bad != "" {
		return errorf(CodeAssert, "add_assert: %s is not a size or index parameter of %s", bad, p.Name.Name)
	}
	if _, ok := evalCond(e, pi); !ok {
		switch b := e.(type) {
		case *syntax.Binary:
			if !strings.Contains("== != < <= > >= and or", b.Op) {
				return errorf(CodeAssert, "add_assert: %s is not a condition", cond)
			}
		case *syntax.Unary:
		default:
			return errorf(CodeAssert, "add_assert: %s is not a condition", cond)
		}
	}
	i := 0
	for i < len(p.Body) {
		if _, ok := p.Body[i].(*syntax.Assert); !ok {
			break
		}
		i++
	}
	splice(&p.Body, i, 0, []syntax.Stmt{&syntax.Assert{Cond: e}})
	return nil
}

func isParam(p *syntax.Proc, n string) bool {
	for _, q := range p.Params {
		if q.Name.Name == n {
			return true
		}
	}
	return false
}

// rename gives the proc a new name. Calls from other procs of the file
// would dangle, so a called proc is not renamed.
func (w *workspace) rename(p *syntax.Proc, name string) error {
	if !isIdent(name) || reserved[name] {
		return errorf(CodeAssert, "rename: %q is not a valid proc name", name)
	}
	for _, d := range w.file.Decls {
		switch d := d.(type) {
		case *syntax.Proc:
			if d.Name.Name == name && d.Name.Name != p.Name.Name {
				return errorf(CodeAssert, "rename: the file already has a proc %s", name).at(d, "declared here")
			}
			var call syntax.Node
			walkStmts(d.Body, func(s syntax.Stmt) {
				if cs, ok := s.(*syntax.CallStmt); ok && cs.Call.FunName() == p.Name.Name && call == nil {
					call = cs
				}
			})
			if call != nil && d.Name.Name != p.Name.Name {
				return errorf(CodeAssert, "rename: proc %s is called by %s", p.Name.Name, d.Name.Name).at(call, "called here")
			}
		case *syntax.Global:
			for _, n := range d.Names {
				if n.Name == name {
					return errorf(CodeAssert, "rename: %s is a global of the file", name).at(d, "declared here")
				}
			}
		}
	}
	if w.lib.HasProc(name) {
		return errorf(CodeAssert, "rename: %s is a library instruction or proc", name)
	}
	p.Name = &syntax.Name{Name: name}
	return nil
}

// simplify normalizes every control expression and folds constant ifs.
func (w *workspace) simplify(p *syntax.Proc) error {
	pi := w.info(p)
	p.Body = normStmts(p.Body, pi.textual(), nil, true)
	return nil
}

// insertSync inserts a synchronization statement (Fence, Arrive, Await;
// seed 000 §5, seed 002 "Synchronization") before or after a statement.
// Sync statements have no sequential meaning (seed 000 §2.1), so the
// sequential program is unchanged; the sync checker proves afterwards that
// they make the parallel program equal to it.
func (w *workspace) insertSync(p *syntax.Proc, where string, before bool, s syntax.Stmt) error {
	c, err := w.find(p, where)
	if err != nil {
		return err
	}
	i := c.idx() + 1
	if before {
		i = c.idx()
	}
	splice(c.block(), i, 0, []syntax.Stmt{s})
	return nil
}

// syncTL checks a sync timeline name against the library (Fig. 16).
func (w *workspace) syncTL(op, name string) (syntax.Expr, error) {
	if w.lib.Timelines[name] == nil {
		return nil, errorf(CodeSync, "%s: unknown sync timeline %s (the library has %s)", op, name, strings.Join(sortedKeys(w.lib.Timelines), ", "))
	}
	return &syntax.Name{Name: name}, nil
}

// barrierRef parses a barrier expression `bar` or `bar[i]` naming a
// barrier variable of the proc.
func (w *workspace) barrierRef(p *syntax.Proc, op, text string) (syntax.Expr, error) {
	e, err := parseExpr(text)
	if err != nil {
		return nil, errorf(CodeSync, "%s: %v", op, err)
	}
	base := e
	if ix, ok := e.(*syntax.Index); ok {
		base = ix.X
	}
	n, ok := base.(*syntax.Name)
	pi := w.info(p)
	if !ok || pi.names[n.Name] == nil || pi.names[n.Name].kind != "barrier" {
		return nil, errorf(CodeSync, "%s: %s is not a barrier variable of %s", op, text, p.Name.Name)
	}
	return e, nil
}

// newBarrier allocates a barrier variable `name: barrier[dims] @ mem`.
func (w *workspace) newBarrier(p *syntax.Proc, where string, before bool, name, mem string, dims []syntax.Expr) error {
	pi := w.info(p)
	if err := pi.fresh(name); err != nil {
		return err
	}
	if w.lib.Barriers[mem] == nil {
		return errorf(CodeSync, "new_barrier: %s is not a barrier memory (the library has %s)", mem, strings.Join(sortedKeys(w.lib.Barriers), ", "))
	}
	a := &syntax.Alloc{Name: &syntax.Name{Name: name}, Type: &syntax.Type{Elem: &syntax.Name{Name: "barrier"}, Dims: dims, Mem: &syntax.Name{Name: mem}}}
	return w.insertSync(p, where, before, a)
}

// fission splits the loop directly around a statement after it: `for i:
// s1...sk; sk+1...sn` becomes `for i: s1...sk` then `for i: sk+1...sn`
// (Exo's fission). Afterwards every first-part iteration runs before every
// second-part iteration, so a second-part access at iteration i2 moves
// after a first-part access at iteration i1 > i2; each such pair must
// commute (seed 000 §2.3), which the dependence test proves with the
// iterator ordered i1 > i2. Names the first part declares must not be used
// by the second, and an assert does not move past memory effects.
func (w *workspace) fission(p *syntax.Proc, stmt string) error {
	return w.fissionN(p, stmt, 1)
}

// fissionN is fission applied n_lifts times (Exo's fission(..., n_lifts)):
// after splitting the loop around the statement, the split moves up to the
// gap after that loop in the loop around it, and so on.
func (w *workspace) fissionN(p *syntax.Proc, stmt string, lifts int) error {
	if lifts < 1 {
		return errorf(CodeArgs, "fission: n_lifts=%d must be at least 1", lifts)
	}
	c, err := w.find(p, stmt)
	if err != nil {
		return err
	}
	for k := 0; k < lifts; k++ {
		if c, err = w.fissionAt(p, c, stmt); err != nil {
			if k > 0 {
				err.(*schedError).msg += fmt.Sprintf(" (at lift %d of %d)", k+1, lifts)
			}
			return err
		}
	}
	return nil
}

// fissionAt splits the loop around c after it and returns the cursor of
// that loop (now holding the first part).
func (w *workspace) fissionAt(p *syntax.Proc, c *cursor, stmt string) (*cursor, error) {
	encl := c.enclosing()
	if len(encl) == 0 {
		return nil, errorf(CodeNest, "fission: %s is not inside a loop", stmtKind(c.stmt)).at(c.stmt, "this statement")
	}
	loop, ok := encl[len(encl)-1].(*syntax.For)
	if !ok {
		return nil, errorf(CodeNest, "fission: the statement is directly inside %s, not a loop", stmtKind(encl[len(encl)-1])).at(encl[len(encl)-1], "here")
	}
	i := c.idx()
	if i+1 >= len(loop.Body) {
		return nil, errorf(CodeNoMatch, "fission: %s is the last statement of loop %s; there is nothing to split off", stmtKind(c.stmt), loop.Var.Name).at(c.stmt, "this statement")
	}
	first, second := loop.Body[:i+1], loop.Body[i+1:]
	pi := w.info(p)
	r1, r2 := pi.effects(first), pi.effects(second)
	for _, n := range sortedKeys(r1.declared) {
		// A loop iterator's scope is its loop: a later loop over the same
		// name declares its own.
		if _, isIter := r1.internal[n]; !isIter && stmtsMention(second, n) {
			return nil, errorf(CodeDependence, "fission: %s is declared before the split and used after it", n).at(c.stmt, "the split is after this statement")
		}
	}
	if len(r1.asserts) > 0 && len(r2.accs) > 0 || len(r2.asserts) > 0 && len(r1.accs) > 0 {
		return nil, errorf(CodeDependence, "fission: an assert would move past statements that access memory").at(c.stmt, "the split is after this statement")
	}
	swaps := []swapVar{{loop.Var.Name, +1, loopExtent(loop, pi)}}
	if cf, reassoc := commute(r1.accs, r2.accs, swaps, r1.internal, r2.internal); cf != nil {
		return nil, errorf(CodeDependence, "fission: splitting loop %s reorders a %s before the split and a %s after it that may touch the same element", loop.Var.Name, accessText(cf.a), accessText(cf.b)).at(cf.a.node, "this %s", accessText(cf.a)).at(cf.b.node, "may conflict with this %s of an earlier iteration", accessText(cf.b))
	} else if reassoc {
		w.reassoc = append(w.reassoc, fmt.Sprintf("fission(%s, %s)", p.Name.Name, patternText(stmt)))
	}
	second = w.cloneFwd(second)
	l2 := &syntax.For{Var: &syntax.Name{Name: loop.Var.Name}, Mode: loop.Mode, Lo: cloneExpr(loop.Lo), Hi: cloneExpr(loop.Hi), Kwargs: loop.Kwargs, Body: second}
	loop.Body = append([]syntax.Stmt{}, first...)
	parent := c.path[len(c.path)-2]
	splice(parent.block, parent.idx+1, 0, []syntax.Stmt{l2})
	return &cursor{path: c.path[:len(c.path)-1], stmt: loop}, nil
}

// isGlobal reports whether name is a global of the file.
func (w *workspace) isGlobal(name string) bool {
	for _, d := range w.file.Decls {
		if g, ok := d.(*syntax.Global); ok {
			for _, n := range g.Names {
				if n.Name == name {
					return true
				}
			}
		}
	}
	return false
}

// insertSyncIf is insertSync, the statement guarded by `if cond:` when
// cond is given (e.g. ReverseArrive only from the second k-step on). The
// guard only decides whether a sync statement runs, which the sequential
// semantics ignores either way.
func (w *workspace) insertSyncIf(p *syntax.Proc, where string, before bool, cond string, s syntax.Stmt) error {
	if cond == "" {
		return w.insertSync(p, where, before, s)
	}
	c, err := w.find(p, where)
	if err != nil {
		return err
	}
	e, err := parseExpr(cond)
	if err != nil {
		return errorf(CodeSync, "cond: %v", err)
	}
	pi := w.info(p)
	inScope, _ := pi.scopeAt(c)
	var bad string
	walkExpr(e, func(x syntax.Expr) {
		if n, ok := x.(*syntax.Name); ok && !inScope[n.Name] && bad == "" {
			bad = n.Name
		}
	})
	if bad != "" {
		return errorf(CodeSync, "cond=%q: %s is not a control value in scope where the statement is inserted", cond, bad).at(c.stmt, "here")
	}
	return w.insertSync(p, where, before, &syntax.If{Cond: e, Then: []syntax.Stmt{s}})
}

// singleLoop returns the loop that is f's whole body.
func singleLoop(f *syntax.For) (*syntax.For, bool) {
	if len(f.Body) != 1 {
		return nil, false
	}
	in, ok := f.Body[0].(*syntax.For)
	return in, ok
}
