package syntax

import (
	"strconv"
	"strings"

	"weft.dev/weft/diag"
)

// Parse parses one .adl file. On a syntax error it records one diagnostic
// in diags and returns nil.
func Parse(file *diag.File, diags *diag.List) *Program {
	p := &parser{file: file, diags: diags}
	p.sc = scanner{src: file.Src, err: p.errorf}
	return p.parse()
}

type parser struct {
	file  *diag.File
	diags *diag.List
	sc    scanner
	toks  []token // lookahead buffer; toks[0] is the current token
	last  token   // last scanned token (for the negative-literal rule)
	depth int
}

// bailout unwinds the parser after the first error; it never leaves Parse.
type bailout struct{}

func (p *parser) errorf(pos Pos, code, format string, args ...any) {
	p.diags.Errorf(p.file.At(pos), code, format, args...)
	panic(bailout{})
}

func (p *parser) parse() (prog *Program) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(bailout); !ok {
				panic(r)
			}
			prog = nil
		}
	}()
	prog = &Program{}
	for p.peek(0).kind == tCpp {
		t := p.advance()
		prog.Cpp = append(prog.Cpp, &InlineCpp{Pos: t.pos, Text: t.lit})
	}
	for p.is(tKeyword, "struct") {
		prog.Structs = append(prog.Structs, p.structDecl())
	}
	if len(prog.Structs) == 0 {
		p.unexpected("struct declaration")
	}
	prog.Schedule = p.schedule()
	if p.peek(0).kind != tEOF {
		p.unexpected("'<' or end of file")
	}
	prog.Comments = p.sc.comments
	return prog
}

func endsOperand(t token) bool {
	switch t.kind {
	case tIdent, tNat, tInt:
		return true
	case tKeyword:
		return t.lit == "this" || t.lit == "null" || t.lit == "true" || t.lit == "false"
	case tPunct:
		return t.lit == ")"
	}
	return false
}

func (p *parser) peek(i int) token {
	for len(p.toks) <= i {
		t, ok := p.sc.next(endsOperand(p.last))
		if !ok {
			panic(bailout{})
		}
		p.last = t
		p.toks = append(p.toks, t)
	}
	return p.toks[i]
}

func (p *parser) advance() token {
	t := p.peek(0)
	p.toks = p.toks[1:]
	return t
}

func (p *parser) is(kind tok, lit string) bool {
	t := p.peek(0)
	return t.kind == kind && (lit == "" || t.lit == lit)
}

func (p *parser) unexpected(want string) {
	t := p.peek(0)
	if t.kind == tCpp {
		p.errorf(t.pos, "A0106", "inline C++ ($$) line here: $$ lines go before the first struct or stand as statements of a step (where AuDaLaC accepts them)")
	}
	p.errorf(t.pos, "A0101", "syntax error: unexpected %s, expected %s", t, want)
}

func (p *parser) expect(lit string) token {
	t := p.peek(0)
	if t.kind != tPunct || t.lit != lit {
		if lit == ")" && t.kind == tEOF {
			p.unexpected("')'")
		}
		p.unexpected("'" + lit + "'")
	}
	return p.advance()
}

func (p *parser) keyword(lit string) token {
	if !p.is(tKeyword, lit) {
		p.unexpected("'" + lit + "'")
	}
	return p.advance()
}

// simpleID accepts an identifier without dots.
func (p *parser) simpleID(what string) token {
	t := p.peek(0)
	if t.kind == tKeyword && t.lit == "String" {
		p.errorf(t.pos, "A0105", "strings are not supported (the thesis's AuDaLaC has no string values)")
	}
	if t.kind != tIdent {
		p.unexpected(what)
	}
	if i := strings.IndexByte(t.lit, '.'); i >= 0 {
		p.errorf(t.pos+i, "A0101", "syntax error: %s must be a simple name, not the path %s", what, t.lit)
	}
	return p.advance()
}

func (p *parser) structDecl() *Struct {
	p.keyword("struct")
	name := p.simpleID("struct name")
	s := &Struct{Pos: name.pos, Name: name.lit}
	p.expect("(")
	for !p.is(tPunct, ")") {
		pn := p.simpleID("parameter name")
		p.expect(":")
		s.Params = append(s.Params, &Param{Pos: pn.pos, Name: pn.lit, Type: p.typeName()})
		if !p.is(tPunct, ",") {
			break
		}
		p.advance()
	}
	p.expect(")")
	p.expect("{")
	for !p.is(tPunct, "}") {
		sn := p.simpleID("step name or '}'")
		p.expect("{")
		st := &Step{Pos: sn.pos, Name: sn.lit, Body: p.stmts()}
		st.End = p.expect("}").pos
		s.Steps = append(s.Steps, st)
	}
	s.End = p.expect("}").pos
	return s
}

func (p *parser) typeName() *TypeName {
	t := p.peek(0)
	if t.kind == tKeyword && (t.lit == "Nat" || t.lit == "Int" || t.lit == "Bool") {
		p.advance()
		return &TypeName{Pos: t.pos, Name: t.lit}
	}
	n := p.simpleID("type")
	return &TypeName{Pos: n.pos, Name: n.lit}
}

// stmts parses statements up to (not including) '}'.
func (p *parser) stmts() []Stmt {
	var list []Stmt
	for !p.is(tPunct, "}") {
		list = append(list, p.stmt())
	}
	return list
}

