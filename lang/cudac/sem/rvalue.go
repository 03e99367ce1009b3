package sem

import (
	"strings"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/cudac/syntax"
)

// Rvalue references and deleted functions (C++ [dcl.ref], [over.ics.rank],
// [dcl.fct.def.delete]). A T&& parameter is bound like a const T& (to the
// object, or to a temporary holding the value), so what the function
// observes is the same; what && changes is which overload a call chooses:
// an rvalue argument prefers T&& to const T& (a move constructor over the
// copy constructor, std::move(x) included), and an lvalue cannot bind to
// T&&. A function declared = delete takes part in overload resolution and
// is an error when chosen (a deleted copy constructor makes copying a
// move-only class, unique_ptr, an error at the copy).

// rvalueMiss is the penalty of a binding C++ forbids (an lvalue to T&&, an
// rvalue to a non-const T&): the candidate loses to any that binds, but a
// lone candidate is still called, as before this rule (sem reports no
// error where its classification of an argument could be wrong).
const rvalueMiss = -100

// refBinding scores binding argument arg to parameter type pt for
// pickOverload: +1 for an rvalue to T&& (preferred over const T&),
// rvalueMiss for a binding C++ forbids, 0 otherwise.
func (c *compiler) refBinding(pt *Type, arg syntax.Expr) int {
	if !pt.Ref {
		return 0
	}
	switch {
	case pt.rval && c.isRvalue(arg):
		return 1
	case pt.rval:
		return rvalueMiss
	case !pt.cst && c.isRvalue(arg):
		return rvalueMiss
	case pt.cst:
		return 0
	}
	// an lvalue for a T&: not viable when it is const ([dcl.init.ref]p5),
	// else better than a const T& ([over.ics.rank]p3.2.6: the less
	// cv-qualified reference), so f(R&) and f(const R&) are no ambiguity
	if call, ok := arg.(*syntax.Call); ok {
		if n, ok := call.Fun.(*syntax.Name); ok && (n.Name == "forward" || n.Name == "std::forward") {
			// an lvalue forward<T>(x): whether x is const is not kept in
			// the instance (T names U, not const U), so no preference:
			// f(R&) beside f(const R&) stays C0304 here
			return 0
		}
	}
	if _, ro := c.readOnly(arg); ro {
		return rvalueMiss
	}
	return 1
}

// isRvalue reports whether e is an rvalue (C++ [basic.lval]: a prvalue or
// an xvalue). Where the answer depends on a callee it cannot see, it says
// lvalue, which picks the copying overload.
func (c *compiler) isRvalue(e syntax.Expr) bool {
	switch e := e.(type) {
	case *syntax.Name, *syntax.Member, *syntax.Index, *syntax.StringLitExpr, *syntax.ScopedName:
		return false
	case *syntax.Unary:
		return e.Op != "*" && e.Op != "++" && e.Op != "--"
	case *syntax.Binary:
		// assignments and compound assignments are lvalues
		return e.Op != "=" && (len(e.Op) < 2 || e.Op[len(e.Op)-1] != '=' || e.Op == "==" || e.Op == "!=" || e.Op == "<=" || e.Op == ">=")
	case *syntax.Cast:
		return e.Type == nil || e.Type.Kind != syntax.TRef || e.Type.RValue
	case *syntax.Call:
		if m, ok := e.Fun.(*syntax.Member); ok && c.memberByValue(m) {
			return true // a.f() returning a class by value: a prvalue (temps.go)
		}
		if by, _ := c.objectCallByValue(e); by {
			return true // f(60) of a closure or function object (temps.go)
		}
		if fn := c.calleeOf(e); fn != nil && fn.Type != nil {
			rt := fn.Type.Elem
			return !rt.Ref || rt.rval
		}
		if rt := c.templateResult(e); rt != nil {
			return rt.Kind != syntax.TRef || rt.RValue
		}
		if n, ok := e.Fun.(*syntax.Name); ok && c.lookup(n.Name) == nil && c.funcs[n.Name] == nil && c.templates[n.Name] == nil {
			return true // T(args): a temporary
		}
		return false
	case *syntax.Cond:
		return c.isRvalue(e.X) || c.isRvalue(e.Y)
	}
	return true // literals, lambdas, initializer lists, sizeof, ...
}

