package check

import (
	"fmt"
	"strconv"
	"strings"

	"weft.dev/weft/diag"
	"weft.dev/weft/gpu"
	"weft.dev/weft/lang/prism/syntax"
	"weft.dev/weft/pyscan"
)

// DeviceSmemLimit is the largest shared memory a block may use: 227 KiB on
// sm_90 (the H100 the paper evaluates on, §6).
const DeviceSmemLimit = gpu.SmemPerCTAMax

// Check checks a parsed file and returns what it resolved. Diagnostics are
// appended to errs; Info is usable only when errs has no errors.
func Check(f *syntax.File, errs *diag.List) *Info {
	c := &checker{errs: errs, info: &Info{
		File: f, ByName: map[string]*Func{},
		Uses: map[*syntax.Ident]*Var{}, Decls: map[syntax.Node]*Var{},
		Regions: map[*syntax.WithStmt]*Region{}, Splits: map[*syntax.MatchStmt]*Split{},
		Code: map[syntax.Node]Persp{}, IDs: map[*syntax.Call]IDInfo{},
		Calls: map[*syntax.Call]*CallInfo{}, Types: map[syntax.Expr]*Type{},
	}}
	for _, fd := range f.Funcs {
		c.declareFunc(fd)
	}
	for _, fn := range c.info.Funcs {
		c.checkFunc(fn)
	}
	return c.info
}

type checker struct {
	errs       *diag.List
	info       *Info
	nextID     int
	claims     map[*Var]*claimUse
	claimDepth map[*Var]int
	claimAt    map[*Var]place
}

type claimUse struct {
	path []branchRef
	pos  diag.Pos
}

type branchRef struct {
	m    *syntax.MatchStmt
	arm  int
	code Persp
}

func (c *checker) errorf(pos diag.Pos, code, format string, args ...any) *diag.Diagnostic {
	return c.errs.Errorf(pos, code, format, args...)
}

// ---- scopes ----

type scope struct {
	parent *scope
	vars   map[string]*Var
}

func (s *scope) lookup(name string) *Var {
	for ; s != nil; s = s.parent {
		if v, ok := s.vars[name]; ok {
			return v
		}
	}
	return nil
}

// hiddenList is a persistent list of originals hidden by enclosing
// partition/claim/async regions (seed 001 §3.4.2).
type hiddenList struct {
	v    *Var
	r    *Region
	next *hiddenList
}

func (h *hiddenList) find(v *Var) *Region {
	for ; h != nil; h = h.next {
		if h.v == v {
			return h.r
		}
	}
	return nil
}

// env is the checking context of a statement.
type env struct {
	fn     *Func
	code   Persp
	T, B   int
	sc     *scope
	hidden *hiddenList
	loop   *Persp // code perspective of the innermost loop, nil outside loops
	branch []branchRef
	smem   *int // live shared bytes in this function
	async  bool // inside wmma_async
	place  place
}

func (e env) nested() env {
	e.sc = &scope{parent: e.sc, vars: map[string]*Var{}}
	return e
}

func (c *checker) declare(e env, v *Var, node syntax.Node) {
	if old, ok := e.sc.vars[v.Name]; ok && old.Kind != Param {
		c.errorf(v.Pos, ErrRedeclared, "%s redeclared in this scope", v.Name).Note(old.Pos, "previous declaration of %s", v.Name)
	}
	c.nextID++
	v.ID = c.nextID
	v.Func = e.fn
	if v.Root == nil && v.Type != nil && v.Type.IsMemory() {
		v.Root = v
	}
	e.sc.vars[v.Name] = v
	if node != nil {
		c.info.Decls[node] = v
	}
}

// ---- functions and decorators ----

func (c *checker) declareFunc(fd *syntax.FuncDecl) {
	fn := &Func{Decl: fd, Name: fd.Name.Name, Top: Persp{Grid, 1}}
	if prev := c.info.ByName[fn.Name]; prev != nil {
		c.errorf(fd.Name.At, ErrRedeclared, "function %s redeclared", fn.Name).Note(prev.Decl.Name.At, "previous declaration")
		return
	}
	pd := fd.Decorator("prism")
	switch {
	case pd == nil:
		c.errorf(fd.At, ErrDecorator, "function %s needs @prism(\"global\") or @prism(\"device\")", fn.Name)
	case len(pd.Args) != 1 || strLit(pd.Args[0]) == "":
		c.errorf(pd.Pos(), ErrDecorator, "@prism takes one string: \"global\" or \"device\"")
	default:
		switch strLit(pd.Args[0]) {
		case "global":
			fn.Global = true
		case "device":
		default:
			c.errorf(pd.Args[0].Pos(), ErrDecorator, "@prism(%q): want \"global\" or \"device\"", strLit(pd.Args[0]))
		}
	}
	genv := env{sc: &scope{vars: map[string]*Var{}}}
	if rq := fd.Decorator("requires"); rq != nil {
		c.requires(fn, rq, genv)
	} else {
		c.errorf(fd.At, ErrDecorator, "function %s needs @requires(level[n], ...) giving its perspective bound", fn.Name)
	}
	for _, d := range fd.Decorators {
		switch syntax.FuncName(d.Fun) {
		case "attr":
			for _, a := range d.Args {
				fn.Attrs = append(fn.Attrs, strLit(a))
			}
		case "template":
			if len(d.Args) == 1 {
				if l, ok := d.Args[0].(*syntax.ListExpr); ok {
					for _, el := range l.Elts {
						if t, ok := el.(*syntax.TupleExpr); ok && len(t.Elts) == 2 {
							fn.Template = append(fn.Template, strLit(t.Elts[0]))
						}
					}
				}
			}
		case "prism", "requires":
		default:
			c.errorf(d.Pos(), ErrDecorator, "unknown decorator @%s", syntax.FuncName(d.Fun))
		}
	}
	for _, p := range fd.Params {
		v := &Var{Name: p.Name.Name, Kind: Param, Pos: p.Name.At, Persp: fn.Top}
		v.Type = c.resolveType(p.Type, genv)
		if p.Persp != nil {
			if ps, ok := c.persp(p.Persp, genv); ok {
				v.Persp = ps
			}
		}
		if !fn.Top.AtLeast(v.Persp) {
			c.errorf(p.Name.At, ErrDeclBroader, "parameter %s @ %s is broader than the function's perspective %s", v.Name, v.Persp, fn.Top)
		}
		if v.Type.Kind == Shared {
			c.errorf(p.Name.At, ErrType, "parameter %s: shared memory is passed as ptr(T), not shared(T[n])", v.Name)
		}
		fn.Params = append(fn.Params, v)
	}
	if fd.Result != nil {
		fn.Result = c.resolveType(fd.Result, genv)
	}
	fn.ResultPersp = fn.Top
	fn.Extern = len(fd.Body) == 1
	if fn.Extern {
		_, fn.Extern = fd.Body[0].(*syntax.PassStmt)
	}
	c.info.Funcs = append(c.info.Funcs, fn)
	c.info.ByName[fn.Name] = fn
}

