package interp

import (
	"fmt"
	"math"
	"math/bits"
	"sync/atomic"
	"time"
	"unsafe"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/audala/check"
)

type (
	exprFn func(w *worker) int64
	stmtFn func(w *worker)
)

// compiledStep is a step compiled twice: seq for one worker (plain
// accesses), par for several (atomic accesses where the step races).
type compiledStep struct {
	step     *check.Step
	seq, par []stmtFn
	// buffered are the columns whose nxt buffer the step writes (relaxed).
	buffered []*column
	// bseq, bpar are the batched bodies (batch.go), nil when the step
	// cannot run batched.
	bseq, bpar []bstmtFn
}

type cacheEntry struct {
	col *column
	idx int32
	val int32
}

// worker is the per-goroutine execution context: the executing label, its
// locals and, under the relaxed semantics, its cache of own writes ξ.
type worker struct {
	m       *Machine
	self    int32
	locals  []int64
	cache   []cacheEntry
	changed bool
	// unstable counts, per struct and parameter (the constructor last),
	// the writes of this step that changed a value (Options.PrintUnstable;
	// nil otherwise).
	unstable [][]int64
	err      *RuntimeError
	errLabel int64
	batch    *batch
	// busy is the time this worker ran instances in the last parallel
	// step (Stats.Busy).
	busy time.Duration
}

// cacheLinePad is larger than a cache line pair (adjacent-line
// prefetchers fetch 128 bytes), so padded data never shares a line with
// another worker's.
const cacheLinePad = 128

// paddedWorker keeps a worker's fields off the cache lines of any other
// allocation, in particular of the other workers.
type paddedWorker struct {
	_ [cacheLinePad]byte
	worker
	_ [cacheLinePad]byte
}

// padded returns a zeroed slice of length n whose backing array has room
// for cacheLinePad bytes on either side, so that per-worker arrays written
// in the hot loop (locals, the write cache, --printunstable counts) share
// no cache line with another worker's.
func padded[T any](n int) []T {
	var z T
	size := int(unsafe.Sizeof(z))
	if size == 0 {
		return make([]T, n)
	}
	pad := (cacheLinePad + size - 1) / size
	return make([]T, n+2*pad)[pad : pad+n : pad+n]
}

func (w *worker) reset(cs *compiledStep) {
	if cap(w.locals) < cs.step.NumLocals {
		w.locals = padded[int64](cs.step.NumLocals)
	}
	if w.cache == nil {
		w.cache = padded[cacheEntry](16)[:0]
	}
	w.locals = w.locals[:cs.step.NumLocals]
	w.changed = false
	w.err = nil
	for _, u := range w.unstable {
		clear(u)
	}
}

func (w *worker) runRange(body []stmtFn, lo, hi int64) {
	defer func() {
		// A bug in the interpreter must still end in a diagnostic, not a
		// stack trace (brief: never panic on any input).
		if r := recover(); r != nil && w.err == nil {
			w.fail(diag.Pos{}, "A0201", fmt.Sprintf("internal error in instance %d: %v", w.self, r))
		}
	}()
	for l := lo; l < hi && w.err == nil; l++ {
		w.self = int32(l)
		w.cache = w.cache[:0]
		for _, s := range body {
			s(w)
		}
	}
}

func (w *worker) fail(pos diag.Pos, code, msg string) {
	if w.err == nil {
		w.err = &RuntimeError{Pos: pos, Code: code, Msg: msg}
		w.errLabel = int64(w.self)
	}
}

// stepCtx is the compile-time context of one step.
type stepCtx struct {
	m       *Machine
	par     bool
	inPlace bool
	written map[*column]bool // columns the step writes (assignments or constructors)
	// racing columns are written and also accessed through a reference
	// (spec §5.9): only they can be touched by two instances in one step,
	// so only they need atomic accesses when workers run in parallel.
	racing   map[*column]bool
	buffered map[*column]bool
	// refWritten columns are assigned through a reference somewhere in the
	// step. Under the relaxed semantics nxt is never read during a step,
	// so only they can see two writers of one cell (the conflict that the
	// boundary resolves) and need atomic stores; an own-label write
	// (val := ...) has a single writer per cell, and the locked exchange
	// that atomic.StoreInt32 is on amd64 cost the parallel body time the
	// sequential one did not spend.
	refWritten map[*column]bool
	// atomicStores: racing cells are written with sync/atomic stores
	// (a locked exchange on amd64). The strict semantics needs them: its
	// runs must be interleavings of single accesses in one order. The
	// relaxed semantics does not: two workers' plain stores of one
	// aligned int32 cell are each a single write (Go memory model: a
	// racing word-sized read observes some write, none is torn), reads
	// may see any of them (spec §3, incoherent reads), and the last one
	// wins at the boundary (Write Parameter I-II). The race detector
	// would report those plain races, so race builds keep the atomics.
	// Colouring at 10^6 makes about 6.8 million such changing writes.
	atomicStores bool
}

