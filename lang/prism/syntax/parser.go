package syntax

import (
	"fmt"

	"weft.dev/weft/diag"
	"weft.dev/weft/pyscan"
)

// Syntax error codes (the "prism" table is registered by package check,
// which owns the whole P table; these are its P00xx rows).
const (
	ErrSyntax        = "P0001" // unexpected token
	ErrBadDecl       = "P0002" // malformed declaration or parameter
	ErrBadPersp      = "P0003" // malformed perspective
	ErrTopLevel      = "P0004" // only decorated functions at top level
	ErrBadSuite      = "P0005" // missing indented block
	ErrNestedTooDeep = "P0006" // nesting beyond the parser's limit
)

const maxDepth = 200

// Parse parses f. The returned File is never nil; errors are in the list.
func Parse(f *diag.File) (*File, *diag.List) {
	p := &parser{errs: &diag.List{Limit: 50}}
	p.sc = pyscan.New(f, func(pos diag.Pos, code, msg string) { p.errs.Errorf(pos, code, "%s", msg) })
	p.next()
	file := &File{Src: f}
	for p.tok.Kind != pyscan.EOF {
		if p.tok.Kind == pyscan.NEWLINE || p.tok.Kind == pyscan.INDENT || p.tok.Kind == pyscan.DEDENT {
			p.next()
			continue
		}
		if p.isOp("@") || p.isName("def") {
			if fn := p.funcDecl(); fn != nil {
				file.Funcs = append(file.Funcs, fn)
			}
			continue
		}
		p.errorf(p.tok.Pos, ErrTopLevel, "only decorated functions (@prism(...) def ...) may appear at the top level, found %s", p.tok)
		p.skipLine()
	}
	file.Comments = p.sc.Comments
	return file, p.errs
}

// ParseExpr parses a single expression (used by tests and tools).
func ParseExpr(f *diag.File) (Expr, *diag.List) {
	p := &parser{errs: &diag.List{Limit: 50}}
	p.sc = pyscan.New(f, func(pos diag.Pos, code, msg string) { p.errs.Errorf(pos, code, "%s", msg) })
	p.next()
	e := p.expr()
	return e, p.errs
}

type parser struct {
	sc    *pyscan.Scanner
	tok   pyscan.Token
	errs  *diag.List
	depth int
	last  diag.Pos // position of the last error, to avoid cascades on one token
}

func (p *parser) next() { p.tok = p.sc.Next() }

func (p *parser) errorf(pos diag.Pos, code, format string, args ...any) {
	if pos == p.last && p.errs.Len() > 0 {
		return
	}
	p.last = pos
	p.errs.Errorf(pos, code, format, args...)
}

func (p *parser) isOp(s string) bool   { return p.tok.Kind == pyscan.OP && p.tok.Text == s }
func (p *parser) isName(s string) bool { return p.tok.Kind == pyscan.NAME && p.tok.Text == s }

func (p *parser) got(op string) bool {
	if p.isOp(op) {
		p.next()
		return true
	}
	return false
}

// want consumes op or reports an error (without consuming).
func (p *parser) want(op string) diag.Pos {
	pos := p.tok.Pos
	if !p.got(op) {
		p.errorf(pos, ErrSyntax, "expected %q, found %s", op, p.tok)
	}
	return pos
}

func (p *parser) ident() *Ident {
	if p.tok.Kind != pyscan.NAME {
		p.errorf(p.tok.Pos, ErrSyntax, "expected a name, found %s", p.tok)
		return &Ident{At: p.tok.Pos, Name: "_"}
	}
	id := &Ident{At: p.tok.Pos, Name: p.tok.Text}
	p.next()
	return id
}

// skipLine skips to just after the next NEWLINE (staying balanced on blocks).
func (p *parser) skipLine() {
	for p.tok.Kind != pyscan.EOF && p.tok.Kind != pyscan.NEWLINE {
		p.next()
	}
	if p.tok.Kind == pyscan.NEWLINE {
		p.next()
	}
	// A block that follows a broken header is skipped whole.
	if p.tok.Kind == pyscan.INDENT {
		depth := 0
		for p.tok.Kind != pyscan.EOF {
			switch p.tok.Kind {
			case pyscan.INDENT:
				depth++
			case pyscan.DEDENT:
				depth--
			}
			p.next()
			if depth == 0 {
				return
			}
		}
	}
}

// ---- declarations ----

