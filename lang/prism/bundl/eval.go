package bundl

import (
	"math"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/prism/check"
	"weft.dev/weft/lang/prism/syntax"
	"weft.dev/weft/pyscan"
)

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func (th *thread) eval(x syntax.Expr, st *state) value {
	info := th.m.info
	switch x := x.(type) {
	case *syntax.Ident:
		switch x.Name {
		case "True", "true":
			if info.Uses[x] == nil {
				return value{f: 1}
			}
		case "False", "false":
			if info.Uses[x] == nil {
				return value{f: 0}
			}
		}
		v := info.Uses[x]
		if v == nil {
			th.fail(x.At, "P0302", "undefined %s", x.Name)
		}
		if v.IsConst {
			return value{f: float64(v.Value)}
		}
		val := th.vars[v]
		if val == nil {
			th.fail(x.At, "P0302", "%s has no value here", x.Name)
		}
		return *val
	case *syntax.BasicLit:
		switch x.Kind {
		case pyscan.INT:
			n, _ := parseInt(x.Value)
			return value{f: float64(n)}
		case pyscan.FLOAT:
			f, _ := parseFloat(x.Value)
			return value{f: f}
		}
		return value{}
	case *syntax.ParenExpr:
		return th.eval(x.X, st)
	case *syntax.UnaryExpr:
		v := th.eval(x.X, st)
		switch x.Op {
		case "-":
			return value{f: -v.f}
		case "not", "!":
			return value{f: b2f(v.f == 0)}
		case "~":
			return value{f: float64(^int64(v.f))}
		}
		return v
	case *syntax.BinaryExpr:
		if x.Op == "and" || x.Op == "&&" {
			if !truthy(th.eval(x.X, st)) {
				return value{f: 0}
			}
			return value{f: b2f(truthy(th.eval(x.Y, st)))}
		}
		if x.Op == "or" || x.Op == "||" {
			if truthy(th.eval(x.X, st)) {
				return value{f: 1}
			}
			return value{f: b2f(truthy(th.eval(x.Y, st)))}
		}
		a, b := th.eval(x.X, st), th.eval(x.Y, st)
		return th.binop(x.OpPos, x.Op, a, b, info.Types[x])
	case *syntax.CondExpr:
		if truthy(th.eval(x.Cond, st)) {
			return th.eval(x.Then, st)
		}
		return th.eval(x.Else, st)
	case *syntax.AttrExpr:
		return th.eval(x.X, st)
	case *syntax.IndexExpr:
		buf, i, shared := th.locate(x, st)
		if shared {
			th.yield()
		}
		return value{f: buf.Data[i]}
	case *syntax.Call:
		return th.call(x, st)
	}
	th.fail(x.Pos(), "P0306", "the Bundl interpreter cannot evaluate %s", exprString(x))
	return value{}
}

// binop applies op; arithmetic results are rounded to the expression's
// type (the precision model of round.go).
func (th *thread) binop(pos diag.Pos, op string, a, b value, t *check.Type) value {
	v := th.arith(pos, op, a, b, t)
	if v.ptr == nil && t != nil && t.Kind == check.Scalar {
		v.f = roundType(t, v.f)
	}
	return v
}

func (th *thread) arith(pos diag.Pos, op string, a, b value, t *check.Type) value {
	isInt := t == nil || !t.IsFloat()
	if a.ptr != nil && (op == "+" || op == "-") {
		d := int(b.f)
		if op == "-" {
			d = -d
		}
		return value{ptr: &pointer{buf: a.ptr.buf, off: a.ptr.off + d}}
	}
	switch op {
	case "+":
		return value{f: a.f + b.f}
	case "-":
		return value{f: a.f - b.f}
	case "*":
		return value{f: a.f * b.f}
	case "/", "//":
		if b.f == 0 {
			th.fail(pos, "P0303", "division by zero")
		}
		if isInt {
			return value{f: math.Trunc(a.f / b.f)}
		}
		return value{f: a.f / b.f}
	case "%":
		if b.f == 0 {
			th.fail(pos, "P0303", "modulo by zero")
		}
		if isInt {
			return value{f: float64(int64(a.f) % int64(b.f))}
		}
		return value{f: math.Mod(a.f, b.f)}
	case "<":
		return value{f: b2f(a.f < b.f)}
	case "<=":
		return value{f: b2f(a.f <= b.f)}
	case ">":
		return value{f: b2f(a.f > b.f)}
	case ">=":
		return value{f: b2f(a.f >= b.f)}
	case "==":
		return value{f: b2f(a.f == b.f)}
	case "!=":
		return value{f: b2f(a.f != b.f)}
	case "&":
		return value{f: float64(int64(a.f) & int64(b.f))}
	case "|":
		return value{f: float64(int64(a.f) | int64(b.f))}
	case "^":
		return value{f: float64(int64(a.f) ^ int64(b.f))}
	case "<<":
		return value{f: float64(int64(a.f) << uint(b.f))}
	case ">>":
		return value{f: float64(int64(a.f) >> uint(b.f))}
	}
	th.fail(pos, "P0306", "operator %s is not modeled", op)
	return value{}
}

