package sem

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"weft.dev/weft/gpu"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/cudac/syntax"
)

// The compiler turns the syntax tree into the stack bytecode of vm.go,
// resolving C types on the way (C's usual arithmetic conversions, integer
// promotions, array decay). Every expression leaves one value: integers
// normalized for their type, floats as float64 bits, pointers and struct
// values as object pointers (a struct value is the address of a copy).

type symKind uint8

const (
	symSlot      symKind = iota // a register: slot holds the value
	symMem                      // slot holds a pointer to the object
	symGlobal                   // global variable idx
	symShared                   // static __shared__ variable idx
	symDynShared                // extern __shared__ array
	symEnum                     // enum constant val
	symTypedef                  // typedef name
	symFunc                     // function fn
	symTParam                   // template value parameter val
	symRef                      // a C++ reference: slot holds the address of the object
	symLambda                   // a lambda bound to an auto variable: lam
)

type sym struct {
	kind symKind
	t    *Type
	slot int
	idx  int
	val  int64
	fn   *Function
	// isConst: a const (or constexpr) integer initialized by a constant
	// expression, whose value val may appear in constant expressions.
	isConst bool
	// fconst: a const floating variable with a constant initializer,
	// whose value is fbits (read without touching memory, so device code
	// may read a file-scope constexpr float).
	fconst bool
	fbits  uint64
	lam    *syntax.Lambda
	// vol: a volatile variable (fence.go: its accesses are strong)
	vol bool
	// cnst: a copy captured by a lambda that is not mutable, const in its
	// body (lambda.go)
	cnst bool
	// ro: a variable declared const or a reference to const; for a
	// typedef, a const-qualified type (constq.go)
	ro bool
}

type loopCtx struct {
	// dtorDepth is len(compiler.dtors) where the loop starts: a break or
	// continue destroys the automatic objects of deeper blocks
	dtorDepth int
	breaks    []int
	conts     []int
	hasCont   bool
	isSwitch  bool
	cases     []caseLabel
	defaultPC int
}

type caseLabel struct {
	val int64
	pc  int
}

type compiler struct {
	// narrowed: the braced initializers' elements reported as narrowing
	// (braces.go), each once
	narrowed map[syntax.Expr]bool
	// usingStd: the program has using namespace std; (lib_iterator.go)
	usingStd bool
	// constDepth: the constexpr calls being evaluated (constexpr.go)
	constDepth int
	ann        annotState // __ensures of the function being compiled (annot.go)
	prog       *Program
	diags      *diag.List
	posIdx     map[diag.Pos]int32
	funcs      map[string]*Function
	protos     map[string]*syntax.Decl
	templates  map[string]*syntax.FuncDecl
	insts      map[string]*Function
	scopes     []map[string]*sym
	tags       []map[string]*Type
	lits       map[string]int
	queue      []*Function
	initCode   []globalInit

	// per function
	fn        *Function
	code      []Instr
	nslots    int
	loops     []*loopCtx
	labels    map[string]int
	gotos     []gotoFix
	addrTaken map[string]bool
	undef     map[int32]int64 // slots of scalars declared without initializer -> name in Strings
	allocas   []Instr
	tmap      map[string]*Type
	tvals     map[string]int64
	dry       int
	autoT     *Type // the type "auto" stands for in the declaration being compiled
	// autoReported: the functions whose deduced result was reported
	// not modeled (autoret.go)
	autoReported map[*syntax.TypeExpr]bool
	// implCopy: the implicit copy constructors made (implcopy.go)
	implCopy map[*Type]*Function
	recv     *Type // the struct whose member function is being compiled
	// cls is the tag of the struct whose member function (static or
	// not) is being compiled: its static members are in scope unqualified.
	cls   string
	specs map[string][]*syntax.FuncDecl // explicit specializations by template name
	// vectors are the std::vector types by element; layoutIdx the deep
	// copy layouts in Program.StdLayouts (lib_std.go).
	vectors   map[string]*Type
	layoutIdx map[string]int
	// inl is the lambda call being expanded inline (lambda.go).
	inl *inlineCtx
	// hasOps: the program defines operator functions (operators.go);
	// rawRef asks the call being compiled for the address a reference
	// result denotes (gotRef answers that it gave one).
	hasOps, rawRef, gotRef bool
	arrowMemo              map[arrowKey]*syntax.Member   // arrow.go
	tmplOvs                map[string][]*syntax.FuncDecl // rvalue.go
	packInsts              map[packKey]*syntax.FuncDecl  // variadic.go
	typeMemo               map[typeKeyOf]*Type
	lastType               *Type
	// overloads are the functions of one name with different parameters
	// (the first keeps the plain name in funcs, the others name#k).
	overloads map[string][]*Function
	// classes counts the polymorphic classes (their ids, virtual.go).
	classes int
	// classTmpls are the class templates by name, classInsts their
	// instances by key (classtmpl.go).
	classTmpls map[string][]*syntax.ClassTemplate
	classInsts map[string]*Type
	classDepth int
	// closures are the closure types of lambdas used as values
	// (lambda.go).
	closures  map[closureKey]*Type
	nclosures int
	// wanted are the header functions queued by a use (funcIndex).
	wanted map[*Function]bool
	// dtors are the automatic objects with destructors of each open
	// block, innermost last (virtual.go).
	dtors [][]autoObj
	// outerTmpl binds the class template parameters of the member
	// function templates of class template instances (classtmpl.go).
	outerTmpl map[*syntax.FuncDecl]outerBinding
	// temps are the materialized temporaries of the full-expressions
	// being compiled, innermost last (temps.go).
	temps []fullTemp
	// lambdaArgs is set while an inline lambda's parameters are bound
	// to its call's arguments: a temporary bound to a reference
	// parameter lives to the end of the call's full-expression, not the
	// reference's ([class.temporary]p6.9)
	lambdaArgs bool
	// closureMeta binds the captures of closure functions (lambda.go).
	closureMeta map[*Function]*closureMeta
	lambdaOf    map[*Type]*lambdaInfo // closure types (lambda.go)

	// lastPos is pos's last result: a large static initializer spent
	// most of its compile time looking positions up (issue 15 item 7)
	lastPos int32
}

type globalInit struct {
	idx  int
	d    *syntax.Decl
	fn   bool
	slot int
	// ns marks an object declared at namespace scope, destroyed after
	// main returns (compileFini)
	ns bool
}

type gotoFix struct {
	at    int
	label string
	pos   diag.Pos
}

// Compile type-checks f and compiles it to bytecode. Static errors go to
// diags; the returned program is runnable only if diags has no errors.
func Compile(f *syntax.File, diags *diag.List) *Program {
	loadTables()
	c := &compiler{
		usingStd:    f.UsingStd,
		prog:        &Program{Pos: []diag.Pos{{}}},
		diags:       diags,
		posIdx:      map[diag.Pos]int32{},
		funcs:       map[string]*Function{},
		protos:      map[string]*syntax.Decl{},
		templates:   map[string]*syntax.FuncDecl{},
		classTmpls:  map[string][]*syntax.ClassTemplate{},
		classInsts:  map[string]*Type{},
		closures:    map[closureKey]*Type{},
		wanted:      map[*Function]bool{},
		closureMeta: map[*Function]*closureMeta{},
		insts:       map[string]*Function{},
		lits:        map[string]int{},
		overloads:   map[string][]*Function{},
	}
	c.scopes = []map[string]*sym{{}}
	c.tags = []map[string]*Type{{}}
	for _, ct := range f.ClassTemplates {
		c.classTmpls[ct.Name] = append(c.classTmpls[ct.Name], ct)
	}
	for _, t := range f.Templates {
		if c.attachMember(t) {
			continue
		}
		c.templates[t.Name] = t
		c.noteTemplate(t) // rvalue.go: overloads by arity
		if strings.HasPrefix(t.Name, "operator") {
			c.hasOps = true // an operator function template (operators.go)
		}
	}
	c.specs = map[string][]*syntax.FuncDecl{}
	for _, sp := range f.Specs {
		c.specs[sp.Name] = append(c.specs[sp.Name], sp)
		if c.templates[sp.Name] == nil {
			c.errorf(sp.Pos, "C0301", "explicit specialization of %s, which is not a function template", sp.Name)
		}
	}
	// Declare every function first so calls may precede definitions.
	var declared []*Function
	for _, fd := range f.Funcs {
		name := fd.Name
		if old := c.funcs[fd.Name]; old != nil {
			if sameSignature(old.decl, fd) || fd.Recv != "" && fd.Dtor || fd.Name == "main" {
				c.errorf(fd.Pos, "C0311", "redefinition of function %s", fd.Name)
				continue
			}
			// an overload (C++ [over]): chosen at the call by arguments
			if len(c.overloads[fd.Name]) == 0 {
				c.overloads[fd.Name] = []*Function{old}
			}
			name = fmt.Sprintf("%s#%d", fd.Name, len(c.overloads[fd.Name]))
		}
		fn := &Function{Name: fd.Name, decl: fd, defined: true}
		c.setSpaces(fn, fd.Q)
		c.funcs[name] = fn
		if name != fd.Name {
			c.overloads[fd.Name] = append(c.overloads[fd.Name], fn)
		}
		declared = append(declared, fn)
	}
	// File-scope declarations in source order; function types need the
	// typedefs and structs declared before them, so resolve function
	// signatures after the declarations (C requires declaration before
	// use, and our programs follow it; we are more lenient).
	for _, d := range f.Decls {
		c.topDecl(d)
	}
	for _, fn := range declared {
		fd := fn.decl
		if pd := c.protos[fd.Name]; pd != nil && fd.Recv != "" && pd.Q.Static {
			// static in the class, defined out of class without it
			fd.Q.Static = true
		}
		fn.Type = c.resolveFunc(fd) // autoret.go
		if strings.Contains(fd.Name, "operator") {
			c.hasOps = true
		}
		c.prog.Funcs = append(c.prog.Funcs, fn)
		fn.PosIdx = c.pos(fd.Pos)
		if fn.Global {
			c.prog.Kernels = append(c.prog.Kernels, fn)
			if fn.Type.Elem.Kind != Void {
				c.errorf(fd.Pos, "C0308", "a __global__ function must return void")
			}
		}
		if fd.Name == "main" {
			c.prog.Main = fn
		}
	}
	for _, fn := range c.prog.Funcs {
		if fn.decl != nil && len(fn.decl.TParams) == 0 && (!fromHeader(fn.decl) || fn.Global) {
			c.function(fn)
		}
	}
	for len(c.queue) > 0 {
		fn := c.queue[0]
		c.queue = c.queue[1:]
		c.function(fn)
	}
	c.compileInit()
	// what the initializers of globals use (a constructor of a header,
	// a template instance) is compiled too
	for len(c.queue) > 0 {
		fn := c.queue[0]
		c.queue = c.queue[1:]
		c.function(fn)
	}
	return c.prog
}

func (c *compiler) setSpaces(fn *Function, q syntax.Qualifiers) {
	fn.Global = q.Global
	fn.Device = q.Device || q.Global
	fn.Host = q.Host || (!q.Device && !q.Global)
	if len(q.ClusterDims) > 0 {
		// __cluster_dims__ (CUDA C++ Programming Guide, "Thread Block
		// Clusters"): the kernel's cluster shape when the launch names none
		d := [3]int{1, 1, 1}
		for i, e := range q.ClusterDims {
			v, ok := c.constExpr(e)
			if !ok || v < 1 || v > maxClusterCTAs {
				c.errorf(syntax.PosOf(e), "C0313", "__cluster_dims__ takes constant extents from 1 to %d", maxClusterCTAs)
				return
			}
			d[i] = int(v)
		}
		fn.ClusterDims = gpu.Dim3{X: d[0], Y: d[1], Z: d[2]}
	}
}

func (c *compiler) errorf(pos diag.Pos, code, format string, args ...any) {
	if c.dry > 0 {
		return
	}
	if at, ok := c.libPos(pos); ok {
		c.diags.Errorf(at, code, "%s (inside the library's %s, %s)", fmt.Sprintf(format, args...), c.fn.libFn, pos)
		return
	}
	c.diags.Errorf(pos, code, format, args...)
}

func (c *compiler) pos(p diag.Pos) int32 {
	if p == (diag.Pos{}) {
		return 0
	}
	if i := c.lastPos; i > 0 && c.prog.Pos[i] == p {
		return i // consecutive instructions mostly share a position
	}
	i, ok := c.posIdx[p]
	if !ok {
		i = int32(len(c.prog.Pos))
		c.prog.Pos = append(c.prog.Pos, p)
		c.posIdx[p] = i
	}
	c.lastPos = i
	return i
}

func (c *compiler) emit(op Op, a int32, b int64, p diag.Pos) int {
	if op == OpLocal || op == OpSetLocal {
		if name, ok := c.undef[a]; ok {
			op, b = op+OpLocalU-OpLocal, name
		}
	}
	c.code = append(c.code, Instr{Op: op, A: a, B: b, P: c.pos(p)})
	return len(c.code) - 1
}

func (c *compiler) here() int { return len(c.code) }

func (c *compiler) patch(at int) { c.code[at].A = int32(len(c.code)) }

// ---- scopes ----

func (c *compiler) push() {
	c.scopes = append(c.scopes, map[string]*sym{})
	c.tags = append(c.tags, map[string]*Type{})
}

func (c *compiler) pop() {
	c.scopes = c.scopes[:len(c.scopes)-1]
	c.tags = c.tags[:len(c.tags)-1]
}

func (c *compiler) lookup(name string) *sym {
	for i := len(c.scopes) - 1; i >= 0; i-- {
		if s, ok := c.scopes[i][name]; ok {
			return s
		}
	}
	if c.cls != "" {
		// a static data member named unqualified inside its class
		if s, ok := c.scopes[0][c.cls+"::"+name]; ok {
			return s
		}
	}
	return nil
}

func (c *compiler) declare(name string, s *sym) {
	c.scopes[len(c.scopes)-1][name] = s
}

func (c *compiler) newSlot() int {
	c.nslots++
	return c.nslots - 1
}

// ---- types ----

func (c *compiler) resolve(te *syntax.TypeExpr) *Type {
	if te == nil {
		return tInt
	}
	switch te.Kind {
	case syntax.TNamed:
		if te.Member != "" {
			if t, ok := c.memberType(te); ok { // rvalue.go
				return t
			}
			return c.containerMember(te) // lib_map.go
		}
		if te.TArgs != nil && c.classTmpls[te.Name] != nil {
			return c.classInstance(te) // X<> too: its default arguments
		}
		if t := baseTypes[te.Name]; t != nil {
			return t
		}
		if t := c.tmap[te.Name]; t != nil {
			return t
		}
		if s := c.lookup(te.Name); s != nil && s.kind == symTypedef {
			return s.t
		}
		if t := builtinTypedefs[te.Name]; t != nil {
			return t
		}
		if strings.HasPrefix(te.Name, "__cg_") {
			return c.cgType(te)
		}
		switch te.Name {
		case "decltype":
			return c.decltypeOf(te) // cxx17.go
		case "std::string":
			return tString
		case "cuda::atomic_ref":
			if te.TArgType == nil {
				c.errorf(te.Pos, "C0313", "cuda::atomic_ref needs its element type")
				return tInt
			}
			return c.atomicRefOf(c.resolve(te.TArgType), te.Pos)
		case "std::vector":
			if te.TArgType == nil {
				c.errorf(te.Pos, "C0313", "std::vector needs its element type, std::vector<T>")
				return tInt
			}
			return c.stdVectorOf(c.resolve(te.TArgType), te.Pos)
		}
		if t := c.lookupTag(te.Name); t != nil {
			return t // C++: a struct tag is a type name
		}
		if te.Name == "auto" {
			if c.autoT != nil {
				return c.autoT
			}
			c.errorf(te.Pos, "C0309", "auto needs an initializer to deduce its type from")
			return tInt
		}
		if t := c.assocType(te); t != nil { // std::map, std::set (lib_map.go)
			return t
		}
		if strings.HasPrefix(te.Name, "std::") && (syntax.StdContainers[te.Name[5:]] || syntax.UnmodeledStdTemplates[te.Name[5:]]) {
			c.errorf(te.Pos, "C0309", "%s is not modeled", te.Name)
			return tInt
		}
		if syntax.UnmodeledStdTypes[te.Name] {
			c.errorf(te.Pos, "C0309", "std::%s is not modeled", te.Name)
			return tInt
		}
		c.errorf(te.Pos, "C0301", "unknown type name %s", te.Name)
		return tInt
	case syntax.TRef:
		r := refTo(c.resolve(te.Elem))
		r.cst = c.teConst(te.Elem)
		r.rval = te.RValue // rvalue.go
		return r
	case syntax.TPointer:
		p := ptrTo(c.resolve(te.Elem))
		p.vol = c.teVol(te.Elem)
		p.cst = c.teConst(te.Elem)
		if te.Iter {
			p.iter = "std::vector<" + p.Elem.String() + ">::iterator" // iter.go
		}
		return p
	case syntax.TArray:
		elem := c.resolve(te.Elem)
		if te.Len == nil {
			a := arrayOf(elem, -1)
			a.vol = c.teVol(te.Elem)
			return a
		}
		n, ok := c.constExpr(te.Len)
		if !ok || n < 0 {
			c.errorf(syntax.PosOf(te.Len), "C0313", "array size is not a non-negative constant")
			n = 1
		}
		a := arrayOf(elem, int(n))
		a.vol = c.teVol(te.Elem)
		return a
	case syntax.TFunc:
		ft := &Type{Kind: Func, Elem: c.resolve(te.Elem), Variadic: te.Variadic, size: 1, align: 1, complete: true}
		for _, p := range te.Params {
			pt := c.resolve(p.Type)
			if pt.Kind == Array {
				pt = ptrTo(pt.Elem)
			}
			ft.Params = append(ft.Params, pt)
		}
		return ft
	case syntax.TStruct:
		return c.structType(te)
	case syntax.TEnum:
		if te.HasBody && te.Name != "" && c.lookup(te.Name) == nil {
			c.declare(te.Name, &sym{kind: symTypedef, t: tInt}) // C++: a type name
		}
		if te.HasBody {
			var next int64
			for _, e := range te.Enums {
				if e.Value != nil {
					v, ok := c.constExpr(e.Value)
					if !ok {
						c.errorf(e.Pos, "C0313", "enumerator value is not constant")
					}
					next = v
				}
				c.declare(e.Name, &sym{kind: symEnum, t: tInt, val: next})
				next++
			}
		}
		return tInt
	}
	return tInt
}

