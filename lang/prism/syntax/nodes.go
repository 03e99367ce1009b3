package syntax

import (
	"weft.dev/weft/diag"
	"weft.dev/weft/pyscan"
)

// Node is any syntax tree node.
type Node interface{ Pos() diag.Pos }

// Expr is an expression.
type Expr interface {
	Node
	expr()
}

// Stmt is a statement.
type Stmt interface {
	Node
	stmt()
}

// Type is a type expression.
type Type interface {
	Node
	typ()
}

// File is one parsed .prism file.
type File struct {
	Src      *diag.File
	Funcs    []*FuncDecl
	Comments []pyscan.Comment
}

// FuncDecl is a decorated Prism function.
type FuncDecl struct {
	At         diag.Pos // position of "def"
	Decorators []*Call  // @prism("global"), @requires(...), @attr(...), @template(...)
	Name       *Ident
	Params     []*Param
	Result     Type // optional "-> T" (an extension: the paper prints none)
	Body       []Stmt
}

func (f *FuncDecl) Pos() diag.Pos { return f.At }

// Decorator returns the decorator named name, or nil.
func (f *FuncDecl) Decorator(name string) *Call {
	for _, d := range f.Decorators {
		if id, ok := d.Fun.(*Ident); ok && id.Name == name {
			return d
		}
	}
	return nil
}

// Param is `name : T @ level[n]`.
type Param struct {
	Name  *Ident
	Type  Type
	Persp *Persp // nil when not written
}

func (p *Param) Pos() diag.Pos { return p.Name.At }

// Persp is a written perspective `level[n]`; N is nil for `level[]`.
type Persp struct {
	At     diag.Pos
	Level  string
	N      Expr
	Rbrack diag.Pos
}

func (p *Persp) Pos() diag.Pos { return p.At }
func (*Persp) expr()           {}

// ---- types ----

// NamedType is a scalar or named type: int, float, uint32_t, bf16, CUtensorMap.
type NamedType struct {
	At   diag.Pos
	Name string
}

// PtrType is ptr(T) (or ptr[T]).
type PtrType struct {
	At   diag.Pos
	Elem Type
}

// ConstType is const(T) or constexpr(T).
type ConstType struct {
	At        diag.Pos
	Elem      Type
	Constexpr bool
}

// ArrayType is T[n]; c_float[1][16][8] is Array(Array(Array(c_float,8),16),1).
type ArrayType struct {
	At   diag.Pos
	Elem Type
	Len  Expr
}

// SharedType is shared(T[n]) with an optional align=k.
type SharedType struct {
	At    diag.Pos
	Elem  Type
	Align Expr
}

func (t *NamedType) Pos() diag.Pos  { return t.At }
func (t *PtrType) Pos() diag.Pos    { return t.At }
func (t *ConstType) Pos() diag.Pos  { return t.At }
func (t *ArrayType) Pos() diag.Pos  { return t.At }
func (t *SharedType) Pos() diag.Pos { return t.At }
func (*NamedType) typ()             {}
func (*PtrType) typ()               {}
func (*ConstType) typ()             {}
func (*ArrayType) typ()             {}
func (*SharedType) typ()            {}

// ---- expressions ----

// Ident is a name.
type Ident struct {
	At   diag.Pos
	Name string
}

// BasicLit is an INT, FLOAT or STRING literal; Value is the source spelling
// (for strings, the decoded text is in Text).
type BasicLit struct {
	At    diag.Pos
	Kind  pyscan.Kind
	Value string
	Text  string
}

// Ellipsis is `...` (the paper's elided initialisers).
type Ellipsis struct{ At diag.Pos }

// ParenExpr is (X), kept for printing.
type ParenExpr struct {
	At diag.Pos
	X  Expr
}

// BinaryExpr is X op Y; Op is the operator text ("+", "and", "<=", ...).
type BinaryExpr struct {
	OpPos diag.Pos
	Op    string
	X, Y  Expr
}

// UnaryExpr is op X ("-", "not", "~", "!").
type UnaryExpr struct {
	At diag.Pos
	Op string
	X  Expr
}

// Kwarg is name=value in a call.
type Kwarg struct {
	Name  *Ident
	Value Expr
}

// Call is Fun(args, name=value).
type Call struct {
	Fun    Expr
	Lparen diag.Pos
	Args   []Expr
	Kwargs []*Kwarg
	Rparen diag.Pos
}

// Kwarg returns the value of keyword argument name, or nil.
func (c *Call) Kwarg(name string) Expr {
	for _, k := range c.Kwargs {
		if k.Name.Name == name {
			return k.Value
		}
	}
	return nil
}

// IndexExpr is X[Index]; Index is nil for X[].
type IndexExpr struct {
	X      Expr
	Lbrack diag.Pos
	Index  Expr
	Rbrack diag.Pos
}

// AttrExpr is X.Name (intrinsic.mma, cp.async, v.x).
type AttrExpr struct {
	X    Expr
	Name *Ident
}

// LambdaExpr is lambda x, y: body.
type LambdaExpr struct {
	At     diag.Pos
	Params []*Ident
	Body   Expr
}

// CondExpr is Then if Cond else Else.
type CondExpr struct {
	Then, Cond, Else Expr
}

// ListExpr is [a, b].
type ListExpr struct {
	At   diag.Pos
	Elts []Expr
}

// TupleExpr is (a, b).
type TupleExpr struct {
	At   diag.Pos
	Elts []Expr
}

