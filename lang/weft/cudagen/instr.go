package cudagen

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"weft.dev/weft/cuda"
	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// instrCall lowers an instruction call by filling its CUDA template (seed
// 000 §3.3: instructions are data). Placeholders:
//
//	{p}          the argument of parameter p: a pointer to the first element
//	             of a tensor/window argument, the value of a scalar
//	{p_t}        the C element type of p
//	{p_strideK}  the element stride of window dimension K of p
//	{p_idxK}     the start index of dimension K of p's (undistributed) tensor
//	{p_coords}   all of them, comma-separated; {p_rank} their number
//	{p_wdimK}    the dimension of that tensor that window dimension K spans
//	{bar}        the mbarrier the call completes on (`>> bar[i]`)
//	{expr}       any other Weft expression over the parameters, folded
//
// Distributed indices are stripped before the template sees the arguments
// (seed 002 Rule 4/4: instruction authors stay ignorant of them).
func (g *gen) instrCall(w *cuda.Writer, s *syntax.CallStmt, in *lib.Instr, x *exprCtx, ctx *devCtx) {
	args, ok := g.bindArgs(s.Call, in.Proc)
	if !ok {
		return
	}
	if ctx != nil {
		tl := g.syncTL(in.TL)
		if tl != nil && tl.AsyncBlock && ctx.async != in.TL && ctx.async != "" {
			g.errorf(s, codeInstr, "%s has instruction timeline %s: call it inside `with CudaAsync(%s)`", in.Name, in.TL, in.TL)
			return
		}
		if in.Unit != nil {
			if u, ok := g.unitOK(in.Unit, x.sc); ok {
				if merr := ctx.cur.Matches(u); merr != nil {
					if ctx.shared {
						// The message names the iterators by the GPU
						// checker's ids (shared.go).
						g.shareMiss = true
					}
					g.errorf(s, codeInstr, "%s executes with collective unit %s: %s", in.Name, syntax.ExprString(in.Unit), merr.Msg)
					return
				}
			}
		}
	}
	// A pass that formats no text needs of the placeholders only which
	// exist (fill reports the others), not their values: the values'
	// calls (window, expr) run for their diagnostics, but no map is
	// filled (issue 13, stop 29: the map was an eighth of the generator's
	// bytes on shfl_xor). Except where the filled text is read: a wgmma
	// template's shape is checked in it (needHelpers).
	if g.discard && !fillAlways && !strings.Contains(in.CUDA, "wgmma_m64n") {
		g.instrCheck(s, in, args, x, ctx)
		return
	}
	// Sized for a few placeholders per parameter: growing the map was a
	// tenth of the generator's bytes on kernels with shuffles and copies.
	vals := make(map[string]string, 6*len(in.Proc.Params)+2)
	// A value whose placeholder name ends in a suffix the template does
	// not contain can never be looked up (fill): it is not formatted (the
	// calls that can report problems, window and expr, run regardless).
	// (Looked up once per call, before the parameters.)
	usesStride, usesIdx := strings.Contains(in.CUDA, "_stride"), strings.Contains(in.CUDA, "_idx")
	usesCoords, usesRank := strings.Contains(in.CUDA, "_coords"), strings.Contains(in.CUDA, "_rank")
	usesWdim := strings.Contains(in.CUDA, "_wdim")
	consts := map[string]syntax.Expr{}
	wins := map[string]*winArg{}
	for i, prm := range in.Proc.Params {
		a := args[i]
		t := prm.Type
		elem := ""
		if t != nil && t.Elem != nil {
			elem = t.Elem.Name
		}
		vals[prm.Name.Name+"_t"] = ctype(elem)
		if elem == lib.RealType && a != nil {
			// Exo's generic R parameter: the argument's type.
			if v := argElem(x, a); v != "" {
				vals[prm.Name.Name+"_t"] = ctype(v)
			}
		}
		switch {
		case t != nil && (t.Dims != nil || t.Window):
			wa, ok := g.window(x, a)
			if !ok {
				return
			}
			if wa.v.elem != "" && elem != "" && elem != lib.RealType && wa.v.elem != elem {
				g.errorf(a, codeInstr, "%s expects %s data for %s, not %s", in.Name, elem, prm.Name.Name, wa.v.elem)
				return
			}
			wins[prm.Name.Name] = wa
			vals[prm.Name.Name] = wa.ptr
			if t.Mem != nil && isSwizzled(wa.v.mem) && g.memSpace(wa.v.mem) == "smem" {
				if mn, ok := t.Mem.(*syntax.Name); ok && mn.Name == "CudaSmemAtomicity16B" {
					// Exo's CudaSmemAtomicity16B parameters (cp.async)
					// address their aligned 16-byte groups through the
					// swizzle, which keeps each group contiguous.
					vals[prm.Name.Name] = "&" + g.swizzledRef(wa.v, "*"+wa.ptr)
				}
			}
			if usesStride {
				for k, st := range wa.strides {
					vals[prm.Name.Name+"_stride"+strconv.Itoa(k)] = st
				}
			}
			if usesIdx {
				for k, st := range wa.starts {
					vals[prm.Name.Name+"_idx"+strconv.Itoa(k)] = st
				}
			}
			// All start indices and their count, for templates that take
			// windows of tensors of any rank (a 2-D box of a 4-D tensor
			// map: TMA addresses the box by a coordinate per dimension).
			if usesCoords {
				vals[prm.Name.Name+"_coords"] = strings.Join(wa.starts, ", ")
			}
			if usesRank {
				vals[prm.Name.Name+"_rank"] = strconv.Itoa(len(wa.starts))
			}
			// {p_wdimK}: the tensor dimension window dimension K is.
			if usesWdim {
				wk := 0
				for k, i := range wa.idx {
					if _, ok := i.(*syntax.Slice); ok {
						vals[prm.Name.Name+"_wdim"+strconv.Itoa(wk)] = strconv.Itoa(k)
						wk++
					}
				}
			}
		case lib.IsDataType(elem):
			vals[prm.Name.Name] = x.expr(a)
		default:
			if c, ok := g.constValue(a, x.sc); ok {
				consts[prm.Name.Name] = &syntax.IntLit{Text: strconv.FormatInt(c, 10), Value: c}
				vals[prm.Name.Name] = strconv.FormatInt(c, 10)
			} else {
				consts[prm.Name.Name] = a
				vals[prm.Name.Name] = x.expr(a)
			}
		}
	}
	// Completion barriers (`>> bar[i]`): TMA copies complete on an mbarrier
	// and count their bytes into its expect-tx.
	for i, t := range s.Barriers {
		if ctx == nil {
			g.errorf(t, codeBarrier, "completion barriers are for device code")
			return
		}
		b, slice, ring, ok := g.barTargetRing(ctx, t, g.ctaBarrierUnits(in, ctx))
		if !ok {
			return
		}
		if b.mem != "CudaMbarrier" {
			g.errorf(t, codeBarrier, "an instruction completes on a CudaMbarrier, not %s", b.mem)
			return
		}
		if b.ring > 0 {
			// Exo's form: the copy announces its own bytes on the ring
			// slot (the template's {expect_tx}, issued by the thread that
			// issues the copy); the Arrive that follows is a plain arrive.
			ptr := b.ringArrivePtr(slice, ring)
			if !strings.Contains(in.CUDA, "{expect_tx}") {
				g.errorf(t, codeBarrier, "%s cannot complete on the ring-buffered mbarrier %s: its CUDA template does not announce its bytes ({expect_tx})", in.Name, b.v.name)
				return
			}
			put(&g.helpers, "mbarrier_expect_tx", expectTxHelper)
			if ctx != nil {
				// The copy completes bytes on the slot through the async
				// proxy: the mbarrier.init must be fenced for it (PTX ISA,
				// fence.proxy.async / fence.mbarrier_init), as the
				// Arrive-announced form does (sync.go).
				ctx.d.asyncProxy = true
			}
			if i == 0 {
				vals["bar"] = ptr
				vals["expect_tx"] = fmt.Sprintf("weft::mbarrier_expect_tx(%s, %d); ", ptr, g.txBytes(in, wins, x, s))
			}
			continue
		}
		ptr := g.mbarSlot(b, "f", b.id, slice, b.fwdR)
		if i == 0 {
			vals["bar"] = ptr
		}
		b.tx += g.txBytes(in, wins, x, s)
	}
	if _, ok := vals["expect_tx"]; !ok {
		vals["expect_tx"] = ""
	}
	code, err := g.fill(in.CUDA, vals, consts, x)
	if err != nil {
		g.errorf(s, codeInstr, "%s: %v", in.Name, err)
		return
	}
	// *&x is x: scalar arguments reach pointer templates as &x.
	code = strings.ReplaceAll(code, "*&", "")
	g.needHelpers(code, s)
	if ctx == nil && strings.Contains(code, "_mm256_") {
		g.intrinsics = true
	}
	if !w.Discard {
		for _, line := range strings.Split(code, "\n") {
			w.Line("%s", line)
		}
	}
}

