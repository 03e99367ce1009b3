package sched

import (
	"fmt"

	"weft.dev/weft/lang/weft/syntax"
)

// replace substitutes a code block with an instruction call (seed 000 §2.3,
// "Instruction Substitution": Exo's unification verifies that the replaced
// block's behaviour matches the instruction). The block is unified
// statement by statement with the instruction's behaviour body (its leading
// asserts aside): loops with loops (binding iterators, and size parameters
// from bounds), writes with writes of the same operator, data expressions
// operator by operator. A scalar data parameter binds to an element
// reference, a tensor or window parameter to a window of a buffer whose
// offset is the same for every access; control parameters bind to control
// expressions. The instruction's asserts must then hold for the bound
// arguments. Since running the call executes the behaviour body with those
// arguments (package interp), which performs exactly the block's accesses
// and arithmetic, the sequential meaning is unchanged.

type winBind struct {
	buf      string
	interval []int // buffer dimensions the parameter's dimensions map to
	offsets  []Lin // per parameter dimension
	points   map[int]Lin
	node     syntax.Node
}

type unifier struct {
	pi      *procInfo
	instr   *syntax.Proc
	params  map[string]*syntax.Param
	ctrl    map[string]Lin // control parameter -> bound value
	scalars map[string]syntax.Expr
	wins    map[string]*winBind
	loops   map[string]string // instruction iterator -> block iterator
	blockIt map[string]bool
}

func (w *workspace) replace(p *syntax.Proc, block string, count int, instrName string) error {
	return w.replaceBar(p, block, count, instrName, nil)
}

