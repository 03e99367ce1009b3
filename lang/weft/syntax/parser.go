package syntax

import (
	"fmt"
	"strconv"
	"strings"
	"unsafe"

	"weft.dev/weft/diag"
	"weft.dev/weft/pyscan"
)

// Syntax error codes (the "weft" table).
const (
	ErrUnexpected = "W0101" // unexpected token
	ErrExpected   = "W0102" // a specific token or construct was expected
	ErrStmt       = "W0103" // not a statement
	ErrDecorator  = "W0104" // decorator not followed by def
	ErrIntRange   = "W0105" // integer literal out of range
	ErrSyncArgs   = "W0106" // Fence/Arrive/Await with the wrong arguments
	ErrNesting    = "W0107" // expressions or blocks nested too deeply
)

// maxDepth bounds the nesting of expressions (parentheses, brackets, unary
// operators) and blocks, so that no recursion over the tree (parser,
// printer, checker, interpreter, generator) can exhaust the stack on
// adversarial input (issue 14); real kernels nest a few levels.
const maxDepth = 500

func init() {
	diag.Register("weft", []diag.Code{
		{Code: ErrUnexpected, Summary: "syntax: unexpected token"},
		{Code: ErrExpected, Summary: "syntax: expected a specific token or construct"},
		{Code: ErrStmt, Summary: "syntax: an expression that is not a statement (only calls, writes, reduces, allocations and windows are)"},
		{Code: ErrDecorator, Summary: "syntax: a decorator must be followed by def"},
		{Code: ErrIntRange, Summary: "syntax: integer literal does not fit in 64 bits"},
		{Code: ErrSyncArgs, Summary: "syntax: Fence, Arrive or Await with the wrong number or kind of arguments"},
		{Code: ErrNesting, Summary: "syntax: expressions or blocks nested too deeply"},
	})
}

// Parse parses a .weft file, reporting errors to errs.
func Parse(f *diag.File, errs *diag.List) *File {
	return parse(f, 0, -1, errs)
}

// ParseRange parses the declarations of f's text from offset start to
// end (start at a line's start, outside brackets and strings; end where
// a declaration's last line ends) as Parse would the file's, with f's
// positions: a node's file, line and column are those of a parse of the
// whole file. The comments before the first declaration of the range
// are its Leading ones, as in the whole file's parse when no statement
// before start took them. The standard library's procs are parsed so
// at their first use (package lib; issue 13, stop 44).
func ParseRange(f *diag.File, start, end int, errs *diag.List) *File {
	return parse(f, start, end, errs)
}

// parse is Parse (end < 0) or ParseRange.
//
// The parser is a frame of the stack, not an allocation (stop 45: its
// scanner, stacks and slab headers were 1.5 KB of every parse, dead
// when the parse returns): nothing points into it. The tree, the
// stacks' first arrays, the scanner's first arrays and its error sink
// are in the arena (parseBufs), which the tree's first nodes are in too.
func parse(f *diag.File, start, end int, errs *diag.List) *File {
	src := f.Src
	if end >= 0 {
		src = src[start:end]
	}
	// The tokens the scanner expects of the file (its estimate, which
	// sizes its array) choose the arena before the scan: a small file's,
	// or a bigArena for one of more than bigTokens tokens. The count,
	// known after the scan, chooses the arena of the nodes: an estimate
	// short of it takes a bigArena too (the small arena's buffers serve,
	// its node arrays go unused), one over it keeps the bigArena.
	z := pyscan.SizeOf(src)
	var ar *arena
	var big *bigArena
	var bufs *parseBufs
	if z.Tokens() > bigTokens {
		big = new(bigArena)
		bufs = &big.bufs
	} else {
		ar = new(arena)
		bufs = &ar.bufs
	}
	bufs.sink.errs = errs
	var p parser
	p.file, p.errs, p.bufs = f, errs, bufs
	p.scan.InitWith(f, start, end, &bufs.sink, bufs.indentBuf[:], bufs.parenBuf[:])
	p.scan.SetKeywords(keywords)
	p.toks = p.scan.ToksSized(z)
	p.cur = p.toks[0]
	p.comments = p.scan.Comments
	// The list stacks start with room for a kernel's nesting: grown from
	// empty they took five allocations per parse. Their first arrays are
	// the arena's (two allocations fewer, stop 31).
	p.exprs = bufs.exprBuf[:0]
	p.stmts = bufs.stmtBuf[:0]
	if big != nil || len(p.toks) > bigTokens {
		if big == nil {
			big = new(bigArena)
		}
		big.start(&p)
	} else {
		ar.start(&p)
	}
	p.sizeSlabs()
	tree := p.parseFile()
	// The tree keeps the arena: not the error list through the sink (the
	// standard library's tree lives for the whole process; stop 39).
	bufs.sink = scanSink{}
	return tree
}

// scanSink takes the scanner's errors (pyscan.Reporter) and marks their
// lines: the parse errors there are their consequences (errorf). It is
// the arena's, not the parser, which a reporter held by the scanner
// would make escape to the heap (stop 45).
type scanSink struct {
	errs *diag.List
	// lines are lines with a scanner error (nil: none).
	lines map[int]bool
}

// ScanError reports a scanner error and marks its line.
func (k *scanSink) ScanError(pos diag.Pos, code, msg string) {
	if k.lines == nil {
		k.lines = map[int]bool{}
	}
	k.lines[pos.Line()] = true
	k.errs.Errorf(pos, code, "%s", msg)
}

// sizeSlabs makes the arrays that the file's Name and IntLit nodes are
// carved from: every Name is made from a NAME token and every IntLit
// from an INT, so the scanner's counts size them. Its name count leaves
// out the keywords (stop 42: for, in, def and with make no Name and were
// a fifth of the slab); a keyword made a Name (free, Fence, ... outside
// their statements; in, for, ... where a name is expected) takes slabNew
// a chunk more. One allocation each instead of one per
// node, the most numerous of a parse (issue 13); the tree lives as long
// as any of its nodes, so sharing keeps nothing alive longer. The
// scanner counts the tokens as it makes them (a pass over the tokens
// here was 3% of a parse, stop 32).
func (p *parser) sizeSlabs() {
	names, ints := p.scan.Counts()
	p.names = make([]Name, 0, names)
	p.ints = make([]IntLit, 0, ints)
	// Likewise the StringLits, one from each STRING token (stop 44: the
	// standard library's 240 were an allocation each; a file without
	// strings makes no array).
	if n := p.scan.Strings(); n > 0 {
		p.strs = make([]StringLit, 0, n)
	}
}

// slabNew returns a fresh zero T from the end of *slab (a new array of 16
// should the bound be passed).
func slabNew[T any](slab *[]T) *T { return chunkNew(slab, 16) }

