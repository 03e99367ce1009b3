package sem

import (
	"fmt"
	"math"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/cudac/syntax"
)

// The C++11-17 parts that generated CUDA code uses (issue 12 item 2):
// static_assert, if constexpr, if with an init-statement, range for over
// arrays, explicit specializations of function templates, type traits,
// alignas and default member initializers. Each compiles to the bytecode
// of the C it stands for.

// staticAssert checks static_assert(cond, msg) where it is compiled: at
// file scope, or in a function or template instance.
func (c *compiler) staticAssert(d *syntax.Decl) {
	v, ok := c.constExpr(d.StaticAssert)
	if !ok {
		c.errorf(syntax.PosOf(d.StaticAssert), "C0313", "static_assert condition is not a constant expression")
		return
	}
	if v == 0 {
		msg := d.AssertMsg
		if msg == "" {
			msg = "condition is false"
		}
		c.errorf(d.Pos, "C0316", "static assertion failed: %s", msg)
	}
}

// ifConstexpr compiles only the branch if constexpr selects (C++17
// [stmt.if]/2: the other one is discarded, so it may be ill-formed for
// this template instance).
func (c *compiler) ifConstexpr(s *syntax.IfStmt) {
	v, ok := c.constExpr(s.Cond)
	if !ok {
		c.errorf(syntax.PosOf(s.Cond), "C0313", "if constexpr condition is not a constant expression")
		return
	}
	if v != 0 {
		c.scoped(s.Then)
	} else if s.Else != nil {
		c.scoped(s.Else)
	}
}

// rangeFor compiles for (decl : range) over an array (or a modeled
// container, lib.go) as an index loop: range is evaluated once per
// iteration, which is the same for the names and members it may be.
func (c *compiler) rangeFor(s *syntax.RangeFor) {
	pos := s.Pos
	rt := c.typeOf(s.Range, false)
	var n syntax.Expr
	switch {
	case rt.Kind == Array && rt.Len >= 0:
		n = &syntax.IntLitExpr{Pos: pos, Value: uint64(rt.Len), Type: "long"}
	case c.rangeLen(rt) != nil:
		n = c.rangeLen(rt)(s.Range, pos)
	case rt.Kind == Struct && rt.std == 0 && c.methodOf(rt, tagOf(rt), "begin") != nil && c.methodOf(rt, tagOf(rt), "end") != nil:
		c.rangeForMembers(s) // braces.go
		return
	default:
		c.errorf(syntax.PosOf(s.Range), "C0309", "range for over a value of type %s (arrays and std::vector are supported)", rt)
		return
	}
	if hasSideEffects(s.Range) {
		c.errorf(syntax.PosOf(s.Range), "C0309", "range for over an expression with calls or assignments (name the container first)")
		return
	}
	idx := "__range_i"
	for k := 0; c.lookup(idx) != nil; k++ {
		idx += "_"
	}
	iv := &syntax.Name{Pos: pos, Name: idx}
	v := *s.Var
	v.Init = &syntax.Index{Pos: pos, X: s.Range, I: iv}
	loop := &syntax.ForStmt{
		Pos:  pos,
		Init: &syntax.DeclStmt{Pos: pos, Decls: []*syntax.Decl{{Pos: pos, Name: idx, Type: &syntax.TypeExpr{Kind: syntax.TNamed, Name: "long", Pos: pos}, Init: &syntax.IntLitExpr{Pos: pos, Type: "long"}}}},
		Cond: &syntax.Binary{Pos: pos, Op: "<", X: iv, Y: n},
		Post: &syntax.Unary{Pos: pos, Op: "++", X: iv, Post: true},
		Body: &syntax.Block{Pos: pos, Stmts: []syntax.Stmt{&syntax.DeclStmt{Pos: pos, Decls: []*syntax.Decl{&v}}, s.Body}},
	}
	if v.Type != nil && v.Type.Kind == syntax.TRef {
		c.addrTaken[idx] = false
	}
	c.stmt(loop)
}

// hasSideEffects reports whether evaluating e twice could differ from
// evaluating it once.
func hasSideEffects(e syntax.Expr) bool {
	switch e := e.(type) {
	case *syntax.Name, *syntax.IntLitExpr:
		return false
	case *syntax.Member:
		return hasSideEffects(e.X)
	case *syntax.Index:
		return hasSideEffects(e.X) || hasSideEffects(e.I)
	case *syntax.Unary:
		return e.Op == "++" || e.Op == "--" || hasSideEffects(e.X)
	}
	return true
}

