package pyscan

import (
	"encoding/binary"
	"math"
	"math/bits"
	"strings"
	"unsafe"
)

// Byte classes of fastLoop: one jump-table switch per token instead of a
// chain of byte compares.
const (
	clSlow    = iota // everything scan handles: strings, comments, tabs, other operators, errors
	clLetter         // a name's first byte
	clDigit          // a number's first byte
	clOpen           // ( [
	clClose          // ) ]
	clSingle         // , ; @ ~ (operators of one byte that start no longer one)
	clOp1            // : = * + - . (one byte unless the next makes a longer operator)
	clNewline        // \n
	clSpace          // ' '
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
		case len(opsByFirst[c]) == 1 && len(opText[opsByFirst[c][0]]) == 1 && b != '{' && b != '}':
			// , ; @ ~ (derived from the operator table, so that a new
			// operator such as "@=" moves its first byte out).
			t[c] = clSingle
		case b == ':' || b == '=' || b == '*' || b == '+' || b == '-' || b == '.':
			t[c] = clOp1
		case b == '\n':
			t[c] = clNewline
		case b == ' ':
			t[c] = clSpace
		}
	}
	return t
}()

// scanAll scans the whole file into s.pending, ending with EOF, as
// repeated calls of scan do: each line's start and runs of the commonest
// tokens by lines, each other token (and every line start lineStart
// leaves) by scan.
func (s *Scanner) scanAll() {
	s.lineEnd = strings.LastIndexByte(s.text, '\n') + 1
	for !s.done {
		if tokWords {
			s.lines()
		} else if s.atBOL && len(s.parens) == 0 {
			pend := s.pending[:cap(s.pending)]
			off, n, ok := s.lineStart(pend, s.off, len(s.pending))
			s.off, s.pending, s.atBOL = off, pend[:n], !ok
		}
		s.scan()
	}
}

// lines scans line after line, the tokens of each and the start of the
// next (NEWLINE, INDENT, DEDENT; blank lines) by fastLoop, the line
// starts fastLoop leaves (own-line comments, and the first line start)
// by lineStart, with the state they pass on (the offset, the tokens'
// array and count, whether the line has a token, the name and integer
// counts) in its own variables, until a byte or a line start that scan
// must see: the scanner is then left as scan would have left it there.
// Stop 42's scanAll took each line start by lineStart and each line's
// tokens by fastRun (then fastLoop), which loaded and stored that state
// in the scanner each time: some 250 instructions a line before its
// first token, 60 now (stop 43). TestLineStart, TestToksNext,
// TestFastRunRoom, TestFastLoopBound and FuzzCodes compare its tokens
// with scan's.
func (s *Scanner) lines() {
	pend := s.pending[:cap(s.pending)]
	// The tokens as words over pend's array (tokWords).
	toks := unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(pend))), len(pend))
	n, off, lineHas, atBOL := len(s.pending), s.off, s.lineHas, s.atBOL
	// The source up to its last line end (fastLoop's bound).
	src := s.text[:s.lineEnd]
	names, ints := 0, 0
	for {
		if atBOL && len(s.parens) == 0 {
			var ok bool
			if off, n, ok = s.lineStart(pend, off, n); !ok {
				break // scan's line start
			}
			atBOL = false
		}
		if n == len(toks) {
			s.pending, s.off = pend[:n], off
			s.growPending()
			pend = s.pending[:cap(s.pending)]
			toks = unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(pend))), len(pend))
		}
		var pb, counts uint64
		var depth int
		n, off, pb, depth, counts, atBOL, lineHas = fastLoop(src, toks, n, off, s.kw, &s.indents, lineHas, len(s.parens) > 0)
		names += int(uint32(counts))
		ints += int(counts >> 32)
		// The brackets the run opened and left open, outermost first.
		for i := depth - 1; i >= 0; i-- {
			b := byte('(')
			if pb>>i&1 != 0 {
				b = '['
			}
			s.parens = append(s.parens, b)
		}
		// At a line start fastLoop leaves to lineStart, or with no room
		// left: go on; else the run stopped at a byte of scan's.
		if !atBOL && n < len(toks) {
			break
		}
	}
	s.pending, s.off, s.lineHas, s.atBOL = pend[:n], off, lineHas, atBOL
	s.nNames += names
	s.nInts += ints
}

