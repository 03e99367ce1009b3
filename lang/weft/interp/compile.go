package interp

import (
	"fmt"
	"math"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/syntax"
)

type symKind uint8

const (
	symInt     symKind = iota // size, index, loop iterator
	symBool                   // bool
	symBuf                    // tensor, window or scalar data
	symConst                  // a module-level integer constant
	symBarrier                // barrier: ignored
)

type sym struct {
	kind symKind
	slot int
	elem Elem
	rank int
	val  int64
}

// compiler compiles one proc body.
type compiler struct {
	prog   *Program
	proc   *Proc
	scopes []map[string]*sym
}

func (c *compiler) errorf(pos diag.Pos, code, format string, args ...any) {
	c.prog.compErrs.Errorf(pos, code, format, args...)
	c.proc.failed = true
}

func (c *compiler) push() { c.scopes = append(c.scopes, map[string]*sym{}) }
func (c *compiler) pop()  { c.scopes = c.scopes[:len(c.scopes)-1] }

func (c *compiler) declare(name string, s *sym) { c.scopes[len(c.scopes)-1][name] = s }

func (c *compiler) lookup(name string) *sym {
	for i := len(c.scopes) - 1; i >= 0; i-- {
		if s, ok := c.scopes[i][name]; ok {
			return s
		}
	}
	if v, ok := c.prog.constant(name, 0); ok {
		return &sym{kind: symConst, val: v}
	}
	return nil
}

func (c *compiler) newInt() int  { c.proc.nInts++; return c.proc.nInts - 1 }
func (c *compiler) newBuf() int  { c.proc.nBufs++; return c.proc.nBufs - 1 }
func (c *compiler) intSym() *sym { return &sym{kind: symInt, slot: c.newInt()} }

// paramKind classifies a parameter type.
func paramKind(t *syntax.Type) (Kind, Elem) {
	name := t.Elem.Name
	switch name {
	case "size":
		return KindSize, Invalid
	case "index", "stride":
		return KindIndex, Invalid
	case "bool":
		return KindBool, Invalid
	case "barrier":
		return KindBarrier, Invalid
	}
	e := ParseElem(name)
	if e == Invalid {
		return KindBarrier, Invalid // reported by the caller
	}
	switch {
	case t.Window:
		return KindWindow, e
	case len(t.Dims) > 0:
		return KindTensor, e
	}
	return KindScalar, e
}

// compileBody compiles pr's parameters and body.
func compileBody(p *Program, pr *Proc) {
	c := &compiler{prog: p, proc: pr}
	c.push()
	for _, prm := range pr.Decl.Params {
		k, e := paramKind(prm.Type)
		if k == KindBarrier && prm.Type.Elem.Name != "barrier" {
			c.errorf(prm.Type.Elem.Pos(), CodeUnsupported, "unknown parameter type %s", prm.Type.Elem.Name)
		}
		q := &Param{Name: prm.Name.Name, Kind: k, Elem: e, Pos: prm.Pos()}
		if k == KindTensor || k == KindWindow {
			q.Dims = prm.Type.Dims
		}
		var s *sym
		switch k {
		case KindSize, KindIndex:
			s = c.intSym()
		case KindBool:
			s = &sym{kind: symBool, slot: c.newInt()}
		case KindBarrier:
			s = &sym{kind: symBarrier}
		default:
			s = &sym{kind: symBuf, slot: c.newBuf(), elem: e, rank: len(q.Dims)}
		}
		q.slot = s.slot
		c.declare(q.Name, s)
		pr.Params = append(pr.Params, q)
	}
	// Dimensions are evaluated after every control parameter is bound, so a
	// dimension may use any of them.
	for _, q := range pr.Params {
		for _, d := range q.Dims {
			q.dims = append(q.dims, c.ctrl(d))
		}
	}
	body := c.block(pr.Decl.Body)
	params := pr.Params
	pr.entry = func(fr *frame) {
		for _, q := range params {
			switch q.Kind {
			case KindSize:
				if n := fr.ints[q.slot]; n <= 0 {
					fail(fr, q.Pos, CodeArgValue, "size %s must be positive, got %d", q.Name, n)
				}
			case KindTensor, KindWindow:
				v := fr.bufs[q.slot]
				if len(v.shape) != len(q.dims) {
					fail(fr, q.Pos, CodeArgShape, "argument %s has %d dimensions, parameter %s has %d", v.name, len(v.shape), q.Name, len(q.dims))
				}
				for i, d := range q.dims {
					if n := d.eval(fr); int64(v.shape[i]) != n {
						fail(fr, q.Pos, CodeArgShape, "argument %s has shape %v, parameter %s wants %s = %v", v.name, v.shape, q.Name, dimsText(q.Dims), evalDims(fr, q.dims))
					}
				}
			}
		}
		body(fr)
	}
	if pr.failed {
		pr.entry = nil
	}
}

