package pyscan

import "math"

// Byte classes of fastRun: one jump-table switch per token instead of a
// chain of byte compares.
const (
	clSlow    = iota // everything scan handles: strings, comments, tabs, other operators, errors
	clLetter         // a name's first byte
	clDigit          // a number's first byte
	clOpen           // ( [
	clClose          // ) ]
	clComma          // ,
	clOp1            // : = * + - . (one byte unless the next makes a longer operator)
	clNewline        // \n
)

var byteClass = func() (t [256]uint8) {
	for c := range 256 {
		switch b := byte(c); {
		case isLetter(b):
			t[c] = clLetter
		case isDigit(b):
			t[c] = clDigit
		case b == '(' || b == '[':
			t[c] = clOpen
		case b == ')' || b == ']':
			t[c] = clClose
		case b == ',':
			t[c] = clComma
		case b == ':' || b == '=' || b == '*' || b == '+' || b == '-' || b == '.':
			t[c] = clOp1
		case b == '\n':
			t[c] = clNewline
		}
	}
	return t
}()

// scanAll scans the whole file into s.pending, ending with EOF, as
// repeated calls of scan do: runs of the commonest tokens by fastRun,
// each other token (and every line start) by scan.
func (s *Scanner) scanAll() {
	for !s.done {
		if !s.atBOL || len(s.parens) > 0 {
			if len(s.pending) == cap(s.pending) {
				s.growPending()
			}
			if s.fastRun() {
				continue
			}
		}
		s.scan()
	}
}

// fastRun scans the commonest tokens in the middle of a line (names,
// integers, brackets, commas, one-byte operators, line ends, the spaces
// between them) into s.pending, as scan would, until a byte that is not
// one of them, a line end, a full s.pending or a full bracket stack; it
// reports whether it stopped at a line end or for room in s.pending
// rather than at a byte scan must see. It calls nothing and keeps its
// state in locals, stored back once: the loop of stop 32, with calls of
// scan and growPending inside, kept the Go compiler from holding its
// variables in registers and took some 110 instructions a token (stop
// 33, issue 13). TestToksNext and FuzzCodes compare its tokens with
// scan's.
func (s *Scanner) fastRun() (room bool) {
	src := s.src
	toks := s.pending
	parens := s.parens
	off, lineHas, atBOL := s.off, s.lineHas, s.atBOL
	kw := s.kw
	names, ints := 0, 0
loop:
	for {
		if len(toks) == cap(toks) {
			room = true
			break
		}
		for off < len(src) && src[off] == ' ' {
			off++
		}
		if off >= len(src) {
			break
		}
		c := src[off]
		end := off + 1
		var k Kind
		var code Code
		switch byteClass[c] {
		case clLetter:
			for end < len(src) && identByte[src[end]] {
				end++
			}
			if end-off > math.MaxUint16 {
				break loop
			}
			k = NAME
			names++
			if kw != nil {
				code = kw.lookupBytes(src[off:end])
			}
		case clDigit:
			for end < len(src) && isDigit(src[end]) {
				end++
			}
			if end < len(src) && (identByte[src[end]] || src[end] == '.') || end-off > math.MaxUint16 {
				break loop // a float, a base prefix, an underscore, a malformed or a very long number
			}
			k = INT
			ints++
		case clOpen:
			if len(parens) == cap(parens) {
				break loop // scan's append grows the stack
			}
			parens = append(parens, c)
			k, code = OP, op1[c]
		case clClose:
			want := byte('(')
			if c == ']' {
				want = '['
			}
			if len(parens) == 0 || parens[len(parens)-1] != want {
				break loop // the error is scan's
			}
			parens = parens[:len(parens)-1]
			k, code = OP, op1[c]
		case clComma:
			k, code = OP, OpComma
		case clOp1:
			// One byte, unless the next makes a longer operator (or
			// ".5" a number): those are scan's.
			if end < len(src) {
				switch c2 := src[end]; {
				case c2 == '=', c == '*' && c2 == '*', c == '-' && c2 == '>', c == '.' && (c2 == '.' || isDigit(c2)):
					break loop
				}
			}
			k, code = OP, op1[c]
		case clNewline:
			off = end
			if len(parens) == 0 {
				if lineHas {
					toks = append(toks, Tok{off: uint32(off - 1), Kind: NEWLINE})
					lineHas = false
				}
				atBOL = true
				break loop // the next line's indentation is scan's
			}
			continue
		default:
			break loop
		}
		toks = append(toks, Tok{off: uint32(off), n: uint16(end - off), Kind: k, code: code})
		lineHas = true
		off = end
	}
	s.pending, s.parens = toks, parens
	s.off, s.lineHas, s.atBOL = off, lineHas, atBOL
	s.nNames += names
	s.nInts += ints
	return room || atBOL
}
