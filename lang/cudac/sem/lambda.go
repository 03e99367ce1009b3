package sem

import (
	"fmt"
	"reflect"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/cudac/syntax"
)

// Lambdas (C++11 [expr.prim.lambda]) that capture by reference, bound to an
// auto variable or called where they are written, are expanded inline at
// each call: the parameters become locals of the caller initialized from
// the arguments, a return stores the result and jumps to the end of the
// expansion, and the captured variables are the caller's own, which is
// what a capture by reference means when the lambda does not outlive the
// scope that defines it.
//
// A lambda that captures by value, or is used as a value (passed to a
// function or template, returned, copied), is what C++ makes of it: an
// object of a closure type, a struct with one member per captured
// variable (a copy made where the lambda is evaluated, or the variable's
// address for a capture by reference) and a member operator() compiled
// from the body, in which the captured names are the members. The
// closure type is one per lambda and enclosing function instance, so a
// template taking F deduces it and calls f(args) as a function object.

type inlineCtx struct {
	dtorDepth int   // len(compiler.dtors) where the expansion starts
	slot      int   // the result (-1: void)
	ret       *Type // the result type
	ends      []int // jumps to patch to the end of the expansion
	depth     int   // lambdas being expanded (recursion guard)
	loops     []*loopCtx
}

func (c *compiler) checkLambda(l *syntax.Lambda) {}

// closureKey identifies a closure type: the lambda in one function
// instance.
type closureKey struct {
	l  *syntax.Lambda
	fn *Function
}

// capture is one captured variable of a closure.
type capture struct {
	name  string
	byRef bool
	t     *Type // the variable's type
}

// captures lists what lambda l captures where it is evaluated: its named
// captures, and with a default capture the enclosing function's locals
// that its body names.
func (c *compiler) captures(l *syntax.Lambda) []capture {
	var out []capture
	seen := map[string]bool{}
	params := map[string]bool{}
	for _, p := range l.Params {
		params[p.Name] = true
	}
	add := func(name string, byRef bool, explicit bool) {
		if seen[name] || params[name] {
			return
		}
		s := c.lookup(name)
		if s == nil || !s.local() {
			if explicit {
				c.errorf(l.Pos, "C0301", "lambda captures %s, which is not a local variable", name)
			}
			return
		}
		seen[name] = true
		out = append(out, capture{name: name, byRef: byRef, t: s.t})
	}
	for i, n := range l.Captures {
		add(n, i < len(l.CapRef) && l.CapRef[i], true)
	}
	if l.CapThis {
		add("this", false, true)
	}
	if l.ByRef || l.ByValue && len(l.Captures) == 0 || l.ByValue && l.ByRef {
		names := map[string]bool{}
		namesIn(l.Body, names)
		for _, n := range sortedKeys(names) {
			if c.recv != nil && c.lookup(n) == nil && (c.recv.field(n) != nil || c.methodOf(c.recv, tagOf(c.recv), n) != nil) {
				n = "this" // a member of the enclosing object: this is captured
			}
			add(n, l.ByRef && n != "this", false)
		}
	}
	return out
}

// closureMeta is what the operator() of a closure type binds on entry:
// its captures, each a name for the member holding it, and the class of
// the captured this (nil: none).
type closureMeta struct {
	caps    []capture
	encl    *Type
	mutable bool
}