func dimsText(ds []syntax.Expr) string {
	s := "["
	for i, d := range ds {
		if i > 0 {
			s += ", "
		}
		s += syntax.ExprString(d)
	}
	return s + "]"
}

func evalDims(fr *frame, ds []cexpr) []int64 {
	var out []int64
	for _, d := range ds {
		out = append(out, d.eval(fr))
	}
	return out
}

// block compiles a statement list into one function.
func (c *compiler) block(stmts []syntax.Stmt) func(*frame) {
	c.push()
	defer c.pop()
	var fns []func(*frame)
	for _, s := range stmts {
		if f := c.stmt(s); f != nil {
			fns = append(fns, f)
		}
	}
	switch len(fns) {
	case 0:
		return func(*frame) {}
	case 1:
		return fns[0]
	case 2:
		a, b := fns[0], fns[1]
		return func(fr *frame) { a(fr); b(fr) }
	}
	return func(fr *frame) {
		for _, f := range fns {
			f(fr)
		}
	}
}

// stmt compiles one statement; nil means it has no sequential effect.
func (c *compiler) stmt(s syntax.Stmt) func(*frame) {
	switch s := s.(type) {
	case *syntax.Pass, *syntax.Fence, *syntax.Arrive, *syntax.Await, *syntax.Free:
		// Synchronization is an annotation (seed 000 §2.1); free only ends a
		// lifetime.
		return nil
	case *syntax.Alloc:
		return c.alloc(s)
	case *syntax.Assign:
		return c.assign(s)
	case *syntax.For:
		return c.forStmt(s)
	case *syntax.If:
		cond := c.cond(s.Cond)
		then := c.block(s.Then)
		if len(s.Else) == 0 {
			return func(fr *frame) {
				if cond(fr) {
					then(fr)
				}
			}
		}
		els := c.block(s.Else)
		return func(fr *frame) {
			if cond(fr) {
				then(fr)
			} else {
				els(fr)
			}
		}
	case *syntax.With:
		// CudaDeviceFunction, CudaWarps and CudaAsync only say who runs the
		// body and how; sequentially the body runs once.
		return c.block(s.Body)
	case *syntax.Assert:
		cond := c.cond(s.Cond)
		text := syntax.ExprString(s.Cond)
		pos := s.Pos()
		return func(fr *frame) {
			if !cond(fr) {
				fail(fr, pos, CodeAssert, "assert failed: %s", text)
			}
		}
	case *syntax.CallStmt:
		return c.call(s)
	}
	c.errorf(s.Pos(), CodeUnsupported, "statement %T has no sequential meaning", s)
	return nil
}

func (c *compiler) alloc(s *syntax.Alloc) func(*frame) {
	name := s.Name.Name
	if s.Type.Elem.Name == "barrier" {
		c.declare(name, &sym{kind: symBarrier})
		return nil
	}
	e := ParseElem(s.Type.Elem.Name)
	if e == Invalid || s.Type.Window {
		c.errorf(s.Type.Pos(), CodeUnsupported, "cannot allocate %s", syntax.TypeString(s.Type))
		return nil
	}
	dims := make([]cexpr, len(s.Type.Dims))
	for i, d := range s.Type.Dims {
		dims[i] = c.ctrl(d)
	}
	slot := c.newBuf()
	c.declare(name, &sym{kind: symBuf, slot: slot, elem: e, rank: len(dims)})
	pos := s.Pos()
	return func(fr *frame) {
		n := 1
		shape := make([]int, len(dims))
		for i, d := range dims {
			k := d.eval(fr)
			if k < 0 || k > 1<<31 {
				fail(fr, pos, CodeArgValue, "dimension %d of %s is %d", i, name, k)
			}
			shape[i] = int(k)
			n *= int(k)
			if n > 1<<31 {
				fail(fr, pos, CodeArgValue, "%s has more than 2^31 elements", name)
			}
		}
		if lim, b := c.prog.opts.maxMemory(), int64(n)*e.width(); b > lim {
			fail(fr, pos, CodeMemory, "allocating %s (%d elements, %d bytes) exceeds the memory limit of %d bytes (--max-memory BYTES raises it)", name, n, b, lim)
		}
		spend(fr, pos, int64(n))
		v := &view{mem: newCells(e, n), shape: shape, strides: make([]int, len(shape)), elem: e, name: name}
		st := 1
		for i := len(shape) - 1; i >= 0; i-- {
			v.strides[i] = st
			st *= shape[i]
		}
		fr.bufs[slot] = v
	}
}

