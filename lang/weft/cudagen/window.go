package cudagen

import (
	"strconv"
	"strings"

	"weft.dev/weft/cuda"
	"weft.dev/weft/lang/weft/syntax"
)

// alias is a window statement `w = x[i, 0:8]`: accesses to w index x.
type alias struct {
	base *sym
	idx  []syntax.Expr // points and *syntax.Slice over base's dims
}

// windowAlias makes the symbol of a window statement.
func (g *gen) windowAlias(n *syntax.Name, rhs syntax.Expr, sc *scope, order int) *sym {
	var base *sym
	var idx []syntax.Expr
	switch r := rhs.(type) {
	case *syntax.Name:
		base = sc.lookup(r.Name)
	case *syntax.Index:
		if bn, ok := r.X.(*syntax.Name); ok {
			base = sc.lookup(bn.Name)
		}
		idx = r.Indices
	}
	if base == nil || base.kind != kTensor {
		g.errorf(rhs, codeUnsupported, "a window statement must window a tensor")
		return nil
	}
	if len(idx) == 0 {
		for range base.dims {
			idx = append(idx, &syntax.Slice{})
		}
	}
	var dims []syntax.Expr
	for k, i := range idx {
		if s, ok := i.(*syntax.Slice); ok {
			dims = append(dims, sliceExtent(s, base, k))
		}
	}
	return &sym{name: n.Name, c: cuda.Ident(n.Name), kind: kTensor, elem: base.elem, dims: dims, window: true,
		mem: base.mem, memArg: base.memArg, device: base.device, order: order, decl: n, aliasOf: &alias{base: base, idx: idx}}
}

func sliceExtent(s *syntax.Slice, base *sym, k int) syntax.Expr {
	hi := s.Hi
	if hi == nil {
		if k < len(base.dims) {
			hi = base.dims[k]
		} else {
			hi = &syntax.IntLit{Text: "0"}
		}
	}
	if s.Lo == nil {
		return hi
	}
	return &syntax.Binary{Op: "-", X: hi, Y: s.Lo}
}

func zero() syntax.Expr { return &syntax.IntLit{Text: "0", Value: 0} }

func addExpr(a, b syntax.Expr) syntax.Expr {
	if l, ok := a.(*syntax.IntLit); ok && l.Value == 0 {
		return b
	}
	if l, ok := b.(*syntax.IntLit); ok && l.Value == 0 {
		return a
	}
	return &syntax.Binary{Op: "+", X: a, Y: b}
}

// compose maps indices of an alias to indices of its base.
func compose(al *alias, idx []syntax.Expr) []syntax.Expr {
	var out []syntax.Expr
	j := 0
	for _, i := range al.idx {
		s, ok := i.(*syntax.Slice)
		if !ok {
			out = append(out, i)
			continue
		}
		lo := s.Lo
		if lo == nil {
			lo = zero()
		}
		if j >= len(idx) {
			out = append(out, s)
			continue
		}
		a := idx[j]
		j++
		if as, ok := a.(*syntax.Slice); ok {
			ns := &syntax.Slice{Lo: lo, Hi: s.Hi}
			if as.Lo != nil {
				ns.Lo = addExpr(lo, as.Lo)
			}
			if as.Hi != nil {
				ns.Hi = addExpr(lo, as.Hi)
			}
			out = append(out, ns)
			continue
		}
		out = append(out, addExpr(lo, a))
	}
	return append(out, idx[j:]...)
}

// winArg is an instruction's tensor argument lowered to a pointer.
type winArg struct {
	v       *sym
	ptr     string   // C pointer to the first element
	starts  []string // start index of each (non-distributed) base dimension
	strides []string // element stride of each windowed (slice) dimension
	extents []syntax.Expr
	idx     []syntax.Expr // the (non-distributed) indices, parallel to starts
	// The lists' arrays when they fit (a window of up to winInline
	// dimensions): the window and its lists in one object (issue 13,
	// stop 31: four objects per window argument had been the
	// generator's most frequent allocation under weft check).
	startBuf, strideBuf [winInline]string
	extentBuf           [winInline]syntax.Expr
}

