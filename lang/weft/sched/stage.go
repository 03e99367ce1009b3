package sched

import (
	"strings"

	"weft.dev/weft/lang/weft/syntax"
)

// stageMem stages a window of a buffer through a new buffer around a block
// (Exo's stage_mem; seed 002 workflow: "assign memory types"): allocate
// new_name with the window's shape in memory, copy the window in, run the
// block with every access to the buffer redirected to new_name, and copy it
// back out if the block may write it. Preconditions: the window is a
// window of a data buffer whose bounds do not use the block's own
// iterators; every access of the block to the buffer is provably inside the
// window (interval reasoning over the enclosing and inner loops); point
// dimensions of the window are accessed at exactly that point; and the
// buffer is not used whole (e.g. passed as an argument). Then each element
// the block touches lives in new_name while the block runs, so the
// sequential meaning is unchanged.
func (w *workspace) stageMem(p *syntax.Proc, block string, count int, window, newName, mem string) error {
	return w.stageMemAcc(p, block, count, window, newName, mem, false)
}

// stageMemAcc is stage_mem; with accum (Exo's accum=True) the block may
// only reduce into the window (`+=`, no reads, no plain writes, no
// calls): new_name starts at zero, the block's reductions go to it, and
// the window gets `+= new_name` afterwards. Each element of the window
// then receives the same sum of the same terms, grouped differently:
// reductions commute (seed 000 §2.3, as in Exo), and the rewrite is
// reported as reassociating.
func (w *workspace) stageMemAcc(p *syntax.Proc, block string, count int, window, newName, mem string, accum bool) error {
	c, err := w.find(p, block)
	if err != nil {
		return err
	}
	if count < 1 || c.idx()+count > len(*c.block()) {
		return errorf(CodeArgs, "stage_mem: count=%d: the block has %d statements from the match on", count, len(*c.block())-c.idx())
	}
	pi := w.info(p)
	if err := pi.fresh(newName); err != nil {
		return err
	}
	if w.lib.Memories[mem] == nil {
		return errorf(CodeStage, "stage_mem: unknown data memory %s (the library has %s)", mem, strings.Join(sortedKeys(w.lib.Memories), ", "))
	}
	we, err := parseExpr(window)
	if err != nil {
		return errorf(CodeStage, "stage_mem: window: %v", err)
	}
	var bufName string
	var widx []syntax.Expr
	switch x := we.(type) {
	case *syntax.Name:
		bufName = x.Name
	case *syntax.Index:
		if n, ok := x.X.(*syntax.Name); ok {
			bufName, widx = n.Name, x.Indices
		}
	}
	ni := pi.names[bufName]
	if bufName == "" || ni == nil || ni.kind != "data" || ni.typ == nil {
		return errorf(CodeStage, "stage_mem: window %s is not a window of a data parameter or allocation of %s", window, p.Name.Name)
	}
	typ := ni.typ
	if widx == nil {
		for _, d := range typ.Dims {
			widx = append(widx, &syntax.Slice{Lo: intLit(0), Hi: cloneExpr(d)})
		}
	}
	if len(widx) != len(typ.Dims) {
		return errorf(CodeStage, "stage_mem: window %s has %d indices, %s has %d dimensions", window, len(widx), bufName, len(typ.Dims)).at(ni.decl, "declared here")
	}
	stmts := (*c.block())[c.idx() : c.idx()+count]
	inner := map[string]bool{}
	walkStmts(stmts, func(s syntax.Stmt) {
		if f, ok := s.(*syntax.For); ok {
			inner[f.Var.Name] = true
		}
	})
	// The window's dimensions.
	type wdim struct {
		point  bool
		lo, hi Lin
	}
	tp := pi.textual()
	var dims []wdim
	var shape []syntax.Expr
	for _, ix := range widx {
		var d wdim
		if sl, ok := ix.(*syntax.Slice); ok {
			if sl.Lo == nil {
				sl.Lo = intLit(0)
			}
			if sl.Hi == nil {
				sl.Hi = cloneExpr(typ.Dims[len(dims)])
			}
			lo, ok1 := toLin(sl.Lo, tp)
			hi, ok2 := toLin(sl.Hi, tp)
			if !ok1 || !ok2 {
				return errorf(CodeStage, "stage_mem: the bounds of window %s are not control expressions", window)
			}
			d = wdim{lo: lo, hi: hi}
			shape = append(shape, hi.add(lo, -1).expr())
		} else {
			l, ok := toLin(ix, tp)
			if !ok {
				return errorf(CodeStage, "stage_mem: index %s of window %s is not a control expression", syntax.ExprString(ix), window)
			}
			d = wdim{point: true, lo: l}
		}
		for _, v := range sortedKeys(inner) {
			if mentions(ix, v) {
				return errorf(CodeStage, "stage_mem: window %s uses %s, an iterator of the staged block", window, v)
			}
		}
		dims = append(dims, d)
	}
	// Outer iterators for the bound proofs.
	var outerIters []iterRange
	for _, f := range c.loops() {
		lo, ok1 := toLin(f.Lo, tp)
		hi, ok2 := toLin(f.Hi, tp)
		if ok1 && ok2 {
			outerIters = append(outerIters, iterRange{f.Var.Name, lo, hi})
		}
	}
	// The window itself must lie inside the buffer.
	for k, d := range dims {
		dimHi, ok := toLin(typ.Dims[k], tp)
		hiOK := ok && (d.point && pi.nonneg(dimHi.add(d.lo, -1).add(constLin(1), -1), outerIters) ||
			!d.point && pi.nonneg(dimHi.add(d.hi, -1), outerIters))
		if !pi.nonneg(d.lo, outerIters) || !hiOK {
			return errorf(CodeStage, "stage_mem: cannot prove that window %s lies inside %s (dimension %d)", window, bufName, k).at(ni.decl, "declared here")
		}
	}
	// A window statement declared outside the block that windows the
	// buffer would let the block reach it around the staged copy.
	for _, alias := range sortedKeys(pi.names) {
		ai := pi.names[alias]
		if ai.kind != "window" || !windowsOf(pi, alias, bufName) {
			continue
		}
		if _, inside := declaredIn(stmts, ai.decl); !inside && stmtsMention(stmts, alias) {
			return errorf(CodeStage, "stage_mem: the block uses %s, a window of %s declared outside it; stage the window instead", alias, bufName).at(ai.decl, "%s is declared here", alias)
		}
	}
	newStmts := w.cloneFwd(stmts)
	read, written := false, false
	var problem error
	// redirect rewrites one access buf[idx] inside the block.
	redirect := func(ix *syntax.Index, iters []iterRange, at syntax.Stmt) syntax.Expr {
		if len(ix.Indices) != len(dims) {
			problem = errorf(CodeStage, "stage_mem: an access to %s has %d indices, want %d", bufName, len(ix.Indices), len(dims)).at(at, "here")
			return ix
		}
		var out []syntax.Expr
		for k, d := range dims {
			e := ix.Indices[k]
			sl, isSlice := e.(*syntax.Slice)
			if d.point {
				l, ok := toLin(e, tp)
				if isSlice || !ok || !l.equal(d.lo) {
					problem = errorf(CodeStage, "stage_mem: the block accesses %s at %s in dimension %d; the window fixes it to %s", bufName, syntax.ExprString(e), k, syntax.ExprString(d.lo.expr())).at(at, "this access")
					return ix
				}
				continue
			}
			if isSlice {
				lo, hi := Lin{}, Lin{}
				ok1, ok2 := true, true
				if sl.Lo != nil {
					lo, ok1 = toLin(sl.Lo, tp)
				}
				if sl.Hi != nil {
					hi, ok2 = toLin(sl.Hi, tp)
				} else {
					hi, ok2 = toLin(typ.Dims[k], tp)
				}
				if !ok1 || !ok2 || !pi.nonneg(lo.add(d.lo, -1), iters) || !pi.nonneg(d.hi.add(hi, -1), iters) {
					problem = errorf(CodeStage, "stage_mem: cannot prove that %s stays inside window %s", syntax.ExprString(ix), window).at(at, "this access")
					return ix
				}
				out = append(out, &syntax.Slice{Lo: lo.add(d.lo, -1).expr(), Hi: hi.add(d.lo, -1).expr()})
				continue
			}
			l, ok := toLin(e, tp)
			if !ok || !pi.nonneg(l.add(d.lo, -1), iters) || !pi.nonneg(d.hi.add(l, -1).add(constLin(1), -1), iters) {
				problem = errorf(CodeStage, "stage_mem: cannot prove that %s stays inside window %s", syntax.ExprString(ix), window).at(at, "this access")
				return ix
			}
			out = append(out, l.add(d.lo, -1).expr())
		}
		if len(out) == 0 {
			return &syntax.Name{Name: newName}
		}
		return &syntax.Index{X: &syntax.Name{Name: newName}, Indices: out}
	}
	var rewrite func(e syntax.Expr, iters []iterRange, at syntax.Stmt) syntax.Expr
	rewrite = func(e syntax.Expr, iters []iterRange, at syntax.Stmt) syntax.Expr {
		switch x := e.(type) {
		case *syntax.Name:
			if x.Name == bufName {
				if len(dims) == 0 {
					return &syntax.Name{Name: newName}
				}
				problem = errorf(CodeStage, "stage_mem: the block uses %s whole; only element and window accesses can be redirected", bufName).at(at, "here")
			}
		case *syntax.Index:
			if n, ok := x.X.(*syntax.Name); ok && n.Name == bufName {
				return redirect(x, iters, at)
			}
			for i := range x.Indices {
				x.Indices[i] = rewrite(x.Indices[i], iters, at)
			}
		case *syntax.Binary:
			x.X = rewrite(x.X, iters, at)
			x.Y = rewrite(x.Y, iters, at)
		case *syntax.Unary:
			x.X = rewrite(x.X, iters, at)
		case *syntax.Call:
			for i := range x.Args {
				x.Args[i] = rewrite(x.Args[i], iters, at)
			}
			for _, k := range x.Kwargs {
				k.Value = rewrite(k.Value, iters, at)
			}
		}
		return e
	}
	isBuf := func(e syntax.Expr) bool {
		if ix, ok := e.(*syntax.Index); ok {
			e = ix.X
		}
		n, ok := e.(*syntax.Name)
		return ok && n.Name == bufName
	}
	var visit func(ss []syntax.Stmt, iters []iterRange)
	visit = func(ss []syntax.Stmt, iters []iterRange) {
		for _, s := range ss {
			if problem != nil {
				return
			}
			switch s := s.(type) {
			case *syntax.Assign:
				if accum && (isBuf(s.LHS) && s.Op != "+=" || mentions(s.RHS, bufName)) {
					problem = errorf(CodeStage, "stage_mem: with accum=True the block may only reduce (+=) into %s", bufName).at(s, "this statement")
					return
				}
				if isBuf(s.LHS) {
					written = true
					if s.Op == "+=" {
						read = true
					}
				}
				if mentions(s.RHS, bufName) {
					read = true
				}
				s.LHS = rewrite(s.LHS, iters, s)
				s.RHS = rewrite(s.RHS, iters, s)
			case *syntax.For:
				lo, ok1 := toLin(s.Lo, tp)
				hi, ok2 := toLin(s.Hi, tp)
				in := iters
				if ok1 && ok2 {
					in = append(append([]iterRange{}, iters...), iterRange{s.Var.Name, lo, hi})
				}
				if mentions(s.Lo, bufName) || mentions(s.Hi, bufName) {
					problem = errorf(CodeStage, "stage_mem: %s is used in loop bounds", bufName).at(s, "here")
					return
				}
				visit(s.Body, in)
			case *syntax.If:
				visit(s.Then, iters)
				visit(s.Else, iters)
			case *syntax.With:
				visit(s.Body, iters)
			case *syntax.CallStmt:
				if mentions(s.Call, bufName) {
					if accum {
						problem = errorf(CodeStage, "stage_mem: with accum=True the block may only reduce (+=) into %s, not pass it to a call", bufName).at(s, "this call")
						return
					}
					read, written = true, true
				}
				rewrite(s.Call, iters, s)
			case *syntax.Free, *syntax.Alloc:
				if stmtsMention([]syntax.Stmt{s}, bufName) {
					problem = errorf(CodeStage, "stage_mem: the block frees or redeclares %s", bufName).at(s, "here")
				}
			default:
				if stmtsMention([]syntax.Stmt{s}, bufName) {
					problem = errorf(CodeStage, "stage_mem: %s is used in %s, which cannot be redirected", bufName, stmtKind(s)).at(s, "here")
				}
			}
		}
	}
	visit(newStmts, outerIters)
	if problem != nil {
		return problem
	}
	if !read && !written {
		return errorf(CodeStage, "stage_mem: the block does not access %s", bufName).at(c.stmt, "the block starts here")
	}
	// Copy loops over the window's interval dimensions.
	taken := map[string]bool{newName: true}
	var vars []string
	for _, d := range dims {
		if !d.point {
			vars = append(vars, pi.freshLike("i"+itoa(len(vars)), taken))
		}
	}
	copyLoop := func(in bool) syntax.Stmt {
		var bufIdx, newIdx []syntax.Expr
		k := 0
		for _, d := range dims {
			if d.point {
				bufIdx = append(bufIdx, d.lo.expr())
				continue
			}
			bufIdx = append(bufIdx, d.lo.add(varLin(vars[k]), 1).expr())
			newIdx = append(newIdx, &syntax.Name{Name: vars[k]})
			k++
		}
		bufRef := syntax.Expr(&syntax.Name{Name: bufName})
		if len(bufIdx) > 0 {
			bufRef = &syntax.Index{X: bufRef, Indices: bufIdx}
		}
		newRef := syntax.Expr(&syntax.Name{Name: newName})
		if len(newIdx) > 0 {
			newRef = &syntax.Index{X: newRef, Indices: newIdx}
		}
		var s syntax.Stmt = &syntax.Assign{LHS: newRef, Op: "=", RHS: bufRef}
		switch {
		case in && accum:
			s = &syntax.Assign{LHS: newRef, Op: "=", RHS: zeroOf(typ.Elem.Name)}
		case !in && accum:
			s = &syntax.Assign{LHS: cloneExpr(bufRef), Op: "+=", RHS: cloneExpr(newRef)}
		case !in:
			s = &syntax.Assign{LHS: cloneExpr(bufRef), Op: "=", RHS: cloneExpr(newRef)}
		}
		for k := len(vars) - 1; k >= 0; k-- {
			s = &syntax.For{Var: &syntax.Name{Name: vars[k]}, Mode: &syntax.Name{Name: "seq"}, Lo: intLit(0), Hi: cloneExpr(shape[k]), Body: []syntax.Stmt{s}}
		}
		return s
	}
	elem := typ.Elem.Name
	alloc := &syntax.Alloc{Name: &syntax.Name{Name: newName}, Type: &syntax.Type{Elem: &syntax.Name{Name: elem}, Dims: shape, Mem: &syntax.Name{Name: mem}}}
	repl := []syntax.Stmt{alloc}
	// Copy in unless the block provably overwrites all of the staged buffer
	// before reading any of it (then the copy would read elements that may
	// be uninitialized, which the sequential semantics rejects).
	if accum || !covers(newStmts, newName, shape, tp) {
		repl = append(repl, copyLoop(true))
	}
	if accum {
		w.reassoc = append(w.reassoc, "stage_mem("+p.Name.Name+", "+patternText(block)+", accum=True)")
	}
	repl = append(repl, newStmts...)
	if written {
		repl = append(repl, copyLoop(false))
	}
	splice(c.block(), c.idx(), count, repl)
	return nil
}

