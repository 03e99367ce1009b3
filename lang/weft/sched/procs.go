package sched

import (
	"fmt"
	"sort"

	"weft.dev/weft/lang/weft/check"
	"weft.dev/weft/lang/weft/syntax"
)

// Proc-level vocabulary (Exo's inline, extract_subproc, call_eqv, and a
// copy of a proc as Exo's procs are values): calls between procs of the
// file. Equivalence classes track which procs compute the same function:
// a copy or a rewrite keeps its proc's class (every rewrite but add_assert
// preserves the sequential meaning; add_assert narrows the domain and so
// starts a new class), and call_eqv swaps a call to one member of a class
// for a call to another.

// class returns the equivalence class of the proc at decl.
func (w *workspace) class(decl int) int {
	if w.eqv == nil {
		w.eqv = map[int]int{}
	}
	c, ok := w.eqv[decl]
	if !ok {
		w.nextClass++
		c = w.nextClass
		w.eqv[decl] = c
	}
	return c
}

// newClass gives the proc at decl a class of its own (its meaning changed).
func (w *workspace) newClass(decl int) {
	w.class(decl)
	w.nextClass++
	w.eqv[decl] = w.nextClass
}

// copyProc appends a copy of a proc under a new name; the copy is in the
// same equivalence class.
func (w *workspace) copyProc(name, newName string) error {
	d, i, err := w.proc(name)
	if err != nil {
		return err
	}
	if err := w.freshProcName(newName); err != nil {
		return err
	}
	c := cloneProc(d)
	c.Name = &syntax.Name{Name: newName}
	cls := w.class(i)
	w.file.Decls = append(w.file.Decls, c)
	w.eqv[len(w.file.Decls)-1] = cls
	return nil
}

// freshProcName checks that a new proc name is free in the file and the
// library.
func (w *workspace) freshProcName(name string) error {
	if !isIdent(name) || reserved[name] {
		return errorf(CodeProcs, "%q is not a valid proc name", name)
	}
	for _, d := range w.file.Decls {
		switch d := d.(type) {
		case *syntax.Proc:
			if d.Name.Name == name {
				return errorf(CodeNameClash, "the file already has a proc %s", name).at(d, "declared here")
			}
		case *syntax.Global:
			for _, n := range d.Names {
				if n.Name == name {
					return errorf(CodeNameClash, "%s is a global of the file", name).at(d, "declared here")
				}
			}
		}
	}
	if w.lib.HasProc(name) || w.lib.Memories[name] != nil {
		return errorf(CodeNameClash, "%s is a library name", name)
	}
	return nil
}

// callEqv replaces the callee of a call by another proc of the file in the
// same equivalence class with the same parameters (Exo's call_eqv).
func (w *workspace) callEqv(p *syntax.Proc, sel, other string) error {
	c, err := w.find(p, sel)
	if err != nil {
		return err
	}
	cs, ok := c.stmt.(*syntax.CallStmt)
	if !ok {
		return errorf(CodeProcs, "call_eqv: %s is not a call", stmtKind(c.stmt)).at(c.stmt, "this statement")
	}
	_, ci, err := w.proc(cs.Call.FunName())
	if err != nil {
		return errorf(CodeProcs, "call_eqv: %s is not a proc of the file", cs.Call.FunName()).at(cs, "this call")
	}
	od, oi, err := w.proc(other)
	if err != nil {
		return err
	}
	callee := w.file.Decls[ci].(*syntax.Proc)
	if w.class(ci) != w.class(oi) {
		return errorf(CodeProcs, "call_eqv: %s is not known to compute what %s computes (it was not derived from it by meaning-preserving rewrites)", other, callee.Name.Name).at(od, "%s", other)
	}
	if len(callee.Params) != len(od.Params) {
		return errorf(CodeProcs, "call_eqv: %s and %s have different parameters", callee.Name.Name, other).at(od, "%s", other)
	}
	for k := range callee.Params {
		a, b := callee.Params[k], od.Params[k]
		if a.Name.Name != b.Name.Name || a.Type.Elem.Name != b.Type.Elem.Name || len(a.Type.Dims) != len(b.Type.Dims) {
			return errorf(CodeProcs, "call_eqv: parameter %d differs: %s and %s", k, a.Name.Name, b.Name.Name).at(b, "here")
		}
	}
	cs.Call.Fun = &syntax.Name{Name: other}
	return nil
}