// specFor finds the explicit specialization of td for the arguments.
func (c *compiler) specFor(td *syntax.FuncDecl, tmap map[string]*Type, tvals map[string]int64) *syntax.FuncDecl {
	for _, sp := range c.specs[td.Name] {
		match := len(sp.SpecArgs) == len(td.TParams)
		for i, name := range td.TParams {
			if !match {
				break
			}
			switch {
			case sp.SpecArgs[i] != nil:
				saveT, saveV := c.tmap, c.tvals
				c.tmap, c.tvals = nil, nil
				at := c.resolve(sp.SpecArgs[i])
				c.tmap, c.tvals = saveT, saveV
				match = tmap[name] != nil && sameType(at, tmap[name])
			case i < len(sp.SpecArgExprs) && sp.SpecArgExprs[i] != nil:
				v, ok := c.constExpr(sp.SpecArgExprs[i])
				tv, has := tvals[name]
				match = ok && has && v == tv
			default:
				match = false
			}
		}
		if match {
			return sp
		}
	}
	return nil
}

// sameType is type identity (std::is_same; specialization matching).
func sameType(a, b *Type) bool {
	if a == b {
		return true
	}
	if a.Kind != b.Kind || a.Ref != b.Ref {
		return false
	}
	switch a.Kind {
	case Ptr:
		return sameType(a.Elem, b.Elem)
	case Array:
		return a.Len == b.Len && sameType(a.Elem, b.Elem)
	case Struct:
		return a.Name != "" && a.Name == b.Name && a.size == b.size
	}
	return a.String() == b.String()
}

// traitValue evaluates an integer type trait (std::is_integral<T>::value
// and friends, C++11 [meta.unary]).
func (c *compiler) traitValue(e *syntax.Trait) (int64, bool) {
	if e.Member == "()" { // a comparison object (lib_algorithm.go)
		c.errorf(e.Pos, "C0309", "%s is not a constant", e.Name)
		return 0, false
	}
	if e.Name == "numeric_limits" {
		v, t, ok := c.limit(e)
		if !ok || !t.isInt() {
			return 0, false
		}
		return int64(v), true
	}
	var ts []*Type
	for _, te := range e.Types {
		ts = append(ts, c.resolve(te))
	}
	want := 1
	if e.Name == "is_same" {
		want = 2
	}
	if len(ts) != want {
		c.errorf(e.Pos, "C0304", "std::%s takes %d type arguments, %d given", e.Name, want, len(ts))
		return 0, false
	}
	t := ts[0]
	var v bool
	switch e.Name {
	case "is_integral":
		v = t.isInt()
	case "is_floating_point":
		v = t.Kind == Float || t.Kind == Double
	case "is_arithmetic":
		v = t.isInt() || t.Kind == Float || t.Kind == Double
	case "is_signed":
		v = t.isSigned() || t.Kind == Float || t.Kind == Double
	case "is_unsigned":
		v = t.isInt() && !t.isSigned()
	case "is_pointer":
		v = t.Kind == Ptr && !t.Ref
	case "is_reference":
		v = t.Ref
	case "is_array":
		v = t.Kind == Array
	case "is_void":
		v = t.Kind == Void
	case "is_class":
		v = t.Kind == Struct && !t.Union
	case "is_same":
		v = sameType(ts[0], ts[1])
	case "is_trivially_copyable":
		v = true
	default:
		c.errorf(e.Pos, "C0309", "std::%s is not modeled", e.Name)
		return 0, false
	}
	return int64(b2u(v)), true
}

// trait compiles a trait or limit as a value.
func (c *compiler) trait(e *syntax.Trait) *Type {
	if e.Member == "()" {
		c.errorf(e.Pos, "C0309", "%s as a value is not modeled (only as the comparator or predicate of an <algorithm> function)", e.Name)
		c.emit(OpConst, 0, 0, e.Pos)
		return tInt
	}
	if e.Name == "numeric_limits" {
		v, t, ok := c.limit(e)
		if !ok {
			c.emit(OpConst, 0, 0, e.Pos)
			return tInt
		}
		c.emit(OpConst, 0, int64(v), e.Pos)
		return t
	}
	v, _ := c.traitValue(e)
	c.emit(OpConst, 0, v, e.Pos)
	return tBool
}

