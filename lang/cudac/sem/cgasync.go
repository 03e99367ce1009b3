package sem

import "weft.dev/weft/lang/cudac/syntax"

// <cooperative_groups/memcpy_async.h> (CUDA Programming Guide,
// "memcpy_async" and "wait and wait_prior" of cooperative groups):
// cg::memcpy_async(group, dst, src, bytes) is a copy the whole group
// issues and whose writes become visible to the group at cg::wait(group)
// (every copy this thread's group issued) or cg::wait_prior<N>(group)
// (all but the N most recent). The model reuses cp.async's (asm.go): the
// group's thread of rank 0 reads the source when the copy is issued and
// writes the destination when its wait completes it, and the wait then
// synchronizes the group, so the group's reads after the wait see the
// bytes. A thread that reads the destination before the wait races with
// that write (reported), except the rank-0 thread itself, which sees the
// old bytes, as a cp.async's issuer does; a write of the source by
// another thread before the copy is issued races with its read. A
// source out of bounds is C0403 where the copy is issued, a destination
// where it completes (reported at the memcpy_async). cuda::aligned_size_t<N>(n) is the size n.

// cgAsyncCall compiles memcpy_async, wait and wait_prior; ok is false for
// another name.
func (c *compiler) cgAsyncCall(name string, e *syntax.Call) (*Type, bool) {
	pos := e.Pos
	switch name {
	case "__cg_memcpy_async":
		if len(e.Args) != 4 {
			c.errorf(pos, "C0304", "memcpy_async takes a group, a destination, a source and a size (the forms with element counts are not modeled)")
			c.emit(OpConst, 0, 0, pos)
			return tVoid, true
		}
		g := e.Args[0]
		gt := c.typeOf(g, false)
		if gt.cg == 0 {
			c.errorf(syntax.PosOf(g), "C0302", "memcpy_async needs a cooperative group, not %s", gt)
			c.emit(OpConst, 0, 0, pos)
			return tVoid, true
		}
		// rank 0 issues the copy for the group
		c.cgMethod(gt, &syntax.Member{Pos: pos, X: g, Name: "thread_rank"}, &syntax.Call{Pos: pos, RParen: e.RParen})
		skip := c.emit(OpJnz, 0, 0, pos)
		for i, a := range e.Args[1:] {
			at := c.expr(a)
			if i < 2 {
				if at.Kind != Ptr {
					c.errorf(syntax.PosOf(a), "C0302", "memcpy_async: %s is not a pointer", at)
				}
				continue
			}
			c.convert(at, tULong, syntax.PosOf(a))
		}
		c.emit(OpBuiltin, c.builtinIndexOf("__cg_memcpy_async", pos), 3, pos)
		c.emit(OpPop, 0, 0, pos)
		c.patch(skip)
		c.emit(OpConst, 0, 0, pos)
		return tVoid, true
	case "__cg_wait", "__cg_wait_prior":
		if len(e.Args) != 1 {
			c.errorf(pos, "C0304", "%s takes one group", name[5:])
			c.emit(OpConst, 0, 0, pos)
			return tVoid, true
		}
		keep := int64(0)
		if name == "__cg_wait_prior" {
			if len(e.TArgExpr) != 1 || e.TArgExpr[0] == nil {
				c.errorf(pos, "C0313", "wait_prior needs the number of copies it may leave pending: wait_prior<N>(group)")
			} else if v, ok := c.constExpr(e.TArgExpr[0]); ok && v >= 0 {
				keep = v
			} else {
				c.errorf(pos, "C0313", "wait_prior<N>: N must be a constant of at least 0")
			}
		}
		gt := c.typeOf(e.Args[0], false)
		c.emit(OpConst, 0, keep, pos)
		c.emit(OpBuiltin, c.builtinIndexOf("__cg_async_wait", pos), 1, pos)
		c.emit(OpPop, 0, 0, pos)
		return c.cgMethod(gt, &syntax.Member{Pos: pos, X: e.Args[0], Name: "sync"}, &syntax.Call{Pos: pos, RParen: e.RParen}), true
	}
	return nil, false
}

func initCgasync() {
	builtinSigs["__cg_memcpy_async"] = sig(tVoid, deviceSide, tAny, tAny, tAny)
	builtinSigs["__cg_async_wait"] = sig(tVoid, deviceSide, tAny)
	defb("__cg_memcpy_async", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		dst, src, n := a[0], a[1], a[2]
		if n >= 1<<31 {
			m.fault(t, pos, "C0403", "memcpy_async of %d bytes exceeds the model's 2 GiB objects", n)
			return 0, stFault
		}
		data := make([]byte, n)
		if n > 0 {
			b, good := m.resolve(t, src, int(n), pos, false, false)
			if !good {
				return 0, stFault
			}
			copy(data, b)
		}
		t.cpGroups = append(t.cpGroups, []cpCopy{{dst, data, pos}})
		return ok(0)
	})
	defb("__cg_async_wait", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if !m.cpComplete(t, len(t.cpGroups)-int(a[0]), pos) {
			return 0, stFault
		}
		return ok(0)
	})
}