// closurePrologue binds the captured names of closure function fn: each
// becomes a reference to its member (to the variable itself for a
// capture by reference), and with this captured the members of the
// enclosing object are in scope as in the function that made the lambda.
func (c *compiler) closurePrologue(meta *closureMeta, pos diag.Pos) {
	cl := c.recv
	for i, cp := range meta.caps {
		f := cl.Fields[i]
		slot := c.newSlot()
		c.emit(OpLocal, 0, 0, pos)
		if f.Offset != 0 {
			c.emit(OpConst, 0, int64(f.Offset), pos)
			c.emit(OpPtrAdd, 1, 0, pos)
		}
		if cp.byRef {
			c.emit(OpLoad, int32(memCode(tULong)), 0, pos)
		}
		c.emit(OpSetLocal, int32(slot), 0, pos)
		c.emit(OpPop, 0, 0, pos)
		// the operator() of a lambda that is not mutable is const, so
		// the copies it captures are const in its body (C++
		// [expr.prim.lambda.closure]p5)
		c.declare(cp.name, &sym{kind: symRef, t: cp.t, slot: slot, cnst: !cp.byRef && !meta.mutable})
	}
	c.recv, c.cls = nil, ""
	if meta.encl != nil && meta.encl.Kind == Struct {
		c.recv, c.cls = meta.encl, tagOf(meta.encl)
	}
}

// local reports whether s is a variable of the enclosing function.
func (s *sym) local() bool {
	switch s.kind {
	case symSlot, symMem, symRef:
		return true
	}
	return false
}

// closure compiles lambda l used as a value: a temporary closure object
// holding its captures (its address is left on the stack).
func (c *compiler) closure(l *syntax.Lambda) *Type {
	pos := l.Pos
	caps := c.captures(l)
	t := c.closureType(l, caps)
	if t == nil {
		c.emit(OpConst, 0, 0, pos)
		return tInt
	}
	c.emit(OpTemp, 0, int64(t.size), pos)
	c.emit(OpMemzero, 0, int64(t.size), pos)
	for i, cp := range caps {
		f := t.Fields[i]
		name := &syntax.Name{Pos: pos, Name: cp.name}
		c.emit(OpDup, 0, 0, pos)
		if f.Offset != 0 {
			c.emit(OpConst, 0, int64(f.Offset), pos)
			c.emit(OpPtrAdd, 1, 0, pos)
		}
		if cp.byRef {
			c.refArg(name, cp.t)
			c.emit(OpStore, int32(memCode(tULong)), 0, pos)
			c.emit(OpPop, 0, 0, pos)
			continue
		}
		c.initFrom(cp.t, name)
		c.emit(OpPop, 0, 0, pos)
	}
	return t
}

// closureType is the closure type of l in this function instance, with
// its operator() declared (and queued for compilation) the first time.
func (c *compiler) closureType(l *syntax.Lambda, caps []capture) *Type {
	for _, p := range l.Params {
		if hasAuto(p.Type) {
			c.errorf(l.Pos, "C0309", "a generic lambda (auto parameter) used as a value is not supported; call it where it is defined")
			return nil
		}
	}
	k := closureKey{l, c.fn}
	if t, ok := c.closures[k]; ok {
		return t
	}
	c.nclosures++
	tag := fmt.Sprintf("lambda#%d", c.nclosures)
	t := &Type{Kind: Struct, Name: "struct " + tag}
	for _, cp := range caps {
		ft := cp.t
		if cp.byRef {
			ft = refTo(cp.t)
		}
		t.Fields = append(t.Fields, &FieldInfo{Name: cp.name, Type: ft})
	}
	layoutStruct(t)
	if t.size == 0 {
		t.size, t.align = 1, 1 // an empty class still has a size
	}
	c.tags[0][tag] = t
	c.closures[k] = t
	// a capture by value of a class with a destructor is destroyed with
	// the closure object, by its implicit destructor ([expr.prim.lambda.
	// closure]p2: the closure type is a class, [class.dtor]p7)
	own := map[*FieldInfo]bool{}
	for _, f := range t.Fields {
		own[f] = true
	}
	ownFieldsOf.Store(t, own)
	c.implicitDtorOf(t, &syntax.TypeExpr{Pos: l.Pos})
	pts, rt := c.lambdaSig(l)
	ft := &Type{Kind: Func, Elem: rt, Params: pts, size: 1, align: 1, complete: true}
	fd := &syntax.FuncDecl{Pos: l.Pos, Name: tag + "::operator()", Recv: tag, Body: l.Body, EndPos: l.Body.End,
		Type: &syntax.TypeExpr{Kind: syntax.TFunc, Pos: l.Pos, Params: l.Params, Elem: l.Ret},
		Q:    syntax.Qualifiers{Host: true, Device: true}}
	fn := &Function{Name: fd.Name, Type: ft, decl: fd, tmap: c.tmap, tvals: c.tvals, defined: true, Host: true, Device: true}
	meta := &closureMeta{caps: caps, mutable: l.Mutable}
	for _, cp := range caps {
		if cp.name == "this" && cp.t.Kind == Ptr {
			meta.encl = cp.t.Elem
		}
	}
	c.closureMeta[fn] = meta
	fn.PosIdx = c.pos(l.Pos)
	c.funcs[fd.Name] = fn
	c.prog.Funcs = append(c.prog.Funcs, fn)
	c.queue = append(c.queue, fn)
	if c.lambdaOf == nil {
		c.lambdaOf = map[*Type]*lambdaInfo{}
	}
	c.lambdaOf[t] = &lambdaInfo{l: l, caps: caps, ft: ft, tag: tag}
	return t
}