// requires reads @requires(level[n], ..., smem=K): the broadest entry is
// the function's top perspective; thread (or warp) and block entries give
// the units a block and the grid make available (seed 001 §3.1).
func (c *checker) requires(fn *Func, rq *syntax.Call, e env) {
	if len(rq.Args) == 0 {
		c.errorf(rq.Pos(), ErrDecorator, "@requires needs at least one perspective")
		return
	}
	var ps []Persp
	for _, a := range rq.Args {
		p, ok := c.perspExpr(a, e)
		if !ok {
			continue
		}
		if len(ps) > 0 && ps[len(ps)-1].Level <= p.Level {
			c.errorf(a.Pos(), ErrDecorator, "@requires lists perspectives from broadest to narrowest, one per level")
			continue
		}
		ps = append(ps, p)
	}
	if len(ps) > 0 {
		fn.Top = ps[0]
	}
	for _, p := range ps {
		switch p.Level {
		case Thread:
			if fn.Top.Level != Thread {
				fn.T = p.N
			}
		case Block:
			if fn.Top.Level == Grid {
				fn.B = p.N
			}
		}
	}
	if fn.Top.Level == Thread {
		fn.T = 0
	}
	if fn.T > gpu.MaxThreadsPerCTA {
		c.errorf(rq.Pos(), ErrDecorator, "@requires asks for %d threads per block; a block holds at most %d", fn.T, gpu.MaxThreadsPerCTA)
	}
	for _, k := range rq.Kwargs {
		if k.Name.Name != "smem" {
			c.errorf(k.Name.At, ErrDecorator, "unknown @requires keyword %s (want smem=)", k.Name.Name)
			continue
		}
		n, ok := c.constInt(k.Value, e)
		if !ok || n < 0 {
			c.errorf(k.Value.Pos(), ErrNotConst, "smem= must be a non-negative constant")
			continue
		}
		fn.Smem = int(n)
		if fn.Smem > DeviceSmemLimit {
			c.errorf(k.Value.Pos(), ErrSmemDevice, "smem=%d exceeds the device limit of %d bytes per block", fn.Smem, DeviceSmemLimit)
		}
	}
}

func strLit(e syntax.Expr) string {
	if b, ok := e.(*syntax.BasicLit); ok && b.Kind == pyscan.STRING {
		return b.Text
	}
	return ""
}

// perspExpr reads a perspective written as an expression (level[n] inside
// @requires, group(...), claim(p=...)).
func (c *checker) perspExpr(x syntax.Expr, e env) (Persp, bool) {
	switch x := x.(type) {
	case *syntax.IndexExpr:
		id, ok := x.X.(*syntax.Ident)
		if !ok {
			break
		}
		return c.persp(&syntax.Persp{At: id.At, Level: id.Name, N: x.Index}, e)
	case *syntax.ListExpr:
		// group([block[5]]) as printed in Fig. 7.
		if len(x.Elts) == 1 {
			return c.perspExpr(x.Elts[0], e)
		}
	}
	c.errorf(x.Pos(), ErrBadPersp, "expected a perspective level[n]")
	return Persp{}, false
}

// persp resolves a written perspective: empty brackets mean [1], warp[k]
// is thread[32k] and warpgroup[k] thread[128k] (seed 001 §3.2).
func (c *checker) persp(p *syntax.Persp, e env) (Persp, bool) {
	n := int64(1)
	if p.N != nil {
		v, ok := c.constInt(p.N, e)
		if !ok {
			c.errorf(p.N.Pos(), ErrNotConst, "perspective count must be a compile-time constant")
			return Persp{}, false
		}
		n = v
	}
	if n < 1 || n > 1<<20 {
		c.errorf(p.At, ErrBadPersp, "perspective %s[%d]: the count must be positive", p.Level, n)
		return Persp{}, false
	}
	switch p.Level {
	case "thread":
		return Persp{Thread, int(n)}, true
	case "warp":
		return Persp{Thread, int(n) * gpu.WarpSize}, true
	case "warpgroup":
		return Persp{Thread, int(n) * gpu.WarpgroupSize}, true
	case "block":
		return Persp{Block, int(n)}, true
	case "grid":
		return Persp{Grid, int(n)}, true
	}
	c.errorf(p.At, ErrBadPersp, "unknown perspective level %q (want grid, block, warp or thread)", p.Level)
	return Persp{}, false
}

