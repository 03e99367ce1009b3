package sem

import (
	"weft.dev/weft/diag"
	"weft.dev/weft/lang/cudac/syntax"
)

// Virtual functions (C++ [class.virtual], [class.abstract], [class.dtor];
// issue 15 item 1). A polymorphic class (one that declares or inherits a
// virtual member function) starts with a hidden 8-byte field, the vptr,
// which construction sets to the identity of the object's dynamic class:
// a constructor stores its class's value after its base constructor ran
// (so a base constructor sees the base, as in C++), and an object of a
// class without constructors gets it where it is created. A virtual call
// loads the vptr (a checked read: an object never constructed is an
// uninitialized read, a null pointer a null dereference), selects the
// final overrider among the classes derived from the static type (all
// known when bodies are compiled, since the file's declarations come
// first), and calls it through a function pointer. A pure virtual
// function, or memory that holds no object of a derived class, selects
// no function: the call faults as a call through an invalid function
// pointer. delete runs the destructor (virtually when it is virtual), the
// destructors of the bases after it, then frees.

// vptrTag marks vptr values, so that a stray integer is not a class.
const vptrTag = 0xc1a5 << 48

func vptrOf(t *Type) uint64 { return vptrTag | uint64(t.id) }

// classSetup records the virtual functions of struct t defined by te and
// lays out its vptr; it runs after the base's fields were copied.
func (c *compiler) classSetup(t *Type, te *syntax.TypeExpr) {
	nFirst, hasVB := c.vbSetup(t) // virtual bases (vbase.go)
	defer c.noteImplicit(t, te)   // implicit.go
	b := t.base
	if b != nil && (!b.poly || isVirtualBase(t, b)) {
		b = nil // (a virtual base is not at offset 0: the class has its own vptr)
	}
	virt := map[string]bool{}
	pure := map[string]bool{}
	for _, x := range t.bases {
		// every polymorphic base's virtual functions (mi.go)
		for k := range x.virt {
			virt[k] = true
		}
		for k := range x.pure {
			pure[k] = true
		}
	}
	if hasVB {
		// one shared subobject: an overrider on one path overrides the
		// pure function for all ([class.virtual]p2, dominance)
		for _, x := range t.bases {
			for k := range x.virt {
				if !x.pure[k] && c.overrider(x, k) != nil {
					delete(pure, k)
				}
			}
		}
	}
	norm := func(m string) string {
		if len(m) > 0 && m[0] == '~' {
			return "~" // destructors override each other
		}
		return m
	}
	for _, m := range te.Virtuals {
		virt[norm(m)] = true
	}
	for _, m := range te.Methods {
		m = norm(m)
		delete(pure, m)
	}
	for _, m := range te.Pure {
		pure[norm(m)] = true
	}
	if len(virt) == 0 {
		return
	}
	t.poly, t.virt, t.pure = true, virt, pure
	if t.id == 0 {
		c.classes++
		t.id = c.classes
	}
	if b == nil {
		// the vptr comes first, before any member (and is not one); after
		// a base that is not polymorphic, so that the base subobject
		// stays at offset 0 and a pointer to the class is one to its base
		n := 0
		if hasVB {
			n = nFirst
		} else if t.base != nil {
			n = len(t.base.Fields)
		}
		fs := append([]*FieldInfo{}, t.Fields[:n]...)
		fs = append(fs, &FieldInfo{Name: "__vptr", Type: tULong})
		t.Fields = append(fs, t.Fields[n:]...)
	}
	for _, a := range ancestors(t) {
		found := false
		for _, s := range a.subs {
			found = found || s == t
		}
		if !found {
			a.subs = append(a.subs, t)
		}
	}
}

