package syntax

import (
	"strings"
)

// Print returns the canonical text of f.
func Print(f *File) string {
	pr := &printer{}
	for i, d := range f.Decls {
		if i > 0 {
			// A blank line between declarations, two around procs.
			_, isProc := d.(*Proc)
			_, prevProc := f.Decls[i-1].(*Proc)
			if isProc || prevProc {
				pr.b.WriteString("\n\n")
			}
		}
		pr.decl(d)
	}
	if len(f.Trailing) > 0 {
		if len(f.Decls) > 0 {
			pr.b.WriteString("\n")
		}
		for _, c := range f.Trailing {
			pr.b.WriteString(c + "\n")
		}
	}
	return pr.b.String()
}

// ExprString returns the canonical text of one expression.
func ExprString(x Expr) string {
	pr := &printer{}
	pr.expr(x, 0)
	return pr.b.String()
}

// TypeString returns the canonical text of a type.
func TypeString(t *Type) string {
	pr := &printer{}
	pr.typ(t)
	return pr.b.String()
}

type printer struct {
	b      strings.Builder
	indent int
}

func (p *printer) line(c *Comments, text string) {
	for _, l := range c.Leading {
		p.b.WriteString(strings.Repeat("    ", p.indent))
		p.b.WriteString(l)
		p.b.WriteByte('\n')
	}
	p.b.WriteString(strings.Repeat("    ", p.indent))
	p.b.WriteString(text)
	if c.Trailing != "" {
		p.b.WriteString("  ")
		p.b.WriteString(c.Trailing)
	}
	p.b.WriteByte('\n')
}

func (p *printer) decl(d Decl) {
	switch d := d.(type) {
	case *Global:
		var names, vals []string
		for _, n := range d.Names {
			names = append(names, n.Name)
		}
		for _, v := range d.Values {
			vals = append(vals, ExprString(v))
		}
		p.line(&d.Comments, strings.Join(names, ", ")+" = "+strings.Join(vals, ", "))
	case *Proc:
		for i, l := range d.Leading {
			_ = i
			p.b.WriteString(l + "\n")
		}
		for i, dec := range d.Decorators {
			p.b.WriteString("@" + ExprString(dec))
			if i < len(d.DecoratorComments) && d.DecoratorComments[i] != "" {
				p.b.WriteString("  " + d.DecoratorComments[i])
			}
			p.b.WriteString("\n")
		}
		var params []string
		for _, prm := range d.Params {
			params = append(params, prm.Name.Name+": "+TypeString(prm.Type))
		}
		c := Comments{Trailing: d.Trailing}
		p.line(&c, "def "+d.Name.Name+"("+strings.Join(params, ", ")+"):")
		p.block(d.Body)
	case *Config:
		for _, l := range d.Leading {
			p.b.WriteString(l + "\n")
		}
		for _, dec := range d.Decorators {
			p.b.WriteString("@" + ExprString(dec) + "\n")
		}
		c := Comments{Trailing: d.Trailing}
		p.line(&c, "class "+d.Name.Name+":")
		p.indent++
		if len(d.Fields) == 0 {
			p.line(&Comments{}, "pass")
		}
		for _, f := range d.Fields {
			p.line(&Comments{}, f.Name.Name+": "+TypeString(f.Type))
		}
		p.indent--
	}
}

// barriers prints the targets of `>>`.
func (p *printer) barriers(bars []Expr, chained bool) string {
	if chained {
		var parts []string
		for _, b := range bars {
			parts = append(parts, exprPrec(b, precPostfix))
		}
		return strings.Join(parts, " >> ")
	}
	return p.exprs(bars)
}

func (p *printer) block(body []Stmt) {
	p.indent++
	if len(body) == 0 {
		p.b.WriteString(strings.Repeat("    ", p.indent) + "pass\n")
	}
	for _, s := range body {
		p.stmt(s)
	}
	p.indent--
}

