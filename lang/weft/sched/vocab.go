package sched

import (
	"fmt"

	"weft.dev/weft/lang/weft/syntax"
)

// Exo's scheduling vocabulary beyond the core rewrites (issue: "the
// missing vocabulary the derivations and Exo users need, each checked for
// preserving the sequential meaning with a refusal diagnostic when it
// cannot prove it"). Every rewrite names the fact it relies on in its
// comment; failed preconditions are W0968 (loops), W0967 (allocations) or
// W0969 (expressions).

// block returns the count statements at the cursor.
func (w *workspace) blockAt(p *syntax.Proc, sel string, count int, op string) (*cursor, []syntax.Stmt, error) {
	c, err := w.find(p, sel)
	if err != nil {
		return nil, nil, err
	}
	if count < 1 || c.idx()+count > len(*c.block()) {
		return nil, nil, errorf(CodeArgs, "%s: count=%d: the block has %d statements from the match on", op, count, len(*c.block())-c.idx())
	}
	return c, (*c.block())[c.idx() : c.idx()+count], nil
}

// escapes returns a name the block declares at its top level (an
// allocation or a window statement) that a statement after it uses, or
// "": wrapping the block in a new scope (a loop, an if, a with) would
// leave that use undefined.
func escapes(block, after []syntax.Stmt) (string, syntax.Stmt) {
	for _, s := range block {
		var name string
		switch s := s.(type) {
		case *syntax.Alloc:
			name = s.Name.Name
		case *syntax.Assign:
			if n, ok := s.LHS.(*syntax.Name); ok && isWindowRHS(s) {
				name = n.Name
			}
		}
		if name != "" && stmtsMention(after, name) {
			return name, s
		}
	}
	return "", nil
}

// idempotent reports why running ss twice in a row may differ from running
// it once ("" when it provably does not): no reduction, no call whose
// effects are unknown, and no buffer both read and written (so a second
// run writes the same values the first wrote). Private allocations are
// fresh in each run and do not count.
func (pi *procInfo) idempotent(ss []syntax.Stmt) string {
	r := pi.effects(ss)
	written := map[string]access{}
	for _, a := range r.accs {
		if a.reduce {
			return fmt.Sprintf("it reduces into %s", a.text)
		}
		if a.write {
			written[a.buf] = a
		}
	}
	for _, a := range r.accs {
		if !a.write {
			if w, ok := written[a.buf]; ok {
				return fmt.Sprintf("it both writes %s and reads %s", w.text, a.text)
			}
		}
	}
	return ""
}

// provablyPositive proves e >= 1 for every value of the iterators.
func (pi *procInfo) provablyPositive(e Lin, iters []iterRange) bool {
	return pi.nonneg(e.add(constLin(1), -1), iters)
}

