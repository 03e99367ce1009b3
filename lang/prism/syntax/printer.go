package syntax

import (
	"io"

	"strings"
	"weft.dev/weft/diag"

	"weft.dev/weft/pyscan"
)

// Fprint writes f in canonical form: 4-space indentation, one statement per
// line, comments kept (own-line comments before the statement that follows
// them, trailing comments at the end of their line). Printing a printed
// file again gives the same bytes.
func Fprint(w io.Writer, f *File) error {
	p := &printer{comments: f.Comments}
	for i, fn := range f.Funcs {
		if i > 0 {
			p.b.WriteString("\n\n")
		}
		p.funcDecl(fn)
	}
	p.flushComments(-1, 0)
	_, err := io.WriteString(w, p.b.String())
	return err
}

// FprintExpr writes one expression.
func FprintExpr(w io.Writer, x Expr) {
	p := &printer{}
	p.expr(x, 0)
	io.WriteString(w, p.b.String())
}

type printer struct {
	b        strings.Builder
	comments []pyscan.Comment
	next     int
}

// flushComments prints the own-line comments that start before offset
// (all when off < 0).
func (p *printer) flushComments(off, indent int) {
	for p.next < len(p.comments) {
		c := p.comments[p.next]
		if off >= 0 && c.Pos.Offset >= off {
			return
		}
		p.next++
		if !c.Own {
			// A trailing comment whose line was already printed.
			continue
		}
		p.b.WriteString(strings.Repeat("    ", indent) + c.Text + "\n")
	}
}

// trailing appends a trailing comment that sits on the line ending before
// offset end.
func (p *printer) trailing(end int) {
	if p.next < len(p.comments) {
		c := p.comments[p.next]
		if !c.Own && (end < 0 || c.Pos.Offset < end) {
			p.b.WriteString("  " + c.Text)
			p.next++
		}
	}
}

func (p *printer) line(indent int, at int) {
	p.flushComments(at, indent)
	p.b.WriteString(strings.Repeat("    ", indent))
}

func (p *printer) funcDecl(fn *FuncDecl) {
	for _, d := range fn.Decorators {
		p.line(0, d.Pos().Offset-1)
		p.b.WriteString("@")
		p.callOrName(d)
		p.trailingAt(d.Pos(), lastOffset(d))
		p.b.WriteString("\n")
	}
	p.line(0, fn.At.Offset)
	p.b.WriteString("def " + fn.Name.Name + "(")
	for i, prm := range fn.Params {
		if i > 0 {
			p.b.WriteString(", ")
		}
		p.b.WriteString(prm.Name.Name + ": ")
		p.typ(prm.Type)
		if prm.Persp != nil {
			p.b.WriteString(" @ ")
			p.persp(prm.Persp)
		}
	}
	p.b.WriteString(")")
	if fn.Result != nil {
		p.b.WriteString(" -> ")
		p.typ(fn.Result)
	}
	p.b.WriteString(":")
	p.body(fn.Body, 1)
}

func (p *printer) callOrName(c *Call) {
	if c.Lparen.File == nil && len(c.Args) == 0 && len(c.Kwargs) == 0 {
		p.expr(c.Fun, 0)
		return
	}
	p.expr(c, 0)
}

func (p *printer) body(list []Stmt, indent int) {
	p.b.WriteString("\n")
	if len(list) == 0 {
		p.line(indent, -1)
		p.b.WriteString("pass\n")
		return
	}
	for _, s := range list {
		p.stmt(s, indent)
	}
}

func (p *printer) nextOffset(s Stmt) int { return s.Pos().Offset }

