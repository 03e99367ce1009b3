package sem

import (
	"fmt"
	"strings"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/cudac/syntax"
)

// The C++ parts CUDA code commonly uses (issue 6): references, auto,
// const integers in constant expressions, struct member functions and
// constructors, and CUDA's vector constructors. They compile to the same
// bytecode as the C they stand for: a reference is an address held in a
// slot, a member function takes the address of its object as a hidden
// first argument ("this", slot 0), and a constructor is a member function
// run on the newly allocated object.

func hasAuto(te *syntax.TypeExpr) bool {
	for te != nil {
		if te.Kind == syntax.TNamed {
			return te.Name == "auto"
		}
		te = te.Elem
	}
	return false
}

func isInitList(e syntax.Expr) bool {
	_, ok := e.(*syntax.InitList)
	return ok
}

// markConst records the value of a const integer initialized by a constant
// expression, so that it may size arrays and be a template argument (C++
// [expr.const]; "constexpr int N = 16;").
func (c *compiler) markConst(s *sym, d *syntax.Decl, t *Type) {
	if !(d.Q.Const || d.Type.Const) || d.Init == nil {
		return
	}
	if t.isFloat() {
		if v, ok := c.constFloat(d.Init); ok {
			s.fconst = true
			if t.Kind == Float {
				v = float64(float32(v))
			}
			s.fbits = bits(v)
		}
		return
	}
	if !t.isInt() {
		return
	}
	if v, ok := c.constExpr(d.Init); ok {
		s.isConst, s.val = true, int64(ext(uint64(v), t.size*8, t.isSigned()))
	}
}

// refParam reports whether argument i of call is bound to a reference
// parameter of the function it calls (a conservative guess for member
// calls: any member function of that name).
func (c *compiler) refParam(call *syntax.Call, i int) bool {
	var decls []*syntax.FuncDecl
	switch f := call.Fun.(type) {
	case *syntax.Name:
		if f.Name == "swap" {
			return true // std::swap(T&, T&)
		}
		if fn := c.funcs[f.Name]; fn != nil && fn.decl != nil {
			decls = append(decls, fn.decl)
		}
		if td := c.templates[f.Name]; td != nil {
			decls = append(decls, td)
		}
		if c.recv != nil {
			if fn := c.funcs[tagOf(c.recv)+"::"+f.Name]; fn != nil && fn.decl != nil {
				decls = append(decls, fn.decl)
			}
		}
		if c.fn != nil && c.fn.decl != nil && c.fn.decl.Recv != "" {
			// a member function calling another by its plain name: the
			// locals are laid out before the receiver is set
			if fn := c.funcs[c.fn.decl.Recv+"::"+f.Name]; fn != nil && fn.decl != nil {
				decls = append(decls, fn.decl)
			}
			for _, o := range c.overloads[c.fn.decl.Recv+"::"+f.Name] {
				if o.decl != nil {
					decls = append(decls, o.decl)
				}
			}
		}
	case *syntax.Member:
		if i == 0 && (f.Name == "compare_exchange_strong" || f.Name == "compare_exchange_weak") {
			return true // cuda::atomic_ref: expected is a T&
		}
		for name, fn := range c.funcs {
			if strings.HasSuffix(name, "::"+f.Name) && fn.decl != nil {
				decls = append(decls, fn.decl)
			}
		}
		// the member functions of class templates, whose instances may
		// not exist yet when a caller's locals are laid out (S<int> t;
		// t.put(3, r) must keep r in memory for put's T &out)
		for _, cts := range c.classTmpls {
			for _, ct := range cts {
				for _, fd := range ct.Funcs {
					if strings.HasSuffix(fd.Name, "::"+f.Name) {
						decls = append(decls, fd)
					}
				}
			}
		}
		for name, td := range c.templates {
			if strings.HasSuffix(name, "::"+f.Name) {
				decls = append(decls, td) // member function templates
			}
		}
	}
	for _, d := range decls {
		if i < len(d.Type.Params) && d.Type.Params[i].Type.Kind == syntax.TRef {
			return true
		}
	}
	return false
}