// addLoop wraps a block in `for name in seq(0, hi)` (Exo's add_loop). The
// loop runs the block hi times; that is the block's meaning when hi is 1,
// when guard is set (the body becomes `if name == 0: block`), or when hi
// >= 1 and the block is idempotent (a second run rewrites the same values).
func (w *workspace) addLoop(p *syntax.Proc, sel string, count int, name, hiText string, guard bool) error {
	c, stmts, err := w.blockAt(p, sel, count, "add_loop")
	if err != nil {
		return err
	}
	pi := w.info(p)
	if err := pi.fresh(name); err != nil {
		return err
	}
	hiE, err := parseExpr(hiText)
	if err != nil {
		return errorf(CodeLoop, "add_loop: hi: %v", err)
	}
	hi, ok := toLin(hiE, pi)
	inScope, iters := pi.scopeAt(c)
	var bad string
	walkExpr(hiE, func(x syntax.Expr) {
		if n, ok := x.(*syntax.Name); ok && !inScope[n.Name] && bad == "" {
			bad = n.Name
		}
	})
	if !ok || bad != "" {
		return errorf(CodeLoop, "add_loop: hi=%s must be a control expression over names in scope", hiText)
	}
	if !pi.provablyPositive(hi, iters) {
		return errorf(CodeLoop, "add_loop: cannot prove that the new loop runs at least once (hi=%s >= 1)", hiText)
	}
	if n, decl := escapes(stmts, (*c.block())[c.idx()+count:]); n != "" {
		return errorf(CodeLoop, "add_loop: the block declares %s, which is used after it", n).at(decl, "declared here")
	}
	body := append([]syntax.Stmt{}, stmts...)
	switch {
	case guard:
		body = []syntax.Stmt{&syntax.If{Cond: &syntax.Binary{Op: "==", X: &syntax.Name{Name: name}, Y: intLit(0)}, Then: body}}
	case hi.isConst() && hi.Const == 1:
	default:
		if why := pi.idempotent(stmts); why != "" {
			return errorf(CodeLoop, "add_loop: running the block %s times would change its meaning: %s (use guard=True)", hiText, why).at(stmts[0], "the block starts here")
		}
	}
	loop := &syntax.For{Var: &syntax.Name{Name: name}, Mode: &syntax.Name{Name: "seq"}, Lo: intLit(0), Hi: hiE, Body: body}
	splice(c.block(), c.idx(), count, []syntax.Stmt{loop})
	return nil
}

// removeLoop replaces a loop by its body (Exo's remove_loop): the body must
// not use the iterator, the loop must provably run at least once, and the
// body must be idempotent, so running it once writes what running it the
// trip count times wrote.
func (w *workspace) removeLoop(p *syntax.Proc, sel string) error {
	c, f, err := w.findLoop(p, sel, "remove_loop")
	if err != nil {
		return err
	}
	if stmtsMention(f.Body, f.Var.Name) {
		return errorf(CodeLoop, "remove_loop: the body of loop %s uses its iterator", f.Var.Name).at(f, "this loop")
	}
	pi := w.info(p)
	lo, ok1 := toLin(f.Lo, pi)
	hi, ok2 := toLin(f.Hi, pi)
	_, iters := pi.scopeAt(c)
	if !ok1 || !ok2 || !pi.provablyPositive(hi.add(lo, -1), iters) {
		return errorf(CodeLoop, "remove_loop: cannot prove that loop %s runs at least once", f.Var.Name).at(f, "this loop")
	}
	if why := pi.idempotent(f.Body); why != "" {
		return errorf(CodeLoop, "remove_loop: the body of loop %s is not idempotent: %s", f.Var.Name, why).at(f, "this loop")
	}
	for _, s := range f.Body {
		w.forward(f, s)
		break
	}
	splice(c.block(), c.idx(), 1, f.Body)
	return nil
}

// unrollLoop replaces a loop with a constant trip count (at most 64) by
// copies of its body with the iterator substituted (Exo's unroll_loop):
// the same statements in the same order. Bodies that allocate are refused
// (the copies would redeclare the name in one block).
func (w *workspace) unrollLoop(p *syntax.Proc, sel string) error {
	c, f, err := w.findLoop(p, sel, "unroll_loop")
	if err != nil {
		return err
	}
	pi := w.info(p)
	lo, ok1 := toLin(f.Lo, pi)
	hi, ok2 := toLin(f.Hi, pi)
	if !ok1 || !ok2 || !lo.isConst() || !hi.isConst() {
		return errorf(CodeLoop, "unroll_loop: loop %s needs constant bounds", f.Var.Name).at(f, "this loop")
	}
	n := hi.Const - lo.Const
	if n > 64 {
		return errorf(CodeLoop, "unroll_loop: loop %s runs %d times; unroll at most 64 iterations", f.Var.Name, n).at(f, "this loop")
	}
	var decl syntax.Stmt
	walkStmts(f.Body, func(s syntax.Stmt) {
		if _, ok := s.(*syntax.Alloc); ok && decl == nil {
			decl = s
		}
	})
	if decl != nil {
		return errorf(CodeLoop, "unroll_loop: the body of loop %s allocates; lift the allocation out first", f.Var.Name).at(decl, "this allocation")
	}
	var out []syntax.Stmt
	for k := int64(0); k < n; k++ {
		var body []syntax.Stmt
		if k == 0 {
			body = w.cloneFwd(f.Body)
		} else {
			body = cloneStmts(f.Body)
		}
		substStmts(body, f.Var.Name, intLit(lo.Const+k))
		out = append(out, normStmts(body, pi.textual(), nil, false)...)
	}
	splice(c.block(), c.idx(), 1, out)
	return nil
}

