package syntax

import "weft.dev/weft/diag"

// File is a parsed translation unit.
type File struct {
	Decls []*Decl
	// Funcs are the function definitions in source order.
	Funcs []*FuncDecl
	// Templates are the template function definitions, instantiated by sem.
	Templates []*FuncDecl
	// Specs are explicit specializations of function templates (SpecArgs).
	Specs []*FuncDecl
	// ClassTemplates are the class templates and their partial and
	// explicit specializations, instantiated by sem.
	ClassTemplates []*ClassTemplate
	// UsingStd records a using namespace std; directive: sem then finds
	// the modeled std functions that keep their qualifier (IterFuncs)
	// under their unqualified names too, where the program declares no
	// function or variable of the name (C++ [namespace.udir]).
	UsingStd bool
}

// ClassTemplate is template <TParams> struct Name [<Args>] { ... }: the
// primary template (Struct.TArgs nil), a partial specialization (TParams
// and Struct.TArgs), or an explicit one (no TParams). Funcs are its member
// functions and Decls its other members declared out of the struct
// (static data members, prototypes), named Name::member as for a struct.
type ClassTemplate struct {
	Pos     diag.Pos
	Name    string
	TParams []string
	TValue  []bool
	// DefaultTypes and DefaultExprs are the parameters' default
	// arguments (nil entries: none).
	DefaultTypes []*TypeExpr
	DefaultExprs []Expr
	Struct       *TypeExpr // nil: only declared
	Funcs        []*FuncDecl
	Decls        []*Decl
	// MemberTmpls are the member function templates defined in the class
	// (C++ [temp.mem]), named Name::f, instantiated per instance of the
	// class and then per call.
	MemberTmpls []*FuncDecl
}

// Qualifiers are the CUDA execution-space and memory-space attributes of a
// declaration.
type Qualifiers struct {
	Global, Device, Host, Shared, Constant, Managed  bool
	Extern, Static, Typedef, Inline, Const, Volatile bool
	// Constexpr marks a C++ constexpr declaration (also Const).
	Constexpr bool
	// Mutable marks a mutable data member: writable through a const
	// object (C++ [dcl.stc]).
	Mutable bool
	// Virtual marks a virtual member function (also written override or
	// final, C++ [class.virtual]).
	Virtual bool
	// Align is the operand of alignas(...): an expression, or nil.
	Align Expr
	// AlignType is the operand of alignas(type).
	AlignType *TypeExpr
	// ClusterDims are the extents of __cluster_dims__(x{, y{, z}}) (nil:
	// none).
	ClusterDims []Expr
}

// TypeKind classifies a TypeExpr.
type TypeKind uint8

const (
	TNamed   TypeKind = iota // Name: a base type ("int", "unsigned long", "float", "dim3", a typedef)
	TPointer                 // Elem*
	TArray                   // Elem[Len] (Len nil: unsized)
	TFunc                    // Elem(Params)
	TStruct                  // struct/union Name { Fields }
	TEnum                    // enum Name { Enumerators }
	TRef                     // Elem& (a C++ lvalue reference)
)

