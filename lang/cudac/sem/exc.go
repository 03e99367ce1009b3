package sem

import (
	"fmt"
	"strings"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/cudac/syntax"
)

// C++ exceptions in host code (C++ [except], issue 15 item 2).
//
// throw X copies X into a fresh exception object (a host heap object, so
// that it outlives the frames the throw leaves) and unwinds: the thread's
// handler records, pushed by OpTry where a try block starts, name the
// frame (its depth and function), the code range of the try block, the
// operand-stack height and the handler code. The innermost record whose
// frame is still live and still inside the block's range wins; its
// frame's callees are popped (their automatic objects destroyed, latest
// first, from each function's cleanup table, then their locals released),
// so are the try block's own objects, and control goes to the handler code,
// which tests the catch clauses in order (OpExcMatch: the same type, a
// public base class of a thrown class, a base pointer of a thrown class
// pointer, void* of any thrown pointer, or catch (...)), binds the
// parameter and runs the clause; no matching clause rethrows. A record is
// validated when a throw reaches it rather than popped on every way out
// of a try block (break, continue, goto, return), so leaving a block
// early cannot leave a live handler behind.
//
// The exceptions being handled form a stack (a throw inside a handler
// nests one); throw; rethrows the innermost. An exception no handler
// catches, or that would leave a noexcept function, ends the run as
// std::terminate does (C0604, at the throw), with what() when the
// object's class has one; nothing is unwound then, as with g++. CUDA has
// exceptions only in host code: throw or try in device code is C0307 at
// compile time.

// excType is a type thrown or caught somewhere in the program.
type excType struct {
	t    *Type
	what int // its what() (a class with one), or -1
	// dtor is its destructor (a class with one), or -1: an exception
	// object is destroyed when its last handler exits other than by
	// throw; ([except.throw]p4)
	dtor int
}

// excHandler is a live try block of a thread.
type excHandler struct {
	fn         *Function // its frame's function
	depth      int       // len(frames) of its frame
	start, end int       // the try block's code range
	handler    int       // the handler code
	sp         int       // operand-stack height at the try
	ncaught    int       // exceptions being handled at the try
}

// excVal is an exception in flight or being handled.
type excVal struct {
	obj   uint64 // pointer to the exception object
	typ   int32  // Program.excTypes index
	pos   int32  // the throw
	depth int    // handled: the handler's frame depth
}

// excTypeIdx registers t as an exception type.
func (c *compiler) excTypeIdx(t *Type) int32 {
	for i, et := range c.prog.excTypes {
		if et.t == t || sameType(et.t, t) {
			return int32(i)
		}
	}
	et := excType{t: t, what: -1, dtor: -1}
	if t.Kind == Struct && t.std == 0 {
		if fn := c.overrider(t, "what"); fn != nil {
			et.what = c.funcIndex(fn)
		}
		if dt := c.dtorOf(t); dt != nil {
			et.dtor = c.funcIndex(dt)
		}
	}
	c.prog.excTypes = append(c.prog.excTypes, et)
	return int32(len(c.prog.excTypes) - 1)
}

// throwExpr compiles throw X and throw; (one value left, as for any
// expression).
func (c *compiler) throwExpr(e *syntax.Throw) *Type {
	pos := e.Pos
	if c.deviceOnly() {
		c.errorf(pos, "C0307", "throw in device code: CUDA supports exceptions only in host code")
		c.emit(OpConst, 0, 0, pos)
		return tVoid
	}
	if e.X == nil {
		c.emit(OpRethrow, 0, 0, pos)
		c.emit(OpConst, 0, 0, pos)
		return tVoid
	}
	t := c.typeOf(e.X, true)
	if t.Kind == Void || t.Kind == Func || (t.Kind == Struct && !t.complete) {
		c.errorf(pos, "C0302", "cannot throw a value of type %s", t)
		c.emit(OpConst, 0, 0, pos)
		return tVoid
	}
	if t.Ref {
		t = t.Elem
	}
	idx := c.excTypeIdx(t)
	c.emit(OpConst, 0, int64(t.size), pos)
	c.stdBuiltin("__exc_alloc", 1, pos)
	c.emit(OpDup, 0, 0, pos)
	vt := c.expr(e.X)
	if t.Kind == Struct {
		c.copyValue(t, pos)
	} else {
		c.convert(vt, t, pos)
		c.emit(OpStore, int32(memCode(t)), 0, pos)
	}
	c.emit(OpPop, 0, 0, pos)
	c.emit(OpThrow, idx, 0, pos)
	c.emit(OpConst, 0, 0, pos)
	return tVoid
}

