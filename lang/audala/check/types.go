package check

import "weft.dev/weft/diag"

// Kind is the kind of an AuDaLa type.
type Kind uint8

const (
	Invalid Kind = iota
	Bool
	Nat
	Int
	Ref  // a reference to an instance of Type.Struct
	Null // the type of the literal null; coerces to every Ref
)

// Type is a value type. Struct is set for Ref.
type Type struct {
	Kind   Kind
	Struct *Struct
}

func (t Type) String() string {
	switch t.Kind {
	case Bool:
		return "Bool"
	case Nat:
		return "Nat"
	case Int:
		return "Int"
	case Ref:
		return t.Struct.Name
	case Null:
		return "null"
	}
	return "invalid"
}

// IsNumber reports whether t is Nat or Int.
func (t Type) IsNumber() bool { return t.Kind == Nat || t.Kind == Int }

// Program is a checked program.
type Program struct {
	File     *diag.File
	Structs  []*Struct // declaration order
	Schedule []Sched
	// MaxFixDepth is the deepest nesting of Fix in the schedule.
	MaxFixDepth int
	// Cpp are the program's `$$` lines in source order: the global ones
	// (before the first struct) first, then those standing as statements.
	Cpp []*InlineCpp
}

// StructByName returns the struct called name, or nil.
func (p *Program) StructByName(name string) *Struct {
	for _, s := range p.Structs {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// Struct is a struct type.
type Struct struct {
	Name   string
	Index  int // declaration order
	Params []*Param
	Steps  []*Step
	Pos    diag.Pos
	// Constructed is set when some step constructs this struct.
	Constructed bool
}

// Step returns the step called name, or nil.
func (s *Struct) Step(name string) *Step {
	for _, st := range s.Steps {
		if st.Name == name {
			return st
		}
	}
	return nil
}

// Param is a struct parameter; Index is its position in the struct.
type Param struct {
	Name  string
	Type  Type
	Index int
	Owner *Struct
	Pos   diag.Pos
}

// Step is a checked step body.
type Step struct {
	Name      string
	Owner     *Struct
	Body      []Stmt
	NumLocals int
	Pos       diag.Pos
	// Locals holds the type of each local slot.
	Locals []Type
	// Creates counts the constructor expressions per struct in the body: an
	// upper bound on the instances one executing instance creates (steps have
	// no loops).
	Creates map[*Struct]int
	// Written lists the parameters the step may write (by assignment), in
	// first-occurrence order; constructors write all parameters of new
	// instances, which are listed in Creates instead.
	Written []*Param
	// ViaRef lists the parameters the step accesses through a reference
	// (a path with at least two parts): with Written this gives the racing
	// parameters of spec §5.9 (ONRP).
	ViaRef []*Param
}

// Stmt is one of *If, *SetLocal, *SetParam.
type Stmt interface{ stmt() }

func (*InlineCpp) stmt() {}

// InlineCpp is a `$$` line: CUDA/C++ text that weft build copies into the
// generated code where AuDaLaC puts it (global ones before the runtime's
// declarations, statements in place); weft run cannot execute it.
type InlineCpp struct {
	Pos    diag.Pos
	Text   string
	Global bool
}

// If runs Body when Cond is true.
type If struct {
	Cond Expr
	Body []Stmt
}

// SetLocal stores Value in local slot Slot (a declaration or an assignment
// to a local variable).
type SetLocal struct {
	Slot  int
	Value Expr
}

// SetParam writes parameter Param of the instance Base evaluates to (Base nil
// means this instance). Value already has the parameter's type (coerced).
type SetParam struct {
	Base  Expr
	Param *Param
	Value Expr
	Pos   diag.Pos
}

func (*If) stmt()       {}
func (*SetLocal) stmt() {}
func (*SetParam) stmt() {}

// Expr is one of the expression nodes below; Type() is its static type.
type Expr interface{ Type() Type }

// Const is a literal: Nat, Int, Bool or null (Value 0).
type Const struct {
	T     Type
	Value int64
}

// This is the executing instance's label.
type This struct{ T Type }

// Local reads local slot Slot.
type Local struct {
	Slot int
	T    Type
}

// ReadParam reads Param of the instance Base evaluates to (nil: this one).
type ReadParam struct {
	Base  Expr
	Param *Param
}

// Not is boolean negation.
type Not struct{ X Expr }

// Op is a binary operator.
type Op uint8

const (
	OpOr Op = iota
	OpAnd
	OpEq
	OpNe
	OpLt
	OpLe
	OpGt
	OpGe
	OpAdd
	OpSub
	OpMul
	OpDiv
	OpMod
)

var opNames = [...]string{"||", "&&", "==", "!=", "<", "<=", ">", ">=", "+", "-", "*", "/", "%"}

func (o Op) String() string { return opNames[o] }

// Binary is X Op Y; T is the result type. For arithmetic T is Nat or Int and
// the result must fit it (32-bit, spec §2.4 / thesis §5.1).
type Binary struct {
	Op   Op
	X, Y Expr
	T    Type
	Pos  diag.Pos
}

// Construct creates an instance of Struct with Args (coerced to the
// parameter types).
type Construct struct {
	Struct *Struct
	Args   []Expr
	Pos    diag.Pos
}

// ToInt coerces a Nat to Int (it can overflow: Nat values reach 2^32-1).
type ToInt struct {
	X   Expr
	Pos diag.Pos
}

func (e *Const) Type() Type     { return e.T }
func (e *This) Type() Type      { return e.T }
func (e *Local) Type() Type     { return e.T }
func (e *ReadParam) Type() Type { return e.Param.Type }
func (e *Not) Type() Type       { return Type{Kind: Bool} }
func (e *Binary) Type() Type    { return e.T }
func (e *Construct) Type() Type { return Type{Kind: Ref, Struct: e.Struct} }
func (e *ToInt) Type() Type     { return Type{Kind: Int} }

// Sched is one of *Call, *Print, *Fix.
type Sched interface{ sched() }

// Call runs Step on every instance of its struct.
type Call struct{ Step *Step }

// Print is the built-in `S.print`: one line per non-null instance.
type Print struct{ Struct *Struct }

// Fix repeats Body until an iteration changes no parameter; Level is its
// depth (0 for an outermost Fix).
type Fix struct {
	Body  []Sched
	Level int
	Pos   diag.Pos
}

func (*Call) sched()  {}
func (*Print) sched() {}
func (*Fix) sched()   {}