// TypeExpr is a type as written.
type TypeExpr struct {
	Kind     TypeKind
	Pos      diag.Pos
	Name     string // TNamed: canonical base name; TStruct/TEnum: tag ("" if anonymous)
	Elem     *TypeExpr
	Len      Expr     // TArray
	Params   []*Param // TFunc
	Variadic bool     // TFunc
	Union    bool     // TStruct
	Fields   []*Field // TStruct (nil: declared elsewhere)
	HasBody  bool     // TStruct/TEnum: a definition, not a reference
	Enums    []*Enumerator
	Const    bool
	// ConstThis marks a const member function (TFunc): "int get() const"
	ConstThis bool
	// Iter marks the TPointer that std::vector<T>::iterator and
	// const_iterator stand for: sem gives iterators a type of their own,
	// which does not convert to T* (as nvcc's library types do not)
	Iter bool
	// Pack marks a function parameter pack's type, Args... (sem expands
	// it per call: variadic.go).
	Pack bool
	// RValue marks a TRef written && (C++ [dcl.ref]): an rvalue
	// reference, which overload resolution binds to rvalues only
	// (sem/rvalue.go); sem otherwise treats it as a reference.
	RValue bool
	// Volatile marks a volatile-qualified type (its accesses are the PTX
	// memory model's relaxed strong operations: sem/fence.go).
	Volatile bool
	// TArg and TArgType are the template argument of a built-in class
	// template (cooperative_groups::thread_block_tile<32>, plus<int>).
	TArg     Expr
	TArgType *TypeExpr
	// TemplateArgs of a TNamed referring to a template parameter are nil;
	// sem substitutes template parameters by name.
	// Align is the alignas(N) of a struct definition (nil: natural).
	Align Expr
	// NoExcept marks a function type declared noexcept or throw().
	NoExcept bool
	// Base is the first base class of a struct definition; Bases all of
	// them in order (multiple inheritance), VirtualBase those declared
	// virtual (sem reports them).
	Base        string
	Bases       []string
	VirtualBase []string
	// BaseTypes are the bases that are class template instances
	// (Box<int>), parallel to Bases (nil for a plain name).
	BaseTypes []*TypeExpr
	// TArgs and TArgExprs are the template arguments of a class template
	// instance Name<A, ...> (a type or a value each), or of the pattern
	// of a specialization struct Name<A, ...> { ... }.
	TArgs     []*TypeExpr
	TArgExprs []Expr
	// Member is the member type named after a std container's template
	// arguments: std::map<K, V>::iterator is Name std::map, TArgs K, V,
	// Member "iterator" ("" otherwise).
	Member string
	// Methods are the member functions declared in a struct definition
	// (the destructor as "~Tag"), Virtuals those declared virtual, Pure
	// those declared pure virtual (= 0).
	Methods, Virtuals, Pure []string
}

// Param is a function parameter.
type Param struct {
	Name string
	Pos  diag.Pos
	Type *TypeExpr
	// Default is the default argument (C++ [dcl.fct.default]), or nil.
	Default Expr
}

// Field is a struct member.
type Field struct {
	Name string
	Pos  diag.Pos
	Type *TypeExpr
	// Init is the default member initializer (C++11), or nil.
	Init Expr
	// Align is the operand of alignas on the member, or nil.
	Align Expr
	// Mutable marks a member declared mutable (C++ [dcl.stc]): a const
	// object's mutable members may still be written.
	Mutable bool
}

// Enumerator is one enum constant.
type Enumerator struct {
	Name  string
	Pos   diag.Pos
	Value Expr // nil: previous + 1
}

// Decl declares one name (variables, typedefs, prototypes); a declaration
// like "int a, *b;" becomes two Decls.
type Decl struct {
	Pos  diag.Pos
	Name string // "" for a bare struct/enum declaration
	Type *TypeExpr
	Q    Qualifiers
	Init Expr // nil, an expression, or an *InitList
	// CtorArgs holds the arguments of a constructor-style declaration,
	// "dim3 grid(4, 2);".
	CtorArgs []Expr
	HasCtor  bool
	// StaticAssert is the condition of static_assert(Cond, Msg) (Name is
	// then ""), checked when the enclosing function or template instance
	// is compiled.
	StaticAssert Expr
	AssertMsg    string
}