// fillAlways makes instrCall fill every template (the differential test
// of instrCheck, TestInstrCheckMatchesFill).
var fillAlways = false

// instrCheck is instrCall in a pass that formats no text (g.discard), for
// a template whose filled text nobody reads: every call of instrCall that
// can report a problem or record a fact runs, in the same order, and the
// template's placeholders are checked as fill checks them, by whether
// instrCall would have given them a value (placeholderSet).
// TestSinglePassMatchesTwoPasses compares the diagnostics with those of
// the formatting pass.
func (g *gen) instrCheck(s *syntax.CallStmt, in *lib.Instr, args []syntax.Expr, x *exprCtx, ctx *devCtx) {
	var pbuf [8]phParam
	ps := placeholderSet{params: pbuf[:0]}
	// The scalar arguments, for the placeholders that are expressions
	// over them ({expr}): the map of their values is made only for a
	// template that has such a placeholder (issue 13, stop 31: the map
	// and a literal per constant argument on every call).
	var cbuf [8]constArg
	cargs := cbuf[:0]
	wins := map[string]*winArg{}
	// The arguments' text is read by nobody here: placeholderSet counts a
	// window's strides and starts, txBytes reads its extents (syntax).
	xn := *x
	xn.noText = !textAlways
	for i, prm := range in.Proc.Params {
		a := args[i]
		t := prm.Type
		elem := ""
		if t != nil && t.Elem != nil {
			elem = t.Elem.Name
		}
		p := phParam{name: prm.Name.Name}
		switch {
		case t != nil && (t.Dims != nil || t.Window):
			wa, ok := g.window(&xn, a)
			if !ok {
				return
			}
			if wa.v.elem != "" && elem != "" && elem != lib.RealType && wa.v.elem != elem {
				g.errorf(a, codeInstr, "%s expects %s data for %s, not %s", in.Name, elem, prm.Name.Name, wa.v.elem)
				return
			}
			wins[prm.Name.Name] = wa
			p.win = wa
			if t.Mem != nil && isSwizzled(wa.v.mem) && g.memSpace(wa.v.mem) == "smem" {
				if mn, ok := t.Mem.(*syntax.Name); ok && mn.Name == "CudaSmemAtomicity16B" {
					g.swizzledRef(wa.v, "*"+wa.ptr)
				}
			}
		case lib.IsDataType(elem):
			xn.expr(a)
		default:
			c, ok := g.constValue(a, x.sc)
			cargs = append(cargs, constArg{prm.Name.Name, a, c, ok})
			if !ok {
				xn.expr(a)
			}
		}
		ps.params = append(ps.params, p)
	}
	for i, t := range s.Barriers {
		if ctx == nil {
			g.errorf(t, codeBarrier, "completion barriers are for device code")
			return
		}
		b, slice, ring, ok := g.barTargetRing(ctx, t, g.ctaBarrierUnits(in, ctx))
		if !ok {
			return
		}
		if b.mem != "CudaMbarrier" {
			g.errorf(t, codeBarrier, "an instruction completes on a CudaMbarrier, not %s", b.mem)
			return
		}
		if b.ring > 0 {
			b.ringArrivePtr(slice, ring)
			if !strings.Contains(in.CUDA, "{expect_tx}") {
				g.errorf(t, codeBarrier, "%s cannot complete on the ring-buffered mbarrier %s: its CUDA template does not announce its bytes ({expect_tx})", in.Name, b.v.name)
				return
			}
			put(&g.helpers, "mbarrier_expect_tx", expectTxHelper)
			ctx.d.asyncProxy = true
			if i == 0 {
				ps.bar = true
				g.txBytes(in, wins, x, s)
			}
			continue
		}
		g.mbarSlot(b, "f", b.id, slice, b.fwdR)
		if i == 0 {
			ps.bar = true
		}
		b.tx += g.txBytes(in, wins, x, s)
	}
	var firstErr error
	var consts map[string]syntax.Expr
	scanPlaceholders(in.CUDA, func(m string) {
		if key := strings.TrimSpace(m[1 : len(m)-1]); !ps.has(key) {
			if consts == nil {
				consts = make(map[string]syntax.Expr, len(cargs))
				for _, ca := range cargs {
					consts[ca.name] = ca.expr()
				}
			}
			g.placeholderExpr(m, key, consts, x, &firstErr)
		}
	})
	if firstErr != nil {
		g.errorf(s, codeInstr, "%s: %v", in.Name, firstErr)
	}
}

