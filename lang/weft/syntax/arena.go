package syntax

// arena is the first chunk of each kind of node and list that the parser
// carves (chunkNew, carve), inside the parser itself: a small kernel's
// parse took an allocation for each kind it has one or two of (its File,
// Proc, parameters, types, loops, calls, statements, lists), each some
// 200 instructions of the allocator, and now takes none of them; the
// parser is one larger allocation (stop 32, issue 13). Nodes in it keep
// the parser alive as long as the tree, as the chunks already do.
//
// Its sizes are small on purpose: every byte a check allocates brings the
// next collection nearer, and on the smallest rows a larger arena (the
// tokens and Name slab in it) cost more in collections than the
// allocations it saved; halving it made rows e and 5 cheaper (stop 34,
// docs/weft-sync.md).
type arena struct {
	file     File
	decls    [2]Decl
	procs    [1]Proc
	params   [2]Param
	types    [2]Type
	fors     [2]For
	binaries [2]Binary
	indexes  [2]Index
	calls    [2]Call
	kwOnes   [2]kwOne
	kwargs   [2]Kwarg
	assigns  [2]Assign
	cstmts   [2]CallStmt
	allocs   [2]Alloc
	exprPool [16]Expr
	stmtPool [8]Stmt
	strPool  [8]string
	kwPtrs   [8]*Kwarg
	// A kernel has one device function (with), the ones of
	// bench/syncref's rows all: an allocation per parse before (stop
	// 42).
	withs [1]With
}

// start points p's chunks and pools at the arena's arrays; chunkNew and
// carve take new arrays when these are used up, as before.
func (a *arena) start(p *parser) {
	p.procs = a.procs[:0]
	p.params = a.params[:0]
	p.types = a.types[:0]
	p.fors = a.fors[:0]
	p.binaries = a.binaries[:0]
	p.indexes = a.indexes[:0]
	p.calls = a.calls[:0]
	p.kwOnes = a.kwOnes[:0]
	p.kwargs = a.kwargs[:0]
	p.assigns = a.assigns[:0]
	p.cstmts = a.cstmts[:0]
	p.allocs = a.allocs[:0]
	p.exprPool = a.exprPool[:0]
	p.stmtPool = a.stmtPool[:0]
	p.strPool = a.strPool[:0]
	p.kwPtrs = a.kwPtrs[:0]
	p.withs = a.withs[:0]
}
