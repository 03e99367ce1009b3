package check

import (
	"fmt"

	"weft.dev/weft/gpu"
	"weft.dev/weft/lang/prism/syntax"
)

// Intrinsic is the perspective signature of a built-in operation (seed 001
// §3.6: "Intrinsics are a predefined set, each with a declared signature").
type Intrinsic struct {
	Name string
	// Threads is the collective unit the operation needs (1 for per-thread
	// operations, 32 for a warp, 128 for a warpgroup); Block means a whole
	// block at block[1].
	Threads int
	Block   bool
	// Writer marks operations that write thread-shared memory: they run
	// only from a thread[1] perspective (single writer).
	Writer bool
	MinArg int
	MaxArg int
	Result *Type
	Pure   bool // a value-level function (min, max, casts)
}

// Intrinsics is the table of built-ins.
var Intrinsics = map[string]*Intrinsic{
	// Warp-level mma.sync.aligned.m16n8k8 TF32 (Fig. 2): A[4], B[2], C[4], out=[D[4]].
	"intrinsic.mma": {Name: "intrinsic.mma", Threads: gpu.WarpSize, MinArg: 10, MaxArg: 10},
	// Hopper warpgroup MMA (wgmma.mma_async m64n256k16 bf16, B.5).
	"intrinsic.wmma256": {Name: "intrinsic.wmma256", Threads: gpu.WarpgroupSize, MinArg: 2, MaxArg: 7},
	"intrinsic.wgmma":   {Name: "intrinsic.wgmma", Threads: gpu.WarpgroupSize, MinArg: 2, MaxArg: 7},
	// Non-bulk async copy cp.async (Fig. 13): (dst, src, bytes).
	"cp.async": {Name: "cp.async", Threads: 1, Writer: true, MinArg: 3, MaxArg: 3},
	// TMA 2-D tile load bound to an mbarrier (B.5): (dst, tensormap, bar, x, y).
	"load_async": {Name: "load_async", Threads: 1, Writer: true, MinArg: 5, MaxArg: 5},
	// mbarrier expect-tx (B.5): (bar, bytes).
	"expect_bytes": {Name: "expect_bytes", Threads: 1, Writer: true, MinArg: 2, MaxArg: 2},
	// Waits for the phase of an mbarrier (explicit form of the inferred wait).
	"wait_barrier": {Name: "wait_barrier", Threads: 1, MinArg: 1, MaxArg: 1},
	// Hopper register reallocation: warpgroup collectives (B.5).
	"warpgroup_reg_alloc":   {Name: "warpgroup_reg_alloc", Threads: gpu.WarpgroupSize},
	"warpgroup_reg_dealloc": {Name: "warpgroup_reg_dealloc", Threads: gpu.WarpgroupSize},
	"__syncthreads":         {Name: "__syncthreads", Block: true},
	"__syncwarp":            {Name: "__syncwarp", Threads: gpu.WarpSize},
	"memset_wrapper":        {Name: "memset_wrapper", Threads: 1, Writer: true, MinArg: 3, MaxArg: 3},
	"shfl_up_sync":          {Name: "shfl_up_sync", Threads: gpu.WarpSize, MinArg: 2, MaxArg: 2, Result: &Type{Kind: Scalar, Name: "uint32_t"}},
	"unsafe":                {Name: "unsafe", MinArg: 1, MaxArg: 1},
	"min":                   {Name: "min", Pure: true, MinArg: 2, MaxArg: 2},
	"max":                   {Name: "max", Pure: true, MinArg: 2, MaxArg: 2},
	"abs":                   {Name: "abs", Pure: true, MinArg: 1, MaxArg: 1},
	"float":                 {Name: "float", Pure: true, MinArg: 1, MaxArg: 1, Result: tFloat},
	"int":                   {Name: "int", Pure: true, MinArg: 1, MaxArg: 1, Result: tInt},
	"float4_cast":           {Name: "float4_cast", Pure: true, MinArg: 1, MaxArg: 1, Result: &Type{Kind: Scalar, Name: "float4"}},
}