// stampVptr stores t's vptr into the object whose address is on the
// stack (kept). The vptr also records the side that constructed the
// object (bit 32: the device), because host and device code have
// different virtual function tables in CUDA: calling a virtual function
// of an object constructed on the other side is undefined, and reported.
func (c *compiler) stampVptr(t *Type, pos diag.Pos) {
	vi := vbOf(t)
	base := c.inBaseVariant(t)
	if vi != nil && !base {
		c.stampSlots(t, pos) // a complete object's slots (vbase.go)
	}
	if !t.poly {
		return
	}
	for _, f := range t.Fields {
		// the class's vptr and those of the polymorphic bases that are
		// not first (mi.go): the object is of class t through each
		if f.Name != "__vptr" {
			continue
		}
		if base && vi.part[f] != nil {
			continue // a virtual base's, whose place the complete object knows
		}
		c.emit(OpDup, 0, 0, pos)
		if f.Offset != 0 {
			c.emit(OpConst, 0, int64(f.Offset), pos)
			c.emit(OpPtrAdd, 1, 0, pos)
		}
		c.emit(OpConst, 0, int64(vptrOf(t)), pos)
		c.pushSide(pos)
		c.emit(OpOr, 0, 0, pos)
		c.emit(OpStore, int32(memCode(tULong)), 0, pos)
		c.emit(OpPop, 0, 0, pos)
	}
}

// pushSide pushes 1<<32 in device code and 0 in host code (blockDim.x is
// 0 for the host thread).
func (c *compiler) pushSide(pos diag.Pos) {
	c.emit(OpSReg, srBdimX, 0, pos)
	c.emit(OpConst, 0, 0, pos)
	c.emit(OpNe, 0, 0, pos)
	c.emit(OpConst, 0, 32, pos)
	c.emit(OpShl, 0, 0, pos)
}

// vptrAddr turns the object address on the stack into its vptr's.
func (c *compiler) vptrAddr(t *Type, pos diag.Pos) {
	if f := t.field("__vptr"); f != nil && f.Offset != 0 {
		c.emit(OpConst, 0, int64(f.Offset), pos)
		c.emit(OpPtrAdd, 1, 0, pos)
	}
}

// overrider is the function a call of virtual name runs on an object of
// dynamic class d: the nearest definition from d up its bases.
func (c *compiler) overrider(d *Type, name string) *Function {
	if name == "~" {
		return c.dtorOf(d)
	}
	return c.methodOf(d, tagOf(d), name)
}

// dtorOf is the nearest user-declared destructor from t up its bases.
func (c *compiler) dtorOf(t *Type) *Function {
	if t == nil {
		return nil
	}
	tag := tagOf(t)
	if fn := c.funcs[tag+"::~"+tag]; fn != nil {
		return fn
	}
	bases := t.bases
	if len(bases) == 0 && t.base != nil {
		bases = []*Type{t.base}
	}
	for _, b := range bases {
		// depth first, in declaration order (multiple inheritance, mi.go)
		if fn := c.dtorOf(b); fn != nil {
			return fn
		}
	}
	return nil
}

// virtualSig is a function with the signature of virtual name of st: a
// definition in st, a base or a derived class, or a pure declaration.
func (c *compiler) virtualSig(st *Type, name string) *Function {
	if fn := c.overrider(st, name); fn != nil {
		return fn
	}
	for t := st; t != nil; t = t.base {
		if d := c.protos[tagOf(t)+"::"+name]; d != nil && d.Type != nil && d.Type.Kind == syntax.TFunc {
			return &Function{Name: tagOf(t) + "::" + name, Type: c.resolve(d.Type), Host: true, Device: true}
		}
	}
	for _, s := range st.subs {
		if fn := c.overrider(s, name); fn != nil {
			return fn
		}
	}
	return nil
}