// call evaluates a call used as a value: id(), a pure intrinsic or a user
// function with a result.
func (th *thread) call(x *syntax.Call, st *state) value {
	info := th.m.info
	name := syntax.FuncName(x.Fun)
	if name == "id" {
		id, ok := info.IDs[x]
		if !ok {
			return value{f: float64(st.pos)}
		}
		return value{f: float64(st.pos / th.size(id.Dest))}
	}
	ci := info.Calls[x]
	if ci != nil && ci.Func != nil {
		return th.userCall(x, ci.Func, st)
	}
	var args []value
	for _, a := range x.Args {
		args = append(args, th.eval(a, st))
	}
	switch name {
	case "min":
		return value{f: math.Min(args[0].f, args[1].f)}
	case "max":
		return value{f: math.Max(args[0].f, args[1].f)}
	case "abs":
		return value{f: math.Abs(args[0].f)}
	case "float":
		return args[0]
	case "int":
		return value{f: math.Trunc(args[0].f)}
	case "shfl_up_sync":
		return value{f: th.shflUp(x, st, args[0].f, int(args[1].f))}
	}
	th.callStmt(x, st)
	return value{}
}

func (th *thread) userCall(x *syntax.Call, fn *check.Func, st *state) value {
	if fn.Extern {
		em, ok := externModels[fn.Name]
		if !ok || em.params != len(fn.Params) {
			th.fail(x.Pos(), "P0306", "%s is implemented in raw CUDA; the Bundl interpreter cannot run it", fn.Name)
		}
		var args []value
		for _, a := range x.Args {
			args = append(args, th.eval(a, st))
		}
		inner := &state{code: fn.Top, pos: st.pos % th.size(fn.Top)}
		return em.run(th, x, args, inner)
	}
	frame := map[*check.Var]*value{}
	for i, p := range fn.Params {
		if i < len(x.Args) {
			v := th.eval(x.Args[i], st)
			if p.Type.Kind == check.Pointer {
				if id, ok := x.Args[i].(*syntax.Ident); ok {
					if src := th.m.info.Uses[id]; th.transform(src) {
						// Passing a view through f: materialize its base f(0).
						off := th.index(src, value{f: 0}, st)
						base := th.vars[src].ptr
						v = value{ptr: &pointer{buf: base.buf, off: base.off + off}}
					}
				}
			}
			frame[p] = &v
		}
	}
	saved := th.vars
	th.vars = frame
	// The callee sees the caller's position modulo its top perspective.
	inner := &state{code: fn.Top, pos: st.pos % th.size(fn.Top)}
	if fn.Top.Level == check.Grid {
		inner.pos = st.pos
	}
	_, rv := th.block(fn.Decl.Body, inner)
	th.vars = saved
	if rv != nil {
		return *rv
	}
	return value{}
}

