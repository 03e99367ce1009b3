package sem

import (
	"encoding/binary"

	"weft.dev/weft/lang/cudac/syntax"
)

// Constant initializers of globals as data. A global whose initializer is
// a braced list of integer constants (an array, a struct, nested: a
// lookup table such as SobolQRNG's 10 000 primitive polynomials) is
// initialized by copying its bytes, computed while compiling, instead of
// by code storing every element: the same bytes (each constant converted
// to its element's type, C11 6.7.9p10: what is not given is zero), a
// thousandth of the instructions, none of the code's memory. Any other
// form (a non-constant or floating element, a designator, brace elision, a
// string, a pointer, a class with constructors) keeps the element-wise
// code.

// constInit is the bytes of d's initializer for an object of type t, and
// whether it has that form.
func (c *compiler) constInit(t *Type, d *syntax.Decl) ([]byte, bool) {
	il, ok := d.Init.(*syntax.InitList)
	if !ok || d.HasCtor || t.size <= 0 || !plainData(t) {
		return nil, false
	}
	buf := make([]byte, t.size)
	if !c.constBytes(t, il, buf) {
		return nil, false
	}
	return buf, true
}

// plainData reports a type made of integers only: integer scalars, and
// arrays and structs (no unions, virtual functions, constructors or
// library types) of them.
func plainData(t *Type) bool {
	switch {
	case t.isInt():
		return true
	case t.Kind == Array:
		return t.Len > 0 && plainData(t.Elem)
	case t.Kind == Struct:
		if t.Union || t.poly || t.std != 0 || t.cg != 0 || t.vec != nil || len(t.bases) > 0 || vbOf(t) != nil {
			return false
		}
		for _, f := range t.Fields {
			if f.Init != nil || !plainData(f.Type) {
				return false
			}
		}
		return len(t.Fields) > 0
	}
	return false
}

// constBytes writes e, the initializer of an object of type t, into buf.
func (c *compiler) constBytes(t *Type, e syntax.Expr, buf []byte) bool {
	if t.isInt() {
		if il, ok := e.(*syntax.InitList); ok {
			// {x} for a scalar
			if len(il.Elems) != 1 || il.Elems[0].Field != "" || il.Elems[0].Index != nil {
				return false
			}
			e = il.Elems[0].X
		}
		switch e.(type) {
		case *syntax.IntLitExpr, *syntax.CharLitExpr, *syntax.Unary, *syntax.Binary, *syntax.Name, *syntax.Cast:
		default:
			return false // (a call, a float, a string: the code)
		}
		if c.typeOf(e, true).isFloat() {
			return false
		}
		v, ok := c.constExpr(e)
		if !ok {
			return false
		}
		c.narrowing(t, e) // braces.go
		if t.Kind == Bool && v != 0 {
			v = 1
		}
		var w [8]byte
		binary.LittleEndian.PutUint64(w[:], uint64(v))
		copy(buf[:t.size], w[:t.size])
		return true
	}
	il, ok := e.(*syntax.InitList)
	if !ok {
		return false // brace elision, or an aggregate copied from another
	}
	switch t.Kind {
	case Array:
		if len(il.Elems) > t.Len {
			return false
		}
		es := t.Elem.size
		for i, el := range il.Elems {
			if el.Field != "" || el.Index != nil {
				return false
			}
			if !c.constBytes(t.Elem, el.X, buf[i*es:(i+1)*es]) {
				return false
			}
		}
		return true
	case Struct:
		if len(il.Elems) > len(t.Fields) {
			return false
		}
		for i, el := range il.Elems {
			if el.Field != "" || el.Index != nil {
				return false
			}
			f := t.Fields[i]
			if !c.constBytes(f.Type, el.X, buf[f.Offset:f.Offset+f.Type.size]) {
				return false
			}
		}
		return true
	}
	return false
}