func (p *parser) funcDecl() *FuncDecl {
	fn := &FuncDecl{}
	for p.isOp("@") {
		p.next()
		var fun Expr = p.ident()
		for p.isOp(".") {
			p.next()
			fun = &AttrExpr{X: fun, Name: p.ident()}
		}
		c := &Call{Fun: fun}
		if p.isOp("(") {
			c = p.call(fun)
		}
		fn.Decorators = append(fn.Decorators, c)
		if p.tok.Kind != pyscan.NEWLINE {
			p.errorf(p.tok.Pos, ErrSyntax, "expected newline after decorator, found %s", p.tok)
			p.skipLine()
		} else {
			p.next()
		}
	}
	if !p.isName("def") {
		p.errorf(p.tok.Pos, ErrSyntax, "expected def after decorators, found %s", p.tok)
		p.skipLine()
		return nil
	}
	fn.At = p.tok.Pos
	p.next()
	fn.Name = p.ident()
	p.want("(")
	for !p.isOp(")") && p.tok.Kind != pyscan.EOF && p.tok.Kind != pyscan.NEWLINE {
		prm := &Param{Name: p.ident()}
		if p.got(":") {
			prm.Type = p.typ()
		} else {
			p.errorf(p.tok.Pos, ErrBadDecl, "parameter %s needs a type: %s : T @ level[n]", prm.Name.Name, prm.Name.Name)
		}
		if p.got("@") {
			prm.Persp = p.persp()
		}
		fn.Params = append(fn.Params, prm)
		if !p.got(",") {
			break
		}
	}
	p.want(")")
	if p.got("->") {
		fn.Result = p.typ()
	}
	fn.Body = p.suite()
	return fn
}

// persp parses level[n] or level[].
func (p *parser) persp() *Persp {
	ps := &Persp{At: p.tok.Pos}
	if p.tok.Kind != pyscan.NAME {
		p.errorf(p.tok.Pos, ErrBadPersp, "expected a perspective level[n], found %s", p.tok)
		return ps
	}
	ps.Level = p.tok.Text
	p.next()
	if !p.isOp("[") {
		p.errorf(p.tok.Pos, ErrBadPersp, "expected '[' after perspective level %s", ps.Level)
		return ps
	}
	p.next()
	if !p.isOp("]") {
		ps.N = p.expr()
	}
	ps.Rbrack = p.want("]")
	return ps
}

// typ parses a type.
func (p *parser) typ() Type {
	if p.tok.Kind != pyscan.NAME {
		p.errorf(p.tok.Pos, ErrBadDecl, "expected a type, found %s", p.tok)
		return &NamedType{At: p.tok.Pos, Name: "_"}
	}
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxDepth {
		p.errorf(p.tok.Pos, ErrNestedTooDeep, "type nested too deeply")
		return &NamedType{At: p.tok.Pos, Name: "_"}
	}
	at := p.tok.Pos
	name := p.tok.Text
	p.next()
	var t Type
	switch name {
	case "ptr", "const", "constexpr", "shared":
		var close string
		switch {
		case p.got("("):
			close = ")"
		case p.got("["):
			close = "]"
		case name == "const" && p.tok.Kind == pyscan.NAME:
			// `const int` (appendix spelling).
			return &ConstType{At: at, Elem: p.typ()}
		default:
			p.errorf(p.tok.Pos, ErrBadDecl, "expected '(' after %s", name)
			return &NamedType{At: at, Name: name}
		}
		elem := p.typ()
		switch name {
		case "ptr":
			t = &PtrType{At: at, Elem: elem}
		case "const", "constexpr":
			t = &ConstType{At: at, Elem: elem, Constexpr: name == "constexpr"}
		case "shared":
			st := &SharedType{At: at, Elem: elem}
			if p.got(",") {
				if p.isName("align") {
					p.next()
					p.want("=")
					st.Align = p.expr()
				} else {
					p.errorf(p.tok.Pos, ErrBadDecl, "expected align=N in shared(...)")
				}
			}
			t = st
		}
		p.want(close)
	default:
		t = &NamedType{At: at, Name: name}
	}
	// Array dimensions: T[a][b][c] is an array of a arrays of b arrays of c.
	var dims []Expr
	for p.isOp("[") {
		p.next()
		dims = append(dims, p.expr())
		p.want("]")
	}
	for i := len(dims) - 1; i >= 0; i-- {
		t = &ArrayType{At: at, Elem: t, Len: dims[i]}
	}
	return t
}