func itoa(i int) string {
	return string(rune('0' + i%10))
}

// covers reports whether the top level of ss writes every element of buf
// (shape dims) unconditionally before any statement reads it: a plain
// `buf = e` for a scalar, or a loop nest `for v0 in seq(0, d0): ... for vk
// in seq(0, dk): buf[v0, ..., vk] = e` (e not reading buf) whose innermost
// body writes the element, preceded only by statements that do not mention
// buf.
func covers(ss []syntax.Stmt, buf string, shape []syntax.Expr, pi *procInfo) bool {
	for _, s := range ss {
		if coversStmt(s, buf, shape, nil, pi) && !readsBuf(s, buf) {
			return true
		}
		if stmtsMention([]syntax.Stmt{s}, buf) {
			return false
		}
	}
	return false
}

// readsBuf reports whether s may read buf: any mention other than as the
// element written by an `=` (whose indices and right-hand side may not
// mention it).
func readsBuf(s syntax.Stmt, buf string) bool {
	reads := false
	walkStmts([]syntax.Stmt{s}, func(st syntax.Stmt) {
		a, ok := st.(*syntax.Assign)
		if !ok {
			for _, e := range stmtExprs(st) {
				if mentions(e, buf) {
					reads = true
				}
			}
			return
		}
		if a.Op != "=" || mentions(a.RHS, buf) {
			if a.Op != "=" && mentions(a.LHS, buf) || mentions(a.RHS, buf) {
				reads = true
			}
		}
		if ix, ok := a.LHS.(*syntax.Index); ok {
			for _, i := range ix.Indices {
				if mentions(i, buf) {
					reads = true
				}
			}
		}
	})
	return reads
}

