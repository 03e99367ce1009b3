package syntax

import (
	"fmt"
	"strconv"
	"strings"
)

// Token kinds.
type tok int

const (
	tEOF tok = iota
	tIdent
	tNat
	tInt
	tPunct   // operators and delimiters; text in lit
	tKeyword // Fix struct if then null this Nat Int Bool true false
	tString
	tCpp // a `$$` line: lit is the text after `$$` up to the end of the line
)

// keywords of the concrete grammar (spec §2.3). `String` is listed so that a
// String type gets the "strings are not supported" diagnostic.
var keywords = map[string]bool{
	"Fix": true, "struct": true, "if": true, "then": true, "null": true, "this": true,
	"Nat": true, "Int": true, "Bool": true, "true": true, "false": true, "String": true,
}

type token struct {
	kind tok
	pos  Pos
	lit  string
}

func (t token) String() string {
	switch t.kind {
	case tEOF:
		return "end of file"
	case tIdent:
		return fmt.Sprintf("identifier %s", t.lit)
	case tNat, tInt:
		return fmt.Sprintf("number %s", t.lit)
	case tString:
		return "string literal"
	case tCpp:
		return "inline C++ ($$) line"
	}
	return fmt.Sprintf("%q", t.lit)
}

// scanner turns source bytes into tokens. It is driven by the parser one
// token at a time; prevOperand tells it whether a '-' before a digit starts
// a negative literal (spec §2.3: INT = -[1-9][0-9]*, no unary minus).
type scanner struct {
	src      []byte
	off      int
	err      func(pos Pos, code, format string, args ...any)
	comments []Comment
}

// comment records the comment src[start:s.off].
func (s *scanner) comment(start int) {
	trailing := false
	for i := start - 1; i >= 0 && s.src[i] != '\n'; i-- {
		if c := s.src[i]; c != ' ' && c != '\t' && c != '\r' {
			trailing = true
			break
		}
	}
	s.comments = append(s.comments, Comment{Pos: start, Text: string(s.src[start:s.off]), Trailing: trailing})
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }

// skip skips whitespace and comments; it reports an unterminated block
// comment and returns false.
func (s *scanner) skip() bool {
	for s.off < len(s.src) {
		c := s.src[s.off]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			s.off++
		case c == '/' && s.off+1 < len(s.src) && s.src[s.off+1] == '/':
			start := s.off
			for s.off < len(s.src) && s.src[s.off] != '\n' {
				s.off++
			}
			for s.off > start+2 && (s.src[s.off-1] == '\r' || s.src[s.off-1] == ' ' || s.src[s.off-1] == '\t') {
				s.off-- // trailing blanks are not part of the comment
			}
			s.comment(start)
		case c == '/' && s.off+1 < len(s.src) && s.src[s.off+1] == '*':
			start := s.off
			s.off += 2
			for {
				if s.off+1 >= len(s.src) {
					s.err(start, "A0103", "unterminated /* comment")
					s.off = len(s.src)
					return false
				}
				if s.src[s.off] == '*' && s.src[s.off+1] == '/' {
					s.off += 2
					s.comment(start)
					break
				}
				s.off++
			}
		default:
			return true
		}
	}
	return true
}

// next returns the next token; ok is false after a lexical error (already
// reported).
func (s *scanner) next(prevOperand bool) (token, bool) {
	if !s.skip() {
		return token{kind: tEOF, pos: len(s.src)}, false
	}
	if s.off >= len(s.src) {
		return token{kind: tEOF, pos: len(s.src)}, true
	}
	start := s.off
	c := s.src[s.off]
	switch {
	case isLetter(c):
		// ID = [a-zA-Z][a-zA-Z0-9_]*(\.[a-zA-Z][a-zA-Z0-9_]*)* is one token.
		for {
			for s.off < len(s.src) && (isLetter(s.src[s.off]) || isDigit(s.src[s.off]) || s.src[s.off] == '_') {
				s.off++
			}
			if s.off+1 < len(s.src) && s.src[s.off] == '.' && isLetter(s.src[s.off+1]) {
				s.off++
				continue
			}
			break
		}
		lit := string(s.src[start:s.off])
		if keywords[lit] {
			return token{kind: tKeyword, pos: start, lit: lit}, true
		}
		return token{kind: tIdent, pos: start, lit: lit}, true
	case isDigit(c) || (c == '-' && !prevOperand && s.off+1 < len(s.src) && isDigit(s.src[s.off+1])):
		kind := tNat
		if c == '-' {
			kind = tInt
			s.off++
		}
		for s.off < len(s.src) && isDigit(s.src[s.off]) {
			s.off++
		}
		lit := string(s.src[start:s.off])
		if digits := strings.TrimPrefix(lit, "-"); len(digits) > 1 && digits[0] == '0' || digits == "0" && kind == tInt {
			// The concrete grammar has NAT = 0|[1-9][0-9]* and INT =
			// -[1-9][0-9]* (spec §2.3; settled for issue 17): no leading
			// zeros, which C and CUDA, where AuDaLaC copies literals,
			// would read as octal (010 is 8), and no -0.
			s.err(start, "A0101", "malformed number %s: NAT is 0 or has no leading zero, INT is - followed by a nonzero digit", lit)
			return token{}, false
		}
		if s.off < len(s.src) && (isLetter(s.src[s.off]) || s.src[s.off] == '_') {
			s.err(start, "A0101", "malformed number %s%c", lit, s.src[s.off])
			return token{}, false
		}
		return token{kind: kind, pos: start, lit: lit}, true
	case c == '"':
		s.err(start, "A0105", "strings are not supported (the thesis's AuDaLaC has no string values)")
		return token{}, false
	case c == '$' && s.off+1 < len(s.src) && s.src[s.off+1] == '$':
		// AuDaLaC's INLINECPP token: `$$` and the rest of the line, which
		// AuDaLaC copies into its CUDA output without looking at it.
		s.off += 2
		for s.off < len(s.src) && s.src[s.off] != '\n' {
			s.off++
		}
		text := string(s.src[start+2 : s.off])
		return token{kind: tCpp, pos: start, lit: strings.TrimSuffix(text, "\r")}, true
	}
	two := ""
	if s.off+1 < len(s.src) {
		two = string(s.src[s.off : s.off+2])
	}
	switch two {
	case ":=", "<=", ">=", "==", "!=", "&&", "||":
		s.off += 2
		return token{kind: tPunct, pos: start, lit: two}, true
	}
	switch c {
	case '(', ')', '{', '}', ',', ';', ':', '<', '>', '+', '-', '*', '/', '%', '!':
		s.off++
		return token{kind: tPunct, pos: start, lit: string(c)}, true
	}
	s.err(start, "A0102", "invalid character %s", strconv.QuoteRune(rune(c)))
	return token{}, false
}
