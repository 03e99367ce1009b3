package syntax

import "weft.dev/weft/diag"

// Node is any syntax tree node.
type Node interface {
	Pos() diag.Pos
}

// node carries a node's position (the first byte of its source text).
type node struct {
	P diag.Pos
}

func (n *node) Pos() diag.Pos { return n.P }

// File is one parsed .weft file.
type File struct {
	Name  string
	Decls []Decl
	// Comments left after the last declaration.
	Trailing []string
}

// Decl is a top-level declaration: *Proc, *Global or *Config.
type Decl interface {
	Node
	declNode()
}

// Global is a module-level assignment, e.g. `Mw, Nw = 96, 64`,
// `my_warp_config = [CudaWarpConfig("producer", 1, 40, 0), ...]`, or
// `xgemm = simplify(xgemm)`. Names and Values have equal length, except that a
// single Value may be assigned to one Name.
type Global struct {
	node
	Comments
	Names  []*Name
	Values []Expr
}

// Proc is `def name(params):` with its decorators. Decorators are kept as
// expressions (`@proc`, `@instr(tl=..., unit=...)`); the checker interprets
// them. A proc with an `@instr` decorator is an instruction declaration.
type Proc struct {
	node
	Comments
	Decorators []Expr
	// DecoratorComments holds the end-of-line comment of each decorator
	// line ("" if none), parallel to Decorators.
	DecoratorComments []string
	Name              *Name
	Params            []*Param
	Body              []Stmt
}

// Config is Exo's configuration state, declared as Exo users write it:
//
//	@config
//	class ConfigAB:
//	    a: f32
//	    b: index
//
// Procs read and write its fields as `ConfigAB.a` (module-level state with
// a sequential meaning).
type Config struct {
	node
	Comments
	Decorators []Expr // the @config decorator (kept for printing)
	Name       *Name
	Fields     []*Param
}

func (*Global) declNode() {}
func (*Proc) declNode()   {}
func (*Config) declNode() {}

// Param is `name: type`.
type Param struct {
	node
	Name *Name
	Type *Type
}

// Type is a parameter or allocation type:
//
//	size | index | bool | stride             control types
//	f32 | i32 | ... | barrier | barrier(z)   scalar data or barrier
//	f32[M, K]                                tensor
//	[f32][M, K]                              window (Window = true)
//
// optionally followed by `@ Mem` where Mem is a name or a call such as
// Sm90_RmemMatrixD(64, 256).
type Type struct {
	node
	Elem   *Name
	Dims   []Expr // nil for scalars
	Window bool
	Mem    Expr // nil if absent
	// Guard is z in `barrier(z)`, an explicitly guarded barrier (seed 000
	// Fig. 10; mbarriers only); nil otherwise.
	Guard Expr
	// DimAnns holds the size annotation of each dimension, parallel to
	// Dims: Exo's GPU branch writes `barrier[2, n @ ring_buffer_by(4)]`
	// for a ring-buffered barrier dimension. Nil when no dimension has one.
	DimAnns []Expr
}

// Comments are the comments attached to a statement or declaration.
type Comments struct {
	Leading  []string // own-line comments before it, text including '#'
	Trailing string   // comment at the end of its first line
}

// Comment returns the receiver, so every statement exposes its comments.
func (c *Comments) Comment() *Comments { return c }

// Stmt is a statement.
type Stmt interface {
	Node
	Comment() *Comments
	stmtNode()
}

// Alloc is `x: T[dims] @ Mem` (data) or `z: barrier[dims] @ Mem` (barrier).
type Alloc struct {
	node
	Comments
	Name *Name
	Type *Type
}

// Assign is a write `x[i] = e`, a reduce `x[i] += e`, or a window statement
// `x = y[w] @ Mem` (Mem set) / `x = y[0:8, i]`. Op is "=" or "+=".
type Assign struct {
	node
	Comments
	LHS Expr // *Name, *Index, or *Attr (a config field write `Config.f = e`)
	Op  string
	RHS Expr
	Mem Expr // `@ Mem` on a window statement; nil otherwise
}

// For is `for y in mode(lo, hi, kw=...):` with mode seq, par, cuda_tasks or
// cuda_threads (the checker rejects others).
type For struct {
	node
	Comments
	Var    *Name
	Mode   *Name
	Lo, Hi Expr
	Kwargs []*Kwarg
	Body   []Stmt
}

// If is `if cond:` with optional `else:` (an `elif` is an If inside Else).
type If struct {
	node
	Comments
	Cond Expr
	Then []Stmt
	Else []Stmt
	Elif bool // Else holds exactly one If written as `elif`
}

// With is `with Ctx(...):` for CudaDeviceFunction, CudaWarps and CudaAsync.
type With struct {
	node
	Comments
	Ctx  Expr
	Body []Stmt
}