// lambdaInfo is what a closure type was made from (for its conversion to
// a function pointer).
type lambdaInfo struct {
	l      *syntax.Lambda
	caps   []capture
	ft     *Type
	tag    string
	invoke *Function
}

// lambdaToFnPtr converts the closure object on the stack (of closure
// type t) to a pointer to a function with the lambda's signature, as a
// lambda without captures converts (C++ [expr.prim.lambda.closure]p8):
// the function is the body compiled as a free function. ok is false when
// t is no closure type.
func (c *compiler) lambdaToFnPtr(t *Type, pos diag.Pos) bool {
	info := c.lambdaOf[t]
	if info == nil {
		return false
	}
	c.emit(OpPop, 0, 0, pos)
	if len(info.caps) > 0 {
		c.errorf(pos, "C0302", "a lambda that captures (%s) has no conversion to a function pointer", info.caps[0].name)
		c.emit(OpConst, 0, 0, pos)
		return true
	}
	if info.invoke == nil {
		l := info.l
		fd := &syntax.FuncDecl{Pos: l.Pos, Name: info.tag + "::__invoke", Body: l.Body, EndPos: l.Body.End,
			Type: &syntax.TypeExpr{Kind: syntax.TFunc, Pos: l.Pos, Params: l.Params, Elem: l.Ret},
			Q:    syntax.Qualifiers{Host: true, Device: true}}
		fn := &Function{Name: fd.Name, Type: info.ft, decl: fd, tmap: c.tmap, tvals: c.tvals, defined: true, Host: true, Device: true}
		fn.PosIdx = c.pos(l.Pos)
		c.funcs[fd.Name] = fn
		c.prog.Funcs = append(c.prog.Funcs, fn)
		c.queue = append(c.queue, fn)
		info.invoke = fn
	}
	c.emit(OpConst, 0, int64(c.fnPtr(info.invoke)), pos)
	return true
}

// namesIn collects the identifiers an AST subtree names.
func namesIn(n any, out map[string]bool) {
	walkAST(reflect.ValueOf(n), 0, func(v any) bool {
		switch x := v.(type) {
		case *syntax.Name:
			out[x.Name] = true
			return true
		case *syntax.TypeExpr:
			return true
		}
		return false
	})
}