func coversStmt(s syntax.Stmt, buf string, shape []syntax.Expr, vars []string, pi *procInfo) bool {
	switch s := s.(type) {
	case *syntax.Assign:
		if s.Op != "=" || len(vars) != len(shape) {
			return false
		}
		if len(shape) == 0 {
			n, ok := s.LHS.(*syntax.Name)
			return ok && n.Name == buf
		}
		ix, ok := s.LHS.(*syntax.Index)
		if !ok || len(ix.Indices) != len(vars) {
			return false
		}
		if n, ok := ix.X.(*syntax.Name); !ok || n.Name != buf {
			return false
		}
		for k, e := range ix.Indices {
			l, ok := toLin(e, pi)
			if !ok || !l.equal(varLin(vars[k])) {
				return false
			}
		}
		return true
	case *syntax.For:
		k := len(vars)
		if k >= len(shape) {
			return false
		}
		lo, ok1 := toLin(s.Lo, pi)
		hi, ok2 := toLin(s.Hi, pi)
		ext, ok3 := toLin(shape[k], pi)
		if !ok1 || !ok2 || !ok3 || !lo.isConst() || lo.Const != 0 || !hi.equal(ext) {
			return false
		}
		for _, b := range s.Body {
			if coversStmt(b, buf, shape, append(vars, s.Var.Name), pi) {
				return true
			}
		}
	}
	return false
}

// windowsOf reports whether window statement name windows buf, directly or
// through other windows.
func windowsOf(pi *procInfo, name, buf string) bool {
	for depth := 0; depth < 20; depth++ {
		ni := pi.names[name]
		if ni == nil || ni.kind != "window" {
			return false
		}
		rhs := ni.decl.(*syntax.Assign).RHS
		if ix, ok := rhs.(*syntax.Index); ok {
			rhs = ix.X
		}
		n, ok := rhs.(*syntax.Name)
		if !ok {
			return false
		}
		if n.Name == buf {
			return true
		}
		name = n.Name
	}
	return false
}

// declaredIn reports whether the declaring statement decl is inside ss.
func declaredIn(ss []syntax.Stmt, decl syntax.Node) (syntax.Stmt, bool) {
	var found syntax.Stmt
	walkStmts(ss, func(s syntax.Stmt) {
		if syntax.Node(s) == decl {
			found = s
		}
	})
	return found, found != nil
}

// zeroOf is the literal 0 of an element type.
func zeroOf(elem string) syntax.Expr {
	switch elem {
	case "f16", "bf16", "f32", "f64":
		return &syntax.FloatLit{Text: "0.0", Value: 0}
	}
	return intLit(0)
}
