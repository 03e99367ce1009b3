package sched

import (
	"fmt"
	"strconv"
	"strings"

	"weft.dev/weft/lang/weft/syntax"
)

// Cursor patterns name statements the way a reader sees them: the
// statement's canonical first line (as `weft fmt` prints it), where `_`
// stands for any non-empty, bracket-balanced run of tokens. Whitespace does
// not matter, a trailing ":" or ": _" (the body of a compound statement) is
// ignored, and " #N" picks the N-th match in source order (0-based; the
// first match without it). A pattern that is a single name is short for
// "for NAME in _". Examples:
//
//	"for i in _"            the loop with iterator i
//	"for i in _:_"          the same (Exo's spelling)
//	"k"                     the loop with iterator k
//	"acc += _"              the first reduce into acc
//	"y[_] = _ #1"           the second write to an element of y
//	"acc: _"                the allocation of acc
//	"with CudaDeviceFunction(_)"
//	"Sm80_cp_async_f32(_)"  a call
type Pattern struct {
	Text  string
	toks  []string
	Nth   int
	Short bool // a bare name: a loop by its iterator
}

// ParsePattern parses a cursor pattern. Errors name the offending column
// (1-based) in the pattern text.
func ParsePattern(text string) (*Pattern, error) {
	p := &Pattern{Text: text}
	body := text
	if i := strings.LastIndexByte(text, '#'); i >= 0 {
		n, err := strconv.Atoi(strings.TrimSpace(text[i+1:]))
		if err != nil || n < 0 {
			return nil, fmt.Errorf("column %d: want a match number after #, e.g. \"for i in _ #1\"", i+1)
		}
		p.Nth = n
		body = text[:i]
	}
	toks, err := tokenize(body)
	if err != nil {
		return nil, err
	}
	toks = trimBody(toks)
	if len(toks) == 0 || len(toks) == 1 && toks[0] == ":" {
		return nil, fmt.Errorf("empty pattern")
	}
	depth := 0
	for _, t := range toks {
		switch t {
		case "(", "[":
			depth++
		case ")", "]":
			depth--
			if depth < 0 {
				return nil, fmt.Errorf("unbalanced %q", t)
			}
		}
	}
	if depth != 0 {
		return nil, fmt.Errorf("unbalanced brackets")
	}
	if len(toks) == 1 && isIdentTok(toks[0]) && toks[0] != "_" {
		p.Short = true
		toks = []string{"for", toks[0], "in", "_"}
	}
	p.toks = toks
	return p, nil
}

// trimBody drops the trailing ":" or ": _" (the body) of a compound
// statement (for, if, elif, else, with); `x: _` is an allocation pattern.
func trimBody(toks []string) []string {
	if len(toks) == 0 {
		return toks
	}
	switch toks[0] {
	case "for", "if", "elif", "else", "with":
	default:
		return toks
	}
	if n := len(toks); n >= 2 && toks[n-2] == ":" && toks[n-1] == "_" {
		return toks[:n-2]
	}
	if n := len(toks); n >= 1 && toks[n-1] == ":" {
		return toks[:n-1]
	}
	return toks
}