// tryStmt compiles try { ... } catch (...) { ... } ...
func (c *compiler) tryStmt(s *syntax.TryStmt) {
	if c.deviceOnly() {
		c.errorf(s.Pos, "C0307", "try in device code: CUDA supports exceptions only in host code")
	}
	at := c.emit(OpTry, 0, 0, s.Pos)
	c.block(s.Body, true)
	endTry := c.emit(OpTryEnd, 0, 0, s.Pos)
	skip := c.emit(OpJmp, 0, 0, s.Pos)
	c.code[at].B = int64(c.here())
	c.code[at].A = int32(c.here())
	c.code[endTry].A = int32(c.here())
	var ends []int
	for _, h := range s.Handlers {
		var next = -1
		var ht *Type
		if h.Type != nil {
			ht = c.resolve(h.Type)
			byRef := ht.Ref
			if byRef {
				ht = ht.Elem
			}
			c.emit(OpExcMatch, c.excTypeIdx(ht), 0, h.Pos)
			next = c.emit(OpJz, 0, 0, h.Pos)
			c.push()
			byValue := false
			if h.Name != "" && !byRef && ht.Kind == Struct && ht.std == 0 {
				byValue = c.catchByValue(h.Name, ht, h.Pos)
			}
			if byValue {
				c.block(h.Body, true)
				// the parameter after the handler's body ([except.handle]p16)
				c.noteCleanups(c.dtors[len(c.dtors)-1])
				c.destroy(len(c.dtors)-1, h.Body.End)
				c.dtors = c.dtors[:len(c.dtors)-1]
			} else if h.Name != "" {
				slot := c.newSlot()
				c.emit(OpExcObj, c.excTypeIdx(ht), 0, h.Pos)
				if ht.Kind == Struct {
					// a class caught by value is bound to the exception
					// object itself (no copy constructor runs)
					c.declare(h.Name, &sym{kind: symRef, t: ht, slot: slot})
				} else if byRef {
					c.declare(h.Name, &sym{kind: symRef, t: ht, slot: slot})
				} else {
					c.emit(OpLoad, int32(memCode(ht)), 0, h.Pos)
					c.declare(h.Name, &sym{kind: symSlot, t: ht, slot: slot})
				}
				c.emit(OpSetLocal, int32(slot), 0, h.Pos)
				c.emit(OpPop, 0, 0, h.Pos)
			}
			if !byValue {
				c.block(h.Body, true)
			}
			c.pop()
		} else {
			c.block(h.Body, true)
		}
		c.emit(OpExcEnd, 0, 0, h.Pos)
		ends = append(ends, c.emit(OpJmp, 0, 0, h.Pos))
		if next >= 0 {
			c.patch(next)
		} else {
			break // catch (...) catches everything; later clauses are dead
		}
	}
	if len(s.Handlers) == 0 || s.Handlers[len(s.Handlers)-1].Type != nil {
		c.emit(OpExcUnmatched, 0, 0, s.Pos)
	}
	for _, j := range ends {
		c.patch(j)
	}
	c.patch(skip)
}