// cutLoop splits `for i in seq(lo, hi)` at cut into `for i in seq(lo,
// cut)` and `for i in seq(cut, hi)` (Exo's cut_loop), requiring lo <= cut
// <= hi: the same iterations in the same order.
func (w *workspace) cutLoop(p *syntax.Proc, sel, cutText string) error {
	c, f, err := w.findLoop(p, sel, "cut_loop")
	if err != nil {
		return err
	}
	pi := w.info(p)
	cutE, err := parseExpr(cutText)
	if err != nil {
		return errorf(CodeLoop, "cut_loop: %v", err)
	}
	cut, ok := toLin(cutE, pi)
	lo, ok1 := toLin(f.Lo, pi)
	hi, ok2 := toLin(f.Hi, pi)
	_, iters := pi.scopeAt(c)
	if !ok || !ok1 || !ok2 || mentions(cutE, f.Var.Name) {
		return errorf(CodeLoop, "cut_loop: the cut point and the bounds of loop %s must be control expressions (the cut may not use the iterator)", f.Var.Name).at(f, "this loop")
	}
	if !pi.nonneg(cut.add(lo, -1), iters) || !pi.nonneg(hi.add(cut, -1), iters) {
		return errorf(CodeLoop, "cut_loop: cannot prove %s <= %s <= %s", syntax.ExprString(f.Lo), cutText, syntax.ExprString(f.Hi)).at(f, "this loop")
	}
	second := &syntax.For{Var: &syntax.Name{Name: f.Var.Name}, Mode: f.Mode, Lo: cloneExpr(cutE), Hi: f.Hi, Kwargs: f.Kwargs, Body: cloneStmts(f.Body)}
	f.Hi = cutE
	splice(c.block(), c.idx()+1, 0, []syntax.Stmt{second})
	return nil
}

// shiftLoop renumbers a loop to start at newLo (Exo's shift_loop): `for i
// in seq(lo, hi)` becomes `for i in seq(newLo, newLo + hi - lo)` with i
// replaced by i + lo - newLo in the body: the same iterations in the same
// order.
func (w *workspace) shiftLoop(p *syntax.Proc, sel, newLoText string) error {
	_, f, err := w.findLoop(p, sel, "shift_loop")
	if err != nil {
		return err
	}
	pi := w.info(p)
	tp := pi.textual()
	nl, err := parseExpr(newLoText)
	if err != nil {
		return errorf(CodeLoop, "shift_loop: %v", err)
	}
	newLo, ok := toLin(nl, tp)
	lo, ok1 := toLin(f.Lo, tp)
	hi, ok2 := toLin(f.Hi, tp)
	if !ok || !ok1 || !ok2 || mentions(nl, f.Var.Name) {
		return errorf(CodeLoop, "shift_loop: the new start and the bounds of loop %s must be control expressions", f.Var.Name).at(f, "this loop")
	}
	substStmts(f.Body, f.Var.Name, varLin(f.Var.Name).add(lo, 1).add(newLo, -1).expr())
	f.Body = normStmts(f.Body, tp, []string{f.Var.Name}, false)
	f.Lo = newLo.expr()
	f.Hi = newLo.add(hi, 1).add(lo, -1).expr()
	return nil
}