// replaceBar is replace with `>> barriers` on the call (an async
// instruction completing on mbarriers, seed 000 §5; no sequential effect).
func (w *workspace) replaceBar(p *syntax.Proc, block string, count int, instrName string, barriers []string) error {
	var bars []syntax.Expr
	for _, bt := range barriers {
		be, err := w.barrierRef(p, "replace", bt)
		if err != nil {
			return err
		}
		bars = append(bars, be)
	}
	c, err := w.find(p, block)
	if err != nil {
		return err
	}
	if count < 1 || c.idx()+count > len(*c.block()) {
		return errorf(CodeArgs, "replace: count=%d: the block has %d statements from the match on", count, len(*c.block())-c.idx())
	}
	var instr *syntax.Proc
	if in := w.lib.Instr(instrName); in != nil {
		instr = in.Proc
	}
	for _, d := range w.file.Decls {
		if q, ok := d.(*syntax.Proc); ok && q.Name.Name == instrName && isInstrDecl(q) {
			instr = q
		}
	}
	if instr == nil {
		return errorf(CodeInstr, "replace: no instruction %s in the file or the standard library", instrName)
	}
	u := &unifier{pi: w.info(p), instr: instr, params: map[string]*syntax.Param{}, ctrl: map[string]Lin{}, scalars: map[string]syntax.Expr{}, wins: map[string]*winBind{}, loops: map[string]string{}, blockIt: map[string]bool{}}
	for _, prm := range instr.Params {
		u.params[prm.Name.Name] = prm
	}
	var asserts []*syntax.Assert
	body := instr.Body
	for len(body) > 0 {
		a, ok := body[0].(*syntax.Assert)
		if !ok {
			break
		}
		asserts = append(asserts, a)
		body = body[1:]
	}
	stmts := (*c.block())[c.idx() : c.idx()+count]
	if len(body) != len(stmts) {
		return errorf(CodeUnify, "replace: the behaviour of %s has %d statements, the block %d (use count= to replace several statements)", instrName, len(body), len(stmts)).at(c.stmt, "the block starts here").at(instr, "%s is declared here", instrName)
	}
	for i := range stmts {
		if err := u.stmt(body[i], stmts[i]); err != nil {
			return err.at(instr, "%s is declared here", instrName)
		}
	}
	// An argument cannot use an iterator of the replaced block: the call
	// replaces the loops that define it.
	for _, prm := range instr.Params {
		var bound syntax.Expr
		if l, ok := u.ctrl[prm.Name.Name]; ok {
			bound = l.expr()
		} else if e, ok := u.scalars[prm.Name.Name]; ok {
			bound = e
		}
		for _, v := range sortedKeys(u.blockIt) {
			if bound != nil && mentions(bound, v) {
				return errorf(CodeUnify, "replace: parameter %s of %s would be %s, which uses the iterator %s of the replaced block", prm.Name.Name, instrName, syntax.ExprString(bound), v).at(c.stmt, "the block starts here")
			}
		}
	}
	// Build the arguments, in parameter order.
	var args []syntax.Expr
	for _, prm := range instr.Params {
		name := prm.Name.Name
		if l, ok := u.ctrl[name]; ok {
			args = append(args, l.expr())
			continue
		}
		if e, ok := u.scalars[name]; ok {
			base := e
			if ix, ok := e.(*syntax.Index); ok {
				base = ix.X
			}
			if n, ok := base.(*syntax.Name); ok {
				if err := u.memoryFits(prm, n.Name); err != nil {
					return err.at(c.stmt, "the block starts here")
				}
			}
			args = append(args, cloneExpr(e))
			continue
		}
		if wb, ok := u.wins[name]; ok {
			a, err := u.window(prm, wb)
			if err != nil {
				return err
			}
			if err := u.memoryFits(prm, wb.buf); err != nil {
				return err.at(c.stmt, "the block starts here")
			}
			args = append(args, a)
			continue
		}
		return errorf(CodeUnify, "replace: the block does not determine parameter %s of %s", name, instrName).at(prm, "parameter %s", name)
	}
	// The instruction's asserts must hold for these arguments.
	for _, a := range asserts {
		vals := map[string]syntax.Expr{}
		for n, l := range u.ctrl {
			vals[n] = l.expr()
		}
		cond := substMany(cloneExpr(a.Cond), vals)
		if v, ok := evalCond(cond, u.pi); !ok || !v {
			what := "does not hold"
			if !ok {
				what = "cannot be proven"
			}
			return errorf(CodeInstr, "replace: assert %s of %s %s for the bound arguments (%s)", syntax.ExprString(a.Cond), instrName, what, syntax.ExprString(cond)).at(c.stmt, "the block starts here").at(a, "the instruction's assert")
		}
	}
	call := &syntax.CallStmt{Comments: *c.stmt.Comment(), Call: &syntax.Call{Fun: &syntax.Name{Name: instrName}, Args: args}, Barriers: bars}
	w.forward(c.stmt, call)
	splice(c.block(), c.idx(), count, []syntax.Stmt{call})
	return nil
}

func isInstrDecl(p *syntax.Proc) bool {
	for _, d := range p.Decorators {
		if c, ok := d.(*syntax.Call); ok {
			d = c.Fun
		}
		if n, ok := d.(*syntax.Name); ok && n.Name == "instr" {
			return true
		}
	}
	return false
}

func (u *unifier) mismatch(is, bs syntax.Node, format string, args ...any) *schedError {
	return errorf(CodeUnify, "replace: "+format, args...).at(bs, "in the block").at(is, "in the behaviour of %s", u.instr.Name.Name)
}