// catchByValue declares the parameter of catch (T name) for a class T
// with a copy constructor or a destructor: an object of its own,
// copy-initialized from the exception object ([except.handle]p16) and
// destroyed after the handler, in a dtors frame the caller ends. It
// reports whether it did (else the name is bound to the exception
// object, which a bitwise copy would equal).
func (c *compiler) catchByValue(name string, ht *Type, pos diag.Pos) bool {
	src := &syntax.Name{Pos: pos, Name: "__weft_exc_" + name}
	if c.dtorOf(ht) == nil {
		return false
	}
	ref := c.newSlot()
	c.emit(OpExcObj, c.excTypeIdx(ht), 0, pos)
	c.emit(OpSetLocal, int32(ref), 0, pos)
	c.emit(OpPop, 0, 0, pos)
	c.declare(src.Name, &sym{kind: symRef, t: ht, slot: ref})
	c.dtors = append(c.dtors, nil)
	if !c.byCopyCtor(ht, src, pos) {
		c.emit(OpTemp, 0, int64(ht.size), pos)
		c.emit(OpLocal, int32(ref), 0, pos)
		c.emit(OpMemcpy, 0, int64(ht.size), pos)
	}
	slot := c.newSlot()
	c.emit(OpSetLocal, int32(slot), 0, pos)
	c.emit(OpPop, 0, 0, pos)
	c.declare(name, &sym{kind: symMem, t: ht, slot: slot})
	c.dtors[len(c.dtors)-1] = append(c.dtors[len(c.dtors)-1], autoObj{slot: slot, dtor: c.dtorOf(ht), start: c.here()})
	return true
}

// excMatch reports whether a handler for type h catches an exception of
// type x (C++ [except.handle]p3).
func excMatch(x, h *Type) bool {
	if x == h || sameType(x, h) {
		return true
	}
	if x.Kind == Struct && h.Kind == Struct {
		return derivesFrom(x, h)
	}
	if x.Kind == Ptr && h.Kind == Ptr && x.Elem != nil && h.Elem != nil {
		if h.Elem.Kind == Void {
			return x.Elem.Kind != Func
		}
		return x.Elem.Kind == Struct && h.Elem.Kind == Struct && derivesFrom(x.Elem, h.Elem)
	}
	return false
}

// excOp runs an exception instruction of t's top frame, whose pc is past
// it and whose stack and slots are in t; false: the run must end.
func (m *Machine) excOp(t *Thread, in *Instr) bool {
	d := len(t.frames)
	fr := &t.frames[d-1]
	switch in.Op {
	case OpTry:
		at := fr.pc - 1
		for len(t.handlers) > 0 {
			h := t.handlers[len(t.handlers)-1]
			if h.depth < d || h.depth == d && h.fn == fr.fn && h.start <= at && at < h.end {
				break
			}
			t.handlers = t.handlers[:len(t.handlers)-1] // stale
		}
		t.handlers = append(t.handlers, excHandler{fn: fr.fn, depth: d, start: fr.pc, end: int(in.B), handler: int(in.A), sp: len(t.stack), ncaught: len(t.caught)})
	case OpTryEnd:
		for len(t.handlers) > 0 {
			h := t.handlers[len(t.handlers)-1]
			if h.depth < d {
				break
			}
			t.handlers = t.handlers[:len(t.handlers)-1]
			if h.depth == d && h.handler == int(in.A) {
				break
			}
		}
	case OpThrow:
		if !t.host {
			m.fault(t, in.P, "C0307", "throw in device code: CUDA supports exceptions only in host code")
			return false
		}
		n := len(t.stack) - 1
		x := excVal{obj: t.stack[n], typ: in.A, pos: in.P}
		t.stack = t.stack[:n]
		return m.unwind(t, x, in.P)
	case OpRethrow, OpExcUnmatched:
		if len(t.caught) == 0 {
			m.fault(t, in.P, "C0604", "throw; with no exception being handled: std::terminate is called")
			return false
		}
		x := t.caught[len(t.caught)-1]
		t.caught = t.caught[:len(t.caught)-1]
		if in.Op == OpExcUnmatched {
			return m.unwind(t, x, x.pos) // it continues from its throw
		}
		return m.unwind(t, x, in.P)
	case OpExcMatch:
		x := t.caught[len(t.caught)-1]
		t.stack = append(t.stack, b2u(excMatch(m.prog.excTypes[x.typ].t, m.prog.excTypes[in.A].t)))
	case OpExcObj:
		// the handler's class may be a base that is not first (mi.go)
		x := t.caught[len(t.caught)-1]
		p := x.obj
		xt, ht := m.prog.excTypes[x.typ].t, m.prog.excTypes[in.A].t
		if off, ok := baseOffset(xt, ht); ok && off != 0 {
			p += uint64(off)
		}
		t.stack = append(t.stack, p)
	case OpExcEnd:
		if len(t.caught) > 0 {
			x := t.caught[len(t.caught)-1]
			t.caught = t.caught[:len(t.caught)-1]
			if id := x.obj >> 32; id < uint64(len(m.objs)) && !m.objs[id].Freed {
				if dt := m.prog.excTypes[x.typ].dtor; dt >= 0 {
					// the handler exits normally: the exception object
					// is destroyed ([except.throw]p4)
					saved := t.stopDepth
					_, good := m.callOn(t, m.prog.Funcs[dt], []uint64{x.obj})
					t.stopDepth = saved
					if !good {
						return false
					}
				}
				m.release(m.objs[id])
			}
		}
	}
	return true
}

