package sem

import (
	"weft.dev/weft/diag"
	"weft.dev/weft/lang/cudac/syntax"
)

// <stdarg.h> and <cstdarg> (C11 7.16): functions of the program declared
// with "...". A call passes the arguments beyond the named ones in a
// block of 8-byte words, each after the default argument promotions
// (C11 6.5.2.2p6: float becomes double, the small integers int), and the
// block's address as a hidden last argument, __weft_va; va_list is a
// char * into the block, va_start points it at the first word, va_arg(ap,
// T) reads a T at it and moves it one word on (syntax/stdarg.go's
// macros), va_end does nothing and va_copy copies it. Reading more
// arguments than were passed reads past the block: an out-of-bounds read
// (C0403) at the va_arg, where C leaves it undefined. vprintf, vfprintf,
// vsprintf and vsnprintf format the words from a va_list on as printf
// does its arguments. A struct passes by value as C does it (C11
// 6.5.2.2p7: the argument is the struct's value): its bytes take as many
// words as they need, starting at a multiple of 16 bytes when its size is
// one (vaSlots), and va_arg(ap, S) reads them. Passing a class that is
// not trivially copyable (std members, virtual functions) is
// conditionally-supported with implementation-defined semantics (C++
// [expr.call]p12): C0309.

// vaSlots are the byte offsets of the arguments of types ts in the block,
// and the block's size.
func vaSlots(ts []*Type) ([]int, int) {
	offs := make([]int, len(ts))
	off := 0
	for i, t := range ts {
		size := 8
		if t.Kind == Struct {
			if t.size%16 == 0 && t.size > 0 {
				off = (off + 15) &^ 15
			}
			size = (max(t.size, 1) + 7) &^ 7
		}
		offs[i] = off
		off += size
	}
	return offs, off
}

// varargs evaluates the arguments of a call of a variadic function of
// the program beyond its named ones and pushes the address of the block
// holding them.
func (c *compiler) varargs(extra []syntax.Expr, pos diag.Pos) {
	ts := make([]*Type, len(extra))
	for i, a := range extra {
		ts[i] = c.typeOf(a, true)
	}
	offs, total := vaSlots(ts)
	c.emit(OpTemp, 0, int64(max(total, 8)), pos)
	for i, a := range extra {
		c.emit(OpDup, 0, 0, pos)
		c.adjustPtr(offs[i], pos)
		at := c.expr(a)
		switch {
		case at.Kind == Struct && (hasStd(at) || at.poly):
			c.errorf(syntax.PosOf(a), "C0309", "passing an object of %s, which is not trivially copyable, through \"...\" is conditionally-supported (C++ [expr.call]p12) and not modeled", at)
			c.emit(OpPop, 0, 0, pos)
		case at.Kind == Struct:
			// the struct's bytes, by value
			c.emit(OpMemcpy, 0, int64(at.size), pos)
		case at.isFloat():
			c.convert(at, tDouble, syntax.PosOf(a))
			c.emit(OpStore, int32(memCode(tDouble)), 0, pos)
		case at.isInt():
			// sign- or zero-extended to a word: a va_arg of int reads its
			// low half, of long long all of it
			if at.isSigned() {
				c.convert(at, tLong, syntax.PosOf(a))
			} else {
				c.convert(at, tULong, syntax.PosOf(a))
			}
			c.emit(OpStore, int32(memCode(tULong)), 0, pos)
		default:
			c.emit(OpStore, int32(memCode(tULong)), 0, pos)
		}
		c.emit(OpPop, 0, 0, pos)
	}
}

// vaWords are the words of the va_list block from p to its end.
func (m *Machine) vaWords(t *Thread, p uint64, pos int32) ([]uint64, bool) {
	id, off := p>>32, p&0xffffffff
	if id == 0 || id >= uint64(len(m.objs)) {
		m.fault(t, pos, "C0402", "va_list that points into no argument block (va_start not called?)")
		return nil, false
	}
	o := m.objs[id]
	n := (uint64(len(o.Data)) - min(off, uint64(len(o.Data)))) / 8
	if n == 0 {
		return nil, true
	}
	b, good := m.resolve(t, p, int(n*8), pos, false, false)
	if !good {
		return nil, false
	}
	w := make([]uint64, n)
	for i := range w {
		w[i] = loadN(b[8*i:], 8)
	}
	return w, true
}

func initLibStdarg() {
	// __weft_va_arg(&ap, size, align16): where the next argument of size
	// bytes is (aligned to 16 bytes when align16), moving ap past it
	builtinSigs["__weft_va_arg"] = sig(tCharP, anySide, tAny, tULong, tInt)
	defb("__weft_va_arg", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		b, good := m.resolve(t, a[0], 8, pos, false, false)
		if !good {
			return 0, stFault
		}
		ap := loadN(b, 8)
		if a[2] != 0 {
			ap += uint64(-int32(uint32(ap)) & 15)
		}
		next := ap + (a[1]+7)&^7
		w, good := m.resolve(t, a[0], 8, pos, true, false)
		if !good {
			return 0, stFault
		}
		storeN(w, 8, next)
		return ok(ap)
	})
	for name, s := range map[string]*bsig{
		"vprintf":   sig(tInt, hostSide, tCharP, tCharP),
		"vfprintf":  sig(tInt, hostSide, tAny, tCharP, tCharP),
		"vsprintf":  sig(tInt, hostSide, tCharP, tCharP, tCharP),
		"vsnprintf": sig(tInt, hostSide, tCharP, tULong, tCharP, tCharP),
	} {
		builtinSigs[name] = s
	}
	vformat := func(m *Machine, t *Thread, f, ap uint64, pos int32) (string, bool) {
		w, good := m.vaWords(t, ap, pos)
		if !good {
			return "", false
		}
		return m.format(t, f, w, pos)
	}
	defb("vprintf", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		s, good := vformat(m, t, a[0], a[1], pos)
		if !good {
			return 0, stFault
		}
		m.out.WriteString(s)
		return ok(uint64(len(s)))
	})
	defb("vfprintf", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		s, good := vformat(m, t, a[1], a[2], pos)
		if !good || !m.writeStream(t, a[0], []byte(s), pos) {
			return 0, stFault
		}
		return ok(uint64(len(s)))
	})
	defb("vsprintf", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		s, good := vformat(m, t, a[1], a[2], pos)
		if !good || !m.putFormatted(t, a[0], 1<<62, s, pos) {
			return 0, stFault
		}
		return ok(uint64(len(s)))
	})
	defb("vsnprintf", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		s, good := vformat(m, t, a[2], a[3], pos)
		if !good || !m.putFormatted(t, a[0], a[1], s, pos) {
			return 0, stFault
		}
		return ok(uint64(len(s)))
	})
}
