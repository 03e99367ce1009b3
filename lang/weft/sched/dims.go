package sched

import (
	"weft.dev/weft/lang/weft/syntax"
)

// Dimension rewrites of allocations (Exo's divide_dim, mult_dim,
// rearrange_dim; seed 002 "Distributed memory": the user shapes buffers so
// that their dimensions match the loop structure and the instructions'
// fragments). Each relabels the buffer's elements one to one, so every
// access reads the value it read before.

// usesWithLoops calls f on every reference to name in ss with the loops
// enclosing the statement (outermost first, the ones around ss first).
func usesWithLoops(ss []syntax.Stmt, around []*syntax.For, name string, f func(x syntax.Expr, at syntax.Stmt, loops []*syntax.For) (syntax.Expr, error)) error {
	var firstErr error
	var visit func(ss []syntax.Stmt, loops []*syntax.For)
	visit = func(ss []syntax.Stmt, loops []*syntax.For) {
		for _, s := range ss {
			if firstErr != nil {
				return
			}
			err := ownUses(s, name, func(e syntax.Expr, at syntax.Stmt) (syntax.Expr, error) {
				return f(e, s, loops)
			})
			if err != nil {
				firstErr = err
				return
			}
			switch s := s.(type) {
			case *syntax.For:
				visit(s.Body, append(append([]*syntax.For{}, loops...), s))
			case *syntax.If:
				visit(s.Then, loops)
				visit(s.Else, loops)
			case *syntax.With:
				visit(s.Body, loops)
			}
		}
	}
	visit(ss, around)
	return firstErr
}

// ownUses applies rewriteUses to s's own expressions only: its bodies are
// detached for the call.
func ownUses(s syntax.Stmt, name string, f func(e syntax.Expr, at syntax.Stmt) (syntax.Expr, error)) error {
	switch s := s.(type) {
	case *syntax.For:
		body := s.Body
		s.Body = nil
		defer func() { s.Body = body }()
	case *syntax.If:
		th, el := s.Then, s.Else
		s.Then, s.Else = nil, nil
		defer func() { s.Then, s.Else = th, el }()
	case *syntax.With:
		body := s.Body
		s.Body = nil
		defer func() { s.Body = body }()
	}
	return rewriteUses([]syntax.Stmt{s}, name, f)
}

// iterRanges are the ranges of the loops, for bound proofs.
func iterRanges(loops []*syntax.For, pi *procInfo) []iterRange {
	var out []iterRange
	tp := pi.textual()
	for _, f := range loops {
		lo, ok1 := toLin(f.Lo, tp)
		hi, ok2 := toLin(f.Hi, tp)
		if ok1 && ok2 {
			out = append(out, iterRange{f.Var.Name, lo, hi})
		}
	}
	return out
}

// splitIndex writes e as (e / q, e % q). When e = q*Q + R with R provably
// in [0, q) for every value of the loops, the parts are Q and R (so
// 4 * k_seq + ki becomes k_seq and ki); otherwise the floor division and
// modulo themselves, which are exact for every value.
func (pi *procInfo) splitIndex(e Lin, q int64, iters []iterRange) (Lin, Lin) {
	var quo, rem Lin
	quo.Const, rem.Const = floorDiv(e.Const, q), floorMod(e.Const, q)
	for _, t := range e.Terms {
		if t.coef%q == 0 {
			t.coef /= q
			quo.Terms = append(quo.Terms, t)
		} else {
			rem.Terms = append(rem.Terms, t)
		}
	}
	if pi.nonneg(rem, iters) && pi.nonneg(constLin(q-1).add(rem, -1), iters) {
		return quo, rem
	}
	return divModLin(e, q, false), divModLin(e, q, true)
}

