package cudagen

import (
	"fmt"
	"strings"
	"weft.dev/weft/diag"

	"weft.dev/weft/cuda"
	"weft.dev/weft/lang/weft/check"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// procGen is the state of one proc's host code.
type procGen struct {
	g     *gen
	p     *syntax.Proc
	w     *cuda.Writer
	order int
	devN  int // CudaDeviceFunction blocks so far
	// allocations to release at the end of each open scope
	frees [][]string
}

// paramSym returns the symbol a proc parameter introduces and the type of
// its C parameter declaration, which is the type then the symbol's C name
// (v.c): the declaration is text, made only by a pass that formats it
// (issue 13, stop 31: a string per parameter under weft check).
func (g *gen) paramSym(prm *syntax.Param, order int) (*sym, string) {
	t := prm.Type
	name := cuda.Ident(prm.Name.Name)
	v := &sym{name: prm.Name.Name, c: name, param: true, order: order, decl: prm}
	if t == nil || t.Elem == nil {
		g.errorf(prm, codeName, "parameter %s has no type", prm.Name.Name)
		return v, "int "
	}
	v.elem = lib.ResolveElem(t.Elem.Name)
	v.mem, v.memArg = g.memOf(t.Mem)
	switch t.Elem.Name {
	case "size":
		v.kind = kSize
		return v, "int_fast32_t "
	case "index":
		v.kind = kIndex
		return v, "int_fast32_t "
	case "stride":
		v.kind = kStride
		return v, "int_fast32_t "
	case "bool":
		v.kind = kBool
		return v, "bool "
	case "barrier":
		v.kind = kBarrier
		g.errorf(prm, codeUnsupported, "barrier parameters cannot be lowered (allocate the barrier in the device function)")
		return v, "int "
	}
	if ctype(t.Elem.Name) == "" {
		g.errorf(prm, codeName, "unknown type %s", t.Elem.Name)
	}
	ct := hostCType(t.Elem.Name)
	if g.discard {
		ct = "" // not read (the constant types above cost nothing)
	}
	if t.Dims == nil && !t.Window {
		v.kind = kScalar
		v.ptr = true
		return v, ct + " *"
	}
	v.kind = kTensor
	v.dims = t.Dims
	v.window = t.Window
	if v.mem == "Sm90_tensorMap" {
		// A tensor-map window parameter (Exo passes the CUtensorMap the
		// caller encoded): the caller's encoded map, copied into the
		// kernel's arguments.
		v.ptr = true
		return v, "const weft_tensor_map *"
	}
	return v, ct + " *"
}

func (g *gen) memOf(e syntax.Expr) (string, []int64) {
	switch m := e.(type) {
	case nil:
		return "DRAM", nil
	case *syntax.Name:
		return m.Name, nil
	case *syntax.Call:
		var args []int64
		for _, a := range m.Args {
			k, _ := g.constValue(a, nil)
			args = append(args, k)
		}
		return m.FunName(), args
	}
	return "", nil
}

func (g *gen) proc(p *syntax.Proc) {
	pg := &procGen{g: g, p: p, w: &g.c}
	sc := g.newScope(nil)
	var params []string
	for i, prm := range p.Params {
		v, ctype := g.paramSym(prm, i)
		sc.add(v)
		if !g.discard {
			params = append(params, ctype+v.c)
		}
	}
	pg.order = len(p.Params)
	if !g.discard { // the signature is text alone
		sig := "void " + cuda.Ident(p.Name.Name) + "(" + strings.Join(params, ", ") + ")"
		if len(params) == 0 {
			sig = "void " + cuda.Ident(p.Name.Name) + "(void)"
		}
		g.h.Line("%s;", sig)
		g.h.Line("")
		g.c.Line("")
		g.c.Open("%s {", sig)
	}
	pg.block(p.Body, sc)
	g.c.Close("}")
}

func (pg *procGen) block(ss []syntax.Stmt, parent *scope) {
	sc := pg.g.newScope(parent)
	if pg.w.Discard {
		// The frees are text alone: a pass that formats none adds none
		// (alloc returns before it would), so its stack would hold only
		// empty lists (issue 13, stop 36: a slice grown per proc under
		// weft check).
		for _, s := range ss {
			pg.stmt(s, sc)
		}
		return
	}
	pg.frees = append(pg.frees, nil)
	for _, s := range ss {
		pg.stmt(s, sc)
	}
	fr := pg.frees[len(pg.frees)-1]
	pg.frees = pg.frees[:len(pg.frees)-1]
	for i := len(fr) - 1; i >= 0; i-- {
		pg.w.Line("%s", fr[i])
	}
}

func comments(w *cuda.Writer, s syntax.Stmt) {
	if w.Discard {
		return
	}
	for _, c := range s.Comment().Leading {
		w.Line("//%s", strings.TrimPrefix(c, "#"))
	}
}

func (pg *procGen) stmt(s syntax.Stmt, sc *scope) {
	g := pg.g
	w := pg.w
	x := &exprCtx{g: g, sc: sc}
	comments(w, s)
	defer srcAt(w, s)()
	switch s := s.(type) {
	case *syntax.Pass:
	case *syntax.Assert:
		w.Line("// assert %s", x.expr(s.Cond))
	case *syntax.Alloc:
		pg.alloc(s, sc)
	case *syntax.Free:
		v := sc.lookup(s.Name.Name)
		if v != nil && v.kind == kTensor {
			switch g.memSpace(v.mem) {
			case "gmem":
				w.Line("weft_gmem_free(%s, exo_cudaStream);", v.c)
			case "dram":
				w.Line("free(%s);", v.c)
			}
			pg.dropFree(v.c)
		}
	case *syntax.Assign:
		pg.assign(s, sc)
	case *syntax.For:
		pg.loop(s, sc)
	case *syntax.If:
		w.Open("if (%s) {", x.expr(s.Cond))
		pg.block(s.Then, sc)
		pg.elseChain(s.Else, sc)
	case *syntax.With:
		c, ok := s.Ctx.(*syntax.Call)
		if !ok || c.FunName() != "CudaDeviceFunction" {
			g.errorf(s, codeUnsupported, "only `with CudaDeviceFunction(...)` may appear in CPU code")
			return
		}
		pg.devN++
		g.deviceFunction(pg, s, c, sc)
	case *syntax.CallStmt:
		pg.call(s, sc)
	case *syntax.Fence:
		// A fence in CPU code orders CPU work after the CUDA stream's
		// (cuda_stream_sync): the stream is synchronized.
		w.Line("weft_sync(exo_cudaStream);")
	case *syntax.Arrive, *syntax.Await:
		g.errorf(s, codeBarrier, "split barriers in CPU code (CudaEvent) are not lowered; use Fence")
	default:
		g.errorf(s, codeUnsupported, "cannot lower %T in CPU code", s)
	}
}

func (pg *procGen) elseChain(els []syntax.Stmt, sc *scope) {
	w := pg.w
	if len(els) == 0 {
		w.Close("}")
		return
	}
	w.Close("} else {")
	w.Indent()
	pg.block(els, sc)
	w.Close("}")
}

func (pg *procGen) dropFree(c string) {
	for i := range pg.frees {
		fr := pg.frees[i]
		for j, f := range fr {
			if strings.Contains(f, "("+c+")") || strings.Contains(f, "("+c+",") {
				pg.frees[i] = append(fr[:j:j], fr[j+1:]...)
				return
			}
		}
	}
}

func (pg *procGen) alloc(a *syntax.Alloc, sc *scope) {
	g := pg.g
	w := pg.w
	t := a.Type
	name := cuda.Ident(a.Name.Name)
	pg.order++
	v := &sym{name: a.Name.Name, c: name, order: pg.order, decl: a}
	if t == nil || t.Elem == nil {
		return
	}
	v.elem = lib.ResolveElem(t.Elem.Name)
	v.dims = t.Dims
	v.mem, v.memArg = g.memOf(t.Mem)
	if t.Elem.Name == "barrier" {
		g.errorf(a, codeBarrier, "barriers are allocated inside a CudaDeviceFunction")
		return
	}
	ct := hostCType(v.elem)
	if ct == "" {
		g.errorf(a, codeName, "unknown type %s", v.elem)
		return
	}
	x := &exprCtx{g: g, sc: sc}
	v.kind = kTensor
	if len(t.Dims) == 0 {
		v.kind = kScalar
	}
	sc.add(v)
	switch g.memSpace(v.mem) {
	case "dram":
		if v.kind == kScalar {
			w.Line("%s %s;", ct, name)
			return
		}
		size := x.size(t.Dims)
		if w.Discard {
			// The line and the free are text alone (Line's arguments
			// would be boxed for nothing).
			return
		}
		w.Line("%s *%s = (%s *)malloc(%s * sizeof(%s));", ct, name, ct, size, ct)
		pg.frees[len(pg.frees)-1] = append(pg.frees[len(pg.frees)-1], fmt.Sprintf("free(%s);", name))
	case "gmem":
		if v.kind == kScalar {
			g.errorf(a, codeMemory, "GMEM allocations are tensors; %s is a scalar", a.Name.Name)
			return
		}
		size := x.size(t.Dims)
		if w.Discard {
			return // as above
		}
		w.Line("%s *%s = (%s *)weft_gmem_alloc(%s * sizeof(%s), exo_cudaStream);", ct, name, ct, size, ct)
		pg.frees[len(pg.frees)-1] = append(pg.frees[len(pg.frees)-1], fmt.Sprintf("weft_gmem_free(%s, exo_cudaStream);", name))
	case "grid_constant":
		// A CPU stack value copied into the kernel's argument struct
		// (spec §8.2: passed as a __grid_constant__ launch parameter).
		if v.kind == kScalar {
			w.Line("%s %s;", ct, name)
			return
		}
		n, ok := g.constProd(t.Dims, sc)
		if !ok {
			g.errorf(a, codeConst, "a CudaGridConstant tensor needs constant dimensions")
			return
		}
		w.Line("%s %s[%d];", ct, name, n)
	default:
		g.errorf(a, codeMemory, "%s cannot be allocated in CPU code (it is allocated inside a CudaDeviceFunction)", v.mem)
	}
}

// constProd folds the product of dims, as constValue folds 1 * d0 * d1
// * ... (multiplication cannot fail): (0, false) unless every dimension is
// a constant. It builds no product expression to fold (issue 13: that was
// two objects per dimension per allocation and window).
func (g *gen) constProd(dims []syntax.Expr, sc *scope) (int64, bool) {
	p := int64(1)
	for _, d := range dims {
		v, ok := g.constValue(d, sc)
		if !ok {
			return 0, false
		}
		p *= v
	}
	return p, true
}

func (pg *procGen) assign(s *syntax.Assign, sc *scope) {
	g := pg.g
	x := &exprCtx{g: g, sc: sc}
	if s.Mem != nil || isWindowExpr(s.RHS) {
		if n, ok := s.LHS.(*syntax.Name); ok && s.Op == "=" {
			pg.hostWindow(n, s, sc)
			return
		}
	}
	lhs := pg.lvalue(s.LHS, x)
	op := "="
	if s.Op == "+=" {
		op = "+="
	}
	pg.w.Line("%s %s %s;", lhs, op, x.expr(s.RHS))
}

func (pg *procGen) lvalue(e syntax.Expr, x *exprCtx) string {
	switch e := e.(type) {
	case *syntax.Name:
		v := x.sc.lookup(e.Name)
		if v == nil {
			x.g.errorf(e, codeName, "unknown name %s", e.Name)
			return "_"
		}
		if v.kind != kScalar {
			x.g.errorf(e, codeUnsupported, "cannot assign to %s", e.Name)
		}
		return x.name(e)
	case *syntax.Index:
		return x.access(e)
	case *syntax.Attr:
		return x.configRef(e)
	}
	x.g.errorf(e, codeUnsupported, "cannot assign to %s", syntax.ExprString(e))
	return "_"
}

func isWindowExpr(e syntax.Expr) bool {
	ix, ok := e.(*syntax.Index)
	if !ok {
		return false
	}
	for _, i := range ix.Indices {
		if _, ok := i.(*syntax.Slice); ok {
			return true
		}
	}
	return false
}

// hostWindow lowers a window statement in CPU code: a special window (a
// CUtensorMap built on the host, seed 000 Fig. 14) or an alias.
func (pg *procGen) hostWindow(n *syntax.Name, s *syntax.Assign, sc *scope) {
	g := pg.g
	pg.order++
	if s.Mem != nil {
		mem, args := g.memOf(s.Mem)
		if g.lib.Windows[mem] == nil {
			g.errorf(s.Mem, codeMemory, "%s is not a special window type", mem)
			return
		}
		pg.tensorMap(n, s, mem, args, sc)
		return
	}
	v := g.windowAlias(n, s.RHS, sc, pg.order)
	if v != nil {
		sc.add(v)
	}
}

func (pg *procGen) loop(s *syntax.For, sc *scope) {
	g := pg.g
	x := &exprCtx{g: g, sc: sc}
	switch s.Mode.Name {
	case "seq", "par":
	default:
		g.errorf(s.Mode, codeUnsupported, "%s loops must be inside a CudaDeviceFunction", s.Mode.Name)
		return
	}
	inner := pg.g.newScope(sc)
	name := cuda.Ident(s.Var.Name)
	pg.order++
	inner.add(&sym{name: s.Var.Name, c: name, kind: kIndex, order: pg.order, decl: s})
	if s.Mode.Name == "par" {
		// OpenMP when the C compiler enables it (-fopenmp); a sequential
		// loop otherwise, without an unknown-pragma warning.
		pg.w.Line("#ifdef _OPENMP")
		pg.w.Line("#pragma omp parallel for")
		pg.w.Line("#endif")
	} else if k := findKwarg(s.Kwargs, "pragma_unroll"); k != nil {
		unrollPragma(pg.w, g, k, sc)
	}
	pg.w.Open("for (int_fast32_t %s = %s; %s < %s; %s++) {", name, x.expr(s.Lo), name, x.expr(s.Hi), name)
	pg.block(s.Body, inner)
	pg.w.Close("}")
}

func findKwarg(ks []*syntax.Kwarg, name string) *syntax.Kwarg {
	for _, k := range ks {
		if k.Name.Name == name {
			return k
		}
	}
	return nil
}

// unrollPragma prints seq(..., pragma_unroll=k): k = 0 unrolls fully.
func unrollPragma(w *cuda.Writer, g *gen, k *syntax.Kwarg, sc *scope) {
	n, ok := g.constValue(k.Value, sc)
	if !ok {
		g.errorf(k.Value, codeConst, "pragma_unroll must be a constant")
		return
	}
	if n == 0 {
		w.Line("#pragma unroll")
	} else {
		w.Line("#pragma unroll %d", n)
	}
}

func (pg *procGen) call(s *syntax.CallStmt, sc *scope) {
	g := pg.g
	name := s.Call.FunName()
	if in := g.instr(name); in != nil {
		if !in.CPU {
			g.errorf(s, codeInstr, "%s is a CUDA instruction; call it inside a CudaDeviceFunction", name)
			return
		}
		g.instrCall(pg.w, s, in, &exprCtx{g: g, sc: sc}, nil)
		return
	}
	p := g.procNamed(name)
	if p == nil {
		g.errorf(s.Call, codeName, "unknown proc %s", name)
		return
	}
	x := &exprCtx{g: g, sc: sc}
	args, ok := g.bindArgs(s.Call, p)
	if !ok {
		return
	}
	var cs []string
	for i, prm := range p.Params {
		a := args[i]
		t := prm.Type
		switch {
		case t != nil && t.Elem != nil && ctype(t.Elem.Name) != "" && (t.Dims != nil || t.Window):
			cs = append(cs, g.pointerArg(x, a, nil))
		case t != nil && t.Elem != nil && lib_isData(t.Elem.Name):
			cs = append(cs, "&"+x.expr(a))
		default:
			cs = append(cs, x.expr(a))
		}
	}
	pg.w.Line("%s(%s);", cuda.Ident(name), strings.Join(cs, ", "))
}

func lib_isData(elem string) bool {
	switch elem {
	case "size", "index", "stride", "bool", "barrier":
		return false
	}
	return ctype(elem) != ""
}

// bindArgs matches a call's positional and keyword arguments to p's
// parameters as package check does (check.BindArgs: keywords by name,
// positionals to the rest in order; Exo's type bindings and the
// instruction's template parameters bind no parameter).
func (g *gen) bindArgs(c *syntax.Call, p *syntax.Proc) ([]syntax.Expr, bool) {
	args, probs := check.BindArgs(p.Params, c, lib.TemplateParams(p)...)
	if len(probs) > 0 {
		g.errorf(atPos(probs[0].Pos), codeName, "%s", probs[0].Msg)
		return nil, false
	}
	return args, true
}

// atPos is a position as a syntax.Node, for errorf.
type atPos diag.Pos

func (p atPos) Pos() diag.Pos { return diag.Pos(p) }
