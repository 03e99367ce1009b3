package sem

import (
	"weft.dev/weft/diag"
	"weft.dev/weft/lang/cudac/syntax"
)

// Lambdas (C++11 [expr.prim.lambda]) that capture by reference, bound to an
// auto variable or called where they are written, are expanded inline at
// each call: the parameters become locals of the caller initialized from
// the arguments, a return stores the result and jumps to the end of the
// expansion, and the captured variables are the caller's own, which is
// what a capture by reference means when the lambda does not outlive the
// scope that defines it (it cannot escape: a lambda used as a value is
// C0309). Captures by value copy at the definition, which an expansion at
// the call would not, so they are C0309 as well.

type inlineCtx struct {
	slot  int   // the result (-1: void)
	ret   *Type // the result type
	ends  []int // jumps to patch to the end of the expansion
	depth int   // lambdas being expanded (recursion guard)
	loops []*loopCtx
}

func (c *compiler) checkLambda(l *syntax.Lambda) {
	if l.ByValue {
		c.errorf(l.Pos, "C0309", "lambda captures by value are not supported (capture by reference, [&])")
	}
}

// inlineLambda expands a call of lambda l.
func (c *compiler) inlineLambda(l *syntax.Lambda, e *syntax.Call) *Type {
	pos := e.Pos
	if c.inl != nil && c.inl.depth > 16 {
		c.errorf(pos, "C0309", "lambdas nested more than 16 deep")
		c.emit(OpConst, 0, 0, pos)
		return tInt
	}
	if len(e.Args) != len(l.Params) {
		c.errorf(pos, "C0304", "the lambda takes %d arguments, %d given", len(l.Params), len(e.Args))
		c.emit(OpConst, 0, 0, pos)
		return tInt
	}
	// the result type: written, or deduced from the first return (with
	// this expansion's context, so memoized types are its own)
	ctx := &inlineCtx{slot: -1, loops: c.loops}
	rt := tVoid
	if l.Ret != nil {
		rt = c.resolve(l.Ret)
	} else if r := firstReturn(l.Body); r != nil && r.X != nil {
		saved := c.inl
		c.inl = ctx
		c.push()
		c.bindLambdaParams(l, e, true)
		rt = c.typeOf(r.X, true)
		c.pop()
		c.inl = saved
	}
	if rt.Kind == Struct || rt.Kind == Array {
		c.errorf(pos, "C0309", "a lambda returning %s is not supported", rt)
		rt = tInt
	}
	ctx.ret = rt
	if c.inl != nil {
		ctx.depth = c.inl.depth + 1
	}
	if rt.Kind != Void {
		ctx.slot = c.newSlot()
		c.emit(OpConst, 0, 0, pos)
		c.emit(OpSetLocal, int32(ctx.slot), 0, pos)
		c.emit(OpPop, 0, 0, pos)
	}
	c.push()
	c.bindLambdaParams(l, e, false)
	saved := c.inl
	c.inl = ctx
	c.loops = nil
	c.block(l.Body, true)
	c.inl = saved
	c.loops = ctx.loops
	c.pop()
	for _, at := range ctx.ends {
		c.patch(at)
	}
	if ctx.slot >= 0 {
		c.emit(OpLocal, int32(ctx.slot), 0, pos)
		return rt
	}
	c.emit(OpConst, 0, 0, pos)
	return tVoid
}

// bindLambdaParams declares the parameters as locals holding the
// arguments (dry: types only, for deducing the result type).
func (c *compiler) bindLambdaParams(l *syntax.Lambda, e *syntax.Call, dry bool) {
	for i, p := range l.Params {
		pt := c.resolve(p.Type)
		if hasAuto(p.Type) {
			pt = c.typeOf(e.Args[i], true) // a generic lambda's auto parameter
		}
		if p.Name == "" {
			continue
		}
		if dry {
			slot := c.newSlot()
			if pt.Ref {
				c.declare(p.Name, &sym{kind: symRef, t: pt.Elem, slot: slot})
			} else if pt.Kind == Struct || pt.Kind == Array {
				c.declare(p.Name, &sym{kind: symMem, t: pt, slot: slot})
			} else {
				c.declare(p.Name, &sym{kind: symSlot, t: pt, slot: slot})
			}
			continue
		}
		d := &syntax.Decl{Pos: p.Pos, Name: p.Name, Type: p.Type, Init: e.Args[i]}
		if hasAuto(p.Type) {
			c.autoT = pt
		}
		c.localDecl(d)
		c.autoT = nil
	}
}

// lambdaReturn compiles return inside an inline expansion.
func (c *compiler) lambdaReturn(s *syntax.ReturnStmt) {
	ctx := c.inl
	if s.X != nil {
		t := c.expr(s.X)
		if ctx.slot >= 0 {
			c.convert(t, ctx.ret, syntax.PosOf(s.X))
			c.emit(OpSetLocal, int32(ctx.slot), 0, s.Pos)
		}
		c.emit(OpPop, 0, 0, s.Pos)
	}
	ctx.ends = append(ctx.ends, c.emit(OpJmp, 0, 0, s.Pos))
}

// firstReturn finds the first return statement of a body.
func firstReturn(s syntax.Stmt) *syntax.ReturnStmt {
	switch s := s.(type) {
	case *syntax.ReturnStmt:
		return s
	case *syntax.Block:
		for _, x := range s.Stmts {
			if r := firstReturn(x); r != nil {
				return r
			}
		}
	case *syntax.IfStmt:
		if r := firstReturn(s.Then); r != nil {
			return r
		}
		return firstReturn(s.Else)
	case *syntax.ForStmt:
		return firstReturn(s.Body)
	case *syntax.DoStmt:
		return firstReturn(s.Body)
	case *syntax.RangeFor:
		return firstReturn(s.Body)
	case *syntax.LabeledStmt:
		return firstReturn(s.Stmt)
	case *syntax.SwitchStmt:
		return firstReturn(s.Body)
	}
	return nil
}

var _ = diag.Pos{}