func (p *printer) typ(t *Type) {
	if t.Window {
		p.b.WriteString("[" + t.Elem.Name + "]")
		p.b.WriteString("[" + p.exprs(t.Dims) + "]")
	} else {
		p.b.WriteString(t.Elem.Name)
		if t.Guard != nil {
			p.b.WriteString("(" + ExprString(t.Guard) + ")")
		}
		if t.Dims != nil {
			p.b.WriteString("[")
			for i, d := range t.Dims {
				if i > 0 {
					p.b.WriteString(", ")
				}
				if i < len(t.DimAnns) && t.DimAnns[i] != nil {
					// Exo's printer parenthesizes the annotation; the
					// extent binds as Python's left operand of @ (the
					// level of *), so `n / 32 @ (...)` needs no parens.
					p.expr(d, precMul)
					p.b.WriteString(" @ (")
					p.expr(t.DimAnns[i], 0)
					p.b.WriteString(")")
				} else {
					p.expr(d, 0)
				}
			}
			p.b.WriteString("]")
		}
	}
	if t.Mem != nil {
		p.b.WriteString(" @ ")
		p.expr(t.Mem, precPostfix)
	}
}

func (p *printer) exprs(xs []Expr) string {
	var parts []string
	for _, x := range xs {
		parts = append(parts, ExprString(x))
	}
	return strings.Join(parts, ", ")
}

func kwargs(ks []*Kwarg) []string {
	var out []string
	for _, k := range ks {
		out = append(out, k.Name.Name+"="+ExprString(k.Value))
	}
	return out
}

func (p *printer) stmt(s Stmt) {
	switch s := s.(type) {
	case *Alloc:
		p.line(&s.Comments, s.Name.Name+": "+TypeString(s.Type))
	case *Assign:
		text := ExprString(s.LHS) + " " + s.Op + " " + ExprString(s.RHS)
		if s.Mem != nil {
			text += " @ " + exprPrec(s.Mem, precPostfix)
		}
		p.line(&s.Comments, text)
	case *For:
		args := []string{ExprString(s.Lo), ExprString(s.Hi)}
		args = append(args, kwargs(s.Kwargs)...)
		p.line(&s.Comments, "for "+s.Var.Name+" in "+s.Mode.Name+"("+strings.Join(args, ", ")+"):")
		p.block(s.Body)
	case *If:
		p.ifStmt(s, "if ")
	case *With:
		p.line(&s.Comments, "with "+ExprString(s.Ctx)+":")
		p.block(s.Body)
	case *CallStmt:
		text := ExprString(s.Call)
		if len(s.Barriers) > 0 {
			text += " >> " + p.barriers(s.Barriers, s.Chained)
		}
		p.line(&s.Comments, text)
	case *Fence:
		p.line(&s.Comments, "Fence("+ExprString(s.First)+", "+ExprString(s.Second)+")")
	case *Arrive:
		name := "Arrive"
		if s.Reverse {
			name = "ReverseArrive"
		}
		args := ExprString(s.TL)
		if s.N != nil {
			args += ", " + ExprString(s.N)
		}
		p.line(&s.Comments, name+"("+args+") >> "+p.barriers(s.Barriers, s.Chained))
	case *Await:
		name := "Await"
		if s.Reverse {
			name = "ReverseAwait"
		}
		args := ExprString(s.Bar) + ", " + ExprString(s.TL)
		if s.N != nil {
			args += ", " + ExprString(s.N)
		}
		p.line(&s.Comments, name+"("+args+")")
	case *Assert:
		p.line(&s.Comments, "assert "+ExprString(s.Cond))
	case *Free:
		if s.Paren {
			p.line(&s.Comments, "free("+s.Name.Name+")")
		} else {
			p.line(&s.Comments, "free "+s.Name.Name)
		}
	case *Pass:
		p.line(&s.Comments, "pass")
	}
}

func (p *printer) ifStmt(s *If, kw string) {
	p.line(&s.Comments, kw+ExprString(s.Cond)+":")
	p.block(s.Then)
	if s.Elif && len(s.Else) == 1 {
		if e, ok := s.Else[0].(*If); ok {
			p.ifStmt(e, "elif ")
			return
		}
	}
	if s.Else != nil {
		p.line(&Comments{}, "else:")
		p.block(s.Else)
	}
}

// Precedence levels for printing with minimal parentheses (and for
// parsing: parser.binary).
const (
	precOr = iota + 1
	precAnd
	precNot
	precCmp
	precAdd
	precMul
	precUnary
	precPostfix
)

func binPrec(op string) int {
	switch op {
	case "or":
		return precOr
	case "and":
		return precAnd
	case "+", "-":
		return precAdd
	case "*", "/", "//", "%":
		return precMul
	}
	return precCmp
}