func (p *printer) stmt(s Stmt, indent int) {
	p.line(indent, p.nextOffset(s))
	switch s := s.(type) {
	case *PassStmt:
		p.b.WriteString("pass")
	case *BranchStmt:
		p.b.WriteString(s.Tok)
	case *ReturnStmt:
		p.b.WriteString("return")
		if s.Value != nil {
			p.b.WriteString(" ")
			p.expr(s.Value, 0)
		}
	case *DeclStmt:
		p.b.WriteString(s.Name.Name + ": ")
		p.typ(s.Type)
		if s.Persp != nil {
			p.b.WriteString(" @ ")
			p.persp(s.Persp)
		}
		if s.Value != nil {
			p.b.WriteString(" = ")
			p.expr(s.Value, 0)
		}
	case *AssignStmt:
		p.expr(s.LHS, 0)
		p.b.WriteString(" " + s.Op + " ")
		p.expr(s.RHS, 0)
	case *ExprStmt:
		p.expr(s.X, 0)
	case *WithStmt:
		p.b.WriteString("with ")
		p.expr(s.Call, 0)
		if s.As != nil {
			p.b.WriteString(" as " + s.As.Name)
		}
		p.b.WriteString(":")
		p.trailingBefore(s.Body)
		p.body(s.Body, indent+1)
		return
	case *MatchStmt:
		p.b.WriteString("match ")
		p.expr(s.Subject, 0)
		p.b.WriteString(":")
		p.trailingAt(s.Subject.Pos(), lastOffset(s.Subject))
		p.b.WriteString("\n")
		for _, c := range s.Cases {
			p.line(indent+1, c.At.Offset)
			p.b.WriteString("case ")
			p.expr(c.Value, 0)
			p.b.WriteString(":")
			p.trailingBefore(c.Body)
			p.body(c.Body, indent+2)
		}
		return
	case *ForStmt:
		p.b.WriteString("for " + s.Var.Name + " in ")
		p.expr(s.Iter, 0)
		p.b.WriteString(":")
		p.trailingBefore(s.Body)
		p.body(s.Body, indent+1)
		return
	case *WhileStmt:
		p.b.WriteString("while ")
		p.expr(s.Cond, 0)
		p.b.WriteString(":")
		p.trailingBefore(s.Body)
		p.body(s.Body, indent+1)
		return
	case *IfStmt:
		p.ifStmt(s, indent)
		return
	}
	p.trailingOnLine(s)
	p.b.WriteString("\n")
}

// trailingOnLine appends the trailing comment on the last line of the
// simple statement s, if any.
func (p *printer) trailingOnLine(s Stmt) {
	if p.next >= len(p.comments) {
		return
	}
	c := p.comments[p.next]
	if c.Own || c.Pos.File == nil {
		return
	}
	p.trailingAt(s.Pos(), lastOffset(s))
}

// trailingAt appends the next comment if it trails the line holding offset
// off of the file of pos.
func (p *printer) trailingAt(pos diag.Pos, off int) {
	if p.next >= len(p.comments) {
		return
	}
	c := p.comments[p.next]
	if c.Own || c.Pos.File == nil || pos.File == nil {
		return
	}
	if off > pos.Offset {
		pos.Offset = off
	}
	if c.Pos.Line() == pos.Line() {
		p.b.WriteString("  " + c.Text)
		p.next++
	}
}

// lastOffset returns the largest source offset recorded in n: the start of
// its last token, or close to it (calls and indexes record their closing
// bracket).
func lastOffset(n Node) int {
	if n == nil {
		return -1
	}
	m := n.Pos().Offset
	max := func(o int) {
		if o > m {
			m = o
		}
	}
	sub := func(x Node) {
		if x != nil {
			max(lastOffset(x))
		}
	}
	switch n := n.(type) {
	case *DeclStmt:
		if n.Persp != nil {
			max(n.Persp.Rbrack.Offset)
		}
		if n.Value != nil {
			sub(n.Value)
		}
		if n.Type != nil {
			sub(n.Type)
		}
	case *AssignStmt:
		sub(n.RHS)
	case *ExprStmt:
		sub(n.X)
	case *ReturnStmt:
		if n.Value != nil {
			sub(n.Value)
		}
	case *ParenExpr:
		sub(n.X)
	case *BinaryExpr:
		sub(n.Y)
	case *UnaryExpr:
		sub(n.X)
	case *Call:
		max(n.Rparen.Offset)
	case *IndexExpr:
		max(n.Rbrack.Offset)
	case *AttrExpr:
		max(n.Name.At.Offset)
	case *LambdaExpr:
		sub(n.Body)
	case *CondExpr:
		sub(n.Else)
	case *ListExpr:
		for _, e := range n.Elts {
			sub(e)
		}
	case *TupleExpr:
		for _, e := range n.Elts {
			sub(e)
		}
	case *BraceExpr:
		for _, e := range n.Elts {
			sub(e)
		}
	case *Persp:
		max(n.Rbrack.Offset)
	}
	return m
}

func (p *printer) trailingBefore(body []Stmt) {
	if len(body) > 0 {
		p.trailing(body[0].Pos().Offset)
	}
}

func (p *printer) ifStmt(s *IfStmt, indent int) {
	p.b.WriteString("if ")
	p.expr(s.Cond, 0)
	p.b.WriteString(":")
	p.trailingBefore(s.Then)
	p.body(s.Then, indent+1)
	if len(s.Else) == 0 {
		return
	}
	if s.Elif {
		if elif, ok := s.Else[0].(*IfStmt); ok && len(s.Else) == 1 {
			p.line(indent, elif.At.Offset)
			p.b.WriteString("el")
			p.ifStmt(elif, indent)
			return
		}
	}
	p.line(indent, s.Else[0].Pos().Offset)
	p.b.WriteString("else:")
	p.body(s.Else, indent+1)
}