// CallStmt is a proc or instruction call, optionally `>> bar[i], ...` for
// async instructions that complete on barriers.
type CallStmt struct {
	node
	Comments
	Call     *Call
	Barriers []Expr
	// Chained: the barriers were written `>> a >> b` (Exo's print form)
	// rather than `>> a, b`; the meaning is the same.
	Chained bool
}

// Fence is `Fence(first_tl, second_tl)`.
type Fence struct {
	node
	Comments
	First, Second Expr
}

// Arrive is `Arrive(first_tl, n) >> bar[i], ...` (N may be nil: 1). Reverse
// marks ReverseArrive. The older form `Arrive(tl, bar[i], n)` parses to the
// same tree.
type Arrive struct {
	node
	Comments
	Reverse  bool
	TL       Expr
	N        Expr
	Barriers []Expr
	Chained  bool // written `>> a >> b`, as Exo prints it
}

// Await is `Await(bar[i], second_tl, n)` (N may be nil: 0).
type Await struct {
	node
	Comments
	Reverse bool
	Bar     Expr
	TL      Expr
	N       Expr
}

// Assert is `assert cond`.
type Assert struct {
	node
	Comments
	Cond Expr
}

// Free is `free x`, or `free(x)` as Exo prints it (Paren).
type Free struct {
	node
	Comments
	Name  *Name
	Paren bool
}

// Pass is `pass`.
type Pass struct {
	node
	Comments
}

func (*Alloc) stmtNode()    {}
func (*Assign) stmtNode()   {}
func (*For) stmtNode()      {}
func (*If) stmtNode()       {}
func (*With) stmtNode()     {}
func (*CallStmt) stmtNode() {}
func (*Fence) stmtNode()    {}
func (*Arrive) stmtNode()   {}
func (*Await) stmtNode()    {}
func (*Assert) stmtNode()   {}
func (*Free) stmtNode()     {}
func (*Pass) stmtNode()     {}

// Expr is an expression. Control, data, barrier and unit expressions share
// one syntax (seed 000 Fig. 1); the checker keeps them apart.
type Expr interface {
	Node
	exprNode()
}

// Name is an identifier.
type Name struct {
	node
	Name string
}

// IntLit is an integer literal; Value is exact for literals that fit.
type IntLit struct {
	node
	Text  string
	Value int64
}

// FloatLit is a floating-point literal.
type FloatLit struct {
	node
	Text  string
	Value float64
}

// StringLit is a string literal (Value decoded).
type StringLit struct {
	node
	Value string
}

// BoolLit is True or False.
type BoolLit struct {
	node
	Value bool
}

// Binary is X Op Y with Op one of + - * / // % == != < <= > >= and or.
type Binary struct {
	node
	Op   string
	X, Y Expr
}

// Unary is Op X with Op one of - ~ not.
type Unary struct {
	node
	Op string
	X  Expr
}

// Index is X[indices]; an index is an Expr (point) or a *Slice (interval).
type Index struct {
	node
	X       Expr
	Indices []Expr
}

// Slice is lo:hi inside an index (either may be nil: `:` is the whole
// dimension).
type Slice struct {
	node
	Lo, Hi Expr
}

// Call is Fun(args, kw=value, ...).
type Call struct {
	node
	Fun    Expr
	Args   []Expr
	Kwargs []*Kwarg
	// TrailingComma records a comma before the closing parenthesis, as
	// Exo prints memory arguments (`Sm90_SmemSwizzled(128, )`), so that
	// weft fmt reprints the call token for token.
	TrailingComma bool
}

// Kwarg is name=value in a call.
type Kwarg struct {
	node
	Name  *Name
	Value Expr
}

// List is [a, b, ...].
type List struct {
	node
	Elems []Expr
}

// Tuple is (a, b, ...) with at least two elements, or (a,).
type Tuple struct {
	node
	Elems []Expr
}

// Attr is X.Name.
type Attr struct {
	node
	X    Expr
	Name *Name
}

// BadExpr stands where an expression failed to parse.
type BadExpr struct {
	node
}

func (*Name) exprNode()      {}
func (*IntLit) exprNode()    {}
func (*FloatLit) exprNode()  {}
func (*StringLit) exprNode() {}
func (*BoolLit) exprNode()   {}
func (*Binary) exprNode()    {}
func (*Unary) exprNode()     {}
func (*Index) exprNode()     {}
func (*Slice) exprNode()     {}
func (*Call) exprNode()      {}
func (*Kwarg) exprNode()     {}
func (*List) exprNode()      {}
func (*Tuple) exprNode()     {}
func (*Attr) exprNode()      {}
func (*BadExpr) exprNode()   {}

// Kwarg looks up a keyword argument by name.
func (c *Call) Kwarg(name string) *Kwarg {
	for _, k := range c.Kwargs {
		if k.Name.Name == name {
			return k
		}
	}
	return nil
}

// FunName returns the callee's name if it is a plain name, else "".
func (c *Call) FunName() string {
	if n, ok := c.Fun.(*Name); ok {
		return n.Name
	}
	return ""
}