// lineStart is scan's work at the start of a logical line (indentation)
// in the common case, without scan's calls and tests: from off, it skips
// blank lines and own-line comments, then reads an indentation of spaces
// alone and writes the INDENT or DEDENTs it makes into pend from n,
// returning the offset of the line's first token, the next n and true,
// as indentation and its callers do (the caller then clears atBOL). It
// returns false, having consumed only whole lines (the offset returned
// is where scan starts again, atBOL still true), at anything else: a tab
// or form feed in the indentation, a '\r', a line continuation, the end
// of the file, an indentation stack or pend without room for one more
// token, or a dedent that matches no outer level (an error,
// indentation's to report). The indentation was a tenth of scanning a
// small kernel, and every line start went through scan, its skipSpace
// and its slow path for the line's first token, some 200 instructions a
// line (stop 41, issue 13). TestLineStart and FuzzCodes compare its
// tokens with scan's.
func (s *Scanner) lineStart(pend []Tok, off, n int) (int, int, bool) {
	src := s.src
	for {
		i := spacesEnd(src, off)
		if i >= len(src) {
			return off, n, false
		}
		switch src[i] {
		case '\n':
			// A blank line: indentation consumes it.
			off = i + 1
			continue
		case '#':
			// An own-line comment: indentation reads it; its line end
			// is the blank line above on the next round.
			s.off = i
			s.comment(true)
			off = s.off
			continue
		case '\t', '\f', '\r', '\\':
			return off, n, false
		}
		col := i - off
		top := s.indents[len(s.indents)-1]
		switch {
		case col > top:
			if len(s.indents) == cap(s.indents) || n == len(pend) {
				return off, n, false
			}
			s.indents = append(s.indents, col)
			pend[n] = Tok{off: uint32(i), Kind: INDENT}
			n++
		case col < top:
			// The levels it closes, counted first: a dedent to no outer
			// level is indentation's error, from an untouched stack.
			j := len(s.indents) - 1
			for j > 0 && col < s.indents[j] {
				j--
			}
			d := len(s.indents) - 1 - j
			if col != s.indents[j] || len(pend)-n < d {
				return off, n, false
			}
			s.indents = s.indents[:j+1]
			for range d {
				pend[n] = Tok{off: uint32(i), Kind: DEDENT}
				n++
			}
		}
		return i, n, true
	}
}

// spacesEnd returns the offset of the first byte from i on that is not a
// space (len(src) if none): eight bytes at a time, the first other byte
// of a word found by its lowest nonzero byte after an exclusive or with
// spaces (kernels indent 8 to 28 spaces; the last few, byte by byte,
// were a third of lineStart, stop 41).
func spacesEnd(src []byte, i int) int {
	for i+8 <= len(src) {
		if x := binary.LittleEndian.Uint64(src[i:]) ^ 0x2020202020202020; x != 0 {
			return i + bits.TrailingZeros64(x)>>3
		}
		i += 8
	}
	for i < len(src) && src[i] == ' ' {
		i++
	}
	return i
}

// Tok words (stop 41): fastLoop writes each token as one 8-byte word, the
// Tok's fields in their memory order (off, n, Kind, code: Go lays a
// struct's fields out in order, each here at its own alignment), where
// the four field stores, their addresses and the registers they held
// took some 17 instructions a token. tokWord builds the word; tokWords
// says whether a word stored over a Tok reads back as the fields it
// encodes (a little-endian machine): where not, Toks leaves fastLoop out
// and scan makes every token.
func tokWord(off, n int, k Kind, c Code) uint64 {
	return uint64(uint32(off)) | uint64(uint16(n))<<32 | uint64(k)<<48 | uint64(c)<<56
}

