package pyscan

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"strings"

	"weft.dev/weft/diag"
)

// Kind is a token kind.
type Kind uint8

const (
	EOF Kind = iota
	NEWLINE
	INDENT
	DEDENT
	NAME
	INT
	FLOAT
	STRING
	OP // punctuation and operators; the text is in Token.Text
)

var kindNames = [...]string{"end of file", "newline", "indent", "dedent", "name", "integer", "float", "string", "operator"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", k)
}

// Token is one token. For STRING, Text is the decoded value and Raw the
// source spelling.
type Token struct {
	Kind Kind
	Text string
	Raw  string
	Pos  diag.Pos
	End  diag.Pos
}

func (t Token) String() string {
	switch t.Kind {
	case NAME, INT, FLOAT, OP:
		return fmt.Sprintf("%q", t.Text)
	case STRING:
		return t.Raw
	}
	return t.Kind.String()
}

// Comment is a '#' comment (Text includes the '#').
type Comment struct {
	Text string
	Pos  diag.Pos
	// Own is true when the comment is the only thing on its line.
	Own bool
}

// Scanner error codes (documented in the "pyscan" table).
const (
	ErrBadChar      = "S0001"
	ErrUnterminated = "S0002"
	ErrDedent       = "S0003"
	ErrBadNumber    = "S0004"
	ErrUnbalanced   = "S0005"
)

func init() {
	diag.Register("pyscan (Weft and Prism source)", []diag.Code{
		{Code: ErrBadChar, Summary: "character not allowed here"},
		{Code: ErrUnterminated, Summary: "string literal not terminated before end of line"},
		{Code: ErrDedent, Summary: "dedent does not match any outer indentation level"},
		{Code: ErrBadNumber, Summary: "malformed number literal"},
		{Code: ErrUnbalanced, Summary: "closing bracket does not match the open one"},
	})
}

// ErrorHandler receives scanner errors.
type ErrorHandler func(pos diag.Pos, code, msg string)

// Reporter receives scanner errors (InitReporter): a parser that is one
// itself hands the scanner a pointer it already has, where a closure
// over the parser was an allocation per parse (stop 33, issue 13).
type Reporter interface {
	ScanError(pos diag.Pos, code, msg string)
}

// Tok is a token in compact form (Scanner.Toks): its kind and the
// offsets of its spelling, 8 bytes and no pointers. A file's tokens then
// take a ninth of the memory of []Token, in one allocation the garbage
// collector never scans, which makes scanning a fraction of its cost in
// a small `weft check` (issue 13). Scanner.Off, Text, Raw, End and Token
// give the rest.
type Tok struct {
	// off is the offset of its spelling and n the spelling's length;
	// when code is Long (a STRING, whose text is not its spelling, or a
	// spelling or offset too large for these fields), off indexes
	// Scanner.long instead, which holds the rest.
	off  uint32
	n    uint16
	Kind Kind
	code Code // codes.go
}

// Code returns t's code: its operator's or keyword's, 0 or Long (Code).
func (t Tok) Code() Code { return t.code }

// longTok is the rest of a Tok whose code is Long.
type longTok struct {
	text       string
	start, end int
}

// Scanner tokenizes one file.
type Scanner struct {
	file      *diag.File
	src       []byte
	text      string // src as one string: token texts are its substrings, not one allocation each
	off       int
	err       ErrorHandler
	rep       Reporter // InitReporter; nil: err
	indents   []int    // stack of indentation columns; starts with 0
	indentBuf [8]int   // indents' first array
	parenBuf  [8]byte  // parens' first array
	parens    []byte   // open brackets
	pending   []Tok
	pendBuf   []Tok     // pending's array from its start (Next)
	long      []longTok // the rest of the Toks coded Long
	kw        *Keywords // SetKeywords
	grow      bool      // Toks is scanning into pending: growPending sizes its growth
	lineEnd   int       // the offset after the source's last '\n' (scanAll; fastLoop's bound)
	// nNames and nInts count the NAME tokens that spell no keyword and
	// the INT tokens scanned (Counts), nStrs the STRING tokens (Strings).
	nNames, nInts, nStrs int
	atBOL                bool // at beginning of a logical line
	// crChecked: comment has asked whether the source has a '\r' from
	// its first comment on; noCR is the answer (none).
	crChecked, noCR bool
	lineHas         bool // the current logical line produced a token
	done            bool

	Comments []Comment
}