// chunkNew returns a fresh zero T from the end of *slab, which starts
// empty and takes a new array each time it is used up, of first Ts and
// then of twice the last, up to 64: the nodes of the kinds a kernel has a
// few to a few dozen of (loops, binary operators, indexings, slices,
// calls, keyword arguments) take an allocation per chunk instead of one
// per node (stop 31: a parse's allocations, each some 200 instructions of
// the allocator, were a fifth of it), and a kind with one node a small
// one. As with the Name and IntLit slabs, a tree lives as long as any of
// its nodes.
func chunkNew[T any](slab *[]T, first int) *T {
	if len(*slab) == cap(*slab) {
		*slab = make([]T, 0, nextChunk(cap(*slab), first))
	}
	*slab = (*slab)[:len(*slab)+1]
	return &(*slab)[len(*slab)-1]
}

// nextChunk is the size of the array after one of size last (0: none
// yet): first, then doubling, at most 64.
func nextChunk(last, first int) int {
	if last == 0 {
		return first
	}
	return min(2*last, 64)
}

// carve returns n elements from the end of *pool, with no room after
// them (an append to the list copies it, never writes into its
// neighbour's), taking a new pool (chunkNew's sizes, or n) when this one
// is used up: the lists of a parse (block bodies, arguments, indices)
// share a few arrays instead of one each (stop 31).
func carve[T any](pool *[]T, n, first int) []T {
	if cap(*pool)-len(*pool) < n {
		*pool = make([]T, 0, max(nextChunk(cap(*pool), first), n))
	}
	l := len(*pool)
	*pool = (*pool)[:l+n]
	return (*pool)[l : l+n : l+n]
}

type parser struct {
	file *diag.File
	errs *diag.List
	scan pyscan.Scanner // the texts of toks
	bufs *parseBufs     // the arena's (parse)
	toks []pyscan.Tok
	i    int
	// cur is toks[i], kept by next (and the one step back of
	// stmtList): the parser reads the current token several times per
	// token (its kind, then its code against each operator it may be),
	// and a field's load is one instruction where toks[i] is two loads
	// and a bounds check (stop 37).
	cur      pyscan.Tok
	comments []pyscan.Comment
	ci       int // next unattached comment
	depth    int // nesting of expressions and blocks (maxDepth)
	// exprs and stmts hold the elements of the lists being parsed (a
	// call's arguments, a block's statements, ...), which popExprs and
	// popStmts copy out at the list's end: one allocation of the exact
	// size per list instead of append's two to four (issue 13).
	exprs []Expr
	stmts []Stmt
	// names, ints and strs are the slabs of Name, IntLit and StringLit
	// nodes (sizeSlabs).
	names []Name
	ints  []IntLit
	strs  []StringLit
	// The chunks of other nodes (chunkNew) and of the lists (carve).
	fors     []For
	binaries []Binary
	indexes  []Index
	slices   []Slice
	calls    []Call
	kwOnes   []kwOne
	exprPool []Expr
	stmtPool []Stmt
	strPool  []string
	kwPtrs   []*Kwarg
	procs    []Proc
	params   []Param
	types    []Type
	assigns  []Assign
	cstmts   []CallStmt
	allocs   []Alloc
	kwargs   []Kwarg
	withs    []With
	// An arena holds the first chunk of each of those (arena.go), or big
	// does (a file of more than bigTokens tokens; nil: not).
	big *bigArena
}

// kwOne is a first keyword argument with its list's array of one (kwarg).
type kwOne struct {
	k    Kwarg
	list [1]*Kwarg
}

// globalOne is a module-level assignment with the array of its first
// name (decl).
type globalOne struct {
	g     Global
	names [1]*Name
}

// popExprs returns the expressions pushed on p.exprs since mark, in a
// slice of their own (nil when there are none, as an append-built list
// was), and pops them.
func (p *parser) popExprs(mark int) []Expr {
	n := len(p.exprs) - mark
	if n == 0 {
		return nil
	}
	out := carve(&p.exprPool, n, 8)
	// Element by element, not copy: that is a call of the runtime
	// (typedslicecopy) of some 45 instructions, for lists of one to four
	// (stop 41). The slots popped are not cleared (stop 42: a pointer
	// store and its write barrier test each, a fifth of the expression
	// lists' cost): they point at the nodes just copied into the tree,
	// which live as long as the parser and its arena do, and the next
	// push overwrites them. (A bailout still clears what it abandons.)
	for i, x := range p.exprs[mark:] {
		out[i] = x
	}
	p.exprs = p.exprs[:mark]
	return out
}

// popStmts is popExprs for p.stmts.
func (p *parser) popStmts(mark int) []Stmt {
	n := len(p.stmts) - mark
	if n == 0 {
		return nil
	}
	out := carve(&p.stmtPool, n, 8)
	for i, x := range p.stmts[mark:] {
		out[i] = x
	}
	p.stmts = p.stmts[:mark]
	return out
}

// enter counts one more level of nesting and abandons the statement when
// it exceeds maxDepth; the caller calls leave when it returns. A syntax
// error that abandons a statement skips the leaves: decl and stmtList
// restore the depth they started at (a deferred leave per expression was
// a twentieth of a parse, stop 33).
func (p *parser) enter() {
	p.depth++
	if p.depth > maxDepth {
		p.fail(ErrNesting, "nested too deeply (more than %d levels of expressions or blocks)", maxDepth)
	}
}

func (p *parser) leave() { p.depth-- }

// errorf reports a parse error unless the scanner already reported one on
// the same line.
func (p *parser) errorf(pos diag.Pos, code, format string, args ...any) {
	if l := p.bufs.sink.lines; l != nil && l[pos.Line()] {
		return
	}
	p.errs.Errorf(pos, code, format, args...)
}

type bailout struct{}

func (p *parser) tok() pyscan.Tok { return p.cur }
func (p *parser) peek(k int) pyscan.Tok {
	if p.i+k < len(p.toks) {
		return p.toks[p.i+k]
	}
	return p.toks[len(p.toks)-1]
}
func (p *parser) next() pyscan.Tok {
	t := p.cur
	// The tokens end with one EOF (pyscan's Toks), where next stays: the
	// current token's kind, already loaded, says so without the length,
	// and says that toks[i+1] exists (the current token is not the last):
	// the load needs no bounds check either (tokAt).
	if t.Kind != pyscan.EOF {
		p.i++
		p.cur = p.tokAt(p.i)
	}
	return t
}

// tokAt is p.toks[i] without the bounds check, for an i known to be in
// range: i+1 where toks[i] is not the last token (it is not EOF, and
// toks ends with EOF). The compiler could not prove it, and next (some
// 150 to 450 calls a parse) paid a length load, a compare and a branch
// each time (stop 42).
func (p *parser) tokAt(i int) pyscan.Tok {
	return *(*pyscan.Tok)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(p.toks)), uintptr(i)*unsafe.Sizeof(pyscan.Tok{})))
}