// ---- statements ----

// suite parses ':' followed by an indented block or a simple statement on the
// same line. The paper also prints `if (flag)` without a colon before an
// indented block; that is accepted.
func (p *parser) suite() []Stmt {
	colon := p.got(":")
	if p.tok.Kind != pyscan.NEWLINE {
		if !colon {
			p.errorf(p.tok.Pos, ErrSyntax, "expected ':', found %s", p.tok)
			p.skipLine()
			return nil
		}
		return p.simpleStmts()
	}
	p.next()
	if p.tok.Kind != pyscan.INDENT {
		p.errorf(p.tok.Pos, ErrBadSuite, "expected an indented block")
		return nil
	}
	p.next()
	var list []Stmt
	for p.tok.Kind != pyscan.DEDENT && p.tok.Kind != pyscan.EOF {
		list = append(list, p.stmt()...)
	}
	if p.tok.Kind == pyscan.DEDENT {
		p.next()
	}
	return list
}

func (p *parser) stmt() []Stmt {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxDepth {
		p.errorf(p.tok.Pos, ErrNestedTooDeep, "statements nested too deeply")
		p.skipLine()
		return nil
	}
	if p.tok.Kind == pyscan.INDENT {
		p.errorf(p.tok.Pos, ErrSyntax, "unexpected indentation")
		p.skipLine()
		return nil
	}
	if p.tok.Kind == pyscan.NAME {
		at := p.tok.Pos
		switch p.tok.Text {
		case "with":
			p.next()
			s := &WithStmt{At: at}
			x := p.expr()
			c, ok := x.(*Call)
			if !ok {
				p.errorf(x.Pos(), ErrSyntax, "with needs a call such as group(thread[32]) or partition(x, ...)")
				c = &Call{Fun: x}
			}
			s.Call = c
			if p.isName("as") {
				p.next()
				s.As = p.ident()
			}
			s.Body = p.suite()
			return []Stmt{s}
		case "match":
			return []Stmt{p.matchStmt()}
		case "for":
			p.next()
			s := &ForStmt{At: at, Var: p.ident()}
			if !p.isName("in") {
				p.errorf(p.tok.Pos, ErrSyntax, "expected 'in' in for loop, found %s", p.tok)
			} else {
				p.next()
			}
			x := p.expr()
			c, ok := x.(*Call)
			if !ok || FuncName(c.Fun) != "range" {
				p.errorf(x.Pos(), ErrSyntax, "for loops iterate over range(start, stop[, step])")
				c = &Call{Fun: &Ident{At: x.Pos(), Name: "range"}, Args: []Expr{x}}
			}
			s.Iter = c
			s.Body = p.suite()
			return []Stmt{s}
		case "while":
			p.next()
			s := &WhileStmt{At: at, Cond: p.expr()}
			s.Body = p.suite()
			return []Stmt{s}
		case "if":
			return []Stmt{p.ifStmt()}
		}
	}
	return p.simpleStmts()
}

func (p *parser) ifStmt() *IfStmt {
	s := &IfStmt{At: p.tok.Pos}
	p.next()
	s.Cond = p.expr()
	s.Then = p.suite()
	if p.isName("elif") {
		s.Elif = true
		s.Else = []Stmt{p.ifStmt()}
	} else if p.isName("else") {
		p.next()
		s.Else = p.suite()
	}
	return s
}

func (p *parser) matchStmt() *MatchStmt {
	s := &MatchStmt{At: p.tok.Pos}
	p.next()
	s.Subject = p.expr()
	p.want(":")
	if p.tok.Kind != pyscan.NEWLINE {
		p.errorf(p.tok.Pos, ErrSyntax, "expected newline after match header")
		p.skipLine()
		return s
	}
	p.next()
	if p.tok.Kind != pyscan.INDENT {
		p.errorf(p.tok.Pos, ErrBadSuite, "expected indented case blocks")
		return s
	}
	p.next()
	for p.tok.Kind != pyscan.DEDENT && p.tok.Kind != pyscan.EOF {
		if !p.isName("case") {
			p.errorf(p.tok.Pos, ErrSyntax, "expected 'case n:' inside match, found %s", p.tok)
			p.skipLine()
			continue
		}
		c := &Case{At: p.tok.Pos}
		p.next()
		c.Value = p.expr()
		c.Body = p.suite()
		s.Cases = append(s.Cases, c)
	}
	if p.tok.Kind == pyscan.DEDENT {
		p.next()
	}
	return s
}