// call checks a call of a user function or intrinsic and returns its result
// type and perspective.
func (c *checker) call(x *syntax.Call, e env, stmt bool) (*Type, Persp) {
	name := syntax.FuncName(x.Fun)
	if fn := c.info.ByName[name]; fn != nil {
		return c.userCall(x, fn, e)
	}
	in := Intrinsics[name]
	if in == nil {
		if name == "id" || name == "range" || name == "split" || name == "group" {
			c.errorf(x.Pos(), ErrType, "%s(...) cannot be used here", name)
		} else {
			c.errorf(x.Pos(), ErrNoFunc, "call of unknown function %s", name)
		}
		for _, a := range x.Args {
			c.expr(a, e, Persp{Thread, 1}, readArg)
		}
		return tInt, e.code
	}
	c.info.Calls[x] = &CallInfo{Intrinsic: name, Code: e.code}
	if len(x.Args) < in.MinArg || len(x.Args) > in.MaxArg {
		if in.MinArg == in.MaxArg {
			c.errorf(x.Pos(), ErrType, "%s takes %d arguments, got %d", name, in.MinArg, len(x.Args))
		} else {
			c.errorf(x.Pos(), ErrType, "%s takes %d to %d arguments, got %d", name, in.MinArg, in.MaxArg, len(x.Args))
		}
	}
	if in.Pure {
		var t *Type
		p := Any
		for _, a := range x.Args {
			at, ap := c.expr(a, e, Any, readArg)
			if t == nil {
				t = at
			}
			p = meet(p, ap)
		}
		if in.Result != nil {
			t = in.Result
		}
		return t, p
	}
	c.needCode(x, in, e)
	switch name {
	case "unsafe":
		if len(x.Args) == 1 && strLit(x.Args[0]) == "" {
			c.errorf(x.Args[0].Pos(), ErrType, "unsafe takes a string of CUDA code")
		}
		return tVoid, e.code
	case "intrinsic.mma":
		for _, a := range x.Args {
			c.expr(a, e, Persp{Thread, 1}, readArg)
		}
		c.outList(x, e, 4)
		return tVoid, e.code
	case "intrinsic.wmma256", "intrinsic.wgmma":
		if !e.async {
			c.errorf(x.Pos(), ErrCallPersp, "%s is asynchronous: it must run inside with wmma_async()", name)
		}
		for i, a := range x.Args {
			if i < 2 {
				c.smemOperand(a, e)
				continue
			}
			c.expr(a, e, e.code, readArg)
			if _, ok := c.constInt(a, e); !ok {
				c.errorf(a.Pos(), ErrNotConst, "wgmma scale and transpose flags are compile-time constants")
			}
		}
		c.outList(x, e, 1)
		return tVoid, e.code
	case "cp.async":
		if len(x.Args) == 3 {
			async := 0
			for _, a := range x.Args[:2] {
				if c.asyncArg(a, e) {
					async++
				}
			}
			if async == 0 {
				c.errorf(x.Pos(), ErrAsyncUse, "cp.async copies into or out of an async view: open one with `with async(x) as y`")
			}
			c.expr(x.Args[2], e, Persp{Thread, 1}, readArg)
			if n, ok := c.constInt(x.Args[2], e); !ok || (n != 4 && n != 8 && n != 16) {
				c.errorf(x.Args[2].Pos(), ErrType, "cp.async copies 4, 8 or 16 bytes (a constant)")
			}
		}
		return tVoid, e.code
	case "load_async":
		if len(x.Args) == 5 {
			c.asyncArg(x.Args[0], e)
			c.expr(x.Args[1], e, Persp{Thread, 1}, readArg)
			c.barrierArg(x.Args[2], e)
			c.expr(x.Args[3], e, Persp{Thread, 1}, readArg)
			c.expr(x.Args[4], e, Persp{Thread, 1}, readArg)
		}
		return tVoid, e.code
	case "expect_bytes":
		if len(x.Args) == 2 {
			c.barrierArg(x.Args[0], e)
			c.expr(x.Args[1], e, Persp{Thread, 1}, readArg)
		}
		return tVoid, e.code
	case "wait_barrier":
		if len(x.Args) == 1 {
			c.barrierArg(x.Args[0], e)
		}
		return tVoid, e.code
	case "warpgroup_reg_alloc", "warpgroup_reg_dealloc":
		t := x.Kwarg("template")
		l, ok := t.(*syntax.ListExpr)
		if !ok || len(l.Elts) != 1 {
			c.errorf(x.Pos(), ErrType, "%s(template=[n]) needs the register count", name)
			return tVoid, e.code
		}
		n, ok := c.constInt(l.Elts[0], e)
		if !ok || n < 24 || n > 256 || n%8 != 0 {
			c.errorf(l.Elts[0].Pos(), ErrNotConst, "register count must be a constant multiple of 8 in [24, 256]")
		}
		return tVoid, e.code
	case "memset_wrapper":
		if len(x.Args) == 3 {
			c.expr(x.Args[0], e, Persp{Thread, 1}, readArg)
			c.expr(x.Args[1], e, Persp{Thread, 1}, readArg)
			c.expr(x.Args[2], e, Persp{Thread, 1}, readArg)
		}
		return tVoid, e.code
	case "shfl_up_sync":
		var t *Type
		for _, a := range x.Args {
			at, _ := c.expr(a, e, Persp{Thread, 1}, readArg)
			if t == nil {
				t = at
			}
		}
		return t, Persp{Thread, 1}
	}
	for _, a := range x.Args {
		c.expr(a, e, e.code, readArg)
	}
	return tVoid, e.code
}