// text is t's text (pyscan.Token.Text).
func (p *parser) text(t pyscan.Tok) string { return p.scan.Text(t) }

// at is t's position.
func (p *parser) at(t pyscan.Tok) diag.Pos { return diag.Pos{File: p.file, Offset: p.scan.Off(t)} }

// isOp reports whether the current token is the operator c, by its code
// (pyscan's token codes, stop 33: one compare, not a string's).
func (p *parser) isOp(c pyscan.Code) bool { return p.cur.Code() == c }

// isKw reports whether the current token is the keyword c (keywords.go).
func (p *parser) isKw(c pyscan.Code) bool { return p.cur.Code() == c }

// peekOp reports whether the token k ahead is the operator c.
func (p *parser) peekOp(k int, c pyscan.Code) bool { return p.peek(k).Code() == c }

func (p *parser) got(c pyscan.Code) bool {
	if p.isOp(c) {
		p.next()
		return true
	}
	return false
}

// fail reports an error at the current token and abandons the statement.
func (p *parser) fail(code, format string, args ...any) {
	p.errorf(p.at(p.tok()), code, format, args...)
	panic(bailout{})
}

func (p *parser) describe(t pyscan.Tok) string {
	switch t.Kind {
	case pyscan.OP:
		return fmt.Sprintf("%q", p.text(t))
	case pyscan.NAME:
		return "name " + p.text(t)
	case pyscan.INT, pyscan.FLOAT:
		return "number " + p.text(t)
	case pyscan.STRING:
		return "string " + p.scan.Raw(t)
	}
	return t.Kind.String()
}

// expectOp takes the current token, which must be the operator c: the
// test and the step inlined where it is asked (some 40 times a kernel,
// where the call and its frame were half its cost, stop 43), the error
// expectedOp's. The current token is the operator c, so not EOF: its
// successor is in range (tokAt), and next's test of EOF is not needed.
func (p *parser) expectOp(c pyscan.Code) pyscan.Tok {
	t := p.cur
	if t.Code() != c {
		p.expectedOp(c)
	}
	p.i++
	p.cur = p.tokAt(p.i)
	return t
}

// expectedOp reports that the current token is not the operator c and
// abandons the statement.
func (p *parser) expectedOp(c pyscan.Code) {
	p.fail(ErrExpected, "expected %q, found %s", pyscan.OpText(c), p.describe(p.tok()))
}

func (p *parser) expectKind(k pyscan.Kind, what string) pyscan.Tok {
	if p.tok().Kind != k {
		p.fail(ErrExpected, "expected %s, found %s", what, p.describe(p.tok()))
	}
	return p.next()
}

// name parses a name. It takes the token itself (expectKind's test
// and next's step; a NAME is not EOF, so its successor is in range:
// tokAt), without a call of expectKind (stop 43).
func (p *parser) name() *Name {
	t := p.cur
	if t.Kind != pyscan.NAME {
		p.expectKind(pyscan.NAME, "a name") // fails
	}
	p.i++
	p.cur = p.tokAt(p.i)
	n := slabNew(&p.names)
	off, text := p.scan.OffText(t)
	*n = Name{node{diag.Pos{File: p.file, Offset: off}}, text}
	return n
}

// commentsBefore returns the comments before offset off that are not yet
// attached. It is asked at every statement, and most have none before
// them (a kernel's comments are its opening paragraph): that answer is
// this test, inlined where it is asked, and the rest commentsAt's
// (stop 42).
func (p *parser) commentsBefore(off int) []string {
	if p.ci == len(p.comments) || p.comments[p.ci].Pos.Offset >= off {
		return nil
	}
	return p.commentsAt(off)
}

// commentsAt is commentsBefore where at least one comment comes before
// off.
func (p *parser) commentsAt(off int) []string {
	n := 0
	for p.ci+n < len(p.comments) && p.comments[p.ci+n].Pos.Offset < off {
		n++
	}
	if n == 0 {
		return nil
	}
	// Counted first: one list of the exact size, not one per doubling
	// (a file's opening comments are a paragraph).
	// From the parser's pool when they fit in it (a file's opening
	// paragraph usually does): a pool taken for a longer paragraph would
	// be larger than the list.
	var out []string
	if cap(p.strPool)-len(p.strPool) >= n {
		out = carve(&p.strPool, n, 8)
	} else {
		out = make([]string, n)
	}
	for i := range out {
		out[i] = p.comments[p.ci].Text
		p.ci++
	}
	return out
}

// trailingComment takes an end-of-line comment on the line of off. Most
// statements have none, and once the comments are all taken it is one
// inlined compare (commentsBefore).
func (p *parser) trailingComment(off int) string {
	if p.ci == len(p.comments) {
		return ""
	}
	return p.trailingAt(off)
}

// trailingAt is trailingComment where a comment is left.
func (p *parser) trailingAt(off int) string {
	if !p.comments[p.ci].Own {
		c := p.comments[p.ci]
		// Same line, asked without the file's line table or a copy of
		// the line (15 KB a check on a kernel with comments, issue 13).
		if p.file.SameLine(c.Pos.Offset, off) {
			p.ci++
			return c.Text
		}
	}
	return ""
}

// recover skips to the end of the current logical line, and over an
// indented block that follows it.
func (p *parser) recover() {
	for p.tok().Kind != pyscan.NEWLINE && p.tok().Kind != pyscan.EOF {
		p.next()
	}
	if p.tok().Kind == pyscan.NEWLINE {
		p.next()
	}
	if p.tok().Kind == pyscan.INDENT {
		depth := 0
		for {
			switch p.next().Kind {
			case pyscan.INDENT:
				depth++
			case pyscan.DEDENT:
				depth--
			case pyscan.EOF:
				return
			}
			if depth == 0 {
				return
			}
		}
	}
}

func (p *parser) parseFile() *File {
	f := &p.bufs.tree
	*f = File{Name: p.file.Name}
	for p.tok().Kind != pyscan.EOF {
		switch p.tok().Kind {
		case pyscan.NEWLINE:
			p.next()
			continue
		case pyscan.INDENT:
			p.errorf(p.at(p.tok()), ErrUnexpected, "unexpected indent")
			p.recover()
			continue
		case pyscan.DEDENT:
			p.next()
			continue
		}
		if d := p.decl(); d != nil {
			if f.Decls == nil {
				f.Decls = p.bufs.decls[:0:len(p.bufs.decls)]
			}
			f.Decls = append(f.Decls, d)
		}
	}
	f.Trailing = p.commentsBefore(len(p.file.Src) + 1)
	return f
}