func (u *unifier) stmt(is, bs syntax.Stmt) *schedError {
	switch x := is.(type) {
	case *syntax.For:
		y, ok := bs.(*syntax.For)
		if !ok {
			return u.mismatch(is, bs, "the behaviour has a loop where the block has %s", stmtKind(bs))
		}
		if y.Mode.Name != "seq" {
			return u.mismatch(is, bs, "loop %s is a %s loop; only sequential loops are replaced", y.Var.Name, y.Mode.Name)
		}
		if err := u.ctrlExpr(x.Lo, y.Lo, is, bs); err != nil {
			return err
		}
		if err := u.ctrlExpr(x.Hi, y.Hi, is, bs); err != nil {
			return err
		}
		u.loops[x.Var.Name] = y.Var.Name
		u.blockIt[y.Var.Name] = true
		if len(x.Body) != len(y.Body) {
			return u.mismatch(is, bs, "loop bodies have %d and %d statements", len(x.Body), len(y.Body))
		}
		for i := range x.Body {
			if err := u.stmt(x.Body[i], y.Body[i]); err != nil {
				return err
			}
		}
		return nil
	case *syntax.Assign:
		y, ok := bs.(*syntax.Assign)
		if !ok || y.Mem != nil || x.Mem != nil {
			return u.mismatch(is, bs, "the behaviour has %s where the block has %s", stmtKind(is), stmtKind(bs))
		}
		if x.Op != y.Op {
			return u.mismatch(is, bs, "the behaviour uses %s where the block uses %s", x.Op, y.Op)
		}
		if err := u.data(x.LHS, y.LHS, is, bs); err != nil {
			return err
		}
		return u.data(x.RHS, y.RHS, is, bs)
	}
	return u.mismatch(is, bs, "%s in a behaviour body cannot be unified", stmtKind(is))
}

// instrLin is a control expression of the instruction with its iterators
// renamed to the block's and bound parameters substituted; unbound lists
// the parameters still free.
func (u *unifier) instrLin(e syntax.Expr) (Lin, []string, bool) {
	env := instrEnv{u}
	l, ok := toLin(e, env)
	if !ok {
		return Lin{}, nil, false
	}
	var unbound []string
	r := constLin(l.Const)
	for _, t := range l.Terms {
		if t.atom {
			// An atom over instruction names: substitute inside it.
			vals := map[string]syntax.Expr{}
			for iv, bv := range u.loops {
				vals[iv] = &syntax.Name{Name: bv}
			}
			for n, v := range u.ctrl {
				vals[n] = v.expr()
			}
			sub := substMany(cloneExpr(t.expr), vals)
			for n := range u.params {
				if mentions(sub, n) {
					return Lin{}, nil, false
				}
			}
			sl, ok := toLin(sub, u.pi.textual())
			if !ok {
				return Lin{}, nil, false
			}
			r = r.add(sl, t.coef)
			continue
		}
		if bv, ok := u.loops[t.key]; ok {
			r = r.add(varLin(bv), t.coef)
		} else if v, ok := u.ctrl[t.key]; ok {
			r = r.add(v, t.coef)
		} else {
			if _, isParam := u.params[t.key]; isParam {
				unbound = append(unbound, t.key)
			}
			r = r.add(Lin{Terms: []term{t}}, 1)
		}
	}
	return r, unbound, true
}

type instrEnv struct{ u *unifier }

func (e instrEnv) isControl(n string) bool {
	if _, ok := e.u.loops[n]; ok {
		return true
	}
	if p := e.u.params[n]; p != nil && p.Type != nil && p.Type.Elem != nil {
		switch p.Type.Elem.Name {
		case "size", "index", "stride":
			return true
		}
	}
	return false
}

func (e instrEnv) constValue(n string) (int64, bool) {
	if e.isControl(n) {
		return 0, false
	}
	return e.u.pi.constValue(n)
}