// New returns a scanner over f reporting errors to err (which may be nil).
func New(f *diag.File, err ErrorHandler) *Scanner {
	s := new(Scanner)
	s.Init(f, err)
	return s
}

// Init makes s a new scanner over f reporting errors to err (which may be
// nil), as New does: a parser can hold its scanner by value (one
// allocation less per parse).
func (s *Scanner) Init(f *diag.File, err ErrorHandler) {
	if err == nil {
		err = func(diag.Pos, string, string) {}
	}
	*s = Scanner{file: f, src: f.Src, text: f.Text(), err: err, atBOL: true}
	// The indentation stack starts in the scanner itself: kernels nest
	// 5 to 8 levels, and growing it from one entry took three
	// allocations per parse (issue 13).
	s.indents = append(s.indentBuf[:0], 0)
	s.parens = s.parenBuf[:0]
}

// InitWith is InitReporter (end < 0) or InitRange with the first
// arrays of the indentation and bracket stacks given, not the scanner's
// own: a scanner that points into itself escapes with whatever holds it,
// and a parser that holds one by value is then allocated, not a frame of
// the stack (issue 13, stop 45).
func (s *Scanner) InitWith(f *diag.File, start, end int, r Reporter, indents []int, parens []byte) {
	*s = Scanner{file: f, src: f.Src, text: f.Text(), err: func(diag.Pos, string, string) {}, atBOL: true, rep: r}
	s.indents = append(indents[:0], 0)
	s.parens = parens[:0]
	if end >= 0 {
		s.src, s.text, s.off = s.src[:end], s.text[:end], start
	}
}

// InitReporter is Init reporting errors to r.
func (s *Scanner) InitReporter(f *diag.File, r Reporter) {
	s.Init(f, nil)
	s.rep = r
}

// InitRange is InitReporter over f's text from offset start to end
// alone, start at a line's start outside brackets and strings: the
// tokens' offsets and positions are f's, as in a scan of the whole file,
// and the end is the end of a file (its NEWLINE, DEDENTs and EOF). A
// parse of one declaration of a library file scans its lines only (issue
// 13, stop 44: the standard library's procs are parsed at first use).
func (s *Scanner) InitRange(f *diag.File, start, end int, r Reporter) {
	s.InitReporter(f, r)
	s.src, s.text, s.off = s.src[:end], s.text[:end], start
}

func (s *Scanner) pos(off int) diag.Pos { return diag.Pos{File: s.file, Offset: off} }

func (s *Scanner) errorf(off int, code, format string, args ...any) {
	if s.rep != nil {
		s.rep.ScanError(s.pos(off), code, fmt.Sprintf(format, args...))
		return
	}
	s.err(s.pos(off), code, fmt.Sprintf(format, args...))
}

// All scans the whole file and returns its tokens, ending with EOF.
func (s *Scanner) All() []Token {
	toks := s.Toks()
	out := make([]Token, len(toks))
	for i, t := range toks {
		out[i] = s.Token(t)
	}
	return out
}

// Toks scans the whole file and returns its tokens in compact form,
// ending with EOF.
func (s *Scanner) Toks() []Tok { return s.ToksSized(SizeOf(s.src[s.off:])) }

// Sizing is what Toks sizes its arrays by: the comments of the bytes it
// scans and the bytes in them (SizeOf).
type Sizing struct{ comments, commentBytes, bytes int }