func (p *parser) decl() (d Decl) {
	start, emark, smark, depth := p.i, len(p.exprs), len(p.stmts), p.depth
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(bailout); !ok {
				panic(r)
			}
			p.depth = depth // the leaves the bailout skipped
			// Drop the elements of the lists the bailout abandoned.
			clear(p.exprs[emark:])
			p.exprs = p.exprs[:emark]
			clear(p.stmts[smark:])
			p.stmts = p.stmts[:smark]
			if p.i == start {
				p.next()
			}
			p.recover()
			d = nil
		}
	}()
	lead := p.commentsBefore(p.at(p.tok()).Offset)
	if p.isOp(pyscan.OpAt) || p.isKw(kwDef) || p.isKw(kwClass) {
		d := p.procOrConfig()
		switch d := d.(type) {
		case *Proc:
			d.Leading = lead
		case *Config:
			d.Leading = lead
		}
		return d
	}
	if p.tok().Kind == pyscan.NAME {
		// The global with the array of its first name, its values on the
		// list stack (popExprs): one allocation, where appends to its
		// lists took two more (stop 41: a kernel's sizes, NCTA = 2, are
		// globals of one name and one value).
		one := &globalOne{g: Global{node: node{p.at(p.tok())}}}
		g := &one.g
		g.Leading = lead
		one.names[0] = p.name()
		g.Names = one.names[:1:1]
		for p.got(pyscan.OpComma) {
			g.Names = append(g.Names, p.name())
		}
		p.expectOp(pyscan.OpAssign)
		g.Trailing = p.trailingComment(g.P.Offset)
		mark := len(p.exprs)
		p.exprs = append(p.exprs, p.expr())
		for p.got(pyscan.OpComma) {
			p.exprs = append(p.exprs, p.expr())
		}
		g.Values = p.popExprs(mark)
		if len(g.Values) != len(g.Names) && len(g.Values) != 1 {
			p.fail(ErrExpected, "%d names but %d values", len(g.Names), len(g.Values))
		}
		p.endLine()
		return g
	}
	p.fail(ErrUnexpected, "expected def or a module-level assignment, found %s", p.describe(p.tok()))
	return nil
}

func (p *parser) endLine() {
	if p.tok().Kind != pyscan.NEWLINE && p.tok().Kind != pyscan.EOF {
		p.fail(ErrUnexpected, "unexpected %s at end of statement", p.describe(p.tok()))
	}
	p.next()
}

func (p *parser) procOrConfig() Decl {
	pr := chunkNew(&p.procs, 2)
	pr.P = p.at(p.tok())
	// The decorators on the list stack, their comments in a local array
	// (past four, a list of their own), each list then carved at its size.
	mark := len(p.exprs)
	var cbuf [4]string
	comments := cbuf[:0]
	for p.isOp(pyscan.OpAt) {
		at := p.at(p.tok())
		p.next()
		p.exprs = append(p.exprs, p.postfix())
		comments = append(comments, p.trailingComment(at.Offset))
		p.endLine()
		for p.tok().Kind == pyscan.NEWLINE {
			p.next()
		}
	}
	pr.Decorators = p.popExprs(mark)
	if len(comments) > 0 {
		pr.DecoratorComments = carve(&p.strPool, len(comments), 8)
		copy(pr.DecoratorComments, comments)
	}
	if p.isKw(kwClass) {
		return p.config(pr)
	}
	if !p.isKw(kwDef) {
		p.fail(ErrDecorator, "decorator must be followed by def, found %s", p.describe(p.tok()))
	}
	defAt := p.at(p.tok())
	p.next()
	pr.Name = p.name()
	p.expectOp(pyscan.OpLParen)
	var pbuf [8]*Param // the parameters, then a list of their size
	params := pbuf[:0]
	for !p.isOp(pyscan.OpRParen) {
		prm := chunkNew(&p.params, 4)
		prm.P = p.at(p.tok())
		prm.Name = p.name()
		p.expectOp(pyscan.OpColon)
		prm.Type = p.typ()
		params = append(params, prm)
		if !p.got(pyscan.OpComma) {
			break
		}
	}
	if len(params) > 0 {
		pr.Params = p.paramList(len(params))
		copy(pr.Params, params)
	}
	p.expectOp(pyscan.OpRParen)
	p.expectOp(pyscan.OpColon)
	pr.Trailing = p.trailingComment(defAt.Offset)
	pr.Body = p.block()
	return pr
}

// config parses `class Name:` and a block of `field: type` lines, after
// its decorators (Exo's `@config` class; the checker requires @config).
func (p *parser) config(pr *Proc) *Config {
	cl := &Config{node: node{pr.P}, Decorators: pr.Decorators}
	classAt := p.at(p.next())
	cl.Name = p.name()
	p.expectOp(pyscan.OpColon)
	cl.Trailing = p.trailingComment(classAt.Offset)
	if p.tok().Kind != pyscan.NEWLINE {
		p.fail(ErrExpected, "expected an indented block of fields (name: type)")
	}
	p.next()
	if p.tok().Kind != pyscan.INDENT {
		p.fail(ErrExpected, "expected an indented block of fields (name: type)")
	}
	p.next()
	for p.tok().Kind != pyscan.DEDENT && p.tok().Kind != pyscan.EOF {
		if p.tok().Kind == pyscan.NEWLINE {
			p.next()
			continue
		}
		if p.isKw(kwPass) {
			p.next()
			p.endLine()
			continue
		}
		f := &Param{node: node{p.at(p.tok())}}
		f.Name = p.name()
		p.expectOp(pyscan.OpColon)
		f.Type = p.typ()
		cl.Fields = append(cl.Fields, f)
		p.endLine()
	}
	p.next()
	return cl
}

// typ parses `elem`, `elem[dims]`, `[elem][dims]`, each with optional @ Mem.
func (p *parser) typ() *Type {
	t := chunkNew(&p.types, 4)
	t.P = p.at(p.tok())
	if p.got(pyscan.OpLBrack) {
		t.Window = true
		t.Elem = p.name()
		p.expectOp(pyscan.OpRBrack)
		p.expectOp(pyscan.OpLBrack)
		t.Dims = p.exprList(pyscan.OpRBrack)
		p.expectOp(pyscan.OpRBrack)
	} else {
		t.Elem = p.name()
		// barrier(z): an explicitly guarded barrier (seed 000 Fig. 10).
		if t.Elem != nil && t.Elem.Name == "barrier" && p.isOp(pyscan.OpLParen) {
			p.next()
			t.Guard = p.expr()
			p.expectOp(pyscan.OpRParen)
		}
		if p.got(pyscan.OpLBrack) {
			t.Dims, t.DimAnns = p.dimList()
			p.expectOp(pyscan.OpRBrack)
			if t.Dims == nil {
				t.Dims = []Expr{}
			}
		}
	}
	if p.got(pyscan.OpAt) {
		t.Mem = p.postfix()
	}
	return t
}

