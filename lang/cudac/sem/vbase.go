package sem

import (
	"sync"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/cudac/syntax"
)

// Virtual inheritance (C++ [class.mi]p4-6, [class.base.init]p10-13). A
// virtual base is one subobject however many paths lead to it, so its
// place relative to a class that names it depends on the complete
// object: in
//
//	struct A { int a; };
//	struct B : virtual A { int b; };
//	struct C : virtual A { int c; };
//	struct D : B, C { int d; };
//
// a B on its own has its A right after b, but the B inside a D shares
// D's A, which follows d. The layout follows the Itanium C++ ABI's idea
// with the offsets stored in the object instead of in a vtable:
//
//   - a class's non-virtual part is its non-virtual bases' non-virtual
//     parts, then a hidden 8-byte slot per virtual base (one inherited
//     from the first base, which is at offset 0, is shared), then its
//     own members; its virtual bases' non-virtual parts follow, once
//     each, in construction order;
//   - each slot holds the distance from the subobject that owns it to
//     the virtual base within the complete object; the constructor of
//     the complete object (and a creation without one) writes every slot
//     of every subobject, since only it knows the complete layout;
//   - converting a pointer or reference to a virtual base (or to a base
//     of one), reaching a member of a virtual base and calling one of
//     its member functions read the slot (a checked read: an object
//     never constructed is an uninitialized read); a null pointer stays
//     null; the reverse conversion is ill-formed (C0302);
//   - a virtual call knows the complete object's class from the vptr, so
//     the subobjects' offsets there are static, as without virtual
//     bases;
//   - every constructor and destructor of a class with virtual bases has
//     a second, base-subobject variant (the ABI's C2/D2): the complete
//     one constructs the virtual bases first, with the most derived
//     class's member initializers (an initializer of a virtual base in an
//     intermediate class is ignored, [class.base.init]p13), then the
//     non-virtual bases with their base variants, which skip the virtual
//     bases; the complete destructor destroys the virtual bases last.
//
// Sizes can differ from g++'s: a polymorphic class has both its vptr and
// its slots, where the ABI keeps the offsets in the vtable.

// vbInfo is the virtual-base layout of a class with virtual bases.
type vbInfo struct {
	vbases  []*Type                // all virtual bases, in construction order
	direct  map[*Type]bool         // the direct bases declared virtual
	part    map[*FieldInfo]*Type   // the fields of the virtual bases' parts
	first   map[*Type]*FieldInfo   // the first field of each virtual base's part
	slot    map[*Type]*FieldInfo   // the class's own slots
	primary *Type                  // the first base when not virtual (at offset 0)
	copied  map[*Type][]*FieldInfo // per non-virtual base, the fields copied from it
}

// The records are keyed by the class and by the function, both unique
// to one compilation; the run time needs them too (a thrown object's
// base, exc.go's baseOffset), so they are not the compiler's.
var (
	vbInfos    sync.Map // *Type -> *vbInfo
	vbVariants sync.Map // constructor or destructor -> its base variant
	vbIsBase   sync.Map // the base variants -> true
)

// vbOf is t's virtual-base layout, nil for a class without virtual bases.
func vbOf(t *Type) *vbInfo {
	if t == nil {
		return nil
	}
	if v, ok := vbInfos.Load(t); ok {
		return v.(*vbInfo)
	}
	return nil
}

// isVirtualBase reports whether b is a direct virtual base of t.
func isVirtualBase(t, b *Type) bool {
	vi := vbOf(t)
	return vi != nil && vi.direct[b]
}

// nvFields are the fields of t that a class deriving from t non-virtually
// copies: all of them, or for a class with virtual bases its non-virtual
// part.
func nvFields(t *Type) []*FieldInfo {
	vi := vbOf(t)
	if vi == nil {
		return t.Fields
	}
	var out []*FieldInfo
	for _, f := range t.Fields {
		if vi.part[f] == nil {
			out = append(out, f)
		}
	}
	return out
}