// divideDim splits dimension dim of an allocation of extent n into two,
// n / q and q (Exo's divide_dim); every element index e of that dimension
// becomes e / q, e % q. Requires q | n (provable) and element accesses in
// that dimension (a window across it would change shape).
func (w *workspace) divideDim(p *syntax.Proc, name string, dim int, q int64) error {
	c, a, err := findAlloc(p, name, "divide_dim")
	if err != nil {
		return err
	}
	pi := w.info(p)
	if dim < 0 || dim >= len(a.Type.Dims) {
		return errorf(CodeArgs, "divide_dim: %s has %d dimensions; there is no dimension %d", name, len(a.Type.Dims), dim).at(a, "the allocation")
	}
	if q < 1 {
		return errorf(CodeArgs, "divide_dim: the quotient %d must be positive", q)
	}
	n, ok := toLin(a.Type.Dims[dim], pi)
	if !ok || !pi.divisible(n, q) {
		return errorf(CodeAlloc, "divide_dim: cannot prove that dimension %d of %s (%s) is a multiple of %d", dim, name, syntax.ExprString(a.Type.Dims[dim]), q).at(a, "the allocation")
	}
	tp := pi.textual()
	blk := *c.block()
	err = usesWithLoops(blk[c.idx()+1:], c.loops(), name, func(e syntax.Expr, at syntax.Stmt, loops []*syntax.For) (syntax.Expr, error) {
		x, ok := e.(*syntax.Index)
		if !ok || len(x.Indices) != len(a.Type.Dims) {
			return nil, errorf(CodeAlloc, "divide_dim: %s is used whole here; only element accesses can be relabeled", name).at(at, "here")
		}
		if _, isSlice := x.Indices[dim].(*syntax.Slice); isSlice {
			return nil, errorf(CodeAlloc, "divide_dim: %s is windowed in dimension %d here; divide the dimension before windowing it", name, dim).at(at, "here")
		}
		l, ok := toLin(x.Indices[dim], tp)
		if !ok {
			return nil, errorf(CodeAlloc, "divide_dim: the index %s is not a control expression", syntax.ExprString(x.Indices[dim])).at(at, "here")
		}
		hi, lo := pi.splitIndex(l, q, iterRanges(loops, pi))
		idx := append([]syntax.Expr{}, x.Indices[:dim]...)
		idx = append(idx, hi.expr(), lo.expr())
		x.Indices = append(idx, x.Indices[dim+1:]...)
		return x, nil
	})
	if err != nil {
		return err
	}
	nq := divModLin(mustLin(a.Type.Dims[dim], tp), q, false)
	dims := append([]syntax.Expr{}, a.Type.Dims[:dim]...)
	dims = append(dims, nq.expr(), intLit(q))
	a.Type.Dims = append(dims, a.Type.Dims[dim+1:]...)
	return nil
}

func mustLin(e syntax.Expr, env ctrlEnv) Lin {
	l, _ := toLin(e, env)
	return l
}

// multDim merges dimensions hi and lo (hi != lo) of an allocation into one
// of extent n_hi * n_lo at hi's place (Exo's mult_dim); index pair (i, j)
// becomes n_lo * i + j. n_lo must be a constant (the merged extent must be
// a control expression) and both indices element indices.
func (w *workspace) multDim(p *syntax.Proc, name string, hiDim, loDim int) error {
	c, a, err := findAlloc(p, name, "mult_dim")
	if err != nil {
		return err
	}
	pi := w.info(p)
	nd := len(a.Type.Dims)
	if hiDim < 0 || hiDim >= nd || loDim < 0 || loDim >= nd || hiDim == loDim {
		return errorf(CodeArgs, "mult_dim: want two different dimensions of %s (it has %d), got %d and %d", name, nd, hiDim, loDim).at(a, "the allocation")
	}
	nlo, ok := toLin(a.Type.Dims[loDim], pi)
	if !ok || !nlo.isConst() {
		return errorf(CodeAlloc, "mult_dim: dimension %d of %s (%s) must be a constant", loDim, name, syntax.ExprString(a.Type.Dims[loDim])).at(a, "the allocation")
	}
	tp := pi.textual()
	blk := *c.block()
	err = rewriteUses(blk[c.idx()+1:], name, func(e syntax.Expr, at syntax.Stmt) (syntax.Expr, error) {
		x, ok := e.(*syntax.Index)
		if !ok || len(x.Indices) != nd {
			return nil, errorf(CodeAlloc, "mult_dim: %s is used whole here; only element accesses can be relabeled", name).at(at, "here")
		}
		hi, ok1 := toLin(x.Indices[hiDim], tp)
		lo, ok2 := toLin(x.Indices[loDim], tp)
		_, s1 := x.Indices[hiDim].(*syntax.Slice)
		_, s2 := x.Indices[loDim].(*syntax.Slice)
		if !ok1 || !ok2 || s1 || s2 {
			return nil, errorf(CodeAlloc, "mult_dim: %s is windowed or indexed by a non-control expression in the merged dimensions here", name).at(at, "here")
		}
		var idx []syntax.Expr
		for k, ix := range x.Indices {
			switch k {
			case hiDim:
				idx = append(idx, hi.scale(nlo.Const).add(lo, 1).expr())
			case loDim:
			default:
				idx = append(idx, ix)
			}
		}
		x.Indices = idx
		return x, nil
	})
	if err != nil {
		return err
	}
	merged := mustLin(a.Type.Dims[hiDim], tp).scale(nlo.Const)
	var dims []syntax.Expr
	for k, d := range a.Type.Dims {
		switch k {
		case hiDim:
			dims = append(dims, merged.expr())
		case loDim:
		default:
			dims = append(dims, d)
		}
	}
	a.Type.Dims = dims
	return nil
}