func (p *printer) persp(ps *Persp) {
	p.b.WriteString(ps.Level + "[")
	if ps.N != nil {
		p.expr(ps.N, 0)
	}
	p.b.WriteString("]")
}

func (p *printer) typ(t Type) {
	switch t := t.(type) {
	case *NamedType:
		p.b.WriteString(t.Name)
	case *PtrType:
		p.b.WriteString("ptr(")
		p.typ(t.Elem)
		p.b.WriteString(")")
	case *ConstType:
		if t.Constexpr {
			p.b.WriteString("constexpr(")
		} else {
			p.b.WriteString("const(")
		}
		p.typ(t.Elem)
		p.b.WriteString(")")
	case *ArrayType:
		// Print the base, then the dimensions outermost first.
		var dims []Expr
		var base Type = t
		for {
			a, ok := base.(*ArrayType)
			if !ok {
				break
			}
			dims = append(dims, a.Len)
			base = a.Elem
		}
		p.typ(base)
		for _, d := range dims {
			p.b.WriteString("[")
			p.expr(d, 0)
			p.b.WriteString("]")
		}
	case *SharedType:
		p.b.WriteString("shared(")
		p.typ(t.Elem)
		if t.Align != nil {
			p.b.WriteString(", align=")
			p.expr(t.Align, 0)
		}
		p.b.WriteString(")")
	}
}

func (p *printer) exprs(list []Expr) {
	for i, x := range list {
		if i > 0 {
			p.b.WriteString(", ")
		}
		p.expr(x, 0)
	}
}

// expr prints x; prec is the binding strength of the context, used only to
// decide whether a lambda or conditional needs parentheses (the tree keeps
// the user's parentheses as ParenExpr).
func (p *printer) expr(x Expr, prec int) {
	switch x := x.(type) {
	case *Ident:
		p.b.WriteString(x.Name)
	case *BasicLit:
		p.b.WriteString(x.Value)
	case *Ellipsis:
		p.b.WriteString("...")
	case *ParenExpr:
		p.b.WriteString("(")
		p.expr(x.X, 0)
		p.b.WriteString(")")
	case *BinaryExpr:
		bp := binPrec[x.Op]
		if bp < prec {
			p.b.WriteString("(")
		}
		p.expr(x.X, bp)
		p.b.WriteString(" " + x.Op + " ")
		p.expr(x.Y, bp+1)
		if bp < prec {
			p.b.WriteString(")")
		}
	case *UnaryExpr:
		p.b.WriteString(x.Op)
		if x.Op == "not" {
			p.b.WriteString(" ")
		}
		p.expr(x.X, 11)
	case *Call:
		p.expr(x.Fun, 12)
		p.b.WriteString("(")
		p.exprs(x.Args)
		for i, k := range x.Kwargs {
			if i > 0 || len(x.Args) > 0 {
				p.b.WriteString(", ")
			}
			p.b.WriteString(k.Name.Name + "=")
			p.expr(k.Value, 0)
		}
		p.b.WriteString(")")
	case *IndexExpr:
		p.expr(x.X, 12)
		p.b.WriteString("[")
		if x.Index != nil {
			p.expr(x.Index, 0)
		}
		p.b.WriteString("]")
	case *AttrExpr:
		p.expr(x.X, 12)
		p.b.WriteString("." + x.Name.Name)
	case *LambdaExpr:
		if prec > 0 {
			p.b.WriteString("(")
		}
		p.b.WriteString("lambda")
		for i, a := range x.Params {
			if i == 0 {
				p.b.WriteString(" ")
			} else {
				p.b.WriteString(", ")
			}
			p.b.WriteString(a.Name)
		}
		p.b.WriteString(": ")
		p.expr(x.Body, 0)
		if prec > 0 {
			p.b.WriteString(")")
		}
	case *CondExpr:
		if prec > 0 {
			p.b.WriteString("(")
		}
		p.expr(x.Then, 1)
		p.b.WriteString(" if ")
		p.expr(x.Cond, 1)
		p.b.WriteString(" else ")
		p.expr(x.Else, 0)
		if prec > 0 {
			p.b.WriteString(")")
		}
	case *ListExpr:
		p.b.WriteString("[")
		p.exprs(x.Elts)
		p.b.WriteString("]")
	case *TupleExpr:
		p.b.WriteString("(")
		p.exprs(x.Elts)
		if len(x.Elts) == 1 {
			p.b.WriteString(",")
		}
		p.b.WriteString(")")
	case *BraceExpr:
		p.b.WriteString("{")
		p.exprs(x.Elts)
		p.b.WriteString("}")
	case *Persp:
		p.persp(x)
	}
}
