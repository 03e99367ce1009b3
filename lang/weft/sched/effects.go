package sched

import (
	"fmt"

	"weft.dev/weft/lang/weft/check"
	"weft.dev/weft/lang/weft/syntax"
)

// Effects and the dependence test behind reorder_loops and reorder_stmts
// (seed 000 §2.3: "reorder_stmts ... is only permitted when the effects of
// the statements commute"). An access is a buffer and one quasi-affine
// index per dimension; slices and window statements are resolved to their
// base buffer, a slice dimension becoming a fresh internal variable ranging
// over the slice. The test is sound and conservative: two accesses are
// independent only if some dimension provably differs.

// rng is a half-open range [lo, hi) of an internal variable; ok is false
// when its bounds are not control expressions.
type rng struct {
	lo, hi Lin
	ok     bool
}

type dimAcc struct {
	lin Lin
	ok  bool // false: unknown index (any element)
}

type access struct {
	buf    string
	dims   []dimAcc
	write  bool
	reduce bool
	node   syntax.Node
	text   string // the access as written (e.g. "A[k + 1]"), for messages
}

func (a access) kind() string {
	switch {
	case a.reduce:
		return "reduce into"
	case a.write:
		return "write to"
	}
	return "read of"
}

// region collects the effects of a list of statements.
type region struct {
	pi       *procInfo
	accs     []access
	internal map[string]rng // loop iterators and slice variables of the region
	private  map[string]bool
	declared map[string]bool
	windows  map[string]*syntax.Assign
	asserts  []*syntax.Assert
	nfresh   int
}

func (pi *procInfo) effects(ss []syntax.Stmt) *region {
	r := &region{pi: pi, internal: map[string]rng{}, private: map[string]bool{}, declared: map[string]bool{}, windows: map[string]*syntax.Assign{}}
	r.stmts(ss)
	return r
}

func (r *region) stmts(ss []syntax.Stmt) {
	for _, s := range ss {
		r.stmt(s)
	}
}

func (r *region) stmt(s syntax.Stmt) {
	switch s := s.(type) {
	case *syntax.Alloc:
		r.private[s.Name.Name] = true
		r.declared[s.Name.Name] = true
	case *syntax.Assign:
		if n, ok := s.LHS.(*syntax.Name); ok && r.pi.names[n.Name] != nil && r.pi.names[n.Name].kind == "window" && r.pi.names[n.Name].decl == syntax.Node(s) {
			r.windows[n.Name] = s
			r.declared[n.Name] = true
			return
		}
		a := r.accessOf(s.LHS, s)
		a.write = true
		a.reduce = s.Op == "+="
		r.reads(s.RHS, s)
		r.add(a)
	case *syntax.For:
		lo, ok1 := toLin(s.Lo, r.pi)
		hi, ok2 := toLin(s.Hi, r.pi)
		r.internal[s.Var.Name] = rng{lo, hi, ok1 && ok2}
		r.declared[s.Var.Name] = true
		r.stmts(s.Body)
	case *syntax.If:
		r.stmts(s.Then)
		r.stmts(s.Else)
	case *syntax.With:
		r.stmts(s.Body)
	case *syntax.CallStmt:
		r.call(s)
	case *syntax.Free:
		a := r.accessOf(s.Name, s)
		a.write = true
		r.add(a)
	case *syntax.Assert:
		r.asserts = append(r.asserts, s)
	}
}

func (r *region) add(a access) {
	if a.buf == "" || r.private[a.buf] {
		return
	}
	r.accs = append(r.accs, a)
}

// reads records every data read in a data expression.
func (r *region) reads(e syntax.Expr, at syntax.Node) {
	switch x := e.(type) {
	case *syntax.Name:
		if r.pi.isData(x.Name) {
			r.add(r.accessOf(x, at))
		}
	case *syntax.Index:
		if n, ok := x.X.(*syntax.Name); ok && r.pi.isData(n.Name) {
			r.add(r.accessOf(x, at))
			return
		}
		r.reads(x.X, at)
	case *syntax.Binary:
		r.reads(x.X, at)
		r.reads(x.Y, at)
	case *syntax.Unary:
		r.reads(x.X, at)
	case *syntax.Call:
		for _, a := range x.Args {
			r.reads(a, at)
		}
	}
}

