package bundl

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/prism/check"
	"weft.dev/weft/lang/prism/syntax"
)

// Hopper's asynchronous operations (seed 001 B.5): TMA tile loads that
// complete on an mbarrier's transaction count, and warpgroup MMA whose
// results are visible only after the wait that ends a wmma_async scope.

// TensorMap is a CUtensorMap kernel argument: a 2-D tiled view of a global
// buffer, as cuTensorMapEncodeTiled builds it. Cols is the innermost
// (contiguous) dimension: element (r, c) is Buf.Data[r*Cols+c]. A TMA load
// at coordinates (x, y) copies the box of BoxRows x BoxCols elements whose
// corner is column x, row y; elements outside the tensor read as zero (the
// tile mode's out-of-bounds fill). Swizzle is 0 (none) or the span in
// bytes, 32, 64 or 128, of CU_TENSOR_MAP_SWIZZLE_*B.
type TensorMap struct {
	Buf              *Buffer
	Rows, Cols       int
	BoxRows, BoxCols int
	Swizzle          int
}

// Validate checks the limits cuTensorMapEncodeTiled imposes.
func (tm *TensorMap) Validate() error {
	es := elemSize(tm.Buf.Elem)
	switch {
	case es == 0:
		return fmt.Errorf("element type %q has no size", tm.Buf.Elem)
	case tm.Rows <= 0 || tm.Cols <= 0:
		return fmt.Errorf("tensor extent %dx%d must be positive", tm.Rows, tm.Cols)
	case tm.Rows > len(tm.Buf.Data)/tm.Cols: // Rows*Cols > len, without overflow
		return fmt.Errorf("a %dx%d tensor needs more elements than buffer %s has (%d)", tm.Rows, tm.Cols, tm.Buf.Name, len(tm.Buf.Data))
	case tm.BoxRows <= 0 || tm.BoxRows > 256 || tm.BoxCols <= 0 || tm.BoxCols > 256:
		return fmt.Errorf("box %dx%d: each box dimension must be in 1..256", tm.BoxRows, tm.BoxCols)
	case tm.BoxCols*es%16 != 0:
		return fmt.Errorf("box rows of %d bytes: the inner box dimension must be a multiple of 16 bytes", tm.BoxCols*es)
	case tm.Swizzle != 0 && tm.Swizzle != 32 && tm.Swizzle != 64 && tm.Swizzle != 128:
		return fmt.Errorf("swizzle %d: want none, 32, 64 or 128", tm.Swizzle)
	case tm.Swizzle != 0 && tm.BoxCols*es > tm.Swizzle:
		return fmt.Errorf("box rows of %d bytes exceed the %d-byte swizzle span", tm.BoxCols*es, tm.Swizzle)
	}
	return nil
}

// swizzle maps a byte offset within a shared buffer to where a swizzled
// TMA store (and a wgmma descriptor of the same mode) puts it: the 16-byte
// chunk index within each span is XORed with the row index within an
// 8-row, 1024-byte pattern (CU_TENSOR_MAP_SWIZZLE_128B: bits 4-6 ^= bits
// 7-9). Shared buffers are modeled as 1024-byte aligned.
func swizzle(off, span int) int {
	if span == 0 {
		return off
	}
	mask := span/16 - 1
	return off ^ ((off>>7)&mask)<<4
}

// txBar is a shared mbarrier (PTX ISA, mbarrier): a phase completes when
// its pending arrivals reach zero and its transaction count is zero.
// expect_bytes is mbarrier.arrive.expect_tx (raise the count, then
// arrive); a TMA load's completion is complete_tx (lower it).
type txBar struct {
	name               string
	count, pending, tx int
	phases             int
	expected, got      int // bytes announced and delivered in this phase
	expectAt           diag.Pos
	inflight           int // TMA loads bound to it not yet complete
}

func newTxBar(name string) *txBar { return &txBar{name: name, count: 1, pending: 1} }

func (mb *txBar) maybeComplete() {
	if mb.pending == 0 && mb.tx == 0 {
		mb.phases++
		mb.pending, mb.expected, mb.got = mb.count, 0, 0
	}
}