// simpleStmts parses simple statements separated by ';' up to the newline.
func (p *parser) simpleStmts() []Stmt {
	var list []Stmt
	for {
		if s := p.simpleStmt(); s != nil {
			list = append(list, s)
		}
		if !p.got(";") || p.tok.Kind == pyscan.NEWLINE || p.tok.Kind == pyscan.EOF {
			break
		}
	}
	if p.tok.Kind == pyscan.NEWLINE {
		p.next()
	} else if p.tok.Kind != pyscan.EOF && p.tok.Kind != pyscan.DEDENT {
		p.errorf(p.tok.Pos, ErrSyntax, "unexpected %s at end of statement", p.tok)
		p.skipLine()
	}
	return list
}

func (p *parser) simpleStmt() Stmt {
	at := p.tok.Pos
	if p.tok.Kind == pyscan.NAME {
		switch p.tok.Text {
		case "pass":
			p.next()
			return &PassStmt{At: at}
		case "break", "continue":
			t := p.tok.Text
			p.next()
			return &BranchStmt{At: at, Tok: t}
		case "return":
			p.next()
			s := &ReturnStmt{At: at}
			if p.tok.Kind != pyscan.NEWLINE && !p.isOp(";") && p.tok.Kind != pyscan.EOF && p.tok.Kind != pyscan.DEDENT {
				s.Value = p.expr()
			}
			return s
		}
	}
	if p.tok.Kind == pyscan.NEWLINE || p.tok.Kind == pyscan.EOF || p.tok.Kind == pyscan.DEDENT {
		p.errorf(at, ErrSyntax, "expected a statement, found %s", p.tok)
		return nil
	}
	x := p.expr()
	if id, ok := x.(*Ident); ok && p.isOp(":") {
		// Declaration: name : T [@ P] [= e].
		p.next()
		d := &DeclStmt{Name: id, Type: p.typ()}
		if p.got("@") {
			d.Persp = p.persp()
		}
		if p.got("=") {
			d.Value = p.expr()
		}
		return d
	}
	if p.tok.Kind == pyscan.OP {
		switch p.tok.Text {
		case "=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=":
			s := &AssignStmt{LHS: x, OpPos: p.tok.Pos, Op: p.tok.Text}
			p.next()
			s.RHS = p.expr()
			return s
		}
	}
	return &ExprStmt{X: x}
}

// ---- expressions ----

func (p *parser) expr() Expr {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxDepth {
		p.errorf(p.tok.Pos, ErrNestedTooDeep, "expression nested too deeply")
		for p.tok.Kind != pyscan.EOF && p.tok.Kind != pyscan.NEWLINE {
			p.next()
		}
		return &Ident{At: p.tok.Pos, Name: "_"}
	}
	if p.isName("lambda") {
		l := &LambdaExpr{At: p.tok.Pos}
		p.next()
		for !p.isOp(":") && p.tok.Kind == pyscan.NAME {
			l.Params = append(l.Params, p.ident())
			if !p.got(",") {
				break
			}
		}
		p.want(":")
		l.Body = p.expr()
		return l
	}
	x := p.binary(0)
	if p.isName("if") {
		p.next()
		c := &CondExpr{Then: x, Cond: p.binary(0)}
		if !p.isName("else") {
			p.errorf(p.tok.Pos, ErrSyntax, "expected 'else' in conditional expression, found %s", p.tok)
			c.Else = &Ident{At: p.tok.Pos, Name: "_"}
			return c
		}
		p.next()
		c.Else = p.expr()
		return c
	}
	return x
}

// Binary operator precedence, Python's order (C's && and || spelled and/or).
var binPrec = map[string]int{
	"or": 1, "and": 2,
	"==": 4, "!=": 4, "<": 4, "<=": 4, ">": 4, ">=": 4,
	"|": 5, "^": 6, "&": 7, "<<": 8, ">>": 8,
	"+": 9, "-": 9, "*": 10, "/": 10, "//": 10, "%": 10,
}

func (p *parser) binOp() (string, int) {
	if p.tok.Kind == pyscan.OP || (p.tok.Kind == pyscan.NAME && (p.tok.Text == "and" || p.tok.Text == "or")) {
		if prec, ok := binPrec[p.tok.Text]; ok {
			return p.tok.Text, prec
		}
	}
	return "", 0
}

