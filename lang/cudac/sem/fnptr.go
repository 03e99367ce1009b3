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
	ft := c.expr(e.Fun)
	if ft.Kind == Func {
		ft = ptrTo(ft)
	}
	if !isFuncPtr(ft) {
		c.errorf(pos, "C0305", "called object of type %s is not a function or function pointer", ft)
		c.emit(OpPop, 0, 0, pos)
		c.emit(OpConst, 0, 0, pos)
		return tInt
	}
	fake := &Function{Name: "the function pointer", Type: ft.Elem}
	n := c.args(fake, e)
	c.emit(OpCallInd, 0, int64(n), pos)
	return ft.Elem.Elem
}