// ctrlExpr unifies an instruction control expression with a block one,
// binding at most one free size or index parameter.
func (u *unifier) ctrlExpr(ie, be syntax.Expr, is, bs syntax.Node) *schedError {
	il, unbound, ok1 := u.instrLin(ie)
	bl, ok2 := toLin(be, u.pi.textual())
	if !ok1 || !ok2 {
		return u.mismatch(is, bs, "%s and %s are not both control expressions", syntax.ExprString(ie), syntax.ExprString(be))
	}
	if len(unbound) > 1 {
		return u.mismatch(is, bs, "%s has several unknown parameters", syntax.ExprString(ie))
	}
	if len(unbound) == 1 {
		n := unbound[0]
		c := il.coef(n)
		rest := il.add(varLin(n).scale(c), -1)
		d := bl.add(rest, -1)
		if !allDivisible(d, c) {
			return u.mismatch(is, bs, "cannot solve %s = %s for %s", syntax.ExprString(ie), syntax.ExprString(be), n)
		}
		u.ctrl[n] = d.scale(1).divExact(c)
		return nil
	}
	if !il.equal(bl) {
		// Equal after folding integer globals?
		bf, _ := toLin(be, u.pi)
		if !il.equal(bf) {
			return u.mismatch(is, bs, "%s does not match %s", syntax.ExprString(ie), syntax.ExprString(be))
		}
	}
	return nil
}

// divExact divides every coefficient and the constant by c (the caller
// checked divisibility).
func (l Lin) divExact(c int64) Lin {
	r := Lin{Const: l.Const / c}
	for _, t := range l.Terms {
		t.coef /= c
		r.Terms = append(r.Terms, t)
	}
	return r
}

// data unifies data expressions.
func (u *unifier) data(ie, be syntax.Expr, is, bs syntax.Node) *schedError {
	switch x := ie.(type) {
	case *syntax.Binary:
		y, ok := be.(*syntax.Binary)
		if !ok || x.Op != y.Op {
			return u.mismatch(is, bs, "%s does not match %s", syntax.ExprString(ie), syntax.ExprString(be))
		}
		if err := u.data(x.X, y.X, is, bs); err != nil {
			return err
		}
		return u.data(x.Y, y.Y, is, bs)
	case *syntax.Unary:
		y, ok := be.(*syntax.Unary)
		if !ok || x.Op != y.Op {
			return u.mismatch(is, bs, "%s does not match %s", syntax.ExprString(ie), syntax.ExprString(be))
		}
		return u.data(x.X, y.X, is, bs)
	case *syntax.IntLit, *syntax.FloatLit:
		if lv, ok := litValue(ie); ok {
			if bv, ok := litValue(be); ok && lv == bv {
				return nil
			}
		}
		return u.mismatch(is, bs, "%s does not match %s", syntax.ExprString(ie), syntax.ExprString(be))
	case *syntax.Name:
		prm := u.params[x.Name]
		if prm == nil || prm.Type == nil || len(prm.Type.Dims) > 0 {
			return u.mismatch(is, bs, "%s cannot be unified", x.Name)
		}
		if !u.isElemRef(be) {
			return u.mismatch(is, bs, "scalar parameter %s needs an element of a buffer, not %s", x.Name, syntax.ExprString(be))
		}
		if prev, ok := u.scalars[x.Name]; ok {
			if syntax.ExprString(prev) != syntax.ExprString(be) {
				return u.mismatch(is, bs, "parameter %s would be both %s and %s", x.Name, syntax.ExprString(prev), syntax.ExprString(be))
			}
			return nil
		}
		u.scalars[x.Name] = be
		return nil
	case *syntax.Index:
		pn, ok := x.X.(*syntax.Name)
		var prm *syntax.Param
		if ok {
			prm = u.params[pn.Name]
		}
		if !ok || prm == nil || prm.Type == nil || len(prm.Type.Dims) != len(x.Indices) {
			return u.mismatch(is, bs, "%s cannot be unified", syntax.ExprString(ie))
		}
		return u.windowAccess(prm, x, be, is, bs)
	}
	return u.mismatch(is, bs, "%s cannot be unified", syntax.ExprString(ie))
}

func litValue(e syntax.Expr) (float64, bool) {
	switch x := e.(type) {
	case *syntax.IntLit:
		return float64(x.Value), true
	case *syntax.FloatLit:
		return x.Value, true
	case *syntax.Unary:
		if v, ok := litValue(x.X); ok && x.Op == "-" {
			return -v, true
		}
	}
	return 0, false
}