var tokWords = func() bool {
	want := Tok{off: 0x01020304, n: 0x0506, Kind: 0x07, code: 0x08}
	return unsafe.Sizeof(want) == 8 && wordTok(tokWord(0x01020304, 0x0506, 0x07, 0x08)) == want
}()

// opWord is the word of the one-byte operator token of each byte, less
// its offset (fastLoop's operators).
var opWord = func() (t [256]uint64) {
	for c := range 256 {
		if code := op1[c]; code != OpNone {
			t[c] = tokWord(0, 1, OP, code)
		}
	}
	return t
}()

// fastLoop scans the commonest tokens in the middle of a line (names,
// integers, brackets, commas, one-byte operators, line ends, the spaces
// between them) into toks, as scan would, until a byte that is not one
// of them, a line end, a full toks or a closing bracket of one opened
// before the run. It calls nothing but the keyword lookup of the few
// names that may be keywords and keeps its state in locals: the loop of
// stop 32, with calls of scan and growPending inside, kept the Go
// compiler from holding its variables in registers and took some 110
// instructions a token (stop 33, issue 13). Stop 35: the tokens are
// written by index into their array's full capacity, not appended: the
// loop checks the room before each token already, and append's growth
// path (a call, never taken) made the compiler spill and reload the
// loop's state around it. Stop 41: the brackets the run opens are bits
// of a word, not bytes of s.parens (three values fewer in the loop's
// registers), pushed onto s.parens by lines when it ends; and it is a
// function of its own with only the values it needs: inside its caller,
// the Go compiler kept the scanner, the bracket stack and the run's
// start in registers across the loop and spilled and reloaded them on
// every round.
//
// It scans from off into toks from n and returns the next n and off;
// the brackets it opened and left open, depth of them, as bits of pb
// (the innermost lowest; 1: '[', 0: '('); the NAME tokens it made that
// spell no keyword in the low half of counts, the INT tokens in the
// high half; whether it stopped at a line start it leaves to lineStart
// (bol: off is that line's start, its NEWLINE made); and whether the
// line it stopped in has a token (lineHas2; false at bol). lineHas says
// whether the line it starts in had a token before the run (then the
// line's NEWLINE is due at its end), outer whether brackets opened
// before the run are open (then a line end continues the line, as one
// inside its own brackets does); indents is the scanner's indentation
// stack. A closing bracket of one opened before the run (depth 0) is
// scan's, as is every closing bracket that does not match (its error).
//
// src ends with a line end, or is empty (lines passes the source up to
// its last '\n'; the rest, a last line without one, is scan's): a name,
// a number or an operator other than '\n' is never its last byte, so
// the byte after one is in src, and a name's or a number's bytes end at
// the '\n' at the latest, neither an identifier byte nor a digit. Its
// loads (srcAt) and the token stores (n < len(toks), the loop's test)
// then need no bounds checks: the name loop took eight instructions a
// byte, a length test among them, and each token two more for the
// store's check (stop 42).
func fastLoop(src string, toks []uint64, n, off int, kw *Keywords, indents *[]int, lineHas, outer bool) (n2, off2 int, pb uint64, depth int, counts uint64, bol, lineHas2 bool) {
	// The current line's tokens are those from ls on (-1: it had one
	// before the run).
	ls := n
	if lineHas {
		ls = -1
	}
loop:
	for n < len(toks) && off < len(src) {
		c := srcAt(src, off)
		end := off + 1
		var w uint64
		switch byteClass[c] {
		case clSpace:
			off = end
			continue
		case clLetter:
			for identByte[srcAt(src, end)] {
				end++
			}
			if end-off > math.MaxUint16 {
				break loop
			}
			counts++
			var code Code
			if kw != nil && kw.maybe(c, end-off) {
				if code = kw.lookup(src[off:end]); code != 0 {
					counts-- // a keyword (Counts)
				}
			}
			w = tokWord(0, end-off, NAME, code)
		case clDigit:
			for isDigit(srcAt(src, end)) {
				end++
			}
			if c2 := srcAt(src, end); identByte[c2] || c2 == '.' || end-off > math.MaxUint16 {
				break loop // a float, a base prefix, an underscore, a malformed or a very long number
			}
			counts += 1 << 32
			w = tokWord(0, end-off, INT, 0)
		case clOpen:
			if depth == 64 {
				break loop // no room in pb: scan's
			}
			pb = pb<<1 | uint64(c>>6&1) // '[' is 0x5b, '(' 0x28: bit 6
			depth++
			w = opWord[c]
		case clClose:
			// ']' is 0x5d, ')' 0x29: bit 6 tells them apart as it does
			// their openers.
			if depth == 0 || pb&1 != uint64(c>>6&1) {
				break loop // the error, or a bracket of before the run: scan's
			}
			pb >>= 1
			depth--
			w = opWord[c]
		case clSingle:
			w = opWord[c]
		case clOp1:
			// One byte, unless the next makes a longer operator (or
			// ".5" a number): those are scan's.
			switch c2 := srcAt(src, end); {
			case c2 == '=', c == '*' && c2 == '*', c == '-' && c2 == '>', c == '.' && (c2 == '.' || isDigit(c2)):
				break loop
			}
			w = opWord[c]
		case clNewline:
			off = end
			if depth != 0 || outer {
				continue // a line end inside brackets
			}
			// The NEWLINE of a line with a token (room: the loop's
			// test, before the line end was read), then the next
			// line's start, as lineStart takes it but for blank lines
			// alone: at an own-line comment, a tab, a form feed, a
			// '\r', a line continuation, the end of src, no room or a
			// dedent to no outer level, lineStart (then scan) takes
			// the line from its start (bol). Here, with the loop's
			// state in registers, a line start took some 50
			// instructions where lineStart's call and fastLoop's return
			// and call again took some 250 (stop 43).
			if n > ls {
				*(*uint64)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(toks)), uintptr(n)*8)) = tokWord(off-1, 0, NEWLINE, 0)
				n++
			}
			ls = n
			for {
				i := spacesEnd(unsafe.Slice(unsafe.StringData(src), len(src)), off)
				if i >= len(src) {
					bol = true
					break loop
				}
				switch srcAt(src, i) {
				case '\n':
					off = i + 1 // a blank line
					continue
				case '#', '\t', '\f', '\r', '\\':
					bol = true
					break loop
				}
				col := i - off
				ind := *indents
				top := ind[len(ind)-1]
				switch {
				case col > top:
					if len(ind) == cap(ind) || n == len(toks) {
						bol = true
						break loop
					}
					ind = ind[:len(ind)+1]
					ind[len(ind)-1] = col
					*indents = ind
					toks[n] = tokWord(i, 0, INDENT, 0)
					n++
				case col < top:
					// The levels it closes, counted first: a dedent to
					// no outer level is indentation's error, from an
					// untouched stack.
					j := len(ind) - 1
					for j > 0 && col < ind[j] {
						j--
					}
					d := len(ind) - 1 - j
					if col != ind[j] || len(toks)-n < d {
						bol = true
						break loop
					}
					*indents = ind[:j+1]
					for range d {
						toks[n] = tokWord(i, 0, DEDENT, 0)
						n++
					}
				}
				off = i
				ls = n
				continue loop
			}
		default:
			break loop
		}
		*(*uint64)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(toks)), uintptr(n)*8)) = uint64(uint32(off)) | w
		n++
		off = end
		// The space after a token (a kernel's "a, b", "x = y"), skipped
		// here rather than by a round of the loop of its own.
		if srcAt(src, off) == ' ' {
			off++
		}
	}
	return n, off, pb, depth, counts, bol, n > ls && !bol
}

// srcAt is src[i] without the bounds check, for an i fastLoop knows is
// in range (its comment says why).
func srcAt(src string, i int) byte {
	return *(*byte)(unsafe.Add(unsafe.Pointer(unsafe.StringData(src)), i))
}

// wordTok is the Tok of word w (tokWords): the tests' reading of fastLoop's
// words.
func wordTok(w uint64) (t Tok) {
	*(*uint64)(unsafe.Pointer(&t)) = w
	return t
}
