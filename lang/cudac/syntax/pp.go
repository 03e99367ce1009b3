package syntax

import (
	"bytes"
	"errors"

	"path/filepath"
	"strconv"
	"strings"

	"weft.dev/weft/diag"
	"weft.dev/weft/safeio"
)

// macro is one #define.
type macro struct {
	name     string
	funcLike bool
	params   []string
	variadic bool
	body     []Token
}

// preprocessor expands one translation unit.
type preprocessor struct {
	diags  *diag.List
	macros map[string]*macro
	out    []Token
	depth  int
	// ReadFile reads an #include "..." file; tests and fuzzing replace it.
	readFile func(string) ([]byte, error)
	files    map[string]*diag.File
	text     []Token
	// active holds the files being expanded: a file that includes itself,
	// directly or through others, is reported rather than expanded until the
	// depth limit (which, with two such includes per file, is exponential).
	active map[*diag.File]bool
	// includes counts every expansion of an #include, bounding the work a
	// translation unit can ask for.
	includes int
	// includeDirs are searched for #include "..." after the including
	// file's directory, and for #include <...> before the known headers (-I).
	includeDirs []string
}

// Config are the command-line settings of a translation unit: -I
// directories and -D macros (NAME or NAME=VALUE, as nvcc takes them).
type Config struct {
	IncludeDirs []string
	Defines     []string
	// ReadFile reads an #include file (default: a regular file of at
	// most MaxInput bytes).
	ReadFile func(string) ([]byte, error)
	// MaxInput bounds the size of each included file as the main file's
	// is bounded (issue 14; --max-input): 0 is DefaultMaxInput, negative
	// no limit.
	MaxInput int64
}

// DefaultMaxInput is the size limit of an included file when Config sets
// none (the limit of weft's input files, frontend.DefaultMaxInput).
const DefaultMaxInput = 16 << 20

// InputLimit is the limit MaxInput stands for (0: none).
func (c Config) InputLimit() int64 {
	switch {
	case c.MaxInput == 0:
		return DefaultMaxInput
	case c.MaxInput < 0:
		return 0
	}
	return c.MaxInput
}

// LoneCRToLF turns each "\r" not followed by "\n" into "\n" in place (no
// offset changes), so that included files with CR-only or mixed line
// endings get the lines, positions and excerpts the main file gets.
func LoneCRToLF(src []byte) []byte {
	for i, c := range src {
		if c == '\r' && (i+1 == len(src) || src[i+1] != '\n') {
			src[i] = '\n'
		}
	}
	return src
}

// Preprocess runs the C preprocessor over f and returns the C tokens (no
// Newline or Hash tokens), ending with EOF. #include "x.h" is read relative
// to the including file; <x.h> must be one of the known headers.
func Preprocess(f *diag.File, diags *diag.List) []Token {
	loadTables()
	return PreprocessConfig(f, diags, Config{})
}

// PreprocessWith is Preprocess with a custom file reader for #include "...".
func PreprocessWith(f *diag.File, diags *diag.List, readFile func(string) ([]byte, error)) []Token {
	loadTables()
	return PreprocessConfig(f, diags, Config{ReadFile: readFile})
}

// PreprocessConfig is Preprocess with -I directories and -D macros.
func PreprocessConfig(f *diag.File, diags *diag.List, cfg Config) []Token {
	loadTables()
	readFile := cfg.ReadFile
	if readFile == nil {
		limit := cfg.InputLimit()
		readFile = func(path string) ([]byte, error) { return safeio.ReadFile(path, limit) }
	}
	p := &preprocessor{diags: diags, macros: map[string]*macro{}, readFile: readFile, files: map[string]*diag.File{}, includeDirs: cfg.IncludeDirs}
	pre := diag.NewFile("<built-in>", []byte(predefined))
	p.file(pre)
	if defines := cfg.Defines; len(defines) > 0 {
		var b strings.Builder
		for _, d := range defines {
			name, val, ok := strings.Cut(d, "=")
			if !ok {
				val = "1"
			}
			b.WriteString("#define " + name + " " + strings.ReplaceAll(val, "\n", " ") + "\n")
		}
		p.file(diag.NewFile("<command-line>", []byte(b.String())))
	}
	p.out = p.out[:0]
	p.file(f)
	end := diag.Pos{File: f, Offset: len(f.Src)}
	p.out = append(p.out, Token{Kind: EOF, Pos: end})
	return p.out
}

