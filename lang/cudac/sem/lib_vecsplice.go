package sem

import (
	"bytes"

	"weft.dev/weft/lang/cudac/syntax"
)

// std::vector's (and the deque's) insert, emplace and erase (C++
// [vector.modifiers]): insert(pos, value), insert(pos, n, value),
// insert(pos, first, last) and emplace(pos, value) put the new elements
// before pos and return an iterator to the first of them; erase(pos) and
// erase(first, last) remove elements and return an iterator to the one
// after them. The elements after pos move (their bytes; elements with std
// members keep their buffers, and inserted ones are deep copies), so
// iterators and references at or after pos see other elements, as C++
// says they are invalidated. The capacity follows libstdc++: an insertion
// past it reallocates to max(size + n, 2 * size) (use after free of the
// old storage is C0404, naming the call), an erasure keeps it. An
// iterator that is not one of this vector's (another vector's, or past
// end()) is C0402, erase(end()) C0403 (undefined in C++); a range of
// another element type is C0309.

// vecSplice compiles insert, emplace and erase of a vector or deque
// (st); ok is false when m is none of them.
func (c *compiler) vecSplice(st *Type, m *syntax.Member, e *syntax.Call, recv func()) (*Type, bool) {
	pos := e.Pos
	args := e.Args
	it := iterTo(st.stdElem, st.String())
	fail := func(code, format string, a ...any) (*Type, bool) {
		c.errorf(pos, code, format, a...)
		c.emit(OpConst, 0, 0, pos)
		return it, true
	}
	const (
		modeValue = iota
		modeRange
		modeEraseOne
		modeEraseRange
	)
	mode := -1
	switch m.Name {
	case "insert", "emplace":
		switch {
		case len(args) < 2:
			return fail("C0304", "std::vector::%s takes the position and what to insert, %d arguments given", m.Name, len(args))
		case len(args) == 2:
			if _, list := args[1].(*syntax.InitList); list {
				return fail("C0309", "std::vector::%s of an initializer list is not modeled (insert the elements as a range)", m.Name)
			}
			mode = modeValue
		case len(args) == 3 && m.Name == "insert" && c.isRangePair(args[1:]):
			mode = modeRange
		case len(args) == 3 && m.Name == "insert" && c.typeOf(args[1], true).isInt():
			mode = modeValue
		default:
			return fail("C0309", "std::vector::%s with these %d arguments is not modeled (insert(pos, value), insert(pos, n, value), insert(pos, first, last), emplace(pos, value))", m.Name, len(args))
		}
	case "erase":
		switch len(args) {
		case 1:
			mode = modeEraseOne
		case 2:
			mode = modeEraseRange
		default:
			return fail("C0304", "std::vector::erase takes 1 or 2 arguments, %d given", len(args))
		}
	default:
		return nil, false
	}
	for i, a := range args[:min(len(args), 2)] {
		if mode == modeValue && i == 1 {
			break
		}
		if at := c.typeOf(a, true); at.Kind != Ptr || !sameType(at.Elem, st.stdElem) {
			return fail("C0302", "std::vector::%s: argument %d is not an iterator of %s (it is %s)", m.Name, i+1, st, at)
		}
	}
	if mode == modeRange {
		if et := c.typeOf(args[1], true).Elem; !sameType(et, st.stdElem) {
			return fail("C0309", "std::vector::insert of a range of %s into %s is not modeled (only its own element type)", et, st)
		}
	}
	recv()
	c.convert(c.expr(args[0]), tULong, pos)
	switch mode {
	case modeValue:
		c.emit(OpConst, 0, 0, pos)
		c.stdValuePtr(st, args[len(args)-1:], pos)
		c.emit(OpConst, 0, 0, pos)
		if len(args) == 3 {
			c.convert(c.expr(args[1]), tULong, pos)
		} else {
			c.emit(OpConst, 0, 1, pos)
		}
	case modeRange:
		c.emit(OpConst, 0, 0, pos)
		c.convert(c.expr(args[1]), tULong, pos)
		c.convert(c.expr(args[2]), tULong, pos)
		c.emit(OpConst, 0, 0, pos)
	case modeEraseOne:
		for k := 0; k < 4; k++ {
			c.emit(OpConst, 0, 0, pos)
		}
	case modeEraseRange:
		c.convert(c.expr(args[1]), tULong, pos)
		for k := 0; k < 3; k++ {
			c.emit(OpConst, 0, 0, pos)
		}
	}
	c.emit(OpConst, 0, int64(st.stdElem.size), pos)
	c.emit(OpConst, 0, int64(c.elemLayout(st)), pos)
	c.emit(OpConst, 0, int64(mode), pos)
	c.stdBuiltin("__vec_splice", 9, pos)
	return it, true
}

