package sem

import (
	"strings"

	"weft.dev/weft/lang/cudac/syntax"
)

// <deque>: std::deque<T> (C++17 [deque]) is modeled as a std::vector of
// its elements (lib_std.go), so size, empty, clear, resize, operator[],
// at, front, back, begin/end, iteration, push_back, pop_back and deep
// copies are the vector's, plus push_front and emplace_front (the new
// element is appended, then the elements rotate one place, each moving
// as its bytes) and pop_front (the others move one place down). The
// elements stay contiguous, so, unlike a real deque, push_front and
// pop_front take time linear in the size and an insertion at either end
// moves the elements: a reference kept across one sees the element now
// at its place (a real deque keeps references valid for insertions at
// the ends). pop_front or pop_back of an empty deque is C0403 (undefined
// in C++).

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

func init() {
	builtinSigs["__deque_push_front"] = sig(tVoid, hostSide, tAny, tAny, tAny, tAny)
	builtinSigs["__deque_pop_front"] = sig(tVoid, hostSide, tAny, tAny)
	defb("__deque_push_front", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		es := int(a[2])
		if !m.vecPush(t, a[0], a[1], es, int(int64(a[3])), pos) {
			return 0, stFault
		}
		cur, size, good := m.stdBytes(t, a[0], es, pos)
		if !good {
			return 0, stFault
		}
		// the new last element first: a rotation of the bytes
		buf := make([]byte, 0, len(cur))
		buf = append(buf, cur[len(cur)-es:]...)
		buf = append(buf, cur[:len(cur)-es]...)
		if _, good := m.vecResize(t, a[0], buf, size, es, pos); !good {
			return 0, stFault
		}
		return ok(0)
	})
	defb("__deque_pop_front", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		es := int(a[1])
		cur, size, good := m.stdBytes(t, a[0], es, pos)
		if !good {
			return 0, stFault
		}
		if size == 0 {
			m.fault(t, pos, "C0403", "pop_front of an empty std::deque")
			return 0, stFault
		}
		freed, good := m.vecResize(t, a[0], append([]byte(nil), cur[es:]...), size-1, es, pos)
		if !good {
			return 0, stFault
		}
		m.vecFree(freed, "pop_front", pos)
		return ok(0)
	})
}