// FuncDecl is a function definition.
type FuncDecl struct {
	Pos     diag.Pos
	Name    string
	Type    *TypeExpr // TFunc
	Q       Qualifiers
	Body    *Block
	TParams []string // template parameters (typename T / int N)
	TValue  []bool   // whether each template parameter is a value (int N)
	// DefaultTypes and DefaultExprs are the template parameters' default
	// arguments (nil entries: none).
	DefaultTypes []*TypeExpr
	DefaultExprs []Expr
	// SpecArgs are the template arguments of an explicit specialization
	// template <> R f<A, ...>(...) (a type or a value each).
	SpecArgs     []*TypeExpr
	SpecArgExprs []Expr
	EndPos       diag.Pos // the closing brace
	// Recv is the struct tag of a member function ("" for a free
	// function); Name is then "Tag::name". Ctor marks a constructor, whose
	// member initializers are Inits.
	Recv  string
	Ctor  bool
	Inits []*MemberInit
	// Dtor marks a destructor (Name "Tag::~Tag").
	Dtor bool
	// Deleted marks a function declared "= delete": a call that chooses
	// it is an error (sem).
	Deleted bool
	// TPack is the name of the template's type parameter pack
	// (template <typename... Args>), "" for none; its function parameter
	// pack is the parameter whose type has Pack set (sem/variadic.go).
	TPack string
}

// MemberInit is one member initializer of a constructor, name(args).
type MemberInit struct {
	Pos  diag.Pos
	Name string
	Args []Expr
}

// Stmt is a statement.
type Stmt interface{ stmtPos() diag.Pos }

type (
	// Block is { stmts }.
	Block struct {
		Pos   diag.Pos
		Stmts []Stmt
		End   diag.Pos
	}
	// DeclStmt declares local variables.
	DeclStmt struct {
		Pos   diag.Pos
		Decls []*Decl
	}
	// ExprStmt is an expression statement.
	ExprStmt struct {
		Pos diag.Pos
		X   Expr
	}
	// IfStmt is if (Cond) Then else Else; C++17 adds if constexpr and an
	// init-statement, if (Init; Cond). A condition declaration
	// if (T x = e) is Init with Cond naming x.
	IfStmt struct {
		Pos        diag.Pos
		Cond       Expr
		Then, Else Stmt
		Constexpr  bool
		Init       Stmt
	}
	// RangeFor is for (Var : Range) Body (C++11).
	RangeFor struct {
		Pos   diag.Pos
		Var   *Decl
		Range Expr
		Body  Stmt
	}
	// ForStmt is for (Init; Cond; Post) Body (also while, with nil Init/Post).
	ForStmt struct {
		Pos  diag.Pos
		Init Stmt // nil, *DeclStmt or *ExprStmt
		Cond Expr
		Post Expr
		Body Stmt
	}
	// DoStmt is do Body while (Cond);
	DoStmt struct {
		Pos  diag.Pos
		Body Stmt
		Cond Expr
	}
	// TryStmt is try Body catch (T x) { ... } ... (C++ [except]):
	// Handlers are the catch clauses in order.
	TryStmt struct {
		Pos      diag.Pos
		Body     *Block
		Handlers []*Catch
	}
	// Catch is one handler: catch (Type Name) Body; Type is nil for
	// catch (...), Name empty for an unnamed parameter.
	Catch struct {
		Pos  diag.Pos
		Type *TypeExpr
		Name string
		Body *Block
	}
	// ReturnStmt is return X;
	ReturnStmt struct {
		Pos diag.Pos
		X   Expr
	}
	// BranchStmt is break, continue or goto Label.
	BranchStmt struct {
		Pos   diag.Pos
		Tok   string
		Label string
	}
	// LabeledStmt is Label: Stmt.
	LabeledStmt struct {
		Pos   diag.Pos
		Label string
		Stmt  Stmt
	}
	// SwitchStmt is switch (X) Body.
	SwitchStmt struct {
		Pos  diag.Pos
		X    Expr
		Body Stmt
	}
	// CaseStmt is case X: (X nil: default:).
	CaseStmt struct {
		Pos diag.Pos
		X   Expr
	}
	// EmptyStmt is ;
	EmptyStmt struct{ Pos diag.Pos }
)