// needCode checks that the code perspective provides the intrinsic's
// collective unit: an aligned group of exactly that many threads, or a
// broader aligned perspective that replicates it (seed 001 §3.6, §5 "the
// signature of intrinsic.mma requires 32 threads").
func (c *checker) needCode(x *syntax.Call, in *Intrinsic, e env) {
	name := in.Name
	if in.Block {
		if e.code != (Persp{Block, 1}) {
			c.errorf(x.Pos(), ErrCallPersp, "%s synchronizes a whole block: it needs the block[1] perspective, here %s", name, e.code)
		}
		return
	}
	if in.Writer {
		if e.code != (Persp{Thread, 1}) {
			c.errorf(x.Pos(), ErrCallPersp, "%s is issued by a single thread: it needs thread[1], here %s (use split or group(thread[1]))", name, e.code)
		}
		return
	}
	if in.Threads == 0 {
		return
	}
	if !c.provides(e, Persp{Thread, in.Threads}) {
		c.errorf(x.Pos(), ErrCallPersp, "%s needs %s (%s); the code perspective %s does not provide aligned groups of %d threads", name, Persp{Thread, in.Threads}, unitName(in.Threads), e.code, in.Threads)
	}
}

func unitName(n int) string {
	switch n {
	case 1:
		return "a thread"
	case gpu.WarpSize:
		return "a warp"
	case gpu.WarpgroupSize:
		return "a warpgroup"
	}
	return fmt.Sprintf("%d threads", n)
}

// provides reports whether code at e can run something written for
// perspective p (a broader aligned perspective replicates it).
func (c *checker) provides(e env, p Persp) bool {
	code := e.code
	switch p.Level {
	case Thread:
		switch code.Level {
		case Thread:
			return code.N%p.N == 0
		default:
			return e.T > 0 && e.T%p.N == 0
		}
	case Block:
		switch code.Level {
		case Thread:
			return false
		case Block:
			return code.N%p.N == 0
		default:
			return p.N == 1 || (e.B > 0 && e.B%p.N == 0)
		}
	case Grid:
		return code.Level == Grid && code.N%p.N == 0
	}
	return false
}

