package driver

import (
	"fmt"
	"regexp"
	"strings"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/syntax"
)

// Instruction templates that are not C++ (issue 14: two examples once had
// PTX text or only a comment as their `cuda=` template; weft build emitted
// them silently, and nvcc rejected one while the other computed nothing).
// The template of an @instr is pasted into the generated CUDA C++ as a
// statement (seed 000 §3.3), so weft build refuses, with W0908 at the
// template, one that has no code once comments are removed, and one that
// begins like a PTX instruction (a dotted opcode followed by operands, e.g.
// `cp.async.ca.shared.global [...]`, `bar.sync 0;`): PTX belongs inside an
// asm(...) statement or a library function (cuda/include/weft_cuda.cuh).

// ptxStart matches a PTX instruction at the start of a template: an
// opcode with at least one dot-separated modifier, then whitespace and an
// operand that cannot continue a C++ expression.
var ptxStart = regexp.MustCompile(`^[a-z][a-z0-9_]*(\.[a-z0-9_]+)+\s+[\[%{A-Za-z0-9_-]`)

// templateProblem says what is wrong with a template, or "".
func templateProblem(tmpl string) string {
	code := strings.TrimSpace(stripCComments(tmpl))
	switch {
	case code == "" || code == ";":
		return "has no code (only comments or blanks): the instruction would compute nothing"
	case ptxStart.MatchString(code) && !strings.Contains(strings.SplitN(code, " ", 2)[0], "("):
		op := strings.Fields(code)[0]
		return fmt.Sprintf("is PTX text (%s ...), not C++: wrap it in asm volatile(\"...\") or call a function of the runtime headers", op)
	}
	return ""
}

// stripCComments removes // and /* */ comments outside string and
// character literals.
func stripCComments(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\'':
			j := i + 1
			for j < len(s) && s[j] != c {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(s) {
				j = len(s) - 1
			}
			b.WriteString(s[i : j+1])
			i = j
		case strings.HasPrefix(s[i:], "//"):
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case strings.HasPrefix(s[i:], "/*"):
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				return b.String()
			}
			i += 2 + end + 1
			b.WriteByte(' ')
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// checkTemplates reports the @instr procs of f whose cuda= template is not
// C++ (see above).
func checkTemplates(f *syntax.File, errs *diag.List) {
	for _, d := range f.Decls {
		p, ok := d.(*syntax.Proc)
		if !ok {
			continue
		}
		for _, dec := range p.Decorators {
			c, ok := dec.(*syntax.Call)
			if !ok {
				continue
			}
			if n, ok := c.Fun.(*syntax.Name); !ok || n.Name != "instr" {
				continue
			}
			for _, k := range c.Kwargs {
				s, ok := k.Value.(*syntax.StringLit)
				if !ok || k.Name.Name != "cuda" {
					continue
				}
				if why := templateProblem(s.Value); why != "" {
					errs.Errorf(s.Pos(), "W0908", "instruction %s: its CUDA template %s", p.Name.Name, why)
				}
			}
		}
	}
}