// constArg is a scalar argument of an instruction call: its parameter,
// the argument and, when ok, its constant value.
type constArg struct {
	name string
	arg  syntax.Expr
	c    int64
	ok   bool
}

// expr is what instrCall's consts map holds for it: the folded constant
// as a literal, or the argument.
func (ca *constArg) expr() syntax.Expr {
	if ca.ok {
		return &syntax.IntLit{Text: strconv.FormatInt(ca.c, 10), Value: ca.c}
	}
	return ca.arg
}

// phParam is an instruction parameter as placeholderSet sees it: its
// name, and its window argument (nil for a scalar).
type phParam struct {
	name string
	win  *winArg
}

// placeholderSet answers whether instrCall's map of placeholder values
// has a key, without the map: {p} and {p_t} for every parameter p, for a
// window argument {p_strideK}, {p_idxK}, {p_wdimK} (K below the number of
// its strides, start indices and sliced dimensions), {p_coords} and
// {p_rank}, {bar} with a completion barrier, and {expect_tx}. (instrCall
// fills a suffix's keys only when the template contains the suffix; a key
// looked up in the template does.)
type placeholderSet struct {
	params []phParam
	bar    bool
}

func (ps *placeholderSet) has(key string) bool {
	if key == "expect_tx" || key == "bar" && ps.bar {
		return true
	}
	for _, p := range ps.params {
		rest, ok := strings.CutPrefix(key, p.name)
		if !ok {
			continue
		}
		if rest == "" || rest == "_t" {
			return true
		}
		if p.win == nil {
			continue
		}
		switch rest {
		case "_coords", "_rank":
			return true
		}
		if k, ok := indexSuffix(rest, "_stride"); ok && k < len(p.win.strides) {
			return true
		}
		if k, ok := indexSuffix(rest, "_idx"); ok && k < len(p.win.starts) {
			return true
		}
		// The sliced dimensions: one stride each (window).
		if k, ok := indexSuffix(rest, "_wdim"); ok && k < len(p.win.strides) {
			return true
		}
	}
	return false
}

