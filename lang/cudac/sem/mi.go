package sem

import (
	"weft.dev/weft/diag"
	"weft.dev/weft/lang/cudac/syntax"
)

// Multiple inheritance (C++ [class.mi]), non-virtual bases. The bases'
// subobjects come first, in declaration order, each laid out as in its
// own class (its members copied into the derived class's list, the first
// aligned to the base's alignment and padding to the base's size after
// the last), then the class's own members. The first base is at offset 0,
// as under single inheritance; another base B is at baseOff, so:
//
//   - converting a D* to a B* (implicitly, by static_cast, binding a B&)
//     adds B's offset, and a null pointer stays null; static_cast back
//     subtracts it;
//   - a member function of B called on a D gets this + offset;
//   - every vptr in the object (the first base's, shared by the class, and
//     each other polymorphic base's) is set to the class by construction,
//     so a virtual call through a B* dispatches on the whole object: the
//     final overrider is found in the class and its bases, depth first in
//     declaration order, and gets this adjusted from the B subobject to
//     the class that defines it;
//   - a D thrown is caught by a handler for B with the adjusted address.
//
// Virtual inheritance (a base shared by several paths) is vbase.go's. A
// name that two bases declare is the first
// base's (C++ makes an unqualified use ambiguous).

// baseFields copies the members of the bases of t (te.Bases) into
// t.Fields and returns, per base, its first member (nil for a base
// without members), whose offset after layout is the base's.
func (c *compiler) baseFields(t *Type, te *syntax.TypeExpr) []*FieldInfo {
	t.base, t.bases = nil, nil
	bases := te.Bases
	if len(bases) == 0 && te.Base != "" {
		bases = []string{te.Base}
	}
	virtual := map[*Type]bool{}
	copied := map[*Type][]*FieldInfo{}
	var firsts []*FieldInfo
	for i, name := range bases {
		bt := c.tmap[name] // a template parameter
		if i < len(te.BaseTypes) && te.BaseTypes[i] != nil {
			bt = c.resolve(te.BaseTypes[i]) // a class template instance
		}
		if bt == nil {
			bt = c.lookupTag(name)
		}
		if bt == nil || !bt.complete || bt.Kind != Struct {
			c.errorf(te.Pos, "C0302", "base class %s is not a complete struct", name)
			continue
		}
		for _, b := range t.bases {
			if b == bt {
				c.errorf(te.Pos, "C0302", "base class %s given twice", name)
			}
		}
		if t.base == nil {
			t.base = bt
		}
		t.bases = append(t.bases, bt)
		isVirt := false
		for _, vb := range te.VirtualBase {
			isVirt = isVirt || vb == name
		}
		if isVirt {
			// laid out once, after the class's own members (vbase.go)
			virtual[bt] = true
			firsts = append(firsts, nil)
			continue
		}
		var first *FieldInfo
		end := 0
		size := nvSize(bt)
		for j, f := range nvFields(bt) {
			nf := *f
			if j == 0 {
				first = &nf
				if i > 0 && bt.align > nf.Align {
					nf.Align = bt.align // the subobject starts aligned as its class
				}
			}
			t.Fields = append(t.Fields, &nf)
			copied[bt] = append(copied[bt], &nf)
			end = f.Offset + f.Type.size
		}
		if i > 0 && len(copied[bt]) > 0 && end < size {
			// the base's tail padding stays its own (a copy of the base
			// subobject writes it)
			pad := &FieldInfo{Name: "__pad_" + tagOf(bt), Type: arrayOf(tChar, size-end)}
			t.Fields = append(t.Fields, pad)
			copied[bt] = append(copied[bt], pad)
		}
		firsts = append(firsts, first)
	}
	if len(virtual) > 0 || anyVB(t.bases) {
		vbPending.Store(t, &vbPend{virtual: virtual, copied: copied, firsts: firsts})
	}
	return firsts
}

// baseOffset is the offset of the subobject of class b in an object of
// class d (0 for d itself); ok is false when b is no base of d.
// In a class with virtual bases the offset is the one in a complete
// object of class d (vbase.go: a subobject's needs the object's slot).
func baseOffset(d, b *Type) (int, bool) {
	if off, ok := nvOffset(d, b); ok {
		return off, true
	}
	if vi := vbOf(d); vi != nil {
		for _, v := range vi.vbases {
			if off, ok := nvOffset(v, b); ok {
				return vbOff(d, v) + off, true
			}
		}
	}
	return 0, false
}