// dimList parses the dimensions of a type, each optionally annotated
// `d @ ann` (Exo's size annotations, e.g. `n @ ring_buffer_by(4)`); anns
// is nil when no dimension is annotated.
func (p *parser) dimList() (dims, anns []Expr) {
	mark := len(p.exprs) // the dimensions on the list stack (popExprs)
	for !p.isOp(pyscan.OpRBrack) {
		p.exprs = append(p.exprs, p.expr())
		var ann Expr
		if p.got(pyscan.OpAt) {
			ann = p.unaryExpr()
			if anns == nil {
				anns = make([]Expr, len(p.exprs)-mark-1, len(p.exprs)-mark)
			}
		}
		if anns != nil {
			anns = append(anns, ann)
		}
		if !p.got(pyscan.OpComma) {
			break
		}
	}
	return p.popExprs(mark), anns
}

func (p *parser) exprList(close pyscan.Code) []Expr {
	mark := len(p.exprs)
	for !p.isOp(close) {
		p.exprs = append(p.exprs, p.expr())
		if !p.got(pyscan.OpComma) {
			break
		}
	}
	return p.popExprs(mark)
}

// block parses NEWLINE INDENT stmts DEDENT, or a simple statement on the same
// line after the colon.
func (p *parser) block() []Stmt {
	p.enter()
	b := p.blockIn()
	p.leave()
	return b
}

func (p *parser) blockIn() []Stmt {
	if p.tok().Kind != pyscan.NEWLINE {
		s := p.simpleStmt(nil)
		return []Stmt{s}
	}
	p.next()
	if p.tok().Kind != pyscan.INDENT {
		p.fail(ErrExpected, "expected an indented block")
	}
	p.next()
	mark := len(p.stmts)
	for !p.stmtList() {
	}
	p.next()
	return p.popStmts(mark)
}

// stmtList parses a block's statements onto p.stmts up to its DEDENT (or
// the end of the file) and reports true there. A syntax error abandons
// the statement it is in: stmtList recovers, drops what that statement
// pushed, skips the rest of its line (and a block indented under it) but
// stays inside the block, and reports false, and its caller calls it
// again for the statements after it. One deferred recover per block, not
// one per statement (stop 42: the defer, its closure and the recover
// call were some 60 instructions a statement, and a kernel's loops have
// blocks of one or two); the state the recovery restores is the current
// statement's, kept in the variables the deferred function reads.
func (p *parser) stmtList() (done bool) {
	var start, emark, smark, depth int
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(bailout); !ok {
				panic(r)
			}
			p.depth = depth // the leaves the bailout skipped
			// Drop the elements of the lists the bailout abandoned.
			clear(p.exprs[emark:])
			p.exprs = p.exprs[:emark]
			clear(p.stmts[smark:])
			p.stmts = p.stmts[:smark]
			if p.i == start {
				p.next()
			}
			// Skip the rest of the line but stay inside the enclosing block.
			for p.tok().Kind != pyscan.NEWLINE && p.tok().Kind != pyscan.EOF && p.tok().Kind != pyscan.DEDENT {
				p.next()
			}
			if p.tok().Kind == pyscan.NEWLINE {
				p.next()
			}
			if p.tok().Kind == pyscan.INDENT {
				p.i--
				p.cur = p.toks[p.i]
				p.recover()
			}
		}
	}()
	for p.tok().Kind != pyscan.DEDENT && p.tok().Kind != pyscan.EOF {
		if p.tok().Kind == pyscan.NEWLINE {
			p.next()
			continue
		}
		start, emark, smark, depth = p.i, len(p.exprs), len(p.stmts), p.depth
		if p.tok().Kind == pyscan.INDENT {
			p.fail(ErrUnexpected, "unexpected indent")
		}
		if s := p.stmt(); s != nil {
			p.stmts = append(p.stmts, s)
		}
	}
	return true
}

func (p *parser) stmt() Stmt {
	lead := p.commentsBefore(p.at(p.tok()).Offset)
	t := p.tok()
	var s Stmt
	switch {
	case t.Code() == kwFor:
		s = p.forStmt()
	case t.Code() == kwIf:
		s = p.ifStmt()
	case t.Code() == kwWith:
		p.next()
		w := chunkNew(&p.withs, 2)
		w.P = p.at(t)
		w.Ctx = p.expr()
		p.expectOp(pyscan.OpColon)
		w.Trailing = p.trailingComment(p.at(t).Offset)
		w.Body = p.block()
		s = w
	default:
		return p.simpleStmt(lead)
	}
	c := s.Comment()
	c.Leading = lead
	return s
}

func (p *parser) forStmt() Stmt {
	f := chunkNew(&p.fors, 4)
	f.P = p.at(p.next())
	f.Var = p.name()
	if !p.isKw(kwIn) {
		p.fail(ErrExpected, "expected in, found %s", p.describe(p.tok()))
	}
	p.next()
	f.Mode = p.name()
	p.expectOp(pyscan.OpLParen)
	// The bounds in place (a loop has two), not in a list.
	var args [2]Expr
	nargs := 0
	for !p.isOp(pyscan.OpRParen) {
		if p.tok().Kind == pyscan.NAME && p.peekOp(1, pyscan.OpAssign) {
			f.Kwargs = p.kwarg(f.Kwargs)
		} else {
			if len(f.Kwargs) > 0 {
				p.fail(ErrExpected, "positional argument after keyword argument")
			}
			e := p.expr()
			if nargs < len(args) {
				args[nargs] = e
			}
			nargs++
		}
		if !p.got(pyscan.OpComma) {
			break
		}
	}
	p.expectOp(pyscan.OpRParen)
	if nargs != 2 {
		p.errorf(f.Mode.P, ErrExpected, "%s loop needs two bounds (lo, hi), got %d", f.Mode.Name, nargs)
		panic(bailout{})
	}
	f.Lo, f.Hi = args[0], args[1]
	p.expectOp(pyscan.OpColon)
	f.Trailing = p.trailingComment(f.P.Offset)
	f.Body = p.block()
	return f
}

func (p *parser) ifStmt() Stmt {
	s := p.newIf()
	s.P = p.at(p.next())
	s.Cond = p.expr()
	p.expectOp(pyscan.OpColon)
	s.Trailing = p.trailingComment(s.P.Offset)
	s.Then = p.block()
	if p.isKw(kwElif) {
		s.Elif = true
		s.Else = []Stmt{p.ifStmt()}
	} else if p.isKw(kwElse) {
		p.next()
		p.expectOp(pyscan.OpColon)
		s.Else = p.block()
		if s.Else == nil {
			s.Else = []Stmt{}
		}
	}
	return s
}

