package sched

import (
	"weft.dev/weft/lang/weft/syntax"
)

// Allocation rewrites. Seed 002 ("Distributed memory") has the user shape
// distributed memory through loop structure and allocation rewrites
// (reorder_dim, §3.11 of the spec digest): a per-thread accumulator becomes
// one element of a tile indexed by the cuda_threads iterator. These
// rewrites relabel or move a buffer's storage without changing which value
// each access reads.

// findAlloc returns the cursor of the allocation of name.
func findAlloc(p *syntax.Proc, name, op string) (*cursor, *syntax.Alloc, error) {
	c, err := find(p, name+": _")
	if err != nil {
		return nil, nil, errorf(CodeNoMatch, "%s: proc %s allocates no %s (parameters cannot be rewritten)", op, p.Name.Name, name)
	}
	return c, c.stmt.(*syntax.Alloc), nil
}

// rewriteUses applies f to every reference to name in the statements
// (element and window accesses as *syntax.Index, bare uses as
// *syntax.Name); f returns the replacement or an error.
func rewriteUses(ss []syntax.Stmt, name string, f func(e syntax.Expr, at syntax.Stmt) (syntax.Expr, error)) error {
	var firstErr error
	var rw func(e syntax.Expr, at syntax.Stmt) syntax.Expr
	rw = func(e syntax.Expr, at syntax.Stmt) syntax.Expr {
		if firstErr != nil {
			return e
		}
		switch x := e.(type) {
		case *syntax.Name:
			if x.Name == name {
				r, err := f(x, at)
				if err != nil {
					firstErr = err
					return e
				}
				return r
			}
		case *syntax.Index:
			if n, ok := x.X.(*syntax.Name); ok && n.Name == name {
				r, err := f(x, at)
				if err != nil {
					firstErr = err
					return e
				}
				return r
			}
			x.X = rw(x.X, at)
			for i := range x.Indices {
				x.Indices[i] = rw(x.Indices[i], at)
			}
		case *syntax.Binary:
			x.X = rw(x.X, at)
			x.Y = rw(x.Y, at)
		case *syntax.Unary:
			x.X = rw(x.X, at)
		case *syntax.Slice:
			x.Lo = rw(x.Lo, at)
			x.Hi = rw(x.Hi, at)
		case *syntax.Call:
			for i := range x.Args {
				x.Args[i] = rw(x.Args[i], at)
			}
			for _, k := range x.Kwargs {
				k.Value = rw(k.Value, at)
			}
		}
		return e
	}
	walkStmts(ss, func(s syntax.Stmt) {
		switch s := s.(type) {
		case *syntax.Assign:
			s.LHS = rw(s.LHS, s)
			s.RHS = rw(s.RHS, s)
		case *syntax.CallStmt:
			rw(s.Call, s)
			for i := range s.Barriers {
				s.Barriers[i] = rw(s.Barriers[i], s)
			}
		case *syntax.Arrive:
			for i := range s.Barriers {
				s.Barriers[i] = rw(s.Barriers[i], s)
			}
		case *syntax.Await:
			s.Bar = rw(s.Bar, s)
		case *syntax.For:
			s.Lo = rw(s.Lo, s)
			s.Hi = rw(s.Hi, s)
		case *syntax.If:
			s.Cond = rw(s.Cond, s)
		case *syntax.Alloc:
			for i := range s.Type.Dims {
				s.Type.Dims[i] = rw(s.Type.Dims[i], s)
			}
		case *syntax.Free:
			if s.Name.Name == name {
				firstErr = errorf(CodeAlloc, "%s is freed explicitly", name).at(s, "here")
			}
		case *syntax.Assert:
			s.Cond = rw(s.Cond, s)
		}
	})
	return firstErr
}