// SizeOf returns the Sizing of a scan of src (from the scan's start to
// its end): a parser reads its token estimate before the scanner runs
// and hands it to ToksSized, which then does not look for the comments
// again (issue 13, stop 45).
func SizeOf(src []byte) Sizing {
	n, cb := commentSpan(src)
	return Sizing{n, cb, len(src)}
}

// Tokens is the number of tokens Toks expects of the scan (without its
// margin of 16).
func (z Sizing) Tokens() int { return (z.bytes - z.commentBytes) * 10 / 33 }

// ToksSized is Toks with its Sizing z, SizeOf of the scanner's bytes from
// the scan's start.
func (s *Scanner) ToksSized(z Sizing) []Tok {
	// The tokens are scanned straight into the result (not queued and
	// copied one by one as Next does), sized from the bytes outside
	// comments: the repository's Weft and Prism files have one token per
	// 1.9 to 6.1 of those bytes, most 3.4 to 4.2 (indentation makes the
	// spread; 3.3 the estimate, so that all but the densest fit). A
	// file's comments can be two thirds of its bytes: the source's length
	// alone sized the array up to three times too large (all of it
	// cleared) or too small (grown by append, copied and cleared again)
	// on the small kernels of issue 13. A file denser than the estimate
	// grows the array once, by the rate seen so far (growPending). The
	// bytes are those from the scan's start (InitRange's; stop 44).
	nc := z.comments
	if nc > 0 && s.Comments == nil {
		// Room for every comment at once (each starts with a '#'; a
		// '#' in a string makes it too many), not one growth per
		// doubling.
		s.Comments = make([]Comment, 0, nc)
	}
	toks := s.pending
	if want := len(toks) + z.Tokens() + 16; cap(toks) < want {
		toks = make([]Tok, len(s.pending), want)
		copy(toks, s.pending)
	}
	s.pending = toks
	s.grow = true
	if len(s.pending) == 0 && !s.done && len(s.src) <= math.MaxUint32 {
		s.scanAll()
		toks = s.pending
		s.pending, s.pendBuf, s.grow = nil, nil, false
		return toks
	}
	for i := 0; ; i++ {
		for i == len(s.pending) {
			s.scan()
		}
		if s.pending[i].Kind == EOF {
			toks = s.pending[:i+1]
			s.pending, s.pendBuf, s.grow = nil, nil, false
			return toks
		}
	}
}

// commentSpan returns the number of '#' of src and the bytes from
// each to its line's end (a '#' in a string counts too: an estimate).
// IndexByte jumps over the rest, so this costs a few calls per comment;
// a comment on the line after a comment's line end (a paragraph of
// comments, the opening of most kernels) is found without one (stop 43).
func commentSpan(src []byte) (n, cb int) {
	for {
		i := 1 // a '#' just after a line end
		if len(src) < 2 || src[0] != '\n' || src[1] != '#' {
			if i = bytes.IndexByte(src, '#'); i < 0 {
				return n, cb
			}
		}
		n++
		src = src[i:]
		j := bytes.IndexByte(src, '\n')
		if j < 0 {
			return n, cb + len(src)
		}
		cb += j
		src = src[j:]
	}
}

// growPending makes room for at least one more token in s.pending when
// Toks scans into it: by the tokens per byte seen so far over the bytes
// left, a fifth more and 16, so that a file denser than Toks' estimate
// grows once, not by doubling (each growth clears and copies).
func (s *Scanner) growPending() {
	n := len(s.pending)
	extra := 16
	if s.off > 0 {
		extra += int(int64(n) * int64(len(s.src)-s.off) * 6 / (5 * int64(s.off)))
	}
	if extra < n/4 {
		extra = n / 4
	}
	// make and copy, not append: append rounds the capacity up to its
	// own growth rule (1.25x and more), which this estimate replaces.
	toks := make([]Tok, n, n+extra)
	copy(toks, s.pending)
	s.pending = toks
}