// constInt evaluates a compile-time integer expression.
func (c *checker) constInt(x syntax.Expr, e env) (int64, bool) {
	switch x := x.(type) {
	case *syntax.BasicLit:
		if x.Kind.String() == "integer" {
			v, err := strconv.ParseInt(strings.ReplaceAll(x.Value, "_", ""), 0, 64)
			return v, err == nil
		}
	case *syntax.ParenExpr:
		return c.constInt(x.X, e)
	case *syntax.Ident:
		if e.sc != nil {
			if v := e.sc.lookup(x.Name); v != nil && v.IsConst {
				return v.Value, true
			}
		}
	case *syntax.UnaryExpr:
		if v, ok := c.constInt(x.X, e); ok {
			switch x.Op {
			case "-":
				return -v, true
			case "+":
				return v, true
			}
		}
	case *syntax.BinaryExpr:
		a, ok1 := c.constInt(x.X, e)
		b, ok2 := c.constInt(x.Y, e)
		if !ok1 || !ok2 {
			return 0, false
		}
		return constBinop(x.Op, a, b)
	case *syntax.CondExpr:
		cond, ok := c.constInt(x.Cond, e)
		if !ok {
			return 0, false
		}
		if cond != 0 {
			return c.constInt(x.Then, e)
		}
		return c.constInt(x.Else, e)
	}
	return 0, false
}

func constBinop(op string, a, b int64) (int64, bool) {
	bool2 := func(v bool) (int64, bool) {
		if v {
			return 1, true
		}
		return 0, true
	}
	switch op {
	case "+":
		return a + b, true
	case "-":
		return a - b, true
	case "*":
		return a * b, true
	case "/", "//":
		if b == 0 {
			return 0, false
		}
		return a / b, true
	case "%":
		if b == 0 {
			return 0, false
		}
		return a % b, true
	case "<<":
		if b < 0 || b > 62 {
			return 0, false
		}
		return a << b, true
	case ">>":
		if b < 0 || b > 62 {
			return 0, false
		}
		return a >> b, true
	case "&":
		return a & b, true
	case "|":
		return a | b, true
	case "^":
		return a ^ b, true
	case "==":
		return bool2(a == b)
	case "!=":
		return bool2(a != b)
	case "<":
		return bool2(a < b)
	case "<=":
		return bool2(a <= b)
	case ">":
		return bool2(a > b)
	case ">=":
		return bool2(a >= b)
	case "and":
		return bool2(a != 0 && b != 0)
	case "or":
		return bool2(a != 0 || b != 0)
	}
	return 0, false
}

// resolveType turns a syntax type into a Type.
func (c *checker) resolveType(t syntax.Type, e env) *Type {
	switch t := t.(type) {
	case *syntax.NamedType:
		if t.Name == "mbarrier" || t.Name == "barrier" {
			return &Type{Kind: Barrier, Name: "mbarrier"}
		}
		if t.Name == "void" {
			return tVoid
		}
		if _, ok := scalarSize[t.Name]; !ok {
			c.errorf(t.At, ErrType, "unknown type %s", t.Name)
		}
		return &Type{Kind: Scalar, Name: t.Name}
	case *syntax.PtrType:
		return &Type{Kind: Pointer, Elem: c.resolveType(t.Elem, e)}
	case *syntax.ConstType:
		inner := *c.resolveType(t.Elem, e)
		inner.Const = true
		inner.Constexpr = t.Constexpr
		return &inner
	case *syntax.ArrayType:
		n, ok := c.constInt(t.Len, e)
		if !ok || n < 1 {
			c.errorf(t.Len.Pos(), ErrNotConst, "array length must be a positive compile-time constant")
			n = 1
		}
		return &Type{Kind: Array, Elem: c.resolveType(t.Elem, e), Len: int(n)}
	case *syntax.SharedType:
		inner := c.resolveType(t.Elem, e)
		st := &Type{Kind: Shared}
		switch inner.Kind {
		case Array:
			st.Elem, st.Len = inner.Elem, inner.Len
		case Barrier:
			st.Elem, st.Len = inner, 1
		default:
			c.errorf(t.At, ErrType, "shared(...) needs an array type T[n]")
			st.Elem, st.Len = inner, 1
		}
		if t.Align != nil {
			a, ok := c.constInt(t.Align, e)
			if !ok || a < 1 || a&(a-1) != 0 {
				c.errorf(t.Align.Pos(), ErrNotConst, "align= must be a constant power of two")
			} else {
				st.Align = int(a)
			}
		}
		return st
	}
	return tInt
}

// ---- function bodies ----

func (c *checker) checkFunc(fn *Func) {
	c.claims = map[*Var]*claimUse{}
	c.claimDepth = map[*Var]int{}
	c.claimAt = map[*Var]place{}
	smem := 0
	e := env{fn: fn, code: fn.Top, T: fn.T, B: fn.B, sc: &scope{vars: map[string]*Var{}}, smem: &smem}
	e.place = entryPlace(fn)
	for i, p := range fn.Params {
		c.declare(e, p, fn.Decl.Params[i])
	}
	if fn.Extern {
		return
	}
	c.stmts(fn.Decl.Body, e)
}

func (c *checker) stmts(list []syntax.Stmt, e env) {
	mark := *e.smem
	for _, s := range list {
		c.stmt(s, e)
	}
	// Shared allocations are scoped: leaving a block frees them, so
	// sequential blocks reuse the space (Bundl T-Seq composes with max).
	*e.smem = mark
}