// isElemRef reports whether e is a data scalar or a point access of a
// buffer (what a scalar instruction parameter binds to).
func (u *unifier) isElemRef(e syntax.Expr) bool {
	switch x := e.(type) {
	case *syntax.Name:
		ni := u.pi.names[x.Name]
		return ni != nil && ni.kind == "data" && ni.typ != nil && len(ni.typ.Dims) == 0
	case *syntax.Index:
		n, ok := x.X.(*syntax.Name)
		if !ok || !u.pi.isData(n.Name) {
			return false
		}
		for _, i := range x.Indices {
			if _, isSlice := i.(*syntax.Slice); isSlice {
				return false
			}
			if _, ok := toLin(i, u.pi); !ok {
				return false
			}
		}
		return true
	}
	return false
}

// windowAccess unifies p[e...] (p a tensor or window parameter) with
// buf[f...]: the buffer dimensions that use the block's iterators are the
// window's, in order; the offset f - e of each must not use them and must
// be the same at every access.
func (u *unifier) windowAccess(prm *syntax.Param, x *syntax.Index, be syntax.Expr, is, bs syntax.Node) *schedError {
	y, ok := be.(*syntax.Index)
	if !ok {
		return u.mismatch(is, bs, "%s needs an element access, not %s", syntax.ExprString(x), syntax.ExprString(be))
	}
	bn, ok := y.X.(*syntax.Name)
	if !ok || !u.pi.isData(bn.Name) {
		return u.mismatch(is, bs, "%s is not an access of a buffer", syntax.ExprString(be))
	}
	tp := u.pi.textual()
	var fs []Lin
	var iterDims []int
	for d, i := range y.Indices {
		l, ok := toLin(i, tp)
		if !ok {
			return u.mismatch(is, bs, "index %s is not a control expression", syntax.ExprString(i))
		}
		fs = append(fs, l)
		for _, v := range sortedKeys(u.blockIt) {
			if l.has(v) || mentionsAtom(l, v) {
				iterDims = append(iterDims, d)
				break
			}
		}
	}
	var es []Lin
	for _, i := range x.Indices {
		l, unbound, ok := u.instrLin(i)
		if !ok || len(unbound) > 0 {
			return u.mismatch(is, bs, "index %s of %s cannot be resolved", syntax.ExprString(i), syntax.ExprString(x))
		}
		es = append(es, l)
	}
	name := prm.Name.Name
	wb := u.wins[name]
	if wb == nil {
		if len(iterDims) != len(es) {
			return u.mismatch(is, bs, "%s has %d dimensions indexed by the block's loops, parameter %s has %d", syntax.ExprString(be), len(iterDims), name, len(es))
		}
		wb = &winBind{buf: bn.Name, interval: iterDims, points: map[int]Lin{}, node: bs}
		for k, d := range iterDims {
			off := fs[d].add(es[k], -1)
			for _, v := range sortedKeys(u.blockIt) {
				if off.has(v) || mentionsAtom(off, v) {
					return u.mismatch(is, bs, "the offset %s of %s in dimension %d depends on loop %s", syntax.ExprString(off.expr()), bn.Name, d, v)
				}
			}
			wb.offsets = append(wb.offsets, off)
		}
		for d, l := range fs {
			if !containsInt(iterDims, d) {
				wb.points[d] = l
			}
		}
		u.wins[name] = wb
		return nil
	}
	if wb.buf != bn.Name {
		return u.mismatch(is, bs, "parameter %s would be both a window of %s and of %s", name, wb.buf, bn.Name)
	}
	for k, d := range wb.interval {
		if d >= len(fs) || !fs[d].add(es[k], -1).equal(wb.offsets[k]) {
			return u.mismatch(is, bs, "parameter %s is accessed at inconsistent offsets of %s", name, bn.Name)
		}
	}
	for d, l := range wb.points {
		if d >= len(fs) || !fs[d].equal(l) {
			return u.mismatch(is, bs, "parameter %s is accessed at inconsistent offsets of %s", name, bn.Name)
		}
	}
	return nil
}