// asyncOp is an asynchronous operation in flight (a TMA load): the
// scheduler performs it at a step of its choice, as it picks threads.
type asyncOp struct {
	run func() *fault
}

// mbarOf resolves an mbarrier operand.
func (th *thread) mbarOf(a syntax.Expr, st *state) *txBar {
	v := th.eval(a, st)
	if v.ptr == nil || v.ptr.buf.mbar == nil {
		th.fail(a.Pos(), "P0302", "%s is not an mbarrier", exprString(a))
	}
	return v.ptr.buf.mbar
}

// expectBytes is mbarrier.arrive.expect_tx.
func (th *thread) expectBytes(x *syntax.Call, st *state) {
	mb := th.mbarOf(x.Args[0], st)
	n := int(th.eval(x.Args[1], st).f)
	th.yield()
	if mb.pending == 0 {
		th.fail(x.Pos(), "P0307", "mbarrier %s: a second arrival in phase %d, whose count is %d (expect_bytes arrives)", mb.name, mb.phases, mb.count)
	}
	mb.tx += n
	mb.expected += n
	mb.expectAt = x.Pos()
	mb.pending--
	mb.maybeComplete()
}

// loadAsync issues a TMA 2-D tile load (cp.async.bulk.tensor.2d ...
// mbarrier::complete_tx::bytes): the copy and its complete_tx happen later,
// when the scheduler picks the operation.
func (th *thread) loadAsync(x *syntax.Call, st *state) {
	dst := th.ref(x.Args[0], st)
	tv := th.eval(x.Args[1], st)
	tm := tv.tmap
	if tm == nil {
		th.fail(x.Args[1].Pos(), "P0304", "load_async: %s holds no tensor map (pass a CUtensorMap parameter, built with --arg NAME=tma:...)", exprString(x.Args[1]))
	}
	mb := th.mbarOf(x.Args[2], st)
	cx := int(th.eval(x.Args[3], st).f)
	cy := int(th.eval(x.Args[4], st).f)
	if !dst.buf.shared {
		th.fail(x.Args[0].Pos(), "P0302", "load_async: the destination %s is not shared memory", dst.buf.Name)
	}
	es := elemSize(dst.buf.Elem)
	if ses := elemSize(tm.Buf.Elem); ses != es || es == 0 {
		th.fail(x.Pos(), "P0306", "load_async: tensor elements of %s (%d bytes) into %s elements of %s: the interpreter copies elements, not bytes", tm.Buf.Elem, ses, dst.buf.Elem, dst.buf.Name)
	}
	n := tm.BoxRows * tm.BoxCols
	if dst.off < 0 || dst.off+n > len(dst.buf.Data) {
		th.fail(x.Pos(), "P0302", "load_async: a %dx%d box at element %d overflows %s (length %d)", tm.BoxRows, tm.BoxCols, dst.off, dst.buf.Name, len(dst.buf.Data))
	}
	if dst.off*es%128 != 0 {
		th.fail(x.Pos(), "P0302", "load_async: destination byte offset %d in %s is not 128-byte aligned", dst.off*es, dst.buf.Name)
	}
	pos := x.Pos()
	bytes := n * es
	mb.inflight++
	th.yield()
	th.m.inflight = append(th.m.inflight, &asyncOp{run: func() *fault {
		for r := 0; r < tm.BoxRows; r++ {
			for c := 0; c < tm.BoxCols; c++ {
				v := 0.0
				if gy, gx := cy+r, cx+c; gy >= 0 && gy < tm.Rows && gx >= 0 && gx < tm.Cols {
					v = tm.Buf.Data[gy*tm.Cols+gx]
				}
				off := swizzle((r*tm.BoxCols+c)*es, tm.Swizzle) / es
				dst.buf.Data[dst.off+off] = v
			}
		}
		mb.inflight--
		mb.tx -= bytes
		mb.got += bytes
		if mb.pending == 0 && mb.tx < 0 {
			return &fault{pos: pos, code: "P0301", msg: fmt.Sprintf(
				"Bundl run is stuck: TMA loads delivered %d bytes to mbarrier %s in a phase whose expect_bytes (%s) announced %d; the transaction count underflows and the phase never completes",
				mb.got, mb.name, posString(mb.expectAt), mb.expected)}
		}
		mb.maybeComplete()
		return nil
	}})
}