// inlineLambda expands a call of lambda l.
func (c *compiler) inlineLambda(l *syntax.Lambda, e *syntax.Call) *Type {
	pos := e.Pos
	if c.inl != nil && c.inl.depth > 16 {
		c.errorf(pos, "C0309", "lambdas nested more than 16 deep")
		c.emit(OpConst, 0, 0, pos)
		return tInt
	}
	if len(e.Args) != len(l.Params) {
		c.errorf(pos, "C0304", "the lambda takes %d arguments, %d given", len(l.Params), len(e.Args))
		c.emit(OpConst, 0, 0, pos)
		return tInt
	}
	// the result type: written, or deduced from the first return (with
	// this expansion's context, so memoized types are its own)
	ctx := &inlineCtx{slot: -1, loops: c.loops}
	rt := tVoid
	if l.Ret != nil {
		rt = c.resolve(l.Ret)
	} else if r := firstReturn(l.Body); r != nil && r.X != nil {
		saved := c.inl
		c.inl = ctx
		c.push()
		c.bindLambdaParams(l, e, true)
		rt = c.typeOf(r.X, true)
		c.pop()
		c.inl = saved
	}
	if rt.Kind == Struct || rt.Kind == Array {
		c.errorf(pos, "C0309", "a lambda returning %s is not supported", rt)
		rt = tInt
	}
	ctx.ret = rt
	if c.inl != nil {
		ctx.depth = c.inl.depth + 1
	}
	if rt.Kind != Void {
		ctx.slot = c.newSlot()
		c.emit(OpConst, 0, 0, pos)
		c.emit(OpSetLocal, int32(ctx.slot), 0, pos)
		c.emit(OpPop, 0, 0, pos)
	}
	c.push()
	c.bindLambdaParams(l, e, false)
	saved := c.inl
	ctx.dtorDepth = len(c.dtors)
	c.inl = ctx
	c.loops = nil
	savedArgs := c.lambdaArgs
	c.lambdaArgs = false // the body's own references extend (cxx.go refLocal)
	c.block(l.Body, true)
	c.lambdaArgs = savedArgs
	c.inl = saved
	c.loops = ctx.loops
	c.pop()
	for _, at := range ctx.ends {
		c.patch(at)
	}
	if ctx.slot >= 0 {
		c.emit(OpLocal, int32(ctx.slot), 0, pos)
		return rt
	}
	c.emit(OpConst, 0, 0, pos)
	return tVoid
}

// bindLambdaParams declares the parameters as locals holding the
// arguments (dry: types only, for deducing the result type).
func (c *compiler) bindLambdaParams(l *syntax.Lambda, e *syntax.Call, dry bool) {
	for i, p := range l.Params {
		pt := c.resolve(p.Type)
		if hasAuto(p.Type) {
			pt = c.typeOf(e.Args[i], true) // a generic lambda's auto parameter
		}
		if p.Name == "" {
			continue
		}
		if dry {
			slot := c.newSlot()
			if pt.Ref {
				c.declare(p.Name, &sym{kind: symRef, t: pt.Elem, slot: slot})
			} else if pt.Kind == Struct || pt.Kind == Array {
				c.declare(p.Name, &sym{kind: symMem, t: pt, slot: slot})
			} else {
				c.declare(p.Name, &sym{kind: symSlot, t: pt, slot: slot})
			}
			continue
		}
		d := &syntax.Decl{Pos: p.Pos, Name: p.Name, Type: p.Type, Init: e.Args[i]}
		if hasAuto(p.Type) {
			c.autoT = pt
		}
		saved := c.lambdaArgs
		c.lambdaArgs = true // cxx.go refLocal
		c.localDecl(d)
		c.lambdaArgs = saved
		c.autoT = nil
	}
}

// lambdaReturn compiles return inside an inline expansion.
func (c *compiler) lambdaReturn(s *syntax.ReturnStmt) {
	ctx := c.inl
	if s.X != nil {
		t := c.expr(s.X)
		if ctx.slot >= 0 {
			c.convert(t, ctx.ret, syntax.PosOf(s.X))
			c.emit(OpSetLocal, int32(ctx.slot), 0, s.Pos)
		}
		c.emit(OpPop, 0, 0, s.Pos)
	}
	c.destroy(ctx.dtorDepth, s.Pos)
	ctx.ends = append(ctx.ends, c.emit(OpJmp, 0, 0, s.Pos))
}