// joinLoops joins a loop with the next statement, a loop over the
// adjacent range with the same body (Exo's join_loops): `for i in seq(a,
// b): s` then `for j in seq(b, c): s[j/i]` becomes `for i in seq(a, c):
// s` (the inverse of cut_loop). Requires a <= b <= c.
func (w *workspace) joinLoops(p *syntax.Proc, sel string) error {
	c, f, err := w.findLoop(p, sel, "join_loops")
	if err != nil {
		return err
	}
	blk := *c.block()
	if c.idx()+1 >= len(blk) {
		return errorf(CodeLoop, "join_loops: loop %s is the last statement of its block", f.Var.Name).at(f, "this loop")
	}
	g, ok := blk[c.idx()+1].(*syntax.For)
	if !ok {
		return errorf(CodeLoop, "join_loops: the statement after loop %s is %s, not a loop", f.Var.Name, stmtKind(blk[c.idx()+1])).at(blk[c.idx()+1], "this statement")
	}
	pi := w.info(p)
	if f.Mode.Name != g.Mode.Name || syntax.ExprString(f.Hi) != syntax.ExprString(g.Lo) {
		if l1, ok1 := toLin(f.Hi, pi); !ok1 || f.Mode.Name != g.Mode.Name {
			return errorf(CodeLoop, "join_loops: loops %s and %s differ in mode", f.Var.Name, g.Var.Name).at(g, "this loop")
		} else if l2, ok2 := toLin(g.Lo, pi); !ok2 || !l1.equal(l2) {
			return errorf(CodeLoop, "join_loops: loop %s ends at %s but loop %s starts at %s", f.Var.Name, syntax.ExprString(f.Hi), g.Var.Name, syntax.ExprString(g.Lo)).at(g, "this loop")
		}
	}
	gb := cloneStmts(g.Body)
	substStmts(gb, g.Var.Name, &syntax.Name{Name: f.Var.Name})
	t1 := syntax.Print(&syntax.File{Decls: []syntax.Decl{&syntax.Proc{Name: &syntax.Name{Name: "b"}, Body: f.Body}}})
	t2 := syntax.Print(&syntax.File{Decls: []syntax.Decl{&syntax.Proc{Name: &syntax.Name{Name: "b"}, Body: gb}}})
	if t1 != t2 {
		return errorf(CodeLoop, "join_loops: the bodies of loops %s and %s differ", f.Var.Name, g.Var.Name).at(f, "this loop").at(g, "and this one")
	}
	lo, _ := toLin(f.Lo, pi)
	mid, _ := toLin(f.Hi, pi)
	hi, ok3 := toLin(g.Hi, pi)
	_, iters := pi.scopeAt(c)
	if !ok3 || !pi.nonneg(mid.add(lo, -1), iters) || !pi.nonneg(hi.add(mid, -1), iters) {
		return errorf(CodeLoop, "join_loops: cannot prove %s <= %s <= %s", syntax.ExprString(f.Lo), syntax.ExprString(f.Hi), syntax.ExprString(g.Hi)).at(f, "this loop")
	}
	f.Hi = g.Hi
	splice(c.block(), c.idx()+1, 1, nil)
	return nil
}