func (s *Block) stmtPos() diag.Pos       { return s.Pos }
func (s *TryStmt) stmtPos() diag.Pos     { return s.Pos }
func (s *DeclStmt) stmtPos() diag.Pos    { return s.Pos }
func (s *ExprStmt) stmtPos() diag.Pos    { return s.Pos }
func (s *IfStmt) stmtPos() diag.Pos      { return s.Pos }
func (s *ForStmt) stmtPos() diag.Pos     { return s.Pos }
func (s *DoStmt) stmtPos() diag.Pos      { return s.Pos }
func (s *ReturnStmt) stmtPos() diag.Pos  { return s.Pos }
func (s *BranchStmt) stmtPos() diag.Pos  { return s.Pos }
func (s *LabeledStmt) stmtPos() diag.Pos { return s.Pos }
func (s *SwitchStmt) stmtPos() diag.Pos  { return s.Pos }
func (s *CaseStmt) stmtPos() diag.Pos    { return s.Pos }
func (s *EmptyStmt) stmtPos() diag.Pos   { return s.Pos }
func (s *RangeFor) stmtPos() diag.Pos    { return s.Pos }

// Expr is an expression.
type Expr interface{ exprPos() diag.Pos }

type (
	// Name is an identifier.
	Name struct {
		Pos  diag.Pos
		Name string
	}
	// IntLitExpr is an integer constant with its C type ("int", "unsigned", "long", ...).
	IntLitExpr struct {
		Pos   diag.Pos
		Value uint64
		Type  string
	}
	// FloatLitExpr is a floating constant; Float is true for an f suffix.
	FloatLitExpr struct {
		Pos   diag.Pos
		Value float64
		Float bool
	}
	// CharLitExpr is a character constant (type int in C).
	CharLitExpr struct {
		Pos   diag.Pos
		Value int64
	}
	// StringLitExpr is a (concatenated) string literal, unescaped.
	StringLitExpr struct {
		Pos   diag.Pos
		Value string
	}
	// Unary is Op X for - + ! ~ * & ++ -- (prefix) and X++ X-- (Post).
	Unary struct {
		Pos  diag.Pos
		Op   string
		X    Expr
		Post bool
	}
	// Binary is X Op Y, including assignment operators and the comma.
	Binary struct {
		Pos  diag.Pos // the operator
		Op   string
		X, Y Expr
	}
	// Cond is C ? X : Y.
	Cond struct {
		Pos     diag.Pos
		C, X, Y Expr
	}
	// Call is Fun(Args); a kernel launch sets Launch (<<<...>>>).
	Call struct {
		Pos      diag.Pos
		Fun      Expr
		Args     []Expr
		Launch   []Expr
		TypeArgs []*TypeExpr // f<T>(...)
		TArgExpr []Expr      // value template arguments, parallel to TypeArgs (nil where a type)
		RParen   diag.Pos
	}
	// Index is X[I].
	Index struct {
		Pos  diag.Pos
		X, I Expr
	}
	// Member is X.Name or X->Name (Arrow).
	Member struct {
		Pos   diag.Pos
		X     Expr
		Name  string
		Arrow bool
	}
	// New is C++ "new T", "new T(args)" or "new T{args}" (one object):
	// Alloc is the allocation, (T*)malloc(sizeof(T)); sem then runs the
	// constructor or stores the initializer. "new T[n]" stays a Cast.
	New struct {
		Pos     diag.Pos
		Type    *TypeExpr
		Alloc   Expr
		Args    []Expr
		HasInit bool
	}
	// ScopedName is Type::Name where Type is a class template instance,
	// Name<A, ...>::member (a static data member or member function).
	ScopedName struct {
		Pos  diag.Pos
		Type *TypeExpr
		Name string
	}
	// Throw is C++ "throw X" (X nil: rethrow, "throw;").
	Throw struct {
		Pos diag.Pos
		X   Expr
	}
	// Delete is C++ "delete X" (Array: "delete[] X"): the destructor of
	// a class with one, then Free, free(X).
	Delete struct {
		Pos   diag.Pos
		X     Expr
		Free  Expr
		Array bool
	}
	// Cast is (Type)X; a functional cast T(x, ...) of dim3 sets Args.
	Cast struct {
		Pos  diag.Pos
		Type *TypeExpr
		X    Expr
		Args []Expr
		// Dynamic marks dynamic_cast<T>(X) (checked at run time);
		// ThrowNull, sem's form of a cast to a reference: a failure
		// throws std::bad_cast
		Dynamic, ThrowNull bool
	}
	// PackExpand is X... in an argument list: X once per element of the
	// parameter pack it names (sem/variadic.go).
	PackExpand struct {
		Pos diag.Pos
		X   Expr
	}
	// SizeofPack is sizeof...(Name), the number of elements of a pack.
	SizeofPack struct {
		Pos  diag.Pos
		Name string
	}
	// SizeofExpr is sizeof X or sizeof(Type).
	SizeofExpr struct {
		Pos  diag.Pos
		X    Expr
		Type *TypeExpr
		// Align: alignof(Type) (C++ [expr.alignof], C11 _Alignof): the
		// type's alignment instead of its size
		Align bool
	}
	// InitList is { a, b, .x = c, [2] = d }.
	InitList struct {
		Pos   diag.Pos
		Elems []*InitElem
	}
	// Trait is a type trait or limit of the C++ standard library,
	// std::Name<Types...>::value (or Name_v<...>), or
	// std::numeric_limits<T>::Member().
	Trait struct {
		Pos    diag.Pos
		Name   string
		Types  []*TypeExpr
		Member string
	}
	// Lambda is a C++11 lambda expression, [captures](params) -> Ret { Body }.
	Lambda struct {
		Pos      diag.Pos
		ByRef    bool     // [&]
		ByValue  bool     // [=] or a capture by value
		Captures []string // named captures
		CapRef   []bool   // whether each named capture is by reference
		CapThis  bool     // [this] (or [=, this])
		Mutable  bool     // mutable: the copies it captures are not const
		Params   []*Param
		Ret      *TypeExpr // nil: deduced from the return statements
		Body     *Block
	}
	// InitElem is one element of an initializer list.
	InitElem struct {
		Field string // designator .Field
		Index Expr   // designator [Index]
		X     Expr
	}
)