// nvSize is the size of t's non-virtual part, rounded to its alignment.
func nvSize(t *Type) int {
	vi := vbOf(t)
	if vi == nil {
		return t.size
	}
	end := 0
	for _, f := range t.Fields {
		if vi.part[f] == nil && f.Offset+f.Type.size > end {
			end = f.Offset + f.Type.size
		}
	}
	return (end + t.align - 1) / t.align * t.align
}

// vbLayout lays out the slots and the virtual bases' parts of struct t
// (whose non-virtual bases baseFields copied and whose own members
// follow them), before layoutStruct assigns the offsets.
func (c *compiler) vbLayout(t *Type, virtual map[*Type]bool, copied map[*Type][]*FieldInfo, firsts []*FieldInfo) {
	var order []*Type
	seen := map[*Type]bool{}
	var add func(x *Type)
	add = func(x *Type) {
		if !seen[x] {
			seen[x] = true
			order = append(order, x)
		}
	}
	for _, b := range t.bases {
		// depth first, left to right: a base's virtual bases before it
		// ([class.base.init]p13)
		if bi := vbOf(b); bi != nil {
			for _, v := range bi.vbases {
				add(v)
			}
		}
		if virtual[b] {
			add(b)
		}
	}
	if len(order) == 0 {
		return
	}
	vi := &vbInfo{vbases: order, direct: virtual, part: map[*FieldInfo]*Type{}, first: map[*Type]*FieldInfo{},
		slot: map[*Type]*FieldInfo{}, copied: copied}
	if len(t.bases) > 0 && !virtual[t.bases[0]] {
		vi.primary = t.bases[0]
	}
	vbInfos.Store(t, vi)
	// the own slots, after the primary base's part
	n := 0
	if vi.primary != nil {
		n = len(copied[vi.primary])
	}
	pi := vbOf(vi.primary)
	var slots []*FieldInfo
	for _, v := range order {
		if pi != nil && pi.has(v) {
			continue // the primary base's slot, at the same place
		}
		f := &FieldInfo{Name: "__vbase_" + tagOf(v), Type: tLong}
		vi.slot[v] = f
		slots = append(slots, f)
	}
	fs := append([]*FieldInfo{}, t.Fields[:n]...)
	fs = append(fs, slots...)
	t.Fields = append(fs, t.Fields[n:]...)
	// the virtual bases' non-virtual parts, once each
	for _, v := range order {
		nf := nvFields(v)
		var first *FieldInfo
		if len(nf) == 0 {
			first = &FieldInfo{Name: "__vbase_empty_" + tagOf(v), Type: tChar}
			vi.part[first] = v
			t.Fields = append(t.Fields, first)
		}
		for j, f := range nf {
			g := *f
			if j == 0 {
				first = &g
				if v.align > g.Align {
					g.Align = v.align
				}
			}
			vi.part[&g] = v
			t.Fields = append(t.Fields, &g)
		}
		vi.first[v] = first
		for i, b := range t.bases {
			if b == v && i < len(firsts) {
				firsts[i] = first // baseOff: its offset in the complete object
			}
		}
	}
}

// has reports whether v is one of the class's virtual bases.
func (vi *vbInfo) has(v *Type) bool {
	for _, x := range vi.vbases {
		if x == v {
			return true
		}
	}
	return false
}

// vbOff is the offset of virtual base v in a complete object of class t.
func vbOff(t, v *Type) int {
	vi := vbOf(t)
	if vi == nil || vi.first[v] == nil {
		return 0
	}
	return vi.first[v].Offset
}

// slotOff is the offset, in an object of class t, of t's slot for v.
func slotOff(t, v *Type) int {
	vi := vbOf(t)
	for vi != nil {
		if f := vi.slot[v]; f != nil {
			return f.Offset
		}
		t = vi.primary // (at offset 0)
		vi = vbOf(t)
	}
	return 0
}

// nvOffset is the offset of base b in d along non-virtual edges only.
func nvOffset(d, b *Type) (int, bool) {
	if d == b {
		return 0, true
	}
	if d == nil {
		return 0, false
	}
	for i, x := range d.bases {
		if isVirtualBase(d, x) {
			continue
		}
		if off, ok := nvOffset(x, b); ok {
			if i < len(d.baseOff) {
				off += d.baseOff[i]
			}
			return off, true
		}
	}
	return 0, false
}