// limit is std::numeric_limits<T>::Member() for the arithmetic types.
func (c *compiler) limit(e *syntax.Trait) (uint64, *Type, bool) {
	if len(e.Types) != 1 {
		c.errorf(e.Pos, "C0304", "std::numeric_limits takes one type argument")
		return 0, tInt, false
	}
	t := c.resolve(e.Types[0])
	switch {
	case t.isInt():
		bitsN := t.size * 8
		var max, min uint64
		if t.isSigned() {
			max = 1<<(bitsN-1) - 1
			min = ext(1<<(bitsN-1), bitsN, true)
		} else {
			max = 1<<bitsN - 1
			if bitsN == 64 {
				max = math.MaxUint64
			}
			if t.Kind == Bool {
				max = 1
			}
		}
		switch e.Member {
		case "max":
			return max, t, true
		case "min", "lowest":
			return min, t, true
		case "digits":
			d := bitsN
			if t.isSigned() {
				d--
			}
			return uint64(d), tInt, true
		}
	case t.Kind == Float:
		f := map[string]float64{"max": math.MaxFloat32, "min": 1.17549435082228750797e-38, "lowest": -math.MaxFloat32,
			"epsilon": 1.1920928955078125e-07, "infinity": math.Inf(1), "quiet_NaN": math.NaN(), "denorm_min": 1.40129846432481707092e-45}
		if v, ok := f[e.Member]; ok {
			return bits(v), t, true
		}
		if e.Member == "digits" {
			return 24, tInt, true
		}
	case t.Kind == Double:
		f := map[string]float64{"max": math.MaxFloat64, "min": 2.2250738585072014e-308, "lowest": -math.MaxFloat64,
			"epsilon": 2.220446049250313e-16, "infinity": math.Inf(1), "quiet_NaN": math.NaN(), "denorm_min": 4.9406564584124654e-324}
		if v, ok := f[e.Member]; ok {
			return bits(v), t, true
		}
		if e.Member == "digits" {
			return 53, tInt, true
		}
	}
	c.errorf(e.Pos, "C0309", "std::numeric_limits<%s>::%s is not modeled", t, e.Member)
	return 0, tInt, false
}

// alignValue evaluates the operand of alignas: a power of two.
func (c *compiler) alignValue(e syntax.Expr) int {
	v, ok := c.constExpr(e)
	if !ok || v <= 0 || v&(v-1) != 0 || v > 1<<16 {
		c.errorf(syntax.PosOf(e), "C0313", "alignas needs a constant power of two")
		return 0
	}
	return int(v)
}

// constFloat evaluates a floating constant expression (literals,
// constants, arithmetic), as a constexpr float initializer needs.
func (c *compiler) constFloat(e syntax.Expr) (float64, bool) {
	switch e := e.(type) {
	case *syntax.FloatLitExpr:
		if e.Float {
			return float64(float32(e.Value)), true
		}
		return e.Value, true
	case *syntax.IntLitExpr, *syntax.CharLitExpr:
		v, ok := c.constExpr(e)
		return float64(v), ok
	case *syntax.Name:
		if s := c.lookup(e.Name); s != nil {
			if s.fconst {
				return math.Float64frombits(s.fbits), true
			}
			if s.isConst || s.kind == symEnum {
				if !s.t.isSigned() && s.t.isInt() {
					return float64(uint64(s.val)), true
				}
				return float64(s.val), true
			}
		}
	case *syntax.Unary:
		v, ok := c.constFloat(e.X)
		switch e.Op {
		case "-":
			return -v, ok
		case "+":
			return v, ok
		}
	case *syntax.Cast:
		if e.X == nil {
			return 0, false
		}
		v, ok := c.constFloat(e.X)
		t := c.resolve(e.Type)
		if t.Kind == Float {
			v = float64(float32(v))
		} else if t.isInt() {
			v = math.Trunc(v)
		}
		return v, ok
	case *syntax.Binary:
		a, ok1 := c.constFloat(e.X)
		b, ok2 := c.constFloat(e.Y)
		if !ok1 || !ok2 {
			return 0, false
		}
		if c.typeOf(e, true).Kind == Float {
			// float arithmetic rounds each operation to float
			switch e.Op {
			case "+":
				return float64(float32(a) + float32(b)), true
			case "-":
				return float64(float32(a) - float32(b)), true
			case "*":
				return float64(float32(a) * float32(b)), true
			case "/":
				return float64(float32(a) / float32(b)), true
			}
			return 0, false
		}
		switch e.Op {
		case "+":
			return a + b, true
		case "-":
			return a - b, true
		case "*":
			return a * b, true
		case "/":
			return a / b, true
		}
	}
	return 0, false
}