// pushOverrider pushes the function pointer of the overrider of virtual
// name for the object whose address is in slot obj.
func (c *compiler) pushOverrider(st *Type, name string, obj int, pos diag.Pos) {
	c.emit(OpLocal, int32(obj), 0, pos)
	c.vptrAddr(st, pos)
	c.emit(OpLoad, int32(memCode(tULong)), 0, pos)
	c.pushSide(pos)
	c.emit(OpXor, 0, 0, pos) // this side's classes compare equal
	var ends []int
	for _, d := range append([]*Type{st}, st.subs...) {
		fn := c.overrider(d, name)
		if fn == nil || d.pure[name] {
			continue
		}
		c.emit(OpDup, 0, 0, pos)
		c.emit(OpConst, 0, int64(vptrOf(d)), pos)
		c.emit(OpEq, 0, 0, pos)
		next := c.emit(OpJz, 0, 0, pos)
		c.emit(OpPop, 0, 0, pos)
		// this, from the st subobject to that of the overrider's class
		// (multiple inheritance, mi.go)
		stOff, _ := baseOffset(d, st)
		_, fnOff := ownerOf(d, fn)
		if delta := fnOff - stOff; delta != 0 {
			c.emit(OpLocal, int32(obj), 0, pos)
			c.emit(OpConst, 0, int64(delta), pos)
			c.emit(OpPtrAdd, 1, 0, pos)
			c.emit(OpSetLocal, int32(obj), 0, pos)
			c.emit(OpPop, 0, 0, pos)
		}
		c.emit(OpConst, 0, int64(c.fnPtr(fn)), pos)
		ends = append(ends, c.emit(OpJmp, 0, 0, pos))
		c.patch(next)
	}
	// no class of the hierarchy (or one constructed on the other side):
	// the call faults, saying which (lib_virtual in this file)
	c.emit(OpConst, 0, int64(c.message(st.String())), pos)
	c.emit(OpConst, 0, int64(c.message(name)), pos)
	c.emit(OpBuiltin, c.builtinIndexOf("__weft_bad_virtual", pos), 3, pos)
	for _, at := range ends {
		c.patch(at)
	}
}

// virtualCall compiles a call of virtual member function name on recv
// (a pointer to the object when arrow), whose static type is st.
func (c *compiler) virtualCall(st *Type, name string, recv syntax.Expr, arrow bool, e *syntax.Call) *Type {
	pos := e.Pos
	raw := c.rawRef
	c.rawRef = false
	sig := c.virtualSig(st, name)
	if sig == nil {
		c.errorf(pos, "C0306", "no member function %s in %s", name, st)
		c.emit(OpConst, 0, 0, pos)
		return tInt
	}
	if arrow {
		c.expr(recv)
	} else if lv := c.lvalue(recv); lv.slot >= 0 {
		c.errorf(pos, "C0303", "member function call on a value that is not an object")
	} else if c.freshObject(recv) {
		// makeD(3).get(): this is a temporary (temps.go), as in methodCall
		c.materialized(lv.t, recv, pos)
	}
	obj := c.newSlot()
	c.emit(OpSetLocal, int32(obj), 0, pos)
	c.emit(OpPop, 0, 0, pos)
	c.pushOverrider(st, name, obj, pos)
	c.emit(OpLocal, int32(obj), 0, pos)
	n := c.args(sig, e)
	c.emit(OpCallInd, 0, int64(n+1), pos)
	return c.result(sig.Type.Elem, raw, pos)
}

// isVirtual reports whether a call of member name on an object of static
// type st dispatches on its dynamic class.
func isVirtual(st *Type, name string) bool { return st != nil && st.poly && st.virt[name] }

// newExpr compiles new T, new T(args) and new T{args}.
func (c *compiler) newExpr(e *syntax.New) *Type {
	pos := e.Pos
	pt := c.expr(e.Alloc)
	t := pt.Elem
	if t == nil {
		return pt
	}
	if t.Kind == Struct && t.std == 0 {
		if t.pure != nil && len(t.pure) > 0 {
			c.errorf(pos, "C0302", "cannot create an object of abstract class %s (pure virtual %s)", t, firstKey(t.pure))
		}
		c.stampVptr(t, pos)
		if c.ctorOf(t, -1) != nil {
			if ctor := c.ctorForArgs(t, e.Args, pos); ctor != nil {
				c.emit(OpDup, 0, 0, pos)
				c.construct(ctor, e.Args, pos)
			}
			return pt
		}
		if !e.HasInit {
			c.memberDefaults(t, nil, pos)
			return pt
		}
		c.emit(OpDup, 0, 0, pos)
		c.initFrom(t, &syntax.InitList{Pos: pos, Elems: initElems(e.Args)})
		c.emit(OpPop, 0, 0, pos)
		c.stampVptr(t, pos) // the list zeroed the object first
		return pt
	}
	if !e.HasInit {
		return pt
	}
	c.emit(OpDup, 0, 0, pos)
	switch len(e.Args) {
	case 0:
		c.emit(OpMemzero, 0, int64(t.size), pos)
	case 1:
		c.initFrom(t, e.Args[0])
	default:
		c.errorf(pos, "C0304", "new %s takes one initializer, %d given", t, len(e.Args))
	}
	c.emit(OpPop, 0, 0, pos)
	return pt
}