// vbPath finds how base b is reached from d: through virtual base v
// (nil: along non-virtual edges) at offset off from v (or from d).
func vbPath(d, b *Type) (v *Type, off int, ok bool) {
	if off, ok := nvOffset(d, b); ok {
		return nil, off, true
	}
	if vi := vbOf(d); vi != nil {
		for _, x := range vi.vbases {
			if off, ok := nvOffset(x, b); ok {
				return x, off, true
			}
		}
	}
	return nil, 0, false
}

// upcast converts the pointer on the stack from class from to class to:
// through a virtual base by reading the object's slot, otherwise by the
// static offset (up, or down along non-virtual edges); a null pointer
// stays null.
func (c *compiler) upcast(from, to *Type, pos diag.Pos) {
	if from == nil || to == nil || from.Kind != Struct || to.Kind != Struct || from == to {
		return
	}
	v, off, ok := vbPath(from, to)
	if !ok {
		if v2, _, ok2 := vbPath(to, from); ok2 && v2 != nil {
			c.errorf(pos, "C0302", "cannot convert from %s to %s: %s is a virtual base of %s (C++ [expr.static.cast]p11)", from, to, v2, to)
			return
		}
		c.adjustPtr(upcastOff(from, to), pos)
		return
	}
	if v == nil {
		c.adjustPtr(off, pos)
		return
	}
	c.vbaseAddr(from, v, pos)
	c.adjustPtr(off, pos)
}

// vbaseAddr turns the address on the stack of an object of class t (or
// null) into that of its virtual base v, read from t's slot.
func (c *compiler) vbaseAddr(t, v *Type, pos diag.Pos) {
	c.emit(OpDup, 0, 0, pos)
	skip := c.emit(OpJz, 0, 0, pos)
	c.emit(OpDup, 0, 0, pos)
	if so := slotOff(t, v); so != 0 {
		c.emit(OpConst, 0, int64(so), pos)
		c.emit(OpPtrAdd, 1, 0, pos)
	}
	c.emit(OpLoad, int32(memCode(tLong)), 0, pos)
	c.emit(OpPtrAdd, 1, 0, pos)
	c.patch(skip)
}

// viaVirtualBase adjusts the address on the stack of an object of static
// class st for member f when f belongs to a virtual base: the base's
// address from the slot, and f's offset within the base.
func (c *compiler) viaVirtualBase(st *Type, f *FieldInfo, pos diag.Pos) *FieldInfo {
	vi := vbOf(st)
	if vi == nil {
		return f
	}
	v := vi.part[f]
	if v == nil {
		return f
	}
	c.vbaseAddr(st, v, pos)
	g := *f
	g.Offset -= vbOff(st, v)
	return &g
}

// stampSlots writes every slot of a complete object of class t whose
// address is on the stack (kept): of t and of each subobject.
func (c *compiler) stampSlots(t *Type, pos diag.Pos) {
	vi := vbOf(t)
	if vi == nil {
		return
	}
	var walk func(x *Type, at int)
	walk = func(x *Type, at int) {
		xi := vbOf(x)
		if xi == nil {
			return
		}
		for _, v := range xi.vbases {
			if xi.slot[v] == nil {
				continue // the primary base's, written for it
			}
			c.emit(OpDup, 0, 0, pos)
			c.emit(OpConst, 0, int64(at+xi.slot[v].Offset), pos)
			c.emit(OpPtrAdd, 1, 0, pos)
			c.emit(OpConst, 0, int64(vbOff(t, v)-at), pos)
			c.emit(OpStore, int32(memCode(tLong)), 0, pos)
			c.emit(OpPop, 0, 0, pos)
		}
		for i, b := range x.bases {
			if xi.direct[b] || i >= len(x.baseOff) {
				continue
			}
			walk(b, at+x.baseOff[i])
		}
	}
	walk(t, 0)
	for _, v := range vi.vbases {
		if vi2 := vbOf(v); vi2 != nil {
			// a virtual base's own slots (its bases' are walked in it)
			walk(v, vbOff(t, v))
		}
	}
}