// indexSuffix is K of s = prefix + strconv.Itoa(K), K >= 0.
func indexSuffix(s, prefix string) (int, bool) {
	d, ok := strings.CutPrefix(s, prefix)
	if !ok || d == "" || len(d) > 1 && d[0] == '0' {
		return 0, false
	}
	k := 0
	for i := 0; i < len(d); i++ {
		if d[i] < '0' || d[i] > '9' || k > 1<<20 {
			return 0, false
		}
		k = 10*k + int(d[i]-'0')
	}
	return k, true
}

// txBytes is the byte count an asynchronous copy writes to SMEM: the
// window of its SMEM parameter written by the behaviour body.
func (g *gen) txBytes(in *lib.Instr, wins map[string]*winArg, x *exprCtx, at syntax.Node) int {
	for _, a := range in.AccessOrder {
		wa := wins[a.Param]
		if wa == nil || g.memSpace(wa.v.mem) != "smem" || a.Mode == "r" {
			continue
		}
		n, ok := g.constProd(wa.extents, x.sc)
		if !ok {
			g.errorf(at, codeConst, "the SMEM window of %s must have a constant size (for the mbarrier's expect-tx count)", in.Name)
			return 0
		}
		return int(n) * elemBytes(wa.v.elem)
	}
	return 0
}