// scopeAt returns the names usable at the cursor position for an
// expression evaluated there: the proc's control parameters, integer
// globals and the enclosing loops' iterators; and the enclosing iterators
// with their ranges for proofs.
func (pi *procInfo) scopeAt(c *cursor) (map[string]bool, []iterRange) {
	ok := map[string]bool{}
	for _, prm := range pi.proc.Params {
		if ni := pi.names[prm.Name.Name]; ni != nil && ni.kind != "data" && ni.kind != "barrier" {
			ok[prm.Name.Name] = true
		}
	}
	for n := range pi.ws.consts {
		ok[n] = true
	}
	var iters []iterRange
	tp := pi.textual()
	for _, f := range c.loops() {
		ok[f.Var.Name] = true
		lo, ok1 := toLin(f.Lo, tp)
		hi, ok2 := toLin(f.Hi, tp)
		if ok1 && ok2 {
			iters = append(iters, iterRange{f.Var.Name, lo, hi})
		}
	}
	return ok, iters
}

// expandDim adds a leading dimension of extent size to an allocation and
// indexes every use of it with index (Exo's expand_dim). index may use only
// names fixed for the allocation's whole lifetime (the control parameters
// and the enclosing loops' iterators) and must provably lie in [0, size);
// then each lifetime of the buffer uses one slice of the new dimension, a
// relabeling of its elements.
func (w *workspace) expandDim(p *syntax.Proc, name, size, index string) error {
	c, a, err := findAlloc(p, name, "expand_dim")
	if err != nil {
		return err
	}
	pi := w.info(p)
	inScope, iters := pi.scopeAt(c)
	sz, err1 := parseExpr(size)
	ix, err2 := parseExpr(index)
	if err1 != nil || err2 != nil {
		return errorf(CodeAlloc, "expand_dim: size and index must be Weft control expressions (%q, %q)", size, index)
	}
	for _, e := range []syntax.Expr{sz, ix} {
		var bad string
		walkExpr(e, func(x syntax.Expr) {
			if n, ok := x.(*syntax.Name); ok && !inScope[n.Name] && bad == "" {
				bad = n.Name
			}
		})
		if bad != "" {
			return errorf(CodeAlloc, "expand_dim: %s is not a control value fixed where %s is allocated", bad, name).at(a, "the allocation")
		}
	}
	tp := pi.textual()
	szl, ok1 := toLin(sz, tp)
	ixl, ok2 := toLin(ix, tp)
	if !ok1 || !ok2 {
		return errorf(CodeAlloc, "expand_dim: size and index must be control expressions")
	}
	for _, it := range iters {
		if szl.has(it.name) || mentionsAtom(szl, it.name) {
			return errorf(CodeAlloc, "expand_dim: the size %s uses the iterator %s", size, it.name)
		}
	}
	if !pi.nonneg(ixl, iters) || !pi.nonneg(szl.add(ixl, -1).add(constLin(1), -1), iters) {
		return errorf(CodeAlloc, "expand_dim: cannot prove 0 <= %s < %s", index, size).at(a, "the allocation")
	}
	rank := len(a.Type.Dims)
	blk := *c.block()
	rest := blk[c.idx()+1:]
	err = rewriteUses(rest, name, func(e syntax.Expr, at syntax.Stmt) (syntax.Expr, error) {
		switch x := e.(type) {
		case *syntax.Index:
			x.Indices = append([]syntax.Expr{cloneExpr(ix)}, x.Indices...)
			return x, nil
		case *syntax.Name:
			if rank == 0 {
				return &syntax.Index{X: x, Indices: []syntax.Expr{cloneExpr(ix)}}, nil
			}
			var idx []syntax.Expr
			idx = append(idx, cloneExpr(ix))
			for _, d := range a.Type.Dims {
				idx = append(idx, &syntax.Slice{Lo: intLit(0), Hi: cloneExpr(d)})
			}
			return &syntax.Index{X: x, Indices: idx}, nil
		}
		return e, nil
	})
	if err != nil {
		return err
	}
	a.Type.Dims = append([]syntax.Expr{sz}, a.Type.Dims...)
	return nil
}