// maxIncludes bounds the #include expansions of one translation unit.
const maxIncludes = 10000

type condState struct {
	taken    bool // some branch already taken
	active   bool // current branch active
	sawElse  bool
	parentOn bool
	pos      diag.Pos
}

func (p *preprocessor) file(f *diag.File) {
	if p.depth > 50 {
		p.diags.Errorf(diag.Pos{File: f}, "C0111", "#include nested too deeply")
		return
	}
	if p.active == nil {
		p.active = map[*diag.File]bool{}
	}
	if p.active[f] {
		p.diags.Errorf(diag.Pos{File: f}, "C0111", "%s includes itself (recursive #include without an include guard is not supported)", f.Name)
		return
	}
	p.includes++
	if p.includes > maxIncludes {
		p.diags.Errorf(diag.Pos{File: f}, "C0111", "more than %d #include expansions", maxIncludes)
		return
	}
	p.active[f] = true
	p.depth++
	defer func() { p.depth--; delete(p.active, f) }()
	toks := scan(f, p.diags)
	var conds []condState
	on := func() bool { return len(conds) == 0 || conds[len(conds)-1].active }
	var line []Token
	i := 0
	for i < len(toks) {
		// collect one line
		line = line[:0]
		for i < len(toks) && toks[i].Kind != Newline {
			line = append(line, toks[i])
			i++
		}
		i++ // newline
		if len(line) == 0 {
			continue
		}
		if line[0].Kind != Hash {
			if on() {
				p.text = append(p.text, line...)
			}
			continue
		}
		// A directive ends the running text: expand what we have so macros
		// defined below don't apply above (function-like macro calls may
		// not span a directive, which C leaves undefined anyway).
		p.flushText()
		if len(line) == 1 {
			continue
		}
		d := line[1]
		args := line[2:]
		switch d.Text {
		case "if", "ifdef", "ifndef":
			c := condState{parentOn: on(), pos: d.Pos}
			if c.parentOn {
				var v bool
				switch d.Text {
				case "if":
					v = p.evalCond(d, args)
				case "ifdef", "ifndef":
					if len(args) == 0 || args[0].Kind != Ident {
						p.diags.Errorf(d.Pos, "C0104", "#%s without a macro name", d.Text)
					} else {
						_, def := p.macros[args[0].Text]
						v = def == (d.Text == "ifdef")
					}
				}
				c.active, c.taken = v, v
			}
			conds = append(conds, c)
		case "elif", "else":
			if len(conds) == 0 {
				p.diags.Errorf(d.Pos, "C0105", "#%s without #if", d.Text)
				continue
			}
			c := &conds[len(conds)-1]
			if c.sawElse {
				p.diags.Errorf(d.Pos, "C0105", "#%s after #else", d.Text)
				continue
			}
			if d.Text == "else" {
				c.sawElse = true
				c.active = c.parentOn && !c.taken
				c.taken = true
			} else {
				c.active = false
				if c.parentOn && !c.taken {
					c.active = p.evalCond(d, args)
					c.taken = c.active
				}
			}
		case "endif":
			if len(conds) == 0 {
				p.diags.Errorf(d.Pos, "C0105", "#endif without #if")
				continue
			}
			conds = conds[:len(conds)-1]
		default:
			if !on() {
				continue
			}
			p.directive(f, d, args)
		}
	}
	p.flushText()
	for _, c := range conds {
		p.diags.Errorf(c.pos, "C0106", "unterminated conditional directive")
	}
}