func (c *compiler) lookupTag(name string) *Type {
	for i := len(c.tags) - 1; i >= 0; i-- {
		if t, ok := c.tags[i][name]; ok {
			return t
		}
	}
	return nil
}

func (c *compiler) structType(te *syntax.TypeExpr) *Type {
	if !te.HasBody {
		if te.Name != "" {
			if t := c.lookupTag(te.Name); t != nil {
				return t
			}
			if t := builtinTypedefs[te.Name]; t != nil && t.Kind == Struct {
				return t // struct timeval, struct cudaDeviceProp: the library's own
			}
			t := &Type{Kind: Struct, Name: "struct " + te.Name, Union: te.Union}
			c.tags[0][te.Name] = t
			return t
		}
		c.errorf(te.Pos, "C0205", "anonymous struct without a body")
		return tInt
	}
	var t *Type
	if te.Name != "" {
		if old, ok := c.tags[len(c.tags)-1][te.Name]; ok && !old.complete {
			t = old
		}
	}
	if t == nil {
		name := "struct " + te.Name
		if te.Union {
			name = "union " + te.Name
		}
		if te.Name == "" {
			name = ""
		}
		t = &Type{Kind: Struct, Name: name, Union: te.Union}
		if te.Name != "" {
			c.tags[len(c.tags)-1][te.Name] = t
		}
	}
	t.Fields = nil
	firsts := c.baseFields(t, te) // mi.go
	for _, f := range te.Fields {
		ft := c.resolve(f.Type)
		if !ft.complete && ft.Kind != Array {
			c.errorf(f.Pos, "C0302", "field %s has incomplete type %s", f.Name, ft)
			ft = tInt
		}
		fi := &FieldInfo{Name: f.Name, Type: ft, Init: f.Init, Vol: c.teVol(f.Type), Mutable: f.Mutable}
		if f.Align != nil {
			fi.Align = c.alignValue(f.Align)
		}
		t.Fields = append(t.Fields, fi)
	}
	c.classSetup(t, te)
	layoutStruct(t)
	t.baseOff = make([]int, len(t.bases))
	for i, f := range firsts {
		if f != nil {
			t.baseOff[i] = f.Offset
		}
	}
	if te.Align != nil {
		if a := c.alignValue(te.Align); a > t.align {
			t.align = a
			t.size = (t.size + a - 1) / a * a
		}
	}
	return t
}

// constExpr evaluates an integer constant expression.
func (c *compiler) constExpr(e syntax.Expr) (int64, bool) {
	if sn, ok := e.(*syntax.ScopedName); ok {
		e = c.scopedName(sn)
	}
	switch e := e.(type) {
	case *syntax.IntLitExpr:
		return int64(e.Value), true
	case *syntax.CharLitExpr:
		return e.Value, true
	case *syntax.Name:
		if s := c.lookup(e.Name); s != nil && (s.kind == symEnum || s.kind == symTParam || s.isConst) {
			return s.val, true
		}
		if v, ok := c.tvals[e.Name]; ok {
			return v, true
		}
		if v, ok := namedConsts[e.Name]; ok && c.lookup(e.Name) == nil {
			return v, true
		}
		return 0, false
	case *syntax.SizeofExpr:
		if e.Align {
			return int64(c.resolve(e.Type).align), true // alignof (parser.go)
		}
		if e.Type != nil {
			return int64(c.resolve(e.Type).size), true
		}
		return int64(c.typeOf(e.X, false).size), true
	case *syntax.Trait:
		return c.traitValue(e)
	case *syntax.Call:
		return c.constexprCall(e) // constexpr.go
	case *syntax.Cast:
		if e.X == nil {
			return 0, false
		}
		v, ok := c.constExpr(e.X)
		if !ok {
			return 0, false
		}
		t := c.resolve(e.Type)
		if t.Kind == Bool {
			return int64(b2u(v != 0)), true // (bool)256 is true
		}
		if t.isInt() {
			return int64(ext(uint64(v), t.size*8, t.isSigned())), true
		}
		return v, t.Kind == Ptr
	case *syntax.Unary:
		v, ok := c.constExpr(e.X)
		switch e.Op {
		case "-":
			return -v, ok
		case "+":
			return v, ok
		case "~":
			return ^v, ok
		case "!":
			return int64(b2u(v == 0)), ok
		}
	case *syntax.Cond:
		cv, ok := c.constExpr(e.C)
		if !ok {
			return 0, false
		}
		if cv != 0 {
			return c.constExpr(e.X)
		}
		return c.constExpr(e.Y)
	case *syntax.Binary:
		a, ok1 := c.constExpr(e.X)
		b, ok2 := c.constExpr(e.Y)
		if !ok1 || !ok2 {
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
			if b == 0 {
				return 0, false
			}
			return a / b, true
		case "%":
			if b == 0 {
				return 0, false
			}
			return a % b, true
		case "<<":
			return a << uint(b&63), true
		case ">>":
			return a >> uint(b&63), true
		case "&":
			return a & b, true
		case "|":
			return a | b, true
		case "^":
			return a ^ b, true
		case "&&":
			return int64(b2u(a != 0 && b != 0)), true
		case "||":
			return int64(b2u(a != 0 || b != 0)), true
		case "==":
			return int64(b2u(a == b)), true
		case "!=":
			return int64(b2u(a != b)), true
		case "<":
			return int64(b2u(a < b)), true
		case "<=":
			return int64(b2u(a <= b)), true
		case ">":
			return int64(b2u(a > b)), true
		case ">=":
			return int64(b2u(a >= b)), true
		}
	}
	return 0, false
}

// typeOf is the type expression e would have (arrays not decayed when
// lvalue is set), computed by a dry compilation that is thrown away.
func (c *compiler) typeOf(e syntax.Expr, decay bool) *Type {
	// memoized per function (instance): an expression node has one type
	// where it stands, and operator lookup and ?: ask for the types of
	// subexpressions, which would otherwise be exponential in the depth
	k := typeKeyOf{e, decay, c.inl}
	if t, ok := c.typeMemo[k]; ok {
		return t
	}
	defer func(n int) {
		if c.typeMemo != nil && c.diags.Len() == n {
			c.typeMemo[k] = c.lastType
		}
	}(c.diags.Len())
	save := len(c.code)
	slots := c.nslots
	c.dry++
	var t *Type
	if decay {
		t = c.expr(e)
	} else {
		t = c.rawType(e)
	}
	c.dry--
	c.code = c.code[:save]
	c.nslots = slots
	c.lastType = t
	return t
}

type typeKeyOf struct {
	e     syntax.Expr
	decay bool
	inl   *inlineCtx
}

// rawType compiles e without array decay (for sizeof).
func (c *compiler) rawType(e syntax.Expr) *Type {
	switch e.(type) {
	case *syntax.Name, *syntax.Index, *syntax.Member, *syntax.Unary:
		if u, ok := e.(*syntax.Unary); ok && u.Op != "*" {
			return c.expr(e)
		}
		if n, ok := e.(*syntax.Name); ok {
			if s := c.lookup(n.Name); s == nil || s.kind == symEnum || s.kind == symFunc {
				return c.expr(e)
			}
			if n.Name == "threadIdx" || n.Name == "blockIdx" || n.Name == "blockDim" || n.Name == "gridDim" {
				return tUint3
			}
		}
		return c.lvalue(e).t
	case *syntax.StringLitExpr:
		return arrayOf(tChar, len(e.(*syntax.StringLitExpr).Value)+1)
	}
	return c.expr(e)
}

// teVol reports a volatile-qualified type expression: written volatile,
// or a typedef name declared volatile ("typedef volatile int Latch;", as
// NVIDIA's samples write their host-device latches). C11 6.7.3p5: a
// qualifier of a typedef's type qualifies every use of the name.
func (c *compiler) teVol(te *syntax.TypeExpr) bool {
	if te == nil {
		return false
	}
	if te.Volatile {
		return true
	}
	if te.Kind == syntax.TNamed {
		if s := c.lookup(te.Name); s != nil && s.kind == symTypedef {
			return s.vol
		}
	}
	return false
}

// ---- globals ----

func (c *compiler) topDecl(d *syntax.Decl) {
	prev := c.innermost(d.Name)
	defer func() { c.markRO(d.Name, prev, !d.Q.Typedef && c.declRO(d)) }() // constq.go
	if d.StaticAssert != nil {
		c.staticAssert(d)
		return
	}
	if d.Q.Typedef {
		c.declare(d.Name, &sym{kind: symTypedef, t: c.resolve(d.Type), vol: d.Q.Volatile || c.teVol(d.Type), ro: c.teConst(d.Type)})
		return
	}
	if d.Name == "" {
		c.resolve(d.Type) // struct/enum definition
		return
	}
	if d.Type.Kind == syntax.TFunc {
		c.protos[d.Name] = d
		if fn := c.funcs[d.Name]; fn != nil && !fn.Global && !fn.Device {
			// a prototype may carry the qualifiers
			if d.Q.Device || d.Q.Global {
				c.setSpaces(fn, d.Q)
			}
		}
		return
	}
	t := c.resolve(d.Type)
	if d.Q.Shared {
		c.sharedDecl(d, t)
		return
	}
	if s := c.scopes[0][d.Name]; s != nil && s.kind == symGlobal {
		if d.Q.Extern {
			return
		}
		g := c.prog.Globals[s.idx]
		// "extern T a[];" then "T a[] = {...}": the definition's
		// initializer gives the size
		t = c.completeArray(t, d.Init)
		if g.Type.Kind == Array && g.Type.Len < 0 && t.Len >= 0 {
			g.Type = t
			s.t = t
		}
		if d.Init != nil {
			c.initCode = append(c.initCode, globalInit{idx: s.idx, d: d})
		}
		return
	}
	t = c.completeArray(t, d.Init)
	sp := SpaceHost
	switch {
	case d.Q.Constant:
		sp = SpaceConstant
	case d.Q.Managed:
		sp = SpacePinned
	case d.Q.Device, c.isKernelOnly():
		// a kernel-only file has no host code: its plain globals are
		// device memory, as GPUVerify reads them (annot.go)
		sp = SpaceDevice
	}
	g := &GlobalVar{Name: d.Name, Type: t, Space: sp, Pos: c.pos(d.Pos), index: len(c.prog.Globals)}
	c.prog.Globals = append(c.prog.Globals, g)
	gs := &sym{kind: symGlobal, t: t, idx: g.index, vol: d.Q.Volatile || c.teVol(d.Type)}
	c.markConst(gs, d, t)
	c.declare(d.Name, gs)
	if d.Init != nil || d.HasCtor || isDim3(t) || c.ctorOf(t, -1) != nil || hasMemberDefaults(t) || t.poly || vbOf(t) != nil {
		c.initCode = append(c.initCode, globalInit{idx: g.index, d: d, ns: true})
	}
}

func isDim3(t *Type) bool { return t == tDim3 }

func (c *compiler) sharedDecl(d *syntax.Decl, t *Type) {
	if d.Init != nil {
		c.errorf(d.Pos, "C0302", "__shared__ variable %s cannot have an initializer", d.Name)
	}
	if d.Q.Extern || (t.Kind == Array && t.Len < 0) {
		c.declare(d.Name, &sym{kind: symDynShared, t: t, vol: d.Q.Volatile || c.teVol(d.Type)})
		return
	}
	g := &GlobalVar{Name: d.Name, Type: t, Space: SpaceShared, Pos: c.pos(d.Pos), index: len(c.prog.Shared)}
	c.prog.Shared = append(c.prog.Shared, g)
	c.declare(d.Name, &sym{kind: symShared, t: t, idx: g.index, vol: d.Q.Volatile || c.teVol(d.Type)})
}

// completeArray sizes "T a[] = {...}" from its initializer.
func (c *compiler) completeArray(t *Type, init syntax.Expr) *Type {
	if t.Kind != Array || t.Len >= 0 || init == nil {
		return t
	}
	switch in := init.(type) {
	case *syntax.InitList:
		if c.needsElision(t, in) {
			in = c.braceElide(t, in) // int a[][2] = {1, 2, 3, 4}: two rows (braces.go)
		}
		n := 0
		i := 0
		for _, el := range in.Elems {
			if el.Index != nil {
				v, _ := c.constExpr(el.Index)
				i = int(v)
			}
			i++
			if i > n {
				n = i
			}
		}
		return arrayOf(t.Elem, n)
	case *syntax.StringLitExpr:
		return arrayOf(t.Elem, len(in.Value)+1)
	}
	return t
}

func (c *compiler) compileInit() {
	if len(c.initCode) == 0 {
		return
	}
	fn := &Function{Name: "<init>", Type: &Type{Kind: Func, Elem: tVoid}, Host: true, Device: true}
	c.beginFunc(fn)
	for _, gi := range c.initCode {
		g := c.prog.Globals[gi.idx]
		c.emit(OpGlobal, int32(gi.idx), 0, gi.d.Pos)
		if b, ok := c.constInit(g.Type, gi.d); ok {
			// a table of integer constants: its bytes (constinit.go)
			c.emit(OpDup, 0, 0, gi.d.Pos)
			c.emit(OpString, int32(c.literal(string(b))), 0, gi.d.Pos)
			c.emit(OpMemcpy, 0, int64(len(b)), gi.d.Pos)
			c.emit(OpPop, 0, 0, gi.d.Pos)
		} else {
			mark := c.fullExpr() // temps.go
			c.initObject(g.Type, gi.d, gi.d.Pos)
			c.endFullExpr(mark, gi.d.Pos)
		}
		c.emit(OpPop, 0, 0, gi.d.Pos)
	}
	c.endFunc(fn, diag.Pos{})
	c.prog.Init = fn
	c.compileFini()
}

// compileFini makes the function that destroys the host globals of class
// type with a destructor, latest constructed first, after main returns
// (C++ [basic.start.term]p1, p3).
func (c *compiler) compileFini() {
	var objs []globalInit
	for _, gi := range c.initCode {
		g := c.prog.Globals[gi.idx]
		if g.Space == SpaceHost && g.Type.Kind == Struct && g.Type.std == 0 && g.Type.cg == 0 && c.dtorOf(g.Type) != nil && gi.ns {
			objs = append(objs, gi)
		}
	}
	if len(objs) == 0 {
		return
	}
	fn := &Function{Name: "<fini>", Type: &Type{Kind: Func, Elem: tVoid}, Host: true}
	c.beginFunc(fn)
	for i := len(objs) - 1; i >= 0; i-- {
		gi := objs[i]
		dt := c.dtorOf(c.prog.Globals[gi.idx].Type)
		c.emit(OpGlobal, int32(gi.idx), 0, gi.d.Pos)
		c.emit(OpCall, int32(c.funcIndex(dt)), 1, gi.d.Pos)
		c.emit(OpPop, 0, 0, gi.d.Pos)
	}
	c.endFunc(fn, diag.Pos{})
	c.prog.Fini = fn
}

// ---- functions ----