// liftAlloc moves an allocation out of the loop whose body it is directly
// in (Exo's lift_alloc). Its shape and memory must not use the loop's
// iterator. The buffer is then shared by the iterations instead of fresh
// in each; since the sequential semantics rejects reading an element
// before it is written, every value an iteration reads was written by that
// same iteration, before and after the lift.
func (w *workspace) liftAlloc(p *syntax.Proc, name string) error {
	c, a, err := findAlloc(p, name, "lift_alloc")
	if err != nil {
		return err
	}
	encl := c.enclosing()
	if len(encl) == 0 {
		return errorf(CodeAlloc, "lift_alloc: %s is allocated at the top of the proc", name).at(a, "the allocation")
	}
	loop, ok := encl[len(encl)-1].(*syntax.For)
	if !ok {
		return errorf(CodeAlloc, "lift_alloc: %s is allocated directly inside %s, not a loop", name, stmtKind(encl[len(encl)-1])).at(a, "the allocation")
	}
	for _, d := range a.Type.Dims {
		if mentions(d, loop.Var.Name) {
			return errorf(CodeAlloc, "lift_alloc: the shape of %s uses the iterator %s", name, loop.Var.Name).at(a, "the allocation")
		}
	}
	if a.Type.Mem != nil && mentions(a.Type.Mem, loop.Var.Name) {
		return errorf(CodeAlloc, "lift_alloc: the memory of %s uses the iterator %s", name, loop.Var.Name).at(a, "the allocation")
	}
	var freed syntax.Stmt
	walkStmts(loop.Body, func(s syntax.Stmt) {
		if f, ok := s.(*syntax.Free); ok && f.Name.Name == name {
			freed = s
		}
	})
	if freed != nil {
		return errorf(CodeAlloc, "lift_alloc: %s is freed in the loop", name).at(freed, "here")
	}
	splice(c.block(), c.idx(), 1, nil)
	parent := c.path[len(c.path)-2]
	splice(parent.block, parent.idx, 0, []syntax.Stmt{a})
	return nil
}

// reorderDim permutes the dimensions of an allocation (reorder_dim, seed
// 002 "Distributed memory"; spec §3.11): dimension k of the result is
// dimension perm[k] of the original, and every element access is permuted
// the same way, a relabeling of the elements. Window accesses and bare
// uses would change the meaning of what they pass, so they are refused.
func (w *workspace) reorderDim(p *syntax.Proc, name string, perm []int) error {
	c, a, err := findAlloc(p, name, "reorder_dim")
	if err != nil {
		return err
	}
	n := len(a.Type.Dims)
	seen := map[int]bool{}
	for _, k := range perm {
		if k < 0 || k >= n || seen[k] {
			return errorf(CodeArgs, "reorder_dim: %v is not a permutation of the %d dimensions of %s", perm, n, name)
		}
		seen[k] = true
	}
	if len(perm) != n {
		return errorf(CodeArgs, "reorder_dim: %v is not a permutation of the %d dimensions of %s", perm, n, name)
	}
	blk := *c.block()
	err = rewriteUses(blk[c.idx()+1:], name, func(e syntax.Expr, at syntax.Stmt) (syntax.Expr, error) {
		x, ok := e.(*syntax.Index)
		if !ok || len(x.Indices) != n {
			return nil, errorf(CodeAlloc, "reorder_dim: %s is used whole; only element accesses can be permuted", name).at(at, "here")
		}
		old := x.Indices
		x.Indices = make([]syntax.Expr, n)
		for k, src := range perm {
			if _, isSlice := old[src].(*syntax.Slice); isSlice {
				return nil, errorf(CodeAlloc, "reorder_dim: %s is windowed; only element accesses can be permuted", name).at(at, "here")
			}
			x.Indices[k] = old[src]
		}
		return x, nil
	})
	if err != nil {
		return err
	}
	old := a.Type.Dims
	a.Type.Dims = make([]syntax.Expr, n)
	for k, src := range perm {
		a.Type.Dims[k] = old[src]
	}
	return nil
}
