package interp

import (
	"fmt"
	"math"
	"sync/atomic"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/audala/check"
)

// Batched execution (issue 17). Profiles of prefix sum and SCC colouring at
// 10^6 showed the per-instance interpreter spending its time in closure
// calls: a dozen per instance and step, each doing one load or one add.
// Here a step runs statement by statement over a batch of up to batchSize
// labels: each compiled node is called once per batch and loops over the
// labels, so the call overhead is spread over the batch and the loops are
// plain array code.
//
// Running statement by statement is another legal execution, of both
// semantics: each instance still performs its accesses in program order,
// only the interleaving of different instances' accesses changes, and any
// interleaving of single accesses is allowed (the strict semantics as this
// interpreter reads it, package doc; relaxed spec §3.7). Only in-place
// steps without constructors run batched (constructors hand out labels in
// instance order, and lockstep reads need the write cache); the others,
// and the reverse and random orders, run instance by instance.

const batchSize = 256

type (
	bexprFn func(b *batch, sel []int32, out []int64)
	bstmtFn func(b *batch, sel []int32)
)

// batch is a worker's batch state: the labels' locals (indexed by label -
// lo) and stacks of scratch vectors.
type batch struct {
	w      *worker
	lo     int32
	locals [][]int64
	vecs   [][]int64
	nv     int
	sels   [][]int32
	ns     int
}

func (b *batch) vec() []int64 {
	if b.nv == len(b.vecs) {
		b.vecs = append(b.vecs, make([]int64, batchSize))
	}
	b.nv++
	return b.vecs[b.nv-1]
}

func (b *batch) sel() []int32 {
	if b.ns == len(b.sels) {
		b.sels = append(b.sels, make([]int32, batchSize))
	}
	b.ns++
	return b.sels[b.ns-1]
}

// fail records a run-time error of instance l (the lowest failing label of
// the first failing statement; package doc).
func (b *batch) fail(l int32, pos diag.Pos, code, msg string) {
	b.w.self = l
	b.w.fail(pos, code, msg)
}

// dense reports whether sel is a run of consecutive labels (sel is
// ascending, so its ends tell): then per-label loops become slice loops.
func dense(sel []int32) bool {
	return len(sel) > 0 && int(sel[len(sel)-1]-sel[0]) == len(sel)-1
}

// runBatch runs the batched body over labels [lo, hi).
func (w *worker) runBatch(body []bstmtFn, numLocals int, lo, hi int64) {
	defer func() {
		if r := recover(); r != nil && w.err == nil {
			w.fail(diag.Pos{}, "A0201", fmt.Sprintf("internal error in instances %d..%d: %v", lo, hi-1, r))
		}
	}()
	b := w.batch
	if b == nil {
		b = &batch{w: w}
		w.batch = b
	}
	for len(b.locals) < numLocals {
		b.locals = append(b.locals, make([]int64, batchSize))
	}
	all := b.sel()
	defer func() { b.ns-- }()
	for start := lo; start < hi && w.err == nil; start += batchSize {
		end := min(start+batchSize, hi)
		sel := all[:end-start]
		for i := range sel {
			sel[i] = int32(start) + int32(i)
		}
		b.lo = int32(start)
		for _, s := range body {
			s(b, sel)
			if w.err != nil {
				return
			}
		}
	}
}

// batchable reports whether st can run batched (see above).
func (m *Machine) batchable(st *check.Step) bool {
	return !m.lockstep() && len(st.Creates) == 0
}

func (c *stepCtx) bstmts(list []check.Stmt) []bstmtFn {
	out := make([]bstmtFn, 0, len(list))
	for _, s := range list {
		switch s := s.(type) {
		case *check.InlineCpp:
			continue
		case *check.If:
			out = append(out, c.bif(s))
		case *check.SetLocal:
			v, slot := c.bexpr(s.Value), s.Slot
			out = append(out, func(b *batch, sel []int32) {
				vals := b.vec()
				defer func() { b.nv-- }()
				v(b, sel, vals)
				loc, lo := b.locals[slot], b.lo
				for k, l := range sel {
					loc[l-lo] = vals[k]
				}
			})
		case *check.SetParam:
			out = append(out, c.bset(s))
		}
	}
	return out
}

func (c *stepCtx) bif(s *check.If) bstmtFn {
	cond, body := c.bexpr(s.Cond), c.bstmts(s.Body)
	return func(b *batch, sel []int32) {
		vals := b.vec()
		v := vals[:len(sel)]
		cond(b, sel, v)
		if b.w.err != nil {
			b.nv--
			return
		}
		sub := b.sel()
		n := 0
		for k, l := range sel {
			if v[k] != 0 {
				sub[n] = l
				n++
			}
		}
		b.nv--
		if n > 0 {
			for _, st := range body {
				st(b, sub[:n])
				if b.w.err != nil {
					break
				}
			}
		}
		b.ns--
	}
}