// markRefWritten records in set the columns that list assigns through a
// reference (base.p := v), nested ifs included.
func (m *Machine) markRefWritten(list []check.Stmt, set map[*column]bool) {
	for _, s := range list {
		switch s := s.(type) {
		case *check.If:
			m.markRefWritten(s.Body, set)
		case *check.SetParam:
			if s.Base != nil {
				set[m.col(s.Param)] = true
			}
		}
	}
}

func (m *Machine) compileStep(st *check.Step) *compiledStep {
	cs := &compiledStep{step: st}
	written := map[*column]bool{}
	buffered := map[*column]bool{}
	for _, p := range st.Written {
		c := m.col(p)
		written[c] = true
		if c.nxt != nil && !buffered[c] {
			buffered[c] = true
			cs.buffered = append(cs.buffered, c)
		}
	}
	for s := range st.Creates {
		for _, c := range m.stores[s.Index].cols {
			written[c] = true
		}
	}
	racing := map[*column]bool{}
	for _, p := range st.ViaRef {
		if c := m.col(p); written[c] {
			racing[c] = true
		}
	}
	refWritten := map[*column]bool{}
	m.markRefWritten(st.Body, refWritten)
	for _, par := range []bool{false, true} {
		ctx := &stepCtx{m: m, par: par, inPlace: !m.lockstep(), written: written, buffered: buffered, racing: racing, refWritten: refWritten,
			atomicStores: m.opt.Semantics == Strict || raceEnabled}
		body := ctx.stmts(st.Body)
		var bbody []bstmtFn
		if m.batchable(st) {
			bbody = ctx.bstmts(st.Body)
		}
		if par {
			cs.par, cs.bpar = body, bbody
		} else {
			cs.seq, cs.bseq = body, bbody
		}
	}
	return cs
}

func (m *Machine) col(p *check.Param) *column { return m.stores[p.Owner.Index].cols[p.Index] }

func (c *stepCtx) stmts(list []check.Stmt) []stmtFn {
	out := make([]stmtFn, 0, len(list))
	for _, s := range list {
		if _, ok := s.(*check.InlineCpp); ok {
			continue // CUDA text: skipped, with a warning from the driver
		}
		out = append(out, c.stmt(s))
	}
	return out
}

func runAll(body []stmtFn, w *worker) {
	for _, s := range body {
		s(w)
	}
}

func (c *stepCtx) stmt(s check.Stmt) stmtFn {
	switch s := s.(type) {
	case *check.If:
		cond := c.leaf(s.Cond)
		body := c.stmts(s.Body)
		if len(body) == 1 {
			b := body[0]
			return func(w *worker) {
				if cond.get(w) != 0 {
					b(w)
				}
			}
		}
		return func(w *worker) {
			if cond.get(w) != 0 {
				runAll(body, w)
			}
		}
	case *check.SetLocal:
		v := c.leaf(s.Value)
		slot := s.Slot
		return func(w *worker) { w.locals[slot] = v.get(w) }
	case *check.SetParam:
		return c.setParam(s)
	}
	panic("interp: unknown statement")
}