// cleanup is an automatic object that unwinding destroys: in slot, with
// destructor dtor, constructed at code start and destroyed by the block's
// own code at end.
type cleanup struct {
	start, end, slot int
	dtor             *Function
	// temp marks a temporary of a full-expression (temps.go): its slot
	// is zero until it is made, and cleared once unwinding destroys it
	temp bool
}

// noteCleanups records the automatic objects of a block that ends here.
func (c *compiler) noteCleanups(objs []autoObj) {
	if c.dry > 0 || c.fn == nil {
		return
	}
	for _, o := range objs {
		c.noteCleanup(cleanup{start: o.start, end: c.here(), slot: o.slot, dtor: o.dtor})
	}
}

// noteCleanup records one object that unwinding destroys.
func (c *compiler) noteCleanup(cl cleanup) {
	if c.dry > 0 || c.fn == nil {
		return
	}
	c.funcIndex(cl.dtor)
	// latest constructed first
	i := 0
	for i < len(c.fn.cleanups) && c.fn.cleanups[i].start > cl.start {
		i++
	}
	c.fn.cleanups = append(c.fn.cleanups, cleanup{})
	copy(c.fn.cleanups[i+1:], c.fn.cleanups[i:])
	c.fn.cleanups[i] = cl
}

// cleanFrame runs the destructors of the automatic objects of frame k
// that are alive at its pc and were constructed at or after from (C++
// [except.ctor]: stack unwinding), latest first.
func (m *Machine) cleanFrame(t *Thread, k, from int) bool {
	fn := t.frames[k].fn
	for _, cl := range fn.cleanups {
		fr := &t.frames[k]
		at := fr.pc - 1
		if cl.start < from || at < cl.start || at >= cl.end {
			continue
		}
		this := t.slots[fr.base+cl.slot]
		if this == 0 {
			continue // a temporary not made (its operand not evaluated)
		}
		if cl.temp {
			t.slots[fr.base+cl.slot] = 0
		}
		saved := t.stopDepth
		_, good := m.callOn(t, cl.dtor, []uint64{this})
		t.stopDepth = saved
		if !good {
			return false
		}
	}
	return true
}

