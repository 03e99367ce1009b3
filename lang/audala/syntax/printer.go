package syntax

import (
	"strings"
)

// Print renders prog as canonical source: two-space indentation, one
// statement per line, the schedule on the last line. Comments are kept: a
// comment on a line of its own is printed on its own line before the next
// construct, a comment after code stays at the end of the line printed
// last. Parse(Print(p)) yields a tree that prints identically (the fuzz
// target checks this).
func Print(prog *Program) string {
	pr := &printer{comments: prog.Comments}
	b := &pr.b
	for _, c := range prog.Cpp {
		pr.flush(c.Pos, 0)
		b.WriteString("$$" + c.Text + "\n")
	}
	if len(prog.Cpp) > 0 {
		b.WriteString("\n")
	}
	for i, s := range prog.Structs {
		pr.trailing(s.Pos)
		if i > 0 {
			b.WriteString("\n")
		}
		pr.flush(s.Pos, 0)
		b.WriteString("struct " + s.Name + "(")
		for j, par := range s.Params {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString(par.Name + ": " + par.Type.Name)
		}
		b.WriteString(") {\n")
		for j, st := range s.Steps {
			pr.trailing(st.Pos)
			if j > 0 {
				b.WriteString("\n")
			}
			pr.flush(st.Pos, 1)
			b.WriteString("  " + st.Name + " {\n")
			pr.stmts(st.Body, 2)
			pr.flush(st.End, 2)
			b.WriteString("  }\n")
		}
		pr.flush(s.End, 1)
		b.WriteString("}\n")
	}
	pos := schedPos(prog.Schedule)
	pr.trailing(pos)
	b.WriteString("\n")
	pr.flush(pos, 0)
	b.WriteString(SchedString(prog.Schedule) + "\n")
	pr.flush(int(^uint(0)>>1), 0)
	return b.String()
}

type printer struct {
	b        strings.Builder
	comments []Comment
}

// trailing prints the trailing comments before pos at the end of the last
// line printed.
func (pr *printer) trailing(pos Pos) {
	for len(pr.comments) > 0 && pr.comments[0].Pos < pos && pr.comments[0].Trailing {
		pr.flush(pr.comments[0].Pos+1, 0)
	}
}

// flush prints the comments before pos, own-line ones at depth.
func (pr *printer) flush(pos Pos, depth int) {
	for len(pr.comments) > 0 && pr.comments[0].Pos < pos {
		c := pr.comments[0]
		pr.comments = pr.comments[1:]
		out := pr.b.String()
		if c.Trailing && strings.HasSuffix(out, "\n") {
			// Append to the last non-empty line.
			body := strings.TrimRight(out, "\n")
			nl := len(out) - len(body)
			if body != "" {
				pr.b.Reset()
				pr.b.WriteString(body + " " + c.Text + strings.Repeat("\n", nl))
				continue
			}
		}
		pr.b.WriteString(strings.Repeat("  ", depth) + c.Text + "\n")
	}
}

func (pr *printer) stmts(list []Stmt, depth int) {
	b := &pr.b
	ind := strings.Repeat("  ", depth)
	for _, s := range list {
		pr.flush(stmtPos(s), depth)
		switch s := s.(type) {
		case *If:
			b.WriteString(ind + "if " + ExprString(s.Cond) + " then {\n")
			pr.stmts(s.Body, depth+1)
			pr.flush(s.End, depth+1)
			b.WriteString(ind + "}\n")
		case *Decl:
			b.WriteString(ind + s.Type.Name + " " + s.Name + " := " + ExprString(s.Value) + ";\n")
		case *Assign:
			b.WriteString(ind + strings.Join(s.Target.Parts, ".") + " := " + ExprString(s.Value) + ";\n")
		case *InlineCpp:
			b.WriteString(ind + "$$" + s.Text + "\n")
		}
	}
}

func stmtPos(s Stmt) Pos {
	switch s := s.(type) {
	case *If:
		return s.Pos
	case *Decl:
		return s.Type.Pos
	case *Assign:
		return s.Pos
	case *InlineCpp:
		return s.Pos
	}
	return 0
}

func schedPos(s Sched) Pos {
	switch s := s.(type) {
	case *Seq:
		return schedPos(s.Items[0])
	case *Call:
		return s.Pos
	case *Fix:
		return s.Pos
	}
	return 0
}

// ExprString renders e in source form.
func ExprString(e Expr) string {
	var b strings.Builder
	writeExpr(&b, e)
	return b.String()
}

func writeExpr(b *strings.Builder, e Expr) {
	switch e := e.(type) {
	case *Path:
		b.WriteString(strings.Join(e.Parts, "."))
	case *Lit:
		b.WriteString(e.Text)
	case *Null:
		b.WriteString("null")
	case *This:
		b.WriteString("this")
	case *Not:
		b.WriteString("!")
		writeExpr(b, e.X)
	case *Binary:
		writeExpr(b, e.X)
		b.WriteString(" " + e.Op + " ")
		writeExpr(b, e.Y)
	case *Cons:
		b.WriteString(e.Struct + "(")
		for i, a := range e.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			writeExpr(b, a)
		}
		b.WriteString(")")
	case *Paren:
		b.WriteString("(")
		writeExpr(b, e.X)
		b.WriteString(")")
	}
}

// SchedString renders a schedule in source form.
func SchedString(s Sched) string {
	switch s := s.(type) {
	case *Seq:
		parts := make([]string, len(s.Items))
		for i, it := range s.Items {
			parts[i] = SchedString(it)
		}
		return strings.Join(parts, " < ")
	case *Call:
		if s.Struct != "" {
			return s.Struct + "." + s.Step
		}
		return s.Step
	case *Fix:
		return "Fix(" + SchedString(s.Body) + ")"
	}
	return ""
}