// calleeOf is the function a call names when it is a plain function or
// function template call whose instance exists, or nil.
func (c *compiler) calleeOf(e *syntax.Call) *Function {
	n, ok := e.Fun.(*syntax.Name)
	if !ok || c.lookup(n.Name) != nil {
		return nil
	}
	if n.Name == "move" || n.Name == "std::move" {
		// <utility>'s std::move: an xvalue whatever instance it is
		return &Function{Type: &Type{Kind: Func, Elem: &Type{Kind: Ptr, Ref: true, rval: true}}}
	}
	if n.Name == "forward" || n.Name == "std::forward" {
		// std::forward<T>(x): an lvalue when T is an lvalue reference,
		// else an xvalue ([forward]p2: static_cast<T&&>(x), with
		// reference collapsing)
		return &Function{Type: &Type{Kind: Func, Elem: &Type{Kind: Ptr, Ref: true, rval: !c.forwardsLvalue(e)}}}
	}
	if len(c.overloads[n.Name]) > 1 {
		return nil
	}
	return c.funcs[n.Name]
}

// ctorForArgs is the constructor of t for args: among its constructors
// of that many parameters (or fewer, with default arguments), the one
// overload resolution picks by the arguments' types and value categories.
func (c *compiler) ctorForArgs(t *Type, args []syntax.Expr, pos diag.Pos) *Function {
	return c.pickCtor(c.ctorFor(t, len(args), pos), args, pos)
}

// pickCtor chooses among the overloads of constructor fn (those of its
// number of parameters) by args.
func (c *compiler) pickCtor(fn *Function, args []syntax.Expr, pos diag.Pos) *Function {
	if fn == nil || fn.decl == nil {
		return fn
	}
	ovs := c.overloads[fn.decl.Name]
	if len(ovs) < 2 {
		return fn
	}
	var same []*Function
	for _, o := range ovs {
		if o.Type != nil && len(o.Type.Params) == len(args) {
			same = append(same, o)
		}
	}
	if len(same) < 2 {
		return fn
	}
	return c.pickOverload(same, &syntax.Call{Pos: pos, Args: args, RParen: pos})
}

// checkDeleted reports a call of a function declared = delete.
func (c *compiler) checkDeleted(fn *Function, pos diag.Pos) {
	if fn != nil && fn.decl != nil && fn.decl.Deleted {
		name := fn.Name
		if i := strings.LastIndex(name, "#"); i > 0 {
			name = name[:i] // the constructor overload's arity suffix
		}
		var ps []string
		for _, p := range fn.Type.Params {
			ps = append(ps, p.String())
		}
		c.errorf(pos, "C0304", "use of deleted function %s(%s)", name, strings.Join(ps, ", "))
	}
}

// copyCtorFor is the copy or move constructor (C++ [class.copy.ctor]) that
// initializes an object of class t from e, an expression of class t (or a
// class derived from it), or nil when the copy is the implicit memberwise
// one: t declares no constructor taking its own class by reference, or e
// is a prvalue, which C++17 materializes in the object itself.
func (c *compiler) copyCtorFor(t *Type, e syntax.Expr, pos diag.Pos) *Function {
	if c.isPrvalue(e) {
		return nil
	}
	first := c.ctorOf(t, 1)
	if first == nil || first.decl == nil {
		return c.implicitCopyCtor(t, pos) // implcopy.go
	}
	var cands []*Function
	ovs := c.overloads[first.decl.Name]
	if len(ovs) == 0 {
		ovs = []*Function{first}
	}
	for _, o := range ovs {
		if o.Type == nil || len(o.Type.Params) != 1 {
			continue
		}
		pt := o.Type.Params[0]
		if pt.Ref && pt.Elem.Kind == Struct && (pt.Elem == t || pt.Elem.Name == t.Name && t.Name != "") {
			cands = append(cands, o)
		}
	}
	switch len(cands) {
	case 0:
		return c.implicitCopyCtor(t, pos) // implcopy.go
	case 1:
		if cands[0].Type.Params[0].rval && !c.isRvalue(e) {
			// only a move constructor: the implicit copy constructor is
			// deleted (C++ [class.copy.ctor]p6)
			c.errorf(pos, "C0304", "copy of %s, whose copy constructor is deleted (it declares a move constructor)", t)
		}
		return cands[0]
	}
	return c.pickOverload(cands, &syntax.Call{Pos: pos, Args: []syntax.Expr{e}, RParen: pos})
}

// isPrvalue reports whether e is a prvalue: an rvalue that is not an
// xvalue (std::move(x), a cast to T&&, a call returning T&&).
func (c *compiler) isPrvalue(e syntax.Expr) bool {
	if !c.isRvalue(e) {
		return false
	}
	switch e := e.(type) {
	case *syntax.Cast:
		return e.Type == nil || e.Type.Kind != syntax.TRef
	case *syntax.Call:
		if fn := c.calleeOf(e); fn != nil && fn.Type != nil && fn.Type.Elem.Ref {
			return false
		}
		if rt := c.templateResult(e); rt != nil && rt.Kind == syntax.TRef {
			return false
		}
	}
	return true
}