// firstReturn finds the first return statement of a body.
func firstReturn(s syntax.Stmt) *syntax.ReturnStmt {
	switch s := s.(type) {
	case *syntax.ReturnStmt:
		return s
	case *syntax.Block:
		for _, x := range s.Stmts {
			if r := firstReturn(x); r != nil {
				return r
			}
		}
	case *syntax.IfStmt:
		if r := firstReturn(s.Then); r != nil {
			return r
		}
		return firstReturn(s.Else)
	case *syntax.ForStmt:
		return firstReturn(s.Body)
	case *syntax.DoStmt:
		return firstReturn(s.Body)
	case *syntax.RangeFor:
		return firstReturn(s.Body)
	case *syntax.LabeledStmt:
		return firstReturn(s.Stmt)
	case *syntax.SwitchStmt:
		return firstReturn(s.Body)
	}
	return nil
}

var _ = diag.Pos{}

// lambdaSig is the parameter and result types of lambda l (not generic):
// the result written, or deduced from the first return with the
// parameters bound (the captured names are the enclosing function's
// variables here, of the same types).
func (c *compiler) lambdaSig(l *syntax.Lambda) ([]*Type, *Type) {
	rt := tVoid
	c.push()
	defer c.pop()
	var pts []*Type
	for _, p := range l.Params {
		pt := c.resolve(p.Type)
		if pt.Kind == Array {
			pt = ptrTo(pt.Elem)
		}
		pts = append(pts, pt)
		if p.Name == "" {
			continue
		}
		switch {
		case pt.Ref:
			c.declare(p.Name, &sym{kind: symRef, t: pt.Elem, slot: c.newSlot()})
		case pt.Kind == Struct:
			c.declare(p.Name, &sym{kind: symMem, t: pt, slot: c.newSlot()})
		default:
			c.declare(p.Name, &sym{kind: symSlot, t: pt, slot: c.newSlot()})
		}
	}
	if l.Ret != nil {
		rt = c.resolve(l.Ret)
	} else if r := firstReturn(l.Body); r != nil && r.X != nil {
		// the declarations before it are in scope (compiled dry)
		code, slots, allocas, dtors := len(c.code), c.nslots, len(c.allocas), c.dtors
		c.dtors = append(c.dtors[:len(c.dtors):len(c.dtors)], nil)
		c.dry++
		for _, st := range l.Body.Stmts {
			if d, ok := st.(*syntax.DeclStmt); ok {
				c.stmt(d)
			}
			if st == syntax.Stmt(r) {
				break
			}
		}
		rt = c.typeOf(r.X, true)
		c.dry--
		c.code, c.nslots, c.allocas, c.dtors = c.code[:code], slots, c.allocas[:allocas], dtors
		if rt.Ref {
			rt = rt.Elem
		}
	}
	return pts, rt
}

// returnsObject reports whether lambda l returns a struct (which only
// its closure's operator() can: the inline expansion returns scalars).
func (c *compiler) returnsObject(l *syntax.Lambda) bool {
	for _, p := range l.Params {
		if hasAuto(p.Type) {
			return false
		}
	}
	if l.Ret == nil && firstReturn(l.Body) == nil {
		return false
	}
	save := len(c.code)
	slots := c.nslots
	c.dry++
	_, rt := c.lambdaSig(l)
	c.dry--
	c.code = c.code[:save]
	c.nslots = slots
	return rt.Kind == Struct || rt.Kind == Array
}

// stdMutators are the member functions of the modeled std classes that
// change the object (C++ gives them no const overload).
var stdMutators map[string]bool

// initStdMutators builds stdMutators (tables.go).
func initStdMutators() {
	stdMutators = map[string]bool{"push_back": true, "pop_back": true, "emplace_back": true, "clear": true,
		"resize": true, "reserve": true, "insert": true, "erase": true, "assign": true, "append": true,
		"swap": true, "shrink_to_fit": true, "push_front": true, "pop_front": true, "emplace_front": true,
		"push": true, "pop": true, "emplace": true}
}
