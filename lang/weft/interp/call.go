package interp

import (
	"weft.dev/weft/lang/weft/check"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// call compiles a proc or instruction call. Instructions run their
// behaviour bodies (seed 000 §3.3); `>> bar` completions are sync
// annotations and ignored.
func (c *compiler) call(s *syntax.CallStmt) func(*frame) {
	name := s.Call.FunName()
	decl := c.prog.lookup(name)
	if decl == nil {
		c.errorf(s.Call.Fun.Pos(), CodeUnknown, "unknown proc or instruction %s", syntax.ExprString(s.Call.Fun))
		return nil
	}
	callee := c.prog.procFor(decl)
	// Parameters are known before the body is compiled: resolve them from
	// the declaration.
	// Arguments bind as check binds them: keywords by name, positionals to
	// the remaining parameters in order (seed 002 "Async blocks").
	params := decl.Params
	args, probs := check.BindArgs(params, s.Call, lib.TemplateParams(decl)...)
	for _, p := range probs {
		c.errorf(p.Pos, CodeArgValue, "%s", p.Msg)
	}
	if len(probs) > 0 {
		return nil
	}
	// Slots of the callee's parameters are assigned in order by
	// compileBody: control and data slots count separately.
	var binds []func(caller, callee *frame)
	nInt, nBuf := 0, 0
	for i, p := range params {
		k, e := paramKind(p.Type)
		a := args[i]
		if a == nil {
			if k != KindBarrier {
				c.errorf(s.Call.Pos(), CodeArgValue, "missing argument %s in call to %s", p.Name.Name, name)
			}
			switch k {
			case KindSize, KindIndex, KindBool:
				nInt++
			case KindScalar, KindTensor, KindWindow:
				nBuf++
			}
			continue
		}
		switch k {
		case KindSize, KindIndex:
			slot := nInt
			nInt++
			v := c.ctrl(a)
			binds = append(binds, func(caller, callee *frame) { callee.ints[slot] = v.eval(caller) })
		case KindBool:
			slot := nInt
			nInt++
			v := c.cond(a)
			binds = append(binds, func(caller, callee *frame) {
				if v(caller) {
					callee.ints[slot] = 1
				}
			})
		case KindScalar:
			slot := nBuf
			nBuf++
			binds = append(binds, c.scalarArg(a, e, slot, p.Name.Name))
		case KindTensor, KindWindow:
			slot := nBuf
			nBuf++
			w, rank, ae := c.window(a)
			if w == nil {
				continue
			}
			if rank != len(p.Type.Dims) {
				c.errorf(a.Pos(), CodeArgShape, "argument %s has %d dimensions, parameter %s of %s has %d", syntax.ExprString(a), rank, p.Name.Name, name, len(p.Type.Dims))
			}
			if ae != e {
				c.errorf(a.Pos(), CodeArgShape, "argument %s has element type %s, parameter %s of %s wants %s", syntax.ExprString(a), ae, p.Name.Name, name, e)
			}
			binds = append(binds, func(caller, callee *frame) { callee.bufs[slot] = w(caller) })
		}
	}
	site := s.Pos()
	return func(fr *frame) {
		if fr.depth >= maxDepth {
			fail(fr, site, CodeRecursion, "call depth exceeds %d: recursive call of %s", maxDepth, callee.Name)
		}
		spend(fr, site, 1)
		nf := &frame{ints: make([]int64, callee.nInts), bufs: make([]*view, callee.nBufs), parent: fr, site: site, depth: fr.depth + 1, budget: fr.budget}
		for _, b := range binds {
			b(fr, nf)
		}
		callee.entry(nf)
	}
}

// scalarArg binds a data scalar parameter: an element of a buffer is passed
// by reference (an instruction may write it), any other data expression by
// value in a fresh scalar.
func (c *compiler) scalarArg(a syntax.Expr, e Elem, slot int, pname string) func(caller, callee *frame) {
	var sy *sym
	var idx []cexpr
	switch a := a.(type) {
	case *syntax.Name:
		if s := c.lookup(a.Name); s != nil && s.kind == symBuf && s.rank == 0 {
			sy = s
		}
	case *syntax.Index:
		if n, ok := a.X.(*syntax.Name); ok {
			if s := c.lookup(n.Name); s != nil && s.kind == symBuf && s.rank == len(a.Indices) {
				sy = s
				for _, x := range a.Indices {
					if _, isSlice := x.(*syntax.Slice); isSlice {
						sy = nil
						break
					}
					idx = append(idx, c.ctrl(x))
				}
			}
		}
	}
	if sy != nil {
		if sy.elem != e {
			c.errorf(a.Pos(), CodeArgShape, "argument %s has element type %s, parameter %s wants %s", syntax.ExprString(a), sy.elem, pname, e)
		}
		at := c.offset(sy, idx, a.Pos(), syntax.ExprString(a))
		text := syntax.ExprString(a)
		return func(caller, callee *frame) {
			v, o := at(caller)
			callee.bufs[slot] = &view{mem: v.mem, off: o, elem: v.elem, name: text}
		}
	}
	t := join(e, c.typeOf(a))
	val := c.data(a, t)
	return func(caller, callee *frame) {
		callee.bufs[slot] = &view{mem: scalarCells(e, round(e, val(caller))), elem: e, name: pname}
	}
}