// Counts returns the numbers of NAME tokens that spell no keyword (code
// 0 or Long; every NAME without SetKeywords) and of INT tokens scanned so far
// (by Toks, All or Next): a parser sizes its arrays of name and integer
// nodes from them without a pass over the tokens (stop 32). Keywords are
// left out (stop 42): a parser makes no name node of most (for, in, def,
// with are a fifth of a kernel's names), and the array sized for them
// was that much too large.
func (s *Scanner) Counts() (names, ints int) { return s.nNames, s.nInts }

// Strings returns the number of STRING tokens scanned so far: a parser
// sizes its array of string nodes from it (stop 44: the standard
// library's 240 strings were an allocation each).
func (s *Scanner) Strings() int { return s.nStrs }

// Text returns t's text: for STRING its decoded value, for NEWLINE,
// INDENT, DEDENT and EOF "", else its spelling (Token.Text).
func (s *Scanner) Text(t Tok) string {
	if t.code == Long {
		return s.long[t.off].text
	}
	return s.text[t.off : int(t.off)+int(t.n)]
}

// OffText returns Off(t) and Text(t), with one test of t's code where
// the two took one each: a parser's name and literal nodes take both
// (stop 42).
func (s *Scanner) OffText(t Tok) (int, string) {
	if t.code == Long {
		l := &s.long[t.off]
		return l.start, l.text
	}
	return int(t.off), s.text[t.off : int(t.off)+int(t.n)]
}

// Raw returns t's spelling in the source (Token.Raw).
func (s *Scanner) Raw(t Tok) string { return s.text[s.Off(t):s.End(t)] }

// Off returns the offset of t's spelling.
func (s *Scanner) Off(t Tok) int {
	if t.code == Long {
		return s.long[t.off].start
	}
	return int(t.off)
}

// End returns the offset just after t's spelling.
func (s *Scanner) End(t Tok) int {
	if t.code == Long {
		return s.long[t.off].end
	}
	return int(t.off) + int(t.n)
}

// Is reports whether t is of kind k and spelled text, without building
// its text: the parser's test of every keyword and operator.
func (s *Scanner) Is(t Tok, k Kind, text string) bool {
	return t.Kind == k && t.code != Long && int(t.n) == len(text) && s.text[t.off:int(t.off)+len(text)] == text
}

// Token returns t in full.
func (s *Scanner) Token(t Tok) Token {
	end := s.End(t)
	off := s.Off(t)
	return Token{Kind: t.Kind, Text: s.Text(t), Raw: s.text[off:end], Pos: s.pos(off), End: s.pos(end)}
}

// Next returns the next token.
func (s *Scanner) Next() Token {
	if len(s.pending) == 0 {
		// Reuse the queue's array: re-slicing from the front alone would
		// leave it no room, and every token would allocate a new one.
		s.pending = s.pendBuf[:0]
	}
	for len(s.pending) == 0 {
		s.scan()
		s.pendBuf = s.pending
	}
	t := s.pending[0]
	s.pending = s.pending[1:]
	return s.Token(t)
}

// emit queues a token; text is a STRING's decoded value (the other kinds'
// texts are their spellings, or "").
func (s *Scanner) emit(k Kind, start, end int, text string) {
	s.emitCode(k, 0, start, end, text)
}

// emitCode is emit for a token of code c (an operator's or a keyword's).
func (s *Scanner) emitCode(k Kind, c Code, start, end int, text string) {
	t := Tok{off: uint32(start), n: uint16(end - start), Kind: k, code: c}
	if k == STRING || end-start > math.MaxUint16 || end > math.MaxUint32 {
		if k != STRING {
			text = s.text[start:end]
		} else {
			s.nStrs++
		}
		t.off, t.code = uint32(len(s.long)), Long
		if s.long == nil {
			s.long = make([]longTok, 0, 8) // not one growth per doubling from 1
		}
		s.long = append(s.long, longTok{text, start, end})
	}
	if s.grow && len(s.pending) == cap(s.pending) {
		s.growPending()
	}
	s.pending = append(s.pending, t)
	switch k {
	case NAME:
		if c == 0 {
			s.nNames++
		}
	case INT:
		s.nInts++
	}
	if k != NEWLINE && k != INDENT && k != DEDENT && k != EOF {
		s.lineHas = true
	}
}