// memberDefaults runs the default member initializers of struct t on the
// object whose address is on the stack (kept), skipping the fields in
// skip; a member of struct type without one gets its own type's defaults.
//
// It is also the implicit default constructor's work ([class.ctor]p7,
// [class.base.init]p9): for a class without constructors (skip nil: the
// object is being created) the bases' default constructors run first, on
// their subobjects, and the members whose class has a constructor are
// constructed in declaration order; in a constructor (memberInits) the
// members it does not name are.
func (c *compiler) memberDefaults(t *Type, skip map[string]bool, pos diag.Pos) {
	c.memberDefaultsAt(t, skip, pos, true)
}

func (c *compiler) memberDefaultsAt(t *Type, skip map[string]bool, pos diag.Pos, complete bool) {
	if t.Kind != Struct || !hasMemberDefaults(t) {
		return
	}
	userCtor := c.ctorOf(t, -1) != nil
	if skip == nil && !userCtor {
		c.implicitBases(t, pos, complete)
	}
	own := ownFields(t)
	for _, f := range t.Fields {
		if skip[f.Name] {
			continue
		}
		if own[f] && f.Init == nil && (skip == nil || userCtor) && c.constructMember(f, pos) {
			continue
		}
		if f.Init == nil && !hasMemberDefaults(f.Type) {
			continue
		}
		c.emit(OpDup, 0, 0, pos)
		c.emit(OpConst, 0, int64(f.Offset), pos)
		c.emit(OpPtrAdd, 1, 0, pos)
		if f.Init != nil {
			if il, ok := f.Init.(*syntax.InitList); ok && len(il.Elems) == 0 && f.Type.Kind != Struct {
				c.emit(OpMemzero, 0, int64(f.Type.size), pos)
			} else {
				c.initFrom(f.Type, f.Init)
			}
		} else {
			c.memberDefaults(f.Type, nil, pos)
		}
		c.emit(OpPop, 0, 0, pos)
	}
}

// hasMemberDefaults reports whether t (or a struct member of it) has a
// default member initializer.
func hasMemberDefaults(t *Type) bool {
	if t.Kind != Struct {
		return false
	}
	if _, ok := implicitCtor.Load(t); ok {
		return true // bases or members to construct (classSetup)
	}
	for _, f := range t.Fields {
		if f.Init != nil || (f.Type.Kind == Struct && f.Type != t && hasMemberDefaults(f.Type)) {
			return true
		}
	}
	return false
}

// rangeLen gives, for a container type a range for may iterate, the
// expression of its length (nil: not a container).
func (c *compiler) rangeLen(t *Type) func(syntax.Expr, diag.Pos) syntax.Expr {
	if t.Kind != Struct || t.std == 0 {
		return nil
	}
	return func(x syntax.Expr, pos diag.Pos) syntax.Expr {
		return &syntax.Call{Pos: pos, Fun: &syntax.Member{Pos: pos, X: x, Name: "size"}, RParen: pos}
	}
}

// sameSignature reports whether two definitions declare the same
// parameter types (a redefinition rather than an overload), as written.
func sameSignature(a, b *syntax.FuncDecl) bool {
	if a != nil && b != nil && a.Type.ConstThis != b.Type.ConstThis {
		return false // overloads on const (constq.go)
	}
	if a == nil || b == nil || len(a.Type.Params) != len(b.Type.Params) || a.Type.Variadic != b.Type.Variadic {
		return a != nil && b != nil && len(a.Type.Params) == len(b.Type.Params)
	}
	for i := range a.Type.Params {
		if typeSpelling(a.Type.Params[i].Type) != typeSpelling(b.Type.Params[i].Type) {
			return false
		}
	}
	return true
}