// inlineCall replaces a call to a proc of the file by the callee's body
// with the arguments substituted (Exo's inline): control parameters by the
// argument expressions, scalar data parameters by the argument, tensor
// parameters by accesses into the argument's buffer (window offsets
// added). The callee's asserts must hold for the arguments (decided
// statically), since the inlined body no longer checks them. Local names
// of the callee that clash with the caller's get fresh names.
func (w *workspace) inlineCall(p *syntax.Proc, sel string) error {
	c, err := w.find(p, sel)
	if err != nil {
		return err
	}
	cs, ok := c.stmt.(*syntax.CallStmt)
	if !ok {
		return errorf(CodeProcs, "inline: %s is not a call", stmtKind(c.stmt)).at(c.stmt, "this statement")
	}
	name := cs.Call.FunName()
	callee, _, err := w.proc(name)
	if err != nil || isInstrDecl(callee) {
		return errorf(CodeProcs, "inline: %s is not a proc of the file (instructions are replaced, not inlined)", name).at(cs, "this call")
	}
	if name == p.Name.Name {
		return errorf(CodeProcs, "inline: %s calls itself", name).at(cs, "this call")
	}
	if len(cs.Barriers) > 0 {
		return errorf(CodeProcs, "inline: the call completes on barriers").at(cs, "this call")
	}
	bound, probs := check.BindArgs(callee.Params, cs.Call)
	if len(probs) > 0 {
		return errorf(CodeProcs, "inline: the arguments do not bind to the parameters of %s", name).at(cs, "this call")
	}
	pi := w.info(p)
	body := cloneStmts(callee.Body)
	// Rename the callee's local names that the caller already uses.
	taken := pi.allNames()
	locals := map[string]bool{}
	walkStmts(body, func(s syntax.Stmt) {
		switch s := s.(type) {
		case *syntax.For:
			locals[s.Var.Name] = true
		case *syntax.Alloc:
			locals[s.Name.Name] = true
		case *syntax.Assign:
			if n, ok := s.LHS.(*syntax.Name); ok && isWindowRHS(s) {
				locals[n.Name] = true
			}
		}
	})
	var asserts []*syntax.Assert
	var rest []syntax.Stmt
	for _, s := range body {
		if a, ok := s.(*syntax.Assert); ok && len(rest) == 0 {
			asserts = append(asserts, a)
			continue
		}
		rest = append(rest, s)
	}
	body = rest
	for _, l := range sortedKeys(locals) {
		if taken[l] {
			nn := pi.freshLike(l, taken)
			renameName(body, l, nn)
		}
	}
	// Substitute parameters.
	ctrl := map[string]syntax.Expr{}
	for k, prm := range callee.Params {
		arg := bound[k]
		if arg == nil {
			return errorf(CodeProcs, "inline: no argument for parameter %s", prm.Name.Name).at(cs, "this call")
		}
		switch prm.Type.Elem.Name {
		case "size", "index", "stride", "bool":
			ctrl[prm.Name.Name] = arg
		}
	}
	for k, prm := range callee.Params {
		switch prm.Type.Elem.Name {
		case "size", "index", "stride", "bool":
			substStmts(body, prm.Name.Name, bound[k])
			continue
		}
		arg := bound[k]
		pn := prm.Name.Name
		if len(prm.Type.Dims) == 0 {
			err := rewriteUses(body, pn, func(e syntax.Expr, at syntax.Stmt) (syntax.Expr, error) {
				if _, ok := e.(*syntax.Name); !ok {
					return nil, errorf(CodeProcs, "inline: scalar %s is indexed", pn).at(at, "here")
				}
				return cloneExpr(arg), nil
			})
			if err != nil {
				return err
			}
			continue
		}
		base, widx := arg, []syntax.Expr(nil)
		if ix, ok := arg.(*syntax.Index); ok {
			base, widx = ix.X, ix.Indices
		}
		bn, ok := base.(*syntax.Name)
		if !ok || !pi.isData(bn.Name) {
			return errorf(CodeProcs, "inline: argument %s for %s is not a buffer or a window of one", syntax.ExprString(arg), pn).at(cs, "this call")
		}
		if widx == nil {
			bt := pi.names[bn.Name].typ
			if bt == nil {
				return errorf(CodeProcs, "inline: cannot inline through window %s", bn.Name).at(cs, "this call")
			}
			for range bt.Dims {
				widx = append(widx, &syntax.Slice{})
			}
		}
		err := rewriteUses(body, pn, func(e syntax.Expr, at syntax.Stmt) (syntax.Expr, error) {
			x, ok := e.(*syntax.Index)
			if !ok {
				return &syntax.Index{X: &syntax.Name{Name: bn.Name}, Indices: cloneExprs(widx)}, nil
			}
			out, err := composeWindow(widx, x.Indices)
			if err != nil {
				return nil, errorf(CodeProcs, "inline: %v", err).at(at, "here")
			}
			return &syntax.Index{X: &syntax.Name{Name: bn.Name}, Indices: out}, nil
		})
		if err != nil {
			return err
		}
	}
	// The asserts must hold for the bound arguments.
	for _, a := range asserts {
		cond := substMany(cloneExpr(a.Cond), ctrl)
		if v, ok := evalCond(cond, pi); !ok || !v {
			return errorf(CodeProcs, "inline: cannot prove the assert %s of %s for this call (%s)", syntax.ExprString(a.Cond), name, syntax.ExprString(cond)).at(cs, "this call").at(a, "the assert")
		}
	}
	if len(body) == 0 {
		body = []syntax.Stmt{&syntax.Pass{}}
	}
	w.forward(cs, body[0])
	splice(c.block(), c.idx(), 1, body)
	// Normalize the inlined indices with the callee's loops now in scope.
	normStmts(body, w.info(p).textual(), nil, false)
	return nil
}