// scan produces at least one pending token.
func (s *Scanner) scan() {
	if s.done {
		s.emit(EOF, len(s.src), len(s.src), "")
		return
	}
	if s.atBOL && len(s.parens) == 0 {
		if s.indentation() {
			return
		}
	}
	s.skipSpace()
	if s.off >= len(s.src) {
		s.finish()
		return
	}
	c := s.src[s.off]
	start := s.off
	switch {
	case c == '#':
		s.comment(false)
		return
	case c == '\n' || c == '\r':
		s.off++
		if c == '\r' && s.off < len(s.src) && s.src[s.off] == '\n' {
			s.off++
		}
		if len(s.parens) == 0 {
			if s.lineHas {
				s.emit(NEWLINE, start, start, "")
				s.lineHas = false
			}
			s.atBOL = true
		}
		return
	case c == '\\' && s.off+1 < len(s.src) && (s.src[s.off+1] == '\n' || s.src[s.off+1] == '\r'):
		s.off += 2
		if s.src[s.off-1] == '\r' && s.off < len(s.src) && s.src[s.off] == '\n' {
			s.off++
		}
		return
	case isLetter(c):
		s.off++
		for s.off < len(s.src) && identByte[s.src[s.off]] {
			s.off++
		}
		var c Code
		if s.kw != nil && s.off-start <= math.MaxUint16 {
			c = s.kw.lookup(s.text[start:s.off])
		}
		s.emitCode(NAME, c, start, s.off, "")
		return
	case isDigit(c) || (c == '.' && s.off+1 < len(s.src) && isDigit(s.src[s.off+1])):
		s.number()
		return
	case c == '"' || c == '\'':
		s.str()
		return
	}
	s.operator()
}

// indentation handles the start of a logical line. It returns true if it
// emitted tokens or consumed a blank line.
func (s *Scanner) indentation() bool {
	// Indentation is mostly spaces, half the bytes of a kernel: count
	// them in a tight loop first.
	// Eight at a time while they last (stop 32: kernels indent 8 to 24
	// spaces, and byte by byte this loop was a tenth of scanning).
	i := s.off
	for i+8 <= len(s.src) && binary.LittleEndian.Uint64(s.src[i:]) == 0x2020202020202020 {
		i += 8
	}
	for i < len(s.src) && s.src[i] == ' ' {
		i++
	}
	col := i - s.off
	for i < len(s.src) {
		switch s.src[i] {
		case ' ':
			col++
		case '\t':
			col = (col/8 + 1) * 8
		case '\f':
			col = 0
		default:
			goto done
		}
		i++
	}
done:
	s.off = i
	if i >= len(s.src) {
		s.atBOL = false
		return false
	}
	switch s.src[i] {
	case '#':
		s.comment(true)
		return true
	case '\n', '\r':
		s.off++
		if s.src[i] == '\r' && s.off < len(s.src) && s.src[s.off] == '\n' {
			s.off++
		}
		return true
	case '\\':
		if i+1 < len(s.src) && (s.src[i+1] == '\n' || s.src[i+1] == '\r') {
			return false // continuation of nothing: treat as a normal line start
		}
	}
	s.atBOL = false
	top := s.indents[len(s.indents)-1]
	switch {
	case col > top:
		s.indents = append(s.indents, col)
		s.emit(INDENT, i, i, "")
	case col < top:
		for len(s.indents) > 1 && col < s.indents[len(s.indents)-1] {
			s.indents = s.indents[:len(s.indents)-1]
			s.emit(DEDENT, i, i, "")
		}
		if col != s.indents[len(s.indents)-1] {
			s.errorf(i, ErrDedent, "unindent does not match any outer indentation level")
			s.indents = append(s.indents, col)
		}
	default:
		return false
	}
	return true
}

