package check

import (
	"fmt"

	"weft.dev/weft/lang/prism/syntax"
	"weft.dev/weft/pyscan"
)

// readCtx says why an expression is read; it picks the rule (and code)
// that a too-narrow variable violates.
type readCtx int

const (
	readCond   readCtx = iota // if/while conditions, loop bounds: read-up (E5)
	writeValue                // value written into a variable: write-down (E6)
	readIndex                 // array index
	readOffset                // partition offset or indexing function
	readArg                   // call argument (E13)
	readReturn
)

type useKind int

const (
	useRead useKind = iota
	useWrite
	useView     // first argument of partition/claim/async
	useAsyncArg // argument of an async data-movement intrinsic
)

// expr checks x, whose value flows into a destination of perspective dest,
// and returns its type and perspective. Every variable read must be at
// least as broad as dest: information flows only from broader perspectives
// to narrower ones (seed 001 §3.3, read up / write down; the destination
// reading of spec §3.4, Bundl's target compute context π').
func (c *checker) expr(x syntax.Expr, e env, dest Persp, ctx readCtx) (*Type, Persp) {
	t, p := c.expr1(x, e, dest, ctx)
	if t != nil {
		c.info.Types[x] = t
	}
	return t, p
}

func (c *checker) expr1(x syntax.Expr, e env, dest Persp, ctx readCtx) (*Type, Persp) {
	switch x := x.(type) {
	case *syntax.Ident:
		switch x.Name {
		case "True", "False", "true", "false":
			if e.sc.lookup(x.Name) == nil {
				return tBool, Any
			}
		}
		v := c.ident(x, e, useRead)
		if v == nil {
			return tInt, Any
		}
		if v.Type.Kind == Lambda {
			c.errorf(x.At, ErrType, "indexing function %s can only be passed as f= of a partition", v.Name)
			return tInt, Any
		}
		if v.IsConst {
			return v.Type, Any
		}
		c.flow(v.Name, v.Persp, x, e, dest, ctx)
		return v.Type, v.Persp
	case *syntax.BasicLit:
		switch x.Kind {
		case pyscan.INT:
			return tInt, Any
		case pyscan.FLOAT:
			return tFloat, Any
		}
		return &Type{Kind: Scalar, Name: "string"}, Any
	case *syntax.Ellipsis:
		return nil, Any
	case *syntax.ParenExpr:
		return c.expr(x.X, e, dest, ctx)
	case *syntax.UnaryExpr:
		t, p := c.expr(x.X, e, dest, ctx)
		if x.Op == "not" || x.Op == "!" {
			return tBool, p
		}
		return t, p
	case *syntax.BinaryExpr:
		t1, p1 := c.expr(x.X, e, dest, ctx)
		t2, p2 := c.expr(x.Y, e, dest, ctx)
		for _, t := range []*Type{t1, t2} {
			if t != nil && t.Kind != Scalar && t.Kind != Pointer && t.Kind != Shared {
				c.errorf(x.OpPos, ErrType, "operator %s on %s", x.Op, t)
			}
		}
		p := meet(p1, p2)
		switch x.Op {
		case "==", "!=", "<", "<=", ">", ">=", "and", "or":
			return tBool, p
		}
		if t1 != nil && (t1.Kind == Pointer || t1.Kind == Shared) {
			return t1, p
		}
		if (t1 != nil && t1.IsFloat()) || (t2 != nil && t2.IsFloat()) {
			return tFloat, p
		}
		if t1 == nil {
			return t2, p
		}
		return t1, p
	case *syntax.CondExpr:
		_, pc := c.expr(x.Cond, e, dest, ctx)
		t1, p1 := c.expr(x.Then, e, dest, ctx)
		_, p2 := c.expr(x.Else, e, dest, ctx)
		return t1, meet(pc, meet(p1, p2))
	case *syntax.IndexExpr:
		return c.index(x, e, dest, ctx)
	case *syntax.AttrExpr:
		t, p := c.expr(x.X, e, dest, ctx)
		if t != nil && t.Base().Name != "float4" && t.Base().Name != "int4" && t.Base().Name != "float2" {
			c.errorf(x.Name.At, ErrType, "%s has no field %s", t, x.Name.Name)
		}
		switch x.Name.Name {
		case "x", "y", "z", "w":
		default:
			c.errorf(x.Name.At, ErrType, "unknown vector field %s", x.Name.Name)
		}
		return tFloat, p
	case *syntax.Call:
		if syntax.FuncName(x.Fun) == "id" {
			return c.id(x, e, dest)
		}
		t, p := c.call(x, e, false)
		c.flow(syntax.FuncName(x.Fun)+"(...)", p, x, e, dest, ctx)
		if t == nil || t.Kind == Void {
			c.errorf(x.Pos(), ErrType, "%s returns no value", syntax.FuncName(x.Fun))
			return tInt, p
		}
		return t, p
	case *syntax.LambdaExpr:
		c.errorf(x.At, ErrType, "a lambda may only be bound to a name or passed as f= of a partition")
		return tInt, Any
	case *syntax.ListExpr, *syntax.TupleExpr, *syntax.BraceExpr:
		c.errorf(x.Pos(), ErrType, "list or initializer not allowed here")
		return tInt, Any
	}
	return tInt, Any
}