// addressable reports whether e denotes an object in memory.
func (c *compiler) addressable(e syntax.Expr) bool {
	if sn, ok := e.(*syntax.ScopedName); ok {
		e = c.scopedName(sn)
	}
	switch e := e.(type) {
	case *syntax.Name:
		s := c.lookup(e.Name)
		if s == nil {
			return c.recv != nil && c.recv.field(e.Name) != nil
		}
		switch s.kind {
		case symMem, symGlobal, symShared, symDynShared, symRef:
			return true
		}
	case *syntax.Index:
		return true
	case *syntax.Member:
		if n, ok := e.X.(*syntax.Name); ok && !e.Arrow && c.lookup(n.Name) == nil {
			if _, sr := sregs[n.Name]; sr {
				return false
			}
		}
		return e.Arrow || c.addressable(e.X)
	case *syntax.Unary:
		return e.Op == "*"
	case *syntax.Cond:
		// c ? x : y is an lvalue when both are (C++ [expr.cond])
		return c.addressable(e.X) && c.addressable(e.Y)
	case *syntax.Call:
		return c.returnsRef(e)
	case *syntax.Cast:
		return dynRefForm(e) != nil // mi.go
	}
	return false
}

// returnsRef reports whether call e returns a reference (T&), so that it
// denotes an object (compiled dry to find out).
func (c *compiler) returnsRef(e *syntax.Call) bool {
	save, slots := len(c.code), c.nslots
	c.dry++
	c.gotRef = false
	c.rawRef = true
	c.expr(e)
	c.rawRef = false
	got := c.gotRef
	c.gotRef = false
	c.dry--
	c.code, c.nslots = c.code[:save], slots
	return got
}

// refArg pushes the address an argument or initializer of reference type
// T& binds to: the object itself when e denotes one, or else a temporary
// holding its value (what C++ does for a const T&).
func (c *compiler) refArg(e syntax.Expr, et *Type) {
	pos := syntax.PosOf(e)
	if c.addressable(e) {
		var vt *Type
		if et.Kind == Struct && len(et.Fields) > 0 {
			vt = c.typeOf(e, false)
		}
		lv := c.lvalue(e)
		if lv.slot >= 0 {
			c.errorf(pos, "C0309", "cannot bind a reference to this register variable")
		}
		if vt != nil {
			c.upcast(vt, et, pos) // a base that is not first (mi.go), or virtual (vbase.go)
		}
		return
	}
	if et.Kind == Struct && et.std == 0 {
		if vt := c.typeOf(e, true); vt != et && derivesFrom(vt, et) {
			// a temporary of a derived class bound to a base reference:
			// the reference is to the whole temporary (no slicing),
			// destroyed as the derived object it is (temps.go)
			c.expr(e)
			c.materialized(vt, e, pos)
			c.upcast(vt, et, pos)
			return
		}
	}
	c.emit(OpTemp, 0, int64(et.size), pos)
	if et.Kind == Struct && et.std != 0 {
		c.stdInitFrom(et, e)
		return
	}
	if et.Kind == Struct {
		vt := c.expr(e)
		if vt != et && !cgAssignable(et, vt) && !(vt.Kind == Struct && vt.Name == et.Name) {
			c.errorf(pos, "C0302", "cannot bind %s& to a value of type %s", et, vt)
		}
		c.emit(OpMemcpy, 0, int64(et.size), pos)
		c.materialized(et, e, pos) // temps.go
		return
	}
	c.emit(OpDup, 0, 0, pos)
	vt := c.expr(e)
	c.convert(vt, et, pos)
	c.emit(OpStore, int32(memCode(et)), 0, pos)
	c.emit(OpPop, 0, 0, pos)
}