func (c *checker) outList(x *syntax.Call, e env, n int) {
	out := x.Kwarg("out")
	l, ok := out.(*syntax.ListExpr)
	if !ok {
		c.errorf(x.Pos(), ErrType, "%s needs out=[...] with %d destination(s)", syntax.FuncName(x.Fun), n)
		return
	}
	if len(l.Elts) != n && n != 1 {
		c.errorf(l.At, ErrType, "%s writes %d registers, out= lists %d", syntax.FuncName(x.Fun), n, len(l.Elts))
	}
	for _, el := range l.Elts {
		t, p := c.lvalue(el, e)
		if t != nil && p != (Persp{Thread, 1}) {
			c.errorf(el.Pos(), ErrType, "out= destinations are per-thread registers (thread[1]), %s is %s", exprString(el), p)
		}
	}
}

// smemOperand checks a wgmma operand: an element of shared memory.
func (c *checker) smemOperand(a syntax.Expr, e env) {
	ix, ok := a.(*syntax.IndexExpr)
	if !ok {
		c.errorf(a.Pos(), ErrType, "wgmma operands are shared-memory elements such as sA[off]")
		c.expr(a, e, e.code, readArg)
		return
	}
	base, idx := indexChain(ix)
	id, ok := base.(*syntax.Ident)
	if !ok {
		c.errorf(a.Pos(), ErrType, "wgmma operands are shared-memory elements such as sA[off]")
		return
	}
	v := c.ident(id, e, useRead)
	if v != nil && (v.Root == nil || v.Root.Kind != SharedAlloc) {
		c.errorf(a.Pos(), ErrType, "wgmma operand %s is not in shared memory", v.Name)
	}
	if v != nil && v.Region != nil {
		v.Region.Read = true
	}
	for _, i := range idx {
		if i != nil {
			c.expr(i, e, e.code, readArg)
		}
	}
}

// asyncArg checks an operand of an async copy and reports whether it is an
// async view.
func (c *checker) asyncArg(a syntax.Expr, e env) bool {
	base := a
	if ix, ok := a.(*syntax.IndexExpr); ok {
		var idx []syntax.Expr
		base, idx = indexChain(ix)
		for _, i := range idx {
			if i != nil {
				c.expr(i, e, Persp{Thread, 1}, readArg)
			}
		}
	}
	id, ok := base.(*syntax.Ident)
	if !ok {
		c.errorf(a.Pos(), ErrType, "async copy operands are pointers or their elements")
		return false
	}
	v := c.ident(id, e, useAsyncArg)
	if v == nil {
		return false
	}
	if !v.Type.IsMemory() {
		c.errorf(a.Pos(), ErrType, "async copy operand %s is not memory", v.Name)
	}
	if v.Region != nil {
		v.Region.Write = true
	}
	return v.Type.Kind == Async
}

func (c *checker) barrierArg(a syntax.Expr, e env) {
	id, ok := a.(*syntax.Ident)
	if !ok {
		c.errorf(a.Pos(), ErrType, "expected an mbarrier name")
		return
	}
	v := c.ident(id, e, useRead)
	if v != nil && !(v.Type.Kind == Shared && v.Type.Elem.Kind == Barrier) {
		c.errorf(a.Pos(), ErrType, "%s is not an mbarrier (declare it as %s : shared(mbarrier) @ block[1])", v.Name, v.Name)
	}
}

