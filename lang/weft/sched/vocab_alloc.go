package sched

import (
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// Allocation and expression vocabulary (Exo's delete_buffer, sink_alloc,
// resize_dim, reuse_buffer, commute_expr, bind_expr, inline_window).

// deleteBuffer removes an allocation nothing uses (Exo's delete_buffer).
func (w *workspace) deleteBuffer(p *syntax.Proc, name string) error {
	c, a, err := findAlloc(p, name, "delete_buffer")
	if err != nil {
		return err
	}
	rest := (*c.block())[c.idx()+1:]
	if stmtsMention(rest, name) {
		var use syntax.Stmt
		walkStmts(rest, func(s syntax.Stmt) {
			if use == nil && stmtsMention([]syntax.Stmt{shallowHeader(s)}, name) {
				use = s
			}
		})
		return errorf(CodeAlloc, "delete_buffer: %s is used", name).at(a, "the allocation").at(use, "used here")
	}
	splice(c.block(), c.idx(), 1, nil)
	if len(*c.block()) == 0 {
		*c.block() = []syntax.Stmt{&syntax.Pass{}}
	}
	return nil
}

// sinkAlloc moves an allocation into the loop right after it, when only
// that loop uses it and each iteration overwrites all of it before reading
// it (Exo's sink_alloc, the inverse of lift_alloc): then no value flows
// from one iteration to the next through the buffer, and a fresh buffer
// per iteration holds the same values.
func (w *workspace) sinkAlloc(p *syntax.Proc, name string) error {
	c, a, err := findAlloc(p, name, "sink_alloc")
	if err != nil {
		return err
	}
	blk := *c.block()
	if c.idx()+1 >= len(blk) {
		return errorf(CodeAlloc, "sink_alloc: nothing follows the allocation of %s", name).at(a, "the allocation")
	}
	loop, ok := blk[c.idx()+1].(*syntax.For)
	if !ok {
		return errorf(CodeAlloc, "sink_alloc: the statement after the allocation of %s is %s, not a loop", name, stmtKind(blk[c.idx()+1])).at(blk[c.idx()+1], "this statement")
	}
	if stmtsMention(blk[c.idx()+2:], name) {
		return errorf(CodeAlloc, "sink_alloc: %s is used after the loop", name).at(a, "the allocation")
	}
	pi := w.info(p)
	if !covers(loop.Body, name, a.Type.Dims, pi) {
		return errorf(CodeAlloc, "sink_alloc: cannot prove that every iteration of loop %s writes all of %s before reading it", loop.Var.Name, name).at(loop, "this loop")
	}
	splice(c.block(), c.idx(), 1, nil)
	loop.Body = append([]syntax.Stmt{a}, loop.Body...)
	return nil
}

// resizeDim gives dimension dim of an allocation the extent size and
// shifts its indices by -offset (Exo's resize_dim). Every access must
// provably lie in [offset, offset + size) of the old index; then the
// buffer's used elements are relabeled one to one.
func (w *workspace) resizeDim(p *syntax.Proc, name string, dim int, sizeText, offText string) error {
	c, a, err := findAlloc(p, name, "resize_dim")
	if err != nil {
		return err
	}
	if dim < 0 || dim >= len(a.Type.Dims) {
		return errorf(CodeArgs, "resize_dim: %s has %d dimensions; there is no dimension %d", name, len(a.Type.Dims), dim).at(a, "the allocation")
	}
	pi := w.info(p)
	tp := pi.textual()
	sz, err1 := parseExpr(sizeText)
	off, err2 := parseExpr(offText)
	if err1 != nil || err2 != nil {
		return errorf(CodeAlloc, "resize_dim: size and offset must be Weft control expressions")
	}
	inScope, _ := pi.scopeAt(c)
	for _, e := range []syntax.Expr{sz, off} {
		var bad string
		walkExpr(e, func(x syntax.Expr) {
			if n, ok := x.(*syntax.Name); ok && !inScope[n.Name] && bad == "" {
				bad = n.Name
			}
		})
		if bad != "" {
			return errorf(CodeAlloc, "resize_dim: %s is not a control value fixed where %s is allocated", bad, name).at(a, "the allocation")
		}
	}
	szl, ok1 := toLin(sz, tp)
	offl, ok2 := toLin(off, tp)
	if !ok1 || !ok2 {
		return errorf(CodeAlloc, "resize_dim: size and offset must be control expressions")
	}
	blk := *c.block()
	err = usesWithLoops(blk[c.idx()+1:], c.loops(), name, func(e syntax.Expr, at syntax.Stmt, loops []*syntax.For) (syntax.Expr, error) {
		x, ok := e.(*syntax.Index)
		if !ok || len(x.Indices) != len(a.Type.Dims) {
			return nil, errorf(CodeAlloc, "resize_dim: %s is used whole here", name).at(at, "here")
		}
		iters := iterRanges(loops, pi)
		ix := x.Indices[dim]
		if sl, isSlice := ix.(*syntax.Slice); isSlice {
			lo, okl := toLin(sl.Lo, tp)
			hi, okh := toLin(sl.Hi, tp)
			if !okl || !okh || !pi.nonneg(lo.add(offl, -1), iters) || !pi.nonneg(offl.add(szl, 1).add(hi, -1), iters) {
				return nil, errorf(CodeAlloc, "resize_dim: cannot prove that %s stays inside [%s, %s + %s)", syntax.ExprString(x), offText, offText, sizeText).at(at, "this access")
			}
			x.Indices[dim] = &syntax.Slice{Lo: lo.add(offl, -1).expr(), Hi: hi.add(offl, -1).expr()}
			return x, nil
		}
		l, ok := toLin(ix, tp)
		if !ok || !pi.nonneg(l.add(offl, -1), iters) || !pi.nonneg(offl.add(szl, 1).add(l, -1).add(constLin(1), -1), iters) {
			return nil, errorf(CodeAlloc, "resize_dim: cannot prove that %s stays inside [%s, %s + %s)", syntax.ExprString(x), offText, offText, sizeText).at(at, "this access")
		}
		x.Indices[dim] = l.add(offl, -1).expr()
		return x, nil
	})
	if err != nil {
		return err
	}
	a.Type.Dims[dim] = sz
	return nil
}

// commuteExpr swaps the operands of every `a + b` or `a * b` in a
// statement whose text is expr (Exo's commute_expr). IEEE addition and
// multiplication are commutative, so the values are bit-identical.
func (w *workspace) commuteExpr(p *syntax.Proc, sel, exprText string) error {
	c, err := w.find(p, sel)
	if err != nil {
		return err
	}
	target, err := parseExpr(exprText)
	if err != nil {
		return errorf(CodeExpr, "commute_expr: %v", err)
	}
	tb, ok := target.(*syntax.Binary)
	if !ok || (tb.Op != "+" && tb.Op != "*") {
		return errorf(CodeExpr, "commute_expr: %s is not a sum or product", exprText)
	}
	want := syntax.ExprString(target)
	n := 0
	for _, e := range stmtExprs(c.stmt) {
		walkExpr(e, func(x syntax.Expr) {
			if b, ok := x.(*syntax.Binary); ok && syntax.ExprString(b) == want {
				b.X, b.Y = b.Y, b.X
				n++
			}
		})
	}
	if n == 0 {
		return errorf(CodeExpr, "commute_expr: no %s in the statement", want).at(c.stmt, "this statement")
	}
	return nil
}

// bindExpr evaluates a data expression of a statement into a new scalar
// just before it (Exo's bind_expr): `name: T @ mem; name = e` and e
// replaced by name in the statement. Nothing runs between the two, so the
// statement sees the same value. T is the element type of the first
// buffer e reads.
func (w *workspace) bindExpr(p *syntax.Proc, sel, exprText, name, mem string) error {
	c, err := w.find(p, sel)
	if err != nil {
		return err
	}
	as, ok := c.stmt.(*syntax.Assign)
	if !ok {
		return errorf(CodeExpr, "bind_expr: %s is not an assignment or reduction", stmtKind(c.stmt)).at(c.stmt, "this statement")
	}
	pi := w.info(p)
	if err := pi.fresh(name); err != nil {
		return err
	}
	if w.lib.Memories[mem] == nil {
		return errorf(CodeExpr, "bind_expr: unknown data memory %s", mem)
	}
	target, err := parseExpr(exprText)
	if err != nil {
		return errorf(CodeExpr, "bind_expr: %v", err)
	}
	want := syntax.ExprString(target)
	var elem *syntax.Name
	walkExpr(target, func(x syntax.Expr) {
		n, ok := x.(*syntax.Name)
		if !ok || elem != nil {
			return
		}
		if ni := pi.names[n.Name]; ni != nil && ni.kind == "data" && ni.typ != nil && ni.typ.Elem != nil {
			elem = ni.typ.Elem
		}
	})
	if elem == nil {
		return errorf(CodeExpr, "bind_expr: %s reads no data buffer, so it has no element type", want)
	}
	n := 0
	as.RHS = replaceExprs(as.RHS, func(x syntax.Expr) (syntax.Expr, bool) {
		if syntax.ExprString(x) == want {
			n++
			return &syntax.Name{Name: name}, true
		}
		if _, isIndex := x.(*syntax.Index); isIndex {
			return x, true // an element access: its indices are not data
		}
		return nil, false
	})
	if n == 0 {
		return errorf(CodeExpr, "bind_expr: no %s in the right-hand side", want).at(c.stmt, "this statement")
	}
	al := &syntax.Alloc{Name: &syntax.Name{Name: name}, Type: &syntax.Type{Elem: &syntax.Name{Name: elem.Name}, Mem: &syntax.Name{Name: mem}}}
	set := &syntax.Assign{LHS: &syntax.Name{Name: name}, Op: "=", RHS: target}
	splice(c.block(), c.idx(), 0, []syntax.Stmt{al, set})
	return nil
}

// inlineWindow replaces every use of a window statement `v = b[...]` by
// the access into b it stands for and deletes the statement (Exo's
// inline_window): the same elements are accessed.
func (w *workspace) inlineWindow(p *syntax.Proc, name string) error {
	pi := w.info(p)
	ni := pi.names[name]
	if ni == nil || ni.kind != "window" {
		return errorf(CodeAlloc, "inline_window: %s is not a window statement of %s", name, p.Name.Name)
	}
	ws := ni.decl.(*syntax.Assign)
	if ws.Mem != nil {
		return errorf(CodeAlloc, "inline_window: window %s has its own memory (%s); its uses cannot become plain accesses", name, syntax.ExprString(ws.Mem)).at(ws, "the window")
	}
	wix, ok := ws.RHS.(*syntax.Index)
	if !ok {
		return errorf(CodeAlloc, "inline_window: %s is not a window of a buffer", name).at(ws, "the window")
	}
	c := locateIn(p, ws)
	if c == nil {
		return errorf(CodeAlloc, "inline_window: window %s not found", name)
	}
	rest := (*c.block())[c.idx()+1:]
	err := rewriteUses(rest, name, func(e syntax.Expr, at syntax.Stmt) (syntax.Expr, error) {
		var idx []syntax.Expr
		if x, ok := e.(*syntax.Index); ok {
			idx = x.Indices
		}
		if len(idx) == 0 {
			return &syntax.Index{X: &syntax.Name{Name: syntax.ExprString(wix.X)}, Indices: cloneExprs(wix.Indices)}, nil
		}
		out, err := composeWindow(wix.Indices, idx)
		if err != nil {
			return nil, errorf(CodeAlloc, "inline_window: %v", err).at(at, "here")
		}
		r := &syntax.Index{X: &syntax.Name{Name: syntax.ExprString(wix.X)}, Indices: out}
		return normExpr(r, pi.textual(), nil), nil
	})
	if err != nil {
		return err
	}
	splice(c.block(), c.idx(), 1, nil)
	if len(*c.block()) == 0 {
		*c.block() = []syntax.Stmt{&syntax.Pass{}}
	}
	return nil
}

// floatRank orders the floating-point element types by the values they
// hold: f16 and bf16 are both subsets of f32, which is a subset of f64.
var floatRank = map[string]int{"f16": 1, "bf16": 1, "f32": 2, "f64": 3}

// holds reports whether every value of type a is a value of type b.
func holds(b, a string) bool {
	// Exo's R is resolved as Weft resolves it everywhere (f32 unless a
	// set_precision says otherwise, docs/weft-reference.md), so set_precision
	// on an R buffer widens or keeps an f32 one.
	a, b = lib.ResolveElem(a), lib.ResolveElem(b)
	if a == b {
		return true
	}
	ra, okA := floatRank[a]
	rb, okB := floatRank[b]
	return okA && okB && ra < rb
}

// setPrecision changes the element type of an allocation (Exo's
// set_precision) where that provably changes no value: the new type holds
// every value of the old one, and the buffer is only copied, every use a
// plain copy `dst[...] = src[...]`, the writes from buffers whose values
// the old type holds. Then it holds exactly the values it held before, and
// each copy out of it rounds the same value as before. (Arithmetic reading
// the buffer would be computed in the wider type, changing results; it is
// refused.)
func (w *workspace) setPrecision(p *syntax.Proc, name, typ string) error {
	c, a, err := findAlloc(p, name, "set_precision")
	if err != nil {
		return err
	}
	old := a.Type.Elem.Name
	if _, ok := floatRank[typ]; !ok {
		return errorf(CodeAlloc, "set_precision: %s is not a floating-point type (f16, bf16, f32, f64)", typ)
	}
	if !holds(typ, old) {
		return errorf(CodeAlloc, "set_precision: %s does not hold every %s value; the values %s holds would change", typ, old, name).at(a, "the allocation")
	}
	pi := w.info(p)
	elemOf := func(e syntax.Expr) string {
		base := e
		if ix, ok := e.(*syntax.Index); ok {
			base = ix.X
		}
		if n, ok := base.(*syntax.Name); ok {
			if ni := pi.names[n.Name]; ni != nil && ni.typ != nil && ni.typ.Elem != nil {
				return ni.typ.Elem.Name
			}
		}
		return ""
	}
	isAccess := func(e syntax.Expr) bool {
		switch x := e.(type) {
		case *syntax.Name:
			return pi.isData(x.Name)
		case *syntax.Index:
			_, ok := x.X.(*syntax.Name)
			return ok
		}
		return false
	}
	var bad syntax.Stmt
	var why string
	walkStmts((*c.block())[c.idx()+1:], func(s syntax.Stmt) {
		if bad != nil || !stmtsMention([]syntax.Stmt{shallowHeader(s)}, name) {
			return
		}
		as, ok := s.(*syntax.Assign)
		if !ok || as.Op != "=" || !isAccess(as.LHS) || !isAccess(as.RHS) {
			bad, why = s, "it is not a plain copy"
			return
		}
		lhsIsBuf := mentions(as.LHS, name) && elemOf(as.LHS) == old
		if lhsIsBuf && !holds(old, elemOf(as.RHS)) {
			bad, why = s, "the copied values are "+elemOf(as.RHS)
		}
	})
	if bad != nil {
		return errorf(CodeAlloc, "set_precision: %s is used other than by plain copies (%s)", name, why).at(bad, "here")
	}
	a.Type.Elem = &syntax.Name{Name: typ}
	return nil
}
