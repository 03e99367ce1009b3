package sem

import (
	"weft.dev/weft/diag"
	"weft.dev/weft/lang/cudac/syntax"
)

// Range construction and assignment of std::vector and std::string from
// a pair of iterators or pointers (C++ [sequence.reqmts]: X(i, j) and
// a.assign(i, j) hold copies of [i, j)): "std::vector<int> w(v.begin(),
// v.end())", "std::string t(s.begin() + 1, s.end())", "w.assign(a, a +
// n)". The model's iterators are pointers to contiguous elements (iter.go),
// so the range is one object's bytes from i to j, read as the program's
// reads (race-checked, initialized bytes). Elements of the source type
// equal to the container's are copied as bytes; a range whose element
// type differs (an int range into a vector<float>) or whose elements hold
// std objects is copied element by element, each converted or
// copy-constructed as push_back does it (C++ [sequence.reqmts]: X(i, j)
// is EmplaceConstructible from *i); an element type that does not
// convert is C0302 at the call.

// isRangePair reports whether args are two pointers or iterators to
// elements of one type (the range form, not (count, value)).
func (c *compiler) isRangePair(args []syntax.Expr) bool {
	if len(args) != 2 {
		return false
	}
	a, b := c.typeOf(args[0], true), c.typeOf(args[1], true)
	return a != nil && b != nil && a.Kind == Ptr && b.Kind == Ptr && a.Elem != nil && b.Elem != nil && sameType(a.Elem, b.Elem)
}

// stdRange compiles the range form for container t whose address is on
// the stack (kept): its contents become a copy of [args[0], args[1]).
func (c *compiler) stdRange(t *Type, args []syntax.Expr, pos diag.Pos) {
	et := c.typeOf(args[0], true).Elem
	if !sameType(et, t.stdElem) || hasStd(et) {
		if !rangeConverts(et, t.stdElem) {
			c.errorf(pos, "C0302", "%s from a range of %s: the elements do not convert to %s", t, et, t.stdElem)
			return
		}
		c.rangeByElement(t, args, pos)
		return
	}
	c.emit(OpDup, 0, 0, pos)
	for _, a := range args {
		c.expr(a)
	}
	c.emit(OpConst, 0, int64(t.stdElem.size), pos)
	c.emit(OpConst, 0, int64(t.std), pos)
	c.stdBuiltin("__vec_range", 5, pos)
	c.emit(OpPop, 0, 0, pos)
}

// rangeConverts reports whether an element of type from initializes one
// of type to: arithmetic to arithmetic (a conversion), or the same type.
func rangeConverts(from, to *Type) bool {
	return from.isArith() && to.isArith() || sameType(from, to)
}

// rangeByElement compiles the range form as its definition states it:
// the container (address on the stack, kept) is cleared, then each
// element of [first, last) is appended in order, converted to the
// element type (or copied with its std members).
func (c *compiler) rangeByElement(t *Type, args []syntax.Expr, pos diag.Pos) {
	c.push()
	defer c.pop()
	hidden := func(name string, s *sym) *syntax.Name {
		c.declare(name, s)
		return &syntax.Name{Pos: pos, Name: name}
	}
	c.emit(OpDup, 0, 0, pos)
	ds := c.newSlot()
	c.emit(OpSetLocal, int32(ds), 0, pos)
	c.emit(OpPop, 0, 0, pos)
	dst := hidden("__weft_range_dst", &sym{kind: symRef, t: t, slot: ds})
	var ends [2]*syntax.Name
	for i, a := range args {
		at := c.expr(a)
		s := c.newSlot()
		c.emit(OpSetLocal, int32(s), 0, pos)
		c.emit(OpPop, 0, 0, pos)
		ends[i] = hidden([2]string{"__weft_range_first", "__weft_range_last"}[i], &sym{kind: symSlot, t: at, slot: s})
	}
	method := func(name string, args ...syntax.Expr) syntax.Stmt {
		return &syntax.ExprStmt{Pos: pos, X: &syntax.Call{Pos: pos, Fun: &syntax.Member{Pos: pos, X: dst, Name: name}, Args: args, RParen: pos}}
	}
	c.stmt(method("clear"))
	if t.std == stdVector {
		// libstdc++ allocates a forward range's size at once: the
		// capacity is what a byte copy would give (lib_vecalloc.go)
		c.stmt(method("reserve", &syntax.Binary{Pos: pos, Op: "-", X: ends[1], Y: ends[0]}))
	}
	c.stmt(&syntax.ForStmt{Pos: pos,
		Cond: &syntax.Binary{Pos: pos, Op: "!=", X: ends[0], Y: ends[1]},
		Post: &syntax.Unary{Pos: pos, Op: "++", X: ends[0]},
		Body: method("push_back", &syntax.Unary{Pos: pos, Op: "*", X: ends[0]}),
	})
}

func initLibVecrange() {
	defb("__vec_range", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		first, last, es := a[1], a[2], uint64(a[3])
		if first>>32 != last>>32 || uint32(last) < uint32(first) || (uint64(uint32(last))-uint64(uint32(first)))%es != 0 {
			m.fault(t, pos, "C0402", "the iterators of a range do not delimit one sequence (first 0x%x, last 0x%x)", first, last)
			return 0, stFault
		}
		nb := uint64(uint32(last)) - uint64(uint32(first))
		n := nb / es
		var src []byte
		if nb > 0 {
			b, good := m.resolve(t, first, int(nb), pos, false, false)
			if !good {
				return 0, stFault
			}
			src = b
		}
		buf := append([]byte(nil), src...)
		if a[4] == stdString {
			if !m.stdSetBytes(t, a[0], buf, n, int(es), true, pos) {
				return 0, stFault
			}
			return ok(0)
		}
		freed, good := m.vecResize(t, a[0], buf, n, int(es), pos) // lib_vecalloc.go
		if !good {
			return 0, stFault
		}
		m.vecFree(freed, "assign", pos)
		return ok(0)
	})
}