// callStmt runs a call statement: intrinsics and user functions.
func (th *thread) callStmt(x *syntax.Call, st *state) {
	info := th.m.info
	ci := info.Calls[x]
	if ci == nil {
		th.fail(x.Pos(), "P0306", "call of %s is not modeled", syntax.FuncName(x.Fun))
	}
	if ci.Func != nil {
		th.userCall(x, ci.Func, st)
		return
	}
	switch ci.Intrinsic {
	case "unsafe":
		th.unsafeStmt(x)
	case "__syncthreads":
		if st.code != (check.Persp{Level: check.Block, N: 1}) {
			th.fail(x.Pos(), "P0301", "Bundl run is stuck: __syncthreads at %s", st.code)
		}
		th.arrive("syncthreads:"+th.unitKey(st), th.m.T, x.Pos(), "__syncthreads")
	case "__syncwarp":
		th.arrive("syncwarp:"+th.unitKey(&state{code: check.Persp{Level: check.Thread, N: 32}, pos: th.t % 32}), 32, x.Pos(), "__syncwarp")
	case "intrinsic.mma":
		th.mma(x, st)
	case "intrinsic.wmma256", "intrinsic.wgmma":
		th.wgmma(x, st)
	case "load_async":
		th.loadAsync(x, st)
	case "expect_bytes":
		th.expectBytes(x, st)
	case "wait_barrier":
		id, ok := x.Args[0].(*syntax.Ident)
		if !ok || info.Uses[id] == nil {
			th.fail(x.Pos(), "P0302", "wait_barrier needs an mbarrier variable")
		}
		th.waitBarVar(info.Uses[id], x.Pos())
	case "cp.async":
		dst := th.ref(x.Args[0], st)
		src := th.ref(x.Args[1], st)
		n := int(th.eval(x.Args[2], st).f) / 4
		if len(th.deferred) == 0 {
			th.fail(x.Pos(), "P0301", "Bundl run is stuck: cp.async outside an async scope")
		}
		pos := x.Pos()
		q := &th.deferred[len(th.deferred)-1]
		*q = append(*q, func() {
			for k := 0; k < n; k++ {
				if dst.off+k >= len(dst.buf.Data) || src.off+k >= len(src.buf.Data) || dst.off+k < 0 || src.off+k < 0 {
					th.fail(pos, "P0302", "cp.async out of bounds")
				}
				dst.buf.Data[dst.off+k] = src.buf.Data[src.off+k]
			}
		})
	case "warpgroup_reg_alloc", "warpgroup_reg_dealloc":
		// A hint to the register allocator (seed 001 §5): no effect on
		// values; it is still a warpgroup collective.
		if !th.aligned(st, 128) {
			th.fail(x.Pos(), "P0301", "Bundl run is stuck: %s at %s needs a warpgroup", ci.Intrinsic, st.code)
		}
		// setmaxnreg.sync.aligned: the whole warpgroup executes it.
		wg := th.unitKey(&state{code: check.Persp{Level: check.Thread, N: 128}, pos: st.pos % 128})
		th.arrive("setmaxnreg:"+wg+":"+itoa(x.Pos().Offset), 128, x.Pos(), ci.Intrinsic+" (warpgroup collective)")
	case "memset_wrapper":
		p := th.ref(x.Args[0], st)
		v := th.eval(x.Args[1], st).f
		n := int(th.eval(x.Args[2], st).f) / 4
		for k := 0; k < n && p.off+k < len(p.buf.Data); k++ {
			p.buf.Data[p.off+k] = v
		}
	default:
		th.fail(x.Pos(), "P0306", "the Bundl interpreter does not model %s", ci.Intrinsic)
	}
}

// ref resolves a memory operand (a pointer or an element) to a location.
func (th *thread) ref(a syntax.Expr, st *state) *pointer {
	if ix, ok := a.(*syntax.IndexExpr); ok {
		buf, i, _ := th.locate(ix, st)
		return &pointer{buf: buf, off: i}
	}
	v := th.eval(a, st)
	if v.ptr != nil {
		return v.ptr
	}
	if v.arr != nil {
		th.checkBusy(a.Pos(), v.arr, 0)
		return &pointer{buf: v.arr}
	}
	th.fail(a.Pos(), "P0302", "%s is not memory", exprString(a))
	return nil
}

// tf32 rounds to the 10-bit mantissa of TF32 (cvt.rna: to nearest, ties away).
func tf32(x float64) float64 {
	b := math.Float32bits(float32(x))
	b += 0x1000
	b &^= 0x1fff
	return float64(math.Float32frombits(b))
}