func (p *preprocessor) directive(f *diag.File, d Token, args []Token) {
	switch d.Text {
	case "define":
		p.define(d, args)
	case "undef":
		if len(args) > 0 {
			delete(p.macros, args[0].Text)
		}
	case "include":
		p.include(f, d, args)
	case "error":
		p.diags.Errorf(d.Pos, "C0107", "#error %s", joinText(args))
	case "warning":
		p.diags.Warnf(d.Pos, "C0108", "#warning %s", joinText(args))
	case "pragma", "line", "ident":
		// #pragma unroll and friends change nothing the semantics observes.
	default:
		if d.Kind == IntLit { // "# 12 file" line markers
			return
		}
		p.diags.Errorf(d.Pos, "C0109", "unknown directive #%s", d.Text)
	}
}

func joinText(ts []Token) string {
	var b strings.Builder
	for i, t := range ts {
		if i > 0 && t.Space {
			b.WriteByte(' ')
		}
		b.WriteString(t.Text)
	}
	return b.String()
}

func (p *preprocessor) define(d Token, args []Token) {
	if len(args) == 0 || args[0].Kind != Ident {
		p.diags.Errorf(d.Pos, "C0104", "#define without a macro name")
		return
	}
	m := &macro{name: args[0].Text}
	rest := args[1:]
	if len(rest) > 0 && rest[0].Text == "(" && !rest[0].Space {
		m.funcLike = true
		i := 1
		for ; i < len(rest) && rest[i].Text != ")"; i++ {
			t := rest[i]
			switch {
			case t.Text == ",":
			case t.Text == "...":
				m.variadic = true
			case t.Kind == Ident:
				m.params = append(m.params, t.Text)
			default:
				p.diags.Errorf(t.Pos, "C0104", "bad macro parameter %q", t.Text)
				return
			}
		}
		if i >= len(rest) {
			p.diags.Errorf(d.Pos, "C0104", "unterminated macro parameter list")
			return
		}
		rest = rest[i+1:]
	}
	m.body = append([]Token(nil), rest...)
	p.macros[m.name] = m
}

func (p *preprocessor) include(f *diag.File, d Token, args []Token) {
	if len(args) == 0 {
		p.diags.Errorf(d.Pos, "C0110", "#include without a file name")
		return
	}
	var name string
	local := false
	if args[0].Kind == StringLit {
		name = strings.Trim(args[0].Text, "\"")
		local = true
	} else if args[0].Text == "<" {
		var b strings.Builder
		for _, t := range args[1:] {
			if t.Text == ">" {
				break
			}
			b.WriteString(t.Text)
		}
		name = b.String()
	} else {
		p.diags.Errorf(args[0].Pos, "C0110", "#include expects \"file\" or <file>")
		return
	}
	var dirs []string
	if local {
		dirs = append(dirs, filepath.Dir(f.Name))
	}
	dirs = append(dirs, p.includeDirs...)
	for _, dir := range dirs {
		path := filepath.Join(dir, name)
		if inc, ok := p.files[path]; ok {
			p.file(inc)
			return
		}
		src, err := p.readFile(path)
		var le *safeio.LimitError
		if errors.As(err, &le) {
			p.diags.Errorf(args[0].Pos, "C0110", "included file %s is larger than %d bytes, the input size limit (--max-input BYTES raises it)", path, le.Limit)
			return
		}
		if err == nil {
			if bytes.IndexByte(src, '\r') >= 0 {
				src = LoneCRToLF(append([]byte(nil), src...))
			}
			inc := diag.NewFile(path, src)
			p.files[path] = inc
			p.file(inc)
			return
		}
	}
	if body, ok := knownHeaders[name]; ok {
		inc, ok := p.files["<"+name+">"]
		if !ok {
			inc = diag.NewFile("<"+name+">", []byte(body))
			p.files["<"+name+">"] = inc
		}
		p.file(inc)
		return
	}
	p.diags.Errorf(args[0].Pos, "C0110", "cannot find include file %q (known headers: stdio.h, stdlib.h, string.h, math.h, assert.h, stdint.h, cuda_runtime.h, ...)", name)
}

// text holds the running (not yet expanded) source tokens.
func (p *preprocessor) flushText() {
	if len(p.text) == 0 {
		return
	}
	toks := p.text
	p.text = nil
	p.out = append(p.out, p.expand(toks, 0)...)
}

