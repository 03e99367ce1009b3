package sem

import (
	"strings"

	"weft.dev/weft/lang/cudac/syntax"
)

// <deque>: std::deque<T> (C++17 [deque]) is modeled as a std::vector of
// its elements (lib_std.go), so size, empty, clear, resize, operator[],
// at, front, back, begin/end, iteration, push_back, pop_back and deep
// copies are the vector's, plus push_front, emplace_front and pop_front.
// The elements stay contiguous in one buffer object, but they need not
// start it: the header's data pointer may point past room at the front
// (vecObj, lib_vecalloc.go). pop_front moves the data pointer one element
// on (the element's bytes become room, uninitialized for the checker), and
// push_front uses the room before it; when there is none, the elements
// move to a new buffer with as much room in front as they take (at least
// one element), so n push_fronts cost O(n) time in all, and pop_front is
// O(1) (C++ [deque.modifiers]: constant time at either end). The room a
// queue's pop_fronts leave is given back when push_back next reallocates
// (the capacity counts from the data pointer), so memory stays linear in
// the size. Unlike a real deque's, a reallocation at either end moves the
// elements, so a reference kept across it is a use after free (C0404)
// naming the call; pop_front or pop_back of an empty deque is C0403
// (undefined in C++). BenchmarkDequeFront measures both ends.

// dequeType resolves std::deque<T>.
func (c *compiler) dequeType(te *syntax.TypeExpr) *Type {
	if len(te.TArgs) != 1 {
		c.errorf(te.Pos, "C0313", "std::deque needs its element type, std::deque<T> (an allocator argument is not modeled)")
		return tInt
	}
	elem := c.resolve(te.TArgs[0])
	if c.vectors == nil {
		c.vectors = map[string]*Type{}
	}
	key := "deque:" + typeKey(elem)
	if t := c.vectors[key]; t != nil {
		return t
	}
	if !elem.complete || elem.Kind == Void || elem.Kind == Array {
		c.errorf(te.Pos, "C0309", "std::deque<%s> is not modeled (elements are scalars, pointers, structs and std objects)", elem)
	}
	t := structOf("std::deque<"+elem.String()+">", "__data", ptrTo(elem), "__size", tULong, "__cap", tULong)
	t.std, t.stdElem = stdVector, elem
	c.vectors[key] = t
	return t
}

func isDeque(t *Type) bool {
	return t != nil && t.std == stdVector && strings.HasPrefix(t.Name, "std::deque<")
}

// dequeMethod compiles push_front, emplace_front and pop_front; ok is
// false for the others (the vector's).
func (c *compiler) dequeMethod(st *Type, m *syntax.Member, e *syntax.Call, recv func()) (*Type, bool) {
	pos := e.Pos
	switch m.Name {
	case "push_front", "emplace_front":
		if len(e.Args) != 1 {
			c.errorf(pos, "C0304", "std::deque::%s takes 1 argument, %d given", m.Name, len(e.Args))
			c.emit(OpConst, 0, 0, pos)
			return tVoid, true
		}
		recv()
		c.stdValuePtr(st, e.Args, pos)
		c.emit(OpConst, 0, int64(st.stdElem.size), pos)
		c.emit(OpConst, 0, int64(c.elemLayout(st)), pos)
		c.stdBuiltin("__deque_push_front", 4, pos)
		return tVoid, true
	case "pop_front":
		if len(e.Args) != 0 {
			c.errorf(pos, "C0304", "std::deque::pop_front takes no arguments, %d given", len(e.Args))
			c.emit(OpConst, 0, 0, pos)
			return tVoid, true
		}
		recv()
		c.emit(OpConst, 0, int64(st.stdElem.size), pos)
		c.stdBuiltin("__deque_pop_front", 2, pos)
		return tVoid, true
	}
	return nil, false
}

func initLibDeque() {
	builtinSigs["__deque_push_front"] = sig(tVoid, hostSide, tAny, tAny, tAny, tAny)
	builtinSigs["__deque_pop_front"] = sig(tVoid, hostSide, tAny, tAny)
	defb("__deque_push_front", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if !m.dequePushFront(t, a[0], a[1], int(a[2]), int(int64(a[3])), pos) {
			return 0, stFault
		}
		return ok(0)
	})
	defb("__deque_pop_front", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if !m.dequePopFront(t, a[0], int(a[1]), pos) {
			return 0, stFault
		}
		return ok(0)
	})
}

// dequePushFront inserts the element at src before the first of the
// deque at p.
func (m *Machine) dequePushFront(t *Thread, p, src uint64, es, layout int, pos int32) bool {
	data, size, capy, good := m.stdHdr(t, p, pos)
	if !good {
		return false
	}
	// the value first: src may be an element of this deque
	v, good := m.resolve(t, src, es, pos, false, false)
	if !good {
		return false
	}
	v = append([]byte(nil), v...)
	o := m.vecObj(data, size, es)
	var old *Object
	if o == nil || uint32(data) < uint32(es) {
		// no room in front: a new buffer with the elements' size of room
		var cur []byte
		switch {
		case o != nil:
			cur = o.Data[uint32(data):]
		case size > 0:
			if cur, good = m.resolve(t, data, int(size)*es, pos, false, false); !good {
				return false
			}
		}
		room := max(size, 1) * uint64(es)
		if room+uint64(len(cur)) >= 1<<31 {
			m.fault(t, pos, "C0403", "std::deque of %d elements exceeds the model's 2 GiB objects", size+1)
			return false
		}
		n := m.newObject(int(room)+len(cur), SpaceHost, "std buffer", pos)
		if m.failed {
			return false
		}
		n.Heap = true
		copy(n.Data[room:], cur)
		if n.init != nil {
			n.init.setRange(int(room), len(cur))
		}
		old, o, data, capy = o, n, ptrOf(n, int(room)), max(capy, size)
	}
	data -= uint64(es)
	off := int(uint32(data))
	copy(o.Data[off:off+es], v)
	if o.init != nil {
		o.init.setRange(off, es)
	}
	if !m.stdSetHdr(t, p, data, size+1, capy+1, pos) {
		return false
	}
	if layout >= 0 && !m.copyDeep(t, data, src, layout, pos) {
		return false
	}
	m.vecFree(old, "push_front", pos)
	return true
}

// dequePopFront removes the first element of the deque at p: the data
// pointer moves on, and the element's bytes become room.
func (m *Machine) dequePopFront(t *Thread, p uint64, es int, pos int32) bool {
	data, size, capy, good := m.stdHdr(t, p, pos)
	if !good {
		return false
	}
	if size == 0 {
		m.fault(t, pos, "C0403", "pop_front of an empty std::deque")
		return false
	}
	o := m.vecObj(data, size, es)
	if o == nil {
		// not a buffer of the model's own: move the others down
		cur, _, good := m.stdBytes(t, p, es, pos)
		if !good {
			return false
		}
		freed, good := m.vecResize(t, p, append([]byte(nil), cur[es:]...), size-1, es, pos)
		if !good {
			return false
		}
		m.vecFree(freed, "pop_front", pos)
		return true
	}
	if o.init != nil {
		// the popped element's bytes: reading them through a stale
		// pointer is a read of uninitialized memory
		off := int(uint32(data))
		for i := off; i < off+es; i++ {
			o.init[i>>6] &^= 1 << (i & 63)
		}
	}
	return m.stdSetHdr(t, p, data+uint64(es), size-1, capy-1, pos)
}