// mma is mma.sync.aligned.m16n8k8 (tf32): a rendezvous of an aligned warp
// (seed 001 Fig. 2). Each lane brings A[4], B[2], C[4] in the PTX fragment
// layouts; the last to arrive computes D = A*B + C.
func (th *thread) mma(x *syntax.Call, st *state) {
	if !th.aligned(st, 32) {
		th.fail(x.Pos(), "P0301", "Bundl run is stuck: mma.sync at %s needs an aligned warp", st.code)
	}
	lane := st.pos % 32
	in := make([]float64, 10)
	for i := 0; i < 10 && i < len(x.Args); i++ {
		in[i] = th.eval(x.Args[i], st).f
	}
	key := "mma:" + th.unitKey(&state{code: check.Persp{Level: check.Thread, N: 32}, pos: lane}) + ":" + itoa(x.Pos().Offset)
	m := th.m
	b := m.bars[key]
	if b == nil {
		b = &barrier{size: 32, where: x.Pos(), what: "mma.sync rendezvous", out: map[int][][]float64{}}
		m.bars[key] = b
	}
	if b.in == nil {
		b.in = make([][]float64, 32)
	}
	b.in[lane] = in
	gen := b.gen
	if b.arrived+1 == 32 {
		b.out[gen] = mmaCompute(b.in)
		b.in = nil
	}
	th.arrive(key, 32, x.Pos(), "mma.sync rendezvous")
	out := b.out[gen][lane]
	l, _ := x.Kwarg("out").(*syntax.ListExpr)
	if l != nil {
		for i, el := range l.Elts {
			if i < 4 {
				th.store(el, value{f: out[i]}, st)
			}
		}
	}
}

// mmaCompute applies the m16n8k8 row.col fragment layouts: with g = lane/4
// and t = lane%4, a0=(g,t) a1=(g+8,t) a2=(g,t+4) a3=(g+8,t+4); b0=(t,g)
// b1=(t+4,g); c0=(g,2t) c1=(g,2t+1) c2=(g+8,2t) c3=(g+8,2t+1).
func mmaCompute(in [][]float64) [][]float64 {
	var A [16][8]float64
	var B [8][8]float64
	var C [16][8]float64
	for lane := 0; lane < 32; lane++ {
		v := in[lane]
		g, t := lane/4, lane%4
		A[g][t], A[g+8][t], A[g][t+4], A[g+8][t+4] = tf32(v[0]), tf32(v[1]), tf32(v[2]), tf32(v[3])
		B[t][g], B[t+4][g] = tf32(v[4]), tf32(v[5])
		C[g][2*t], C[g][2*t+1], C[g+8][2*t], C[g+8][2*t+1] = v[6], v[7], v[8], v[9]
	}
	var D [16][8]float64
	for i := 0; i < 16; i++ {
		for j := 0; j < 8; j++ {
			s := float32(C[i][j])
			for k := 0; k < 8; k++ {
				s += float32(A[i][k]) * float32(B[k][j])
			}
			D[i][j] = float64(s)
		}
	}
	out := make([][]float64, 32)
	for lane := 0; lane < 32; lane++ {
		g, t := lane/4, lane%4
		out[lane] = []float64{D[g][2*t], D[g][2*t+1], D[g+8][2*t], D[g+8][2*t+1]}
	}
	return out
}

// shflUp is __shfl_up_sync over an aligned warp: lane l receives the value
// of lane l-delta, lanes below delta keep their own.
func (th *thread) shflUp(x *syntax.Call, st *state, val float64, delta int) float64 {
	if !th.aligned(st, 32) {
		th.fail(x.Pos(), "P0301", "Bundl run is stuck: shfl_up_sync at %s needs an aligned warp", st.code)
	}
	lane := st.pos % 32
	key := "shfl:" + th.unitKey(&state{code: check.Persp{Level: check.Thread, N: 32}, pos: lane}) + ":" + itoa(x.Pos().Offset)
	m := th.m
	b := m.bars[key]
	if b == nil {
		b = &barrier{size: 32, where: x.Pos(), what: "shfl_up_sync rendezvous", out: map[int][][]float64{}}
		m.bars[key] = b
	}
	if b.in == nil {
		b.in = make([][]float64, 32)
	}
	b.in[lane] = []float64{val, float64(delta)}
	gen := b.gen
	if b.arrived+1 == 32 {
		out := make([][]float64, 32)
		for l := 0; l < 32; l++ {
			d := int(b.in[l][1])
			v := b.in[l][0]
			if l >= d && d >= 0 {
				v = b.in[l-d][0]
			}
			out[l] = []float64{v}
		}
		b.out[gen] = out
		b.in = nil
	}
	th.arrive(key, 32, x.Pos(), "shfl_up_sync rendezvous")
	return b.out[gen][lane][0]
}