func initLibVecsplice() {
	builtinSigs["__vec_splice"] = sig(tVoidP, hostSide, tAny, tAny, tAny, tAny, tAny, tAny, tAny, tAny, tAny)
	defb("__vec_splice", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		r, good := m.vecSplice(t, a, pos)
		if !good {
			return 0, stFault
		}
		return ok(r)
	})
}

// vecSplice runs __vec_splice(v, at, end, src, srcEnd, count, es, layout,
// mode) and returns the iterator the call returns.
func (m *Machine) vecSplice(t *Thread, a []uint64, pos int32) (uint64, bool) {
	v, at, end, src, srcEnd, count, es, layout, mode := a[0], a[1], a[2], a[3], a[4], a[5], a[6], int(int64(a[7])), a[8]
	call := map[bool]string{true: "erase", false: "insert"}[mode >= 2]
	data, size, _, good := m.stdHdr(t, v, pos)
	if !good {
		return 0, false
	}
	index := func(p uint64, what string) (uint64, bool) {
		if p == data || size == 0 && p == 0 {
			return 0, true
		}
		if data == 0 || p>>32 != data>>32 || p < data || (p-data)%es != 0 || (p-data)/es > size {
			m.fault(t, pos, "C0402", "std::vector::%s: %s (0x%x) is not an iterator into this vector of %d elements", call, what, p, size)
			return 0, false
		}
		return (p - data) / es, true
	}
	i, good := index(at, "the position")
	if !good {
		return 0, false
	}
	var ins []byte
	var nins, nerase uint64
	switch mode {
	case 0:
		if count*es >= 1<<31 {
			m.fault(t, pos, "C0403", "std::vector::insert of %d elements exceeds the model's 2 GiB objects", count)
			return 0, false
		}
		b, good := m.resolve(t, src, int(es), pos, false, false)
		if !good {
			return 0, false
		}
		ins, nins = bytes.Repeat(b, int(count)), count
	case 1:
		if src>>32 != srcEnd>>32 && !(src == 0 && srcEnd == 0) || srcEnd < src || (srcEnd-src)%es != 0 {
			m.fault(t, pos, "C0402", "std::vector::insert: the iterators of the range do not delimit one sequence (first 0x%x, last 0x%x)", src, srcEnd)
			return 0, false
		}
		nins = (srcEnd - src) / es
		if nins > 0 {
			b, good := m.resolve(t, src, int(nins*es), pos, false, false)
			if !good {
				return 0, false
			}
			ins = append([]byte(nil), b...)
		}
	case 2:
		if i >= size {
			m.fault(t, pos, "C0403", "std::vector::erase(end()): no element to erase (undefined in C++)")
			return 0, false
		}
		nerase = 1
	case 3:
		j, good := index(end, "the range's end")
		if !good {
			return 0, false
		}
		if j < i {
			m.fault(t, pos, "C0402", "std::vector::erase(first, last): last is before first")
			return 0, false
		}
		nerase = j - i
	}
	if nins == 0 && nerase == 0 {
		return at, true
	}
	cur, _, good := m.stdBytes(t, v, int(es), pos)
	if !good {
		return 0, false
	}
	buf := make([]byte, 0, uint64(len(cur))-nerase*es+uint64(len(ins)))
	buf = append(buf, cur[:i*es]...)
	buf = append(buf, ins...)
	buf = append(buf, cur[(i+nerase)*es:]...)
	n := size - nerase + nins
	if n*es >= 1<<31 {
		m.fault(t, pos, "C0403", "std::vector of %d elements exceeds the model's 2 GiB objects", n)
		return 0, false
	}
	freed, good := m.vecResize(t, v, buf, n, int(es), pos)
	if !good {
		return 0, false
	}
	ndata, _, _, good := m.stdHdr(t, v, pos)
	if !good {
		return 0, false
	}
	if layout >= 0 {
		// the inserted elements' std members get buffers of their own
		for k := uint64(0); k < nins; k++ {
			p := ndata + (i+k)*es
			if !m.copyDeep(t, p, p, layout, pos) {
				return 0, false
			}
		}
	}
	m.vecFree(freed, call, pos)
	if n == 0 {
		return ndata, true
	}
	return ndata + i*es, true
}