func cloneExprs(es []syntax.Expr) []syntax.Expr {
	if es == nil {
		return nil
	}
	out := make([]syntax.Expr, len(es))
	for i, e := range es {
		out[i] = cloneExpr(e)
	}
	return out
}

// composeWindow composes a window's indices with the indices of an access
// through it: slice dimensions of the window take the access's indices
// (offset by the slice's start), point dimensions stay.
func composeWindow(widx, idx []syntax.Expr) ([]syntax.Expr, error) {
	var out []syntax.Expr
	k := 0
	for _, wi := range widx {
		sl, isSlice := wi.(*syntax.Slice)
		if !isSlice {
			out = append(out, cloneExpr(wi))
			continue
		}
		if k >= len(idx) {
			return nil, fmt.Errorf("the access has %d indices, the window %d dimensions", len(idx), k+1)
		}
		lo := syntax.Expr(intLit(0))
		if sl.Lo != nil {
			lo = sl.Lo
		}
		if isl, ok := idx[k].(*syntax.Slice); ok {
			ilo := syntax.Expr(intLit(0))
			if isl.Lo != nil {
				ilo = isl.Lo
			}
			var hi syntax.Expr
			if isl.Hi != nil {
				hi = &syntax.Binary{Op: "+", X: cloneExpr(lo), Y: isl.Hi}
			} else {
				hi = cloneExpr(sl.Hi)
			}
			out = append(out, &syntax.Slice{Lo: &syntax.Binary{Op: "+", X: cloneExpr(lo), Y: ilo}, Hi: hi})
		} else {
			out = append(out, &syntax.Binary{Op: "+", X: cloneExpr(lo), Y: idx[k]})
		}
		k++
	}
	if k != len(idx) {
		return nil, fmt.Errorf("the access has %d indices, the window %d dimensions", len(idx), k)
	}
	return out, nil
}

