package syntax

// arena is the first chunk of each kind of node and list that the parser
// carves (chunkNew, carve), in one allocation: a small kernel's
// parse took an allocation for each kind it has one or two of (its File,
// Proc, parameters, types, loops, calls, statements, lists), each some
// 200 instructions of the allocator, and now takes none of them; the
// parser was one larger allocation with it (stop 32, issue 13). Since
// stop 45 the parser is a frame of the stack (parse): a small file's
// parse allocates its arena, its token array and its slabs.
//
// Its sizes are small on purpose: every byte a check allocates brings the
// next collection nearer, and on the smallest rows a larger arena (the
// tokens and Name slab in it) cost more in collections than the
// allocations it saved; halving it made rows e and 5 cheaper (stop 34,
// docs/weft-sync.md).
type arena struct {
	bufs     parseBufs
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

// parseBufs are what a parse needs besides the first chunks of its
// nodes, in its arena since the parser is a frame of the stack (parse;
// stop 45): the File and its first declarations, the first arrays of
// the list stacks (exprs, stmts) and of the scanner's indentation and
// bracket stacks, and the scanner's error sink.
type parseBufs struct {
	tree  File
	decls [2]Decl
	// The expression stack's first array holds 8: over the benchmark
	// rows and bench/syncref's cases no more than 7 are pushed at once
	// but in one file (10, a growth) (stop 42).
	exprBuf [8]Expr
	stmtBuf [16]Stmt
	// Kernels nest 5 to 8 levels (pyscan.Scanner.Init's arrays).
	indentBuf [8]int
	parenBuf  [8]byte
	sink      scanSink
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

// bigTokens is the number of tokens past which a file's first chunks are
// a bigArena's rather than the parser's arena's: a kernel of 200 to 450
// tokens (rows 9, 11, 15 of bench/syncref) outgrew the arena's arrays of
// two in a dozen kinds and took a chunk of each, some 15 allocations of
// some 340 instructions each (stop 43); a kernel of 120 (the per-CTA
// rows) outgrows two kinds, and a bigArena would be 6 KB for 2 chunks.
const bigTokens = 160

// bigArena is the arena of a file of more than bigTokens tokens: one
// allocation, its arrays sized by the node counts of such kernels (rows
// 9 and 11: 5 loops, 7 binary operators, 8 indexings, 6 types, 17
// expressions and 17 statements in lists), so that most take no chunk
// of their own; a larger file takes chunks (chunkNew, carve) when these
// are used up, as before. Its If and FloatLit nodes (one or two a
// kernel, an allocation each before) are taken in order by newIf and
// newFloat.
type bigArena struct {
	bufs     parseBufs
	procs    [1]Proc
	params   [4]Param
	types    [6]Type
	fors     [6]For
	binaries [8]Binary
	indexes  [8]Index
	slices   [4]Slice
	calls    [4]Call
	kwOnes   [4]kwOne
	kwargs   [2]Kwarg
	assigns  [6]Assign
	cstmts   [2]CallStmt
	allocs   [4]Alloc
	exprPool [24]Expr
	stmtPool [24]Stmt
	// A kernel's opening paragraph of comments: 8, not 16 (stop 45:
	// with the parse's buffers in it, 16 took the bigArena past the
	// 6912-byte size class into the 8192-byte one; a file of more
	// comment lines takes a chunk of 16).
	strPool [8]string
	kwPtrs  [8]*Kwarg
	withs   [1]With
	// The parameter lists' pool (procOrConfig: a list of their own
	// before).
	paramPtrs [4]*Param
	paramPool []*Param
	ifs       [2]If
	floats    [2]FloatLit
	nIfs      int // ifs used
	nFloats   int // floats used
}

// start is arena.start for a bigArena.
func (a *bigArena) start(p *parser) {
	p.procs = a.procs[:0]
	p.params = a.params[:0]
	p.types = a.types[:0]
	p.fors = a.fors[:0]
	p.binaries = a.binaries[:0]
	p.indexes = a.indexes[:0]
	p.slices = a.slices[:0]
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
	a.paramPool = a.paramPtrs[:0]
	p.big = a
}

// paramList returns a list of n parameters: from the bigArena's pool
// while it has room, else a list of its own.
func (p *parser) paramList(n int) []*Param {
	if a := p.big; a != nil && cap(a.paramPool)-len(a.paramPool) >= n {
		return carve(&a.paramPool, n, 0)
	}
	return make([]*Param, n)
}

// newIf returns a fresh If: the bigArena's next, while it has one.
func (p *parser) newIf() *If {
	if a := p.big; a != nil && a.nIfs < len(a.ifs) {
		a.nIfs++
		return &a.ifs[a.nIfs-1]
	}
	return new(If)
}

// newFloat is newIf for FloatLit.
func (p *parser) newFloat() *FloatLit {
	if a := p.big; a != nil && a.nFloats < len(a.floats) {
		a.nFloats++
		return &a.floats[a.nFloats-1]
	}
	return new(FloatLit)
}