func posString(p diag.Pos) string {
	if p.File == nil {
		return "nowhere"
	}
	return fmt.Sprintf("line %d:%d", p.Line(), p.Col())
}

// txWait blocks until the phase of mb with the given parity has completed
// (mbarrier.try_wait.parity).
func (th *thread) txWait(mb *txBar, parity int, where diag.Pos) {
	if mb.phases&1 != parity {
		return
	}
	th.waitFor = func() bool { return mb.phases&1 != parity }
	th.waitAt, th.waitBar = where, mb
	th.hand(evBlock)
	th.waitBar = nil
}

// waitBarVar waits for the next phase of mbarrier variable b, keeping the
// thread's phase bit as the generated code does (NAME_phase).
func (th *thread) waitBarVar(b *check.Var, where diag.Pos) {
	v := th.vars[b]
	if v == nil || v.ptr == nil || v.ptr.buf.mbar == nil {
		th.fail(where, "P0302", "%s is not an mbarrier here", b.Name)
	}
	th.txWait(v.ptr.buf.mbar, th.mph[b], where)
	th.mph[b] ^= 1
}

// wgOp is one warpgroup MMA in flight: wgmma.mma_async m64n256k16
// .f32.bf16.bf16 with K-major operands in 128-byte-swizzled shared memory
// (the descriptors package lower builds).
type wgOp struct {
	pos                    diag.Pos
	a, b                   *pointer
	set                    bool
	scaleD, scaleA, scaleB float64
	acc                    [128]*pointer // each thread's 128 f32 accumulators
	snapA, snapB           []float64
}

const wgM, wgN, wgK = 64, 256, 16

// operand reads the element (row, k) of a K-major operand: rows of 128
// bytes, 8-row groups 1024 bytes apart, 128-byte swizzle.
func operand(p *pointer, row, k int) (float64, bool) {
	off := swizzle(p.off*2+(row/8)*1024+(row%8)*128+k*2, 128) / 2
	if off < 0 || off >= len(p.buf.Data) {
		return 0, false
	}
	return p.buf.Data[off], true
}

func (op *wgOp) tiles() (A, B []float64, ok bool) {
	A, B = make([]float64, wgM*wgK), make([]float64, wgN*wgK)
	for r := 0; r < wgM; r++ {
		for k := 0; k < wgK; k++ {
			v, in := operand(op.a, r, k)
			if !in {
				return nil, nil, false
			}
			A[r*wgK+k] = bf16(v)
		}
	}
	for r := 0; r < wgN; r++ {
		for k := 0; k < wgK; k++ {
			v, in := operand(op.b, r, k)
			if !in {
				return nil, nil, false
			}
			B[r*wgK+k] = bf16(v)
		}
	}
	return A, B, true
}