// flow checks that a value of perspective p may flow into dest.
func (c *checker) flow(what string, p Persp, x syntax.Expr, e env, dest Persp, ctx readCtx) {
	if p.AtLeast(dest) {
		return
	}
	switch ctx {
	case readCond:
		c.errorf(x.Pos(), ErrReadUp, "cannot read %s @ %s from %s code: threads of one %s could disagree on it and diverge (read up: variables read must be at least as broad as the code perspective)", what, p, dest, dest)
	case writeValue, readReturn:
		c.errorf(x.Pos(), ErrWriteDown, "cannot write %s @ %s into a %s destination: only values of broader perspectives may be written into narrower ones (write down)", what, p, dest)
	case readArg:
		c.errorf(x.Pos(), ErrArgPersp, "argument %s @ %s is narrower than the parameter's perspective %s", what, p, dest)
	default:
		c.errorf(x.Pos(), ErrReadUp, "cannot read %s @ %s here: it must be at least as broad as %s", what, p, dest)
	}
}

// id checks id(): the index of the destination's unit within the code
// perspective (seed 001 §3.5; Bundl T-Partition-Id).
func (c *checker) id(x *syntax.Call, e env, dest Persp) (*Type, Persp) {
	if len(x.Args) != 0 || len(x.Kwargs) != 0 {
		c.errorf(x.Pos(), ErrType, "id() takes no arguments")
	}
	if dest == Any {
		dest = e.code
	}
	if !e.code.AtLeast(dest) {
		c.errorf(x.Pos(), ErrIDTarget, "id() written to a %s destination from %s code: the destination must be no broader than the code perspective", dest, e.code)
	} else if dest.Level == Thread && e.code.Level != Thread && e.T > 0 && e.T%dest.N != 0 {
		c.errorf(x.Pos(), ErrIDTarget, "id() of %s within %s: a block of %d threads is not made of %s units", dest, e.code, e.T, dest)
	}
	c.info.IDs[x] = IDInfo{Code: e.code, Dest: dest}
	return tInt, dest
}