func (c *compiler) beginFunc(fn *Function) {
	c.fn = fn
	c.typeMemo = map[typeKeyOf]*Type{}
	c.code = nil
	c.nslots = 0
	c.temps = c.temps[:0] // temps.go: none is pending in a new function
	c.undef = map[int32]int64{}
	c.loops = nil
	c.labels = map[string]int{}
	c.gotos = nil
	c.allocas = nil
	c.dtors = nil
	c.push()
	// the prologue (allocas) is placed at the end and jumped to
	c.emit(OpJmp, 0, 0, diag.Pos{})
	c.emit(OpJmp, 0, 0, diag.Pos{}) // patched: jump over the prologue return
}

func (c *compiler) endFunc(fn *Function, end diag.Pos) {
	c.emit(OpConst, 0, 0, end)
	c.emit(OpRet, 0, 0, end)
	for _, g := range c.gotos {
		pc, ok := c.labels[g.label]
		if !ok {
			c.errorf(g.pos, "C0314", "label %s is not defined", g.label)
			continue
		}
		c.code[g.at].A = int32(pc)
	}
	// prologue: allocate addressable locals once per call
	c.code[0].A = int32(len(c.code))
	c.code = append(c.code, c.allocas...)
	c.emit(OpJmp, 2, 0, diag.Pos{})
	c.code[1].A = 2
	c.pop()
	fn.Code = c.code
	fn.NSlots = c.nslots
	fn.compiled = true
}

func (c *compiler) function(fn *Function) {
	if fn.compiled {
		return
	}
	fd := fn.decl
	saveT, saveV := c.tmap, c.tvals
	c.tmap, c.tvals = fn.tmap, fn.tvals
	defer func() { c.tmap, c.tvals = saveT, saveV }()
	c.beginFunc(fn)
	c.addrTaken = map[string]bool{}
	collectAddrTaken(fd.Body, c.addrTaken, c.refParam)
	c.recv = nil
	c.cls = fd.Recv
	defer func() { c.recv, c.cls = nil, "" }()
	off := 0
	if fd.Recv != "" && !fd.Q.Static {
		// a member function: "this" arrives in slot 0
		rt := c.tags[0][fd.Recv]
		if rt == nil {
			c.errorf(fd.Pos, "C0309", "member function of %s, which is not a file-scope struct", fd.Recv)
			rt = tInt
		}
		c.newSlot()
		this := ptrTo(rt)
		// in a const member function this points to const (C++
		// [class.this]): its members are read-only but the mutable ones
		this.cst = fd.Type != nil && fd.Type.ConstThis
		c.declare("this", &sym{kind: symSlot, t: this, slot: 0})
		if rt.Kind == Struct {
			c.recv = rt
		}
		off = 1
	}
	// arguments arrive in the first slots
	for range fd.Type.Params {
		c.newSlot()
	}
	if fd.Type.Variadic {
		// the block of the arguments passed through "..." (lib_stdarg.go)
		c.declare("__weft_va", &sym{kind: symSlot, t: tCharP, slot: c.newSlot()})
	}
	for i, p := range fd.Type.Params {
		slot := i + off
		if p.Name == "" {
			continue
		}
		pt := fn.Type.Params[i]
		fn.ParamNames = append(fn.ParamNames, p.Name)
		prev := c.innermost(p.Name)
		switch {
		case pt.Ref:
			c.declare(p.Name, &sym{kind: symRef, t: pt.Elem, slot: slot})
		case pt.Kind == Struct:
			c.declare(p.Name, &sym{kind: symMem, t: pt, slot: slot})
		case c.addrTaken[p.Name]:
			ms := c.newSlot()
			c.allocas = append(c.allocas, Instr{Op: OpAlloca, A: int32(ms), B: int64(pt.size), P: c.pos(p.Pos)})
			c.emit(OpLocal, int32(ms), 0, p.Pos)
			c.emit(OpLocal, int32(slot), 0, p.Pos)
			c.emit(OpStore, int32(memCode(pt)), 0, p.Pos)
			c.emit(OpPop, 0, 0, p.Pos)
			c.declare(p.Name, &sym{kind: symMem, t: pt, slot: ms})
		default:
			c.declare(p.Name, &sym{kind: symSlot, t: pt, slot: slot})
		}
		c.markRO(p.Name, prev, c.declRO(&syntax.Decl{Type: p.Type})) // constq.go
	}
	if meta := c.closureMeta[fn]; meta != nil {
		c.closurePrologue(meta, fd.Pos) // lambda.go
	}
	if fd.Ctor && c.recv != nil {
		// the temporaries of the member initializers are destroyed
		// before the body ([class.base.init]p7: each is a
		// full-expression; initPass ends each, this the virtual bases')
		mark := c.fullExpr()
		c.memberInits(fd)
		c.endFullExpr(mark, fd.Pos)
		if c.recv.poly {
			// the object is of this class from here on (virtual.go)
			c.emit(OpLocal, 0, 0, fd.Pos)
			c.stampVptr(c.recv, fd.Pos)
			c.emit(OpPop, 0, 0, fd.Pos)
		}
	}
	c.beginEnsures(fd)                                     // annot.go
	c.dtors = append(c.dtors, c.paramObjects(fn, fd, off)) // rvalue.go
	c.block(fd.Body, false)
	c.destroy(len(c.dtors)-1, fd.EndPos)
	c.dtors = c.dtors[:len(c.dtors)-1]
	if fd.Dtor && c.recv != nil {
		c.baseDtor(c.recv, fd.EndPos)
	}
	c.checkEnsures(fd.EndPos, false)
	c.endFunc(fn, fd.EndPos)
}

// collectAddrTaken finds the locals that must live in memory: those whose
// address is taken, and those bound to a C++ reference (a reference local,
// or an argument for a reference parameter, as refParam reports).
func collectAddrTaken(n any, out map[string]bool, refParam func(call *syntax.Call, i int) bool) {
	base := func(x syntax.Expr) {
		for {
			if m, ok := x.(*syntax.Member); ok && !m.Arrow {
				x = m.X
				continue
			}
			break
		}
		if nm, ok := x.(*syntax.Name); ok {
			out[nm.Name] = true
		}
	}
	var walkE func(e syntax.Expr)
	var walkS func(s syntax.Stmt)
	walkE = func(e syntax.Expr) {
		switch e := e.(type) {
		case nil:
		case *syntax.Unary:
			if e.Op == "&" {
				x := e.X
				for {
					if m, ok := x.(*syntax.Member); ok && !m.Arrow {
						x = m.X
						continue
					}
					break
				}
				if nm, ok := x.(*syntax.Name); ok {
					out[nm.Name] = true
				}
			}
			walkE(e.X)
		case *syntax.Binary:
			walkE(e.X)
			walkE(e.Y)
		case *syntax.Cond:
			walkE(e.C)
			walkE(e.X)
			walkE(e.Y)
		case *syntax.Call:
			walkE(e.Fun)
			for i, a := range e.Args {
				if refParam(e, i) {
					base(a)
				}
				walkE(a)
			}
			for _, a := range e.Launch {
				walkE(a)
			}
		case *syntax.Index:
			walkE(e.X)
			walkE(e.I)
		case *syntax.Member:
			walkE(e.X)
		case *syntax.Cast:
			walkE(e.X)
			for _, a := range e.Args {
				walkE(a)
			}
		case *syntax.New:
			for _, a := range e.Args {
				walkE(a)
			}
		case *syntax.Delete:
			walkE(e.X)
		case *syntax.SizeofExpr:
		case *syntax.InitList:
			for _, el := range e.Elems {
				walkE(el.X)
			}
		case *syntax.Lambda:
			walkS(e.Body)
			byRef := e.ByRef
			for _, r := range e.CapRef {
				byRef = byRef || r
			}
			if byRef {
				// a closure may hold the address of what it names
				namesIn(e.Body, out)
			}
		}
	}
	walkS = func(s syntax.Stmt) {
		switch s := s.(type) {
		case nil:
		case *syntax.Block:
			for _, x := range s.Stmts {
				walkS(x)
			}
		case *syntax.DeclStmt:
			for _, d := range s.Decls {
				if d.Type != nil && d.Type.Kind == syntax.TRef && d.Init != nil {
					base(d.Init)
				}
				walkE(d.Init)
				for _, a := range d.CtorArgs {
					walkE(a)
				}
			}
		case *syntax.ExprStmt:
			walkE(s.X)
		case *syntax.IfStmt:
			walkE(s.Cond)
			walkS(s.Then)
			walkS(s.Else)
		case *syntax.ForStmt:
			walkS(s.Init)
			walkE(s.Cond)
			walkE(s.Post)
			walkS(s.Body)
		case *syntax.DoStmt:
			walkS(s.Body)
			walkE(s.Cond)
		case *syntax.ReturnStmt:
			walkE(s.X)
		case *syntax.TryStmt:
			walkS(s.Body)
			for _, h := range s.Handlers {
				walkS(h.Body)
			}
		case *syntax.LabeledStmt:
			walkS(s.Stmt)
		case *syntax.SwitchStmt:
			walkE(s.X)
			walkS(s.Body)
		case *syntax.CaseStmt:
		}
	}
	if b, ok := n.(*syntax.Block); ok {
		walkS(b)
	}
}

// ---- statements ----

// discard compiles e for its side effects only (an expression statement,
// a for loop's step, the left of a comma). C++ [expr.context]: a
// discarded *p is not read (no lvalue-to-rvalue conversion), so "*p++;"
// only advances p.
func (c *compiler) discard(e syntax.Expr, pos diag.Pos) {
	switch x := e.(type) {
	case *syntax.Unary:
		if x.Op == "*" && !x.Post {
			if t := c.typeOf(x.X, true); t.Kind == Ptr && t.Elem != nil && t.Elem.Kind != Struct && !c.hasOps {
				c.discard(x.X, pos)
				return
			}
		}
	case *syntax.Binary:
		if x.Op == "," {
			c.discard(x.X, pos)
			c.discard(x.Y, pos)
			return
		}
	case *syntax.Cast:
		// (void)make(5): the operand is a discarded-value expression
		// (C++ [expr.static.cast]p6), a class prvalue materialized
		if x.Type != nil && x.Type.Kind == syntax.TNamed && x.Type.Name == "void" && x.X != nil && len(x.Args) == 0 && c.freshObject(x.X) {
			c.discard(x.X, pos)
			return
		}
	}
	if c.freshObject(e) { // temps.go
		// a discarded prvalue of a class with a destructor (make(3);,
		// a.f();) is materialized and destroyed at the end of the
		// full-expression (C++ [expr.context]p2, [class.temporary]p4)
		if t := c.typeOf(e, false); t.Kind == Struct && t.std == 0 && t.cg == 0 && c.dtorOf(t) != nil {
			c.refArg(e, t)
			c.emit(OpPop, 0, 0, pos)
			return
		}
	}
	c.expr(e)
	c.emit(OpPop, 0, 0, pos)
}

func (c *compiler) block(b *syntax.Block, scope bool) {
	if b == nil {
		return
	}
	if scope {
		c.push()
		defer c.pop()
	}
	c.dtors = append(c.dtors, nil)
	for _, s := range b.Stmts {
		c.stmt(s)
	}
	// the block's automatic objects are destroyed where it ends (and,
	// from where each is constructed to here, by unwinding: exc.go)
	c.noteCleanups(c.dtors[len(c.dtors)-1])
	c.destroy(len(c.dtors)-1, b.End)
	c.dtors = c.dtors[:len(c.dtors)-1]
}

func (c *compiler) stmt(s syntax.Stmt) {
	switch s := s.(type) {
	case nil, *syntax.EmptyStmt:
	case *syntax.Block:
		c.block(s, true)
	case *syntax.DeclStmt:
		for _, d := range s.Decls {
			mark := c.fullExpr() // temps.go
			c.localDecl(d)
			c.endFullExpr(mark, d.Pos)
		}
	case *syntax.ExprStmt:
		mark := c.fullExpr()
		c.discard(s.X, s.Pos)
		c.endFullExpr(mark, s.Pos)
	case *syntax.IfStmt:
		if s.Init != nil {
			c.push()
			c.stmt(s.Init)
			in := *s
			in.Init = nil
			c.stmt(&in)
			c.pop()
			return
		}
		if s.Constexpr {
			c.ifConstexpr(s)
			return
		}
		mark := c.fullExpr()
		c.cond(s.Cond)
		c.endFullExpr(mark, s.Pos)
		jz := c.emit(OpJz, 0, 0, s.Pos)
		c.scoped(s.Then)
		if s.Else != nil {
			j := c.emit(OpJmp, 0, 0, s.Pos)
			c.patch(jz)
			c.scoped(s.Else)
			c.patch(j)
		} else {
			c.patch(jz)
		}
	case *syntax.ForStmt:
		c.push()
		c.stmt(s.Init)
		top := c.here()
		jz := -1
		if s.Cond != nil {
			mark := c.fullExpr()
			c.cond(s.Cond)
			c.endFullExpr(mark, s.Pos)
			jz = c.emit(OpJz, 0, 0, s.Pos)
		}
		l := &loopCtx{}
		l.dtorDepth = len(c.dtors)
		c.loops = append(c.loops, l)
		c.scoped(s.Body)
		c.loops = c.loops[:len(c.loops)-1]
		for _, at := range l.conts {
			c.patch(at)
		}
		if s.Post != nil {
			mark := c.fullExpr()
			c.discard(s.Post, s.Pos)
			c.endFullExpr(mark, s.Pos)
		}
		c.emit(OpJmp, int32(top), 0, s.Pos)
		if jz >= 0 {
			c.patch(jz)
		}
		for _, at := range l.breaks {
			c.patch(at)
		}
		c.pop()
	case *syntax.DoStmt:
		top := c.here()
		l := &loopCtx{}
		l.dtorDepth = len(c.dtors)
		c.loops = append(c.loops, l)
		c.scoped(s.Body)
		c.loops = c.loops[:len(c.loops)-1]
		for _, at := range l.conts {
			c.patch(at)
		}
		mark := c.fullExpr()
		c.cond(s.Cond)
		c.endFullExpr(mark, s.Pos)
		c.emit(OpJnz, int32(top), 0, s.Pos)
		for _, at := range l.breaks {
			c.patch(at)
		}
	case *syntax.TryStmt:
		c.tryStmt(s) // exc.go
		return
	case *syntax.ReturnStmt:
		if c.inl != nil {
			c.lambdaReturn(s)
			return
		}
		rt := c.fn.Type.Elem
		if rt.Ref && s.X != nil {
			// a reference result: the address of the object
			c.refArg(s.X, rt.Elem)
			c.emit(OpRet, 0, 0, s.Pos)
			return
		}
		mark := c.fullExpr() // temps.go
		if s.X != nil {
			var t *Type
			if il, ok := s.X.(*syntax.InitList); ok {
				// return {...}: the result initialized from the list
				t = rt
				switch {
				case rt.Kind == Struct || rt.Kind == Array:
					c.emit(OpTemp, 0, int64(rt.size), s.Pos)
					c.initFrom(rt, il)
				case len(il.Elems) == 0:
					c.emit(OpConst, 0, 0, s.Pos)
				default:
					t = c.expr(il.Elems[0].X)
				}
			} else if rt.Kind == Struct && rt.std == 0 && c.nrvoSlot(rt, s.X) < 0 && c.addressable(s.X) && (c.returnParam(rt, s.X, s.Pos) || c.byCopyCtor(rt, s.X, s.Pos)) { // rvalue.go
				// return t; of a reference parameter, a global, a member,
				// *p: the result object is copy-initialized from the
				// lvalue by its class's copy constructor (C++
				// [stmt.return]p2, [dcl.init.general]p16.6.2); only a
				// local may be the result object itself (NRVO,
				// [class.copy.elision]p1)
				c.endFullExpr(mark, s.Pos)
				c.checkEnsures(s.Pos, true)
				c.destroyExcept(0, s.Pos, -1)
				c.emit(OpRet, 0, 0, s.Pos)
				return
			} else {
				t = c.expr(s.X)
			}
			if rt.Kind == Void {
				c.emit(OpPop, 0, 0, s.Pos)
				c.emit(OpConst, 0, 0, s.Pos)
			} else if rt.Kind == Struct {
				if rt.std != 0 && !sameType(t, rt) {
					// return "text"; from a function returning std::string
					c.emit(OpPop, 0, 0, s.Pos)
					c.emit(OpTemp, 0, int64(rt.size), s.Pos)
					c.stdInitFrom(rt, s.X)
				} else {
					// the value is the address of a local: copy it out
					c.emit(OpTemp, 0, int64(rt.size), s.Pos)
					c.emit(OpSwap, 0, 0, s.Pos)
					c.copyValue(rt, s.Pos)
				}
			} else {
				c.checkIterConv(t, rt, c.fn.Name, exprStart(s.X)) // iter.go
				c.convert(t, rt, syntax.PosOf(s.X))
			}
		} else {
			c.emit(OpConst, 0, 0, s.Pos)
		}
		c.endFullExpr(mark, s.Pos)
		c.checkEnsures(s.Pos, true)                    // annot.go
		c.destroyExcept(0, s.Pos, c.nrvoSlot(rt, s.X)) // rvalue.go
		c.emit(OpRet, 0, 0, s.Pos)
	case *syntax.BranchStmt:
		switch s.Tok {
		case "goto":
			at := c.emit(OpJmp, 0, 0, s.Pos)
			c.gotos = append(c.gotos, gotoFix{at: at, label: s.Label, pos: s.Pos})
		case "break":
			if len(c.loops) == 0 {
				c.errorf(s.Pos, "C0312", "break outside a loop or switch")
				return
			}
			l := c.loops[len(c.loops)-1]
			c.destroy(l.dtorDepth, s.Pos)
			l.breaks = append(l.breaks, c.emit(OpJmp, 0, 0, s.Pos))
		case "continue":
			for i := len(c.loops) - 1; i >= 0; i-- {
				if !c.loops[i].isSwitch {
					c.destroy(c.loops[i].dtorDepth, s.Pos)
					c.loops[i].conts = append(c.loops[i].conts, c.emit(OpJmp, 0, 0, s.Pos))
					return
				}
			}
			c.errorf(s.Pos, "C0312", "continue outside a loop")
		}
	case *syntax.RangeFor:
		c.rangeFor(s)
	case *syntax.LabeledStmt:
		c.labels[s.Label] = c.here()
		c.stmt(s.Stmt)
	case *syntax.SwitchStmt:
		mark := c.fullExpr() // the condition is a full-expression (temps.go)
		t := c.expr(s.X)
		pt := promote(t)
		c.convert(t, pt, s.Pos)
		tmp := c.newSlot()
		c.emit(OpSetLocal, int32(tmp), 0, s.Pos)
		c.emit(OpPop, 0, 0, s.Pos)
		c.endFullExpr(mark, s.Pos)
		j := c.emit(OpJmp, 0, 0, s.Pos)
		l := &loopCtx{isSwitch: true, defaultPC: -1}
		l.dtorDepth = len(c.dtors)
		c.loops = append(c.loops, l)
		c.scoped(s.Body)
		c.loops = c.loops[:len(c.loops)-1]
		end := c.emit(OpJmp, 0, 0, s.Pos)
		c.patch(j)
		for _, cl := range l.cases {
			c.emit(OpLocal, int32(tmp), 0, s.Pos)
			c.emit(OpConst, 0, int64(ext(uint64(cl.val), pt.size*8, pt.isSigned())), s.Pos)
			c.emit(OpEq, 0, 0, s.Pos)
			c.emit(OpJnz, int32(cl.pc), 0, s.Pos)
		}
		if l.defaultPC >= 0 {
			c.emit(OpJmp, int32(l.defaultPC), 0, s.Pos)
		}
		c.patch(end)
		for _, at := range l.breaks {
			c.patch(at)
		}
	case *syntax.CaseStmt:
		var l *loopCtx
		for i := len(c.loops) - 1; i >= 0; i-- {
			if c.loops[i].isSwitch {
				l = c.loops[i]
				break
			}
		}
		if l == nil {
			c.errorf(s.Pos, "C0312", "case label outside a switch")
			return
		}
		if s.X == nil {
			l.defaultPC = c.here()
			return
		}
		v, ok := c.constExpr(s.X)
		if !ok {
			c.errorf(s.Pos, "C0313", "case label is not an integer constant")
		}
		l.cases = append(l.cases, caseLabel{val: v, pc: c.here()})
	case *syntax.AsmStmt:
		c.asmStmt(s)
	default:
		c.errorf(syntax.PosOf(s), "C0309", "unsupported statement")
	}
}