// call records the effects of a call through its callee's parameter access
// modes (seed 000 §5.2.3): r reads, w writes, rw both; a user proc's data
// parameters count as read-write.
func (r *region) call(s *syntax.CallStmt) {
	name := s.Call.FunName()
	var params []*syntax.Param
	modes := map[string]string{}
	if in := r.pi.ws.lib.Instr(name); in != nil {
		params = in.Proc.Params
		for _, a := range in.AccessOrder {
			modes[a.Param] = a.Mode
		}
	} else if p, _, err := r.pi.ws.proc(name); err == nil {
		params = p.Params
	} else if lp := r.pi.ws.lib.Proc(name); lp != nil {
		params = lp.Params
	}
	if params == nil {
		// Unknown callee: every data argument may be read and written.
		for _, a := range s.Call.Args {
			r.argAccess(a, "rw", s)
		}
		return
	}
	bound, _ := check.BindArgs(params, s.Call)
	for i, a := range bound {
		if a == nil {
			continue
		}
		prm := params[i]
		if prm.Type == nil || prm.Type.Elem == nil {
			continue
		}
		switch prm.Type.Elem.Name {
		case "size", "index", "stride", "bool", "barrier":
			continue
		}
		mode, ok := modes[prm.Name.Name]
		if !ok {
			mode = "rw"
		}
		r.argAccess(a, mode, s)
	}
}

func (r *region) argAccess(a syntax.Expr, mode string, at syntax.Node) {
	base := a
	if ix, ok := a.(*syntax.Index); ok {
		base = ix.X
	}
	n, ok := base.(*syntax.Name)
	if !ok || !r.pi.isData(n.Name) {
		r.reads(a, at)
		return
	}
	switch mode {
	case "":
	case "r":
		r.add(r.accessOf(a, at))
	default:
		acc := r.accessOf(a, at)
		acc.write = true
		r.add(acc)
		if mode == "rw" {
			rd := r.accessOf(a, at)
			r.add(rd)
		}
	}
}

func (r *region) freshVar(lo, hi Lin, ok bool) string {
	r.nfresh++
	v := fmt.Sprintf("$%d", r.nfresh)
	r.internal[v] = rng{lo, hi, ok}
	return v
}

// accessOf resolves a data reference (Name or Index) to its base buffer.
func (r *region) accessOf(e syntax.Expr, at syntax.Node) access {
	var idx []syntax.Expr
	var n *syntax.Name
	switch x := e.(type) {
	case *syntax.Name:
		n = x
	case *syntax.Index:
		nn, ok := x.X.(*syntax.Name)
		if !ok {
			return access{}
		}
		n, idx = nn, x.Indices
	default:
		return access{}
	}
	a := r.resolve(n.Name, idx, at, 0)
	a.text = syntax.ExprString(e)
	return a
}

func (r *region) resolve(name string, idx []syntax.Expr, at syntax.Node, depth int) access {
	ni := r.pi.names[name]
	if ni == nil || depth > 20 {
		return access{}
	}
	dims := make([]dimAcc, 0, len(idx))
	for _, i := range idx {
		if sl, ok := i.(*syntax.Slice); ok {
			lo := constLin(0)
			okLo := true
			if sl.Lo != nil {
				lo, okLo = toLin(sl.Lo, r.pi)
			}
			var hi Lin
			okHi := sl.Hi != nil
			if okHi {
				hi, okHi = toLin(sl.Hi, r.pi)
			}
			if !okLo {
				dims = append(dims, dimAcc{})
				continue
			}
			v := r.freshVar(constLin(0), hi.add(lo, -1), okHi)
			dims = append(dims, dimAcc{lo.add(varLin(v), 1), true})
			continue
		}
		l, ok := toLin(i, r.pi)
		dims = append(dims, dimAcc{l, ok})
	}
	if ni.kind != "window" {
		if len(idx) == 0 && ni.typ != nil {
			// The whole buffer.
			for range ni.typ.Dims {
				dims = append(dims, dimAcc{})
			}
		}
		return access{buf: name, dims: dims, node: at}
	}
	// A window statement: compose with the window's own indices.
	w := ni.decl.(*syntax.Assign)
	ix, ok := w.RHS.(*syntax.Index)
	if !ok {
		if nn, ok := w.RHS.(*syntax.Name); ok {
			return r.resolve(nn.Name, idx, at, depth+1)
		}
		return access{}
	}
	base, ok := ix.X.(*syntax.Name)
	if !ok {
		return access{}
	}
	var composed []syntax.Expr
	k := 0
	for _, wi := range ix.Indices {
		sl, isSlice := wi.(*syntax.Slice)
		if !isSlice {
			composed = append(composed, wi)
			continue
		}
		lo := syntax.Expr(intLit(0))
		if sl.Lo != nil {
			lo = sl.Lo
		}
		if k < len(idx) {
			if isl, ok := idx[k].(*syntax.Slice); ok {
				ilo := syntax.Expr(intLit(0))
				if isl.Lo != nil {
					ilo = isl.Lo
				}
				var ihi syntax.Expr
				if isl.Hi != nil {
					ihi = &syntax.Binary{Op: "+", X: lo, Y: isl.Hi}
				} else {
					ihi = sl.Hi
				}
				composed = append(composed, &syntax.Slice{Lo: &syntax.Binary{Op: "+", X: lo, Y: ilo}, Hi: ihi})
			} else {
				composed = append(composed, &syntax.Binary{Op: "+", X: lo, Y: idx[k]})
			}
		} else {
			composed = append(composed, wi)
		}
		k++
	}
	return r.resolve(base.Name, composed, at, depth+1)
}

