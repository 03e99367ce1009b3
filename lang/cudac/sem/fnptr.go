package sem

import (
	"weft.dev/weft/diag"
	"weft.dev/weft/lang/cudac/syntax"
)

// Function pointers (C11 6.3.2.1p4, 6.5.2.2): a function designator used
// as a value is a pointer into no object, (fnObject << 32) | index, so
// that dereferencing one as data is an invalid-pointer error while calls
// through it (OpCallInd) check the index and the execution space. A kernel
// used as a value (cudaFuncSetAttribute, cudaLaunchKernelEx, occupancy
// queries) is such a pointer too. Pointers to modeled library functions
// (a driver entry point) set bit 31 of the index.

const (
	fnObject   = 0xfffffff0
	fnBuiltin  = 1 << 31
	fnPtrLimit = 1 << 30
)

// fnPtr is the pointer value of function fn.
func (c *compiler) fnPtr(fn *Function) uint64 {
	return uint64(fnObject)<<32 | uint64(c.funcIndex(fn))
}

// builtinPtr is the pointer value of the modeled library function name.
func builtinPtr(name string) (uint64, bool) {
	i, ok := builtinIndex[name]
	if !ok {
		return 0, false
	}
	return uint64(fnObject)<<32 | fnBuiltin | uint64(i), true
}

// funcOfPtr decodes a function pointer: a program function, or (nil) a
// builtin index.
func (m *Machine) funcOfPtr(p uint64) (*Function, int, bool) {
	if p>>32 != fnObject {
		return nil, 0, false
	}
	i := uint32(p)
	if i&fnBuiltin != 0 {
		b := int(i &^ fnBuiltin)
		return nil, b, b < len(builtinTable)
	}
	if int(i) >= len(m.prog.Funcs) {
		return nil, 0, false
	}
	return m.prog.Funcs[i], 0, true
}

// funcValue compiles a function name used as a value.
func (c *compiler) funcValue(name string, pos diag.Pos) (*Type, bool) {
	fn := c.funcs[name]
	if fn == nil {
		if c.templates[name] != nil {
			c.errorf(pos, "C0309", "a pointer to function template %s needs explicit template arguments, which are not supported here", name)
			c.emit(OpConst, 0, 0, pos)
			return tInt, true
		}
		return nil, false
	}
	if fn.Type == nil {
		c.errorf(pos, "C0309", "function %s used as a value before its declaration", name)
		c.emit(OpConst, 0, 0, pos)
		return tInt, true
	}
	c.emit(OpConst, 0, int64(c.fnPtr(fn)), pos)
	return ptrTo(fn.Type), true
}

// isFuncPtr reports whether t points to a function.
func isFuncPtr(t *Type) bool { return t.Kind == Ptr && t.Elem != nil && t.Elem.Kind == Func }

// indirectCall compiles a call through a function pointer expression.
func (c *compiler) indirectCall(e *syntax.Call) *Type {
	pos := e.Pos
	if t := c.typeOf(e.Fun, false); t.Kind == Struct && t.std == 0 && c.callable(t) {
		// (*this)(), objs[i](x): the object's operator()
		return c.memberCall(&syntax.Member{Pos: pos, X: e.Fun, Name: "operator()"}, e)
	}
	ft, ok := c.funcPtrOf(e, "C0305", "called object of type %s is not a function or function pointer")
	if !ok {
		return tInt
	}
	// A pointer of variadic type points to a function of the program (the
	// modeled library functions whose address a program can take, driver
	// entry points, take no "..."), so the extra arguments are packed as
	// for a direct call (lib_stdarg.go).
	fake := &Function{Name: "the function pointer", Type: ft.Elem, viaPtr: true}
	n := c.args(fake, e)
	c.emit(OpCallInd, 0, int64(n), pos)
	return ft.Elem.Elem
}

// indirectLaunch compiles kernel<<<...>>>(args) where kernel is a pointer
// (a table of kernels to time, as samples keep them): the pointer is
// compared with each __global__ function of its type, and the one it
// equals is launched; any other value faults at the launch.
func (c *compiler) indirectLaunch(e *syntax.Call) *Type {
	pos := e.Pos
	ft, ok := c.funcPtrOf(e, "C0308", "launched object of type %s is not a __global__ function or a pointer to one")
	if !ok {
		return tVoid
	}
	slot := c.newSlot()
	c.emit(OpSetLocal, int32(slot), 0, pos)
	c.emit(OpPop, 0, 0, pos)
	var ends []int
	for _, k := range append([]*Function(nil), c.prog.Kernels...) {
		if len(k.Type.Params) != len(ft.Elem.Params) || !sameType(k.Type, ft.Elem) {
			continue
		}
		c.emit(OpLocal, int32(slot), 0, pos)
		c.emit(OpConst, 0, int64(c.fnPtr(k)), pos)
		c.emit(OpEq, 0, 0, pos)
		next := c.emit(OpJz, 0, 0, pos)
		c.launch(k, e)
		ends = append(ends, c.emit(OpJmp, 0, 0, pos))
		c.patch(next)
	}
	c.emit(OpTrap, int32(c.message("launch through a pointer that is not a __global__ function of this type")), 0, pos)
	c.emit(OpConst, 0, 0, pos)
	for _, at := range ends {
		c.patch(at)
	}
	return tVoid
}

// funcPtrOf compiles the callee of e, a function or function pointer;
// otherwise it reports code (msg names the type) and leaves a 0.
func (c *compiler) funcPtrOf(e *syntax.Call, code, msg string) (*Type, bool) {
	ft := c.expr(e.Fun)
	if ft.Kind == Func {
		ft = ptrTo(ft)
	}
	if !isFuncPtr(ft) {
		c.errorf(e.Pos, code, msg, ft)
		c.emit(OpPop, 0, 0, e.Pos)
		c.emit(OpConst, 0, 0, e.Pos)
		return ft, false
	}
	return ft, true
}

// callable reports whether class t has an operator(), a function or a
// member function template.
func (c *compiler) callable(t *Type) bool {
	return c.funcs[tagOf(t)+"::operator()"] != nil || c.memberTemplate(t, "operator()") != nil
}