// replacePlaceholders replaces each placeholder of s, a "{" then one or
// more bytes other than braces then "}" (the regexp \{[^{}]+\}, leftmost
// first, matches not overlapping), by repl of it. A byte scan: fill runs
// for every instruction call of every `weft check`, and the regexp
// engine was a visible part of a small kernel's check (issue 13).
func replacePlaceholders(s string, repl func(string) string) string {
	var b strings.Builder
	last := 0
	eachPlaceholder(s, func(i, j int) {
		b.WriteString(s[last:i])
		b.WriteString(repl(s[i : j+1]))
		last = j + 1
	})
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// scanPlaceholders calls f with each placeholder of s, in the order
// replacePlaceholders replaces them.
func scanPlaceholders(s string, f func(string)) {
	eachPlaceholder(s, func(i, j int) { f(s[i : j+1]) })
}

// eachPlaceholder calls f(i, j) for each placeholder s[i:j+1].
func eachPlaceholder(s string, f func(i, j int)) {
	for i := 0; i < len(s); i++ {
		if s[i] != '{' {
			continue
		}
		j := i + 1
		for j < len(s) && s[j] != '{' && s[j] != '}' {
			j++
		}
		if j == len(s) || s[j] != '}' || j == i+1 {
			continue // no placeholder starts here
		}
		f(i, j)
		i = j
	}
}

// fill substitutes the placeholders of a CUDA template.
func (g *gen) fill(tmpl string, vals map[string]string, consts map[string]syntax.Expr, x *exprCtx) (string, error) {
	var firstErr error
	out := replacePlaceholders(tmpl, func(m string) string {
		key := strings.TrimSpace(m[1 : len(m)-1])
		if v, ok := vals[key]; ok {
			return v
		}
		return g.placeholderExpr(m, key, consts, x, &firstErr)
	})
	return out, firstErr
}

// placeholderExpr is the value of placeholder m (key, trimmed) that names
// no argument: a Weft expression over the instruction's size parameters,
// folded. The first problem is kept in firstErr.
func (g *gen) placeholderExpr(m, key string, consts map[string]syntax.Expr, x *exprCtx, firstErr *error) string {
	e, err := parseExpr(key)
	if err != nil {
		if *firstErr == nil {
			*firstErr = fmt.Errorf("template placeholder %s: %v", m, err)
		}
		return m
	}
	e = substitute(e, consts)
	if c, ok := g.constValue(e, nil); ok {
		return strconv.FormatInt(c, 10)
	}
	for _, n := range freeNames(e) {
		if _, ok := g.consts.get(n); !ok {
			if *firstErr == nil {
				*firstErr = fmt.Errorf("template placeholder %s names %s, which is not a size parameter", m, n)
			}
			return m
		}
	}
	return x.expr(e)
}

func parseExpr(s string) (syntax.Expr, error) {
	var errs diag.List
	f := syntax.Parse(diag.NewFile("template", []byte("_x = "+s+"\n")), &errs)
	if errs.HasErrors() || len(f.Decls) != 1 {
		return nil, fmt.Errorf("not an expression")
	}
	gl, ok := f.Decls[0].(*syntax.Global)
	if !ok || len(gl.Values) != 1 {
		return nil, fmt.Errorf("not an expression")
	}
	return gl.Values[0], nil
}

func substitute(e syntax.Expr, m map[string]syntax.Expr) syntax.Expr {
	switch e := e.(type) {
	case *syntax.Name:
		if v, ok := m[e.Name]; ok {
			return v
		}
	case *syntax.Binary:
		return &syntax.Binary{Op: e.Op, X: substitute(e.X, m), Y: substitute(e.Y, m)}
	case *syntax.Unary:
		return &syntax.Unary{Op: e.Op, X: substitute(e.X, m)}
	}
	return e
}

// Compiled on first use, not at every process start (issue 13, stop 44).
var wgmmaName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`weft::(wgmma_m64n(\d+)k(\d+)_f32_(tf32|bf16|f16))\(`)
})