// ancestors lists the classes t derives from, directly or not.
func ancestors(t *Type) []*Type {
	var out []*Type
	var walk func(x *Type)
	walk = func(x *Type) {
		for _, b := range x.bases {
			out = append(out, b)
			walk(b)
		}
	}
	walk(t)
	return out
}

// adjustPtr adds off to the pointer on the stack, leaving null null.
func (c *compiler) adjustPtr(off int, pos diag.Pos) {
	if off == 0 {
		return
	}
	c.emit(OpDup, 0, 0, pos)
	skip := c.emit(OpJz, 0, 0, pos)
	c.emit(OpConst, 0, int64(off), pos)
	c.emit(OpPtrAdd, 1, 0, pos)
	c.patch(skip)
}

// upcastOff is the adjustment of a pointer to class from converted to
// one to class to: a base's offset (up), minus it (down), 0 otherwise.
func upcastOff(from, to *Type) int {
	if from == nil || to == nil || from.Kind != Struct || to.Kind != Struct || from == to {
		return 0
	}
	if off, ok := baseOffset(from, to); ok {
		return off
	}
	if off, ok := baseOffset(to, from); ok {
		return -off
	}
	return 0
}

// ownerOf is the class of t (or a base) whose member function fn is, and
// its offset in t.
func ownerOf(t *Type, fn *Function) (*Type, int) {
	if fn == nil || fn.decl == nil || t == nil {
		return t, 0
	}
	var found *Type
	var walk func(x *Type) bool
	walk = func(x *Type) bool {
		if tagOf(x) == fn.decl.Recv || x.tmpl != nil && x.Name == "struct "+fn.decl.Recv {
			found = x
			return true
		}
		for _, b := range x.bases {
			if walk(b) {
				return true
			}
		}
		return false
	}
	if !walk(t) {
		return t, 0
	}
	off, _ := baseOffset(t, found) // (in a complete object of class t)
	return found, off
}

// completeObject stores in a new slot the address of the complete object
// whose st subobject slot p points to (delete through a pointer to a base
// that is not first: the dynamic class, read from the vptr, gives the
// offset).
func (c *compiler) completeObject(st *Type, p int, pos diag.Pos) int {
	whole := c.newSlot()
	c.emit(OpLocal, int32(p), 0, pos)
	c.emit(OpSetLocal, int32(whole), 0, pos)
	c.emit(OpPop, 0, 0, pos)
	var cands []*Type
	for _, d := range st.subs {
		if off, ok := baseOffset(d, st); ok && off != 0 {
			cands = append(cands, d)
		}
	}
	if len(cands) == 0 {
		return whole
	}
	c.emit(OpLocal, int32(p), 0, pos)
	null := c.emit(OpJz, 0, 0, pos)
	c.emit(OpLocal, int32(p), 0, pos)
	c.vptrAddr(st, pos)
	c.emit(OpLoad, int32(memCode(tULong)), 0, pos)
	c.pushSide(pos)
	c.emit(OpXor, 0, 0, pos)
	var ends []int
	for _, d := range cands {
		off, _ := baseOffset(d, st)
		c.emit(OpDup, 0, 0, pos)
		c.emit(OpConst, 0, int64(vptrOf(d)), pos)
		c.emit(OpEq, 0, 0, pos)
		next := c.emit(OpJz, 0, 0, pos)
		c.emit(OpLocal, int32(p), 0, pos)
		c.emit(OpConst, 0, int64(-off), pos)
		c.emit(OpPtrAdd, 1, 0, pos)
		c.emit(OpSetLocal, int32(whole), 0, pos)
		c.emit(OpPop, 0, 0, pos)
		ends = append(ends, c.emit(OpJmp, 0, 0, pos))
		c.patch(next)
	}
	for _, at := range ends {
		c.patch(at)
	}
	c.emit(OpPop, 0, 0, pos)
	c.patch(null)
	return whole
}

// dynamicCast compiles dynamic_cast<T *>(p) and dynamic_cast<T &>(x)
// (C++ [expr.dynamic.cast]) on a polymorphic class: the object's class,
// read from its vptr, is T or derives from it, and the result is its T
// subobject (through the complete object, so a cast across from one base
// to another works); otherwise a null pointer, or for a reference a
// thrown std::bad_cast (C0309 without <exception>'s classes). T = void *
// gives the complete object. A cast to a base is a static conversion.
// dynRefForm is dynamic_cast<T &>(x) as *dynamic_cast<T *>(&x) whose
// failure throws (nil: e is no cast to a reference).
func dynRefForm(e *syntax.Cast) syntax.Expr {
	if !e.Dynamic || e.Type == nil || e.Type.Kind != syntax.TRef {
		return nil
	}
	pt := &syntax.TypeExpr{Kind: syntax.TPointer, Pos: e.Type.Pos, Elem: e.Type.Elem}
	inner := &syntax.Cast{Pos: e.Pos, Type: pt, X: &syntax.Unary{Pos: e.Pos, Op: "&", X: e.X}, Dynamic: true, ThrowNull: true}
	return &syntax.Unary{Pos: e.Pos, Op: "*", X: inner}
}