// expand macro-expands toks fully. The input is kept as a stack (next
// token last) so an expansion is pushed back for rescanning without copying
// the rest of the input.
func (p *preprocessor) expand(toks []Token, depth int) []Token {
	if depth > 100 {
		if len(toks) > 0 {
			p.diags.Errorf(toks[0].Pos, "C0112", "macro expansion too deep")
		}
		return nil
	}
	stack := make([]Token, len(toks))
	for i, t := range toks {
		stack[len(toks)-1-i] = t
	}
	push := func(body []Token) {
		for i := len(body) - 1; i >= 0; i-- {
			stack = append(stack, body[i])
		}
	}
	var out []Token
	steps := 0
	for len(stack) > 0 {
		t := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if t.Kind != Ident {
			out = append(out, t)
			continue
		}
		m, ok := p.macros[t.Text]
		if !ok && (t.Text == "__FILE__" || t.Text == "__LINE__") && t.Pos.File != nil {
			// C99 6.10.8: the presumed file name and line of the use
			// (a macro's expansion carries the position of its use).
			line, _ := t.Pos.File.LineCol(t.Pos.Offset)
			if t.Text == "__LINE__" {
				out = append(out, Token{Kind: IntLit, Text: strconv.Itoa(line), Pos: t.Pos, Space: t.Space})
			} else {
				out = append(out, Token{Kind: StringLit, Text: strconv.Quote(t.Pos.File.Name), Pos: t.Pos, Space: t.Space})
			}
			continue
		}
		if !ok || t.hide.has(t.Text) {
			out = append(out, t)
			continue
		}
		if steps++; steps > 1000000 {
			p.diags.Errorf(t.Pos, "C0112", "macro expansion too large")
			return out
		}
		if !m.funcLike {
			push(p.subst(m, nil, t, depth))
			continue
		}
		if len(stack) == 0 || stack[len(stack)-1].Text != "(" {
			out = append(out, t)
			continue
		}
		args, rest, ok := p.collectArgs(stack, m, t)
		stack = rest
		if !ok {
			continue
		}
		push(p.subst(m, args, t, depth))
	}
	return out
}

// collectArgs pops a macro call's arguments off stack (whose top is '(').
func (p *preprocessor) collectArgs(stack []Token, m *macro, use Token) ([][]Token, []Token, bool) {
	var args [][]Token
	var cur []Token
	level := 0
	stack = stack[:len(stack)-1] // '('
	for len(stack) > 0 {
		t := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if t.Kind == Punct {
			switch t.Text {
			case "(", "[", "{":
				level++
			case ")", "]", "}":
				if level == 0 && t.Text == ")" {
					args = append(args, cur)
					if len(args) == 1 && len(args[0]) == 0 && len(m.params) == 0 {
						args = nil
					}
					want := len(m.params)
					if len(args) != want && !(m.variadic && len(args) >= want) {
						p.diags.Errorf(use.Pos, "C0113", "macro %s expects %d arguments, got %d", m.name, want, len(args))
						return nil, stack, false
					}
					return args, stack, true
				}
				level--
			case ",":
				if level == 0 && !(m.variadic && len(args) >= len(m.params)) {
					args = append(args, cur)
					cur = nil
					continue
				}
			}
		}
		cur = append(cur, t)
	}
	p.diags.Errorf(use.Pos, "C0113", "unterminated call of macro %s", m.name)
	return nil, stack, false
}