// bset compiles `base.p := v` (Definition 4: value before path; writes to
// null dropped; a write that changes the cell clears stability).
func (c *stepCtx) bset(s *check.SetParam) bstmtFn {
	v := c.bexpr(s.Value)
	col := c.m.col(s.Param)
	si, pi := s.Param.Owner.Index, s.Param.Index
	var base bexprFn
	if s.Base != nil {
		base = c.bexpr(s.Base)
	}
	atomicWrite := c.par && c.racing[col] && c.atomicStores
	if base == nil && !atomicWrite {
		// Own writes: one writer per cell.
		return func(b *batch, sel []int32) {
			vals := b.vec()
			defer func() { b.nv-- }()
			v(b, sel, vals)
			w := b.w
			if w.err != nil {
				return
			}
			cur := col.cur
			changes := 0
			if dense(sel) && sel[0] > 0 {
				dst := cur[sel[0] : int(sel[0])+len(sel)]
				vals = vals[:len(dst)]
				for k, old := range dst {
					if val := int32(vals[k]); old != val {
						dst[k] = val
						changes++
					}
				}
			} else {
				for k, l := range sel {
					if val := int32(vals[k]); l != 0 && cur[l] != val {
						cur[l] = val
						changes++
					}
				}
			}
			if changes > 0 {
				w.changed = true
				if w.unstable != nil {
					w.unstable[si][pi] += int64(changes)
				}
			}
		}
	}
	return func(b *batch, sel []int32) {
		vals := b.vec()
		defer func() { b.nv-- }()
		v(b, sel, vals)
		var tgt []int64
		if base != nil {
			tgt = b.vec()
			defer func() { b.nv-- }()
			base(b, sel, tgt)
		}
		w := b.w
		if w.err != nil {
			return
		}
		cur := col.cur
		changes := 0
		for k, l := range sel {
			i := l
			if tgt != nil {
				i = int32(tgt[k])
			}
			val := int32(vals[k])
			if i == 0 {
				continue
			}
			if atomicWrite {
				if atomic.LoadInt32(&cur[i]) != val {
					atomic.StoreInt32(&cur[i], val)
					changes++
				}
			} else if cur[i] != val {
				cur[i] = val
				changes++
			}
		}
		if changes > 0 {
			w.changed = true
			if w.unstable != nil {
				w.unstable[si][pi] += int64(changes)
			}
		}
	}
}

func (c *stepCtx) bexpr(e check.Expr) bexprFn {
	switch e := e.(type) {
	case *check.Const:
		v := e.Value
		return func(b *batch, sel []int32, out []int64) {
			for k := range sel {
				out[k] = v
			}
		}
	case *check.This:
		return func(b *batch, sel []int32, out []int64) {
			for k, l := range sel {
				out[k] = int64(l)
			}
		}
	case *check.Local:
		slot := e.Slot
		return func(b *batch, sel []int32, out []int64) {
			loc, lo := b.locals[slot], b.lo
			for k, l := range sel {
				out[k] = loc[l-lo]
			}
		}
	case *check.Not:
		x := c.bexpr(e.X)
		return func(b *batch, sel []int32, out []int64) {
			x(b, sel, out)
			for k := range sel {
				out[k] = 1 - out[k]
			}
		}
	case *check.ReadParam:
		return c.bread(e)
	case *check.ToInt:
		x, pos := c.bexpr(e.X), e.Pos
		return func(b *batch, sel []int32, out []int64) {
			x(b, sel, out)
			for k, l := range sel {
				if out[k] > math.MaxInt32 {
					b.fail(l, pos, "A0201", fmt.Sprintf("integer overflow: Nat value %d does not fit Int", out[k]))
					return
				}
			}
		}
	case *check.Binary:
		return c.bbinary(e)
	}
	panic("interp: expression not batchable")
}