func typeSpelling(t *syntax.TypeExpr) string {
	if t == nil {
		return ""
	}
	s := fmt.Sprint(t.Kind, t.Name, t.Const, t.RValue)
	if t.Elem != nil {
		s += "(" + typeSpelling(t.Elem) + ")"
	}
	return s
}

// pickOverload chooses among overloads by the number of arguments, then
// by how many arguments have exactly the parameter's type (a simplified
// C++ [over.match]: an ambiguous call is C0304).
func (c *compiler) pickOverload(ovs []*Function, e *syntax.Call) *Function {
	var cands []*Function
	for _, fn := range ovs {
		if fn.Type == nil {
			continue
		}
		np := len(fn.Type.Params)
		if np == len(e.Args) || (fn.Type.Variadic && len(e.Args) >= np) {
			cands = append(cands, fn)
		}
	}
	if len(cands) == 1 {
		return cands[0]
	}
	if len(cands) == 0 {
		c.errorf(e.Pos, "C0304", "no overload of %s takes %d arguments", ovs[0].Name, len(e.Args))
		return ovs[0]
	}
	var ats []*Type
	for _, a := range e.Args {
		ats = append(ats, c.typeOf(a, true))
	}
	best, bestScore, tie := cands[0], -1, false
	for _, fn := range cands {
		score := 0
		for i, at := range ats {
			pt := fn.Type.Params[i]
			score += c.refBinding(pt, e.Args[i]) // rvalue.go
			if pt.Ref {
				pt = pt.Elem
			}
			switch {
			case sameType(at, pt):
				score += 4
			case at.Kind == Struct && pt.Kind == Struct && derivesFrom(at, pt):
				// a derived object for a base (reference) parameter: a
				// conversion ([over.best.ics]p6, [over.ics.ref]p1), so
				// B(const B &) takes a D where B(int) cannot
				score += 3
			case at.isArith() && pt.isArith() && at.isFloat() == pt.isFloat():
				score += 2
			case at.isArith() && pt.isArith(), at.Kind == Ptr && pt.Kind == Ptr:
				score++
			}
		}
		switch {
		case score > bestScore:
			best, bestScore, tie = fn, score, false
		case score == bestScore:
			tie = true
		}
	}
	if tie {
		c.errorf(e.Pos, "C0304", "ambiguous call of overloaded %s", best.Name)
	}
	return best
}

// typeKey identifies a type for template instances and container types:
// its spelling, and for a struct its identity, so two anonymous structs
// (typedef struct {...} A; typedef struct {...} B;) are different types
// (issue 15 B2).
func typeKey(t *Type) string {
	switch t.Kind {
	case Struct:
		return fmt.Sprintf("%s@%p", t.String(), t)
	case Ptr:
		s := "*"
		if t.Ref {
			s = "&"
		}
		return typeKey(t.Elem) + s
	case Array:
		return fmt.Sprintf("%s[%d]", typeKey(t.Elem), t.Len)
	}
	return t.String()
}

// defaultsOf is the default arguments of fn's parameters (nil entries for
// none), from its definition or a prototype that declares them.
func (c *compiler) defaultsOf(fn *Function) []syntax.Expr {
	var out []syntax.Expr
	add := func(ps []*syntax.Param) {
		for i, p := range ps {
			for len(out) <= i {
				out = append(out, nil)
			}
			if p.Default != nil {
				out[i] = p.Default
			}
		}
	}
	if fn.decl != nil {
		if pd := c.protos[fn.decl.Name]; pd != nil && pd.Type != nil && pd.Type.Kind == syntax.TFunc {
			add(pd.Type.Params)
		}
		add(fn.decl.Type.Params)
	}
	for _, d := range out {
		if d != nil {
			return out
		}
	}
	return nil
}

// decltypeOf is decltype(e) (C++ [dcl.type.decltype]): the declared type
// of a named variable, else the type of the expression (evaluated by
// nothing: only its type is asked). A parenthesized name or another
// lvalue would make it a reference in C++; here it is the value's type,
// which is what a declaration from it holds.
func (c *compiler) decltypeOf(te *syntax.TypeExpr) *Type {
	if te.TArg == nil {
		c.errorf(te.Pos, "C0313", "decltype needs an expression")
		return tInt
	}
	return c.typeOf(te.TArg, false)
}