func (c *compiler) dynamicCast(e *syntax.Cast) *Type {
	if r := dynRefForm(e); r != nil {
		return c.expr(r)
	}
	pos := e.Pos
	to := c.resolve(e.Type)
	ref := e.ThrowNull
	var target, st *Type
	if to.Kind == Ptr {
		target = to.Elem
	}
	if xt := c.typeOf(e.X, true); xt.Kind == Ptr {
		st = xt.Elem
	}
	if target == nil || st == nil || st.Kind != Struct || (target.Kind != Struct && !(target.Kind == Void && !ref)) {
		c.errorf(pos, "C0302", "dynamic_cast to %s of %s: a pointer or reference to a class is needed", to, e.X)
		c.emit(OpConst, 0, 0, pos)
		return to
	}
	if target.Kind == Struct && derivesFrom(st, target) {
		// an up-cast: the static conversion
		vt := c.expr(e.X)
		c.convert(vt, to, pos)
		return to
	}
	if !st.poly {
		c.errorf(pos, "C0302", "dynamic_cast of %s, which is not a polymorphic class", st)
		c.emit(OpConst, 0, 0, pos)
		return to
	}
	p := c.newSlot()
	c.expr(e.X)
	c.emit(OpSetLocal, int32(p), 0, pos)
	c.emit(OpPop, 0, 0, pos)
	r := c.newSlot()
	c.emit(OpConst, 0, 0, pos)
	c.emit(OpSetLocal, int32(r), 0, pos)
	c.emit(OpPop, 0, 0, pos)
	c.emit(OpLocal, int32(p), 0, pos)
	null := c.emit(OpJz, 0, 0, pos)
	c.emit(OpLocal, int32(p), 0, pos)
	c.vptrAddr(st, pos)
	c.emit(OpLoad, int32(memCode(tULong)), 0, pos)
	c.pushSide(pos)
	c.emit(OpXor, 0, 0, pos)
	var ends []int
	for _, d := range append([]*Type{st}, st.subs...) {
		tOff := 0
		if target.Kind == Struct {
			off, ok := baseOffset(d, target)
			if !ok {
				continue
			}
			tOff = off
		}
		sOff, _ := baseOffset(d, st)
		c.emit(OpDup, 0, 0, pos)
		c.emit(OpConst, 0, int64(vptrOf(d)), pos)
		c.emit(OpEq, 0, 0, pos)
		next := c.emit(OpJz, 0, 0, pos)
		c.emit(OpLocal, int32(p), 0, pos)
		if tOff-sOff != 0 {
			c.emit(OpConst, 0, int64(tOff-sOff), pos)
			c.emit(OpPtrAdd, 1, 0, pos)
		}
		c.emit(OpSetLocal, int32(r), 0, pos)
		c.emit(OpPop, 0, 0, pos)
		ends = append(ends, c.emit(OpJmp, 0, 0, pos))
		c.patch(next)
	}
	for _, at := range ends {
		c.patch(at)
	}
	c.emit(OpPop, 0, 0, pos)
	c.patch(null)
	if ref {
		// a failed cast to a reference throws std::bad_cast
		c.emit(OpLocal, int32(r), 0, pos)
		ok := c.emit(OpJnz, 0, 0, pos)
		if bc := c.lookupTag("bad_cast"); bc != nil && bc.complete {
			c.throwExpr(&syntax.Throw{Pos: pos, X: &syntax.Cast{Pos: pos, Type: &syntax.TypeExpr{Kind: syntax.TNamed, Name: "bad_cast", Pos: pos}}})
			c.emit(OpPop, 0, 0, pos)
		} else {
			c.emit(OpTrap, int32(c.message("dynamic_cast to a reference failed: std::bad_cast is thrown, and <exception>'s classes are not declared to catch it")), 0, pos)
		}
		c.patch(ok)
	}
	c.emit(OpLocal, int32(r), 0, pos)
	return to
}