func (c *compiler) forStmt(s *syntax.For) func(*frame) {
	switch s.Mode.Name {
	case "seq", "par", "cuda_tasks", "cuda_threads":
	default:
		c.errorf(s.Mode.Pos(), CodeUnsupported, "unknown loop mode %s", s.Mode.Name)
	}
	lo, hi := c.ctrl(s.Lo), c.ctrl(s.Hi)
	c.push()
	it := c.intSym()
	c.declare(s.Var.Name, it)
	body := c.block(s.Body)
	c.pop()
	slot := it.slot
	pos := s.Pos()
	// Parallel loops run in order: their iterations are independent by the
	// sync check's guarantee, so any order gives the same result.
	if lo.konst {
		l := lo.val
		return func(fr *frame) {
			h := hi.eval(fr)
			if h > l {
				spend(fr, pos, h-l)
			}
			for i := l; i < h; i++ {
				fr.ints[slot] = i
				body(fr)
			}
		}
	}
	return func(fr *frame) {
		h := hi.eval(fr)
		l := lo.eval(fr)
		if h > l {
			spend(fr, pos, h-l)
		}
		for i := l; i < h; i++ {
			fr.ints[slot] = i
			body(fr)
		}
	}
}

// spend takes n steps from the run's budget (one per loop iteration, and
// per allocated element), failing when it is exhausted: a bound for runs
// that would otherwise not finish in reasonable time.
func spend(fr *frame, pos diag.Pos, n int64) {
	*fr.budget -= n
	if *fr.budget < 0 {
		fail(fr, pos, CodeSteps, "step limit exceeded (--max-steps N raises it)")
	}
}

// isWindowExpr reports whether e denotes a window (an index with a slice)
// or a whole buffer.
func (c *compiler) isWindowExpr(e syntax.Expr) bool {
	switch e := e.(type) {
	case *syntax.Name:
		s := c.lookup(e.Name)
		return s != nil && s.kind == symBuf && s.rank > 0
	case *syntax.Index:
		for _, i := range e.Indices {
			if _, ok := i.(*syntax.Slice); ok {
				return true
			}
		}
	}
	return false
}

func (c *compiler) assign(s *syntax.Assign) func(*frame) {
	if _, ok := s.LHS.(*syntax.Attr); ok {
		return c.configWrite(s)
	}
	if n, ok := s.LHS.(*syntax.Name); ok {
		sy := c.lookup(n.Name)
		if s.Op == "=" && (s.Mem != nil || sy == nil || sy.kind != symBuf || sy.rank > 0) && c.isWindowExpr(s.RHS) {
			// Window statement `x = y[lo:hi, i] @ Mem` (seed 000 Fig. 2): an
			// alias, the memory annotation is for codegen.
			w, rank, e := c.window(s.RHS)
			slot := c.newBuf()
			c.declare(n.Name, &sym{kind: symBuf, slot: slot, elem: e, rank: rank})
			if w == nil {
				return nil
			}
			return func(fr *frame) { fr.bufs[slot] = w(fr) }
		}
		if sy == nil {
			c.errorf(n.Pos(), CodeUnknown, "undefined: %s", n.Name)
			return nil
		}
		if sy.kind != symBuf || sy.rank != 0 {
			c.errorf(n.Pos(), CodeUnsupported, "cannot assign to %s: not a scalar data buffer", n.Name)
			return nil
		}
		return c.store(s, sy, nil)
	}
	ix, ok := s.LHS.(*syntax.Index)
	if !ok {
		c.errorf(s.LHS.Pos(), CodeUnsupported, "cannot assign to %s", syntax.ExprString(s.LHS))
		return nil
	}
	base, ok := ix.X.(*syntax.Name)
	if !ok {
		c.errorf(ix.X.Pos(), CodeUnsupported, "cannot assign to %s", syntax.ExprString(s.LHS))
		return nil
	}
	sy := c.lookup(base.Name)
	if sy == nil || sy.kind != symBuf {
		c.errorf(base.Pos(), CodeUnknown, "undefined data buffer: %s", base.Name)
		return nil
	}
	if len(ix.Indices) != sy.rank {
		c.errorf(ix.Pos(), CodeUnsupported, "%s has %d dimensions, indexed with %d", base.Name, sy.rank, len(ix.Indices))
		return nil
	}
	idx := make([]cexpr, len(ix.Indices))
	for i, x := range ix.Indices {
		if _, isSlice := x.(*syntax.Slice); isSlice {
			c.errorf(x.Pos(), CodeUnsupported, "cannot assign to a window")
			return nil
		}
		idx[i] = c.ctrl(x)
	}
	return c.store(s, sy, idx)
}

