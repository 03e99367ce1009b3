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
	c.implicitDtor(t, te)
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

// The implicit destructor ([class.dtor]p7-13): destroying an object runs
// its destructor's body, then its members' destructors in reverse order
// of declaration, then its bases'. A class without a destructor of its
// own whose members have one gets one (implicitDtor, declared like the
// program's, with an empty body), so every way an object ends (a block,
// delete, unwinding by an exception) runs the members' destructors;
// memberDtors is the part every destructor ends with, before baseDtor.

// implicitDtor declares the implicit destructor of file-scope class t
// when one of its own members needs destruction.
func (c *compiler) implicitDtor(t *Type, te *syntax.TypeExpr) {
	if t.tmpl != nil {
		return // a class template instance: after its members (implicitInstanceDtor)
	}
	c.implicitDtorOf(t, te)
}

// implicitInstanceDtor is implicitDtor for class template instance t,
// called once its member functions are declared.
func (c *compiler) implicitInstanceDtor(t *Type, te *syntax.TypeExpr) {
	if t.Kind == Struct && te != nil {
		c.implicitDtorOf(t, te)
	}
}

func (c *compiler) implicitDtorOf(t *Type, te *syntax.TypeExpr) {
	tag := tagOf(t)
	if tag == "" || c.tags[0][tag] != t || c.funcs[tag+"::~"+tag] != nil {
		return
	}
	host, device, need := true, true, false
	for f := range ownFields(t) {
		if dt := c.dtorOf(elemClass(f.Type)); dt != nil {
			need = true
			host, device = host && dt.Host, device && dt.Device
		}
	}
	if !need {
		return
	}
	for _, b := range t.bases {
		if dt := c.dtorOf(b); dt != nil {
			host, device = host && dt.Host, device && dt.Device
		}
	}
	name := tag + "::~" + tag
	fd := &syntax.FuncDecl{Pos: te.Pos, EndPos: te.Pos, Name: name, Recv: tag, Dtor: true, Body: &syntax.Block{Pos: te.Pos},
		Type: &syntax.TypeExpr{Kind: syntax.TFunc, Pos: te.Pos, Elem: &syntax.TypeExpr{Kind: syntax.TNamed, Name: "void", Pos: te.Pos}}}
	fn := &Function{Name: name, decl: fd, defined: true, Host: host, Device: device}
	fn.Type = c.resolve(fd.Type)
	fn.PosIdx = c.pos(fd.Pos)
	c.funcs[name] = fn
	c.prog.Funcs = append(c.prog.Funcs, fn)
}

// elemClass is t, or the element class of an array of them.
func elemClass(t *Type) *Type {
	for t.Kind == Array && t.Elem != nil {
		t = t.Elem
	}
	return t
}

// memberDtors destroys the own members of the object whose destructor
// is being compiled ("this" in slot 0), last declared first.
func (c *compiler) memberDtors(t *Type, pos diag.Pos) {
	own := ownFields(t)
	for i := len(t.Fields) - 1; i >= 0; i-- {
		f := t.Fields[i]
		if !own[f] {
			continue
		}
		et := elemClass(f.Type)
		dt := c.dtorOf(et)
		if dt == nil || et.Kind != Struct {
			continue
		}
		n := f.Type.size / max(et.size, 1)
		for k := n - 1; k >= 0; k-- {
			_, o := ownerOf(et, dt)
			c.checkCallSpace(dt, pos)
			c.emit(OpLocal, 0, 0, pos)
			c.adjustPtr(f.Offset+k*et.size+o, pos)
			c.emit(OpCall, int32(c.funcIndex(dt)), 1, pos)
			c.emit(OpPop, 0, 0, pos)
		}
	}
}
