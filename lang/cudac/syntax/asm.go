package syntax

import (
	"strings"

	"weft.dev/weft/diag"
)

// GNU inline assembly (the statement form CUDA code uses to reach PTX):
//
//	asm [volatile] ( TEMPLATE [: OUTPUTS [: INPUTS [: CLOBBERS]]] );
//
// TEMPLATE is a (concatenated) string literal of PTX text in which %N names
// operand N (outputs first, then inputs), %% is a literal % and %= a number
// unique to the statement. An operand is "CONSTRAINT"(expression). The
// constraints CUDA documents ("Using Inline PTX Assembly in CUDA", §3) are
// the register kinds h (.u16), r (.u32), l (.u64), f (.f32), d (.f64) and n
// (an immediate integer), with the modifiers = (written) and + (read and
// written) on outputs. The template's PTX is parsed by package ptx, not here.

// AsmStmt is one inline assembly statement.
type AsmStmt struct {
	Pos      diag.Pos
	Volatile bool
	Template string   // unescaped
	TmplPos  diag.Pos // the first string literal of the template
	Outputs  []*AsmOperand
	Inputs   []*AsmOperand
	Clobbers []string
}

// AsmOperand is "Constraint"(X). Kind is the register kind letter (h r l f
// d n); Write marks = and +, Read marks + (and every input).
type AsmOperand struct {
	Pos        diag.Pos
	Constraint string
	Kind       byte
	Write      bool
	Read       bool
	X          Expr
}

func (s *AsmStmt) stmtPos() diag.Pos { return s.Pos }

// isAsmKeyword reports whether an identifier starts an asm statement.
func isAsmKeyword(s string) bool { return s == "asm" || s == "__asm__" || s == "__asm" }

// asmStmt parses an asm statement; the current token is its keyword.
func (p *parser) asmStmt() Stmt {
	kw := p.next()
	s := &AsmStmt{Pos: kw.Pos}
	for p.tok().Kind == Ident {
		switch p.tok().Text {
		case "volatile", "__volatile__", "__volatile":
			s.Volatile = true
			p.next()
			continue
		case "goto", "inline":
			p.errorf(p.tok().Pos, "C0212", "asm %s is not supported", p.tok().Text)
		}
		break
	}
	p.expect("(")
	if p.tok().Kind != StringLit {
		p.errorf(p.tok().Pos, "C0212", "asm needs a string literal template, found '%s'", p.tok().Text)
	}
	s.TmplPos = p.tok().Pos
	s.Template = p.asmString()
	// sections are separated by ':' ("::" is two separators)
	section := 0
	for {
		switch {
		case p.is(":"):
			p.next()
			section++
		case p.is("::"):
			p.next()
			section += 2
		default:
			section = -1
		}
		if section < 0 {
			break
		}
		if section > 3 {
			p.errorf(p.tok().Pos, "C0212", "asm has at most three ':' sections (outputs, inputs, clobbers)")
		}
		// a section may be empty: the next token is ':', '::' or ')'
		for p.tok().Kind == StringLit {
			if section == 3 {
				s.Clobbers = append(s.Clobbers, p.asmString())
			} else if op := p.asmOperand(section == 1); op != nil {
				if section == 1 {
					s.Outputs = append(s.Outputs, op)
				} else {
					s.Inputs = append(s.Inputs, op)
				}
			}
			if !p.got(",") {
				break
			}
		}
	}
	p.expect(")")
	p.expect(";")
	return s
}

// asmString reads one or more adjacent string literals.
func (p *parser) asmString() string {
	var b strings.Builder
	for p.tok().Kind == StringLit {
		t := p.next()
		if len(t.Text) < 2 || t.Text[len(t.Text)-1] != '"' || t.Text[0] != '"' {
			p.errorf(t.Pos, "C0209", "invalid string literal")
			continue
		}
		u, ok := unescape(t.Text[1 : len(t.Text)-1])
		if !ok {
			p.errorf(t.Pos, "C0209", "invalid escape in string literal")
		}
		b.WriteString(u)
	}
	return b.String()
}

// asmOperand parses "CONSTRAINT"(expr).
func (p *parser) asmOperand(output bool) *AsmOperand {
	pos := p.tok().Pos
	c := p.asmString()
	op := &AsmOperand{Pos: pos, Constraint: c, Read: !output}
	rest := c
	for rest != "" && (rest[0] == '=' || rest[0] == '+' || rest[0] == '&') {
		switch rest[0] {
		case '=':
			op.Write = true
		case '+':
			op.Write, op.Read = true, true
		}
		rest = rest[1:]
	}
	switch {
	case len(rest) != 1 || !strings.ContainsRune("hrlfdn", rune(rest[0])):
		p.errorf(pos, "C0212", "unsupported asm operand constraint %q (want h, r, l, f, d or n, with = or + on outputs)", c)
	case output && !op.Write:
		p.errorf(pos, "C0212", "asm output constraint %q needs '=' or '+'", c)
	case !output && op.Write:
		p.errorf(pos, "C0212", "asm input constraint %q may not have '=' or '+'", c)
	case output && rest == "n":
		p.errorf(pos, "C0212", "asm output cannot be an immediate (\"n\")")
	default:
		op.Kind = rest[0]
	}
	p.expect("(")
	op.X = p.expr()
	p.expect(")")
	return op
}