// renameName renames a local name (loop iterator, allocation, window) in
// statements.
func renameName(ss []syntax.Stmt, old, nn string) {
	walkStmts(ss, func(s syntax.Stmt) {
		switch s := s.(type) {
		case *syntax.For:
			if s.Var.Name == old {
				s.Var = &syntax.Name{Name: nn}
			}
		case *syntax.Alloc:
			if s.Name.Name == old {
				s.Name = &syntax.Name{Name: nn}
			}
		case *syntax.Free:
			if s.Name.Name == old {
				s.Name = &syntax.Name{Name: nn}
			}
		}
	})
	_ = rewriteUses(ss, old, func(e syntax.Expr, at syntax.Stmt) (syntax.Expr, error) {
		switch x := e.(type) {
		case *syntax.Name:
			return &syntax.Name{Name: nn}, nil
		case *syntax.Index:
			x.X = &syntax.Name{Name: nn}
			return x, nil
		}
		return e, nil
	})
	substStmts(ss, old, &syntax.Name{Name: nn})
}

// extractSubproc moves a block into a new proc of the file and replaces it
// by a call (Exo's extract_subproc). The new proc's parameters are the
// control values the block uses (sizes, then indices for the caller's
// iterators and index parameters) and the data buffers it accesses that
// are declared outside it, with their types; Weft passes buffers by
// reference, so the call performs exactly the block's accesses.
func (w *workspace) extractSubproc(p *syntax.Proc, sel string, count int, name string) error {
	c, stmts, err := w.blockAt(p, sel, count, "extract_subproc")
	if err != nil {
		return err
	}
	if err := w.freshProcName(name); err != nil {
		return err
	}
	pi := w.info(p)
	inner := map[string]bool{}
	walkStmts(stmts, func(s syntax.Stmt) {
		switch s := s.(type) {
		case *syntax.For:
			inner[s.Var.Name] = true
		case *syntax.Alloc:
			inner[s.Name.Name] = true
		case *syntax.Assign:
			if n, ok := s.LHS.(*syntax.Name); ok && pi.names[n.Name] != nil && pi.names[n.Name].decl == syntax.Node(s) {
				inner[n.Name] = true
			}
		}
	})
	used := map[string]bool{}
	namesUsed(stmts, used)
	// Names the block declares must not be used after it.
	after := (*c.block())[c.idx()+count:]
	for _, n := range sortedKeys(inner) {
		if ni := pi.names[n]; ni != nil && ni.kind != "iter" && stmtsMention(after, n) {
			return errorf(CodeProcs, "extract_subproc: %s is declared in the block and used after it", n).at(c.stmt, "the block starts here")
		}
	}
	var ctrlNames, dataNames []string
	for _, n := range sortedKeys(used) {
		if inner[n] {
			continue
		}
		ni := pi.names[n]
		if ni == nil {
			continue // globals, library names, timelines
		}
		switch ni.kind {
		case "size", "index", "stride", "bool", "iter":
			ctrlNames = append(ctrlNames, n)
		case "data":
			dataNames = append(dataNames, n)
		default:
			return errorf(CodeProcs, "extract_subproc: the block uses %s, a %s declared outside it", n, ni.kind).at(c.stmt, "the block starts here")
		}
	}
	// Sizes the data types mention are parameters too.
	for _, n := range dataNames {
		for _, d := range pi.names[n].typ.Dims {
			walkExpr(d, func(x syntax.Expr) {
				if nm, ok := x.(*syntax.Name); ok && pi.names[nm.Name] != nil && !containsStr(ctrlNames, nm.Name) {
					ctrlNames = append(ctrlNames, nm.Name)
				}
			})
		}
	}
	sort.SliceStable(ctrlNames, func(a, b int) bool {
		return kindRank(pi.names[ctrlNames[a]].kind) < kindRank(pi.names[ctrlNames[b]].kind)
	})
	var params []*syntax.Param
	var args []syntax.Expr
	for _, n := range ctrlNames {
		k := pi.names[n].kind
		for _, d := range dataNames {
			for _, dim := range pi.names[d].typ.Dims {
				if mentions(dim, n) && k != "size" {
					return errorf(CodeProcs, "extract_subproc: the shape of %s uses %s, which is not a size", d, n).at(pi.names[d].decl, "declared here")
				}
			}
		}
		if k == "iter" {
			k = "index"
		}
		params = append(params, &syntax.Param{Name: &syntax.Name{Name: n}, Type: &syntax.Type{Elem: &syntax.Name{Name: k}}})
		args = append(args, &syntax.Name{Name: n})
	}
	for _, n := range dataNames {
		typ := pi.names[n].typ
		nt := &syntax.Type{Elem: &syntax.Name{Name: typ.Elem.Name}, Dims: cloneExprs(typ.Dims), Mem: cloneExpr(typ.Mem)}
		params = append(params, &syntax.Param{Name: &syntax.Name{Name: n}, Type: nt})
		args = append(args, &syntax.Name{Name: n})
	}
	sub := &syntax.Proc{Decorators: []syntax.Expr{&syntax.Name{Name: "proc"}}, DecoratorComments: []string{""}, Name: &syntax.Name{Name: name}, Params: params, Body: w.cloneFwd(stmts)}
	call := &syntax.CallStmt{Call: &syntax.Call{Fun: &syntax.Name{Name: name}, Args: args}}
	splice(c.block(), c.idx(), count, []syntax.Stmt{call})
	w.pendingProcs = append(w.pendingProcs, sub)
	return nil
}