// refLocal declares a local reference "T& r = x;".
func (c *compiler) refLocal(d *syntax.Decl, t *Type) {
	slot := c.newSlot()
	if d.Init == nil || isInitList(d.Init) {
		c.errorf(d.Pos, "C0302", "reference %s must be initialized with an expression", d.Name)
		c.emit(OpConst, 0, 0, d.Pos)
	} else {
		n := len(c.temps)
		c.refArg(d.Init, t.Elem)
		if last := len(c.temps) - 1; last >= n && !c.lambdaArgs && (c.temps[last].at == len(c.code)-1 || c.derivedTemp(d.Init, t.Elem, c.temps[last])) {
			// the initializer itself is the temporary (not one made
			// inside it, pick(R(2))): it lives as long as the reference
			c.extendTemp(last) // temps.go
		}
	}
	c.emit(OpSetLocal, int32(slot), 0, d.Pos)
	c.emit(OpPop, 0, 0, d.Pos)
	c.declare(d.Name, &sym{kind: symRef, t: t.Elem, slot: slot})
}

// derivedTemp reports whether tp is the temporary of a derived class
// that initializer e, a class prvalue, makes for a reference to its base
// et (const B &rb = makeD(2);): refArg adjusted its address after
// registering it, so it is not the last instruction, and it lives as
// long as the reference too ([class.temporary]p6).
func (c *compiler) derivedTemp(e syntax.Expr, et *Type, tp fullTemp) bool {
	if et.Kind != Struct || !c.freshObject(e) {
		return false
	}
	vt := c.typeOf(e, true)
	return vt != et && derivesFrom(vt, et) && tp.dtor == c.dtorOf(vt)
}

// tagOf is the tag of a struct type ("Foo" for struct Foo).
func tagOf(t *Type) string {
	n := strings.TrimPrefix(t.Name, "struct ")
	return strings.TrimPrefix(n, "union ")
}

// ctorOf is the constructor of struct type t taking n arguments (any
// constructor when n < 0), if it has one.
func (c *compiler) ctorOf(t *Type, n int) *Function {
	if t.Kind != Struct || t.Name == "" || t.vec != nil || t.cg != 0 {
		return nil
	}
	tag := tagOf(t)
	if n >= 0 {
		return c.funcs[fmt.Sprintf("%s::%s#%d", tag, tag, n)]
	}
	for k := 0; k <= 16; k++ {
		if fn := c.funcs[fmt.Sprintf("%s::%s#%d", tag, tag, k)]; fn != nil {
			return fn
		}
	}
	return nil
}

// ctorFor is the constructor for args, reporting C0304 when t has
// constructors but none takes that many arguments.
func (c *compiler) ctorFor(t *Type, n int, pos diag.Pos) *Function {
	if c.ctorOf(t, -1) == nil {
		return nil
	}
	fn := c.ctorOf(t, n)
	for k := n + 1; fn == nil && k <= 16; k++ {
		// one whose last parameters have default arguments
		if f := c.ctorOf(t, k); f != nil {
			d := c.defaultsOf(f)
			ok := len(d) >= k
			for i := n; ok && i < k; i++ {
				ok = d[i] != nil
			}
			if ok {
				fn = f
			}
		}
	}
	if fn == nil {
		c.errorf(pos, "C0304", "no constructor of %s takes %d arguments", t, n)
	}
	return fn
}

// construct runs constructor ctor on the object whose address is on the
// stack (consumed).
func (c *compiler) construct(ctor *Function, args []syntax.Expr, pos diag.Pos) {
	c.checkCallSpace(ctor, pos)
	e := &syntax.Call{Pos: pos, Args: args}
	n := c.args(ctor, e)
	c.emit(OpCall, int32(c.funcIndex(ctor)), int64(n+1), pos)
	c.emit(OpPop, 0, 0, pos)
}