// wgmma issues intrinsic.wmma256(a, b, scaleD, scaleA, scaleB, transA,
// transB, out=[d]): a warpgroup collective. The product is computed at the
// wait that ends the enclosing wmma_async scope; until then the thread's
// accumulator is in flight and touching it is an error (P0307).
func (th *thread) wgmma(x *syntax.Call, st *state) {
	if !th.aligned(st, 128) {
		th.fail(x.Pos(), "P0301", "Bundl run is stuck: wgmma at %s needs an aligned warpgroup", st.code)
	}
	if th.wgDepth == 0 {
		th.fail(x.Pos(), "P0307", "wgmma outside a wmma_async scope: nothing waits for its results")
	}
	tid := st.pos % 128
	a, b := th.ref(x.Args[0], st), th.ref(x.Args[1], st)
	flags := []float64{1, 1, 1, 0, 0}
	for i, e := range x.Args[2:] {
		if i < 5 {
			flags[i] = th.eval(e, st).f
		}
	}
	if flags[3] != 0 || flags[4] != 0 {
		th.fail(x.Pos(), "P0306", "wgmma with transposed (MN-major) operands is not modeled")
	}
	if (flags[1] != 1 && flags[1] != -1) || (flags[2] != 1 && flags[2] != -1) || (flags[0] != 0 && flags[0] != 1) {
		th.fail(x.Pos(), "P0307", "wgmma scales (%v, %v, %v): scale-d is 0 or 1, scale-a and scale-b are 1 or -1", flags[0], flags[1], flags[2])
	}
	for _, p := range []*pointer{a, b} {
		if !p.buf.shared || elemSize(p.buf.Elem) != 2 {
			th.fail(x.Pos(), "P0302", "wgmma operand %s must be bf16 shared memory", p.buf.Name)
		}
	}
	l, _ := x.Kwarg("out").(*syntax.ListExpr)
	if l == nil || len(l.Elts) != 1 {
		th.fail(x.Pos(), "P0302", "wgmma needs out=[ACC] with a float[16][8] accumulator")
	}
	th.skipAcc = true
	acc := th.ref(l.Elts[0], st)
	th.skipAcc = false
	if acc.buf.shared || len(acc.buf.Data)-acc.off < 128 {
		th.fail(l.Elts[0].Pos(), "P0302", "wgmma accumulator %s must be 128 thread-local floats", exprString(l.Elts[0]))
	}
	wg := th.unitKey(&state{code: check.Persp{Level: check.Thread, N: 128}, pos: tid})
	key := "wgmma:" + wg + ":" + itoa(x.Pos().Offset)
	m := th.m
	bar := m.bars[key]
	if bar == nil {
		bar = &barrier{size: 128, where: x.Pos(), what: "wgmma (warpgroup collective)", out: map[int][][]float64{}}
		m.bars[key] = bar
	}
	if bar.wg == nil {
		bar.wg = &wgOp{pos: x.Pos()}
	}
	op := bar.wg
	if !op.set {
		op.a, op.b, op.set = a, b, true
		op.scaleD, op.scaleA, op.scaleB = flags[0], flags[1], flags[2]
	} else if *op.a != *a || *op.b != *b || op.scaleD != flags[0] || op.scaleA != flags[1] || op.scaleB != flags[2] {
		th.fail(x.Pos(), "P0307", "wgmma operands differ across the warpgroup (thread %d: %s+%d, %s+%d)", tid, a.buf.Name, a.off, b.buf.Name, b.off)
	}
	op.acc[tid] = acc
	if bar.arrived+1 == bar.size {
		A, B, ok := op.tiles()
		if !ok {
			th.fail(x.Pos(), "P0302", "wgmma reads past the end of %s or %s", a.buf.Name, b.buf.Name)
		}
		op.snapA, op.snapB = A, B
		m.wgOps[wg] = append(m.wgOps[wg], op)
		bar.wg = nil
	}
	th.arrive(key, 128, x.Pos(), "wgmma (warpgroup collective)")
	th.busy = append(th.busy, busyAcc{buf: acc.buf, lo: acc.off, hi: acc.off + 128, at: x.Pos()})
}

// wgWait ends a wmma_async scope (wgmma.commit_group; wait_group 0): a
// warpgroup rendezvous whose last thread performs the warpgroup's pending
// wgmmas in issue order.
func (th *thread) wgWait(s *syntax.WithStmt, st *state) {
	if !th.aligned(st, 128) {
		th.fail(s.At, "P0301", "Bundl run is stuck: wmma_async at %s needs an aligned warpgroup", st.code)
	}
	tid := st.pos % 128
	wg := th.unitKey(&state{code: check.Persp{Level: check.Thread, N: 128}, pos: tid})
	key := "wgwait:" + wg + ":" + itoa(s.At.Offset)
	m := th.m
	bar := m.bars[key]
	if bar == nil {
		bar = &barrier{size: 128, where: s.At, what: "wgmma wait at the end of wmma_async", out: map[int][][]float64{}}
		m.bars[key] = bar
	}
	if bar.arrived+1 == bar.size {
		for _, op := range m.wgOps[wg] {
			th.wgCompute(op)
		}
		delete(m.wgOps, wg)
	}
	th.arrive(key, 128, s.At, "wgmma wait at the end of wmma_async")
	th.busy = th.busy[:0]
}

