package syntax

import (
	"strings"
)

// Print renders prog as canonical source: two-space indentation, one
// statement per line, the schedule on the last line. Comments are not kept.
// Parse(Print(p)) yields a tree that prints identically (the fuzz target
// checks this).
func Print(prog *Program) string {
	var b strings.Builder
	for i, s := range prog.Structs {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString("struct " + s.Name + "(")
		for j, par := range s.Params {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString(par.Name + ": " + par.Type.Name)
		}
		b.WriteString(") {\n")
		for j, st := range s.Steps {
			if j > 0 {
				b.WriteString("\n")
			}
			b.WriteString("  " + st.Name + " {\n")
			printStmts(&b, st.Body, 2)
			b.WriteString("  }\n")
		}
		b.WriteString("}\n")
	}
	b.WriteString("\n" + SchedString(prog.Schedule) + "\n")
	return b.String()
}

func printStmts(b *strings.Builder, list []Stmt, depth int) {
	ind := strings.Repeat("  ", depth)
	for _, s := range list {
		switch s := s.(type) {
		case *If:
			b.WriteString(ind + "if " + ExprString(s.Cond) + " then {\n")
			printStmts(b, s.Body, depth+1)
			b.WriteString(ind + "}\n")
		case *Decl:
			b.WriteString(ind + s.Type.Name + " " + s.Name + " := " + ExprString(s.Value) + ";\n")
		case *Assign:
			b.WriteString(ind + strings.Join(s.Target.Parts, ".") + " := " + ExprString(s.Value) + ";\n")
		}
	}
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