func (c *compiler) scoped(s syntax.Stmt) {
	c.push()
	c.stmt(s)
	c.pop()
}

// cond compiles a controlling expression to an integer truth value.
func (c *compiler) cond(e syntax.Expr) {
	t := c.streamTruth(c.expr(e), syntax.PosOf(e)) // a stream's operator bool (lib_sstream.go)
	t, _ = c.structTruth(t, e)                     // a class's operator bool (arrow.go)
	if t.isFloat() {
		c.emit(OpConst, 0, int64(bits(0)), syntax.PosOf(e))
		c.emit(OpFNe, 0, 0, syntax.PosOf(e))
	} else if !t.isScalar() {
		c.errorf(syntax.PosOf(e), "C0302", "condition of type %s is not a scalar", t)
	}
}

func (c *compiler) localDecl(d *syntax.Decl) {
	prev := c.innermost(d.Name)
	defer func() { c.markRO(d.Name, prev, !d.Q.Typedef && c.declRO(d)) }() // constq.go
	if d.StaticAssert != nil {
		c.staticAssert(d)
		return
	}
	if d.Q.Typedef {
		c.declare(d.Name, &sym{kind: symTypedef, t: c.resolve(d.Type), vol: d.Q.Volatile || c.teVol(d.Type), ro: c.teConst(d.Type)})
		return
	}
	if d.Name == "" {
		c.resolve(d.Type)
		return
	}
	if d.Type.Kind == syntax.TFunc {
		return
	}
	if prev != nil && !d.Q.Extern && prev.kind != symTypedef && prev.kind != symFunc && prev.kind != symEnum && prev.kind != symTParam {
		// a variable declared twice in one block (C++
		// [basic.scope.declarative]p4, C11 6.7p3): int a; double a;
		c.errorf(d.Pos, "C0311", "redefinition of %s in the same block", d.Name)
	}
	if lam, ok := d.Init.(*syntax.Lambda); ok && hasAuto(d.Type) && !lam.ByValue && !c.returnsObject(lam) {
		c.declare(d.Name, &sym{kind: symLambda, lam: lam})
		c.checkLambda(lam)
		return
	}
	if hasAuto(d.Type) {
		if d.Init == nil || isInitList(d.Init) {
			c.errorf(d.Pos, "C0309", "auto variable %s needs an initializer expression", d.Name)
		} else {
			c.autoT = c.typeOf(d.Init, true)
			_, lit := d.Init.(*syntax.StringLitExpr)
			if d.Type.Kind == syntax.TRef && !lit {
				// auto&, const auto& and auto&& bound to an array lvalue
				// deduce the array type; only auto by value decays (C++
				// [dcl.type.auto.deduct], [temp.deduct.call]p2-3). A
				// string literal keeps binding as a pointer, as before:
				// refArg binds no array rvalue
				if rt := c.typeOf(d.Init, false); rt != nil && rt.Kind == Array {
					c.autoT = rt
				}
			}
		}
		defer func() { c.autoT = nil }()
	}
	t := c.resolve(d.Type)
	if t.Kind == Ptr && t.Ref {
		c.refLocal(d, t)
		return
	}
	if d.Q.Shared {
		if c.fn.Host && !c.fn.Device {
			c.errorf(d.Pos, "C0307", "__shared__ variable %s declared in host code", d.Name)
		}
		c.sharedDecl(d, t)
		return
	}
	t = c.completeArray(t, d.Init)
	if d.Q.Static || d.Q.Extern || d.Q.Constant {
		sp := SpaceHost
		if c.fn.Device && !c.fn.Host {
			sp = SpaceDevice
		}
		if d.Q.Constant {
			sp = SpaceConstant
		}
		g := &GlobalVar{Name: d.Name, Type: t, Space: sp, Pos: c.pos(d.Pos), index: len(c.prog.Globals)}
		c.prog.Globals = append(c.prog.Globals, g)
		c.declare(d.Name, &sym{kind: symGlobal, t: t, idx: g.index})
		if d.Init != nil {
			c.initCode = append(c.initCode, globalInit{idx: g.index, d: d})
		}
		return
	}
	if !t.complete || t.Kind == Void {
		c.errorf(d.Pos, "C0302", "variable %s has incomplete type %s", d.Name, t)
		t = tInt
	}
	if t.Kind == Array || t.Kind == Struct || c.addrTaken[d.Name] {
		slot := c.newSlot()
		c.allocas = append(c.allocas, Instr{Op: OpAlloca, A: int32(slot), B: int64(t.size), P: c.pos(d.Pos)})
		if d.Init != nil || d.HasCtor || isDim3(t) || c.ctorOf(t, -1) != nil || hasStd(t) || hasMemberDefaults(t) || t.poly || vbOf(t) != nil {
			c.emit(OpLocal, int32(slot), 0, d.Pos)
			c.initObject(t, d, d.Pos)
			c.emit(OpPop, 0, 0, d.Pos)
		}
		ms := &sym{kind: symMem, t: t, slot: slot}
		c.markConst(ms, d, t)
		c.declare(d.Name, ms)
		c.autoObject(t, slot)
		return
	}
	slot := c.newSlot()
	// declare after the initializer: "int x = x;" refers to the new x in
	// C, but reading it is indeterminate anyway
	if d.Init != nil {
		init := d.Init
		if il, ok := init.(*syntax.InitList); ok {
			if len(il.Elems) == 0 {
				init = &syntax.IntLitExpr{Pos: il.Pos, Type: "int"}
			} else {
				init = il.Elems[0].X
				c.narrowing(t, init) // braces.go
			}
		}
		ss := &sym{kind: symSlot, t: t, slot: slot}
		c.markConst(ss, d, t)
		c.declare(d.Name, ss)
		it := c.expr(init)
		c.checkIterConv(it, t, "", exprStart(init)) // iter.go
		c.convert(it, t, syntax.PosOf(init))
		c.emit(OpSetLocal, int32(slot), 0, d.Pos)
		c.emit(OpPop, 0, 0, d.Pos)
	} else if d.HasCtor && len(d.CtorArgs) == 1 {
		c.declare(d.Name, &sym{kind: symSlot, t: t, slot: slot})
		it := c.expr(d.CtorArgs[0])
		c.checkIterConv(it, t, "", exprStart(d.CtorArgs[0])) // iter.go
		c.convert(it, t, d.Pos)
		c.emit(OpSetLocal, int32(slot), 0, d.Pos)
		c.emit(OpPop, 0, 0, d.Pos)
	} else {
		c.declare(d.Name, &sym{kind: symSlot, t: t, slot: slot})
		// its value is indeterminate until assigned (checked by weft check)
		c.emit(OpUndef, int32(slot), 0, d.Pos)
		c.undef[int32(slot)] = int64(len(c.prog.Strings))
		c.prog.Strings = append(c.prog.Strings, d.Name)
	}
}

// initObject initializes the object whose address is on the stack (kept).
func (c *compiler) initObject(t *Type, d *syntax.Decl, pos diag.Pos) {
	if t.Kind == Struct && t.std == stdAtomicRef {
		switch {
		case d.HasCtor && len(d.CtorArgs) == 1:
			c.atomicRefInit(t, d.CtorArgs[0], pos)
		case d.Init != nil && !isInitList(d.Init):
			c.emit(OpDup, 0, 0, pos)
			if vt := c.expr(d.Init); !sameType(vt, t) {
				c.errorf(pos, "C0302", "cannot initialize %s from %s", t, vt)
			}
			c.emit(OpMemcpy, 0, int64(t.size), pos)
			c.emit(OpPop, 0, 0, pos)
		default:
			c.errorf(pos, "C0304", "cuda::atomic_ref must be bound to an object")
		}
		return
	}
	if t.Kind == Struct && t.std != 0 {
		switch {
		case d.HasCtor:
			c.stdConstruct(t, d.CtorArgs, pos)
		case d.Init != nil:
			c.stdInitFrom(t, d.Init)
		default:
			c.stdConstruct(t, nil, pos)
		}
		return
	}
	if hasStd(t) {
		c.stdZero(t, pos)
	}
	if t.poly || vbOf(t) != nil {
		if len(t.pure) > 0 {
			c.errorf(pos, "C0302", "cannot create an object of abstract class %s (pure virtual %s)", t, firstKey(t.pure))
		}
		c.stampVptr(t, pos)
		// and again after the initialization, which may zero the object
		// or copy another's vptr (the object is a t whatever it copied)
		defer c.stampVptr(t, pos)
	}
	if il, ok := d.Init.(*syntax.InitList); ok && !d.HasCtor && c.ctorOf(t, len(il.Elems)) != nil && c.initListCtor(t) == nil {
		// T x{args} (or = {args}) of a class with constructors:
		// list-initialization calls the constructor (C++
		// [dcl.init.list]p3)
		var args []syntax.Expr
		for _, el := range il.Elems {
			if el.Field != "" || el.Index != nil {
				args = nil
				break
			}
			args = append(args, el.X)
		}
		if len(args) == len(il.Elems) {
			ctor := c.pickCtor(c.ctorOf(t, len(args)), args, pos)
			c.emit(OpDup, 0, 0, pos)
			c.construct(ctor, args, pos)
			return
		}
	}
	if c.ctorOf(t, -1) != nil && (d.HasCtor || d.Init == nil) {
		if ctor := c.ctorForArgs(t, d.CtorArgs, pos); ctor != nil {
			c.emit(OpDup, 0, 0, pos)
			c.construct(ctor, d.CtorArgs, pos)
		}
		return
	}
	if d.HasCtor {
		if isDim3(t) {
			c.initDim3(d.CtorArgs, pos)
			return
		}
		if len(d.CtorArgs) == 1 && t.isScalar() {
			c.initFrom(t, d.CtorArgs[0])
			return
		}
		if t.vec != nil && !vecHasCtor(t) {
			// vector_types.h declares float4, int2, ... as plain aggregates:
			// nvcc rejects float4 v(x, y, z, w) ("too many initializer
			// values"); only cuda_fp16.h's and cuda_bf16.h's pairs have
			// two-argument constructors
			c.errorf(pos, "C0302", "%s has no constructor (it is an aggregate of vector_types.h): write %s v = make_%s(...) or %s v = {...}", t, t, t, t)
			return
		}
		if t.vec != nil && len(d.CtorArgs) == len(t.Fields) {
			// half2 v(a, b), __nv_bfloat162 v(a, b): each component
			c.emit(OpDup, 0, 0, pos)
			c.makeVector(t, d.CtorArgs, pos)
			c.emit(OpMemcpy, 0, int64(t.size), pos)
			c.emit(OpPop, 0, 0, pos)
			return
		}
		c.errorf(pos, "C0309", "constructor-style initialization of %s", t)
		return
	}
	if d.Init == nil {
		if isDim3(t) {
			c.initDim3(nil, pos)
		}
		c.memberDefaults(t, nil, pos)
		return
	}
	c.initFrom(t, d.Init)
}

func (c *compiler) initDim3(args []syntax.Expr, pos diag.Pos) {
	for i := 0; i < 3; i++ {
		c.emit(OpDup, 0, 0, pos)
		c.emit(OpConst, 4, int64(4*i), pos)
		c.emit(OpPtrAdd, 1, 0, pos)
		if i < len(args) {
			at := c.expr(args[i])
			c.convert(at, tUInt, syntax.PosOf(args[i]))
		} else {
			c.emit(OpConst, 0, 1, pos)
		}
		c.emit(OpStore, mU32, 0, pos)
		c.emit(OpPop, 0, 0, pos)
	}
}