func isIdentTok(t string) bool {
	if t == "" {
		return false
	}
	c := t[0]
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

var multiOps = []string{"+=", "==", "!=", "<=", ">=", "//", ">>", "**"}

// tokenize splits pattern or statement text into identifiers, numbers,
// strings and operators.
func tokenize(s string) ([]string, error) {
	var toks []string
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
			j := i + 1
			for j < len(s) && (s[j] == '_' || 'a' <= s[j] && s[j] <= 'z' || 'A' <= s[j] && s[j] <= 'Z' || '0' <= s[j] && s[j] <= '9') {
				j++
			}
			toks = append(toks, s[i:j])
			i = j
		case '0' <= c && c <= '9' || c == '.' && i+1 < len(s) && '0' <= s[i+1] && s[i+1] <= '9':
			j := i + 1
			for j < len(s) && ('0' <= s[j] && s[j] <= '9' || s[j] == '.' || s[j] == 'e' || s[j] == 'E' || s[j] == 'x' ||
				'a' <= s[j] && s[j] <= 'f' || 'A' <= s[j] && s[j] <= 'F' ||
				(s[j] == '+' || s[j] == '-') && (s[j-1] == 'e' || s[j-1] == 'E')) {
				j++
			}
			toks = append(toks, s[i:j])
			i = j
		case c == '"' || c == '\'':
			j := i + 1
			for j < len(s) && s[j] != c {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(s) {
				return nil, fmt.Errorf("column %d: unterminated string", i+1)
			}
			toks = append(toks, s[i:j+1])
			i = j + 1
		default:
			op := ""
			for _, m := range multiOps {
				if strings.HasPrefix(s[i:], m) {
					op = m
					break
				}
			}
			if op == "" {
				if !strings.ContainsRune("+-*/%<>=()[],:@.~", rune(c)) {
					return nil, fmt.Errorf("column %d: unexpected character %q", i+1, c)
				}
				op = s[i : i+1]
			}
			toks = append(toks, op)
			i += len(op)
		}
	}
	return toks, nil
}

// header is the canonical first line of a statement (its body dropped).
func header(s syntax.Stmt) string {
	f := &syntax.File{Decls: []syntax.Decl{&syntax.Proc{Name: &syntax.Name{Name: "p"}, Body: []syntax.Stmt{shallowHeader(s)}}}}
	text := syntax.Print(f)
	lines := strings.Split(text, "\n")
	for _, l := range lines[1:] {
		l = strings.TrimSpace(l)
		if l != "" && !strings.HasPrefix(l, "#") {
			return l
		}
	}
	return ""
}

// shallowHeader copies s without its body or comments, for printing the
// first line.
func shallowHeader(s syntax.Stmt) syntax.Stmt {
	switch s := s.(type) {
	case *syntax.For:
		c := *s
		c.Comments = syntax.Comments{}
		c.Body = []syntax.Stmt{&syntax.Pass{}}
		return &c
	case *syntax.If:
		c := *s
		c.Comments = syntax.Comments{}
		c.Then = []syntax.Stmt{&syntax.Pass{}}
		c.Else = nil
		return &c
	case *syntax.With:
		c := *s
		c.Comments = syntax.Comments{}
		c.Body = []syntax.Stmt{&syntax.Pass{}}
		return &c
	}
	c := cloneStmt(s)
	*c.Comment() = syntax.Comments{}
	return c
}

// Match reports whether the statement's first line matches the pattern.
func (p *Pattern) Match(s syntax.Stmt) bool {
	toks, err := tokenize(header(s))
	if err != nil {
		return false
	}
	return matchToks(p.toks, trimBody(toks))
}

// matchToks matches pattern tokens (with "_" wildcards for balanced
// non-empty runs) against text tokens by dynamic programming.
func matchToks(pat, txt []string) bool {
	n := len(txt)
	// depth[k] is the bracket depth before txt[k].
	depth := make([]int, n+1)
	for k, t := range txt {
		depth[k+1] = depth[k]
		switch t {
		case "(", "[":
			depth[k+1]++
		case ")", "]":
			depth[k+1]--
		}
	}
	balanced := func(a, b int) bool { // txt[a:b]
		if depth[b] != depth[a] {
			return false
		}
		for k := a + 1; k < b; k++ {
			if depth[k] < depth[a] {
				return false
			}
		}
		return true
	}
	// ok[i][j]: pat[i:] matches txt[j:].
	ok := make([][]bool, len(pat)+1)
	for i := range ok {
		ok[i] = make([]bool, n+1)
	}
	ok[len(pat)][n] = true
	for i := len(pat) - 1; i >= 0; i-- {
		for j := n; j >= 0; j-- {
			if pat[i] == "_" {
				for k := j + 1; k <= n; k++ {
					if ok[i+1][k] && balanced(j, k) {
						ok[i][j] = true
						break
					}
				}
			} else if j < n && pat[i] == txt[j] {
				ok[i][j] = ok[i+1][j+1]
			}
		}
	}
	return ok[0][0]
}
