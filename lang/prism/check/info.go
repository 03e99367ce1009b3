package check

import (
	"weft.dev/weft/diag"
	"weft.dev/weft/lang/prism/syntax"
)

// Info is the checked program: the syntax tree plus what the checker
// resolved. Lowering and the Bundl interpreter read only this.
type Info struct {
	File    *syntax.File
	Funcs   []*Func
	ByName  map[string]*Func
	Uses    map[*syntax.Ident]*Var
	Decls   map[syntax.Node]*Var // DeclStmt, Param, ForStmt, WithStmt (the `as` name), untyped AssignStmt
	Regions map[*syntax.WithStmt]*Region
	Splits  map[*syntax.MatchStmt]*Split
	Code    map[syntax.Node]Persp // code perspective of every statement
	IDs     map[*syntax.Call]IDInfo
	Calls   map[*syntax.Call]*CallInfo
	Types   map[syntax.Expr]*Type // type of every checked expression
}

// Func is a Prism function with its perspective signature (seed 001 §3.6:
// top-level bound, shared-memory usage, argument perspectives).
type Func struct {
	Decl   *syntax.FuncDecl
	Name   string
	Global bool // @prism("global"): a kernel
	Top    Persp
	// T is the number of threads of a block the bound makes available
	// (threads per block for a kernel; the granularity a device function
	// needs), 0 if the bound does not say. B is the block granularity.
	T, B        int
	Smem        int // declared smem= budget (bytes)
	Peak        int // largest shared usage found (own allocations + callees)
	Params      []*Var
	Result      *Type
	ResultPersp Persp
	Extern      bool     // body is `pass`: implemented in raw CUDA (B.3)
	Attrs       []string // @attr strings passed through to CUDA
	Template    []string // @template parameter names
}

// VarKind says where a variable lives.
type VarKind int

const (
	Local VarKind = iota
	Param
	SharedAlloc
	View // the name bound by partition/claim/async
	LoopVar
)

// Var is a declared name.
type Var struct {
	Name   string
	Kind   VarKind
	Type   *Type
	Persp  Persp
	Pos    diag.Pos
	Root   *Var    // the memory this view or pointer ultimately denotes (itself for roots)
	Region *Region // for views: the region that binds it
	Func   *Func
	// Constant value, when the variable is a compile-time constant.
	IsConst bool
	Value   int64
	Lambda  *syntax.LambdaExpr
	// SmemOffset is the byte offset of a shared allocation within the
	// function's shared frame (seed 001 §5: compiler-computed offsets).
	SmemOffset int
	ID         int // unique within the program, in declaration order
}

// Region is a `with` construct the checker interpreted.
type Region struct {
	Kind   string // group, partition, claim, async, wmma_async
	Stmt   *syntax.WithStmt
	Target Persp // group target, partition dimension, claim scope
	X, Y   *Var  // partition/claim/async: the original and the view
	Offset syntax.Expr
	F      *syntax.LambdaExpr // main-text partition f=lambda
	Code   Persp              // code perspective at the with
	Write  bool               // the view appears as an lvalue inside (seed 001 §5)
	Read   bool
}

// Split is a checked `match split(level)`.
type Split struct {
	Stmt    *syntax.MatchStmt
	Code    Persp
	Sizes   []int   // case sizes in threads (thread level) or blocks
	Offsets []int   // cumulative offsets, same unit
	Branch  []Persp // code perspective of each branch
}

// IDInfo is the resolved meaning of one id() call: the index of the Dest
// unit the thread belongs to within the Code perspective (seed 001 §3.5).
type IDInfo struct{ Code, Dest Persp }

// CallInfo resolves a call: a user function or an intrinsic name.
type CallInfo struct {
	Func      *Func
	Intrinsic string
	Code      Persp
}

// Threads returns the number of threads in one unit of p given T threads
// per block (0 if unknown).
func Threads(p Persp, T, B int) int {
	switch p.Level {
	case Thread:
		return p.N
	case Block:
		return p.N * T
	case Grid:
		return p.N * B * T
	}
	return 0
}