// isSyncName reports whether a statement named s is a sync statement (a
// switch, not a map: it is asked for every simple statement).
func isSyncName(s string) bool {
	switch s {
	case "Fence", "Arrive", "Await", "ReverseArrive", "ReverseAwait":
		return true
	}
	return false
}

func (p *parser) simpleStmt(lead []string) Stmt {
	t := p.tok()
	var s Stmt
	switch {
	case t.Code() == kwAssert:
		p.next()
		s = &Assert{node: node{p.at(t)}, Cond: p.expr()}
	case t.Code() == kwPass:
		p.next()
		s = &Pass{node: node{p.at(t)}}
	case t.Code() == kwFree && p.peek(1).Kind == pyscan.NAME:
		p.next()
		s = &Free{node: node{p.at(t)}, Name: p.name()}
	case t.Code() == kwFree && p.peekOp(1, pyscan.OpLParen) &&
		p.peek(2).Kind == pyscan.NAME && p.peekOp(3, pyscan.OpRParen):
		// Exo prints free(x).
		p.next()
		p.next()
		s = &Free{node: node{p.at(t)}, Name: p.name(), Paren: true}
		p.next()
	case t.Kind == pyscan.NAME && p.peekOp(1, pyscan.OpColon):
		a := chunkNew(&p.allocs, 2)
		*a = Alloc{node: node{p.at(t)}, Name: p.name()}
		p.next()
		a.Type = p.typ()
		s = a
	case isSyncKw(t.Code()) && p.peekOp(1, pyscan.OpLParen):
		s = p.syncStmt()
	default:
		s = p.exprStmt()
	}
	c := s.Comment()
	c.Leading = lead
	c.Trailing = p.trailingComment(p.at(t).Offset)
	p.endLine()
	return s
}

func (p *parser) exprStmt() Stmt {
	start := p.at(p.tok())
	x := p.expr()
	// The guide's `x[2]: f32 @ CudaRmem` form: an allocation with the
	// dimensions written on the name. It means `x: f32[2] @ CudaRmem`.
	if ix, ok := x.(*Index); ok && p.isOp(pyscan.OpColon) {
		if n, ok := ix.X.(*Name); ok {
			p.next()
			ty := p.typ()
			if ty.Dims != nil || ty.Window {
				p.errorf(ty.P, ErrExpected, "dimensions given both on the name and the type")
				panic(bailout{})
			}
			ty.Dims = ix.Indices
			a := chunkNew(&p.allocs, 2)
			*a = Alloc{node: node{start}, Name: n, Type: ty}
			return a
		}
	}
	if name := syncCallee(x); name != "" {
		// `+Fence()`, `(Fence)(a, b)`, `+Fence()()`: a statement that
		// does not start with the sync statement's name, but prints as
		// one (the + and the parentheses are not kept), which then does
		// not parse or parses to another tree (FuzzParse).
		p.errorf(start, ErrStmt, "%s is a sync statement: write %s(...) alone, not in an expression", name, name)
		panic(bailout{})
	}
	switch {
	case p.isOp(pyscan.OpAssign) || p.isOp(pyscan.OpAddAssign):
		op := pyscan.OpText(p.next().Code())
		switch x := x.(type) {
		case *Name, *Index:
		case *Attr:
			// A config field write `Config.field = e` (Exo's configs).
			if _, ok := x.X.(*Name); !ok || op != "=" {
				p.errorf(start, ErrStmt, "cannot assign to this expression (only a config field, Config.field = e)")
				panic(bailout{})
			}
		default:
			p.errorf(start, ErrStmt, "cannot assign to this expression")
			panic(bailout{})
		}
		a := chunkNew(&p.assigns, 4)
		*a = Assign{node: node{start}, LHS: x, Op: op}
		a.RHS = p.expr()
		if op == "=" && p.got(pyscan.OpAt) {
			a.Mem = p.postfix()
		}
		return a
	case p.isOp(pyscan.OpShr):
		call, ok := x.(*Call)
		if !ok {
			p.fail(ErrStmt, "only an instruction call can complete on a barrier (>>)")
		}
		p.next()
		cs := chunkNew(&p.cstmts, 4)
		*cs = CallStmt{node: node{start}, Call: call}
		cs.Barriers, cs.Chained = p.barrierList()
		return cs
	}
	if call, ok := x.(*Call); ok {
		cs := chunkNew(&p.cstmts, 4)
		*cs = CallStmt{node: node{start}, Call: call}
		return cs
	}
	p.errorf(start, ErrStmt, "expression is not a statement")
	panic(bailout{})
}

// syncCallee returns the sync statement name (Fence, Arrive, ...) that x
// calls at its start, as in Fence(...)(...)[i].f, or "".
func syncCallee(x Expr) string {
	for {
		switch e := x.(type) {
		case *Call:
			if n, ok := e.Fun.(*Name); ok {
				if isSyncName(n.Name) {
					return n.Name
				}
				return ""
			}
			x = e.Fun
		case *Index:
			x = e.X
		case *Attr:
			x = e.X
		default:
			return ""
		}
	}
}

// barrierList parses the barriers after `>>`: `a, b` or, as Exo prints
// it, `a >> b` (chained reports the second form; one may not mix them).
func (p *parser) barrierList() (bars []Expr, chained bool) {
	bars = []Expr{p.postfix()}
	switch {
	case p.isOp(pyscan.OpComma):
		for p.got(pyscan.OpComma) {
			bars = append(bars, p.postfix())
		}
	case p.isOp(pyscan.OpShr):
		for p.got(pyscan.OpShr) {
			bars = append(bars, p.postfix())
		}
		chained = true
	}
	return bars, chained
}