func (p *parser) stmt() Stmt {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > 200 {
		p.errorf(p.peek(0).pos, "A0107", "statements nested too deeply")
	}
	t := p.peek(0)
	switch {
	case t.kind == tCpp:
		p.advance()
		return &InlineCpp{Pos: t.pos, Text: t.lit}
	case t.kind == tKeyword && t.lit == "if":
		p.advance()
		cond := p.expr()
		p.keyword("then")
		p.expect("{")
		body := p.stmts()
		end := p.expect("}")
		return &If{Pos: t.pos, End: end.pos, Cond: cond, Body: body}
	case t.kind == tKeyword && (t.lit == "Nat" || t.lit == "Int" || t.lit == "Bool" || t.lit == "String"),
		t.kind == tIdent && p.peek(1).kind == tIdent:
		typ := p.typeName()
		name := p.simpleID("variable name")
		p.expect(":=")
		v := p.expr()
		p.expect(";")
		return &Decl{Pos: name.pos, Type: typ, Name: name.lit, Value: v}
	case t.kind == tIdent:
		p.advance()
		target := splitPath(t)
		p.expect(":=")
		v := p.expr()
		p.expect(";")
		return &Assign{Pos: t.pos, Target: target, Value: v}
	}
	p.unexpected("statement")
	return nil
}

func splitPath(t token) *Path {
	parts := strings.Split(t.lit, ".")
	path := &Path{Parts: parts}
	off := t.pos
	for _, s := range parts {
		path.Poss = append(path.Poss, off)
		off += len(s) + 1
	}
	return path
}

// Binary precedence levels, lowest first (C++ precedence, spec §2.3).
var levels = [][]string{
	{"||"},
	{"&&"},
	{"==", "!="},
	{"<", "<=", ">", ">="},
	{"+", "-"},
	{"*", "/", "%"},
}

func (p *parser) expr() Expr { return p.binary(0) }

func (p *parser) binary(level int) Expr {
	if level == len(levels) {
		return p.unary()
	}
	x := p.binary(level + 1)
	for {
		t := p.peek(0)
		if t.kind != tPunct || !contains(levels[level], t.lit) {
			return x
		}
		p.advance()
		y := p.binary(level + 1)
		x = &Binary{OpPos: t.pos, Op: t.lit, X: x, Y: y}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (p *parser) unary() Expr {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > 200 {
		p.errorf(p.peek(0).pos, "A0107", "expression nested too deeply")
	}
	t := p.peek(0)
	if t.kind == tPunct && t.lit == "!" {
		p.advance()
		return &Not{Pos: t.pos, X: p.unary()}
	}
	return p.bottom()
}

func (p *parser) bottom() Expr {
	t := p.peek(0)
	switch t.kind {
	case tKeyword:
		switch t.lit {
		case "null":
			p.advance()
			return &Null{Pos: t.pos}
		case "this":
			p.advance()
			return &This{Pos: t.pos}
		case "true", "false":
			p.advance()
			v := int64(0)
			if t.lit == "true" {
				v = 1
			}
			return &Lit{Pos: t.pos, Kind: BoolLit, Value: v, Text: t.lit}
		}
	case tNat:
		p.advance()
		v, err := strconv.ParseUint(t.lit, 10, 32)
		if err != nil {
			p.errorf(t.pos, "A0104", "Nat literal %s does not fit in 32 bits", t.lit)
		}
		return &Lit{Pos: t.pos, Kind: NatLit, Value: int64(v), Text: t.lit}
	case tInt:
		p.advance()
		v, err := strconv.ParseInt(t.lit, 10, 32)
		if err != nil {
			p.errorf(t.pos, "A0104", "Int literal %s does not fit in 32 bits", t.lit)
		}
		return &Lit{Pos: t.pos, Kind: IntLit, Value: v, Text: t.lit}
	case tIdent:
		p.advance()
		if !strings.Contains(t.lit, ".") && p.is(tPunct, "(") {
			p.advance()
			c := &Cons{Pos: t.pos, Struct: t.lit}
			for !p.is(tPunct, ")") {
				c.Args = append(c.Args, p.expr())
				if !p.is(tPunct, ",") {
					break
				}
				p.advance()
			}
			p.expect(")")
			return c
		}
		return splitPath(t)
	case tPunct:
		if t.lit == "(" {
			p.advance()
			x := p.expr()
			p.expect(")")
			return &Paren{Pos: t.pos, X: x}
		}
	}
	p.unexpected("expression")
	return nil
}

// schedule parses `Bottom ('<' Bottom)*`; '<' is sequencing.
func (p *parser) schedule() Sched {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > 200 {
		p.errorf(p.peek(0).pos, "A0107", "schedule nested too deeply")
	}
	seq := &Seq{}
	for {
		seq.Items = append(seq.Items, p.bottomSched())
		if !p.is(tPunct, "<") {
			break
		}
		p.advance()
	}
	if len(seq.Items) == 1 {
		return seq.Items[0]
	}
	return seq
}

func (p *parser) bottomSched() Sched {
	t := p.peek(0)
	if t.kind == tKeyword && t.lit == "Fix" {
		p.advance()
		p.expect("(")
		body := p.schedule()
		p.expect(")")
		return &Fix{Pos: t.pos, Body: body}
	}
	if t.kind != tIdent {
		p.unexpected("step call or Fix")
	}
	p.advance()
	parts := strings.Split(t.lit, ".")
	switch len(parts) {
	case 1:
		return &Call{Pos: t.pos, Step: parts[0], StepPos: t.pos}
	case 2:
		return &Call{Pos: t.pos, Struct: parts[0], Step: parts[1], StepPos: t.pos + len(parts[0]) + 1}
	}
	p.errorf(t.pos, "A0101", "syntax error: step call %s has more than one '.'", t.lit)
	return nil
}