// fuseLoops fuses a loop with the next one over the same range (Exo's
// fuse, the inverse of fission): `for i: s1; for j: s2` becomes `for i:
// s1; s2[j/i]`. Afterwards s2 of iteration i1 runs before s1 of every
// iteration i2 > i1, so each such pair must commute; the dependence test
// of fission proves it.
func (w *workspace) fuseLoops(p *syntax.Proc, sel string) error {
	c, f, err := w.findLoop(p, sel, "fuse")
	if err != nil {
		return err
	}
	blk := *c.block()
	if c.idx()+1 >= len(blk) {
		return errorf(CodeLoop, "fuse: loop %s is the last statement of its block", f.Var.Name).at(f, "this loop")
	}
	g, ok := blk[c.idx()+1].(*syntax.For)
	if !ok {
		return errorf(CodeLoop, "fuse: the statement after loop %s is %s, not a loop", f.Var.Name, stmtKind(blk[c.idx()+1])).at(blk[c.idx()+1], "this statement")
	}
	pi := w.info(p)
	lo1, a1 := toLin(f.Lo, pi)
	hi1, a2 := toLin(f.Hi, pi)
	lo2, a3 := toLin(g.Lo, pi)
	hi2, a4 := toLin(g.Hi, pi)
	if !a1 || !a2 || !a3 || !a4 || !lo1.equal(lo2) || !hi1.equal(hi2) || f.Mode.Name != g.Mode.Name {
		return errorf(CodeLoop, "fuse: loops %s and %s need the same mode and bounds", f.Var.Name, g.Var.Name).at(f, "this loop").at(g, "and this one")
	}
	second := w.cloneFwd(g.Body)
	if g.Var.Name != f.Var.Name {
		if stmtsMention(f.Body, g.Var.Name) || stmtsMention(second, f.Var.Name) {
			return errorf(CodeNameClash, "fuse: the iterators %s and %s are both used in the bodies", f.Var.Name, g.Var.Name).at(g, "this loop")
		}
		substStmts(second, g.Var.Name, &syntax.Name{Name: f.Var.Name})
	}
	r1, r2 := pi.effects(f.Body), pi.effects(second)
	for _, n := range sortedKeys(r1.declared) {
		if _, isIter := r1.internal[n]; !isIter && stmtsMention(second, n) {
			return errorf(CodeDependence, "fuse: %s is declared by the first loop's body and used by the second's", n).at(g, "here")
		}
	}
	swaps := []swapVar{{f.Var.Name, +1, loopExtent(f, pi)}}
	if cf, reassoc := commute(r1.accs, r2.accs, swaps, r1.internal, r2.internal); cf != nil {
		return errorf(CodeDependence, "fuse: fusing loops %s and %s moves a %s of a later iteration after a %s of an earlier one, and they may touch the same element", f.Var.Name, g.Var.Name, accessText(cf.a), accessText(cf.b)).at(cf.a.node, "this %s", accessText(cf.a)).at(cf.b.node, "may conflict with this %s", accessText(cf.b))
	} else if reassoc {
		w.reassoc = append(w.reassoc, fmt.Sprintf("fuse(%s, %s)", p.Name.Name, patternText(sel)))
	}
	w.forward(g, f)
	f.Body = append(f.Body, second...)
	splice(c.block(), c.idx()+1, 1, nil)
	return nil
}

// multLoops merges a perfect nest `for i in seq(0, a): for j in seq(0, c)`
// (c constant) into `for name in seq(0, a * c)` with i = name / c and j =
// name % c (Exo's mult_loops): the same iterations in the same order.
func (w *workspace) multLoops(p *syntax.Proc, sel, name string) error {
	c, o, err := w.findLoop(p, sel, "mult_loops")
	if err != nil {
		return err
	}
	if len(o.Body) != 1 {
		return errorf(CodeLoop, "mult_loops: the body of loop %s must be exactly one loop", o.Var.Name).at(o, "this loop")
	}
	in, ok := o.Body[0].(*syntax.For)
	if !ok {
		return errorf(CodeLoop, "mult_loops: the body of loop %s is %s, not a loop", o.Var.Name, stmtKind(o.Body[0])).at(o.Body[0], "this statement")
	}
	pi := w.info(p)
	if err := pi.fresh(name); err != nil {
		return err
	}
	tp := pi.textual()
	olo, ok1 := toLin(o.Lo, pi)
	ilo, ok2 := toLin(in.Lo, pi)
	ihi, ok3 := toLin(in.Hi, pi)
	ohi, ok4 := toLin(o.Hi, tp)
	if !ok1 || !ok2 || !ok3 || !ok4 || !olo.isConst() || olo.Const != 0 || !ilo.isConst() || ilo.Const != 0 || !ihi.isConst() || ihi.Const < 1 {
		return errorf(CodeLoop, "mult_loops: loops %s and %s must start at 0 and the inner one run a constant number of times", o.Var.Name, in.Var.Name).at(o, "this loop")
	}
	if o.Mode.Name != "seq" || in.Mode.Name != "seq" {
		return errorf(CodeLoop, "mult_loops: merge sequential loops").at(o, "this loop")
	}
	cst := ihi.Const
	body := w.cloneFwd(in.Body)
	k := varLin(name)
	substStmts(body, o.Var.Name, divModLin(k, cst, false).expr())
	substStmts(body, in.Var.Name, divModLin(k, cst, true).expr())
	pi.names[name] = &nameInfo{kind: "iter"}
	body = normStmts(body, pi.textual(), []string{name}, false)
	loop := &syntax.For{Comments: o.Comments, Var: &syntax.Name{Name: name}, Mode: o.Mode, Lo: intLit(0), Hi: ohi.scale(cst).expr(), Body: body}
	w.forward(o, loop)
	splice(c.block(), c.idx(), 1, []syntax.Stmt{loop})
	return nil
}