// bread compiles a parameter read: own or through a reference; plain loads
// unless the column races (a concurrent writer in a parallel step).
func (c *stepCtx) bread(e *check.ReadParam) bexprFn {
	col := c.m.col(e.Param)
	mask := int64(math.MaxUint32)
	if e.Param.Type.Kind == check.Int {
		mask = -1 // keep the sign extension
	}
	atomicRead := !c.plain(col)
	if e.Base == nil {
		if !atomicRead {
			return func(b *batch, sel []int32, out []int64) {
				cur := col.cur
				if dense(sel) {
					src := cur[sel[0] : int(sel[0])+len(sel)]
					out = out[:len(src)]
					for k, v := range src {
						out[k] = int64(v) & mask
					}
					return
				}
				for k, l := range sel {
					out[k] = int64(cur[l]) & mask
				}
			}
		}
		if atomicRead {
			return func(b *batch, sel []int32, out []int64) {
				cur := col.cur
				for k, l := range sel {
					out[k] = int64(atomic.LoadInt32(&cur[l])) & mask
				}
			}
		}
		return func(b *batch, sel []int32, out []int64) {
			cur := col.cur
			for k, l := range sel {
				out[k] = int64(cur[l]) & mask
			}
		}
	}
	base := c.bexpr(e.Base)
	if atomicRead {
		return func(b *batch, sel []int32, out []int64) {
			base(b, sel, out)
			cur := col.cur
			for k := range sel {
				out[k] = int64(atomic.LoadInt32(&cur[uint32(out[k])])) & mask
			}
		}
	}
	return func(b *batch, sel []int32, out []int64) {
		base(b, sel, out)
		cur := col.cur
		for k := range sel {
			out[k] = int64(cur[uint32(out[k])]) & mask
		}
	}
}

func (c *stepCtx) bbinary(e *check.Binary) bexprFn {
	x, y := c.bexpr(e.X), c.bexpr(e.Y)
	switch e.Op {
	case check.OpAnd, check.OpOr: // short-circuit (Definition 4)
		and := e.Op == check.OpAnd
		return func(b *batch, sel []int32, out []int64) {
			x(b, sel, out)
			if b.w.err != nil {
				return
			}
			// y runs only for the labels whose result x does not decide.
			sub, pos := b.sel(), b.sel()
			n := 0
			for k, l := range sel {
				if (out[k] != 0) == and {
					sub[n], pos[n] = l, int32(k)
					n++
				}
			}
			if n > 0 {
				tmp := b.vec()
				y(b, sub[:n], tmp)
				for j := 0; j < n; j++ {
					out[pos[j]] = tmp[j]
				}
				b.nv--
			}
			b.ns -= 2
		}
	}
	// The other operators: x into out, y into a scratch vector, then one
	// loop per operator over the batch (the switch is per batch, not per
	// label). An arithmetic result must fit the operand type (A0201);
	// the first failing label of the batch is reported.
	lo, hi := int64(0), int64(math.MaxUint32)
	if e.T.Kind == check.Int {
		lo, hi = math.MinInt32, math.MaxInt32
	}
	pos, op, t := e.Pos, e.Op, e.T
	return func(b *batch, sel []int32, out []int64) {
		tmp := b.vec()
		defer func() { b.nv-- }()
		x(b, sel, out)
		y(b, sel, tmp)
		if b.w.err != nil {
			return
		}
		out, tmp = out[:len(sel)], tmp[:len(sel)]
		bad := -1
		switch op {
		case check.OpEq:
			for k, c := range tmp {
				out[k] = b2i(out[k] == c)
			}
		case check.OpNe:
			for k, c := range tmp {
				out[k] = b2i(out[k] != c)
			}
		case check.OpLt:
			for k, c := range tmp {
				out[k] = b2i(out[k] < c)
			}
		case check.OpLe:
			for k, c := range tmp {
				out[k] = b2i(out[k] <= c)
			}
		case check.OpGt:
			for k, c := range tmp {
				out[k] = b2i(out[k] > c)
			}
		case check.OpGe:
			for k, c := range tmp {
				out[k] = b2i(out[k] >= c)
			}
		case check.OpAdd:
			for k, c := range tmp {
				r := out[k] + c
				if r < lo || r > hi {
					bad = k
					break
				}
				out[k] = r
			}
		case check.OpSub:
			for k, c := range tmp {
				r := out[k] - c
				if r < lo || r > hi {
					bad = k
					break
				}
				out[k] = r
			}
		case check.OpMul:
			for k, c := range tmp {
				a := out[k]
				r := a * c
				if r < lo || r > hi || a > math.MaxInt32 && c > math.MaxInt32 {
					// Two large Nats can overflow int64 itself.
					bad = k
					break
				}
				out[k] = r
			}
		case check.OpDiv, check.OpMod:
			div := op == check.OpDiv
			for k, c := range tmp {
				if c == 0 {
					bad = k
					break
				}
				r := out[k] % c
				if div {
					r = out[k] / c // truncates toward zero, as in C
				}
				if r < lo || r > hi {
					bad = k
					break
				}
				out[k] = r
			}
		}
		if bad >= 0 {
			code, msg := arithError(op, out[bad], tmp[bad], t)
			b.fail(sel[bad], pos, code, msg)
		}
	}
}