func initElems(args []syntax.Expr) []*syntax.InitElem {
	var out []*syntax.InitElem
	for _, a := range args {
		out = append(out, &syntax.InitElem{X: a})
	}
	return out
}

func firstKey(m map[string]bool) string {
	ks := sortedKeys(m)
	if len(ks) == 0 {
		return ""
	}
	return ks[0]
}

// deleteExpr compiles delete p: the destructor when the class has one,
// then free(p).
func (c *compiler) deleteExpr(e *syntax.Delete) *Type {
	pos := e.Pos
	pt := c.expr(e.X)
	p := c.newSlot()
	c.emit(OpSetLocal, int32(p), 0, pos)
	c.emit(OpPop, 0, 0, pos)
	orig := p
	if pt.Kind == Ptr && pt.Elem != nil && pt.Elem.Kind == Struct && !e.Array {
		st := pt.Elem
		if isVirtual(st, "~") {
			// the dispatch adjusts its slot to the destructor's subobject;
			// the free needs the original (then the complete object)
			p = c.newSlot()
			c.emit(OpLocal, int32(orig), 0, pos)
			c.emit(OpSetLocal, int32(p), 0, pos)
			c.emit(OpPop, 0, 0, pos)
			c.emit(OpLocal, int32(p), 0, pos)
			skip := c.emit(OpJz, 0, 0, pos)
			c.pushOverrider(st, "~", p, pos)
			c.emit(OpLocal, int32(p), 0, pos)
			c.emit(OpCallInd, 0, 1, pos)
			c.emit(OpPop, 0, 0, pos)
			c.patch(skip)
		} else if dt := c.dtorOf(st); dt != nil {
			c.emit(OpLocal, int32(p), 0, pos)
			skip := c.emit(OpJz, 0, 0, pos)
			c.checkCallSpace(dt, pos)
			c.emit(OpLocal, int32(p), 0, pos)
			c.emit(OpCall, int32(c.funcIndex(dt)), 1, pos)
			c.emit(OpPop, 0, 0, pos)
			c.patch(skip)
		}
	}
	p = orig
	if pt.Kind == Ptr && pt.Elem != nil && pt.Elem.Kind == Struct && !e.Array && isVirtual(pt.Elem, "~") {
		p = c.completeObject(pt.Elem, p, pos) // mi.go
	}
	c.push()
	c.declare("__deleted", &sym{kind: symSlot, t: pt, slot: p})
	c.expr(&syntax.Call{Pos: pos, Fun: &syntax.Name{Pos: pos, Name: "free"}, Args: []syntax.Expr{&syntax.Name{Pos: pos, Name: "__deleted"}}, RParen: pos})
	c.pop()
	return tVoid
}