func (c *checker) stmt(s syntax.Stmt, e env) {
	c.info.Code[s] = e.code
	switch s := s.(type) {
	case *syntax.PassStmt:
	case *syntax.DeclStmt:
		c.declStmt(s, e)
	case *syntax.AssignStmt:
		c.assign(s, e)
	case *syntax.ExprStmt:
		call, ok := s.X.(*syntax.Call)
		if !ok {
			c.errorf(s.Pos(), ErrType, "expression statement has no effect; only calls may stand alone")
			c.expr(s.X, e, e.code, readCond)
			return
		}
		c.call(call, e, true)
	case *syntax.WithStmt:
		c.with(s, e)
	case *syntax.MatchStmt:
		c.split(s, e)
	case *syntax.ForStmt:
		c.forStmt(s, e)
	case *syntax.WhileStmt:
		c.cond(s.Cond, e, "while")
		inner := e.nested()
		code := e.code
		inner.loop = &code
		c.stmts(s.Body, inner)
	case *syntax.IfStmt:
		c.cond(s.Cond, e, "if")
		c.stmts(s.Then, e.nested())
		c.stmts(s.Else, e.nested())
	case *syntax.BranchStmt:
		switch {
		case e.loop == nil:
			c.errorf(s.At, ErrBranch, "%s outside a loop", s.Tok)
		case *e.loop != e.code:
			c.errorf(s.At, ErrBranch, "%s at %s leaves a loop running at %s: threads of one perspective would leave it at different times", s.Tok, e.code, *e.loop)
		}
	case *syntax.ReturnStmt:
		// A return leaves the function for the threads of the code
		// perspective only; narrower than the function's perspective, the
		// rest of it continues and waits for them at the next barrier,
		// collective or partition end (seed 001 §3.4 Fig. 11: control flow
		// is uniform over the code perspective; Bundl has no return, so a
		// function body runs to its end at its top perspective).
		if e.code != e.fn.Top {
			c.errorf(s.At, ErrReturnEscapes, "return at %s code in %s, whose perspective is %s: the other threads of %s go on without these and wait for them at the next barrier; return only from %s code", e.code, e.fn.Name, e.fn.Top, e.fn.Top, e.fn.Top)
			return
		}
		if s.Value != nil {
			t, _ := c.expr(s.Value, e, e.fn.Top, readReturn)
			if e.code != e.fn.Top {
				c.errorf(s.At, ErrReturn, "return with a value at %s: a function returns from its top perspective %s", e.code, e.fn.Top)
			}
			if e.fn.Result == nil {
				e.fn.Result = t
			}
		}
	}
}

// cond checks an if/while condition: it is read at the code perspective
// (read-up, seed 001 §3.3, Fig. 11).
func (c *checker) cond(x syntax.Expr, e env, what string) {
	c.expr(x, e, e.code, readCond)
}

func (c *checker) forStmt(s *syntax.ForStmt, e env) {
	if n := len(s.Iter.Args); n < 1 || n > 3 || len(s.Iter.Kwargs) > 0 {
		c.errorf(s.Iter.Pos(), ErrType, "range takes (stop), (start, stop) or (start, stop, step)")
	}
	for _, a := range s.Iter.Args {
		c.expr(a, e, e.code, readCond)
	}
	inner := e.nested()
	code := e.code
	inner.loop = &code
	v := &Var{Name: s.Var.Name, Kind: LoopVar, Type: tInt, Persp: e.code, Pos: s.Var.At}
	c.declare(inner, v, s)
	c.info.Uses[s.Var] = v
	c.stmts(s.Body, inner)
}

func (c *checker) declStmt(s *syntax.DeclStmt, e env) {
	v := &Var{Name: s.Name.Name, Kind: Local, Pos: s.Name.At, Persp: e.code}
	v.Type = c.resolveType(s.Type, e)
	if s.Persp != nil {
		if p, ok := c.persp(s.Persp, e); ok {
			v.Persp = p
		}
	}
	c.info.Uses[s.Name] = v
	if v.Type.Kind == Shared || v.Type.Kind == Barrier {
		if v.Type.Kind == Barrier {
			v.Type = &Type{Kind: Shared, Elem: v.Type, Len: 1}
		}
		v.Kind = SharedAlloc
		// Shared memory is allocated only at block[1] (seed 001 §3.4.2,
		// Fig. 6 line 26; Bundl T-Alloc-Shared).
		if e.code != (Persp{Block, 1}) {
			c.errorf(s.Name.At, ErrSharedLevel, "shared allocation %s at %s: shared memory may only be allocated at block[1]", v.Name, e.code)
		} else if v.Persp != (Persp{Block, 1}) {
			c.errorf(s.Name.At, ErrSharedLevel, "shared allocation %s must live at block[1], not %s", v.Name, v.Persp)
		}
		align := 16
		if v.Type.Align > align {
			align = v.Type.Align
		}
		off := (*e.smem + align - 1) / align * align
		if v.Type.Elem.Kind == Barrier {
			off = (*e.smem + 7) / 8 * 8
		}
		v.SmemOffset = off
		*e.smem = off + v.Type.Size()
		c.useSmem(e, s.Name.At, fmt.Sprintf("allocating %s (%d bytes)", v.Name, v.Type.Size()), *e.smem)
		if s.Value != nil {
			c.errorf(s.Value.Pos(), ErrType, "shared allocation %s cannot have an initializer", v.Name)
		}
		c.declare(e, v, s)
		return
	}
	if !e.code.AtLeast(v.Persp) {
		c.errorf(s.Name.At, ErrDeclBroader, "%s @ %s is broader than the code perspective %s that declares it", v.Name, v.Persp, e.code)
	}
	if s.Value != nil {
		if br, ok := s.Value.(*syntax.BraceExpr); ok && v.Type.Kind == Array {
			for _, el := range br.Elts {
				c.expr(el, e, v.Persp, writeValue)
			}
		} else {
			t, _ := c.expr(s.Value, e, v.Persp, writeValue)
			c.assignable(v.Type, t, s.Value)
		}
		if v.Type.Const || v.Type.Constexpr {
			if n, ok := c.constInt(s.Value, e); ok {
				v.IsConst, v.Value = true, n
			} else if v.Type.Constexpr {
				c.errorf(s.Value.Pos(), ErrNotConst, "constexpr %s needs a compile-time constant initializer", v.Name)
			}
		}
	} else if v.Type.Constexpr {
		c.errorf(s.Name.At, ErrNotConst, "constexpr %s needs an initializer", v.Name)
	}
	if v.Type.Kind == Pointer && s.Value != nil {
		if id, ok := unparen(s.Value).(*syntax.Ident); ok {
			if src := c.info.Uses[id]; src != nil && src.Root != nil {
				v.Root = src.Root
			}
		}
	}
	c.declare(e, v, s)
}