// subst builds the expansion of m at use with the given arguments: each
// token gets the use's position (diagnostics point at what the user wrote)
// and a hide set that stops m from expanding again.
func (p *preprocessor) subst(m *macro, args [][]Token, use Token, depth int) []Token {
	hide := &hideSet{name: m.name, next: use.hide}
	param := func(name string) int {
		for k, q := range m.params {
			if q == name {
				return k
			}
		}
		if m.variadic && name == "__VA_ARGS__" {
			return len(m.params)
		}
		return -1
	}
	argOf := func(k int) []Token {
		if k < len(args) {
			return args[k]
		}
		return nil
	}
	var out []Token
	body := m.body
	for k := 0; k < len(body); k++ {
		t := body[k]
		// # param
		if m.funcLike && t.Text == "#" && k+1 < len(body) && param(body[k+1].Text) >= 0 {
			a := argOf(param(body[k+1].Text))
			s := joinText(a)
			s = strings.ReplaceAll(s, "\\", "\\\\")
			s = strings.ReplaceAll(s, "\"", "\\\"")
			out = append(out, Token{Kind: StringLit, Text: "\"" + s + "\"", Pos: use.Pos, Space: t.Space, hide: hide})
			k++
			continue
		}
		// x ## y
		if k+2 < len(body) && body[k+1].Text == "##" {
			left := []Token{t}
			if j := param(t.Text); j >= 0 && m.funcLike {
				left = argOf(j)
			}
			right := []Token{body[k+2]}
			if j := param(body[k+2].Text); j >= 0 && m.funcLike {
				right = argOf(j)
			}
			var pasted []Token
			pasted = append(pasted, left...)
			if len(pasted) > 0 && len(right) > 0 {
				last := pasted[len(pasted)-1]
				glued := last.Text + right[0].Text
				f := diag.NewFile("<paste>", []byte(glued))
				var dl diag.List
				nt := scan(f, &dl)
				kind := Ident
				if len(nt) > 0 {
					kind = nt[0].Kind
				}
				pasted[len(pasted)-1] = Token{Kind: kind, Text: glued, Pos: use.Pos, Space: last.Space}
				pasted = append(pasted, right[1:]...)
			} else {
				pasted = append(pasted, right...)
			}
			for _, q := range pasted {
				q.Pos = use.Pos
				q.hide = hide
				out = append(out, q)
			}
			k += 2
			for k+2 < len(body) && body[k+1].Text == "##" { // a ## b ## c: keep pasting onto the last token
				r := []Token{body[k+2]}
				if j := param(body[k+2].Text); j >= 0 && m.funcLike {
					r = argOf(j)
				}
				if len(r) > 0 && len(out) > 0 {
					out[len(out)-1].Text += r[0].Text
					for _, q := range r[1:] {
						q.Pos, q.hide = use.Pos, hide
						out = append(out, q)
					}
				}
				k += 2
			}
			continue
		}
		if j := param(t.Text); j >= 0 && m.funcLike && t.Kind == Ident {
			exp := p.expand(argOf(j), depth+1)
			for n, q := range exp {
				q.Pos = use.Pos
				if n == 0 {
					q.Space = t.Space
				}
				q.hide = mergeHide(q.hide, hide)
				out = append(out, q)
			}
			continue
		}
		t.Pos = use.Pos
		t.hide = hide
		out = append(out, t)
	}
	return out
}

func mergeHide(a, b *hideSet) *hideSet {
	for ; a != nil; a = a.next {
		if !b.has(a.name) {
			b = &hideSet{name: a.name, next: b}
		}
	}
	return b
}

// evalCond evaluates the expression of #if/#elif.
func (p *preprocessor) evalCond(d Token, args []Token) bool {
	// replace defined X / defined(X) before expansion
	var toks []Token
	for i := 0; i < len(args); i++ {
		t := args[i]
		if t.Kind == Ident && t.Text == "defined" {
			name := ""
			if i+1 < len(args) && args[i+1].Kind == Ident {
				name = args[i+1].Text
				i++
			} else if i+3 < len(args) && args[i+1].Text == "(" && args[i+3].Text == ")" {
				name = args[i+2].Text
				i += 3
			} else {
				p.diags.Errorf(t.Pos, "C0114", "defined without a macro name")
				return false
			}
			v := "0"
			if _, ok := p.macros[name]; ok {
				v = "1"
			}
			toks = append(toks, Token{Kind: IntLit, Text: v, Pos: t.Pos})
			continue
		}
		toks = append(toks, t)
	}
	toks = p.expand(toks, 0)
	if len(toks) == 0 {
		p.diags.Errorf(d.Pos, "C0114", "#%s without an expression", d.Text)
		return false
	}
	e := &ppExpr{toks: toks, p: p}
	v := e.cond()
	if e.i < len(e.toks) && !e.failed {
		p.diags.Errorf(e.toks[e.i].Pos, "C0114", "unexpected %q in #%s expression", e.toks[e.i].Text, d.Text)
	}
	return v != 0
}