// unwind transfers control to the innermost live handler of t for x, or
// ends the run as std::terminate does.
func (m *Machine) unwind(t *Thread, x excVal, pos int32) bool {
	for len(t.handlers) > 0 {
		h := t.handlers[len(t.handlers)-1]
		if h.depth <= t.stopDepth {
			break // a handler of the code that called this run (a callback)
		}
		t.handlers = t.handlers[:len(t.handlers)-1]
		if h.depth > len(t.frames) {
			continue
		}
		fr := &t.frames[h.depth-1]
		if at := fr.pc - 1; fr.fn != h.fn || at < h.start || at >= h.end {
			continue // left without reaching its end (a return, a break)
		}
		// a handler: the frames above it are left, their automatic
		// objects destroyed, then those of the try block; leaving a
		// noexcept function calls std::terminate instead (C++
		// [except.spec]p9)
		for k := len(t.frames) - 1; k >= h.depth; k-- {
			if fd := t.frames[k].fn.decl; fd != nil && fd.Type != nil && fd.Type.NoExcept {
				m.fault(t, pos, "C0604", "an exception of type %s leaves %s, which is noexcept; std::terminate is called", excTypeName(m.prog.excTypes[x.typ].t), t.frames[k].fn.Name)
				return false
			}
		}
		for len(t.frames) > h.depth {
			if !m.cleanFrame(t, len(t.frames)-1, 0) {
				return false
			}
			top := &t.frames[len(t.frames)-1]
			for _, o := range top.objs {
				m.release(o)
			}
			t.slots = t.slots[:top.base]
			t.frames = t.frames[:len(t.frames)-1]
		}
		if !m.cleanFrame(t, h.depth-1, h.start) {
			return false
		}
		fr = &t.frames[h.depth-1]
		t.stack = t.stack[:h.sp]
		if len(t.caught) > h.ncaught {
			t.caught = t.caught[:h.ncaught]
		}
		x.depth = h.depth
		t.caught = append(t.caught, x)
		fr.pc = h.handler
		return true
	}
	et := m.prog.excTypes[x.typ]
	msg := ""
	if et.what >= 0 {
		saved := t.stopDepth
		if v, ok := m.callOn(t, m.prog.Funcs[et.what], []uint64{x.obj}); ok {
			if s, good := m.cstring(t, v, pos); good {
				msg = fmt.Sprintf(": what(): %q", s)
			}
		}
		t.stopDepth = saved
	}
	if m.failed {
		return false
	}
	at := ""
	if x.pos != pos {
		at = fmt.Sprintf(" (thrown at %s)", m.pos(x.pos))
	}
	m.fault(t, pos, "C0604", "uncaught exception of type %s%s%s; std::terminate is called", excTypeName(et.t), at, msg)
	return false
}

// excTypeName names t as a C++ diagnostic would (the modeled standard
// exception classes with their std::).
func excTypeName(t *Type) string {
	s := t.String()
	if t.Kind == Struct && syntax.StdExceptions[strings.TrimPrefix(s, "struct ")] {
		return "std::" + strings.TrimPrefix(s, "struct ")
	}
	return s
}

func initExc() {
	builtinSigs["__exc_alloc"] = sig(tVoidP, hostSide, tULong)
	defb("__exc_alloc", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		o := m.newObject(int(a[0]), SpaceHost, "exception object", pos)
		if m.failed {
			return 0, stFault
		}
		return ok(ptrOf(o, 0))
	})
}

// leaveHandlers ends the handling of the exceptions whose handlers were in
// a frame that returned (a return inside a catch clause).
func (t *Thread) leaveHandlers() {
	for len(t.caught) > 0 && t.caught[len(t.caught)-1].depth > len(t.frames) {
		t.caught = t.caught[:len(t.caught)-1]
	}
	for len(t.handlers) > 0 && t.handlers[len(t.handlers)-1].depth > len(t.frames) {
		t.handlers = t.handlers[:len(t.handlers)-1] // a return inside a try block
	}
}