// liftScope moves a statement out of the one around it when it is that
// statement's whole body (Exo's lift_scope): a loop inside a loop is
// reorder_loops; `for i: if c: A else: B` with c not using i becomes `if c:
// for i: A else: for i: B`; `if c1: if c2: A` (no else branches) becomes
// `if c2: if c1: A`; `if c: for j: A` (no else) becomes `for j: if c: A`.
// Conditions have no effects, so only which statements run, in which
// order, matters, and each case runs the same ones in the same order.
func (w *workspace) liftScope(p *syntax.Proc, sel string) error {
	c, err := w.find(p, sel)
	if err != nil {
		return err
	}
	encl := c.enclosing()
	if len(encl) == 0 {
		return errorf(CodeLoop, "lift_scope: %s is at the top of the proc", stmtKind(c.stmt)).at(c.stmt, "this statement")
	}
	outer := encl[len(encl)-1]
	parent := c.path[len(c.path)-2]
	var ob []syntax.Stmt
	switch o := outer.(type) {
	case *syntax.For:
		ob = o.Body
	case *syntax.If:
		if len(o.Else) > 0 {
			return errorf(CodeLoop, "lift_scope: the if around the statement has an else branch").at(o, "this if")
		}
		ob = o.Then
	default:
		return errorf(CodeLoop, "lift_scope: the statement is inside %s", stmtKind(outer)).at(outer, "here")
	}
	if len(ob) != 1 {
		return errorf(CodeLoop, "lift_scope: the statement must be the whole body of the %s around it (it has %d statements)", stmtKind(outer), len(ob)).at(outer, "here")
	}
	switch o := outer.(type) {
	case *syntax.For:
		switch in := c.stmt.(type) {
		case *syntax.For:
			return w.reorderLoopsAt(p, &cursor{path: c.path[:len(c.path)-1], stmt: o}, o, sel)
		case *syntax.If:
			if mentions(in.Cond, o.Var.Name) {
				return errorf(CodeLoop, "lift_scope: the condition %s uses the iterator %s", syntax.ExprString(in.Cond), o.Var.Name).at(in, "this if")
			}
			mk := func(body []syntax.Stmt) []syntax.Stmt {
				if len(body) == 0 {
					return nil
				}
				return []syntax.Stmt{&syntax.For{Var: &syntax.Name{Name: o.Var.Name}, Mode: o.Mode, Lo: o.Lo, Hi: o.Hi, Kwargs: o.Kwargs, Body: body}}
			}
			then := mk(in.Then)
			els := mk(cloneStmts(in.Else))
			if then == nil {
				then = []syntax.Stmt{&syntax.Pass{}}
			}
			nif := &syntax.If{Comments: o.Comments, Cond: in.Cond, Then: then, Else: els}
			w.forward(o, then[0])
			w.forward(in, nif)
			splice(parent.block, parent.idx, 1, []syntax.Stmt{nif})
			return nil
		}
	case *syntax.If:
		switch in := c.stmt.(type) {
		case *syntax.If:
			if len(in.Else) > 0 {
				return errorf(CodeLoop, "lift_scope: the inner if has an else branch").at(in, "this if")
			}
			o.Cond, in.Cond = in.Cond, o.Cond
			w.forward(o, in)
			w.forward(in, o)
			return nil
		case *syntax.For:
			nif := &syntax.If{Cond: o.Cond, Then: in.Body}
			nf := &syntax.For{Comments: o.Comments, Var: in.Var, Mode: in.Mode, Lo: in.Lo, Hi: in.Hi, Kwargs: in.Kwargs, Body: []syntax.Stmt{nif}}
			w.forward(o, nif)
			w.forward(in, nf)
			splice(parent.block, parent.idx, 1, []syntax.Stmt{nf})
			return nil
		}
	}
	return errorf(CodeLoop, "lift_scope: cannot lift %s out of %s", stmtKind(c.stmt), stmtKind(outer)).at(c.stmt, "this statement")
}