// swapVar is an iterator whose two instances are ordered: delta is the
// sign of (first instance - second instance) in the conflicting pair.
type swapVar struct {
	name   string
	delta  int   // -1: v1 < v2, +1: v1 > v2
	extent int64 // iteration count if constant, else 0
}

// interval is an integer interval with optional infinite ends.
type interval struct {
	lo, hi       int64
	loInf, hiInf bool
}

func (a interval) plus(b interval) interval {
	return interval{lo: a.lo + b.lo, hi: a.hi + b.hi, loInf: a.loInf || b.loInf, hiInf: a.hiInf || b.hiInf}
}

func (a interval) excludesZero() bool {
	return !a.hiInf && a.hi < 0 || !a.loInf && a.lo > 0
}

// span is the interval of coef*(v1 - v2) for one ordered swap variable.
func (s swapVar) span(coef int64) interval {
	if coef == 0 {
		return interval{}
	}
	// v1 - v2 in [1, ext-1] (delta +1) or [-(ext-1), -1] (delta -1).
	d := interval{lo: 1, hi: s.extent - 1, hiInf: s.extent == 0}
	if s.delta < 0 {
		d = interval{lo: -(s.extent - 1), hi: -1, loInf: s.extent == 0}
	}
	if coef < 0 {
		d = interval{lo: -d.hi, hi: -d.lo, loInf: d.hiInf, hiInf: d.loInf}
		coef = -coef
	}
	return interval{lo: d.lo * coef, hi: d.hi * coef, loInf: d.loInf, hiInf: d.hiInf}
}

// rangeOf is the interval of the internal part of an index.
func rangeOf(l Lin, internal map[string]rng) (interval, bool) {
	out := interval{}
	for _, t := range l.Terms {
		rg, ok := internal[t.key]
		if !ok || !rg.ok || !rg.lo.isConst() || !rg.hi.isConst() || rg.hi.Const <= rg.lo.Const {
			if ok && rg.ok && rg.lo.isConst() && rg.hi.isConst() && rg.hi.Const <= rg.lo.Const {
				continue // empty loop: no access at all
			}
			return interval{}, false
		}
		lo, hi := t.coef*rg.lo.Const, t.coef*(rg.hi.Const-1)
		if lo > hi {
			lo, hi = hi, lo
		}
		out.lo += lo
		out.hi += hi
	}
	return out, true
}

// split separates an index into swap-variable coefficients, the internal
// part (over internal variables), and the invariant rest (constant
// included). ok is false if an atom mixes in swap or internal variables.
func split(l Lin, swaps []swapVar, internal map[string]rng) (coefs []int64, in, rest Lin, ok bool) {
	coefs = make([]int64, len(swaps))
	rest.Const = l.Const
	for _, t := range l.Terms {
		isSwap := false
		for k, s := range swaps {
			if t.key == s.name {
				coefs[k] = t.coef
				isSwap = true
			}
		}
		if isSwap {
			continue
		}
		if _, isInt := internal[t.key]; isInt {
			in.Terms = append(in.Terms, t)
			continue
		}
		if t.atom {
			for _, s := range swaps {
				if mentions(t.expr, s.name) {
					return nil, Lin{}, Lin{}, false
				}
			}
			for v := range internal {
				if mentions(t.expr, v) {
					return nil, Lin{}, Lin{}, false
				}
			}
		}
		rest.Terms = append(rest.Terms, t)
	}
	return coefs, in, rest, true
}