// setParam compiles `base.p := v`. Order as in Definition 4: the value is
// evaluated before the path. Writes to a null instance are dropped (Write
// Parameter Null-Skip); a write clears stability when the value differs
// from the old value the instance reads (Write Parameter II).
func (c *stepCtx) setParam(s *check.SetParam) stmtFn {
	v := c.leaf(s.Value)
	col := c.m.col(s.Param)
	si, pi := s.Param.Owner.Index, s.Param.Index
	var base exprFn
	if s.Base != nil {
		base = c.expr(s.Base)
	}
	target := func(w *worker) int32 {
		if base == nil {
			return w.self
		}
		return int32(base(w))
	}
	atomicWrite := c.par && c.racing[col] && c.atomicStores
	switch {
	case c.inPlace && !atomicWrite:
		return func(w *worker) {
			val := int32(v.get(w))
			i := target(w)
			if i != 0 && col.cur[i] != val {
				col.cur[i] = val
				w.changed = true
				if w.unstable != nil {
					w.unstable[si][pi]++
				}
			}
		}
	case c.inPlace:
		return func(w *worker) {
			val := int32(v.get(w))
			i := target(w)
			if i != 0 && atomic.LoadInt32(&col.cur[i]) != val {
				atomic.StoreInt32(&col.cur[i], val)
				w.changed = true
				if w.unstable != nil {
					w.unstable[si][pi]++
				}
			}
		}
	}
	par := c.par && c.refWritten[col] && c.atomicStores
	return func(w *worker) {
		val := int32(v.get(w))
		i := target(w)
		if i == 0 {
			return
		}
		// Old value: own cache (Read Internal) or ι (Read Initial).
		k := -1
		old := col.cur[i]
		for j := len(w.cache) - 1; j >= 0; j-- {
			if e := &w.cache[j]; e.col == col && e.idx == i {
				old, k = e.val, j
				break
			}
		}
		if old == val {
			return
		}
		if par {
			atomic.StoreInt32(&col.nxt[i], val)
		} else {
			col.nxt[i] = val
		}
		if k >= 0 {
			w.cache[k].val = val
		} else {
			w.cache = append(w.cache, cacheEntry{col, i, val})
		}
		w.changed = true
		if w.unstable != nil {
			w.unstable[si][pi]++
		}
	}
}

// leaf is an operand its consumer (an operator, an assignment, a condition)
// evaluates inline instead of through a closure call: a constant or a
// plain load of the executing instance's own parameter. Profiles of
// prefix sum and SCC colouring showed the closure calls of these leaves as
// most of the interpreter's time; a switch on kind predicts perfectly at
// each site.
type leaf struct {
	fn  exprFn  // an expression: call it
	col *column // else an own load: col.cur[self], masked with k
	k   int64   // else a constant
}

// get is small enough to be inlined into its consumers. An own load is
// sign-extended and masked: with k = -1 an Int, with k = 2^32-1 an
// unsigned value (Nat, Bool, a reference).
func (l *leaf) get(w *worker) int64 {
	if l.col != nil {
		return int64(l.col.cur[w.self]) & l.k
	}
	if l.fn == nil {
		return l.k
	}
	return l.fn(w)
}

// leaf compiles e as an operand (see leaf).
func (c *stepCtx) leaf(e check.Expr) *leaf {
	switch e := e.(type) {
	case *check.Const:
		return &leaf{k: e.Value}
	case *check.ReadParam:
		if col := c.m.col(e.Param); e.Base == nil && c.plain(col) {
			if e.Param.Type.Kind == check.Int {
				return &leaf{col: col, k: -1}
			}
			return &leaf{col: col, k: math.MaxUint32}
		}
	}
	return &leaf{fn: c.expr(e)}
}

func (c *stepCtx) expr(e check.Expr) exprFn {
	switch e := e.(type) {
	case *check.Const:
		v := e.Value
		return func(*worker) int64 { return v }
	case *check.This:
		return func(w *worker) int64 { return int64(w.self) }
	case *check.Local:
		slot := e.Slot
		return func(w *worker) int64 { return w.locals[slot] }
	case *check.Not:
		x := c.expr(e.X)
		return func(w *worker) int64 { return 1 - x(w) }
	case *check.ReadParam:
		return c.readParam(e)
	case *check.ToInt:
		x := c.expr(e.X)
		pos := e.Pos
		return func(w *worker) int64 {
			v := x(w)
			if v > math.MaxInt32 {
				w.fail(pos, "A0201", fmt.Sprintf("integer overflow: Nat value %d does not fit Int", v))
				return 0
			}
			return v
		}
	case *check.Construct:
		return c.construct(e)
	case *check.Binary:
		return c.binary(e)
	}
	panic("interp: unknown expression")
}