// winInline is the number of dimensions a winArg holds in place.
const winInline = 4

// list is buf[:0:n] when n fits there, else a new slice of capacity n.
func list[T any](buf []T, n int) []T {
	if n <= len(buf) {
		return buf[:0:n]
	}
	return make([]T, 0, n)
}

// window lowers a window (or whole-tensor) argument.
func (g *gen) window(x *exprCtx, a syntax.Expr) (*winArg, bool) {
	var v *sym
	var idx []syntax.Expr
	switch a := a.(type) {
	case *syntax.Name:
		v = x.sc.lookup(a.Name)
	case *syntax.Index:
		if n, ok := a.X.(*syntax.Name); ok {
			v = x.sc.lookup(n.Name)
		}
		idx = a.Indices
	}
	if v == nil || v.kind != kTensor && !(v.kind == kScalar && len(idx) == 0) {
		g.errorf(a, codeInstr, "expected a tensor or window argument, not %s", syntax.ExprString(a))
		return nil, false
	}
	if x.device && !v.device {
		g.capture(v)
	}
	for v.aliasOf != nil {
		if len(idx) == 0 {
			idx = v.aliasOf.idx
		} else {
			idx = compose(v.aliasOf, idx)
		}
		v = v.aliasOf.base
		if x.device && !v.device {
			g.capture(v)
		}
	}
	if v.kind == kScalar {
		return &winArg{v: v, ptr: "&" + v.c}, true
	}
	if len(idx) == 0 {
		for range v.dims {
			idx = append(idx, &syntax.Slice{})
		}
	}
	if len(idx) != len(v.dims) {
		g.errorf(a, codeName, "%s has %d dimensions, indexed with %d", v.name, len(v.dims), len(idx))
		return nil, false
	}
	idx = g.stripDist(x, v, idx, a)
	dims := v.dims[len(v.dims)-len(idx):]
	wa := &winArg{v: v, idx: idx}
	// Each list at its final size at once (growing them had been a tenth
	// of the generator's objects on shfl_xor; issue 13, stop 29).
	nsl := 0
	for _, i := range idx {
		if _, ok := i.(*syntax.Slice); ok {
			nsl++
		}
	}
	if nsl > 0 {
		wa.extents = list(wa.extentBuf[:], nsl)
		wa.strides = list(wa.strideBuf[:], nsl)
	}
	if len(idx) > 0 {
		wa.starts = list(wa.startBuf[:], len(idx))
	}
	var sbuf [8]syntax.Expr
	starts := sbuf[:0]
	for k, i := range idx {
		if s, ok := i.(*syntax.Slice); ok {
			lo := s.Lo
			if lo == nil {
				lo = zero()
			}
			starts = append(starts, lo)
			wa.extents = append(wa.extents, sliceExtent(s, &sym{dims: dims}, k))
			// Tensor maps and fragments have no element strides (and must
			// not capture the sizes a stride would name).
			stride := "1"
			if fragmentThreads(v.mem) == 0 && v.mem != "Sm90_tensorMap" {
				stride = x.size(dims[k+1:])
			}
			wa.strides = append(wa.strides, stride)
		} else {
			starts = append(starts, i)
		}
		wa.starts = append(wa.starts, x.expr(starts[k]))
	}
	if v.mem == "Sm90_tensorMap" {
		if x.noText {
			return wa, true
		}
		wa.ptr = "reinterpret_cast<const CUtensorMap *>(&" + v.c + ")"
		return wa, true
	}
	if frag := fragmentThreads(v.mem); frag > 0 {
		// The last two dims are one register fragment: the window must
		// take the whole tile.
		if len(idx) < 2 {
			g.errorf(a, codeInstr, "%s needs its last two dimensions (the matrix tile) in the window", v.name)
			return nil, false
		}
		lead := idx[:len(idx)-2]
		regs := g.fragRegs(x, v, a)
		off := x.linear(lead, dims[:len(dims)-2])
		if x.noText {
			return wa, true
		}
		if off == "0" {
			wa.ptr = "&" + v.c + "[0]"
		} else if regs == 1 {
			wa.ptr = "&" + v.c + "[" + off + "]"
		} else if !strings.Contains(off, " ") {
			wa.ptr = "&" + v.c + "[" + off + " * " + strconv.Itoa(regs) + "]"
		} else {
			wa.ptr = "&" + v.c + "[(" + off + ") * " + strconv.Itoa(regs) + "]"
		}
		return wa, true
	}
	if v.scalarized {
		wa.ptr = "&" + v.c
		return wa, true
	}
	off := x.linear(starts, dims)
	if x.noText {
		return wa, true // ptr and starts are text
	}
	wa.ptr = "&" + v.c + "[" + off + "]"
	return wa, true
}