// initFrom stores initializer e into the object of type t whose address is
// on the stack (kept).
func (c *compiler) initFrom(t *Type, e syntax.Expr) {
	pos := syntax.PosOf(e)
	if t.Kind == Struct && t.std != 0 {
		c.stdInitFrom(t, e)
		return
	}
	switch in := e.(type) {
	case *syntax.InitList:
		if t.isScalar() {
			if len(in.Elems) > 0 {
				c.narrowing(t, in.Elems[0].X) // braces.go
				c.initFrom(t, in.Elems[0].X)
			}
			return
		}
		if c.initListObject(t, in, pos) || c.listCtor(t, in, pos) { // braces.go
			return
		}
		if c.needsElision(t, in) {
			in = c.braceElide(t, in) // braces.go
		}
		c.emit(OpMemzero, 0, int64(t.size), pos)
		if len(in.Elems) == 1 && in.Elems[0].Field == "" && in.Elems[0].Index == nil && t.Kind == Struct && len(t.Fields) > 0 && t.Fields[0].Type.Kind == Array {
			if v, ok := c.constExpr(in.Elems[0].X); ok && v == 0 {
				// T x = {0}; with an array first member: brace elision
				// (C11 6.7.9p20) zero-initializes the whole object
				return
			}
		}
		if isDim3(t) {
			var args []syntax.Expr
			for _, el := range in.Elems {
				args = append(args, el.X)
			}
			c.initDim3(args, pos)
			return
		}
		idx := 0
		given := map[string]bool{}
		if t.Kind == Struct {
			defer c.memberDefaults(t, given, pos)
		}
		for _, el := range in.Elems {
			var et *Type
			var off int
			switch t.Kind {
			case Array:
				if el.Index != nil {
					v, ok := c.constExpr(el.Index)
					if !ok {
						c.errorf(syntax.PosOf(el.Index), "C0313", "array designator is not constant")
					}
					idx = int(v)
				}
				if t.Len >= 0 && idx >= t.Len {
					c.errorf(syntax.PosOf(el.X), "C0302", "excess elements in array initializer")
					return
				}
				et, off = t.Elem, idx*t.Elem.size
			case Struct:
				if el.Field != "" {
					found := false
					for k, f := range t.Fields {
						if f.Name == el.Field {
							idx, found = k, true
						}
					}
					if !found {
						c.errorf(syntax.PosOf(el.X), "C0306", "no member %s in %s", el.Field, t)
						return
					}
				}
				if idx >= len(t.Fields) {
					c.errorf(syntax.PosOf(el.X), "C0302", "excess elements in struct initializer")
					return
				}
				et, off = t.Fields[idx].Type, t.Fields[idx].Offset
				given[t.Fields[idx].Name] = true
			default:
				c.errorf(pos, "C0302", "initializer list for %s", t)
				return
			}
			c.emit(OpDup, 0, 0, pos)
			c.emit(OpConst, 0, int64(off), pos)
			c.emit(OpPtrAdd, 1, 0, pos)
			c.narrowing(et, el.X) // braces.go
			c.initFrom(et, el.X)
			c.emit(OpPop, 0, 0, pos)
			idx++
		}
		return
	case *syntax.StringLitExpr:
		if t.Kind == Array && t.Elem.size == 1 {
			n := len(in.Value) + 1
			if n > t.size {
				n = t.size
			}
			c.emit(OpMemzero, 0, int64(t.size), pos)
			c.emit(OpString, int32(c.literal(in.Value)), 0, pos)
			c.emit(OpMemcpy, 0, int64(n), pos)
			return
		}
	}
	if t.Kind == Array {
		c.errorf(pos, "C0302", "array initialized from a non-list expression")
		return
	}
	if c.convertingCtor(t, e, pos) { // braces.go
		return
	}
	c.emit(OpDup, 0, 0, pos)
	vt := c.expr(e)
	if t.Kind == Struct {
		if vt != t && !cgAssignable(t, vt) {
			c.errorf(pos, "C0302", "cannot initialize %s from %s", t, vt)
		}
		c.copyValue(t, pos)
		c.emit(OpPop, 0, 0, pos)
		return
	}
	c.convert(vt, t, pos)
	c.emit(OpStore, int32(memCode(t)), 0, pos)
	c.emit(OpPop, 0, 0, pos)
}

func (c *compiler) literal(s string) int {
	if i, ok := c.lits[s]; ok {
		return i
	}
	i := len(c.prog.Literals)
	c.prog.Literals = append(c.prog.Literals, s)
	c.lits[s] = i
	return i
}

// ---- conversions ----

func promote(t *Type) *Type {
	if t.isInt() && t.rank() < 3 {
		return tInt
	}
	return t
}

func arithType(a, b *Type) *Type {
	if a.Kind == Double || b.Kind == Double {
		return tDouble
	}
	if a.Kind == Float || b.Kind == Float {
		return tFloat
	}
	if a.isHalf() || b.isHalf() {
		switch {
		case a.Kind == b.Kind:
			return a
		case a.isHalf() && b.isHalf(): // __half with __nv_bfloat16
			return tFloat
		case a.isHalf():
			return a
		}
		return b
	}
	a, b = promote(a), promote(b)
	if a.Kind == b.Kind {
		return a
	}
	if a.isSigned() == b.isSigned() {
		if a.rank() >= b.rank() {
			return a
		}
		return b
	}
	u, s := a, b
	if a.isSigned() {
		u, s = b, a
	}
	if u.rank() >= s.rank() {
		return u
	}
	if s.size > u.size {
		return s
	}
	return unsignedOf(s)
}

// convert emits the conversion of the top of stack from type from to to.
func (c *compiler) convert(from, to *Type, pos diag.Pos) {
	if from == to || to.Kind == Void {
		return
	}
	if from.Kind == Ptr && to.Kind == Ptr && from.Elem != nil && to.Elem != nil {
		c.upcast(from.Elem, to.Elem, pos) // multiple inheritance (mi.go), virtual bases (vbase.go)
	}
	if from.Kind == Struct && isFuncPtr(to) && c.lambdaToFnPtr(from, pos) {
		return // a lambda without captures (lambda.go)
	}
	if from.Kind == Struct && to.Kind != Struct {
		if fn := c.conversionOf(from, to); fn != nil {
			// the object's conversion function (operators.go)
			c.checkCallSpace(fn, pos)
			c.emit(OpCall, int32(c.funcIndex(fn)), 1, pos)
			c.convert(c.result(fn.Type.Elem, false, pos), to, pos)
			return
		}
	}
	switch {
	case to.Kind == Bool:
		if from.isFloat() {
			c.emit(OpConst, 0, int64(bits(0)), pos)
			c.emit(OpFNe, 0, 0, pos)
		} else {
			c.emit(OpExt, 1, 0, pos)
		}
	case to.isInt() && from.isInt():
		if to.size < 8 && (to.size < from.size || to.isSigned() != from.isSigned() || from.Kind == Bool) {
			c.emit(OpExt, int32(to.size*8), int64(b2u(to.isSigned())), pos)
		}
	case to.isInt() && from.isFloat():
		// saturating, NaN to 0: what the GPU's cvt.rzi does (C leaves
		// out-of-range conversions undefined)
		if to.isSigned() {
			c.emit(OpF2I, int32(to.size*8), 0, pos)
		} else {
			c.emit(OpF2U, int32(to.size*8), 0, pos)
		}
	case to.isFloat() && from.isInt():
		if from.Kind == ULong || from.Kind == ULLong {
			c.emit(OpU2F, 0, 0, pos)
		} else {
			c.emit(OpI2F, 0, 0, pos)
		}
		c.roundTo(to, pos)
	case to.isFloat() && from.isFloat():
		if !exactFloat(from, to) {
			c.roundTo(to, pos)
		}
	case to.Kind == Ptr && (from.Kind == Ptr || from.isInt()):
	case to.isInt() && from.Kind == Ptr:
		if to.size < 8 {
			c.emit(OpExt, int32(to.size*8), int64(b2u(to.isSigned())), pos)
		}
	case to.Kind == Struct && from == to:
	default:
		if to.Kind == Struct && from.Kind == Struct && to.Name == from.Name && to.size == from.size {
			return
		}
		c.errorf(pos, "C0302", "cannot convert %s to %s", from, to)
	}
}

// ---- lvalues ----

// lval is an assignable location: a register slot, or an address left on
// the stack (slot < 0).
type lval struct {
	t    *Type
	slot int
	vol  bool // a volatile object: its loads and stores are OpLoadV/OpStoreV (fence.go)
}

func (c *compiler) lvalue(e syntax.Expr) lval {
	pos := syntax.PosOf(e)
	if sn, ok := e.(*syntax.ScopedName); ok {
		e = c.scopedName(sn)
	}
	if ce, ok := e.(*syntax.Cast); ok {
		if r := dynRefForm(ce); r != nil {
			e = r // dynamic_cast<T &>(x) (mi.go)
		}
	}
	switch e := e.(type) {
	case *syntax.Name:
		s := c.lookup(e.Name)
		if s == nil && c.recv != nil && c.recv.field(e.Name) != nil {
			lv := c.lvalue(&syntax.Member{Pos: e.Pos, X: &syntax.Name{Pos: e.Pos, Name: "this"}, Name: e.Name, Arrow: true})
			if lv.slot < 0 && lv.t.Kind == Ptr && lv.t.Ref {
				// a reference member (a closure's capture by reference)
				c.emit(OpLoad, int32(memCode(tULong)), 0, pos)
				return lval{t: lv.t.Elem, slot: -1}
			}
			return lv
		}
		if s != nil && s.kind == symRef {
			c.emit(OpLocal, int32(s.slot), 0, pos)
			return lval{t: s.t, slot: -1}
		}
		if s == nil {
			c.errorf(pos, "C0301", "undeclared identifier %s", e.Name)
			c.emit(OpConst, 0, 0, pos)
			return lval{t: tInt, slot: -1}
		}
		switch s.kind {
		case symSlot:
			return lval{t: s.t, slot: s.slot}
		case symMem:
			c.emit(OpLocal, int32(s.slot), 0, pos)
		case symGlobal:
			c.emit(OpGlobal, int32(s.idx), 0, pos)
		case symShared:
			c.emit(OpShared, int32(s.idx), 0, pos)
		case symDynShared:
			c.emit(OpShared, -1, int64(c.literal(e.Name)+1), pos)
		default:
			c.errorf(pos, "C0303", "%s is not assignable", e.Name)
			c.emit(OpConst, 0, 0, pos)
			return lval{t: tInt, slot: -1}
		}
		c.checkSpaceUse(s, e.Name, pos)
		return lval{t: s.t, slot: -1, vol: s.vol}
	case *syntax.Unary:
		if call := c.derefOperator(e); call != nil {
			// *x on an object: its operator*'s reference result (arrow.go)
			return c.operatorLvalue(call, "operator*", pos)
		}
		if e.Op == "*" {
			t := c.expr(e.X)
			if t.Kind != Ptr {
				c.errorf(pos, "C0302", "indirection of non-pointer type %s", t)
				return lval{t: tInt, slot: -1}
			}
			if t.Elem.Kind == Void {
				c.errorf(pos, "C0302", "dereference of void*")
				return lval{t: tInt, slot: -1}
			}
			c.alignCheck(t.Elem, pos)
			return lval{t: t.Elem, slot: -1, vol: t.vol}
		}
		if c.hasOps {
			// (-a).y: an operator function's class result, an object
			// (a temporary, or what a T& result refers to), as for a
			// binary operator below
			t := c.expr(e)
			if t.Kind != Struct {
				c.errorf(pos, "C0303", "expression is not assignable")
			}
			return lval{t: t, slot: -1}
		}
	case *syntax.Index:
		if c.hasOps {
			if call := c.indexOperator(e); call != nil {
				return c.operatorLvalue(call, "operator[]", pos)
			}
		}
		t := c.expr(e.X)
		if t.Kind == Struct && t.std != 0 {
			return c.stdIndex(t, e.I, pos)
		}
		if t.Kind != Ptr {
			if t.isInt() { // i[a]
				it := c.expr(e.I)
				if it.Kind == Ptr {
					c.emit(OpSwap, 0, 0, pos)
					c.convert(t, tLong, pos)
					c.emit(OpPtrAdd, int32(it.ElemSize()), 0, pos)
					return lval{t: it.Elem, slot: -1, vol: it.vol}
				}
			}
			c.errorf(pos, "C0302", "subscripted value of type %s is not an array or pointer", t)
			return lval{t: tInt, slot: -1}
		}
		it := c.expr(e.I)
		if !it.isInt() {
			c.errorf(syntax.PosOf(e.I), "C0302", "array subscript of type %s is not an integer", it)
		}
		c.convert(it, tLong, pos)
		c.emit(OpPtrAdd, int32(t.ElemSize()), 0, pos)
		c.alignCheck(t.Elem, pos)
		return lval{t: t.Elem, slot: -1, vol: t.vol}
	case *syntax.Member:
		e = c.arrowOp(e) // an overloaded -> (arrow.go)
		var st *Type
		vol := false
		if e.Arrow {
			pt := c.expr(e.X)
			vol = pt.vol
			if pt.Kind != Ptr || pt.Elem.Kind != Struct {
				c.errorf(pos, "C0302", "-> applied to %s", pt)
				return lval{t: tInt, slot: -1}
			}
			st = pt.Elem
		} else {
			lv := c.lvalue(e.X)
			if lv.slot >= 0 || lv.t.Kind != Struct {
				c.errorf(pos, "C0302", ". applied to %s", lv.t)
				c.emit(OpConst, 0, 0, pos)
				return lval{t: tInt, slot: -1}
			}
			st, vol = lv.t, lv.vol
			if c.freshObject(e.X) {
				// make(1).v, (a + b).x: the class prvalue is materialized
				// and destroyed at the end of the full-expression
				// ([expr.ref]p2, [class.temporary]p2.3; temps.go)
				c.materialized(st, e.X, pos)
			}
		}
		f := st.field(e.Name)
		if f == nil {
			if i, ok := bindIndex(e.Name); ok { // lib_bind.go
				c.errorf(pos, "C0306", "structured binding: name %d of the binding has no member of %s to bind to", i+1, st)
				return lval{t: tInt, slot: -1}
			}
			c.errorf(pos, "C0306", "no member named %s in %s", e.Name, st)
			return lval{t: tInt, slot: -1}
		}
		f = c.viaVirtualBase(st, f, pos) // a member of a virtual base (vbase.go)
		if f.Offset != 0 {
			c.emit(OpConst, 0, int64(f.Offset), pos)
			c.emit(OpPtrAdd, 1, 0, pos)
		}
		return lval{t: f.Type, slot: -1, vol: vol || f.Vol}
	case *syntax.Call, *syntax.Cast:
		if lv, ok := c.refResult(func() *Type { return c.expr(e) }); ok { // arrow.go
			return lv
		}
	case *syntax.Cond:
		if c.addressable(e.X) && c.addressable(e.Y) {
			c.cond(e.C)
			jz := c.emit(OpJz, 0, 0, e.Pos)
			lx := c.lvalue(e.X)
			j := c.emit(OpJmp, 0, 0, e.Pos)
			c.patch(jz)
			ly := c.lvalue(e.Y)
			c.patch(j)
			if lx.slot >= 0 || ly.slot >= 0 || !sameType(lx.t, ly.t) {
				c.errorf(pos, "C0303", "conditional expression is not an lvalue here")
			}
			return lval{t: lx.t, slot: -1}
		}
		t := c.expr(e)
		if t.Kind == Struct {
			return lval{t: t, slot: -1}
		}
		c.errorf(pos, "C0303", "expression is not assignable")
		return lval{t: t, slot: -1}
	case *syntax.Binary:
		t := c.expr(e)
		if t.Kind == Struct {
			return lval{t: t, slot: -1}
		}
		c.errorf(pos, "C0303", "expression is not assignable")
		return lval{t: t, slot: -1}
	}
	c.errorf(pos, "C0303", "expression is not assignable")
	c.emit(OpConst, 0, 0, pos)
	return lval{t: tInt, slot: -1}
}

// checkSpaceUse rejects naming a __shared__ variable in host code statically.
func (c *compiler) checkSpaceUse(s *sym, name string, pos diag.Pos) {
	if (s.kind == symShared || s.kind == symDynShared) && c.fn != nil && c.fn.Host && !c.fn.Device {
		c.errorf(pos, "C0307", "__shared__ variable %s used in host code", name)
	}
}

// load turns an lvalue into its value (arrays decay, structs stay addresses).
func (c *compiler) load(lv lval, pos diag.Pos) *Type {
	if lv.slot >= 0 {
		c.emit(OpLocal, int32(lv.slot), 0, pos)
		return lv.t
	}
	switch lv.t.Kind {
	case Array:
		p := ptrTo(lv.t.Elem)
		p.vol = lv.vol || lv.t.vol
		return p
	case Struct:
		return lv.t
	case Func:
		// a function designator decays to a pointer (C11 6.3.2.1p4):
		// the address of *f is f's value
		return ptrTo(lv.t)
	}
	c.emit(lv.loadOp(), int32(memCode(lv.t)), 0, pos)
	return lv.t
}

// loadOp and storeOp are the access instructions of lv: volatile objects
// use the strong forms (fence.go).
func (lv lval) loadOp() Op {
	if lv.vol {
		return OpLoadV
	}
	return OpLoad
}

func (lv lval) storeOp() Op {
	if lv.vol {
		return OpStoreV
	}
	return OpStore
}

// ---- expressions ----

var sregs map[string][3]int

// initSregs builds sregs (tables.go).
func initSregs() {
	sregs = map[string][3]int{
		"threadIdx": {srTidX, srTidY, srTidZ},
		"blockIdx":  {srBidX, srBidY, srBidZ},
		"blockDim":  {srBdimX, srBdimY, srBdimZ},
		"gridDim":   {srGdimX, srGdimY, srGdimZ},
	}
}

func (c *compiler) deviceOnly() bool { return c.fn != nil && c.fn.Device && !c.fn.Host }
func (c *compiler) hostOnly() bool   { return c.fn != nil && c.fn.Host && !c.fn.Device }