// useSmem records that bytes of shared memory are live at pos and checks
// the function's smem= budget (seed 001 §3.4.2, Bundl T-Alloc-Shared and
// T-Function-Call m' ≤ m).
func (c *checker) useSmem(e env, pos diag.Pos, what string, total int) {
	if total > e.fn.Peak {
		e.fn.Peak = total
	}
	if total > e.fn.Smem {
		c.errorf(pos, ErrSmemBudget, "%s needs %d bytes of shared memory in total, but %s declares smem=%d", what, total, e.fn.Name, e.fn.Smem)
	}
}

func unparen(x syntax.Expr) syntax.Expr {
	for {
		p, ok := x.(*syntax.ParenExpr)
		if !ok {
			return x
		}
		x = p.X
	}
}

func (c *checker) assignable(dst, src *Type, at syntax.Expr) {
	if dst == nil || src == nil {
		return
	}
	if dst.Kind == Scalar && (src.Kind == Pointer || src.Kind == Shared || src.Kind == Array) {
		c.errorf(at.Pos(), ErrType, "cannot assign %s to %s", src, dst)
	}
	if dst.Kind == Pointer && src.Kind == Scalar && !isZero(at) {
		c.errorf(at.Pos(), ErrType, "cannot assign %s to %s", src, dst)
	}
}

func isZero(x syntax.Expr) bool {
	b, ok := unparen(x).(*syntax.BasicLit)
	return ok && b.Value == "0"
}

func (c *checker) assign(s *syntax.AssignStmt, e env) {
	// Untyped binding of a lambda or a new name (seed 001 Fig. 6 lines 23, 32).
	if id, ok := s.LHS.(*syntax.Ident); ok && s.Op == "=" && e.sc.lookup(id.Name) == nil {
		v := &Var{Name: id.Name, Kind: Local, Pos: id.At, Persp: e.code}
		if l, ok := s.RHS.(*syntax.LambdaExpr); ok {
			v.Type = &Type{Kind: Lambda}
			v.Lambda = l
			v.Persp = Any
		} else {
			t, p := c.expr(s.RHS, e, e.code, writeValue)
			v.Type = t
			_ = p
		}
		c.info.Uses[id] = v
		c.declare(e, v, s)
		return
	}
	if _, ok := s.RHS.(*syntax.LambdaExpr); ok {
		c.errorf(s.RHS.Pos(), ErrType, "a lambda may only be bound to a new name")
		return
	}
	dt, dp := c.lvalue(s.LHS, e)
	if dt == nil {
		c.expr(s.RHS, e, e.code, writeValue)
		return
	}
	t, _ := c.expr(s.RHS, e, dp, writeValue)
	c.assignable(dt, t, s.RHS)
	if _, ok := s.LHS.(*syntax.Ident); ok && (dt.Const || dt.Constexpr) {
		// (Elements behind a const pointer are reported by lvalue.)
		c.errorf(s.LHS.Pos(), ErrType, "cannot assign to constant %s", exprString(s.LHS))
	}
}

// lvalue checks an assignment target and returns its type and the
// perspective a value written into it must have.
func (c *checker) lvalue(x syntax.Expr, e env) (*Type, Persp) {
	switch x := x.(type) {
	case *syntax.Ident:
		v := c.ident(x, e, useWrite)
		if v == nil {
			return nil, e.code
		}
		if v.Type.Kind == Shared || v.Type.Kind == Array {
			c.errorf(x.At, ErrType, "cannot assign to array %s as a whole", v.Name)
			return nil, e.code
		}
		// Write-down: the variable must be no broader than the code that
		// writes it (Bundl T-Assn π' ≤ π).
		if !e.code.AtLeast(v.Persp) {
			c.errorf(x.At, ErrDeclBroader, "cannot write %s @ %s from %s code: some threads of %s would not write it", v.Name, v.Persp, e.code, v.Persp)
		}
		return v.Type, v.Persp
	case *syntax.IndexExpr:
		base, idx := indexChain(x)
		id, ok := base.(*syntax.Ident)
		if !ok {
			c.errorf(x.Pos(), ErrType, "assignment target must be a variable or an element of one")
			return nil, e.code
		}
		v := c.ident(id, e, useWrite)
		for _, i := range idx {
			if i == nil {
				c.errorf(x.Pos(), ErrType, "missing index")
				continue
			}
			c.expr(i, e, meet(v.persp(), e.code), readIndex)
		}
		if v == nil {
			return nil, e.code
		}
		t := v.Type
		for range idx {
			if t.Elem == nil || t.Kind == Scalar {
				c.errorf(x.Pos(), ErrType, "%s is not an array or pointer", v.Name)
				return nil, e.code
			}
			t = t.Elem
		}
		if v.Type.Kind == Array {
			if !e.code.AtLeast(v.Persp) {
				c.errorf(x.Pos(), ErrDeclBroader, "cannot write %s @ %s from %s code", v.Name, v.Persp, e.code)
			}
			return t, v.Persp
		}
		// Thread-shared memory: "Prism only permits writes from the view
		// of a single thread" (seed 001 §2.2; Bundl T-Arr-Assn π' ≤ π).
		if e.code != (Persp{Thread, 1}) {
			c.errorf(x.Pos(), ErrSingleWriter, "write to %s from %s code: thread-shared memory is written only from thread[1]; partition %s down to thread[1] and group(thread[1])", v.Name, e.code, v.Name)
		} else if v.Persp != (Persp{Thread, 1}) {
			c.errorf(x.Pos(), ErrSingleWriter, "write to %s @ %s: partition it down to thread[1] before writing", v.Name, v.Persp)
		}
		if v.Type.Kind == Pointer && v.Type.Elem.Const {
			c.errorf(x.Pos(), ErrType, "write through const pointer %s", v.Name)
		}
		if v.Region != nil {
			v.Region.Write = true
		}
		return t, Persp{Thread, 1}
	case *syntax.AttrExpr:
		t, p := c.lvalue(x.X, e)
		if t != nil && t.Name != "float4" {
			c.errorf(x.Pos(), ErrType, "field %s of non-vector type %s", x.Name.Name, t)
		}
		return tFloat, p
	case *syntax.ParenExpr:
		return c.lvalue(x.X, e)
	}
	c.errorf(x.Pos(), ErrType, "cannot assign to %s", exprString(x))
	return nil, e.code
}