// memberInits runs a constructor's member initializers, "a(x), b(y)".
func (c *compiler) memberInits(fd *syntax.FuncDecl) {
	named := map[string]bool{}
	for _, mi := range fd.Inits {
		named[mi.Name] = true
	}
	isBase := func(b *Type, name string) bool {
		return name == tagOf(b) || c.tmap[name] == b || b.tmpl != nil && name == b.tmpl.name
	}
	c.vbaseInits(fd, isBase) // the virtual bases first (vbase.go)
	for i, b := range c.recv.bases {
		if isVirtualBase(c.recv, b) {
			continue
		}
		given := false
		for _, mi := range fd.Inits {
			given = given || isBase(b, mi.Name)
		}
		if !given {
			// a base not in the list: its default constructor, on its
			// subobject (C++ [class.base.init]p9; mi.go)
			if ctor := c.ctorOf(b, 0); ctor != nil {
				c.emit(OpLocal, 0, 0, fd.Pos)
				if c.recv.baseOff[i] != 0 {
					c.emit(OpConst, 0, int64(c.recv.baseOff[i]), fd.Pos)
					c.emit(OpPtrAdd, 1, 0, fd.Pos)
				}
				c.construct(c.baseVariant(ctor), nil, fd.Pos)
			} else if c.needsConstruction(b) {
				// its implicit constructor (implicit.go)
				c.emit(OpLocal, 0, 0, fd.Pos)
				c.adjustPtr(c.recv.baseOff[i], fd.Pos)
				c.constructAt(b, fd.Pos, false)
				c.emit(OpPop, 0, 0, fd.Pos)
			}
		}
	}
	// the bases named in the list, then the members: default member
	// initializers and constructors of those not named, then the named
	// ones (C++ constructs bases before members)
	for pass := 0; pass < 2; pass++ {
		if pass == 1 && hasMemberDefaults(c.recv) {
			c.emit(OpLocal, 0, 0, fd.Pos)
			c.memberDefaults(c.recv, named, fd.Pos)
			c.emit(OpPop, 0, 0, fd.Pos)
		}
		c.initPass(fd, pass, isBase)
	}
}

// initPass runs the member initializers of fd that name bases (pass 0)
// or members (pass 1).
func (c *compiler) initPass(fd *syntax.FuncDecl, pass int, isBase func(*Type, string) bool) {
	for _, mi := range fd.Inits {
		// each initializer is a full-expression ([class.base.init]p7):
		// its temporaries are destroyed before the next (temps.go)
		mark := c.fullExpr()
		c.initOne(mi, pass, isBase)
		c.endFullExpr(mark, mi.Pos)
	}
}

// initOne runs member initializer mi in its pass (initPass).
func (c *compiler) initOne(mi *syntax.MemberInit, pass int, isBase func(*Type, string) bool) {
	bi := -1
	for i, b := range c.recv.bases {
		if isBase(b, mi.Name) {
			bi = i
			break
		}
	}
	if bi < 0 && c.recv.base != nil && isBase(c.recv.base, mi.Name) {
		bi = 0
	}
	indirect := false
	if vi := vbOf(c.recv); vi != nil && bi < 0 {
		for _, v := range vi.vbases {
			indirect = indirect || isBase(v, mi.Name)
		}
	}
	if (pass == 0) != (bi >= 0 || indirect) {
		return
	}
	if bi >= 0 {
		// the base class's constructor, on its subobject
		b := c.recv.base
		if bi < len(c.recv.bases) {
			b = c.recv.bases[bi]
		}
		if isVirtualBase(c.recv, b) {
			return // constructed by vbaseInits, or by a more derived class
		}
		if ctor := c.ctorForArgs(b, mi.Args, mi.Pos); ctor != nil {
			c.emit(OpLocal, 0, 0, mi.Pos)
			if bi < len(c.recv.baseOff) && c.recv.baseOff[bi] != 0 {
				c.emit(OpConst, 0, int64(c.recv.baseOff[bi]), mi.Pos)
				c.emit(OpPtrAdd, 1, 0, mi.Pos)
			}
			c.construct(c.baseVariant(ctor), mi.Args, mi.Pos)
		}
		return
	}
	if indirect {
		return // an indirect virtual base: vbaseInits constructed it
	}
	f := c.recv.field(mi.Name)
	if f == nil {
		c.errorf(mi.Pos, "C0306", "no member named %s in %s", mi.Name, c.recv)
		return
	}
	c.emit(OpLocal, 0, 0, mi.Pos)
	c.emit(OpConst, 0, int64(f.Offset), mi.Pos)
	c.emit(OpPtrAdd, 1, 0, mi.Pos)
	switch {
	case len(mi.Args) == 0 && c.constructMember(&FieldInfo{Name: f.Name, Type: f.Type}, mi.Pos):
		// m(): its class's default constructor (implicit.go)
	case len(mi.Args) == 0:
		c.emit(OpMemzero, 0, int64(f.Type.size), mi.Pos)
	case len(mi.Args) == 1 && f.Type.Kind != Array:
		c.initFrom(f.Type, mi.Args[0])
	default:
		c.errorf(mi.Pos, "C0309", "member initializer of %s with %d arguments", mi.Name, len(mi.Args))
	}
	c.emit(OpPop, 0, 0, mi.Pos)
}