func (c *compiler) expr(e syntax.Expr) *Type {
	pos := syntax.PosOf(e)
	if sn, ok := e.(*syntax.ScopedName); ok {
		e = c.scopedName(sn)
	}
	switch e := e.(type) {
	case nil:
		c.emit(OpConst, 0, 0, pos)
		return tInt
	case *syntax.IntLitExpr:
		t := baseTypes[e.Type]
		if t == nil {
			t = tInt
		}
		c.emit(OpConst, 0, int64(ext(e.Value, t.size*8, t.isSigned())), pos)
		return t
	case *syntax.CharLitExpr:
		c.emit(OpConst, 0, e.Value, pos)
		return tInt
	case *syntax.FloatLitExpr:
		if e.Float {
			c.emit(OpConst, 0, int64(bits(float64(float32(e.Value)))), pos)
			return tFloat
		}
		c.emit(OpConst, 0, int64(bits(e.Value)), pos)
		return tDouble
	case *syntax.StringLitExpr:
		c.emit(OpString, int32(c.literal(e.Value)), 0, pos)
		return tCharP
	case *syntax.Name:
		if e.Name == "warpSize" && c.lookup(e.Name) == nil {
			c.emit(OpSReg, srWarpSize, 0, pos)
			return tInt
		}
		s := c.lookup(e.Name)
		if s == nil && c.recv != nil && c.recv.field(e.Name) != nil {
			return c.load(c.lvalue(e), pos)
		}
		if s != nil && s.kind == symLambda {
			return c.closure(s.lam) // a lambda variable used as a value
		}
		if s == nil {
			if v, ok := c.tvals[e.Name]; ok {
				c.emit(OpConst, 0, v, pos)
				return tInt
			}
			if fn, ok := c.funcName(e.Name); ok { // assert.go
				c.emit(OpString, int32(c.literal(fn)), 0, pos)
				return tCharP
			}
			if v, ok := namedConsts[e.Name]; ok {
				c.emit(OpConst, 0, v, pos)
				return tInt
			}
			if v, ok := stdStreams[e.Name]; ok {
				c.emit(OpConst, 0, v, pos)
				return tFILEP
			}
			if v, ok := ostreams[e.Name]; ok {
				c.stdHostOnly(pos)
				c.emit(OpConst, 0, v, pos)
				return tOstream
			}
			if e.Name == "std::cin" { // lib_sstream.go
				c.stdHostOnly(pos)
				c.emit(OpConst, 0, stdinHandle, pos)
				return tIstream
			}
			if _, ok := sregs[e.Name]; ok {
				c.errorf(pos, "C0309", "%s must be used with a member (.x, .y or .z)", e.Name)
				c.emit(OpConst, 0, 0, pos)
				return tUInt
			}
			if t, ok := c.funcValue(e.Name, pos); ok {
				return t
			} else {
				c.errorf(pos, "C0301", "undeclared identifier %s", e.Name)
			}
			c.emit(OpConst, 0, 0, pos)
			return tInt
		}
		if s.isConst && s.t.isInt() {
			// a const integer with a constant initializer: its value (so
			// a file-scope constexpr is readable from device code)
			c.emit(OpConst, 0, s.val, pos)
			return s.t
		}
		if s.fconst {
			c.emit(OpConst, 0, int64(s.fbits), pos)
			return s.t
		}
		switch s.kind {
		case symEnum, symTParam:
			c.emit(OpConst, 0, s.val, pos)
			return tInt
		case symTypedef:
			c.errorf(pos, "C0210", "unexpected type name %s in expression", e.Name)
			c.emit(OpConst, 0, 0, pos)
			return tInt
		}
		return c.load(c.lvalue(e), pos)
	case *syntax.Member:
		if n, ok := e.X.(*syntax.Name); ok && !e.Arrow {
			if r, ok := sregs[n.Name]; ok && c.lookup(n.Name) == nil {
				k := strings.Index("xyz", e.Name)
				if k < 0 || len(e.Name) != 1 {
					c.errorf(pos, "C0306", "no member named %s in %s", e.Name, n.Name)
					k = 0
				}
				if c.hostOnly() {
					c.errorf(pos, "C0307", "%s used in host code", n.Name)
				}
				c.emit(OpSReg, int32(r[k]), 0, pos)
				return tUInt
			}
		}
		if n := c.staticViaObject(e); n != nil { // rvalue.go
			return c.expr(n)
		}
		return c.load(c.lvalue(e), startPos(e))
	case *syntax.Index:
		if c.hasOps {
			if call := c.indexOperator(e); call != nil {
				return c.call(call)
			}
		}
		return c.load(c.lvalue(e), startPos(e))
	case *syntax.Unary:
		return c.unary(e)
	case *syntax.Binary:
		return c.binary(e)
	case *syntax.Cond:
		return c.condExpr(e)
	case *syntax.Call:
		return c.call(e)
	case *syntax.Cast:
		return c.cast(e)
	case *syntax.New:
		return c.newExpr(e)
	case *syntax.Throw:
		return c.throwExpr(e) // exc.go
	case *syntax.Delete:
		return c.deleteExpr(e)
	case *syntax.SizeofExpr:
		var t *Type
		if e.Type != nil {
			t = c.resolve(e.Type)
		} else {
			t = c.typeOf(e.X, false)
		}
		if e.Align {
			c.emit(OpConst, 0, int64(t.align), pos) // alignof
			return tULong
		}
		c.emit(OpConst, 0, int64(t.size), pos)
		return tULong
	case *syntax.Trait:
		return c.trait(e)
	case *syntax.Lambda:
		return c.closure(e)
	case *syntax.InitList:
		c.errorf(pos, "C0302", "initializer list in an expression")
		c.emit(OpConst, 0, 0, pos)
		return tInt
	}
	c.errorf(pos, "C0309", "unsupported expression")
	c.emit(OpConst, 0, 0, pos)
	return tInt
}

// namedConsts are the enumerators of the CUDA runtime we model.
var namedConsts map[string]int64

// initNamedConsts builds namedConsts (tables.go).
func initNamedConsts() {
	namedConsts = map[string]int64{
		"cudaMemcpyHostToHost": 0, "cudaMemcpyHostToDevice": 1, "cudaMemcpyDeviceToHost": 2,
		"cudaMemcpyDeviceToDevice": 3, "cudaMemcpyDefault": 4,
		"cudaComputeModeDefault": 0, "cudaComputeModeExclusive": 1, "cudaComputeModeProhibited": 2,
		"cudaComputeModeExclusiveProcess": 3,
		"cudaSuccess":                     0, "cudaErrorInvalidValue": 1, "cudaErrorMemoryAllocation": 2,
		"cudaErrorInvalidConfiguration": 9, "cudaErrorInvalidDevicePointer": 17,
		"cudaErrorInvalidMemcpyDirection": 21, "cudaErrorInvalidFilterSetting": 26, "cudaErrorLaunchFailure": 719, "cudaErrorIllegalAddress": 700,
		"cudaStreamDefault": 0, "cudaStreamNonBlocking": 1, "cudaEventDefault": 0, "cudaEventDisableTiming": 2, "cudaEventBlockingSync": 1, "cudaEventInterprocess": 4,
		"cudaHostAllocDefault": 0, "cudaMemAttachGlobal": 1, "cudaStreamLegacy": 0,
	}
}

func (c *compiler) unary(e *syntax.Unary) *Type {
	pos := e.Pos
	if c.hasOps && (e.Op == "-" || e.Op == "!" || e.Op == "~" || e.Op == "+" || e.Op == "*" && c.typeOf(e.X, false).Kind == Struct) {
		if t, ok := c.operatorCall(e.Op, pos, e.X, nil); ok {
			return t
		}
	}
	switch e.Op {
	case "&":
		if n, ok := e.X.(*syntax.Name); ok {
			if s := c.lookup(n.Name); s != nil && s.kind == symSlot {
				c.errorf(pos, "C0303", "cannot take the address of %s", n.Name)
			}
			if c.lookup(n.Name) == nil {
				if t, ok := c.funcValue(n.Name, pos); ok {
					return t
				}
				if t, ok := c.stdStreamAddr(n.Name, pos); ok { // &std::cout (lib_sstream.go)
					return t
				}
			}
		}
		lv := c.lvalue(e.X)
		if lv.slot >= 0 {
			c.emit(OpConst, 0, 0, pos)
		}
		return ptrTo(lv.t)
	case "*":
		return c.load(c.lvalue(e), pos)
	case "++", "--":
		return c.incdec(e)
	case "-", "+", "~":
		t := c.expr(e.X)
		if !t.isArith() || (e.Op == "~" && !t.isInt()) {
			c.errorf(pos, "C0302", "invalid operand of type %s to unary %s", t, e.Op)
			return tInt
		}
		pt := promote(t)
		c.convert(t, pt, pos)
		switch e.Op {
		case "-":
			if pt.isFloat() {
				c.emit(OpFNeg, 0, 0, pos)
			} else if op := intArithOp("-", pt); op == OpSubS {
				// 0 - x: -INT_MIN is a signed overflow (C0611, overflow.go)
				c.emit(OpConst, 0, 0, pos)
				c.emit(OpSwap, 0, 0, pos)
				c.emit(op, int32(pt.size*8), 0, pos)
				c.normalize(pt, pos)
			} else {
				c.emit(OpNeg, 0, 0, pos)
				c.normalize(pt, pos)
			}
		case "~":
			c.emit(OpCompl, 0, 0, pos)
			c.normalize(pt, pos)
		}
		return pt
	case "!":
		c.cond(e.X)
		c.emit(OpLNot, 0, 0, pos)
		return tInt
	}
	c.errorf(pos, "C0309", "unsupported operator %s", e.Op)
	c.emit(OpConst, 0, 0, pos)
	return tInt
}

// normalize re-extends an integer result of type t after 64-bit arithmetic.
func (c *compiler) normalize(t *Type, pos diag.Pos) {
	if t.isInt() && t.size < 8 {
		c.emit(OpExt, int32(t.size*8), int64(b2u(t.isSigned())), pos)
	}
}

func (c *compiler) incdec(e *syntax.Unary) *Type {
	pos := e.Pos
	if e.Post {
		pos = startPos(e.X)
	}
	if c.hasOps {
		// an object's operator++ / operator-- (operators.go)
		if tx := c.typeOf(e.X, false); tx.Kind == Struct {
			if !e.Post {
				if t, ok := c.operatorCall(e.Op, pos, e.X, nil); ok {
					return t
				}
			} else if t, ok := c.operatorCall(e.Op+"(int)", pos, e.X, &syntax.IntLitExpr{Pos: pos, Type: "int"}); ok {
				return t
			}
		}
	}
	op := "+="
	if e.Op == "--" {
		op = "-="
	}
	one := &syntax.IntLitExpr{Pos: pos, Value: 1, Type: "int"}
	if !e.Post {
		return c.assign(&syntax.Binary{Pos: pos, Op: op, X: e.X, Y: one})
	}
	c.constAssign(e.X) // lambda.go
	lv := c.lvalue(e.X)
	if !lv.t.isScalar() {
		c.errorf(pos, "C0302", "invalid operand of type %s to %s", lv.t, e.Op)
		return tInt
	}
	if lv.slot >= 0 {
		c.emit(OpLocal, int32(lv.slot), 0, pos)
		c.emit(OpDup, 0, 0, pos)
	} else {
		c.emit(OpDup, 0, 0, pos)
		c.emit(lv.loadOp(), int32(memCode(lv.t)), 0, pos)
		c.emit(OpDupX1, 0, 0, pos) // old addr old
	}
	c.addOne(lv.t, e.Op == "--", pos)
	if lv.slot >= 0 {
		c.emit(OpSetLocal, int32(lv.slot), 0, pos)
	} else {
		c.emit(lv.storeOp(), int32(memCode(lv.t)), 0, pos)
	}
	c.emit(OpPop, 0, 0, pos)
	return lv.t
}

func (c *compiler) addOne(t *Type, dec bool, pos diag.Pos) {
	switch {
	case t.Kind == Ptr:
		d := int64(1)
		if dec {
			d = -1
		}
		c.emit(OpConst, 0, d, pos)
		c.emit(OpPtrAdd, int32(t.ElemSize()), 0, pos)
	case t.isFloat():
		c.emit(OpConst, 0, int64(bits(1)), pos)
		op := OpFAdd
		if dec {
			op = OpFSub
		}
		if t.Kind == Float {
			op += OpF32Add - OpFAdd
		}
		c.emit(op, 0, 0, pos)
		if t.isHalf() {
			c.roundTo(t, pos)
		}
	default:
		c.emit(OpConst, 0, 1, pos)
		op := "+"
		if dec {
			op = "-"
		}
		c.emit(intArithOp(op, t), int32(t.size*8), 0, pos) // signed overflow is C0611 (overflow.go)
		c.normalize(t, pos)
	}
}

var compoundOps map[string]string

// initCompoundOps builds compoundOps (tables.go).
func initCompoundOps() {
	compoundOps = map[string]string{
		"+=": "+", "-=": "-", "*=": "*", "/=": "/", "%=": "%", "<<=": "<<", ">>=": ">>",
		"&=": "&", "|=": "|", "^=": "^",
	}
}

func (c *compiler) binary(e *syntax.Binary) *Type {
	pos := e.Pos
	switch e.Op {
	case ",":
		c.discard(e.X, pos)
		return c.expr(e.Y)
	case "=":
		return c.assign(e)
	case "&&", "||":
		c.cond(e.X)
		c.emit(OpDup, 0, 0, pos)
		var j int
		if e.Op == "&&" {
			j = c.emit(OpJz, 0, 0, pos)
		} else {
			j = c.emit(OpJnz, 0, 0, pos)
		}
		c.emit(OpPop, 0, 0, pos)
		c.cond(e.Y)
		c.patch(j)
		c.emit(OpExt, 1, 0, pos)
		return tInt
	}
	if c.hasOps {
		if t, ok := c.operatorCall(e.Op, e.Pos, e.X, e.Y); ok {
			return t
		}
	}
	if t, ok := c.half2Op(e); ok {
		return t
	}
	if e.Op == "<<" {
		if t, ok := c.ostreamPut(e); ok {
			return t
		}
	}
	if e.Op == ">>" {
		if t, ok := c.istreamGet(e); ok { // lib_sstream.go
			return t
		}
	}
	if _, ok := compoundOps[e.Op]; ok {
		return c.assign(e)
	}
	tx := c.convertedOperand(c.expr(e.X), pos)
	ty := c.convertedOperand(c.expr(e.Y), pos)
	if tx.std != 0 || ty.std != 0 {
		return c.stdBinaryOps(e.Op, tx, ty, pos)
	}
	return c.arith(e.Op, tx, ty, pos)
}

// convertedOperand applies a class operand's conversion function to an
// arithmetic type or pointer, as the built-in operators need (C++
// [over.built]); other operands stay as they are.
func (c *compiler) convertedOperand(t *Type, pos diag.Pos) *Type {
	if t.Kind != Struct || t.Name == "" || t.std != 0 || t.vec != nil {
		return t
	}
	for k := 0; k < 8; k++ {
		fn := c.funcs[fmt.Sprintf("%s::operator conv#%d", tagOf(t), k)]
		if fn == nil {
			break
		}
		if rt := fn.Type.Elem; rt.isScalar() && rt.Kind != Bool {
			c.convert(t, rt, pos)
			return rt
		}
	}
	return t
}