func (s *Scanner) comment(own bool) {
	start := s.off
	// To the line's end by IndexByte, not byte by byte: comments are a
	// third to two thirds of a small kernel's bytes (issue 13).
	rest := s.src[s.off:]
	n := bytes.IndexByte(rest, '\n')
	if n < 0 {
		n = len(rest)
	}
	// A '\r' ends it too. Whether the rest of the file has one is asked
	// once, at the first comment (offsets only grow, so "none after the
	// first comment" holds for every later one), not over each comment
	// again (stop 41).
	if !s.crChecked {
		s.crChecked, s.noCR = true, bytes.IndexByte(rest, '\r') < 0
	}
	if !s.noCR {
		if r := bytes.IndexByte(rest[:n], '\r'); r >= 0 {
			n = r
		}
	}
	s.off += n
	// strings.TrimRight(text, " \t") by hand: the text starts with '#'.
	end := s.off
	for s.src[end-1] == ' ' || s.src[end-1] == '\t' {
		end--
	}
	s.Comments = append(s.Comments, Comment{Text: s.text[start:end], Pos: s.pos(start), Own: own})
}

func (s *Scanner) skipSpace() {
	for s.off < len(s.src) && s.src[s.off] == ' ' {
		s.off++
	}
	for s.off < len(s.src) {
		switch s.src[s.off] {
		case ' ', '\t', '\f':
			s.off++
		default:
			return
		}
	}
}

func (s *Scanner) finish() {
	if s.lineHas {
		s.emit(NEWLINE, len(s.src), len(s.src), "")
		s.lineHas = false
	}
	for len(s.parens) > 0 {
		s.errorf(len(s.src), ErrUnbalanced, "unclosed %q at end of file", string(s.parens[len(s.parens)-1]))
		s.parens = s.parens[:len(s.parens)-1]
	}
	for len(s.indents) > 1 {
		s.indents = s.indents[:len(s.indents)-1]
		s.emit(DEDENT, len(s.src), len(s.src), "")
	}
	s.done = true
	s.emit(EOF, len(s.src), len(s.src), "")
}

func (s *Scanner) number() {
	start := s.off
	isFloat := false
	if s.src[s.off] == '0' && s.off+1 < len(s.src) && (s.src[s.off+1]|0x20 == 'x' || s.src[s.off+1]|0x20 == 'b' || s.src[s.off+1]|0x20 == 'o') {
		s.off += 2
		for s.off < len(s.src) && (isHex(s.src[s.off]) || s.src[s.off] == '_') {
			s.off++
		}
	} else {
		s.digits()
		if s.off < len(s.src) && s.src[s.off] == '.' && !(s.off+1 < len(s.src) && s.src[s.off+1] == '.') {
			isFloat = true
			s.off++
			s.digits()
		}
		if s.off < len(s.src) && s.src[s.off]|0x20 == 'e' {
			j := s.off + 1
			if j < len(s.src) && (s.src[j] == '+' || s.src[j] == '-') {
				j++
			}
			if j < len(s.src) && isDigit(s.src[j]) {
				isFloat = true
				s.off = j
				s.digits()
			}
		}
	}
	// A number glued to letters (e.g. 12ab) is one malformed token.
	bad := false
	for s.off < len(s.src) && (isLetter(s.src[s.off]) || isDigit(s.src[s.off])) {
		s.off++
		bad = true
	}
	text := s.text[start:s.off]
	if bad {
		s.errorf(start, ErrBadNumber, "malformed number %q", text)
	}
	if isFloat {
		s.emit(FLOAT, start, s.off, "")
	} else {
		s.emit(INT, start, s.off, "")
	}
}