// specialize copies a block into the branches of `if c1: block elif c2:
// block ... else: block` (Exo's specialize): whichever branch runs, it runs
// the block. The conditions must be control conditions over names in
// scope.
func (w *workspace) specialize(p *syntax.Proc, sel string, count int, conds []string) error {
	c, stmts, err := w.blockAt(p, sel, count, "specialize")
	if err != nil {
		return err
	}
	if len(conds) == 0 {
		return errorf(CodeArgs, "specialize: give at least one condition")
	}
	pi := w.info(p)
	inScope, _ := pi.scopeAt(c)
	var es []syntax.Expr
	for _, ct := range conds {
		e, err := parseExpr(ct)
		if err != nil {
			return errorf(CodeLoop, "specialize: %v", err)
		}
		var bad string
		walkExpr(e, func(x syntax.Expr) {
			if n, ok := x.(*syntax.Name); ok && !inScope[n.Name] && bad == "" {
				bad = n.Name
			}
		})
		if bad != "" {
			return errorf(CodeLoop, "specialize: %s is not a control value in scope at the block", bad)
		}
		if _, ok := toLin(e, pi); ok {
			return errorf(CodeLoop, "specialize: %s is not a condition", ct)
		}
		es = append(es, e)
	}
	var decl syntax.Stmt
	for _, s := range stmts {
		if _, ok := s.(*syntax.Alloc); ok && decl == nil {
			decl = s
		}
	}
	if decl != nil {
		return errorf(CodeLoop, "specialize: the block allocates at its top level; the copies would declare it in different branches for the statements after it").at(decl, "this allocation")
	}
	var out syntax.Stmt
	var tail []syntax.Stmt = cloneStmts(stmts)
	for k := len(es) - 1; k >= 0; k-- {
		body := cloneStmts(stmts)
		if k == 0 {
			body = w.cloneFwd(stmts)
		}
		nif := &syntax.If{Cond: es[k], Then: body, Else: tail}
		if k < len(es)-1 {
			nif.Elif = false
		}
		out = nif
		tail = []syntax.Stmt{nif}
	}
	splice(c.block(), c.idx(), count, []syntax.Stmt{out})
	return nil
}

// insertPass adds a `pass` after (or before) a statement; deletePass
// removes every `pass` that is not the only statement of its block (Exo's
// insert_pass, delete_pass). `pass` does nothing.
func (w *workspace) insertPass(p *syntax.Proc, sel string, before bool) error {
	return w.insertSync(p, sel, before, &syntax.Pass{})
}

func (w *workspace) deletePass(p *syntax.Proc) error {
	var clean func(ss []syntax.Stmt) []syntax.Stmt
	clean = func(ss []syntax.Stmt) []syntax.Stmt {
		var out []syntax.Stmt
		for _, s := range ss {
			if _, ok := s.(*syntax.Pass); ok {
				continue
			}
			switch s := s.(type) {
			case *syntax.For:
				s.Body = clean(s.Body)
			case *syntax.If:
				s.Then = clean(s.Then)
				if s.Else != nil {
					s.Else = clean(s.Else)
				}
			case *syntax.With:
				s.Body = clean(s.Body)
			}
			out = append(out, s)
		}
		if len(out) == 0 && len(ss) > 0 {
			return []syntax.Stmt{&syntax.Pass{}}
		}
		return out
	}
	p.Body = clean(p.Body)
	return nil
}