// arith applies op to the two values on the stack (x below y) of types tx
// and ty, converting both to their common type.
func (c *compiler) arith(op string, tx, ty *Type, pos diag.Pos) *Type {
	// pointer arithmetic
	if tx.Kind == Ptr || ty.Kind == Ptr {
		switch {
		case op == "+" && tx.Kind == Ptr && ty.isInt():
			c.convert(ty, tLong, pos)
			c.emit(OpPtrAdd, int32(tx.ElemSize()), 0, pos)
			return tx
		case op == "+" && ty.Kind == Ptr && tx.isInt():
			c.emit(OpSwap, 0, 0, pos)
			c.convert(tx, tLong, pos)
			c.emit(OpPtrAdd, int32(ty.ElemSize()), 0, pos)
			return ty
		case op == "-" && tx.Kind == Ptr && ty.isInt():
			c.convert(ty, tLong, pos)
			c.emit(OpNeg, 0, 0, pos)
			c.emit(OpPtrAdd, int32(tx.ElemSize()), 0, pos)
			return tx
		case op == "-" && tx.Kind == Ptr && ty.Kind == Ptr:
			c.emit(OpPtrDiff, int32(tx.ElemSize()), 0, pos)
			return tLong
		case isCompare(op) && (tx.Kind == Ptr || tx.isInt()) && (ty.Kind == Ptr || ty.isInt()):
			c.emit(map[string]Op{"==": OpEq, "!=": OpNe, "<": OpULt, "<=": OpULe, ">": OpUGt, ">=": OpUGe}[op], 0, 0, pos)
			return tInt
		}
		c.errorf(pos, "C0302", "invalid operands to binary %s (%s and %s)", op, tx, ty)
		c.emit(OpPop, 0, 0, pos)
		return tInt
	}
	if !tx.isArith() || !ty.isArith() {
		c.errorf(pos, "C0302", "invalid operands to binary %s (%s and %s)", op, tx, ty)
		c.emit(OpPop, 0, 0, pos)
		return tInt
	}
	var ct *Type
	if op == "<<" || op == ">>" {
		ct = promote(tx)
		c.convert(ty, promote(ty), pos)
		c.emit(OpSwap, 0, 0, pos)
		c.convert(tx, ct, pos)
		c.emit(OpSwap, 0, 0, pos)
		if ct.isFloat() || ty.isFloat() {
			c.errorf(pos, "C0302", "shift of a floating-point value")
			return ct
		}
		if op == "<<" {
			c.emit(OpShl, 0, 0, pos)
		} else if ct.isSigned() {
			c.emit(OpSar, 0, 0, pos)
		} else {
			c.emit(OpShr, 0, 0, pos)
		}
		c.normalize(ct, pos)
		return ct
	}
	ct = arithType(tx, ty)
	c.convert(ty, ct, pos)
	if needsConvert(tx, ct) {
		c.emit(OpSwap, 0, 0, pos)
		c.convert(tx, ct, pos)
		c.emit(OpSwap, 0, 0, pos)
	}
	if ct.isFloat() {
		f32 := ct.Kind == Float
		var o Op
		switch op {
		case "+":
			o = OpFAdd
		case "-":
			o = OpFSub
		case "*":
			o = OpFMul
		case "/":
			o = OpFDiv
		case "==", "!=", "<", "<=", ">", ">=":
			c.emit(map[string]Op{"==": OpFEq, "!=": OpFNe, "<": OpFLt, "<=": OpFLe, ">": OpFGt, ">=": OpFGe}[op], 0, 0, pos)
			return tInt
		default:
			c.errorf(pos, "C0302", "invalid operands to binary %s (%s and %s)", op, tx, ty)
			c.emit(OpPop, 0, 0, pos)
			return ct
		}
		if f32 {
			o += OpF32Add - OpFAdd
		}
		c.emit(o, 0, 0, pos)
		if ct.isHalf() {
			c.roundTo(ct, pos)
		}
		return ct
	}
	signed := ct.isSigned()
	switch op {
	case "+", "-", "*":
		c.emit(intArithOp(op, ct), int32(ct.size*8), 0, pos)
	case "/":
		if signed {
			c.emit(OpSDiv, int32(ct.size*8), 0, pos) // A: the width, for C0611 (overflow.go)
		} else {
			c.emit(OpUDiv, 0, 0, pos)
		}
	case "%":
		if signed {
			c.emit(OpSRem, int32(ct.size*8), 0, pos)
		} else {
			c.emit(OpURem, 0, 0, pos)
		}
	case "&":
		c.emit(OpAnd, 0, 0, pos)
	case "|":
		c.emit(OpOr, 0, 0, pos)
	case "^":
		c.emit(OpXor, 0, 0, pos)
	case "==":
		c.emit(OpEq, 0, 0, pos)
		return tInt
	case "!=":
		c.emit(OpNe, 0, 0, pos)
		return tInt
	case "<", "<=", ">", ">=":
		if signed {
			c.emit(map[string]Op{"<": OpSLt, "<=": OpSLe, ">": OpSGt, ">=": OpSGe}[op], 0, 0, pos)
		} else {
			c.emit(map[string]Op{"<": OpULt, "<=": OpULe, ">": OpUGt, ">=": OpUGe}[op], 0, 0, pos)
		}
		return tInt
	default:
		c.errorf(pos, "C0309", "unsupported operator %s", op)
		c.emit(OpPop, 0, 0, pos)
		return ct
	}
	c.normalize(ct, pos)
	return ct
}

func needsConvert(from, to *Type) bool {
	if from == to {
		return false
	}
	if from.isInt() && to.isInt() {
		return to.size < 8 && (to.size < from.size || to.isSigned() != from.isSigned() || from.Kind == Bool)
	}
	return !(from.isFloat() && to.isFloat() && exactFloat(from, to))
}

// exactFloat reports whether every value of floating type from is a value
// of to (a widening: half and bfloat16 to float or double, float to double).
func exactFloat(from, to *Type) bool {
	switch to.Kind {
	case Double:
		return true
	case Float:
		return from.isHalf()
	}
	return from == to
}

// roundTo rounds the double on the stack to floating type t.
func (c *compiler) roundTo(t *Type, pos diag.Pos) {
	switch t.Kind {
	case Float:
		c.emit(OpF2F32, 0, 0, pos)
	case Half:
		c.emit(OpRoundH, 0, 0, pos)
	case BF16:
		c.emit(OpRoundH, 1, 0, pos)
	}
}

func isCompare(op string) bool {
	switch op {
	case "==", "!=", "<", "<=", ">", ">=":
		return true
	}
	return false
}

// startPos is where an access expression begins (a[i].f begins at a), the
// position memory diagnostics point at.
func startPos(e syntax.Expr) diag.Pos {
	for {
		switch x := e.(type) {
		case *syntax.Index:
			e = x.X
			continue
		case *syntax.Member:
			e = x.X
			continue
		}
		return syntax.PosOf(e)
	}
}

func (c *compiler) assign(e *syntax.Binary) *Type {
	pos := startPos(e.X)
	c.constAssign(e.X) // lambda.go
	if u, ok := e.X.(*syntax.Unary); ok && u.Op == "*" {
		pos = u.Pos
	}
	if xt := c.typeOf(e.X, false); xt.Kind == Struct && xt.std != 0 {
		return c.stdAssign(e, xt)
	}
	if il, ok := e.Y.(*syntax.InitList); ok {
		return c.assignList(e, il) // constq.go
	}
	if c.hasOps && e.Op == "=" {
		// a user-declared assignment operator (C++ [class.copy.assign])
		if xt := c.typeOf(e.X, false); xt.Kind == Struct && xt.Name != "" && c.funcs[tagOf(xt)+"::operator="] != nil {
			if t, ok := c.operatorCall("=", e.Pos, e.X, e.Y); ok {
				return t
			}
		}
	}
	lv := c.lvalue(e.X)
	if lv.t.Kind == Array {
		c.errorf(pos, "C0303", "array is not assignable")
	}
	if e.Op == "=" {
		if lv.t.Kind == Struct {
			var vt *Type
			if c.freshObject(e.Y) && lv.t.std == 0 && lv.t.cg == 0 && c.dtorOf(lv.t) != nil && c.typeOf(e.Y, false) == lv.t {
				// a = make(6): the implicit assignment's source is a
				// temporary, destroyed at the end of the full-expression
				// (C++ [class.copy.assign], [class.temporary]p4; temps.go)
				c.refArg(e.Y, lv.t)
				vt = lv.t
			} else {
				vt = c.expr(e.Y)
			}
			if vt != lv.t && !(vt.Kind == Struct && vt.Name == lv.t.Name) && !cgAssignable(lv.t, vt) {
				c.errorf(pos, "C0302", "cannot assign %s to %s", vt, lv.t)
			}
			if vbOf(lv.t) != nil || lv.t.poly {
				c.vbCopy(lv.t, false, pos) // the destination keeps its slots and vptrs (vbase.go)
				return lv.t
			}
			if ops := c.memberAssigns(lv.t); ops != nil {
				c.assignMembers(lv.t, ops, pos) // members' operator= (implcopy.go)
				return lv.t
			}
			c.copyValue(lv.t, pos)
			return lv.t
		}
		vt := c.expr(e.Y)
		c.checkIterConv(vt, lv.t, c.fn.Name, exprStart(e.Y)) // iter.go
		c.convert(vt, lv.t, pos)
		c.storeLV(lv, pos)
		return lv.t
	}
	op := compoundOps[e.Op]
	if lv.slot >= 0 {
		c.emit(OpLocal, int32(lv.slot), 0, pos)
	} else {
		c.emit(OpDup, 0, 0, pos)
		c.emit(lv.loadOp(), int32(memCode(lv.t)), 0, pos)
	}
	vt := c.expr(e.Y)
	rt := c.arith(op, lv.t, vt, pos)
	c.convert(rt, lv.t, pos)
	c.storeLV(lv, pos)
	return lv.t
}

func (c *compiler) storeLV(lv lval, pos diag.Pos) {
	if lv.slot >= 0 {
		c.emit(OpSetLocal, int32(lv.slot), 0, pos)
	} else {
		c.emit(lv.storeOp(), int32(memCode(lv.t)), 0, pos)
	}
}

func (c *compiler) condExpr(e *syntax.Cond) *Type {
	tx := c.typeOf(e.X, true)
	ty := c.typeOf(e.Y, true)
	var rt *Type
	switch {
	case tx.isArith() && ty.isArith():
		rt = arithType(tx, ty)
	case tx.Kind == Ptr:
		rt = tx
	case ty.Kind == Ptr:
		rt = ty
	default:
		rt = tx
	}
	mixed := c.mixedClassCond(e) // temps.go
	arm := func(x syntax.Expr) *Type {
		if mixed && !c.freshObject(x) {
			// c ? x : make(2): the lvalue arm is copied into the
			// prvalue result ([expr.cond]p7.1)
			if !c.byCopyCtor(rt, x, syntax.PosOf(x)) {
				c.emit(OpTemp, 0, int64(rt.size), e.Pos)
				c.expr(x)
				c.emit(OpMemcpy, 0, int64(rt.size), e.Pos)
			}
			return rt
		}
		return c.expr(x)
	}
	c.cond(e.C)
	jz := c.emit(OpJz, 0, 0, e.Pos)
	t := arm(e.X)
	c.convert(t, rt, e.Pos)
	j := c.emit(OpJmp, 0, 0, e.Pos)
	c.patch(jz)
	t = arm(e.Y)
	c.convert(t, rt, e.Pos)
	c.patch(j)
	return rt
}

func (c *compiler) cast(e *syntax.Cast) *Type {
	if e.Dynamic {
		return c.dynamicCast(e) // mi.go
	}
	t := c.resolve(e.Type)
	pos := e.Pos
	if t.Kind == Struct && t.std == stdAtomicRef {
		c.emit(OpTemp, 0, int64(t.size), pos)
		x := e.X
		if x == nil && len(e.Args) == 1 {
			x = e.Args[0]
		}
		if x == nil {
			c.errorf(pos, "C0304", "cuda::atomic_ref takes one object")
			return t
		}
		c.atomicRefInit(t, x, pos)
		return t
	}
	if t.Kind == Struct && t.std != 0 {
		c.emit(OpTemp, 0, int64(t.size), pos)
		switch {
		case e.X != nil && isInitList(e.X):
			c.stdInitFrom(t, e.X)
		case e.X != nil:
			c.stdConstruct(t, []syntax.Expr{e.X}, pos)
		default:
			c.stdConstruct(t, e.Args, pos)
		}
		return t
	}
	if c.ctorOf(t, -1) != nil {
		var braced []syntax.Expr
		if il, ok := e.X.(*syntax.InitList); ok && c.ctorOf(t, len(il.Elems)) != nil {
			// T{args} of a class with constructors: list-initialization
			// calls the constructor (C++ [dcl.init.list]p3)
			braced = []syntax.Expr{}
			for _, el := range il.Elems {
				if el.Field != "" || el.Index != nil {
					braced = nil
					break
				}
				braced = append(braced, el.X)
			}
		}
		if _, il := e.X.(*syntax.InitList); !il || braced != nil {
			args := e.Args
			if braced != nil {
				args = braced
			} else if e.X != nil {
				args = []syntax.Expr{e.X}
			}
			c.emit(OpTemp, 0, int64(t.size), pos)
			c.emit(OpMemzero, 0, int64(t.size), pos)
			c.stampVptr(t, pos)
			if ctor := c.ctorForArgs(t, args, pos); ctor != nil {
				c.emit(OpDup, 0, 0, pos)
				c.construct(ctor, args, pos)
			}
			return t
		}
	}
	if e.X == nil && t.vec != nil && len(e.Args) > 0 {
		return c.makeVector(t, e.Args, pos)
	}
	if e.X == nil {
		// functional notation: dim3(a, b, c), T()
		if isDim3(t) || t.Kind == Struct {
			c.emit(OpTemp, 0, int64(t.size), pos)
			if isDim3(t) {
				c.initDim3(e.Args, pos)
			} else {
				c.emit(OpMemzero, 0, int64(t.size), pos)
				c.memberDefaults(t, nil, pos)
				c.stampVptr(t, pos)
			}
			return t
		}
		if len(e.Args) == 0 {
			c.emit(OpConst, 0, 0, pos)
			return t
		}
		at := c.expr(e.Args[0])
		c.convert(at, t, pos)
		return t
	}
	if il, ok := e.X.(*syntax.InitList); ok {
		if t.isScalar() {
			// T{x} or T{}: value initialization of a scalar
			if len(il.Elems) == 0 {
				c.emit(OpConst, 0, 0, pos)
				if t.isFloat() {
					c.emit(OpConst, 0, 0, pos)
					c.emit(OpPop, 0, 0, pos)
				}
				return t
			}
			vt := c.expr(il.Elems[0].X)
			c.convert(vt, t, pos)
			return t
		}
		if t.Kind == Struct || t.Kind == Array {
			t = c.completeArray(t, il)
			c.emit(OpTemp, 0, int64(t.size), pos)
			c.initFrom(t, il)
			if t.Kind == Array {
				return ptrTo(t.Elem)
			}
			c.stampVptr(t, pos)
			return t
		}
	}
	vt := c.expr(e.X)
	if t.Kind == Void {
		c.emit(OpPop, 0, 0, pos)
		c.emit(OpConst, 0, 0, pos)
		return tVoid
	}
	if t.Kind == Struct {
		if vt != t {
			c.errorf(pos, "C0302", "cannot cast %s to %s", vt, t)
		}
		return t
	}
	if t.Kind == Bool {
		vt = c.streamTruth(vt, pos) // (bool)is: explicit operator bool (lib_sstream.go)
	}
	c.convert(vt, t, pos)
	return t
}

// ---- calls ----

