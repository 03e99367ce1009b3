package sem

import (
	"sync"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/cudac/syntax"
)

// The implicit default constructor (C++ [class.default.ctor],
// [class.base.init]p9): a class without constructors whose bases or
// members have them still constructs them, bases first (on their
// subobjects), then the members in declaration order, so `struct D : B
// { M m; }; D d;` runs B() and M(). classSetup records such classes
// (implicitCtor) and the class's own members (ownFieldsOf), and
// memberDefaults (cxx17.go), which every creation of an object of a class
// without constructors runs, does the work; in a constructor,
// memberInits constructs the members it does not name the same way.

var (
	implicitCtor sync.Map // *Type -> true: bases or members to construct
	ownFieldsOf  sync.Map // *Type -> map[*FieldInfo]bool: the class's own members
)

// noteImplicit records what classSetup knows of struct t (defined by
// te) for implicit construction.
func (c *compiler) noteImplicit(t *Type, te *syntax.TypeExpr) {
	own := map[*FieldInfo]bool{}
	// the own members follow the bases' in t.Fields; match them by name
	// from the end of the non-virtual part
	nv := nvFields(t)
	for _, sf := range te.Fields {
		if sf.Name == "" {
			continue
		}
		for i := len(nv) - 1; i >= 0; i-- {
			if nv[i].Name == sf.Name {
				own[nv[i]] = true
				break
			}
		}
	}
	ownFieldsOf.Store(t, own)
	needs := false
	for _, b := range t.bases {
		needs = needs || c.needsConstruction(b)
	}
	for f := range own {
		et := f.Type
		for et.Kind == Array && et.Elem != nil {
			et = et.Elem
		}
		needs = needs || c.needsConstruction(et)
	}
	if needs {
		implicitCtor.Store(t, true)
	}
}

// needsConstruction reports whether creating an object of type t runs
// code: a constructor of its own, or an implicit one with work to do.
func (c *compiler) needsConstruction(t *Type) bool {
	if t == nil || t.Kind != Struct || t.std != 0 || t.vec != nil || t.cg != 0 {
		return false
	}
	if c.ctorOf(t, 0) != nil || c.ctorOf(t, -1) != nil {
		return true
	}
	_, ok := implicitCtor.Load(t)
	return ok
}

// ownFields is the set of t's own members (nil: not recorded).
func ownFields(t *Type) map[*FieldInfo]bool {
	if v, ok := ownFieldsOf.Load(t); ok {
		return v.(map[*FieldInfo]bool)
	}
	return nil
}

// implicitBases constructs the bases of the object of class t whose
// address is on the stack (kept), as t's implicit constructor does: the
// virtual bases first when the object is complete, then the others.
func (c *compiler) implicitBases(t *Type, pos diag.Pos, complete bool) {
	if vi := vbOf(t); vi != nil && complete {
		for _, v := range vi.vbases {
			c.emit(OpDup, 0, 0, pos)
			c.adjustPtr(vbOff(t, v), pos)
			c.constructAt(v, pos, false)
			c.emit(OpPop, 0, 0, pos)
		}
	}
	for i, b := range t.bases {
		if isVirtualBase(t, b) || i >= len(t.baseOff) {
			continue
		}
		c.emit(OpDup, 0, 0, pos)
		c.adjustPtr(t.baseOff[i], pos)
		c.constructAt(b, pos, false)
		c.emit(OpPop, 0, 0, pos)
	}
}

// constructAt default-constructs the object of class t whose address is
// on the stack (kept): its default constructor (the base-subobject
// variant unless complete), else its implicit one.
func (c *compiler) constructAt(t *Type, pos diag.Pos, complete bool) {
	if c.ctorOf(t, -1) != nil {
		ctor := c.ctorFor(t, 0, pos)
		if ctor == nil {
			return // (C0304: no default constructor)
		}
		if !complete {
			ctor = c.baseVariant(ctor)
		}
		c.emit(OpDup, 0, 0, pos)
		c.construct(ctor, nil, pos)
		return
	}
	c.memberDefaultsAt(t, nil, pos, complete)
}

// constructMember constructs member f of the object whose address is on
// the stack (kept) when its class (or its array's element class) needs
// construction; false when it does not.
func (c *compiler) constructMember(f *FieldInfo, pos diag.Pos) bool {
	et, n := f.Type, 1
	for et.Kind == Array && et.Elem != nil {
		n *= et.size / max(et.Elem.size, 1)
		et = et.Elem
	}
	if !c.needsConstruction(et) {
		return false
	}
	for i := 0; i < n; i++ {
		c.emit(OpDup, 0, 0, pos)
		c.adjustPtr(f.Offset+i*et.size, pos)
		c.constructAt(et, pos, true)
		c.emit(OpPop, 0, 0, pos)
	}
	return true
}