// fragRegs is the number of registers per thread of one matrix tile.
func (g *gen) fragRegs(x *exprCtx, v *sym, at syntax.Node) int {
	return g.fragRegsTo(x, v, at, g.errorf)
}

// fragRegsTo is fragRegs reporting its problem to report.
func (g *gen) fragRegsTo(x *exprCtx, v *sym, at syntax.Node, report reportFunc) int {
	frag := fragmentThreads(v.mem)
	if len(v.dims) < 2 {
		return 1
	}
	r, ok1 := g.constValue(v.dims[len(v.dims)-2], x.sc)
	c, ok2 := g.constValue(v.dims[len(v.dims)-1], x.sc)
	if !ok1 || !ok2 || r*c%int64(frag) != 0 {
		report(at, codeMemory, "the matrix tile of %s must have constant dimensions whose product is a multiple of %d", v.name, frag)
		return 1
	}
	return int(r * c / int64(frag))
}

// pointerArg lowers a tensor argument of a proc call to a pointer.
func (g *gen) pointerArg(x *exprCtx, a syntax.Expr, _ *syntax.Param) string {
	wa, ok := g.window(x, a)
	if !ok {
		return "0"
	}
	return wa.ptr
}

// tensorMap lowers `m = A[...] @ Sm90_tensorMap(swizzle, *box)` in CPU
// code: the host encodes a CUtensorMap for the GMEM tensor A with the
// given box (seed 000 Fig. 14; issue: "host-side CUtensorMap construction
// via the special window type"). A 2-D tensor uses weft_tensor_map_2d;
// tensors of rank 1 to 5 (Exo's GPU branch builds 3-D and 4-D maps,
// A[0:L, 0:M, 0:K_split, 0:K_cluster] @ Sm90_tensorMap(128, 1, 256, 1, 32))
// weft_tensor_map_nd. A window that does not cover the whole tensor maps
// the window (weft_tensor_map_strided: its origin, extents, and the
// tensor's row strides); calls window the map.
func (pg *procGen) tensorMap(n *syntax.Name, s *syntax.Assign, mem string, args []int64, sc *scope) {
	g := pg.g
	x := &exprCtx{g: g, sc: sc}
	var base *sym
	var idx []syntax.Expr
	switch r := s.RHS.(type) {
	case *syntax.Name:
		base = sc.lookup(r.Name)
	case *syntax.Index:
		if bn, ok := r.X.(*syntax.Name); ok {
			base = sc.lookup(bn.Name)
		}
		idx = r.Indices
	}
	if base == nil || base.kind != kTensor || g.memSpace(base.mem) != "gmem" {
		g.errorf(s.RHS, codeMemory, "%s needs a GMEM tensor", mem)
		return
	}
	if idx != nil && len(idx) != len(base.dims) {
		g.errorf(s.RHS, codeName, "%s has %d dimensions, indexed with %d", base.name, len(base.dims), len(idx))
		return
	}
	whole := true
	for k, i := range idx {
		sl, ok := i.(*syntax.Slice)
		if !ok {
			g.errorf(i, codeUnsupported, "a tensor map takes a slice in every dimension of %s (a map has the tensor's rank)", base.name)
			return
		}
		if !g.wholeRange(sl, base.dims[k], sc) {
			whole = false
		}
	}
	rank := len(base.dims)
	if rank < 1 || rank > 5 || len(args) != rank+1 {
		g.errorf(s, codeUnsupported, "%s(swizzle, box0, ..., box%d) of a %d-D tensor: one box size per dimension (rank 1 to 5)", mem, rank-1, rank)
		return
	}
	c := cuda.Ident(n.Name)
	pg.w.Line("weft_tensor_map %s;", c)
	if !whole {
		// A map of a sub-window (Exo's TMA tester: d_x[:, 0:K] of a wider
		// array, d_sum[1:, :]): its origin is the window's first element,
		// its extents the window's, its strides the tensor's (TMA
		// addresses rows by byte strides, so the rows need not be dense).
		var starts []syntax.Expr
		var dims, strides, box []string
		var wdims []syntax.Expr
		for k, i := range idx {
			sl := i.(*syntax.Slice)
			lo := sl.Lo
			if lo == nil {
				lo = zero()
			}
			starts = append(starts, lo)
			e := sliceExtent(sl, base, k)
			wdims = append(wdims, e)
			dims = append(dims, "(uint64_t)("+x.expr(e)+")")
			if k > 0 {
				strides = append(strides, "(uint64_t)("+x.size(base.dims[k:])+")")
			}
			box = append(box, strconv.FormatInt(args[k+1], 10))
		}
		pg.w.Line("{")
		pg.w.Line("    const uint64_t dims[%d] = {%s};", rank, strings.Join(dims, ", "))
		if rank > 1 {
			pg.w.Line("    const uint64_t strides[%d] = {%s};", rank-1, strings.Join(strides, ", "))
		} else {
			pg.w.Line("    const uint64_t *strides = 0;")
		}
		pg.w.Line("    const uint32_t box[%d] = {%s};", rank, strings.Join(box, ", "))
		pg.w.Line("    weft_tensor_map_strided(&%s, &%s[%s], %d, %d, dims, strides, box, %d);", c, base.c, x.linear(starts, base.dims), elemBytes(base.elem), rank, args[0])
		pg.w.Line("}")
		sc.add(&sym{name: n.Name, c: c, kind: kTensor, elem: base.elem, dims: wdims, mem: "Sm90_tensorMap",
			memArg: args, order: pg.order, decl: n})
		return
	}
	if rank == 2 {
		pg.w.Line("weft_tensor_map_2d(&%s, %s, %d, %s, %s, %d, %d, %d);", c, base.c, elemBytes(base.elem),
			x.expr(base.dims[0]), x.expr(base.dims[1]), args[1], args[2], args[0])
	} else {
		var dims, box []string
		for k := range base.dims {
			dims = append(dims, "(uint64_t)("+x.expr(base.dims[k])+")")
			box = append(box, strconv.FormatInt(args[k+1], 10))
		}
		pg.w.Line("{")
		pg.w.Line("    const uint64_t dims[%d] = {%s};", rank, strings.Join(dims, ", "))
		pg.w.Line("    const uint32_t box[%d] = {%s};", rank, strings.Join(box, ", "))
		pg.w.Line("    weft_tensor_map_nd(&%s, %s, %d, %d, dims, box, %d);", c, base.c, elemBytes(base.elem), rank, args[0])
		pg.w.Line("}")
	}
	sc.add(&sym{name: n.Name, c: c, kind: kTensor, elem: base.elem, dims: base.dims, mem: "Sm90_tensorMap",
		memArg: args, order: pg.order, decl: n})
}

// wholeRange reports whether sl covers all of a dimension of extent dim:
// `:`, `0:`, `:dim` or `0:dim` (dim the same expression or constant).
func (g *gen) wholeRange(sl *syntax.Slice, dim syntax.Expr, sc *scope) bool {
	if sl.Lo != nil {
		if c, ok := g.constValue(sl.Lo, sc); !ok || c != 0 {
			return false
		}
	}
	if sl.Hi == nil {
		return true
	}
	if a, ok1 := g.constValue(sl.Hi, sc); ok1 {
		b, ok2 := g.constValue(dim, sc)
		return ok2 && a == b
	}
	return syntax.ExprString(sl.Hi) == syntax.ExprString(dim)
}

func joinNonEmpty(parts []string, sep string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, sep)
}
