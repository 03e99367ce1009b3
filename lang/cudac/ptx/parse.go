package ptx

import (
	"fmt"
	"strconv"
	"strings"
)

// OperandKind tells what an operand is.
type OperandKind uint8

const (
	ORef   OperandKind = iota + 1 // %N: an asm operand
	OReg                          // a register named in the template (.reg) or a special register (%tid.x)
	OImm                          // an integer immediate
	OSink                         // _
	OMem                          // [Base+Off] or [Base, {Coords}]
	OVec                          // {a, b, ...}
	OLabel                        // a branch target
)

// Operand is one instruction operand.
type Operand struct {
	Kind   OperandKind
	N      int    // ORef: the operand number
	Name   string // OReg, OLabel
	Imm    int64  // OImm; OMem: the byte offset
	Base   *Operand
	Elems  []Operand // OVec; OMem: tensor coordinates
	Negate bool      // a guard written @!p
}

// Inst is one PTX instruction.
type Inst struct {
	Line   int      // 1-based line in the template
	Op     string   // the full opcode, e.g. mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
	Mods   []string // Op split at its dots
	Guard  *Operand // @p / @!p, nil when unguarded
	Args   []Operand
	Kind   Kind
	Target int // OBra: the instruction index of the label
}

// Program is a parsed asm template.
type Program struct {
	Insts  []Inst
	Labels map[string]int
	Regs   map[string]string // declared registers and their type (.pred, .b32, ...)
}

// Error is a problem in an asm template, at a line of it.
type Error struct {
	Line int
	Msg  string
}

func (e *Error) Error() string { return fmt.Sprintf("line %d of the asm template: %s", e.Line, e.Msg) }

type tok struct {
	kind byte // 'i' ident, 'n' number, 'r' %N, or the punctuation character
	text string
	num  int64
	line int
}

// lex splits PTX text into tokens. unique replaces %= (GCC: a number unique
// to this asm statement); %% is a literal %.
func lex(src string, unique int) ([]tok, *Error) {
	var out []tok
	line := 1
	isIdent := func(c byte) bool {
		return c == '_' || c == '$' || c == '.' || c == ':' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
	}
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n':
			line++
			i++
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case strings.HasPrefix(src[i:], "//"):
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case strings.HasPrefix(src[i:], "/*"):
			j := strings.Index(src[i+2:], "*/")
			if j < 0 {
				return nil, &Error{line, "unterminated comment"}
			}
			line += strings.Count(src[i:i+2+j], "\n")
			i += j + 4
		case c == '%' && i+1 < len(src) && src[i+1] >= '0' && src[i+1] <= '9':
			j := i + 1
			for j < len(src) && src[j] >= '0' && src[j] <= '9' {
				j++
			}
			n, err := strconv.Atoi(src[i+1 : j])
			if err != nil || n > 1000 {
				return nil, &Error{line, "bad operand reference " + src[i:j]}
			}
			out = append(out, tok{kind: 'r', num: int64(n), line: line, text: src[i:j]})
			i = j
		case c == '%' || isIdent(c) && c != ':' && !(c >= '0' && c <= '9'):
			var b strings.Builder
			j := i
			for j < len(src) {
				if src[j] == '%' && j+1 < len(src) && src[j+1] == '=' {
					b.WriteString(strconv.Itoa(unique))
					j += 2
				} else if src[j] == '%' && j+1 < len(src) && src[j+1] == '%' {
					b.WriteByte('%')
					j += 2
				} else if src[j] == '%' && j == i {
					b.WriteByte('%')
					j++
				} else if isIdent(src[j]) {
					// "a:" is a label; "shared::cta" keeps its colons
					if src[j] == ':' && !(j+1 < len(src) && src[j+1] == ':') && !(j > i && src[j-1] == ':') {
						break
					}
					b.WriteByte(src[j])
					j++
				} else {
					break
				}
			}
			if b.Len() == 0 {
				return nil, &Error{line, fmt.Sprintf("unexpected character %q", c)}
			}
			out = append(out, tok{kind: 'i', text: b.String(), line: line})
			i = j
		case c >= '0' && c <= '9':
			j := i
			for j < len(src) && (isIdent(src[j]) && src[j] != ':') {
				j++
			}
			t := src[i:j]
			v, err := strconv.ParseInt(t, 0, 64)
			if err != nil {
				u, err2 := strconv.ParseUint(t, 0, 64)
				if err2 != nil {
					return nil, &Error{line, "bad number " + strconv.Quote(t)}
				}
				v = int64(u)
			}
			out = append(out, tok{kind: 'n', num: v, text: t, line: line})
			i = j
		case strings.IndexByte("{}[];,@!+-_:", c) >= 0:
			out = append(out, tok{kind: c, text: string(c), line: line})
			i++
		default:
			return nil, &Error{line, fmt.Sprintf("unexpected character %q", c)}
		}
	}
	return out, nil
}