// store compiles a write or reduce of s.RHS into the element of sy at idx.
func (c *compiler) store(s *syntax.Assign, sy *sym, idx []cexpr) func(*frame) {
	dst := sy.elem
	t := join(dst, c.typeOf(s.RHS))
	rhs := c.data(s.RHS, t)
	at := c.offset(sy, idx, s.LHS.Pos(), syntax.ExprString(s.LHS))
	switch s.Op {
	case "=":
		if t == dst {
			return func(fr *frame) {
				v, o := at(fr)
				v.mem.put(o, rhs(fr))
			}
		}
		return func(fr *frame) {
			v, o := at(fr)
			v.mem.put(o, round(dst, rhs(fr)))
		}
	case "+=":
		pos := s.LHS.Pos()
		if b, ok := s.RHS.(*syntax.Binary); ok && b.Op == "*" && t == F32 && dst == F32 {
			// `C[i, j] += A[i, k] * B[k, j]`, the inner statement of every
			// dense kernel: the product is fused into the reduce closure.
			x, y := c.data(b.X, t), c.data(b.Y, t)
			if len(idx) == 2 && idx[0].slot >= 0 && idx[1].slot >= 0 {
				slot := sy.slot
				as, av, bs, bv := idx[0].slot, idx[0].val, idx[1].slot, idx[1].val
				text := syntax.ExprString(s.LHS)
				return func(fr *frame) {
					v := fr.bufs[slot]
					i, j := fr.ints[as]+av, fr.ints[bs]+bv
					if uint64(i) >= uint64(v.shape[0]) || uint64(j) >= uint64(v.shape[1]) {
						oob2(fr, pos, text, v, i, j)
					}
					o := v.off + int(i)*v.strides[0] + int(j)*v.strides[1]
					m := v.mem
					old := m.f32[o]
					if math.Float32bits(old) == uninit32 {
						uninitRead(fr, pos, v, o)
					}
					m.f32[o] = float32(float64(old) + float64(float32(x(fr)*y(fr))))
				}
			}
			return func(fr *frame) {
				v, o := at(fr)
				m := v.mem
				old := m.f32[o]
				if math.Float32bits(old) == uninit32 {
					uninitRead(fr, pos, v, o)
				}
				m.f32[o] = float32(float64(old) + float64(float32(x(fr)*y(fr))))
			}
		}
		if t == F32 && dst == F32 {
			return func(fr *frame) {
				v, o := at(fr)
				m := v.mem
				old := m.f32[o]
				if math.Float32bits(old) == uninit32 {
					uninitRead(fr, pos, v, o)
				}
				m.f32[o] = float32(float64(old) + rhs(fr))
			}
		}
		if t == F64 && dst == F64 {
			return func(fr *frame) {
				v, o := at(fr)
				m := v.mem
				old := m.f64[o]
				if isUninit(old) {
					uninitRead(fr, pos, v, o)
				}
				m.f64[o] = old + rhs(fr)
			}
		}
		return func(fr *frame) {
			v, o := at(fr)
			old := v.mem.get(o)
			if isUninit(old) {
				uninitRead(fr, pos, v, o)
			}
			v.mem.put(o, round(dst, binop(t, '+', old, rhs(fr), fr, pos)))
		}
	}
	c.errorf(s.Pos(), CodeUnsupported, "unknown assignment operator %s", s.Op)
	return nil
}

// uninitRead reports a read of element o of v.
func uninitRead(fr *frame, pos diag.Pos, v *view, o int) {
	fail(fr, pos, CodeUninit, "read of uninitialized %s", elemName(v, o))
}

// elemName names element at flat offset o of v's underlying buffer by its
// indices in v.
func elemName(v *view, o int) string {
	rel := o - v.off
	s := v.name + "["
	// Recover indices greedily from the strides (largest first).
	for i := range v.shape {
		if i > 0 {
			s += ", "
		}
		k := 0
		if v.strides[i] > 0 {
			k = rel / v.strides[i]
			rel -= k * v.strides[i]
		}
		s += fmt.Sprint(k)
	}
	if len(v.shape) == 0 {
		return v.name
	}
	return s + "]"
}