func (p *parser) syncStmt() Stmt {
	t := p.next()
	p.expectOp(pyscan.OpLParen)
	// The arguments stay on the parser's stack: the statement keeps each
	// in a field of its own, so a list of them would be garbage.
	mark := len(p.exprs)
	for !p.isOp(pyscan.OpRParen) {
		p.exprs = append(p.exprs, p.expr())
		if !p.got(pyscan.OpComma) {
			break
		}
	}
	args := p.exprs[mark:]
	defer func() {
		clear(p.exprs[mark:])
		p.exprs = p.exprs[:mark]
	}()
	p.expectOp(pyscan.OpRParen)
	bad := func(want string) {
		p.errorf(p.at(t), ErrSyncArgs, "%s takes %s, got %d arguments", p.text(t), want, len(args))
		panic(bailout{})
	}
	switch t.Code() {
	case kwFence:
		if len(args) != 2 {
			bad("(first_tl, second_tl)")
		}
		return &Fence{node: node{p.at(t)}, First: args[0], Second: args[1]}
	case kwArrive, kwReverseArrive:
		a := &Arrive{node: node{p.at(t)}, Reverse: t.Code() == kwReverseArrive}
		switch {
		case p.isOp(pyscan.OpShr):
			if len(args) < 1 || len(args) > 2 {
				bad("(first_tl[, n]) >> barrier")
			}
			p.next()
			a.TL = args[0]
			if len(args) == 2 {
				a.N = args[1]
			}
			a.Barriers, a.Chained = p.barrierList()
		case len(args) == 3 || len(args) == 2:
			// Older form Arrive(first_tl, bar[i], n) (seed 002 §"Synchronization").
			a.TL, a.Barriers = args[0], []Expr{args[1]}
			if len(args) == 3 {
				a.N = args[2]
			}
		default:
			bad("(first_tl[, n]) >> barrier")
		}
		return a
	default:
		if len(args) < 2 || len(args) > 3 {
			bad("(barrier, second_tl[, n])")
		}
		w := &Await{node: node{p.at(t)}, Reverse: t.Code() == kwReverseAwait, Bar: args[0], TL: args[1]}
		if len(args) == 3 {
			w.N = args[2]
		}
		return w
	}
}

// Expressions, lowest precedence first: or, and, not, comparisons, + -,
// * / // %, unary - ~, postfix (call, index, attribute), atoms.

func (p *parser) expr() Expr {
	p.enter()
	var x Expr
	if p.simpleOperand() {
		x = p.atom()
	} else {
		x = p.binary(precOr)
	}
	p.leave()
	return x
}

// simpleOperand reports whether the expression at the current token is
// one name or literal, then a token that ends every expression (, ) ] : =
// or the end of the line): orExpr would descend through every level to
// atom and test every operator on the way back, for nothing. Most operands
// (indices, arguments) are such (issue 13). "not" is a prefix operator,
// not an atom.
func (p *parser) simpleOperand() bool {
	t := &p.cur
	switch t.Kind {
	case pyscan.NAME:
		if t.Code() == kwNot {
			return false
		}
	case pyscan.INT, pyscan.FLOAT, pyscan.STRING:
	default:
		return false
	}
	// The current token is not EOF, so not the last one: its successor
	// is in range (tokAt).
	n := p.tokAt(p.i + 1)
	return n.Kind == pyscan.NEWLINE || endsOperand[n.Code()]
}

// binaryOp returns the binary operator at the current token and its
// precedence (printer.go's levels: or, and, the prefix not, comparisons,
// + -, * / // %; 0: none): two loads from tables indexed by the token's
// code (keywords.go), not a test per operator.
func (p *parser) binaryOp() (string, int) {
	c := p.cur.Code()
	return codeText[c], int(codePrec[c])
}

// binary parses an expression whose binary operators have at least
// precedence min, by precedence climbing: each operand descends once,
// not through a function per level (issue 13: an operand passed through
// eight calls and a dozen operator tests on its way up). The trees are
// those of the grammar's levels: left-associative operators, `not` a
// prefix of its level (its operand takes comparisons, not and/or), unary
// - ~ + binding tighter than *.
func (p *parser) binary(min int) Expr {
	var x Expr
	switch c := p.cur.Code(); {
	case c == kwNot && min <= precNot:
		x = p.not()
	case c == pyscan.OpSub || c == pyscan.OpTilde || c == pyscan.OpAdd:
		x = p.unaryExpr()
	default:
		x = p.postfix() // unaryExpr's answer, one call less per operand
	}
	for {
		op, prec := p.binaryOp()
		if prec == 0 || prec < min {
			return x
		}
		t := p.next()
		b := chunkNew(&p.binaries, 4)
		*b = Binary{node{p.at(t)}, op, x, p.binary(prec + 1)}
		x = b
	}
}

// not parses `not x`, x an expression of not's level (comparisons and
// further nots, not and/or).
func (p *parser) not() Expr {
	t := p.next()
	p.enter()
	u := &Unary{node{p.at(t)}, "not", p.binary(precNot)}
	p.leave()
	return u
}

func (p *parser) unaryExpr() Expr {
	if c := p.cur.Code(); c == pyscan.OpSub || c == pyscan.OpTilde || c == pyscan.OpAdd {
		t := p.next()
		p.enter()
		x := p.unaryExpr()
		p.leave()
		if c == pyscan.OpAdd {
			return x
		}
		return &Unary{node{p.at(t)}, pyscan.OpText(c), x}
	}
	return p.postfix()
}

func (p *parser) postfix() Expr {
	x := p.atom()
	for {
		switch {
		case p.isOp(pyscan.OpLParen):
			x = p.call(x)
		case p.isOp(pyscan.OpLBrack):
			t := p.next()
			ix := chunkNew(&p.indexes, 4)
			*ix = Index{node: node{x.Pos()}, X: x}
			_ = t
			mark := len(p.exprs)
			for !p.isOp(pyscan.OpRBrack) {
				p.exprs = append(p.exprs, p.indexElem())
				if !p.got(pyscan.OpComma) {
					break
				}
			}
			ix.Indices = p.popExprs(mark)
			p.expectOp(pyscan.OpRBrack)
			x = ix
		case p.isOp(pyscan.OpDot):
			p.next()
			x = &Attr{node{x.Pos()}, x, p.name()}
		default:
			return x
		}
	}
}

func (p *parser) indexElem() Expr {
	start := p.at(p.tok())
	var lo Expr
	if !p.isOp(pyscan.OpColon) {
		lo = p.expr()
		if !p.isOp(pyscan.OpColon) {
			return lo
		}
	}
	p.next()
	s := chunkNew(&p.slices, 4)
	*s = Slice{node: node{start}, Lo: lo}
	if !p.isOp(pyscan.OpComma) && !p.isOp(pyscan.OpRBrack) {
		s.Hi = p.expr()
	}
	return s
}

// kwarg parses `name=value` and appends it to list. The first keyword
// argument of a list is allocated with the list's array of one (a loop's
// unit=, an instruction's size=: nearly every list has one), one
// allocation instead of two (issue 13).
func (p *parser) kwarg(list []*Kwarg) []*Kwarg {
	var k *Kwarg
	switch {
	case list == nil:
		one := chunkNew(&p.kwOnes, 4)
		k = &one.k
		one.list[0] = k
		list = one.list[:]
	case len(list) == 1:
		// The second (an instruction's size= and tl=, a device
		// function's clusterDim= and blockDim=): a list of two carved
		// from the parser's pool, where append took an allocation
		// (stop 41).
		k = chunkNew(&p.kwargs, 4)
		two := carve(&p.kwPtrs, 2, 8)
		two[0], two[1] = list[0], k
		list = two
	default:
		k = chunkNew(&p.kwargs, 4)
		list = append(list, k)
	}
	k.P = p.at(p.tok())
	k.Name = p.name()
	p.next()
	k.Value = p.expr()
	return list
}