// Parse reads an asm template with nops asm operands.
func Parse(src string, nops, unique int) (*Program, error) {
	toks, err := lex(src, unique)
	if err != nil {
		return nil, err
	}
	p := &Program{Labels: map[string]int{}, Regs: map[string]string{}}
	i := 0
	peek := func() tok {
		if i < len(toks) {
			return toks[i]
		}
		return tok{kind: 0, line: lastLine(toks)}
	}
	for i < len(toks) {
		t := toks[i]
		switch {
		case t.kind == '{' || t.kind == '}' || t.kind == ';':
			i++
			continue
		case t.kind == 'i' && t.text == ".reg":
			i++
			if peek().kind != 'i' || !strings.HasPrefix(peek().text, ".") {
				return nil, &Error{t.line, ".reg needs a type"}
			}
			typ := toks[i].text
			i++
			for {
				n := peek()
				if n.kind != 'i' || strings.HasPrefix(n.text, ".") {
					return nil, &Error{n.line, ".reg needs a register name"}
				}
				p.Regs[n.text] = typ
				i++
				if peek().kind != ',' {
					break
				}
				i++
			}
			if peek().kind != ';' {
				return nil, &Error{peek().line, "expected ';' after .reg"}
			}
			continue
		case t.kind == 'i' && i+1 < len(toks) && toks[i+1].kind == ':' && !strings.HasPrefix(t.text, "."):
			if _, dup := p.Labels[t.text]; dup {
				return nil, &Error{t.line, "label " + t.text + " defined twice"}
			}
			p.Labels[t.text] = len(p.Insts)
			i += 2
			continue
		}
		in := Inst{Line: t.line}
		if t.kind == '@' {
			i++
			g := Operand{Kind: OReg}
			if peek().kind == '!' {
				g.Negate = true
				i++
			}
			if peek().kind != 'i' {
				return nil, &Error{t.line, "expected a predicate after @"}
			}
			g.Name = toks[i].text
			i++
			in.Guard = &g
		}
		if peek().kind != 'i' {
			return nil, &Error{peek().line, fmt.Sprintf("expected an instruction, found %q", peek().text)}
		}
		in.Op = toks[i].text
		in.Line = toks[i].line
		in.Mods = strings.Split(in.Op, ".")
		i++
		for peek().kind != ';' {
			if peek().kind == 0 {
				return nil, &Error{in.Line, "missing ';' after " + in.Op}
			}
			var o Operand
			var e *Error
			o, i, e = operand(toks, i, nops)
			if e != nil {
				return nil, e
			}
			in.Args = append(in.Args, o)
			if peek().kind == ',' {
				i++
				continue
			}
			if peek().kind != ';' {
				return nil, &Error{peek().line, fmt.Sprintf("expected ',' or ';' after an operand of %s, found %q", in.Op, peek().text)}
			}
		}
		i++
		p.Insts = append(p.Insts, in)
	}
	for k := range p.Insts {
		in := &p.Insts[k]
		if err := classify(in, p); err != nil {
			return nil, err
		}
	}
	return p, nil
}

func lastLine(toks []tok) int {
	if len(toks) == 0 {
		return 1
	}
	return toks[len(toks)-1].line
}

func operand(toks []tok, i, nops int) (Operand, int, *Error) {
	if i >= len(toks) {
		return Operand{}, i, &Error{lastLine(toks), "missing operand"}
	}
	t := toks[i]
	switch t.kind {
	case 'r':
		if int(t.num) >= nops {
			return Operand{}, i, &Error{t.line, fmt.Sprintf("operand %s does not exist (the asm statement has %d operands)", t.text, nops)}
		}
		return Operand{Kind: ORef, N: int(t.num)}, i + 1, nil
	case 'n':
		return Operand{Kind: OImm, Imm: t.num}, i + 1, nil
	case '-':
		if i+1 < len(toks) && toks[i+1].kind == 'n' {
			return Operand{Kind: OImm, Imm: -toks[i+1].num}, i + 2, nil
		}
	case '_':
		return Operand{Kind: OSink}, i + 1, nil
	case 'i':
		if strings.HasPrefix(t.text, ".") {
			break
		}
		return Operand{Kind: OReg, Name: t.text}, i + 1, nil
	case '{':
		v := Operand{Kind: OVec}
		i++
		for {
			var e Operand
			var err *Error
			e, i, err = operand(toks, i, nops)
			if err != nil {
				return v, i, err
			}
			v.Elems = append(v.Elems, e)
			if i < len(toks) && toks[i].kind == ',' {
				i++
				continue
			}
			if i < len(toks) && toks[i].kind == '}' {
				return v, i + 1, nil
			}
			return v, i, &Error{t.line, "expected ',' or '}' in a vector operand"}
		}
	case '[':
		m := Operand{Kind: OMem}
		b, j, err := operand(toks, i+1, nops)
		if err != nil {
			return m, j, err
		}
		if b.Kind != ORef && b.Kind != OReg && b.Kind != OImm {
			return m, j, &Error{t.line, "an address is a register or an operand"}
		}
		m.Base = &b
		if j < len(toks) && (toks[j].kind == '+' || toks[j].kind == '-') && j+1 < len(toks) && toks[j+1].kind == 'n' {
			m.Imm = toks[j+1].num
			if toks[j].kind == '-' {
				m.Imm = -m.Imm
			}
			j += 2
		}
		if j < len(toks) && toks[j].kind == ',' {
			c, k, err := operand(toks, j+1, nops)
			if err != nil {
				return m, k, err
			}
			if c.Kind != OVec {
				return m, k, &Error{t.line, "tensor coordinates are a {vector}"}
			}
			m.Elems = c.Elems
			j = k
		}
		if j >= len(toks) || toks[j].kind != ']' {
			return m, j, &Error{t.line, "expected ']'"}
		}
		return m, j + 1, nil
	}
	return Operand{}, i, &Error{t.line, fmt.Sprintf("unexpected %q in an operand", t.text)}
}