func exprPrec(x Expr, prec int) string {
	pr := &printer{}
	pr.expr(x, prec)
	return pr.b.String()
}

// expr prints x; prec is the binding strength the context requires.
func (p *printer) expr(x Expr, prec int) {
	switch x := x.(type) {
	case *Name:
		p.b.WriteString(x.Name)
	case *IntLit:
		p.b.WriteString(x.Text)
	case *FloatLit:
		p.b.WriteString(x.Text)
	case *StringLit:
		p.b.WriteString(quoteString(x.Value))
	case *BoolLit:
		if x.Value {
			p.b.WriteString("True")
		} else {
			p.b.WriteString("False")
		}
	case *Binary:
		bp := binPrec(x.Op)
		if bp < prec {
			p.b.WriteByte('(')
		}
		// Operators are left-associative: the right operand binds one tighter.
		// Comparisons chain in Python, so both sides of one bind tighter.
		lp := bp
		if bp == precCmp {
			lp = bp + 1
		}
		p.expr(x.X, lp)
		p.b.WriteString(" " + x.Op + " ")
		p.expr(x.Y, bp+1)
		if bp < prec {
			p.b.WriteByte(')')
		}
	case *Unary:
		up := precUnary
		op := x.Op
		if op == "not" {
			up = precNot
			op = "not "
		}
		if up < prec {
			p.b.WriteByte('(')
		}
		p.b.WriteString(op)
		p.expr(x.X, up)
		if up < prec {
			p.b.WriteByte(')')
		}
	case *Index:
		p.expr(x.X, precPostfix)
		p.b.WriteByte('[')
		for i, ix := range x.Indices {
			if i > 0 {
				p.b.WriteString(", ")
			}
			p.expr(ix, 0)
		}
		p.b.WriteByte(']')
	case *Slice:
		if x.Lo != nil {
			p.expr(x.Lo, 0)
		}
		p.b.WriteByte(':')
		if x.Hi != nil {
			p.expr(x.Hi, 0)
		}
	case *Call:
		p.expr(x.Fun, precPostfix)
		args := []string{}
		for _, a := range x.Args {
			args = append(args, ExprString(a))
		}
		args = append(args, kwargs(x.Kwargs)...)
		if x.TrailingComma && len(args) > 0 {
			p.b.WriteString("(" + strings.Join(args, ", ") + ", )")
			break
		}
		p.b.WriteString("(" + strings.Join(args, ", ") + ")")
	case *Kwarg:
		p.b.WriteString(x.Name.Name + "=")
		p.expr(x.Value, 0)
	case *List:
		p.b.WriteString("[" + p.exprs(x.Elems) + "]")
	case *Tuple:
		if len(x.Elems) == 1 {
			p.b.WriteString("(" + ExprString(x.Elems[0]) + ",)")
		} else {
			p.b.WriteString("(" + p.exprs(x.Elems) + ")")
		}
	case *Attr:
		if _, isInt := x.X.(*IntLit); isInt {
			// "0 .A" printed as "0.A" would scan as a float literal.
			p.b.WriteString("(" + ExprString(x.X) + ")")
		} else {
			p.expr(x.X, precPostfix)
		}
		p.b.WriteString("." + x.Name.Name)
	case *BadExpr:
		p.b.WriteString("<bad>")
	}
}

// quoteString spells a string's value so that the scanner (pyscan) reads
// it back as the same value: it decodes only \\, \", \', \n and \t and
// keeps every other byte as written, so only those are escaped and other
// control bytes and invalid UTF-8 are written as they are
// (strconv.Quote's \x10 or \a read back as four or two characters:
// FuzzParse). A "\r" cannot be written in a one-line string (it ends
// one): a value with one is written triple-quoted, where it may stand.
func quoteString(v string) string {
	q := `"`
	if strings.IndexByte(v, '\r') >= 0 {
		q = `"""`
	}
	var b strings.Builder
	b.Grow(len(v) + 2*len(q))
	b.WriteString(q)
	for i := 0; i < len(v); i++ {
		switch c := v[i]; c {
		case '\\':
			b.WriteString(`\\`)
		case '"':
			b.WriteString(`\"`)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteString(q)
	return b.String()
}