// baseVariant is the base-subobject variant of constructor or destructor
// fn of a class with virtual bases (fn itself otherwise).
func (c *compiler) baseVariant(fn *Function) *Function {
	if fn == nil || fn.decl == nil || vbOf(c.tags[0][fn.decl.Recv]) == nil {
		return fn
	}
	if v, ok := vbVariants.Load(fn); ok {
		return v.(*Function)
	}
	v := *fn
	v.Name = fn.Name + " (base subobject)"
	v.Code, v.compiled, v.cleanups = nil, false, nil
	vbVariants.Store(fn, &v)
	vbIsBase.Store(&v, true)
	c.prog.Funcs = append(c.prog.Funcs, &v)
	return &v
}

// inBaseVariant reports whether the function being compiled is the base
// variant of a constructor or destructor of class t.
func (c *compiler) inBaseVariant(t *Type) bool {
	_, ok := vbIsBase.Load(c.fn)
	return ok && c.recv == t
}

// vbaseInits constructs the virtual bases of the complete object of the
// constructor being compiled (fd), first: with fd's initializer for one
// when it names it, else its default constructor.
func (c *compiler) vbaseInits(fd *syntax.FuncDecl, isBase func(*Type, string) bool) {
	vi := vbOf(c.recv)
	if vi == nil || c.inBaseVariant(c.recv) {
		return
	}
	c.emit(OpLocal, 0, 0, fd.Pos)
	c.stampSlots(c.recv, fd.Pos)
	c.emit(OpPop, 0, 0, fd.Pos)
	for _, v := range vi.vbases {
		var args []syntax.Expr
		pos := fd.Pos
		named := false
		for _, mi := range fd.Inits {
			if isBase(v, mi.Name) {
				args, pos, named = mi.Args, mi.Pos, true
			}
		}
		var ctor *Function
		if named {
			ctor = c.ctorForArgs(v, args, pos)
		} else {
			ctor = c.ctorOf(v, 0)
		}
		if ctor == nil {
			continue
		}
		c.emit(OpLocal, 0, 0, pos)
		c.adjustPtr(vbOff(c.recv, v), pos)
		c.construct(c.baseVariant(ctor), args, pos)
	}
}

// vbaseDtors destroys the virtual bases of the complete object of the
// destructor being compiled, in reverse order of construction, after its
// non-virtual bases.
func (c *compiler) vbaseDtors(t *Type, pos diag.Pos) {
	vi := vbOf(t)
	if vi == nil || c.inBaseVariant(t) {
		return
	}
	for i := len(vi.vbases) - 1; i >= 0; i-- {
		v := vi.vbases[i]
		dt := c.dtorOf(v)
		if dt == nil {
			continue
		}
		_, own := ownerOf(v, dt)
		c.emit(OpLocal, 0, 0, pos)
		c.adjustPtr(vbOff(t, v)+own, pos)
		dt = c.baseVariant(dt)
		c.emit(OpCall, int32(c.funcIndex(dt)), 1, pos)
		c.emit(OpPop, 0, 0, pos)
	}
}

// vbPend carries what baseFields found to classSetup, which lays out the
// virtual bases after the class's own members were added.
type vbPend struct {
	virtual map[*Type]bool
	copied  map[*Type][]*FieldInfo
	firsts  []*FieldInfo
}

var vbPending sync.Map // *Type -> *vbPend

// anyVB reports whether one of bases has virtual bases.
func anyVB(bases []*Type) bool {
	for _, b := range bases {
		if vbOf(b) != nil {
			return true
		}
	}
	return false
}

// vbSetup runs vbLayout for t if baseFields found virtual bases, and
// reports how many fields precede the class's own (the first base's
// copied part; for the vptr's place).
func (c *compiler) vbSetup(t *Type) (int, bool) {
	p, ok := vbPending.LoadAndDelete(t)
	if !ok {
		return 0, false
	}
	pd := p.(*vbPend)
	c.vbLayout(t, pd.virtual, pd.copied, pd.firsts)
	if len(t.bases) == 0 || pd.virtual[t.bases[0]] {
		return 0, true
	}
	n := len(pd.copied[t.bases[0]])
	if vi := vbOf(t); vi != nil && vi.primary != nil {
		n += len(vi.slot) // the class's own slots follow the primary base
	}
	return n, true
}