func (s *Scanner) digits() {
	for s.off < len(s.src) && (isDigit(s.src[s.off]) || s.src[s.off] == '_') {
		s.off++
	}
}

func (s *Scanner) str() {
	start := s.off
	q := s.src[s.off]
	triple := s.off+2 < len(s.src) && s.src[s.off+1] == q && s.src[s.off+2] == q
	if triple {
		s.off += 3
	} else {
		s.off++
		// A one-line string without escapes (nearly all: names of warp
		// configs and timelines) is its spelling's substring, not a copy
		// built byte by byte (issue 13).
		for j := s.off; j < len(s.src); j++ {
			c := s.src[j]
			if c == q {
				s.emit(STRING, start, j+1, s.text[s.off:j])
				s.off = j + 1
				return
			}
			if c == '\\' || c == '\n' || c == '\r' {
				break
			}
		}
	}
	var b strings.Builder
	for {
		if s.off >= len(s.src) || (!triple && (s.src[s.off] == '\n' || s.src[s.off] == '\r')) {
			s.errorf(start, ErrUnterminated, "string literal not terminated")
			s.emit(STRING, start, s.off, b.String())
			return
		}
		c := s.src[s.off]
		if c == q {
			if !triple {
				s.off++
				break
			}
			if s.off+2 < len(s.src) && s.src[s.off+1] == q && s.src[s.off+2] == q {
				s.off += 3
				break
			}
		}
		if c == '\\' && s.off+1 < len(s.src) {
			s.off++
			switch e := s.src[s.off]; e {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case '\\', '\'', '"':
				b.WriteByte(e)
			case '\n':
			default:
				b.WriteByte('\\')
				b.WriteByte(e)
			}
			s.off++
			continue
		}
		b.WriteByte(c)
		s.off++
	}
	s.emit(STRING, start, s.off, b.String())
}

func (s *Scanner) operator() {
	start := s.off
	for _, code := range opsByFirst[s.src[s.off]] {
		// The first byte matches; a one-byte operator is the last
		// candidate, so it matches outright.
		op := opText[code]
		if len(op) == 1 || len(op) <= len(s.src)-s.off && s.text[s.off+1:s.off+len(op)] == op[1:] {
			s.off += len(op)
			if len(op) == 1 {
				switch c := op[0]; c {
				case '(', '[', '{':
					s.parens = append(s.parens, c)
				case ')', ']', '}':
					want := byte('(')
					switch c {
					case ']':
						want = '['
					case '}':
						want = '{'
					}
					if len(s.parens) == 0 || s.parens[len(s.parens)-1] != want {
						s.errorf(start, ErrUnbalanced, "unexpected %q", op)
					} else {
						s.parens = s.parens[:len(s.parens)-1]
					}
				}
			}
			s.emitCode(OP, code, start, s.off, "")
			return
		}
	}
	c := s.src[s.off]
	s.off++
	if c >= 0x80 {
		// Skip the rest of a UTF-8 sequence so one character gives one error.
		for s.off < len(s.src) && s.src[s.off]&0xC0 == 0x80 {
			s.off++
		}
	}
	s.errorf(start, ErrBadChar, "unexpected character %q", string(s.src[start:s.off]))
}

func isLetter(c byte) bool { return c == '_' || (c|0x20 >= 'a' && c|0x20 <= 'z') }

// identByte is isLetter || isDigit as a table: the scanner's loop over
// the bytes of a name.
var identByte = func() (t [256]bool) {
	for c := range 256 {
		t[c] = isLetter(byte(c)) || isDigit(byte(c))
	}
	return t
}()

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isHex(c byte) bool   { return isDigit(c) || (c|0x20 >= 'a' && c|0x20 <= 'f') }