func (v *Var) persp() Persp {
	if v == nil {
		return Any
	}
	return v.Persp
}

// indexChain splits a[i][j][k] into a and [i j k].
func indexChain(x *syntax.IndexExpr) (syntax.Expr, []syntax.Expr) {
	var idx []syntax.Expr
	var base syntax.Expr = x
	for {
		ix, ok := base.(*syntax.IndexExpr)
		if !ok {
			break
		}
		idx = append([]syntax.Expr{ix.Index}, idx...)
		base = ix.X
	}
	return base, idx
}

// ---- with: group, partition, claim, async ----

func (c *checker) with(s *syntax.WithStmt, e env) {
	name := syntax.FuncName(s.Call.Fun)
	r := &Region{Kind: name, Stmt: s, Code: e.code}
	c.info.Regions[s] = r
	switch name {
	case "group":
		if s.As != nil {
			c.errorf(s.As.At, ErrPartition, "group does not bind a name")
		}
		if len(s.Call.Args) != 1 {
			c.errorf(s.Call.Pos(), ErrType, "group takes one perspective: group(level[n])")
			c.stmts(s.Body, e.nested())
			return
		}
		p, ok := c.perspExpr(s.Call.Args[0], e)
		if !ok {
			c.stmts(s.Body, e.nested())
			return
		}
		r.Target = p
		c.group(p, s.Call.Args[0].Pos(), e)
		inner := e.nested()
		inner.code = p
		inner.place = groupPlace(p, e)
		c.stmts(s.Body, inner)
	case "partition", "claim", "async":
		c.view(s, r, e)
	case "wmma_async", "wgmma_async":
		// Hopper wgmma runs asynchronously within a warpgroup (B.5).
		if !warpgroupCode(e) {
			c.errorf(s.At, ErrCallPersp, "%s needs a warpgroup (thread[128]) perspective, here %s", name, e.code)
		}
		inner := e.nested()
		inner.async = true
		c.stmts(s.Body, inner)
	default:
		c.errorf(s.Call.Pos(), ErrPartition, "unknown with-construct %q (want group, partition, claim, async or wmma_async)", name)
		c.stmts(s.Body, e.nested())
	}
}

func warpgroupCode(e env) bool {
	return e.code.Level == Thread && e.code.N%gpu.WarpgroupSize == 0 ||
		e.code.Level == Block && e.T > 0 && e.T%gpu.WarpgroupSize == 0
}

// group checks `with group(p)` at e.code (seed 001 §3.2, Fig. 7; Bundl
// T-Group and T-Destruct).
func (c *checker) group(p Persp, pos diag.Pos, e env) {
	cur := e.code
	switch {
	case p.Level > cur.Level:
		c.errorf(pos, ErrGroupBroaden, "group(%s) inside %s: group may only narrow the perspective, and %s is broader than %s", p, cur, p.Level, cur.Level)
	case p.Level == cur.Level && p.N > cur.N || p.Level == Thread && cur.Level == Block && e.T > 0 && p.N > cur.N*e.T:
		// Widening within a level (block[2] inside block[1]) or past what
		// the level holds (thread[128] in a block of 64) is broadening, the
		// class of Fig. 7 ex. 1, not a failed division (ex. 2).
		c.errorf(pos, ErrGroupBroaden, "group(%s) inside %s: group may only narrow the perspective, and %s is broader than %s (%d threads > %d)", p, cur, p, cur, count(p, Thread, e), count(cur, Thread, e))
	case p.Level == cur.Level:
		if cur.N%p.N != 0 {
			c.errorf(pos, ErrGroupDivide, "group(%s) inside %s: %d %% %d != 0, so %s cannot be replicated evenly across %s", p, cur, cur.N, p.N, p, cur)
		}
	case p.Level == Thread:
		if e.T == 0 {
			c.errorf(pos, ErrGroupDivide, "group(%s) inside %s: the perspective bound of %s makes no threads available (add thread[n] to @requires)", p, cur, e.fn.Name)
		} else if e.T%p.N != 0 {
			c.errorf(pos, ErrGroupDivide, "group(%s) inside %s: a block of %d threads cannot be divided into %s (%d %% %d != 0)", p, cur, e.T, p, e.T, p.N)
		}
	case p.Level == Block:
		if e.B == 0 || e.B%p.N != 0 {
			c.errorf(pos, ErrGroupDivide, "group(%s) inside %s: the perspective bound makes blocks available only in multiples of %d", p, cur, e.B)
		}
	}
}