func containsStr(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func kindRank(k string) int {
	switch k {
	case "size":
		return 0
	case "stride":
		return 1
	case "index", "iter":
		return 2
	}
	return 3
}

// reuseBuffer lets an allocation reuse an earlier one of the same type in
// the same block (Exo's reuse_buffer): the later allocation is deleted and
// its uses renamed, provided the earlier buffer is dead from the later
// allocation on (nothing after it mentions it). Every value the later
// buffer's uses read was written through it, so they read the same values.
func (w *workspace) reuseBuffer(p *syntax.Proc, buf, repl string) error {
	c1, a1, err := findAlloc(p, buf, "reuse_buffer")
	if err != nil {
		return err
	}
	c2, a2, err := findAlloc(p, repl, "reuse_buffer")
	if err != nil {
		return err
	}
	if c1.block() != c2.block() || c1.idx() >= c2.idx() {
		return errorf(CodeAlloc, "reuse_buffer: %s must be allocated in the same block before %s", buf, repl).at(a1, "%s", buf).at(a2, "%s", repl)
	}
	t1 := syntax.Print(&syntax.File{Decls: []syntax.Decl{&syntax.Proc{Name: &syntax.Name{Name: "t"}, Body: []syntax.Stmt{&syntax.Alloc{Name: &syntax.Name{Name: "x"}, Type: a1.Type}}}}})
	t2 := syntax.Print(&syntax.File{Decls: []syntax.Decl{&syntax.Proc{Name: &syntax.Name{Name: "t"}, Body: []syntax.Stmt{&syntax.Alloc{Name: &syntax.Name{Name: "x"}, Type: a2.Type}}}}})
	if t1 != t2 {
		return errorf(CodeAlloc, "reuse_buffer: %s and %s have different types", buf, repl).at(a1, "%s", buf).at(a2, "%s", repl)
	}
	rest := (*c2.block())[c2.idx()+1:]
	if stmtsMention(rest, buf) {
		return errorf(CodeAlloc, "reuse_buffer: %s is still used after %s is allocated", buf, repl).at(a2, "%s is allocated here", repl)
	}
	renameName(rest, repl, buf)
	splice(c2.block(), c2.idx(), 1, nil)
	return nil
}