// BraceExpr is { a, b } (C-style array initialiser).
type BraceExpr struct {
	At   diag.Pos
	Elts []Expr
}

func (e *Ident) Pos() diag.Pos      { return e.At }
func (e *BasicLit) Pos() diag.Pos   { return e.At }
func (e *Ellipsis) Pos() diag.Pos   { return e.At }
func (e *ParenExpr) Pos() diag.Pos  { return e.At }
func (e *BinaryExpr) Pos() diag.Pos { return e.X.Pos() }
func (e *UnaryExpr) Pos() diag.Pos  { return e.At }
func (e *Call) Pos() diag.Pos       { return e.Fun.Pos() }
func (e *IndexExpr) Pos() diag.Pos  { return e.X.Pos() }
func (e *AttrExpr) Pos() diag.Pos   { return e.X.Pos() }
func (e *LambdaExpr) Pos() diag.Pos { return e.At }
func (e *CondExpr) Pos() diag.Pos   { return e.Then.Pos() }
func (e *ListExpr) Pos() diag.Pos   { return e.At }
func (e *TupleExpr) Pos() diag.Pos  { return e.At }
func (e *BraceExpr) Pos() diag.Pos  { return e.At }
func (*Ident) expr()                {}
func (*BasicLit) expr()             {}
func (*Ellipsis) expr()             {}
func (*ParenExpr) expr()            {}
func (*BinaryExpr) expr()           {}
func (*UnaryExpr) expr()            {}
func (*Call) expr()                 {}
func (*IndexExpr) expr()            {}
func (*AttrExpr) expr()             {}
func (*LambdaExpr) expr()           {}
func (*CondExpr) expr()             {}
func (*ListExpr) expr()             {}
func (*TupleExpr) expr()            {}
func (*BraceExpr) expr()            {}

// ---- statements ----

// DeclStmt is `name : T [@ P] [= value]`.
type DeclStmt struct {
	Name  *Ident
	Type  Type
	Persp *Persp
	Value Expr
}

// AssignStmt is LHS op RHS with op "=", "+=", "-=", ...
type AssignStmt struct {
	LHS   Expr
	OpPos diag.Pos
	Op    string
	RHS   Expr
}

// ExprStmt is an expression (a call) used as a statement.
type ExprStmt struct{ X Expr }

// WithStmt is `with call(...) [as name]:` — group, partition, claim, async,
// wmma_async.
type WithStmt struct {
	At   diag.Pos
	Call *Call
	As   *Ident
	Body []Stmt
}

// MatchStmt is `match split(level):` or `match level:` with cases.
type MatchStmt struct {
	At      diag.Pos
	Subject Expr
	Cases   []*Case
}

// Case is `case n:` with its body.
type Case struct {
	At    diag.Pos
	Value Expr
	Body  []Stmt
}

// ForStmt is `for v in range(a, b[, c]):`.
type ForStmt struct {
	At   diag.Pos
	Var  *Ident
	Iter *Call
	Body []Stmt
}

// WhileStmt is `while cond:`.
type WhileStmt struct {
	At   diag.Pos
	Cond Expr
	Body []Stmt
}

// IfStmt is `if cond: ... else: ...` (elif becomes a nested IfStmt in Else).
type IfStmt struct {
	At   diag.Pos
	Cond Expr
	Then []Stmt
	Else []Stmt
	Elif bool // Else holds exactly one IfStmt written as elif
}

// BranchStmt is break or continue.
type BranchStmt struct {
	At  diag.Pos
	Tok string
}

// ReturnStmt is return [value].
type ReturnStmt struct {
	At    diag.Pos
	Value Expr
}

// PassStmt is pass.
type PassStmt struct{ At diag.Pos }

func (s *DeclStmt) Pos() diag.Pos   { return s.Name.At }
func (s *AssignStmt) Pos() diag.Pos { return s.LHS.Pos() }
func (s *ExprStmt) Pos() diag.Pos   { return s.X.Pos() }
func (s *WithStmt) Pos() diag.Pos   { return s.At }
func (s *MatchStmt) Pos() diag.Pos  { return s.At }
func (s *Case) Pos() diag.Pos       { return s.At }
func (s *ForStmt) Pos() diag.Pos    { return s.At }
func (s *WhileStmt) Pos() diag.Pos  { return s.At }
func (s *IfStmt) Pos() diag.Pos     { return s.At }
func (s *BranchStmt) Pos() diag.Pos { return s.At }
func (s *ReturnStmt) Pos() diag.Pos { return s.At }
func (s *PassStmt) Pos() diag.Pos   { return s.At }
func (*DeclStmt) stmt()             {}
func (*AssignStmt) stmt()           {}
func (*ExprStmt) stmt()             {}
func (*WithStmt) stmt()             {}
func (*MatchStmt) stmt()            {}
func (*ForStmt) stmt()              {}
func (*WhileStmt) stmt()            {}
func (*IfStmt) stmt()               {}
func (*BranchStmt) stmt()           {}
func (*ReturnStmt) stmt()           {}
func (*PassStmt) stmt()             {}

// FuncName returns the dotted name of a call's function (e.g. "intrinsic.mma",
// "cp.async", "group"), or "" if it is not a plain name chain.
func FuncName(e Expr) string {
	switch e := e.(type) {
	case *Ident:
		return e.Name
	case *AttrExpr:
		if x := FuncName(e.X); x != "" {
			return x + "." + e.Name.Name
		}
	}
	return ""
}