// split checks `match split(level):` (seed 001 §3.3, Figs. 8-10; Bundl
// T-Split "n1, n2 align to n"): the requests must fit in what the code
// perspective holds and each branch must start at a multiple of its size.
func (c *checker) split(s *syntax.MatchStmt, e env) {
	subj := s.Subject
	if call, ok := subj.(*syntax.Call); ok && syntax.FuncName(call.Fun) == "split" {
		if len(call.Args) != 1 {
			c.errorf(call.Pos(), ErrSplitSubject, "split takes one level: split(thread)")
			return
		}
		subj = call.Args[0]
	}
	lvl := ""
	unit := 1
	switch x := subj.(type) {
	case *syntax.Ident:
		lvl = x.Name
	case *syntax.IndexExpr:
		// split(thread[1]) reads as split(thread).
		if id, ok := x.X.(*syntax.Ident); ok {
			lvl = id.Name
		}
	}
	var level Level
	switch lvl {
	case "thread":
		level = Thread
	case "warp":
		level, unit = Thread, gpu.WarpSize
	case "warpgroup":
		level, unit = Thread, gpu.WarpgroupSize
	case "block":
		level = Block
	default:
		c.errorf(subj.Pos(), ErrSplitSubject, "match needs split(level) or a level (thread, warp, block)")
		return
	}
	// Units of the split level the code perspective holds.
	avail := 0
	switch {
	case level == e.code.Level:
		avail = e.code.N
	case level == Thread && e.code.Level == Block:
		avail = e.code.N * e.T
	case level == Block && e.code.Level == Grid:
		avail = e.code.N * e.B
	}
	if level > e.code.Level || avail == 0 {
		c.errorf(subj.Pos(), ErrSplitSubject, "split(%s) at %s: the perspective bound makes no %s units available here", lvl, e.code, lvl)
		return
	}
	sp := &Split{Stmt: s, Code: e.code}
	c.info.Splits[s] = sp
	off := 0
	bad := false
	for i, cs := range s.Cases {
		n, ok := c.constInt(cs.Value, e)
		if !ok || n < 1 {
			c.errorf(cs.Value.Pos(), ErrNotConst, "case of a split needs a positive constant count")
			n, bad = 1, true
		}
		size := int(n) * unit
		pl := branchPlace(level, off, e)
		bs := pl.Thr
		if level == Block {
			bs = pl.Blk
		}
		badAt, misal := misaligned(bs, size)
		if !bad && off+size > avail {
			c.errorf(cs.Value.Pos(), ErrSplitExceeds, "split requests %d %s units in total, but %s holds only %d", (off+size)/unit, lvl, e.code, avail/unit)
			bad = true
		} else if !bad && off%size != 0 {
			c.errorf(cs.Value.Pos(), ErrSplitAlign, "branch %d of the split (case %d) starts at %s %d, which is not aligned to its size %d", i+1, n, lvl, off/unit, n)
			bad = true
		} else if !bad && misal {
			// §3.2: a perspective of size n is aligned to n, in every copy
			// of the groups around the split, not only within one.
			c.errorf(cs.Value.Pos(), ErrSplitAlign, "branch %d of the split (case %d) is aligned within %s, but an instance of %s starts so that the branch begins at %s %d of its %s, which is not aligned to the branch's %d %ss (a perspective of size n is aligned to n)", i+1, n, e.code, e.code, level, badAt, alignFrame(level, e), size, level)
			bad = true
		}
		bp := Persp{level, size}
		sp.Sizes = append(sp.Sizes, size)
		sp.Offsets = append(sp.Offsets, off)
		sp.Branch = append(sp.Branch, bp)
		off += size
		inner := e.nested()
		inner.code = bp
		inner.place = pl
		inner.branch = append(append([]branchRef(nil), e.branch...), branchRef{m: s, arm: i, code: bp})
		c.info.Code[cs] = bp
		c.stmts(cs.Body, inner)
	}
}

