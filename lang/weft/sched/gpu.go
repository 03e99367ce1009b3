package sched

import (
	"strings"

	"weft.dev/weft/lang/weft/syntax"
)

// GPU scheduling operations for the Hopper derivation (seed 000 §3.7
// "window types", §5 synchronization): tensor-map window statements and
// the redirection of a block's accesses through them. Like the other
// annotation rewrites they do not change the sequential meaning: a window
// statement names the same elements as its buffer (the sequential
// semantics ignores its memory), and sync statements are no-ops.

// insertWindow adds `name = buf[:, ..., :] @ mem` before (or after) a
// statement: a window over the whole of a data parameter or allocation
// with a window memory such as Sm90_tensorMap(128, 128, 32).
func (w *workspace) insertWindow(p *syntax.Proc, where, name, buf, memText string, before bool) error {
	c, err := w.find(p, where)
	if err != nil {
		return err
	}
	pi := w.info(p)
	if err := pi.fresh(name); err != nil {
		return err
	}
	ni := pi.names[buf]
	if ni == nil || ni.kind != "data" || ni.typ == nil || len(ni.typ.Dims) == 0 {
		return errorf(CodeMemory, "insert_window: %s is not a data parameter or allocation of %s with dimensions", buf, p.Name.Name)
	}
	if !isParam(p, buf) {
		var decl syntax.Stmt
		if d, ok := ni.decl.(syntax.Stmt); ok {
			decl = d
		}
		if dc := locateIn(p, decl); dc == nil || !beforeIn(dc, c) {
			return errorf(CodeMemory, "insert_window: %s is not allocated before the statement", buf).at(c.stmt, "here")
		}
	}
	me, err := parseExpr(memText)
	if err != nil {
		return errorf(CodeMemory, "insert_window: memory: %v", err)
	}
	base := me
	if call, ok := me.(*syntax.Call); ok {
		base = call.Fun
	}
	bn, ok := base.(*syntax.Name)
	if !ok || w.lib.Windows[bn.Name] == nil {
		return errorf(CodeMemory, "insert_window: %s is not a special window type of the library (it has %s)", memText, strings.Join(sortedKeys(w.lib.Windows), ", "))
	}
	var idx []syntax.Expr
	for range ni.typ.Dims {
		idx = append(idx, &syntax.Slice{})
	}
	ws := &syntax.Assign{LHS: &syntax.Name{Name: name}, Op: "=", RHS: &syntax.Index{X: &syntax.Name{Name: buf}, Indices: idx}, Mem: me}
	i := c.idx() + 1
	if before {
		i = c.idx()
	}
	splice(c.block(), i, 0, []syntax.Stmt{ws})
	return nil
}

// beforeIn reports whether statement a is declared where b can see it: in
// a block enclosing b (or b's own block) at an earlier index.
func beforeIn(a, b *cursor) bool {
	la := a.path[len(a.path)-1]
	for _, lb := range b.path {
		if lb.block == la.block {
			return la.idx < lb.idx
		}
	}
	return false
}

// useWindow redirects a block's accesses to a buffer through a window
// statement over all of it (`v = b[:, ..., :] @ mem`, declared before the
// block): b[e...] becomes v[e...], the same element. This is how a copy
// loop comes to read a tensor map, so that replace can unify it with a TMA
// instruction whose GMEM operand lives in Sm90_tensorMap.
func (w *workspace) useWindow(p *syntax.Proc, sel string, count int, name string) error {
	c, stmts, err := w.blockAt(p, sel, count, "use_window")
	if err != nil {
		return err
	}
	pi := w.info(p)
	ni := pi.names[name]
	if ni == nil || ni.kind != "window" {
		return errorf(CodeMemory, "use_window: %s is not a window statement of %s", name, p.Name.Name)
	}
	ws := ni.decl.(*syntax.Assign)
	ix, ok := ws.RHS.(*syntax.Index)
	if !ok {
		return errorf(CodeMemory, "use_window: %s does not window a buffer", name).at(ws, "the window")
	}
	bn, ok := ix.X.(*syntax.Name)
	bi := pi.names[syntax.ExprString(ix.X)]
	if !ok || bi == nil || bi.typ == nil || len(bi.typ.Dims) != len(ix.Indices) {
		return errorf(CodeMemory, "use_window: %s does not window a buffer", name).at(ws, "the window")
	}
	tp := pi.textual()
	for k, e := range ix.Indices {
		sl, isSlice := e.(*syntax.Slice)
		full := isSlice
		if isSlice && sl.Lo != nil {
			l, ok := toLin(sl.Lo, tp)
			full = full && ok && l.isConst() && l.Const == 0
		}
		if isSlice && sl.Hi != nil {
			h, ok1 := toLin(sl.Hi, tp)
			d, ok2 := toLin(bi.typ.Dims[k], tp)
			full = full && ok1 && ok2 && h.equal(d)
		}
		if !full {
			return errorf(CodeMemory, "use_window: %s is not a window over all of %s (dimension %d is %s)", name, bn.Name, k, syntax.ExprString(e)).at(ws, "the window")
		}
	}
	wc := locateIn(p, ws)
	if wc == nil || !beforeIn(wc, c) {
		return errorf(CodeMemory, "use_window: the window %s is not declared before the block", name).at(c.stmt, "the block starts here")
	}
	n := 0
	err = rewriteUses(stmts, bn.Name, func(e syntax.Expr, at syntax.Stmt) (syntax.Expr, error) {
		x, ok := e.(*syntax.Index)
		if !ok {
			return nil, errorf(CodeMemory, "use_window: the block uses %s whole; only element and window accesses are redirected", bn.Name).at(at, "here")
		}
		n++
		x.X = &syntax.Name{Name: name}
		return x, nil
	})
	if err != nil {
		return err
	}
	if n == 0 {
		return errorf(CodeMemory, "use_window: the block does not access %s", bn.Name).at(c.stmt, "the block starts here")
	}
	return nil
}