func (p *parser) binary(min int) Expr {
	x := p.unary()
	for {
		op, prec := p.binOp()
		if prec == 0 || prec <= min {
			return x
		}
		pos := p.tok.Pos
		p.next()
		y := p.binary(prec)
		x = &BinaryExpr{OpPos: pos, Op: op, X: x, Y: y}
	}
}

func (p *parser) unary() Expr {
	if p.isOp("-") || p.isOp("+") || p.isOp("~") || p.isOp("!") || p.isName("not") {
		at, op := p.tok.Pos, p.tok.Text
		p.next()
		p.depth++
		defer func() { p.depth-- }()
		if p.depth > maxDepth {
			p.errorf(at, ErrNestedTooDeep, "expression nested too deeply")
			return &Ident{At: at, Name: "_"}
		}
		prec := 3 // not binds looser than comparisons
		if op != "not" {
			prec = 11
		}
		_ = prec
		if op == "not" {
			return &UnaryExpr{At: at, Op: op, X: p.binary(3)}
		}
		return &UnaryExpr{At: at, Op: op, X: p.unary()}
	}
	return p.postfix(p.primary())
}

func (p *parser) postfix(x Expr) Expr {
	for {
		switch {
		case p.isOp("("):
			x = p.call(x)
		case p.isOp("["):
			lb := p.tok.Pos
			p.next()
			ix := &IndexExpr{X: x, Lbrack: lb}
			if !p.isOp("]") {
				ix.Index = p.expr()
			}
			ix.Rbrack = p.want("]")
			x = ix
		case p.isOp("."):
			p.next()
			x = &AttrExpr{X: x, Name: p.ident()}
		default:
			return x
		}
	}
}

func (p *parser) call(fun Expr) *Call {
	c := &Call{Fun: fun, Lparen: p.tok.Pos}
	p.next()
	for !p.isOp(")") && p.tok.Kind != pyscan.EOF {
		if p.tok.Kind == pyscan.NAME {
			// Look for name=value (not name==value).
			save := p.tok
			e := p.expr()
			if id, ok := e.(*Ident); ok && id.At == save.Pos && p.isOp("=") {
				p.next()
				c.Kwargs = append(c.Kwargs, &Kwarg{Name: id, Value: p.expr()})
			} else {
				if len(c.Kwargs) > 0 {
					p.errorf(e.Pos(), ErrSyntax, "positional argument after keyword argument")
				}
				c.Args = append(c.Args, e)
			}
		} else {
			c.Args = append(c.Args, p.expr())
		}
		if !p.got(",") {
			break
		}
	}
	c.Rparen = p.want(")")
	return c
}

func (p *parser) primary() Expr {
	t := p.tok
	switch t.Kind {
	case pyscan.NAME:
		p.next()
		return &Ident{At: t.Pos, Name: t.Text}
	case pyscan.INT, pyscan.FLOAT, pyscan.STRING:
		p.next()
		return &BasicLit{At: t.Pos, Kind: t.Kind, Value: t.Raw, Text: t.Text}
	case pyscan.OP:
		switch t.Text {
		case "...":
			p.next()
			return &Ellipsis{At: t.Pos}
		case "(":
			p.next()
			if p.got(")") {
				return &TupleExpr{At: t.Pos}
			}
			x := p.expr()
			if p.isOp(",") {
				tu := &TupleExpr{At: t.Pos, Elts: []Expr{x}}
				for p.got(",") && !p.isOp(")") {
					tu.Elts = append(tu.Elts, p.expr())
				}
				p.want(")")
				return tu
			}
			p.want(")")
			return &ParenExpr{At: t.Pos, X: x}
		case "[", "{":
			p.next()
			closer := map[string]string{"[": "]", "{": "}"}[t.Text]
			var elts []Expr
			for !p.isOp(closer) && p.tok.Kind != pyscan.EOF {
				elts = append(elts, p.expr())
				if !p.got(",") {
					break
				}
			}
			p.want(closer)
			if t.Text == "[" {
				return &ListExpr{At: t.Pos, Elts: elts}
			}
			return &BraceExpr{At: t.Pos, Elts: elts}
		}
	}
	p.errorf(t.Pos, ErrSyntax, "expected an expression, found %s", t)
	if t.Kind != pyscan.NEWLINE && t.Kind != pyscan.EOF && t.Kind != pyscan.DEDENT && t.Kind != pyscan.INDENT {
		p.next()
	}
	return &Ident{At: t.Pos, Name: "_"}
}

var _ = fmt.Sprintf
