package lib

import (
	"fmt"
	"io"
	"strings"

	"weft.dev/weft/lang/weft/syntax"
)

// WriteTables prints the library's tables as Markdown: the generated part
// of docs/weft-reference.md (TestReferenceDocIsCurrent keeps it current).
func (l *Library) WriteTables(w io.Writer) {
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }

	p("### Data memories (seed 000 Fig. 12)\n\n")
	p("| memory | base | space | native unit | params | tiles | cpu | cpu instr | cuda | async | async instr |\n|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, n := range sortedKeys(l.Memories) {
		m := l.Memories[n]
		if m.Name != n {
			continue
		}
		name := n
		if m.Abstract {
			name += " (abstract)"
		}
		var tiles []string
		for _, t := range m.Tiles {
			tiles = append(tiles, fmt.Sprintf("%dx%d", t[0], t[1]))
		}
		native := m.NativeUnit
		if m.Uniform != "" {
			native = m.Uniform + " * cuda_thread"
		}
		p("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", name, strings.Join(m.Base, ", "), m.Space, native,
			strings.Join(m.Params, ", "), strings.Join(tiles, ", "), perm(m.CPU), perm(m.CPUInstr), perm(m.CUDA), perm(m.Async), perm(m.AsyncInstr))
	}

	p("\n### Barrier memories (seed 000 Fig. 13)\n\n| barrier memory | base | reverse arrive/await | cluster | CPU |\n|---|---|---|---|---|\n")
	for _, n := range sortedKeys(l.Barriers) {
		b := l.Barriers[n]
		if b.Name != n {
			continue
		}
		name := n
		if b.Abstract {
			name += " (abstract)"
		}
		p("| %s | %s | %s | %s | %s |\n", name, strings.Join(b.Base, ", "), yes(b.Reverse), yes(b.Cluster), yes(b.CPU))
	}

	p("\n### Special windows (seed 000 Fig. 14)\n\n| window | params | source memory | aliases |\n|---|---|---|---|\n")
	for _, n := range sortedKeys(l.Windows) {
		sw := l.Windows[n]
		if sw.Name != n {
			continue
		}
		params := strings.Join(sw.Params, ", ")
		if sw.Variadic {
			params += ", *smem_box"
		}
		p("| %s | %s | %s | %s |\n", n, params, sw.Source, strings.Join(aliases(l.Windows, n), ", "))
	}

	p("\n### Collective units (seed 000 Fig. 11)\n\n| unit | params | domain | box | scalable (box coordinate) |\n|---|---|---|---|---|\n")
	for _, n := range sortedKeys(l.Units) {
		u := l.Units[n]
		if u.Name != n {
			continue
		}
		scale := ""
		if u.Scale >= 0 {
			scale = fmt.Sprintf("yes (%d)", u.Scale)
		}
		p("| %s | %s | (%s) | (%s) | %s |\n", n, strings.Join(u.Params, ", "), exprs(u.Domain), exprs(u.Box), scale)
	}

	p("\n### Qualitative timelines (seed 000 Fig. 15)\n\n| qualitative timeline | column | meaning |\n|---|---|---|\n")
	for _, q := range l.QualOrder {
		p("| %s | %s | %s |\n", q.Name, q.Abbrev, q.Doc)
	}

	p("\n### Sync timelines (seed 000 Fig. 16)\n\n")
	p("`full`: in the full timeline set; `temp.`: in the temporal set only. instr: also an instruction timeline; async: may open `CudaAsync`.\n\n")
	p("| sync timeline | trnstv? |")
	for _, q := range l.QualOrder {
		p(" %s |", q.Abbrev)
	}
	p(" instr | async | aliases |\n|---|---|")
	for range l.QualOrder {
		p("---|")
	}
	p("---|---|---|\n")
	for _, s := range l.syncOrder() {
		p("| %s | %s |", s.Name, yes(s.Transitive))
		for _, q := range l.QualOrder {
			p(" %s |", s.Cell(q))
		}
		p(" %s | %s | %s |\n", yes(s.Instr), yes(s.AsyncBlock), strings.Join(aliases(l.Timelines, s.Name), ", "))
	}

	p("\n### Scalar instructions (scalar.weft)\n\nThe instructions of code generation (sm80.weft, sm90.weft) are documented in docs/weft-codegen.md.\n\nA parameter `@ any` declares no memory: without an explicit `init=` its initial timeline is taken from the argument's memory at each call (`by memory`: `cuda_in_order_rmem_qual` for a register, `cuda_in_order_ram_qual` otherwise; seed 000 Fig. 20 T_init, as T_qin of Fig. 18).\n\n| instruction | timeline | unit | parameters (mode, memory, init timeline) | CUDA |\n|---|---|---|---|---|\n")
	for n, in := range l.Instrs() {
		if f := in.Proc.Pos().File; f == nil || !strings.HasSuffix(f.Name, "scalar.weft") {
			continue
		}
		var ps []string
		for _, a := range in.AccessOrder {
			mem := a.Mem
			if mem == "" {
				mem = "any"
			}
			init := a.Init
			if a.Mem == "" && !a.InitGiven && defaultInit(in.TL, &Memory{Space: "rmem"}) != defaultInit(in.TL, nil) {
				init = "by memory"
			}
			ps = append(ps, fmt.Sprintf("%s %s %s @ %s, %s", a.Param, a.Mode, a.Elem, mem, init))
		}
		p("| %s | %s | %s | %s | `%s` |\n", n, in.TL, syntax.ExprString(in.Unit), strings.Join(ps, "; "), strings.ReplaceAll(in.CUDA, "|", "\\|"))
	}
}

// syncOrder lists the sync timelines in declaration (Fig. 16) order.
func (l *Library) syncOrder() []*SyncTL {
	var out []*SyncTL
	for _, n := range sortedKeys(l.Timelines) {
		if s := l.Timelines[n]; s.Name == n {
			out = append(out, s)
		}
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && posBefore(out[j], out[j-1]); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

func posBefore(a, b *SyncTL) bool {
	if a.Pos.File != b.Pos.File && a.Pos.File != nil && b.Pos.File != nil {
		return a.Pos.File.Name < b.Pos.File.Name
	}
	return a.Pos.Offset < b.Pos.Offset
}

func aliases[V comparable](m map[string]V, name string) []string {
	var out []string
	for _, n := range sortedKeys(m) {
		if n != name && m[n] == m[name] {
			out = append(out, n)
		}
	}
	return out
}

func exprs(es []syntax.Expr) string {
	var s []string
	for _, e := range es {
		s = append(s, syntax.ExprString(e))
	}
	return strings.Join(s, ", ")
}

func perm(p Perm) string {
	if p == "" {
		return "-"
	}
	return string(p)
}

func yes(b bool) string {
	if b {
		return "yes"
	}
	return ""
}