func mentionsAtom(l Lin, v string) bool {
	for _, t := range l.Terms {
		if t.atom && mentions(t.expr, v) {
			return true
		}
	}
	return false
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// window builds the argument buf[lo : lo + extent, point, ...] for a
// window or tensor parameter.
func (u *unifier) window(prm *syntax.Param, wb *winBind) (syntax.Expr, *schedError) {
	ni := u.pi.names[wb.buf]
	rank := len(wb.interval) + len(wb.points)
	if ni == nil || ni.typ != nil && len(ni.typ.Dims) != rank {
		return nil, errorf(CodeUnify, "replace: cannot build the window of %s for parameter %s", wb.buf, prm.Name.Name)
	}
	idx := make([]syntax.Expr, rank)
	for d, l := range wb.points {
		idx[d] = l.expr()
	}
	for k, d := range wb.interval {
		ext, unbound, ok := u.instrLin(prm.Type.Dims[k])
		if !ok || len(unbound) > 0 {
			return nil, errorf(CodeUnify, "replace: the extent %s of parameter %s is not determined by the block", syntax.ExprString(prm.Type.Dims[k]), prm.Name.Name)
		}
		lo := wb.offsets[k]
		idx[d] = &syntax.Slice{Lo: lo.expr(), Hi: lo.add(ext, 1).expr()}
	}
	return &syntax.Index{X: &syntax.Name{Name: wb.buf}, Indices: idx}, nil
}

// memOf is the memory of a data buffer (through window statements); a
// buffer without an annotation is in DRAM.
func (pi *procInfo) memOf(name string) string {
	for depth := 0; depth < 20; depth++ {
		ni := pi.names[name]
		if ni == nil {
			return ""
		}
		if ni.kind == "window" {
			a := ni.decl.(*syntax.Assign)
			if a.Mem != nil {
				return memName(a.Mem)
			}
			base := a.RHS
			if ix, ok := base.(*syntax.Index); ok {
				base = ix.X
			}
			n, ok := base.(*syntax.Name)
			if !ok {
				return ""
			}
			name = n.Name
			continue
		}
		if ni.typ == nil || ni.typ.Mem == nil {
			return "DRAM"
		}
		return memName(ni.typ.Mem)
	}
	return ""
}

func memName(e syntax.Expr) string {
	switch x := e.(type) {
	case *syntax.Name:
		return x.Name
	case *syntax.Call:
		return x.FunName()
	}
	return ""
}

// memoryFits checks a buffer's memory against an instruction parameter's
// (seed 000 §3.3: per-parameter memory types; a memory fits if it derives
// from the parameter's).
func (u *unifier) memoryFits(prm *syntax.Param, buf string) *schedError {
	if prm.Type == nil || prm.Type.Mem == nil {
		return nil
	}
	want := memName(prm.Type.Mem)
	have := u.pi.memOf(buf)
	m := u.pi.ws.lib.Memories[have]
	if want == "" || have == "" || m == nil || m.DerivesFrom(want) {
		return nil
	}
	return errorf(CodeInstr, "replace: parameter %s of %s is @ %s, but %s is in %s (set_memory it first)", prm.Name.Name, u.instr.Name.Name, want, buf, have).at(prm, "parameter %s", prm.Name.Name)
}

// substMany replaces several names at once (a value is never substituted
// into again, so instruction and block names cannot capture each other).
func substMany(e syntax.Expr, vals map[string]syntax.Expr) syntax.Expr {
	names := sortedKeys(vals)
	for i, n := range names {
		e = substExpr(e, n, &syntax.Name{Name: fmt.Sprintf("$%d", i)})
	}
	for i, n := range names {
		e = substExpr(e, fmt.Sprintf("$%d", i), vals[n])
	}
	return e
}