// ppExpr evaluates an integer constant expression of #if. Identifiers left
// after expansion are 0, as C says.
type ppExpr struct {
	toks   []Token
	i      int
	p      *preprocessor
	failed bool
}

func (e *ppExpr) peek() string {
	if e.i < len(e.toks) {
		return e.toks[e.i].Text
	}
	return ""
}

func (e *ppExpr) fail(msg string) int64 {
	if !e.failed {
		pos := diag.Pos{}
		if e.i < len(e.toks) {
			pos = e.toks[e.i].Pos
		} else if len(e.toks) > 0 {
			pos = e.toks[len(e.toks)-1].Pos
		}
		e.p.diags.Errorf(pos, "C0114", "%s in #if expression", msg)
	}
	e.failed = true
	e.i = len(e.toks)
	return 0
}

func (e *ppExpr) cond() int64 {
	c := e.binary(0)
	if e.peek() == "?" {
		e.i++
		a := e.cond()
		if e.peek() != ":" {
			return e.fail("missing ':'")
		}
		e.i++
		b := e.cond()
		if c != 0 {
			return a
		}
		return b
	}
	return c
}

var ppPrec map[string]int

// initPpPrec builds ppPrec (tables.go).
func initPpPrec() {
	ppPrec = map[string]int{"||": 1, "&&": 2, "|": 3, "^": 4, "&": 5, "==": 6, "!=": 6, "<": 7, ">": 7, "<=": 7, ">=": 7, "<<": 8, ">>": 8, "+": 9, "-": 9, "*": 10, "/": 10, "%": 10}
}

func (e *ppExpr) binary(min int) int64 {
	x := e.unary()
	for {
		op := e.peek()
		prec, ok := ppPrec[op]
		if !ok || prec <= min || e.toks[e.i].Kind != Punct {
			return x
		}
		e.i++
		y := e.binary(prec)
		switch op {
		case "||":
			x = b2i(x != 0 || y != 0)
		case "&&":
			x = b2i(x != 0 && y != 0)
		case "|":
			x |= y
		case "^":
			x ^= y
		case "&":
			x &= y
		case "==":
			x = b2i(x == y)
		case "!=":
			x = b2i(x != y)
		case "<":
			x = b2i(x < y)
		case ">":
			x = b2i(x > y)
		case "<=":
			x = b2i(x <= y)
		case ">=":
			x = b2i(x >= y)
		case "<<":
			x <<= uint64(y) & 63
		case ">>":
			x >>= uint64(y) & 63
		case "+":
			x += y
		case "-":
			x -= y
		case "*":
			x *= y
		case "/", "%":
			if y == 0 {
				return e.fail("division by zero")
			}
			if op == "/" {
				x /= y
			} else {
				x %= y
			}
		}
	}
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func (e *ppExpr) unary() int64 {
	if e.i >= len(e.toks) {
		return e.fail("missing operand")
	}
	t := e.toks[e.i]
	e.i++
	switch {
	case t.Text == "(":
		v := e.cond()
		if e.peek() != ")" {
			return e.fail("missing ')'")
		}
		e.i++
		return v
	case t.Text == "!":
		return b2i(e.unary() == 0)
	case t.Text == "-":
		return -e.unary()
	case t.Text == "+":
		return e.unary()
	case t.Text == "~":
		return ^e.unary()
	case t.Kind == IntLit:
		v, _, ok := parseIntLit(t.Text)
		if !ok {
			e.i--
			return e.fail("bad number " + strconv.Quote(t.Text))
		}
		return int64(v)
	case t.Kind == CharLit:
		v, ok := charValue(t.Text)
		if !ok {
			return e.fail("bad character literal")
		}
		return v
	case t.Kind == Ident:
		return 0
	}
	e.i--
	return e.fail("unexpected " + strconv.Quote(t.Text))
}