// view checks partition, claim and async (seed 001 §3.4.2, §3.7; Bundl
// T-Partition, T-Claim, T-Async-Partition).
func (c *checker) view(s *syntax.WithStmt, r *Region, e env) {
	call := s.Call
	body := func(inner env) { c.stmts(s.Body, inner) }
	if len(call.Args) < 1 {
		c.errorf(call.Pos(), ErrPartition, "%s needs the pointer to narrow as its first argument", r.Kind)
		body(e.nested())
		return
	}
	id, ok := call.Args[0].(*syntax.Ident)
	if !ok {
		c.errorf(call.Args[0].Pos(), ErrPartition, "%s narrows a named pointer", r.Kind)
		body(e.nested())
		return
	}
	x := c.ident(id, e, useView)
	if s.As == nil {
		c.errorf(call.Pos(), ErrPartition, "%s must bind the narrowed pointer: with %s(...) as name", r.Kind, r.Kind)
	}
	if x == nil || s.As == nil {
		body(e.nested())
		return
	}
	r.X = x
	if !x.Type.IsMemory() || x.Type.Kind == Async {
		c.errorf(id.At, ErrPartitionLocal, "%s of %s: only thread-shared memory (pointers and shared arrays) can be %sed, not %s", r.Kind, x.Name, strings.TrimSuffix(r.Kind, "e"), x.Type)
		body(e.nested())
		return
	}
	y := &Var{Name: s.As.Name, Kind: View, Pos: s.As.At, Root: x.Root, Region: r}
	r.Y = y
	switch r.Kind {
	case "async":
		y.Type = &Type{Kind: Async, Elem: x.Type}
		y.Persp = x.Persp
		if len(call.Args) != 1 || len(call.Kwargs) != 0 {
			c.errorf(call.Pos(), ErrPartition, "async takes just the pointer: with async(x) as y")
		}
	default:
		y.Type = x.Type
		var pe syntax.Expr
		switch {
		case call.Kwarg("p") != nil:
			pe = call.Kwarg("p")
		case call.Kwarg("dimension") != nil:
			pe = call.Kwarg("dimension")
		case call.Kwarg("scope") != nil:
			pe = call.Kwarg("scope")
		case len(call.Args) >= 2:
			pe = call.Args[1]
		}
		for _, k := range call.Kwargs {
			switch k.Name.Name {
			case "p", "dimension", "scope", "f", "offset":
			default:
				c.errorf(k.Name.At, ErrPartition, "unknown %s keyword %s", r.Kind, k.Name.Name)
			}
		}
		if pe == nil {
			c.errorf(call.Pos(), ErrPartition, "%s needs a perspective: p=level[n] (or dimension=/scope=)", r.Kind)
			body(e.nested())
			return
		}
		p, ok := c.perspExpr(pe, e)
		if !ok {
			body(e.nested())
			return
		}
		r.Target = p
		y.Persp = p
		c.viewPersp(r, x, p, pe.Pos(), e)
		if f := call.Kwarg("f"); f != nil {
			switch f := f.(type) {
			case *syntax.LambdaExpr:
				r.F = f
			case *syntax.Ident:
				lv := c.ident(f, e, useRead)
				if lv != nil && lv.Lambda != nil {
					r.F = lv.Lambda
				} else if lv != nil {
					c.errorf(f.At, ErrType, "f= needs an indexing function (a lambda), %s is %s", lv.Name, lv.Type)
				}
			default:
				c.errorf(f.Pos(), ErrType, "f= needs an indexing function (a lambda)")
			}
			if r.F != nil {
				if len(r.F.Params) != 1 {
					c.errorf(r.F.At, ErrType, "the indexing function takes one index")
				}
				le := e.nested()
				if len(r.F.Params) > 0 {
					pv := &Var{Name: r.F.Params[0].Name, Kind: Local, Type: tInt, Persp: Any, Pos: r.F.Params[0].At}
					c.declare(le, pv, nil)
					c.info.Uses[r.F.Params[0]] = pv
				}
				c.expr(r.F.Body, le, p, readOffset)
			}
		}
		if o := call.Kwarg("offset"); o != nil {
			r.Offset = o
			c.expr(o, e, p, readOffset)
		}
	}
	c.info.Decls[s] = y
	inner := e.nested()
	inner.hidden = &hiddenList{v: x, r: r, next: e.hidden}
	c.declare(inner, y, nil)
	c.info.Uses[s.As] = y
	if r.Kind == "claim" {
		delete(c.claims, y)
		c.claimDepth[y] = len(e.branch)
		c.claimAt[y] = e.place
	}
	body(inner)
}

// viewPersp checks the perspectives of partition and claim: the view is
// narrower than the pointer, the narrowing divides it (Bundl T-Partition
// c | n), and the code holds the whole pointer so every owner takes part in
// the barrier that restores it.
func (c *checker) viewPersp(r *Region, x *Var, p Persp, pos diag.Pos, e env) {
	if r.Kind == "partition" && x.Persp.Level == p.Level && p.N < x.Persp.N && x.Persp.N%p.N != 0 {
		// Bundl T-Partition needs c | n.
		c.errorf(pos, ErrPartitionLocal, "partition of %s @ %s into %s: the pointer's perspective does not divide evenly into %s (%d %% %d != 0)", x.Name, x.Persp, p, p, x.Persp.N, p.N)
		return
	}
	if !x.Persp.AtLeast(p) || x.Persp == p {
		if !x.Persp.AtLeast(p) {
			c.errorf(pos, ErrPartition, "%s of %s @ %s to %s: the new perspective must be narrower", r.Kind, x.Name, x.Persp, p)
			return
		}
	}
	if r.Kind == "partition" {
		ok := true
		switch {
		case x.Persp.Level == p.Level:
			ok = x.Persp.N%p.N == 0
		case p.Level == Thread:
			ok = e.T > 0 && e.T%p.N == 0
		case p.Level == Block:
			ok = e.B == 0 || e.B%p.N == 0
		}
		if !ok {
			c.errorf(pos, ErrPartitionLocal, "partition of %s @ %s into %s: the pointer's perspective does not divide evenly into %s", x.Name, x.Persp, p, p)
		}
	}
	if e.code != x.Persp && !(x.Kind == Param && x.Persp.Level == e.code.Level) {
		if !x.Persp.AtLeast(e.code) || x.Persp.Level == Grid && e.code.Level == Grid {
			// Code broader than the pointer (or at the pointer's own level) is fine
			// only when it is exactly the pointer's perspective.
		}
		if !e.code.AtLeast(x.Persp) || e.code.Level > x.Persp.Level {
			c.errorf(r.Stmt.At, ErrPartition, "%s of %s @ %s at %s code: the code perspective must be exactly %s, so every owner of %s takes part", r.Kind, x.Name, x.Persp, e.code, x.Persp, x.Name)
		} else if e.code != x.Persp {
			c.errorf(r.Stmt.At, ErrPartition, "%s of %s @ %s at %s code: only part of %s's owners would take part", r.Kind, x.Name, x.Persp, e.code, x.Name)
		}
	}
}

func exprString(x syntax.Expr) string {
	var b strings.Builder
	syntax.FprintExpr(&b, x)
	return b.String()
}