func (c *compiler) checkCallSpace(fn *Function, pos diag.Pos) {
	c.checkDeleted(fn, pos) // rvalue.go
	switch {
	case c.deviceOnly() && !fn.Device:
		c.errorf(pos, "C0307", "calling host function %s from device code", fn.Name)
	case c.hostOnly() && !fn.Host:
		c.errorf(pos, "C0307", "calling __device__ function %s from host code", fn.Name)
	}
}

// memberCall compiles x.f(args) and p->f(args).
func (c *compiler) memberCall(m *syntax.Member, e *syntax.Call) *Type {
	m = c.arrowOp(m) // an overloaded -> (arrow.go)
	raw := c.rawRef
	c.rawRef = false
	xt := c.typeOf(m.X, false)
	c.rawRef = raw
	st := xt
	if m.Arrow {
		st = nil
		if xt.Kind == Ptr {
			st = xt.Elem
		}
	}
	if st == nil || st.Kind != Struct {
		c.errorf(e.Pos, "C0305", "called object is not a function (member %s of %s)", m.Name, xt)
		c.emit(OpConst, 0, 0, e.Pos)
		return tInt
	}
	if st.cg != 0 {
		return c.cgMethod(st, m, e)
	}
	if st.std == stdAtomicRef {
		return c.atomicRefMethod(st, m, e)
	}
	if st.std != 0 {
		c.constStdCall(st, m) // constq.go
		return c.stdMethod(st, m, e)
	}
	if isVirtual(st, m.Name) {
		return c.virtualCall(st, m.Name, m.X, m.Arrow, e)
	}
	fn := c.methodOf(st, tagOf(st), m.Name)
	if fn == nil {
		if td := c.memberTemplate(st, m.Name); td != nil {
			if fn = c.instantiate(c.templateByArity(td, e), e); fn == nil {
				c.emit(OpConst, 0, 0, e.Pos)
				return tInt
			}
			return c.methodCall(fn, m.X, m.Arrow, e)
		}
		c.errorf(m.Pos, "C0306", "no member function %s in %s", m.Name, st)
		c.emit(OpConst, 0, 0, e.Pos)
		return tInt
	}
	if fn.decl != nil {
		if ovs := c.overloads[fn.decl.Name]; len(ovs) > 1 {
			// overloaded member functions, chosen by the arguments
			if p := c.pickOverload(c.constViable(ovs, m.X, m.Arrow), e); p != nil { // constq.go
				fn = p
			}
		}
	}
	return c.methodCall(fn, m.X, m.Arrow, e)
}