func (e *Name) exprPos() diag.Pos          { return e.Pos }
func (e *IntLitExpr) exprPos() diag.Pos    { return e.Pos }
func (e *FloatLitExpr) exprPos() diag.Pos  { return e.Pos }
func (e *CharLitExpr) exprPos() diag.Pos   { return e.Pos }
func (e *StringLitExpr) exprPos() diag.Pos { return e.Pos }
func (e *Unary) exprPos() diag.Pos         { return e.Pos }
func (e *Binary) exprPos() diag.Pos        { return e.Pos }
func (e *Cond) exprPos() diag.Pos          { return e.Pos }
func (e *Call) exprPos() diag.Pos          { return e.Pos }
func (e *Index) exprPos() diag.Pos         { return e.Pos }
func (e *Member) exprPos() diag.Pos        { return e.Pos }
func (e *Cast) exprPos() diag.Pos          { return e.Pos }
func (e *New) exprPos() diag.Pos           { return e.Pos }
func (e *Throw) exprPos() diag.Pos         { return e.Pos }
func (e *ScopedName) exprPos() diag.Pos    { return e.Pos }
func (e *Delete) exprPos() diag.Pos        { return e.Pos }
func (e *SizeofExpr) exprPos() diag.Pos    { return e.Pos }
func (e *PackExpand) exprPos() diag.Pos    { return e.Pos }
func (e *SizeofPack) exprPos() diag.Pos    { return e.Pos }
func (e *InitList) exprPos() diag.Pos      { return e.Pos }
func (e *Trait) exprPos() diag.Pos         { return e.Pos }
func (e *Lambda) exprPos() diag.Pos        { return e.Pos }

// PosOf returns the position of an expression or statement.
func PosOf(n any) diag.Pos {
	switch n := n.(type) {
	case Expr:
		return n.exprPos()
	case Stmt:
		return n.stmtPos()
	}
	return diag.Pos{}
}
