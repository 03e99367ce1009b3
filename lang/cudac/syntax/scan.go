package syntax

import (
	"weft.dev/weft/diag"
)

// scan splits one file into preprocessing tokens, with Newline tokens at the
// end of each logical line (backslash-newline joined) and Hash for a '#'
// that starts a directive.
func scan(f *diag.File, diags *diag.List) []Token {
	src := f.Src
	var toks []Token
	i := 0
	bol := true
	space := false
	for i < len(src) {
		c := src[i]
		// line splices
		if c == '\\' && i+1 < len(src) && (src[i+1] == '\n' || (src[i+1] == '\r' && i+2 < len(src) && src[i+2] == '\n')) {
			if src[i+1] == '\r' {
				i++
			}
			i += 2
			continue
		}
		switch {
		case c == '\n':
			toks = append(toks, Token{Kind: Newline, Pos: f.At(i)})
			i++
			bol = true
			space = false
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
			space = true
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				if src[i] == '\\' && i+1 < len(src) && src[i+1] == '\n' {
					i++
				}
				i++
			}
			space = true
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			start := i
			i += 2
			for i+1 < len(src) && !(src[i] == '*' && src[i+1] == '/') {
				i++
			}
			if i+1 >= len(src) {
				diags.Errorf(f.At(start), "C0101", "unterminated comment")
				i = len(src)
			} else {
				i += 2
			}
			space = true
			continue
		}
		start := i
		tok := Token{Pos: f.At(start), Space: space}
		space = false
		switch {
		case isIdentStart(c):
			for i < len(src) && isIdentChar(src[i]) {
				i++
			}
			tok.Kind = Ident
		case isDigit(c) || (c == '.' && i+1 < len(src) && isDigit(src[i+1])):
			// pp-number
			tok.Kind = IntLit
			for i < len(src) {
				d := src[i]
				if (d == 'e' || d == 'E' || d == 'p' || d == 'P') && i+1 < len(src) && (src[i+1] == '+' || src[i+1] == '-') {
					i += 2
					continue
				}
				if isIdentChar(d) || d == '.' {
					i++
					continue
				}
				break
			}
			tok.Kind = classifyNumber(string(src[start:i]))
		case c == '"' || c == '\'':
			q := c
			i++
			for i < len(src) && src[i] != q && src[i] != '\n' {
				if src[i] == '\\' && i+1 < len(src) {
					i++
				}
				i++
			}
			if i >= len(src) || src[i] != q {
				diags.Errorf(f.At(start), "C0102", "unterminated %s literal", map[byte]string{'"': "string", '\'': "character"}[q])
			} else {
				i++
			}
			if q == '"' {
				tok.Kind = StringLit
			} else {
				tok.Kind = CharLit
			}
		default:
			tok.Kind = Punct
			n := punctLen(src[i:])
			if n == 0 {
				diags.Errorf(f.At(start), "C0103", "invalid character %q", rune(c))
				i++
				continue
			}
			i += n
			if bol && string(src[start:i]) == "#" {
				tok.Kind = Hash
			}
		}
		tok.Text = string(src[start:i])
		bol = false
		toks = append(toks, tok)
	}
	toks = append(toks, Token{Kind: Newline, Pos: f.At(len(src))})
	return toks
}

func classifyNumber(s string) Kind {
	if len(s) > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		for _, c := range s[2:] {
			if c == '.' || c == 'p' || c == 'P' {
				return FloatLit
			}
		}
		return IntLit
	}
	for _, c := range s {
		if c == '.' || c == 'e' || c == 'E' {
			return FloatLit
		}
	}
	return IntLit
}

func isIdentStart(c byte) bool {
	return c == '_' || c == '$' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}
func isIdentChar(c byte) bool { return isIdentStart(c) || isDigit(c) }
func isDigit(c byte) bool     { return c >= '0' && c <= '9' }

var puncts = []string{
	"<<<", ">>>", "<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
	"+=", "-=", "*=", "/=", "%=", "&=", "^=", "|=", "##", "::",
	"[", "]", "(", ")", "{", "}", ".", "&", "*", "+", "-", "~", "!", "/", "%", "<", ">", "^", "|",
	"?", ":", ";", "=", ",", "#",
}

func punctLen(b []byte) int {
	for _, p := range puncts {
		if len(b) >= len(p) && string(b[:len(p)]) == p {
			return len(p)
		}
	}
	return 0
}