// methodCall calls member function fn on the object recv (a pointer to it
// when arrow).
func (c *compiler) methodCall(fn *Function, recv syntax.Expr, arrow bool, e *syntax.Call) *Type {
	pos := e.Pos
	raw := c.rawRef
	c.rawRef = false
	if fn.decl != nil && fn.decl.Q.Static {
		n := c.args(fn, e)
		c.emit(OpCall, int32(c.funcIndex(fn)), int64(n), pos)
		return c.result(fn.Type.Elem, raw, pos)
	}
	rt := c.typeOf(recv, false)
	c.constCall(fn, recv, arrow) // constq.go
	if arrow {
		c.expr(recv)
		if rt.Kind == Ptr {
			rt = rt.Elem
		}
	} else {
		lv := c.lvalue(recv)
		if lv.slot >= 0 {
			c.errorf(pos, "C0303", "member function call on a value that is not an object")
		} else if c.freshObject(recv) {
			// make().f(): this is a temporary (temps.go)
			c.materialized(rt, recv, pos)
		}
	}
	if rt.Kind == Struct && (len(rt.bases) > 1 || vbOf(rt) != nil) {
		// a member of a base that is not first: this is its subobject
		// (of a virtual base: found through the object's slot, vbase.go)
		if owner, off := ownerOf(rt, fn); off != 0 {
			c.upcast(rt, owner, pos)
		}
	}
	c.checkCallSpace(fn, pos)
	n := c.args(fn, e)
	c.emit(OpCall, int32(c.funcIndex(fn)), int64(n+1), pos)
	return c.result(fn.Type.Elem, raw, pos)
}

// makeVector builds a vector value (make_float4(a, b, c, d), float4(...)):
// a temporary with each argument converted to the element type.
func (c *compiler) makeVector(t *Type, args []syntax.Expr, pos diag.Pos) *Type {
	if len(args) != len(t.Fields) {
		c.errorf(pos, "C0304", "%s takes %d arguments, %d given", t, len(t.Fields), len(args))
	}
	c.emit(OpTemp, 0, int64(t.size), pos)
	c.emit(OpMemzero, 0, int64(t.size), pos)
	for i, a := range args {
		if i >= len(t.Fields) {
			c.typeOf(a, true)
			continue
		}
		f := t.Fields[i]
		c.emit(OpDup, 0, 0, pos)
		c.emit(OpConst, 0, int64(f.Offset), pos)
		c.emit(OpPtrAdd, 1, 0, pos)
		at := c.expr(a)
		c.convert(at, f.Type, syntax.PosOf(a))
		c.emit(OpStore, int32(memCode(f.Type)), 0, pos)
		c.emit(OpPop, 0, 0, pos)
	}
	return t
}

// methodOf finds member function name of struct t (tag), or of its base
// classes.
func (c *compiler) methodOf(t *Type, tag, name string) *Function {
	if vbOf(t) != nil && c.funcs[tag+"::"+name] == nil {
		return c.dominant(t, name) // virtual bases (vbase.go)
	}
	return c.methodDepth(t, tag, name, 0)
}

// methodDepth searches t and its bases, depth first in declaration order
// (multiple inheritance: mi.go).
func (c *compiler) methodDepth(t *Type, tag, name string, depth int) *Function {
	if fn := c.funcs[tag+"::"+name]; fn != nil {
		return fn
	}
	if t == nil || depth >= 64 {
		return nil
	}
	bases := t.bases
	if len(bases) == 0 && t.base != nil {
		bases = []*Type{t.base}
	}
	for _, b := range bases {
		if fn := c.methodDepth(b, tagOf(b), name, depth+1); fn != nil {
			return fn
		}
	}
	return nil
}

// derivesFrom reports whether class d is b or derives from it.
func derivesFrom(d, b *Type) bool {
	if d == b {
		return true
	}
	if d == nil {
		return false
	}
	if len(d.bases) == 0 {
		return derivesFrom(d.base, b)
	}
	for _, x := range d.bases {
		if derivesFrom(x, b) {
			return true
		}
	}
	return false
}

// memberTemplate is member function template name of class t or a base.
func (c *compiler) memberTemplate(t *Type, name string) *syntax.FuncDecl {
	for ; t != nil; t = t.base {
		if td := c.templates[tagOf(t)+"::"+name]; td != nil {
			return td
		}
	}
	return nil
}
