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
// 33, issue 13). Stop 35: the tokens and the bracket stack are written by
// index into their arrays' full capacity, not appended: the loop checks
// the room before each token already, and append's growth path (a call,
// never taken) made the compiler spill and reload the loop's state
// around it. TestToksNext and FuzzCodes compare its tokens with scan's.
// The index n is the number of tokens: toks[:n] is what s.pending holds.
func (s *Scanner) fastRun() (room bool) {
	src := s.src
	toks := s.pending[:cap(s.pending)]
	n := len(s.pending)
	parens := s.parens[:cap(s.parens)]
	np := len(s.parens)
	off, lineHas, atBOL := s.off, s.lineHas, s.atBOL
	kw := s.kw
	names, ints := 0, 0
loop:
	for {
		if n == len(toks) {
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
			if np == len(parens) {
				break loop // scan's append grows the stack
			}
			parens[np] = c
			np++
			k, code = OP, op1[c]
		case clClose:
			want := byte('(')
			if c == ']' {
				want = '['
			}
			if np == 0 || parens[np-1] != want {
				break loop // the error is scan's
			}
			np--
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
			if np == 0 {
				if lineHas {
					toks[n] = Tok{off: uint32(off - 1), Kind: NEWLINE}
					n++
					lineHas = false
				}
				atBOL = true
				break loop // the next line's indentation is scan's
			}
			continue
		default:
			break loop
		}
		toks[n] = Tok{off: uint32(off), n: uint16(end - off), Kind: k, code: code}
		n++
		lineHas = true
		off = end
	}
	s.pending, s.parens = toks[:n], parens[:np]
	s.off, s.lineHas, s.atBOL = off, lineHas, atBOL
	s.nNames += names
	s.nInts += ints
	return room || atBOL
}