// dominant is member function name of t found in its bases when t has
// virtual bases: of the classes that define it, one that derives from
// another hides it ([class.member.lookup]p10, the dominance the shared
// subobject gives), the first in declaration order among those left.
func (c *compiler) dominant(t *Type, name string) *Function {
	var defs []*Type
	seen := map[*Type]bool{}
	var walk func(x *Type)
	walk = func(x *Type) {
		if seen[x] {
			return
		}
		seen[x] = true
		if c.funcs[tagOf(x)+"::"+name] != nil {
			defs = append(defs, x)
			return
		}
		for _, b := range x.bases {
			walk(b)
		}
	}
	walk(t)
	for _, x := range defs {
		hidden := false
		for _, y := range defs {
			hidden = hidden || y != x && derivesFrom(y, x)
		}
		if !hidden {
			return c.funcs[tagOf(x)+"::"+name]
		}
	}
	return nil
}

// nvDtor is the nearest user-declared destructor from t up its bases
// along non-virtual edges (a virtual base's is the complete object's to
// run, vbaseDtors).
func (c *compiler) nvDtor(t *Type) *Function {
	tag := tagOf(t)
	if fn := c.funcs[tag+"::~"+tag]; fn != nil {
		return fn
	}
	for _, b := range t.bases {
		if isVirtualBase(t, b) {
			continue
		}
		if fn := c.nvDtor(b); fn != nil {
			return fn
		}
	}
	return nil
}

// vbCopy copies the object of class t at the source address on the
// stack into the one at the destination address below it, leaving the
// destination: member by member, each virtual base's members read
// through the source's slot (the source may be a subobject of a more
// derived object, whose virtual bases are elsewhere). A new object
// (construct) is a complete one: its slots and vptrs are its class's; an
// assignment keeps the destination's, reaching its virtual bases
// through them, as C++'s implicit copy constructor and assignment copy
// the members and bases but never the object's identity.
//
// A polymorphic class without virtual bases is copied the same way (vi
// nil): the copy's vptr is its own class's, so a D passed, returned or
// assigned as a B behaves as a B (C++ slicing), not as the D it came
// from.
func (c *compiler) vbCopy(t *Type, construct bool, pos diag.Pos) {
	vi := vbOf(t)
	if vi == nil {
		vi = &vbInfo{}
	}
	ss, sd := c.newSlot(), c.newSlot()
	c.emit(OpSetLocal, int32(ss), 0, pos)
	c.emit(OpPop, 0, 0, pos)
	c.emit(OpSetLocal, int32(sd), 0, pos)
	c.emit(OpPop, 0, 0, pos)
	if construct {
		c.emit(OpLocal, int32(sd), 0, pos)
		c.stampVptr(t, pos)
		c.emit(OpPop, 0, 0, pos)
	}
	hidden := func(f *FieldInfo) bool {
		return f.Name == "__vptr" || len(f.Name) > 8 && f.Name[:8] == "__vbase_"
	}
	copyField := func(dst, src func(), off int, f *FieldInfo) {
		dst()
		c.adjustPtr(off, pos)
		src()
		c.adjustPtr(off, pos)
		c.copyValue(f.Type, pos) // (a std member deeply, lib_std.go)
		c.emit(OpPop, 0, 0, pos)
	}
	local := func(s int) func() { return func() { c.emit(OpLocal, int32(s), 0, pos) } }
	for _, f := range t.Fields {
		if vi.part[f] == nil && !hidden(f) {
			copyField(local(sd), local(ss), f.Offset, f)
		}
	}
	for _, v := range vi.vbases {
		vo := vbOff(t, v)
		src := func() {
			c.emit(OpLocal, int32(ss), 0, pos)
			c.vbaseAddr(t, v, pos)
		}
		dst := func() {
			c.emit(OpLocal, int32(sd), 0, pos)
			c.vbaseAddr(t, v, pos)
		}
		for _, f := range t.Fields {
			if vi.part[f] == v && !hidden(f) {
				copyField(dst, src, f.Offset-vo, f)
			}
		}
	}
	c.emit(OpLocal, int32(sd), 0, pos)
}