// byCopyCtor compiles argument a for a by-value parameter of class type
// pt by pt's copy or move constructor when a is a glvalue of that class
// and the class declares one (C++ [expr.call]p7: the parameter is
// copy-initialized from the argument), reporting whether it did. The
// parameter is then a temporary the callee destroys (paramObjects).
func (c *compiler) byCopyCtor(pt *Type, a syntax.Expr, pos diag.Pos) bool {
	if pt.Kind != Struct || pt.std != 0 || pt.cg != 0 || pt.Name == "" {
		return false
	}
	c.dry++
	at := c.typeOf(a, true)
	c.dry--
	if at != pt && !(at.Kind == Struct && at.Name == pt.Name) {
		return false
	}
	cc := c.copyCtorFor(pt, a, pos)
	if cc == nil {
		return false
	}
	c.emit(OpTemp, 0, int64(pt.size), pos)
	c.emit(OpMemzero, 0, int64(pt.size), pos)
	c.emit(OpDup, 0, 0, pos)
	c.construct(cc, []syntax.Expr{a}, exprStart(a)) // a diagnostic names the argument
	return true
}

// paramObjects are the by-value parameters of fn whose class has a
// destructor, destroyed when the function returns (C++ [expr.call]p7
// leaves it to the implementation whether at the function's end or the
// caller's full-expression; here, the function's end, with its other
// automatic objects, after them). Not for kernels: a kernel's parameters
// are copied to the device byte for byte.
func (c *compiler) paramObjects(fn *Function, fd *syntax.FuncDecl, off int) []autoObj {
	if fn.Global {
		return nil
	}
	var objs []autoObj
	for i, pt := range fn.Type.Params {
		if pt.Kind != Struct || pt.std != 0 || i >= len(fd.Type.Params) {
			continue
		}
		if dt := c.dtorOf(pt); dt != nil {
			objs = append(objs, autoObj{slot: i + off, dtor: dt, start: c.here()})
		}
	}
	return objs
}

// nrvoSlot is the slot of the automatic object a return statement
// "return x;" returns by value, or -1. That object becomes the function's
// result and is not destroyed at the return: the named return value
// optimization (C++ [class.copy.elision]p1.1), which GCC and nvcc's host
// compiler apply to this form, so a class whose destructor frees what
// its members point to returns them intact, and no copy or move
// constructor runs, as on those compilers.
func (c *compiler) nrvoSlot(rt *Type, x syntax.Expr) int {
	n, ok := x.(*syntax.Name)
	if !ok || rt.Kind != Struct || rt.std != 0 {
		return -1
	}
	s := c.lookup(n.Name)
	if s == nil || s.kind != symMem || s.t == nil || s.t.Kind != Struct || s.t.Name != rt.Name || c.byValueParam(n.Name, s) {
		return -1
	}
	return s.slot
}

// returnParam compiles `return p;` of a by-value parameter p of class
// rt, reporting whether it did: the result is constructed from p by rt's
// move constructor, or its copy constructor without one (C++
// [class.copy.elision]p3: p is an implicitly movable entity, an rvalue
// first); p itself is destroyed with the function's objects. Without a
// user-declared one the copy is the bitwise one the caller makes.
func (c *compiler) returnParam(rt *Type, x syntax.Expr, pos diag.Pos) bool {
	n, ok := x.(*syntax.Name)
	if !ok || rt.Kind != Struct || rt.std != 0 || rt.cg != 0 || rt.Name == "" {
		return false
	}
	s := c.lookup(n.Name)
	if s == nil || !c.byValueParam(n.Name, s) || s.t.Name != rt.Name {
		return false
	}
	first := c.ctorOf(rt, 1)
	if first == nil || first.decl == nil {
		return false
	}
	ovs := c.overloads[first.decl.Name]
	if len(ovs) == 0 {
		ovs = []*Function{first}
	}
	var copyC, moveC *Function
	for _, o := range ovs {
		if o.Type == nil || len(o.Type.Params) != 1 {
			continue
		}
		pt := o.Type.Params[0]
		if pt.Ref && pt.Elem != nil && pt.Elem.Kind == Struct && pt.Elem.Name == rt.Name {
			if pt.rval {
				moveC = o
			} else {
				copyC = o
			}
		}
	}
	ctor := moveC
	if ctor == nil {
		ctor = copyC
	}
	if ctor == nil {
		return false
	}
	c.emit(OpTemp, 0, int64(rt.size), pos)
	c.emit(OpMemzero, 0, int64(rt.size), pos)
	c.emit(OpDup, 0, 0, pos)
	c.lvalue(x) // the parameter's address
	c.checkCallSpace(ctor, pos)
	c.emit(OpCall, int32(c.funcIndex(ctor)), 2, pos)
	c.emit(OpPop, 0, 0, pos)
	return true
}

