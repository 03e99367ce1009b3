package syntax

// arena is the first chunk of each kind of node and list that the parser
// carves (chunkNew, carve), inside the parser itself: a small kernel's
// parse took an allocation for each kind it has one or two of (its File,
// Proc, parameters, types, loops, calls, statements, lists), each some
// 200 instructions of the allocator, and now takes none of them; the
// parser is one larger allocation (stop 32, issue 13). Nodes in it keep
// the parser alive as long as the tree, as the chunks already do.
type arena struct {
	file     File
	decls    [4]Decl
	procs    [2]Proc
	params   [4]Param
	types    [4]Type
	fors     [4]For
	binaries [4]Binary
	indexes  [4]Index
	calls    [4]Call
	kwOnes   [4]kwOne
	kwargs   [4]Kwarg
	assigns  [4]Assign
	cstmts   [4]CallStmt
	allocs   [2]Alloc
	exprPool [32]Expr
	stmtPool [16]Stmt
	strPool  [8]string
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
}