// needHelpers adds the device helpers a filled template calls that depend
// on the shape (wgmma has one PTX operand per accumulator register).
func (g *gen) needHelpers(code string, at syntax.Node) {
	if !g.discard {
		g.exoHelpers(code) // text alone: they report nothing
	}
	if !strings.Contains(code, "weft::wgmma_m64n") {
		return // no match of wgmmaName is possible (the regexp's literal prefix)
	}
	for _, m := range wgmmaName().FindAllStringSubmatch(code, -1) {
		n, _ := strconv.Atoi(m[2])
		k, _ := strconv.Atoi(m[3])
		if n < 8 || n > 256 || n%8 != 0 {
			g.errorf(at, codeInstr, "wgmma N must be a multiple of 8 in [8, 256], not %d", n)
			continue
		}
		if (m[4] == "tf32" && k != 8) || (m[4] != "tf32" && k != 16) {
			g.errorf(at, codeInstr, "wgmma %s has K = %d", m[4], map[bool]int{true: 8, false: 16}[m[4] == "tf32"])
			continue
		}
		put(&g.helpers, m[1], wgmmaHelper(m[1], n, k, m[4]))
	}
}

// wgmmaHelper writes wgmma.mma_async m64nNkK with both operands in SMEM
// (descriptors) and an f32 accumulator of N/2 registers per thread.
func wgmmaHelper(name string, n, k int, ab string) string {
	regs := n / 2
	var b strings.Builder
	fmt.Fprintf(&b, "__device__ __forceinline__ void %s(float *d, uint64_t desc_a, uint64_t desc_b, int scale_d) {\n", name)
	var ops []string
	for i := 0; i < regs; i++ {
		ops = append(ops, "%"+strconv.Itoa(i))
	}
	tail := "p, 1, 1"
	if ab != "tf32" {
		tail = "p, 1, 1, 0, 0" // both operands K-major
	}
	fmt.Fprintf(&b, "  asm volatile(\n      \"{\\n.reg .pred p;\\nsetp.ne.b32 p, %%%d, 0;\\n\"\n", regs+2)
	fmt.Fprintf(&b, "      \"wgmma.mma_async.sync.aligned.m64n%dk%d.f32.%s.%s {%s}, %%%d, %%%d, %s;\\n}\\n\"\n", n, k, ab, ab,
		strings.Join(ops, ", "), regs, regs+1, tail)
	var outs []string
	for i := 0; i < regs; i++ {
		outs = append(outs, fmt.Sprintf("\"+f\"(d[%d])", i))
	}
	b.WriteString("      : ")
	for i := 0; i < len(outs); i += 8 {
		if i > 0 {
			b.WriteString(",\n        ")
		}
		end := min(i+8, len(outs))
		b.WriteString(strings.Join(outs[i:end], ", "))
	}
	b.WriteString("\n      : \"l\"(desc_a), \"l\"(desc_b), \"r\"(scale_d));\n}\n")
	return b.String()
}

func min(a, b int) int {
	if a < b {
		return a
	}
	return b
}