// userCall checks a call of a Prism function against its perspective
// signature (seed 001 §3.6; Bundl T-Function-Call).
func (c *checker) userCall(x *syntax.Call, fn *Func, e env) (*Type, Persp) {
	c.info.Calls[x] = &CallInfo{Func: fn, Code: e.code}
	bad := false
	if !c.provides(e, fn.Top) {
		bad = true
		c.errorf(x.Pos(), ErrCallPersp, "%s requires %s; the call runs at %s, which cannot supply it (functions may be called from broader, aligned perspectives only)", fn.Name, fn.Top, e.code)
	} else if fn.T > 0 && fn.Top.Level != Thread && (e.T == 0 || e.T%fn.T != 0) {
		bad = true
		c.errorf(x.Pos(), ErrCallPersp, "%s requires blocks made of thread[%d] units; here a block has %d threads", fn.Name, fn.T, e.T)
	}
	if need := *e.smem + fn.Smem; fn.Smem > 0 {
		c.useSmem(e, x.Pos(), fmt.Sprintf("calling %s (smem=%d) with %d bytes live", fn.Name, fn.Smem, *e.smem), need)
	}
	if len(x.Args) != len(fn.Params) {
		c.errorf(x.Pos(), ErrType, "%s takes %d arguments, got %d", fn.Name, len(fn.Params), len(x.Args))
	}
	for i, a := range x.Args {
		if i >= len(fn.Params) || bad {
			// A call the perspective cannot make reports that alone: the
			// arguments are resolved, not matched against the parameters.
			c.expr(a, e, Persp{Thread, 1}, readArg)
			continue
		}
		p := fn.Params[i]
		if p.Type.Kind == Pointer {
			c.ptrArg(a, p, fn, e)
			continue
		}
		t, _ := c.expr(a, e, p.Persp, readArg)
		if t != nil && (t.Kind == Pointer || t.Kind == Shared) {
			c.errorf(a.Pos(), ErrType, "argument %d of %s: %s is a pointer, parameter %s is %s", i+1, fn.Name, exprString(a), p.Name, p.Type)
		}
	}
	for _, k := range x.Kwargs {
		if k.Name.Name != "template" {
			c.errorf(k.Name.At, ErrType, "unknown keyword argument %s", k.Name.Name)
			continue
		}
		if l, ok := k.Value.(*syntax.ListExpr); ok {
			for _, el := range l.Elts {
				c.expr(el, e, Any, readArg)
			}
		}
	}
	t := fn.Result
	if t == nil {
		t = tVoid
	}
	return t, fn.ResultPersp
}

// ptrArg checks a pointer argument: pointers must match the parameter's
// perspective exactly unless the parameter is const, in which case a
// broader pointer may be passed (seed 001 §3.6).
func (c *checker) ptrArg(a syntax.Expr, p *Var, fn *Func, e env) {
	id, ok := unparen(a).(*syntax.Ident)
	if !ok {
		c.errorf(a.Pos(), ErrType, "pointer argument %s of %s must be a named pointer", p.Name, fn.Name)
		c.expr(a, e, p.Persp, readArg)
		return
	}
	v := c.ident(id, e, useRead)
	if v == nil {
		return
	}
	if !v.Type.IsMemory() || v.Type.Kind == Async {
		c.errorf(a.Pos(), ErrType, "argument %s is %s, parameter %s of %s is %s", v.Name, v.Type, p.Name, fn.Name, p.Type)
		return
	}
	if p.Type.Elem.Const {
		if !v.Persp.AtLeast(p.Persp) {
			c.errorf(a.Pos(), ErrArgPersp, "pointer %s @ %s is narrower than const parameter %s @ %s of %s", v.Name, v.Persp, p.Name, p.Persp, fn.Name)
		}
	} else {
		if v.Persp != p.Persp {
			c.errorf(a.Pos(), ErrArgPersp, "pointer %s @ %s passed to non-const parameter %s @ %s of %s: pointers must match exactly (only const pointers may be broader)", v.Name, v.Persp, p.Name, p.Persp, fn.Name)
		}
		if v.Type.Kind == Pointer && v.Type.Elem.Const {
			c.errorf(a.Pos(), ErrType, "const pointer %s passed to non-const parameter %s of %s", v.Name, p.Name, fn.Name)
		}
		if v.Region != nil {
			v.Region.Write = true
		}
	}
	if v.Region != nil {
		v.Region.Read = true
	}
}