// disjointDim proves that index f (of the first instance) and g (of the
// second) never coincide: f(v1, u1) - g(v2, u2) != 0 for every ordered pair
// of swap-variable values and every value of the internal variables (each
// instance with its own, ranges from intF and intG).
func disjointDim(f, g Lin, swaps []swapVar, intF, intG map[string]rng) bool {
	cf, inF, restF, ok1 := split(f, swaps, intF)
	cg, inG, restG, ok2 := split(g, swaps, intG)
	if !ok1 || !ok2 {
		return false
	}
	for k := range swaps {
		if cf[k] != cg[k] {
			return false
		}
	}
	d := restF.add(restG, -1)
	if !d.isConst() {
		return ringSlotsDiffer(d, swaps, cf, inF, inG)
	}
	rf, okF := rangeOf(inF, intF)
	rg, okG := rangeOf(inG, intG)
	if !okF || !okG {
		return false
	}
	total := interval{lo: rf.lo - rg.hi + d.Const, hi: rf.hi - rg.lo + d.Const}
	for k, s := range swaps {
		total = total.plus(s.span(cf[k]))
	}
	return total.excludesZero()
}

// independent reports whether two accesses provably touch different
// elements in every conflicting pair of instances.
func independent(a, b access, swaps []swapVar, intA, intB map[string]rng) bool {
	if a.buf != b.buf {
		return true
	}
	if len(a.dims) != len(b.dims) {
		return false
	}
	for d := range a.dims {
		if a.dims[d].ok && b.dims[d].ok && disjointDim(a.dims[d].lin, b.dims[d].lin, swaps, intA, intB) {
			return true
		}
	}
	return false
}

// conflict is a pair of accesses that may not commute.
type conflict struct{ a, b access }

// commute checks every pair (a from as, b from bs) with at least one write.
// Two reductions commute up to reassociation: they are allowed and
// reported in reassoc.
func commute(as, bs []access, swaps []swapVar, intA, intB map[string]rng) (c *conflict, reassoc bool) {
	for _, a := range as {
		for _, b := range bs {
			if !a.write && !b.write {
				continue
			}
			if independent(a, b, swaps, intA, intB) {
				continue
			}
			if a.reduce && b.reduce {
				reassoc = true
				continue
			}
			return &conflict{a, b}, reassoc
		}
	}
	return nil, reassoc
}

func accessText(a access) string {
	if a.text != "" && a.text != a.buf {
		return a.kind() + " " + a.text
	}
	return a.kind() + " " + a.buf
}

// ringSlotsDiffer proves f - g != 0 when the difference d of the invariant
// parts is X1 % m - X2 % m + c with X1 - X2 a constant that is not a
// multiple of m: two slots of a ring buffer indexed modulo its depth
// (e.g. (k + 1) % 2 and k % 2), whose difference is r or r - m for
// r = (X1 - X2) mod m in [1, m - 1]. Only without swapped or internal
// variables in the dimension.
func ringSlotsDiffer(d Lin, swaps []swapVar, coefs []int64, inF, inG Lin) bool {
	for k := range swaps {
		if coefs[k] != 0 {
			return false
		}
	}
	if len(inF.Terms) != 0 || len(inG.Terms) != 0 || len(d.Terms) != 2 {
		return false
	}
	t1, t2 := d.Terms[0], d.Terms[1]
	if t1.coef < 0 {
		t1, t2 = t2, t1
	}
	if !t1.atom || !t2.atom || t1.coef != 1 || t2.coef != -1 {
		return false
	}
	b1, b2 := t1.expr.(*syntax.Binary), t2.expr.(*syntax.Binary)
	if b1.Op != "%" || b2.Op != "%" {
		return false
	}
	m1, m2 := b1.Y.(*syntax.IntLit).Value, b2.Y.(*syntax.IntLit).Value
	if m1 != m2 {
		return false
	}
	x1, ok1 := toLin(b1.X, freeEnv{})
	x2, ok2 := toLin(b2.X, freeEnv{})
	if !ok1 || !ok2 {
		return false
	}
	diff := x1.add(x2, -1)
	if !diff.isConst() {
		return false
	}
	r := floorMod(diff.Const, m1)
	if r == 0 {
		return false
	}
	return r+d.Const != 0 && r-m1+d.Const != 0
}

// freeEnv treats every name as a control variable (for comparing two
// already-normalized expressions).
type freeEnv struct{}

func (freeEnv) isControl(string) bool           { return true }
func (freeEnv) constValue(string) (int64, bool) { return 0, false }