// baseDtor calls the destructor of the base of class t (at the end of a
// destructor: C++ destroys the bases after the members).
func (c *compiler) baseDtor(t *Type, pos diag.Pos) {
	if t != nil {
		c.memberDtors(t, pos) // the members first (implicit.go)
	}
	if t == nil || t.base == nil {
		return
	}
	bases := t.bases
	if len(bases) == 0 {
		bases = []*Type{t.base}
	}
	// in reverse order of declaration (C++ [class.dtor]), each on its
	// subobject (mi.go)
	for i := len(bases) - 1; i >= 0; i-- {
		dt := c.dtorOf(bases[i])
		if vbOf(bases[i]) != nil {
			dt = c.nvDtor(bases[i])
		}
		if dt == nil || isVirtualBase(t, bases[i]) {
			continue // (a virtual base: the complete object's, below)
		}
		dt = c.baseVariant(dt) // vbase.go
		off, _ := baseOffset(t, bases[i])
		_, own := ownerOf(bases[i], dt)
		c.emit(OpLocal, 0, 0, pos)
		if off+own != 0 {
			c.emit(OpConst, 0, int64(off+own), pos)
			c.emit(OpPtrAdd, 1, 0, pos)
		}
		c.emit(OpCall, int32(c.funcIndex(dt)), 1, pos)
		c.emit(OpPop, 0, 0, pos)
	}
	c.vbaseDtors(t, pos)
}

// message is the index of s in Program.Strings (an OpTrap message).
func (c *compiler) message(s string) int {
	for i, x := range c.prog.Strings {
		if x == s {
			return i
		}
	}
	c.prog.Strings = append(c.prog.Strings, s)
	return len(c.prog.Strings) - 1
}

func initVirtual() {
	// __weft_bad_virtual(vptr ^ side, class, function): the fault of a
	// virtual call that selects no function (pushOverrider)
	defb("__weft_bad_virtual", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		class, fn := m.prog.Strings[a[1]], m.prog.Strings[a[2]]
		if fn == "~" {
			fn = "destructor"
		}
		v := a[0]
		switch {
		case v>>48 == vptrTag>>48 && v&(1<<32) != 0:
			made, used := "device", "host"
			if !t.host {
				made, used = "host", "device"
			}
			m.fault(t, pos, "C0405", "virtual call of %s on an object of %s constructed in %s code, called from %s code: its virtual functions are the %s's (undefined in CUDA)", fn, class, made, used, made)
		case v>>48 == vptrTag>>48:
			m.fault(t, pos, "C0405", "virtual call of %s on an object of %s whose class has no %s to call (a pure virtual function)", fn, class, fn)
		default:
			m.fault(t, pos, "C0405", "virtual call of %s on memory that holds no constructed object of %s or a class derived from it", fn, class)
		}
		return 0, stFault
	})
}

// autoObj is an automatic object whose class has a destructor: run when
// its block ends, and by return, break and continue (C++ [stmt.jump],
// [class.dtor]p14), the objects of a block in reverse order.
type autoObj struct {
	slot  int
	dtor  *Function
	start int // the code from which it is constructed (exc.go cleanups)
}

// autoObject records the object in slot (of class t) for destruction.
func (c *compiler) autoObject(t *Type, slot int) {
	if t.Kind != Struct || t.std != 0 || len(c.dtors) == 0 {
		return
	}
	if dt := c.dtorOf(t); dt != nil {
		c.dtors[len(c.dtors)-1] = append(c.dtors[len(c.dtors)-1], autoObj{slot: slot, dtor: dt, start: c.here()})
	}
}

// destroy calls the destructors of the automatic objects of the blocks
// from depth from to the innermost, innermost and latest first.
func (c *compiler) destroy(from int, pos diag.Pos) {
	c.destroyExcept(from, pos, -1)
}

// destroyExcept is destroy but for the object in slot keep (-1: none),
// the local a return statement returns (rvalue.go, nrvoSlot).
func (c *compiler) destroyExcept(from int, pos diag.Pos, keep int) {
	for i := len(c.dtors) - 1; i >= from && i >= 0; i-- {
		objs := c.dtors[i]
		for j := len(objs) - 1; j >= 0; j-- {
			if objs[j].slot == keep {
				continue
			}
			c.checkCallSpace(objs[j].dtor, pos)
			c.emit(OpLocal, int32(objs[j].slot), 0, pos)
			c.emit(OpCall, int32(c.funcIndex(objs[j].dtor)), 1, pos)
			c.emit(OpPop, 0, 0, pos)
		}
	}
}