func (c *compiler) call(e *syntax.Call) *Type {
	pos := e.Pos
	raw := c.rawRef
	c.rawRef = false
	if m, ok := e.Fun.(*syntax.Member); ok && e.Launch == nil {
		c.rawRef = raw
		return c.memberCall(m, e)
	}
	if sn, ok := e.Fun.(*syntax.ScopedName); ok {
		// Name<A>::f(args): a static member function of the instance
		ne := *e
		ne.Fun = c.scopedName(sn)
		c.rawRef = raw
		return c.call(&ne)
	}
	n, ok := e.Fun.(*syntax.Name)
	if ok && c.cls != "" && c.lookup(n.Name) == nil && c.funcs[n.Name] == nil && c.recv != nil {
		if td := c.memberTemplate(c.recv, n.Name); td != nil && c.methodOf(c.recv, c.cls, n.Name) == nil {
			// a member function template called from a member
			if fn := c.instantiate(c.templateByArity(td, e), e); fn != nil {
				c.rawRef = raw
				return c.methodCall(fn, &syntax.Name{Pos: n.Pos, Name: "this"}, true, e)
			}
			c.emit(OpConst, 0, 0, pos)
			return tInt
		}
	}
	if ok && c.cls != "" && c.lookup(n.Name) == nil && c.funcs[n.Name] == nil {
		if ct := c.lookupTag(c.cls); c.recv != nil && isVirtual(ct, n.Name) {
			c.rawRef = raw
			return c.virtualCall(ct, n.Name, &syntax.Name{Pos: n.Pos, Name: "this"}, true, e)
		}
		if fn := c.methodOf(c.lookupTag(c.cls), c.cls, n.Name); fn != nil {
			if fn.decl != nil && len(c.overloads[fn.decl.Name]) > 1 {
				if p := c.pickOverload(c.constViable(c.overloads[fn.decl.Name], &syntax.Name{Pos: n.Pos, Name: "this"}, true), e); p != nil { // constq.go
					fn = p
				}
			}
			if c.recv == nil && (fn.decl == nil || !fn.decl.Q.Static) {
				c.errorf(e.Pos, "C0305", "calling member function %s without an object (from a static member function)", fn.Name)
			}
			c.rawRef = raw
			return c.methodCall(fn, &syntax.Name{Pos: n.Pos, Name: "this"}, true, e)
		}
	}
	if ok && c.recv != nil && strings.Contains(n.Name, "::") && c.lookup(n.Name) == nil {
		// Base::f(args) in a member function: f of the base on this
		// object, without virtual dispatch (C++ [class.virtual]p16)
		if fn := c.funcs[n.Name]; fn != nil && fn.decl != nil && fn.decl.Recv != "" && !fn.decl.Q.Static {
			c.rawRef = raw
			return c.methodCall(fn, &syntax.Name{Pos: n.Pos, Name: "this"}, true, e)
		}
	}
	if !ok && e.Launch != nil {
		return c.indirectLaunch(e)
	}
	if !ok {
		if lam, isLam := e.Fun.(*syntax.Lambda); isLam {
			c.checkLambda(lam)
			return c.inlineLambda(lam, e)
		}
		return c.indirectCall(e)
	}
	var fn *Function
	if s := c.lookup(n.Name); s != nil {
		if s.kind == symLambda {
			return c.inlineLambda(s.lam, e)
		}
		if s.t != nil && s.t.Kind == Struct && c.callable(s.t) {
			// a function object: x(args) is x.operator()(args)
			c.rawRef = raw
			return c.memberCall(&syntax.Member{Pos: n.Pos, X: n, Name: "operator()"}, e)
		}
		if e.Launch != nil {
			return c.indirectLaunch(e)
		}
		return c.indirectCall(e)
	}
	if td := c.templates[n.Name]; td != nil && !(c.funcs[n.Name] != nil && len(e.TypeArgs) == 0 && len(e.TArgExpr) == 0 && c.nonTemplateFits(n.Name, len(e.Args))) {
		// (a function and a function template of one name: a call
		// without template arguments is the function's, C++
		// [over.match.best] preferring the non-template)
		fn = c.instantiate(c.templateByArity(td, e), e)
		if fn == nil {
			c.emit(OpConst, 0, 0, pos)
			return tInt
		}
	} else {
		fn = c.funcs[n.Name]
		if fn != nil && c.shadowsBuiltin(n.Name) && !c.takesArgs(fn, c.overloads[n.Name], e) {
			// A helper header (NVIDIA's helper_math.h) overloads
			// make_int2 and the like beside the built-in ones: the
			// built-in is one more candidate ([over.match]), so a call
			// none of the program's overloads can take is its.
			return c.builtinCall(n.Name, e)
		}
		if ovs := c.overloads[n.Name]; len(ovs) > 1 {
			fn = c.pickOverload(ovs, e)
		}
	}
	if fn == nil {
		if d := c.protos[n.Name]; d != nil && builtinSigs[n.Name] == nil && !genericBuiltins[n.Name] {
			if c.isKernelOnly() && e.Launch == nil {
				return c.nondetCall(d, e) // annot.go
			}
			c.errorf(pos, "C0301", "function %s is declared but never defined", n.Name)
			c.emit(OpConst, 0, 0, pos)
			return tInt
		}
		if syntax.TextureFuncs[n.Name] && !c.texModelled(n.Name, e) {
			c.errorf(pos, "C0309", "%s is not modeled (texture and surface objects are, with tex1Dfetch, tex1D, tex2D, tex3D, tex1DLayered, tex2DLayered, texCubemap and surf1D/2D/3Dread/write: lib_texobj.go)", n.Name)
			c.emit(OpConst, 0, 0, pos)
			return tInt
		}
		if e.Launch != nil {
			c.errorf(pos, "C0301", "undeclared kernel %s", n.Name)
			c.emit(OpConst, 0, 0, pos)
			return tInt
		}
		return c.builtinCall(n.Name, e)
	}
	if e.Launch != nil {
		return c.launch(fn, e)
	}
	if fn.Global {
		c.errorf(pos, "C0308", "a __global__ function %s is called without <<<...>>>", fn.Name)
	}
	switch {
	case c.deviceOnly() && !fn.Device:
		c.errorf(pos, "C0307", "calling host function %s from device code", fn.Name)
	case c.hostOnly() && !fn.Host:
		c.errorf(pos, "C0307", "calling __device__ function %s from host code", fn.Name)
	}
	nargs := c.args(fn, e)
	c.emit(OpCall, int32(c.funcIndex(fn)), int64(nargs), pos)
	return c.result(fn.Type.Elem, raw, pos)
}

func (c *compiler) funcIndex(fn *Function) int {
	if !fn.compiled && fn.decl != nil && fn.decl.Body != nil && !c.wanted[fn] {
		// a function of a header is compiled once something uses it
		c.wanted[fn] = true
		c.queue = append(c.queue, fn)
	}
	for i, f := range c.prog.Funcs {
		if f == fn {
			return i
		}
	}
	return 0
}

// fromHeader reports whether fd is defined in an included header (a .h,
// .hpp, .cuh or .hxx file). Like a template, such a function is compiled
// only if the program uses it (C++ [basic.def.odr]: an inline function is
// defined where it is odr-used), so the parts of a helper header that
// need what is not modeled cost nothing until called (issue 15 item 2).
func fromHeader(fd *syntax.FuncDecl) bool {
	if fd == nil || fd.Pos.File == nil {
		return false
	}
	if syntax.IsBuiltinHeader(fd.Pos.File.Name) {
		return true // a built-in header's text (syntax/headers.go)
	}
	switch strings.ToLower(filepath.Ext(fd.Pos.File.Name)) {
	case ".h", ".hpp", ".cuh", ".hxx", ".hh":
		return true
	}
	return false
}

// args pushes the call arguments converted to the parameter types; a struct
// argument is copied (passed by value).
func (c *compiler) args(fn *Function, e *syntax.Call) int {
	ft := fn.Type
	if d := c.defaultsOf(fn); len(e.Args) < len(ft.Params) && d != nil {
		// default arguments fill the missing trailing ones
		args := append([]syntax.Expr(nil), e.Args...)
		for i := len(args); i < len(ft.Params) && i < len(d) && d[i] != nil; i++ {
			args = append(args, d[i])
		}
		ec := *e
		ec.Args = args
		e = &ec
	}
	if len(e.Args) != len(ft.Params) && !(ft.Variadic && len(e.Args) >= len(ft.Params)) {
		c.errorf(e.Pos, "C0304", "%s takes %d arguments, %d given", fn.Name, len(ft.Params), len(e.Args))
	}
	va := (fn.decl != nil || fn.viaPtr) && ft.Variadic && len(e.Args) >= len(ft.Params)
	for i, a := range e.Args {
		if va && i == len(ft.Params) {
			break // through "...": packed below (lib_stdarg.go)
		}
		if i < len(ft.Params) && ft.Params[i].Ref {
			c.refArg(a, ft.Params[i].Elem)
			continue
		}
		if i < len(ft.Params) && ft.Params[i].Kind == Struct && ft.Params[i].std != 0 {
			// a std object by value, initialized from the argument
			c.emit(OpTemp, 0, int64(ft.Params[i].size), e.Pos)
			c.stdInitFrom(ft.Params[i], a)
			continue
		}
		if il, ok := a.(*syntax.InitList); ok && i < len(ft.Params) && ft.Params[i].Kind == Struct {
			// f({...}): the parameter copy-list-initialized (braces.go)
			c.emit(OpTemp, 0, int64(ft.Params[i].size), e.Pos)
			c.initFrom(ft.Params[i], il)
			continue
		}
		if i < len(ft.Params) && !fn.Global && c.byCopyCtor(ft.Params[i], a, e.Pos) { // rvalue.go
			continue
		}
		at := c.expr(a)
		if i < len(ft.Params) {
			pt := ft.Params[i]
			if pt.Kind == Struct {
				c.emit(OpTemp, 0, int64(pt.size), e.Pos)
				c.emit(OpSwap, 0, 0, e.Pos)
				c.copyValue(pt, e.Pos)
				continue
			}
			c.checkIterConv(at, pt, fn.Name, exprStart(a)) // iter.go
			c.convert(at, pt, syntax.PosOf(a))
		}
	}
	if va {
		c.varargs(e.Args[len(ft.Params):], e.Pos)
		return len(ft.Params) + 1
	}
	return len(e.Args)
}

func (c *compiler) launch(fn *Function, e *syntax.Call) *Type {
	pos := e.Pos
	if !fn.Global {
		c.errorf(pos, "C0308", "%s is not a __global__ function and cannot be launched", fn.Name)
	}
	for i := 0; i < 2; i++ {
		if i >= len(e.Launch) {
			for k := 0; k < 3; k++ {
				c.emit(OpConst, 0, 1, pos)
			}
			continue
		}
		t := c.expr(e.Launch[i])
		switch {
		case t.Kind == Struct && (t == tDim3 || t == tUint3):
			for k := 0; k < 3; k++ {
				if k < 2 {
					c.emit(OpDup, 0, 0, pos)
				}
				c.emit(OpConst, 0, int64(4*k), pos)
				c.emit(OpPtrAdd, 1, 0, pos)
				c.emit(OpLoad, mU32, 0, pos)
				if k < 2 {
					c.emit(OpSwap, 0, 0, pos)
				}
			}
		case t.isInt() || t.isFloat():
			// dim3(unsigned x): a floating extent converts implicitly
			c.convert(t, tUInt, pos)
			c.emit(OpConst, 0, 1, pos)
			c.emit(OpConst, 0, 1, pos)
		default:
			c.errorf(syntax.PosOf(e.Launch[i]), "C0308", "launch configuration of type %s", t)
			c.emit(OpConst, 0, 1, pos)
			c.emit(OpConst, 0, 1, pos)
		}
	}
	for i := 2; i < 4; i++ {
		if i < len(e.Launch) {
			t := c.expr(e.Launch[i])
			c.convert(t, tULong, pos)
		} else {
			c.emit(OpConst, 0, 0, pos)
		}
	}
	n := c.args(fn, e)
	c.emit(OpLaunch, int32(c.funcIndex(fn)), int64(n), pos)
	return tVoid
}

// instantiate creates (once) the instance of a template function for the
// template arguments given or deduced from the call.
func (c *compiler) instantiate(td *syntax.FuncDecl, e *syntax.Call) *Function {
	outer, hasOuter := c.outerTmpl[td] // a member template of a class template instance
	if td.TPack != "" {
		if td = c.variadicInstance(td, e); td == nil { // variadic.go
			return nil
		}
	}
	tmap := map[string]*Type{}
	tvals := map[string]int64{}
	if hasOuter {
		for k, v := range outer.tmap {
			tmap[k] = v
		}
		for k, v := range outer.tvals {
			tvals[k] = v
		}
	}
	for i, name := range td.TParams {
		if i < len(e.TypeArgs) && e.TypeArgs[i] != nil {
			tmap[name] = c.resolve(e.TypeArgs[i])
		} else if i < len(e.TArgExpr) && e.TArgExpr[i] != nil {
			v, ok := c.constExpr(e.TArgExpr[i])
			if !ok {
				c.errorf(e.Pos, "C0313", "template argument %s is not a constant", name)
			}
			tvals[name] = v
		}
	}
	// deduce the rest from parameters written T or T*
	for i, p := range td.Type.Params {
		if i >= len(e.Args) {
			break
		}
		te := p.Type
		if te.Kind == syntax.TRef {
			te = te.Elem
		}
		depth := 0
		for te.Kind == syntax.TPointer {
			te = te.Elem
			depth++
		}
		if te.Kind != syntax.TNamed || len(te.TArgs) > 0 {
			// Vec<T, N>, T (&)[N], ...: matched against the argument's type
			c.deduceParam(td, p.Type, c.typeOf(e.Args[i], false), tmap, tvals)
			continue
		}
		if _, isParam := indexOf(td.TParams, te.Name); !isParam || tmap[te.Name] != nil {
			continue
		}
		at := c.typeOf(e.Args[i], true)
		for k := 0; k < depth && at.Kind == Ptr; k++ {
			at = at.Elem
		}
		tmap[te.Name] = at
	}
	fwdLv := c.forwardingLvalues(td, e, tmap) // rvalue.go
	// default template arguments for what is neither given nor deduced
	for i, name := range td.TParams {
		if _, ok := tmap[name]; ok {
			continue
		}
		if _, ok := tvals[name]; ok {
			continue
		}
		saveT, saveV := c.tmap, c.tvals
		c.tmap, c.tvals = tmap, tvals
		if i < len(td.DefaultTypes) && td.DefaultTypes[i] != nil {
			tmap[name] = c.resolve(td.DefaultTypes[i])
		} else if i < len(td.DefaultExprs) && td.DefaultExprs[i] != nil {
			if v, ok := c.constExpr(td.DefaultExprs[i]); ok {
				tvals[name] = v
			}
		}
		c.tmap, c.tvals = saveT, saveV
	}
	var key strings.Builder
	key.WriteString(td.Name)
	if len(c.tmplOvs[td.Name]) > 1 {
		fmt.Fprintf(&key, "@%p", td) // one of several templates of the name (rvalue.go)
	}
	for i, name := range td.TParams {
		if td.TValue != nil && i < len(td.TValue) && td.TValue[i] {
			v, ok := tvals[name]
			if !ok {
				c.errorf(e.Pos, "C0313", "cannot deduce template argument %s of %s", name, td.Name)
				return nil
			}
			fmt.Fprintf(&key, ",%d", v)
			continue
		}
		t := tmap[name]
		if t == nil {
			if v, ok := tvals[name]; ok {
				fmt.Fprintf(&key, ",%d", v)
				continue
			}
			c.errorf(e.Pos, "C0313", "cannot deduce template argument %s of %s", name, td.Name)
			return nil
		}
		key.WriteString("," + typeKey(t))
		if fwdLv[name] {
			key.WriteString("&") // T deduced from an lvalue: another instance
		}
	}
	if fn := c.insts[key.String()]; fn != nil {
		return fn
	}
	if sp := c.specFor(td, tmap, tvals); sp != nil {
		fn := &Function{Name: td.Name, decl: sp, defined: true}
		c.setSpaces(fn, sp.Q)
		fn.Type = c.resolveFunc(sp) // autoret.go
		fn.PosIdx = c.pos(sp.Pos)
		c.insts[key.String()] = fn
		c.prog.Funcs = append(c.prog.Funcs, fn)
		if fn.Global {
			c.prog.Kernels = append(c.prog.Kernels, fn)
		}
		c.queue = append(c.queue, fn)
		return fn
	}
	fn := c.boundFunc(td.Name, td, tmap, tvals)
	c.bindForwarding(fn, td, fwdLv) // rvalue.go
	c.insts[key.String()] = fn
	c.setLibAt(fn, td, e.Pos) // lib_algorithm.go
	c.prog.Funcs = append(c.prog.Funcs, fn)
	if fn.Global {
		c.prog.Kernels = append(c.prog.Kernels, fn)
	}
	if c.dry == 0 {
		c.queue = append(c.queue, fn)
	} else {
		// compiled when a real (non-dry) use comes, or now if none does
		c.queue = append(c.queue, fn)
	}
	return fn
}

func indexOf(xs []string, s string) (int, bool) {
	for i, x := range xs {
		if x == s {
			return i, true
		}
	}
	return -1, false
}

// sortedKeys is used for deterministic iteration in diagnostics.
func sortedKeys[M ~map[string]V, V any](m M) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// vecHasCtor reports whether the vector type t has constructors:
// __half2 and __nv_bfloat162 do (cuda_fp16.h, cuda_bf16.h), the
// aggregates of vector_types.h do not.
func vecHasCtor(t *Type) bool {
	return t == vectorTypes["__half2"] || t == vectorTypes["__nv_bfloat162"]
}

// shadowsBuiltin reports whether the program's functions named name are
// overloads of a built-in function (vector_functions.h's make_<vector>,
// the math library, a runtime function).
func (c *compiler) shadowsBuiltin(name string) bool {
	return strings.HasPrefix(name, "make_") && vectorTypes[name[5:]] != nil || builtinSigs[name] != nil || genericBuiltins[name]
}

// takesArgs reports whether fn or one of its overloads ovs can take the
// arguments of call e: as many (default arguments and varargs counted)
// and, when every argument is arithmetic (fminf(3.0f, x) beside
// helper_math.h's fminf(float2, float2)), parameters that are arithmetic
// too; otherwise the built-in is the better candidate.
func (c *compiler) takesArgs(fn *Function, ovs []*Function, e *syntax.Call) bool {
	if len(ovs) == 0 {
		ovs = []*Function{fn}
	}
	n := len(e.Args)
	scalarArgs := true
	for _, a := range e.Args {
		if t := c.typeOf(a, true); t == nil || !t.isScalar() {
			scalarArgs = false
		}
	}
	for _, f := range ovs {
		if f.Type == nil {
			return true // not yet typed: let the ordinary path decide
		}
		np := len(f.Type.Params)
		min := np
		for i, d := range c.defaultsOf(f) {
			if d != nil && i < min {
				min = i
			}
		}
		if !(n >= min && n <= np || f.Type.Variadic && n >= np) {
			continue
		}
		if !scalarArgs {
			return true
		}
		scalarParams := true
		for _, p := range f.Type.Params {
			if q := p; q.Ref && q.Elem != nil {
				p = q.Elem
			}
			if !p.isScalar() {
				scalarParams = false
			}
		}
		if scalarParams {
			return true
		}
	}
	return false
}