// eliminateDeadCode simplifies one statement using the ranges of the loops
// around it (Exo's eliminate_dead_code): an if whose condition is provably
// true or false becomes the branch taken, a loop that provably runs no
// iteration disappears.
func (w *workspace) eliminateDeadCode(p *syntax.Proc, sel string) error {
	c, err := w.find(p, sel)
	if err != nil {
		return err
	}
	pi := w.info(p)
	_, iters := pi.scopeAt(c)
	switch s := c.stmt.(type) {
	case *syntax.If:
		if v, ok := pi.decide(s.Cond, iters); ok {
			branch := s.Else
			if v {
				branch = s.Then
			}
			if len(branch) > 0 {
				w.forward(s, branch[0])
			}
			splice(c.block(), c.idx(), 1, branch)
			if len(*c.block()) == 0 {
				*c.block() = []syntax.Stmt{&syntax.Pass{}}
			}
			return nil
		}
		return errorf(CodeLoop, "eliminate_dead_code: cannot decide %s here", syntax.ExprString(s.Cond)).at(s, "this if")
	case *syntax.For:
		lo, ok1 := toLin(s.Lo, pi)
		hi, ok2 := toLin(s.Hi, pi)
		if ok1 && ok2 && pi.nonneg(lo.add(hi, -1), iters) {
			splice(c.block(), c.idx(), 1, nil)
			if len(*c.block()) == 0 {
				*c.block() = []syntax.Stmt{&syntax.Pass{}}
			}
			return nil
		}
		return errorf(CodeLoop, "eliminate_dead_code: cannot prove that loop %s runs no iteration", s.Var.Name).at(s, "this loop")
	}
	return errorf(CodeLoop, "eliminate_dead_code: %s is neither an if nor a loop", stmtKind(c.stmt)).at(c.stmt, "this statement")
}

// decide proves a comparison of control expressions true or false for all
// values of the iterators (and sizes >= 1).
func (pi *procInfo) decide(e syntax.Expr, iters []iterRange) (bool, bool) {
	if v, ok := evalCond(e, pi); ok {
		return v, true
	}
	b, ok := e.(*syntax.Binary)
	if !ok {
		return false, false
	}
	switch b.Op {
	case "and", "or":
		x, okX := pi.decide(b.X, iters)
		y, okY := pi.decide(b.Y, iters)
		if b.Op == "and" {
			if okX && !x || okY && !y {
				return false, true
			}
			return x && y, okX && okY
		}
		if okX && x || okY && y {
			return true, true
		}
		return x || y, okX && okY
	}
	l, ok1 := toLin(b.X, pi)
	r, ok2 := toLin(b.Y, pi)
	if !ok1 || !ok2 {
		return false, false
	}
	d := l.add(r, -1) // l - r
	ge0 := func(x Lin) bool { return pi.nonneg(x, iters) }
	one := constLin(1)
	switch b.Op {
	case "<": // l - r <= -1
		if ge0(d.scale(-1).add(one, -1)) {
			return true, true
		}
		if ge0(d) {
			return false, true
		}
	case "<=":
		if ge0(d.scale(-1)) {
			return true, true
		}
		if ge0(d.add(one, -1)) {
			return false, true
		}
	case ">":
		if ge0(d.add(one, -1)) {
			return true, true
		}
		if ge0(d.scale(-1)) {
			return false, true
		}
	case ">=":
		if ge0(d) {
			return true, true
		}
		if ge0(d.scale(-1).add(one, -1)) {
			return false, true
		}
	}
	return false, false
}