func (p *parser) call(fun Expr) Expr {
	p.expectOp(pyscan.OpLParen)
	c := chunkNew(&p.calls, 4)
	*c = Call{node: node{fun.Pos()}, Fun: fun}
	mark := len(p.exprs)
	for !p.isOp(pyscan.OpRParen) {
		if p.tok().Kind == pyscan.NAME && p.peekOp(1, pyscan.OpAssign) {
			c.Kwargs = p.kwarg(c.Kwargs)
		} else {
			if len(c.Kwargs) > 0 {
				p.fail(ErrExpected, "positional argument after keyword argument")
			}
			p.exprs = append(p.exprs, p.expr())
		}
		if !p.got(pyscan.OpComma) {
			break
		}
		c.TrailingComma = p.isOp(pyscan.OpRParen)
	}
	c.Args = p.popExprs(mark)
	p.expectOp(pyscan.OpRParen)
	return c
}

// smallDecimal is the value of s when it is 1 to 18 decimal digits (so
// it fits in an int64) without a leading zero: nearly every literal of a
// kernel, read without strconv's base prefixes and underscores, which
// were a twentieth of a parse (issue 13). ok is false for the rest, which
// ParseInt reads.
func smallDecimal(s string) (v int64, ok bool) {
	if len(s) == 0 || len(s) > 18 || (s[0] == '0' && len(s) > 1) {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		c := s[i] - '0'
		if c > 9 {
			return 0, false
		}
		v = v*10 + int64(c)
	}
	return v, true
}

// pow10 holds the powers of ten that are exact float64s and smallFloat
// divides by.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15}

// smallFloat is the value of s when it is digits and one '.' (no
// exponent, no underscore), 15 digits at most: a kernel's 1.0 and 0.5,
// which strconv.ParseFloat read in some 300 instructions each (stop 42);
// ok is false for the rest, which ParseFloat reads. Exact: the digits
// without the point are an integer m < 10^15 < 2^53 and the point makes
// the value m / 10^k, k <= 15; both are exact float64s, and an IEEE
// division rounds the exact quotient to the nearest float64 (ties to
// even), as ParseFloat rounds the decimal value: the same float64
// (strconv's own exact path, atof64exact, divides the same way).
// TestSmallFloat compares the two.
func smallFloat(s string) (v float64, ok bool) {
	var m uint64
	digits, k, point := 0, 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			m = m*10 + uint64(c-'0')
			digits++
			if point {
				k++
			}
		case c == '.' && !point:
			point = true
		default:
			return 0, false
		}
	}
	if !point || digits == 0 || digits > 15 {
		return 0, false
	}
	return float64(m) / pow10[k], true
}

// atom parses a name, a literal, a parenthesized expression or a list.
// A name that is no keyword and a small decimal integer (nearly every
// atom of a kernel: 170 of row 15's) are made here, the rest by
// atomRest: atom's frame and spills were sized by the rest's cases (400
// bytes, and a third of its cost per atom, stop 43). Each makes the
// node atomRest makes, with the same steps: a NAME or an INT is not EOF,
// so next's step needs no test (tokAt).
func (p *parser) atom() Expr {
	t := p.cur
	switch t.Kind {
	case pyscan.NAME:
		if t.Code() == 0 {
			p.i++
			p.cur = p.tokAt(p.i)
			n := slabNew(&p.names)
			off, text := p.scan.OffText(t)
			*n = Name{node{diag.Pos{File: p.file, Offset: off}}, text}
			return n
		}
	case pyscan.INT:
		off, text := p.scan.OffText(t)
		if v, ok := smallDecimal(text); ok {
			p.i++
			p.cur = p.tokAt(p.i)
			n := slabNew(&p.ints)
			*n = IntLit{node{diag.Pos{File: p.file, Offset: off}}, text, v}
			return n
		}
	}
	return p.atomRest(t)
}

// atomRest is atom for the current token t (every kind of atom).
func (p *parser) atomRest(t pyscan.Tok) Expr {
	switch t.Kind {
	case pyscan.NAME:
		switch c := t.Code(); {
		case c == 0:
		case c == kwTrue || c == kwFalse:
			p.next()
			return &BoolLit{node{p.at(t)}, c == kwTrue}
		case reservedInExpr(c):
			p.fail(ErrUnexpected, "unexpected keyword %s in expression", p.text(t))
		}
		p.next()
		n := slabNew(&p.names)
		off, text := p.scan.OffText(t)
		*n = Name{node{diag.Pos{File: p.file, Offset: off}}, text}
		return n
	case pyscan.INT:
		p.next()
		off, text := p.scan.OffText(t)
		v, ok := smallDecimal(text)
		if !ok {
			var err error
			v, err = strconv.ParseInt(strings.ReplaceAll(text, "_", ""), 0, 64)
			if err != nil {
				p.errorf(p.at(t), ErrIntRange, "integer literal %s does not fit in 64 bits", text)
			}
		}
		n := slabNew(&p.ints)
		*n = IntLit{node{diag.Pos{File: p.file, Offset: off}}, text, v}
		return n
	case pyscan.FLOAT:
		p.next()
		v, ok := smallFloat(p.text(t))
		if !ok {
			var err error
			v, err = strconv.ParseFloat(strings.ReplaceAll(p.text(t), "_", ""), 64)
			if err != nil {
				p.errorf(p.at(t), ErrIntRange, "float literal %s is out of range", p.text(t))
			}
		}
		f := p.newFloat()
		*f = FloatLit{node{p.at(t)}, p.text(t), v}
		return f
	case pyscan.STRING:
		p.next()
		n := chunkNew(&p.strs, 1)
		*n = StringLit{node{p.at(t)}, p.text(t)}
		return n
	case pyscan.OP:
		switch t.Code() {
		case pyscan.OpLParen:
			p.next()
			x := p.expr()
			if p.isOp(pyscan.OpComma) {
				tu := &Tuple{node: node{p.at(t)}, Elems: []Expr{x}}
				for p.got(pyscan.OpComma) && !p.isOp(pyscan.OpRParen) {
					tu.Elems = append(tu.Elems, p.expr())
				}
				p.expectOp(pyscan.OpRParen)
				return tu
			}
			p.expectOp(pyscan.OpRParen)
			return x
		case pyscan.OpLBrack:
			p.next()
			l := &List{node: node{p.at(t)}}
			l.Elems = p.exprList(pyscan.OpRBrack)
			p.expectOp(pyscan.OpRBrack)
			return l
		}
	}
	p.fail(ErrUnexpected, "unexpected %s, expected an expression", p.describe(t))
	return nil
}