// index checks a[i][j]... reads.
func (c *checker) index(x *syntax.IndexExpr, e env, dest Persp, ctx readCtx) (*Type, Persp) {
	base, idx := indexChain(x)
	id, ok := base.(*syntax.Ident)
	if !ok {
		c.errorf(x.Pos(), ErrType, "only named arrays and pointers can be indexed")
		return tInt, Any
	}
	v := c.ident(id, e, useRead)
	if v == nil {
		return tInt, Any
	}
	c.flow(v.Name, v.Persp, id, e, dest, ctx)
	p := v.Persp
	for _, i := range idx {
		if i == nil {
			c.errorf(x.Rbrack, ErrType, "missing index")
			continue
		}
		_, ip := c.expr(i, e, dest, ctx)
		p = meet(p, ip)
	}
	if v.Root != nil && v.Root.Kind == SharedAlloc && e.code.Level == Grid {
		c.errorf(x.Pos(), ErrSharedLevel, "shared memory %s accessed from %s code: shared memory is accessed at block[1] or narrower", v.Name, e.code)
	}
	if v.Region != nil {
		v.Region.Read = true
	}
	t := v.Type
	for t.Kind == Async && t.Elem != nil {
		t = t.Elem
	}
	for range idx {
		if t.Elem == nil || t.Kind == Scalar || t.Kind == Lambda {
			c.errorf(x.Pos(), ErrType, "%s (%s) cannot be indexed", v.Name, v.Type)
			return tInt, p
		}
		t = t.Elem
	}
	return t, p
}

// ident resolves a name and applies the scope rules of views: originals are
// hidden inside their partition/claim/async (E7), async views feed only
// async intrinsics (E9), claimed views live in one split branch (E8).
func (c *checker) ident(id *syntax.Ident, e env, use useKind) *Var {
	v := e.sc.lookup(id.Name)
	if v == nil {
		c.errorf(id.At, ErrUndefined, "undefined: %s", id.Name)
		return nil
	}
	c.info.Uses[id] = v
	if r := e.hidden.find(v); r != nil && r.Y != nil {
		c.errorf(id.At, ErrHidden, "%s is hidden inside the %s that narrows it to %s; use %s", v.Name, r.Kind, r.Y.Name, r.Y.Name).
			Note(r.Stmt.At, "%s of %s begins here", r.Kind, v.Name)
		return v
	}
	if v.Type.Kind == Async && use != useAsyncArg {
		c.errorf(id.At, ErrAsyncUse, "%s is an async view: it may only be used by async data-movement intrinsics (cp.async, load_async)", v.Name)
	}
	if v.Region != nil && v.Region.Kind == "claim" {
		c.claimUse(v, id, e)
	}
	return v
}

// claimUse enforces that a claimed pointer is used by the claiming
// perspective only, inside a single branch of the splits within the claim
// (seed 001 §3.4.2: "In all splits within the claim, the new pointer y is
// accessible only within one branch").
func (c *checker) claimUse(v *Var, id *syntax.Ident, e env) {
	if !v.Persp.AtLeast(e.code) {
		c.errorf(id.At, ErrClaimBranch, "claimed %s @ %s used from %s code: only one %s may use it; use it inside one branch of a split", v.Name, v.Persp, e.code, v.Persp)
		return
	}
	if at, ok := c.claimAt[v]; ok {
		if first, last, ok := claimSpan(at, v.Persp, e); !ok {
			what := fmt.Sprintf("%ss %d..%d", v.Persp.Level, first, last)
			if last >= many {
				what = "copies in every block"
			}
			c.errorf(id.At, ErrClaimBranch, "claimed %s @ %s used by more than one %s: the groups around this use replicate it over %s of the claim's code %s, not one aligned collection", v.Name, v.Persp, v.Persp, what, v.Region.Code)
			return
		}
	}
	depth := c.claimDepth[v]
	var path []branchRef
	if depth <= len(e.branch) {
		path = e.branch[depth:]
	}
	prev := c.claims[v]
	if prev == nil {
		c.claims[v] = &claimUse{path: path, pos: id.At}
		return
	}
	for i := 0; i < len(path) && i < len(prev.path); i++ {
		if path[i].m != prev.path[i].m {
			return
		}
		if path[i].arm != prev.path[i].arm {
			c.errorf(id.At, ErrClaimBranch, "claimed %s used in two branches of one split: sibling branches may not touch claimed memory", v.Name).
				Note(prev.pos, "%s is also used here, in another branch", v.Name)
			return
		}
	}
}