// wgCompute performs D = scaleD*D + (scaleA*A)(scaleB*B)^T for one m64n256k16
// wgmma. Precision: bf16 operands, exact products, the 16 products of the
// k-step summed exactly (float64) and added to the accumulator with one
// rounding to float32. Accumulator layout (PTX wgmma D fragment): thread t
// of the warpgroup, warp w = t/32, lane l; register 4i+j holds row
// 16w + l/4 (+8 for j >= 2), column 8i + 2(l%4) (+1 for odd j).
func (th *thread) wgCompute(op *wgOp) {
	A, B, ok := op.tiles()
	if !ok {
		th.fail(op.pos, "P0302", "wgmma reads past the end of %s or %s", op.a.buf.Name, op.b.buf.Name)
	}
	for i := range A {
		if A[i] != op.snapA[i] {
			th.fail(op.pos, "P0307", "shared operand %s of this wgmma changed while it was in flight", op.a.buf.Name)
		}
	}
	for i := range B {
		if B[i] != op.snapB[i] {
			th.fail(op.pos, "P0307", "shared operand %s of this wgmma changed while it was in flight", op.b.buf.Name)
		}
	}
	for t := 0; t < 128; t++ {
		acc := op.acc[t]
		w, l := t/32, t%32
		for r := 0; r < 128; r++ {
			i, j := r/4, r%4
			row := 16*w + l/4 + 8*(j/2)
			col := 8*i + 2*(l%4) + j%2
			s := 0.0
			for k := 0; k < wgK; k++ {
				s += op.scaleA * A[row*wgK+k] * op.scaleB * B[col*wgK+k]
			}
			d := 0.0
			if op.scaleD != 0 {
				d = acc.buf.Data[acc.off+r]
			}
			acc.buf.Data[acc.off+r] = float64(float32(d + s))
		}
	}
}

// busyAcc is a thread's accumulator range written by a wgmma in flight.
type busyAcc struct {
	buf    *Buffer
	lo, hi int
	at     diag.Pos
}

func (th *thread) checkBusy(pos diag.Pos, buf *Buffer, i int) {
	if th.skipAcc {
		return
	}
	for _, b := range th.busy {
		if b.buf == buf && i >= b.lo && i < b.hi {
			th.fail(pos, "P0307", "%s is the accumulator of a wgmma still in flight (issued at %s): its results are visible only after the wait that ends the wmma_async scope", buf.Name, posString(b.at))
		}
	}
}

// Compiled on first use, not at every process start (issue 13, stop 44).
var addrOf = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*([A-Za-z_]\w*)\s*=\s*&\s*([A-Za-z_]\w*)\s*;?\s*$`)
})

// unsafeStmt runs the unsafe CUDA the interpreter understands: #pragma
// lines (no effect) and `P = &T;` taking the address of a tensor map (B.5:
// unsafe("ta = &tensorMapA;")). Anything else is P0306.
func (th *thread) unsafeStmt(x *syntax.Call) {
	b, ok := x.Args[0].(*syntax.BasicLit)
	if !ok {
		th.fail(x.Pos(), "P0306", "unsafe CUDA code cannot run in the Bundl interpreter")
	}
	code := strings.TrimSpace(strings.Trim(b.Text, `"'`))
	if strings.HasPrefix(code, "#pragma") {
		return
	}
	if m := addrOf().FindStringSubmatch(code); m != nil {
		dst, src := th.lookup(m[1]), th.lookup(m[2])
		if dst != nil && src != nil && th.vars[src] != nil && th.vars[src].tmap != nil {
			th.vars[dst] = &value{tmap: th.vars[src].tmap}
			return
		}
	}
	th.fail(x.Pos(), "P0306", "unsafe CUDA code cannot run in the Bundl interpreter (it runs #pragma lines and `P = &TENSORMAP;`)")
}

// lookup finds the innermost variable of that name visible to the thread.
func (th *thread) lookup(name string) *check.Var {
	var best *check.Var
	for v := range th.vars {
		if v.Name == name && (best == nil || v.ID > best.ID) {
			best = v
		}
	}
	return best
}