// byValueParam reports whether name (symbol s) is a by-value parameter
// of the function being compiled: not a candidate for NRVO
// ([class.copy.elision]p1.1 excludes function parameters); `return p;`
// moves or copies it into the result, and p is destroyed with the
// function's other objects.
func (c *compiler) byValueParam(name string, s *sym) bool {
	if c.fn == nil || c.fn.decl == nil || c.fn.decl.Type == nil || c.inl != nil || c.fn.Global {
		return false
	}
	fd := c.fn.decl
	off := 0
	if fd.Recv != "" && !fd.Q.Static {
		off = 1
	}
	for i, p := range fd.Type.Params {
		if p.Name == name && s.slot == i+off && s.kind == symMem && i < len(c.fn.Type.Params) && !c.fn.Type.Params[i].Ref {
			return true
		}
	}
	return false
}

// Perfect forwarding (C++ [temp.deduct.call]p3, [forward]). A parameter
// T&& of a function template, T one of its type parameters, is a
// forwarding reference: an lvalue argument of type U deduces T = U& (and
// T&& collapses to U&), an rvalue deduces T = U. sem keeps T = U in both
// cases (a type that names T inside the body is U either way) and records
// the lvalue deductions instead: they make a separate instance, whose
// parameter is U&, and std::forward<T>(x) in it is an lvalue, in the
// rvalue instance an xvalue, so a forwarded rvalue chooses the move
// constructor and a move-only argument (unique_ptr) passes through.

// forwardingLvalues is the set of td's type parameters T for which a
// parameter T&& (a forwarding reference, T not given explicitly) has an
// lvalue argument in call e.
func (c *compiler) forwardingLvalues(td *syntax.FuncDecl, e *syntax.Call, tmap map[string]*Type) map[string]bool {
	var lv map[string]bool
	for i, p := range td.Type.Params {
		if i >= len(e.Args) {
			break
		}
		te := p.Type
		if te == nil || te.Kind != syntax.TRef || !te.RValue || te.Elem == nil || te.Elem.Kind != syntax.TNamed || len(te.Elem.TArgs) > 0 || te.Elem.Const {
			continue
		}
		k, isParam := indexOf(td.TParams, te.Elem.Name)
		if !isParam || k < len(e.TypeArgs) && e.TypeArgs[k] != nil {
			continue // not a template parameter, or given explicitly: an rvalue reference
		}
		if !c.isRvalue(e.Args[i]) {
			if lv == nil {
				lv = map[string]bool{}
			}
			lv[te.Elem.Name] = true
		}
	}
	return lv
}

// bindForwarding makes fn's forwarding-reference parameters whose type
// parameter was deduced from an lvalue (lv) lvalue references, as
// reference collapsing makes them (U& &&: U&).
func (c *compiler) bindForwarding(fn *Function, td *syntax.FuncDecl, lv map[string]bool) {
	if len(lv) == 0 || fn.Type == nil {
		return
	}
	fn.fwdLv = lv
	ft := *fn.Type
	ft.Params = append([]*Type(nil), ft.Params...)
	for i, p := range td.Type.Params {
		te := p.Type
		if i >= len(ft.Params) || te == nil || te.Kind != syntax.TRef || !te.RValue || te.Elem == nil || !lv[te.Elem.Name] {
			continue
		}
		pt := *ft.Params[i]
		pt.rval = false
		ft.Params[i] = &pt
	}
	fn.Type = &ft
}

// forwardsLvalue reports whether std::forward<T>(x) (call e) is an lvalue:
// T is an lvalue reference type, or a type parameter of the function being
// compiled that its instance deduced from an lvalue.
func (c *compiler) forwardsLvalue(e *syntax.Call) bool {
	if len(e.TypeArgs) == 0 || e.TypeArgs[0] == nil {
		return true
	}
	ta := e.TypeArgs[0]
	switch {
	case ta.Kind == syntax.TRef:
		return !ta.RValue
	case ta.Kind == syntax.TNamed && len(ta.TArgs) == 0 && c.fn != nil && c.fn.fwdLv[ta.Name]:
		return true
	}
	return false
}