// plain reports whether reads of col in this step can be plain loads of
// cur: nobody writes it, or strict semantics without a concurrent writer.
func (c *stepCtx) plain(col *column) bool {
	return !c.written[col] || (c.inPlace && !(c.par && c.racing[col]))
}

// plainOwn returns the column of e when e reads a reference parameter of
// the executing instance with a plain load, else nil.
func (c *stepCtx) plainOwn(e check.Expr) *column {
	r, ok := e.(*check.ReadParam)
	if !ok || r.Base != nil || r.Param.Type.Kind != check.Ref {
		return nil
	}
	if col := c.m.col(r.Param); c.plain(col) {
		return col
	}
	return nil
}

func (c *stepCtx) readParam(e *check.ReadParam) exprFn {
	col := c.m.col(e.Param)
	signed := e.Param.Type.Kind == check.Int
	var base exprFn
	if e.Base != nil {
		base = c.expr(e.Base)
	}
	dec := func(v int32) int64 {
		if signed {
			return int64(v)
		}
		return int64(uint32(v))
	}
	switch {
	case c.plain(col):
		// Nobody writes this column during the step: plain loads.
		if bcol := c.plainOwn(e.Base); bcol != nil {
			// One hop through an own reference (s.fwd): one closure.
			if signed {
				return func(w *worker) int64 { return int64(col.cur[uint32(bcol.cur[w.self])]) }
			}
			return func(w *worker) int64 { return int64(uint32(col.cur[uint32(bcol.cur[w.self])])) }
		}
		if base == nil {
			if signed {
				return func(w *worker) int64 { return int64(col.cur[w.self]) }
			}
			return func(w *worker) int64 { return int64(uint32(col.cur[w.self])) }
		}
		if signed {
			return func(w *worker) int64 { return int64(col.cur[base(w)]) }
		}
		return func(w *worker) int64 { return int64(uint32(col.cur[base(w)])) }
	case c.inPlace:
		if bcol := c.plainOwn(e.Base); bcol != nil {
			// One hop through an own reference, fused as in the plain
			// case: without it the parallel body paid a closure call per
			// hop that the sequential one does not (SCC colouring's
			// s.fwd, t.fwd).
			if signed {
				return func(w *worker) int64 { return int64(atomic.LoadInt32(&col.cur[uint32(bcol.cur[w.self])])) }
			}
			return func(w *worker) int64 { return int64(uint32(atomic.LoadInt32(&col.cur[uint32(bcol.cur[w.self])]))) }
		}
		return func(w *worker) int64 {
			i := int64(w.self)
			if base != nil {
				i = base(w)
			}
			return dec(atomic.LoadInt32(&col.cur[i]))
		}
	case !c.buffered[col]:
		// Written only by constructors: a new instance's cells are set
		// before its label is known to anyone but its creator.
		return func(w *worker) int64 {
			i := int64(w.self)
			if base != nil {
				i = base(w)
			}
			return dec(col.cur[i])
		}
	}
	// Relaxed: own cached write (Read Internal), else ι (Read Initial).
	return func(w *worker) int64 {
		i := w.self
		if base != nil {
			i = int32(base(w))
		}
		for j := len(w.cache) - 1; j >= 0; j-- {
			if e := &w.cache[j]; e.col == col && e.idx == i {
				return dec(e.val)
			}
		}
		return dec(col.cur[i])
	}
}

// construct compiles S(args): a fresh label from the struct's atomic
// counter, parameters set to the arguments, stability cleared (Command
// Constructor). The instance joins from the next step.
func (c *stepCtx) construct(e *check.Construct) exprFn {
	st := c.m.stores[e.Struct.Index]
	args := make([]exprFn, len(e.Args))
	for i, a := range e.Args {
		args[i] = c.expr(a)
	}
	maxInst := c.m.maxInst
	pos := e.Pos
	si, ci := e.Struct.Index, len(e.Struct.Params)
	par := c.par
	return func(w *worker) int64 {
		var buf [16]int32
		vs := buf[:0]
		for _, a := range args {
			vs = append(vs, int32(a(w)))
		}
		var l int64
		if par {
			l = atomic.AddInt64(&st.n, 1) - 1
		} else {
			l = st.n
			st.n++
		}
		if l > maxInst || len(st.cols) > 0 && l >= int64(len(st.cols[0].cur)) {
			w.fail(pos, "A0204", fmt.Sprintf("too many %s instances (limit %d)", e.Struct.Name, maxInst))
			return 0
		}
		for i, col := range st.cols {
			col.cur[l] = vs[i]
			if col.nxt != nil {
				col.nxt[l] = vs[i]
			}
		}
		w.changed = true
		if w.unstable != nil {
			w.unstable[si][ci]++
		}
		return l
	}
}

