package syntax

// Pos is a byte offset into the source file; positions are resolved to
// line:col through diag.File only when a diagnostic is printed.
type Pos = int

// Program is a parsed .adl file: structs in declaration order and the
// schedule.
type Program struct {
	// Cpp are the `$$` lines before the first struct (AuDaLaC's global
	// inline C++), in source order.
	Cpp      []*InlineCpp
	Structs  []*Struct
	Schedule Sched
	// Comments in source order; the printer keeps them (fmt must not lose
	// a user's comments).
	Comments []Comment
}

// Comment is a // or /* */ comment; Text includes the delimiters.
// Trailing is set when code precedes it on its line: the printer keeps it
// at the end of the line it printed last.
type Comment struct {
	Pos      Pos
	Text     string
	Trailing bool
}

// Struct is `struct Name(p: T, ...) { steps }`.
type Struct struct {
	Pos    Pos
	End    Pos // of the closing '}'
	Name   string
	Params []*Param
	Steps  []*Step
}

// Param is one typed parameter `name : Type`.
type Param struct {
	Pos  Pos
	Name string
	Type *TypeName
}

// TypeName is a syntactic type: Nat, Int, Bool or a struct name.
type TypeName struct {
	Pos  Pos
	Name string
}

// Step is `name { stmts }`.
type Step struct {
	Pos  Pos
	End  Pos // of the closing '}'
	Name string
	Body []Stmt
}

// Stmt is one of *If, *Decl, *Assign.
type Stmt interface{ stmtNode() }

// InlineCpp is a `$$` line: text that AuDaLaC copies verbatim into the
// CUDA it generates, before the first struct (global declarations) or as a
// statement of a step. Text excludes the `$$`.
type InlineCpp struct {
	Pos  Pos
	Text string
}

// If is `if Cond then { Body }` (the concrete grammar has no else).
type If struct {
	Pos  Pos
	End  Pos // of the closing '}'
	Cond Expr
	Body []Stmt
}

// Decl is `Type name := Value;`.
type Decl struct {
	Pos   Pos // of the name
	Type  *TypeName
	Name  string
	Value Expr
}

// Assign is `a.b.c := Value;`.
type Assign struct {
	Pos    Pos
	Target *Path
	Value  Expr
}

func (*If) stmtNode()        {}
func (*InlineCpp) stmtNode() {}
func (*Decl) stmtNode()      {}
func (*Assign) stmtNode()    {}

// Expr is one of *Path, *Lit, *Null, *This, *Not, *Binary, *Cons, *Paren.
type Expr interface{ exprPos() Pos }

// Path is a dotted access a.b.c; Parts[i] starts at Poss[i].
type Path struct {
	Parts []string
	Poss  []Pos
}

// LitKind distinguishes literal forms.
type LitKind int

const (
	NatLit LitKind = iota
	IntLit
	BoolLit
)

// Lit is a Nat (0, 12), Int (-3) or Bool (true) literal.
type Lit struct {
	Pos   Pos
	Kind  LitKind
	Value int64
	Text  string
}

// Null is the literal `null`.
type Null struct{ Pos Pos }

// This is the literal `this`.
type This struct{ Pos Pos }

// Not is `!X`.
type Not struct {
	Pos Pos
	X   Expr
}

// Binary is `X Op Y`.
type Binary struct {
	OpPos Pos
	Op    string
	X, Y  Expr
}

// Cons is a constructor call `Struct(args...)`.
type Cons struct {
	Pos    Pos
	Struct string
	Args   []Expr
}

// Paren is `(X)`, kept so the printer round-trips.
type Paren struct {
	Pos Pos
	X   Expr
}

func (e *Path) exprPos() Pos   { return e.Poss[0] }
func (e *Lit) exprPos() Pos    { return e.Pos }
func (e *Null) exprPos() Pos   { return e.Pos }
func (e *This) exprPos() Pos   { return e.Pos }
func (e *Not) exprPos() Pos    { return e.Pos }
func (e *Binary) exprPos() Pos { return e.X.exprPos() }
func (e *Cons) exprPos() Pos   { return e.Pos }
func (e *Paren) exprPos() Pos  { return e.Pos }

// ExprPos returns the position of the first token of e.
func ExprPos(e Expr) Pos { return e.exprPos() }

// Sched is one of *Seq, *Call, *Fix.
type Sched interface{ schedNode() }

// Seq is `A < B < ...`.
type Seq struct{ Items []Sched }

// Call is `step` (Struct == "") or `Struct.step`.
type Call struct {
	Pos     Pos
	Struct  string
	Step    string
	StepPos Pos
}

// Fix is `Fix(Body)`.
type Fix struct {
	Pos  Pos
	Body Sched
}

func (*Seq) schedNode()  {}
func (*Call) schedNode() {}
func (*Fix) schedNode()  {}