func (c *stepCtx) binary(e *check.Binary) exprFn {
	x, y := c.leaf(e.X), c.leaf(e.Y)
	switch e.Op {
	case check.OpAnd: // short-circuit (Definition 4)
		return func(w *worker) int64 {
			if x.get(w) == 0 {
				return 0
			}
			return y.get(w)
		}
	case check.OpOr:
		return func(w *worker) int64 {
			if x.get(w) != 0 {
				return 1
			}
			return y.get(w)
		}
	case check.OpEq:
		return func(w *worker) int64 { return b2i(x.get(w) == y.get(w)) }
	case check.OpNe:
		return func(w *worker) int64 { return b2i(x.get(w) != y.get(w)) }
	case check.OpLt:
		return func(w *worker) int64 { return b2i(x.get(w) < y.get(w)) }
	case check.OpLe:
		return func(w *worker) int64 { return b2i(x.get(w) <= y.get(w)) }
	case check.OpGt:
		return func(w *worker) int64 { return b2i(x.get(w) > y.get(w)) }
	case check.OpGe:
		return func(w *worker) int64 { return b2i(x.get(w) >= y.get(w)) }
	}
	lo, hi := int64(0), int64(math.MaxUint32)
	if e.T.Kind == check.Int {
		lo, hi = math.MinInt32, math.MaxInt32
	}
	pos, op, t := e.Pos, e.Op, e.T
	fail := func(w *worker, a, b int64) int64 {
		code, msg := arithError(op, a, b, t)
		w.fail(pos, code, msg)
		return 0
	}
	switch op {
	case check.OpAdd, check.OpSub:
		sub := op == check.OpSub
		return func(w *worker) int64 {
			a, b := x.get(w), y.get(w)
			r := a + b
			if sub {
				r = a - b
			}
			if r < lo || r > hi {
				return fail(w, a, b)
			}
			return r
		}
	case check.OpMul:
		return func(w *worker) int64 {
			a, b := x.get(w), y.get(w)
			r := a * b
			if r < lo || r > hi || a > math.MaxInt32 && b > math.MaxInt32 {
				// Two large Nats can overflow int64 itself.
				return fail(w, a, b)
			}
			return r
		}
	case check.OpDiv, check.OpMod:
		div := op == check.OpDiv
		return func(w *worker) int64 {
			a, b := x.get(w), y.get(w)
			if b == 0 {
				return fail(w, a, b)
			}
			r := a % b
			if div {
				r = a / b // truncates toward zero, as in C
			}
			if r < lo || r > hi {
				return fail(w, a, b)
			}
			return r
		}
	}
	panic("interp: unknown operator")
}

// arithError is the run-time error of a op b when its result does not fit
// type t (A0201) or b is a zero divisor (A0202); both the batched and the
// per-instance evaluation report it.
func arithError(op check.Op, a, b int64, t check.Type) (code, msg string) {
	var r int64
	switch op {
	case check.OpAdd:
		r = a + b
	case check.OpSub:
		r = a - b
	case check.OpMul:
		if h, l := bits.Mul64(uint64(a), uint64(b)); a > math.MaxInt32 && b > math.MaxInt32 && (h != 0 || l > math.MaxUint32) {
			return "A0201", fmt.Sprintf("integer overflow: %d * %d does not fit %s", a, b, t)
		}
		r = a * b
	case check.OpDiv, check.OpMod:
		if b == 0 {
			return "A0202", fmt.Sprintf("division by zero in %d %s 0", a, op)
		}
		r = a % b
		if op == check.OpDiv {
			r = a / b
		}
	}
	return "A0201", fmt.Sprintf("integer overflow: %d %s %d = %d does not fit %s", a, op, b, r, t)
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
