// Command ptxascount compiles generated CUDA files with nvcc and prints, per
// kernel, what ptxas and the SASS say about the cost of the code: registers
// and spills (ptxas -v), PTX instructions, SASS instructions, and the SASS
// instructions of each loop of the machine code. It backs
// scripts/ptxas-counts.sh, which builds the GEMM examples at two revisions
// and compares them: issue 12, item 1 lets a generator simplify what it emits
// for the CUDA-C semantics only where that costs nothing on the GPU, which
// is checked here (docs/validate.md, "Cost on the GPU").
//
// Usage:
//
//	go run ./scripts/ptxascount [-nvcc NVCC] [-nvdisasm NVDISASM] [-label L] -arch sm_XX FILE.cu ...
//
// One tab-separated line per kernel: label, file, kernel, arch, registers,
// spill stores and loads (bytes), PTX instructions, SASS instructions
// (NOPs excluded) and the loops. A loop is printed as
// size(ops){inner loops}: size counts the SASS instructions of the natural
// loop (those of its inner loops and of out-of-line blocks that branch back
// into it included), ops the tensor-core and asynchronous-copy instructions
// in it (HGMMA, HMMA, UTMALDG, LDGSTS, LDSM), so that loops unrolled by
// different factors compare as instructions per MMA or per copy. Loops of at
// most 16 instructions are not printed (their instructions count in the
// enclosing loop): the retry loops of mbarrier waits (2-4) and the loops
// ptxas wraps around a TMA copy to make its operands uniform (7-8).
// Without nvdisasm the SASS columns are "-".
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

func main() {
	nvcc := flag.String("nvcc", os.Getenv("NVCC"), "nvcc (default $NVCC, else nvcc on PATH)")
	nvdisasm := flag.String("nvdisasm", os.Getenv("NVDISASM"), "nvdisasm (default $NVDISASM, else next to nvcc or on PATH)")
	label := flag.String("label", "", "first column of every line (the revision)")
	arch := flag.String("arch", "", "sm_80, sm_90a, ... (required)")
	header := flag.Bool("header", false, "print a header line first")
	flag.Parse()
	if *arch == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: ptxascount [-nvcc NVCC] [-nvdisasm NVDISASM] [-label L] [-header] -arch sm_XX FILE.cu ...")
		os.Exit(2)
	}
	if *nvcc == "" {
		p, err := exec.LookPath("nvcc")
		if err != nil {
			fmt.Fprintln(os.Stderr, "ptxascount: no nvcc (set NVCC)")
			os.Exit(2)
		}
		*nvcc = p
	}
	if *nvdisasm == "" {
		*nvdisasm = findNvdisasm(*nvcc)
	}
	if *header {
		fmt.Println(strings.Join([]string{"label", "file", "kernel", "arch", "regs", "spill_st", "spill_ld", "ptx", "sass", "loops"}, "\t"))
	}
	status := 0
	for _, f := range flag.Args() {
		rows, err := count(*nvcc, *nvdisasm, *arch, f)
		if err != nil {
			fmt.Fprintf(os.Stderr, "ptxascount: %s: %v\n", f, err)
			status = 1
			continue
		}
		for _, r := range rows {
			fmt.Println(*label + "\t" + filepath.Base(f) + "\t" + r)
		}
	}
	os.Exit(status)
}

// findNvdisasm looks next to nvcc (a CUDA toolkit), then on PATH; "" when
// neither has one (the pip nvcc ships without it: pip install
// nvidia-cuda-nvdisasm).
func findNvdisasm(nvcc string) string {
	p := filepath.Join(filepath.Dir(nvcc), "nvdisasm")
	if st, err := os.Stat(p); err == nil && !st.IsDir() {
		return p
	}
	if p, err := exec.LookPath("nvdisasm"); err == nil {
		return p
	}
	return ""
}

// count compiles f for arch to PTX and to a cubin (ptxas -v) and returns
// one line per kernel of the cubin.
func count(nvcc, nvdisasm, arch, f string) ([]string, error) {
	dir, err := os.MkdirTemp("", "ptxascount")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	num := strings.TrimPrefix(arch, "sm_")
	gencode := "arch=compute_" + num + ",code=" + arch
	common := []string{"-std=c++17", "-O3", "-gencode", gencode}
	ptxFile := filepath.Join(dir, "k.ptx")
	if b, err := exec.Command(nvcc, append(common, "-ptx", "-o", ptxFile, f)...).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("nvcc -ptx: %v\n%s", err, b)
	}
	cubin := filepath.Join(dir, "k.cubin")
	log, err := exec.Command(nvcc, append(common, "-cubin", "-Xptxas", "-v", "-o", cubin, f)...).CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("nvcc -cubin: %v\n%s", err, log)
	}
	ptx, err := os.ReadFile(ptxFile)
	if err != nil {
		return nil, err
	}
	res := parsePtxas(string(log))
	ptxCounts := ptxInstructions(string(ptx))
	var sass map[string][]inst
	if nvdisasm != "" {
		b, err := exec.Command(nvdisasm, "-c", cubin).Output()
		if err != nil {
			return nil, fmt.Errorf("nvdisasm: %v", err)
		}
		sass = parseSass(string(b))
	}
	names := make([]string, 0, len(res))
	for n := range res {
		names = append(names, n)
	}
	sort.Strings(names)
	var rows []string
	for _, n := range names {
		r := res[n]
		s, loops := "-", "-"
		if sass != nil {
			code := sass[n]
			s = fmt.Sprint(countReal(code))
			loops = formatLoops(code, findLoops(code))
		}
		rows = append(rows, fmt.Sprintf("%s\t%s\t%d\t%d\t%d\t%d\t%s\t%s", n, arch, r.regs, r.spillSt, r.spillLd, ptxCounts[n], s, loops))
	}
	return rows, nil
}

// resources is what ptxas -v says about one function.
type resources struct{ regs, spillSt, spillLd int }

// parsePtxas reads ptxas -v output: "Function properties for NAME" is
// followed by the spill line, then "Used N registers".
func parsePtxas(log string) map[string]resources {
	out := map[string]resources{}
	cur := ""
	for _, l := range strings.Split(log, "\n") {
		if i := strings.Index(l, "Function properties for "); i >= 0 {
			cur = strings.TrimSpace(l[i+len("Function properties for "):])
			out[cur] = resources{}
			continue
		}
		if cur == "" {
			continue
		}
		r := out[cur]
		if i := strings.Index(l, "bytes spill stores"); i >= 0 {
			fmt.Sscanf(lastField(l[:i]), "%d", &r.spillSt)
			if j := strings.Index(l, "bytes spill loads"); j >= 0 {
				fmt.Sscanf(lastField(l[:j]), "%d", &r.spillLd)
			}
		}
		if i := strings.Index(l, "Used "); i >= 0 && strings.Contains(l, "registers") {
			fmt.Sscanf(l[i:], "Used %d registers", &r.regs)
		}
		out[cur] = r
	}
	return out
}

func lastField(s string) string {
	f := strings.Fields(strings.TrimRight(s, ", "))
	if len(f) == 0 {
		return ""
	}
	return f[len(f)-1]
}

// ptxInstructions counts the instructions of each .entry and .func body: a
// line whose first token is an opcode (a lower-case letter, or @ for a
// guarded one). Directives (.reg, ...), labels, braces, comments and the
// operand lines of a multi-line inline-asm instruction do not count.
func ptxInstructions(ptx string) map[string]int {
	out := map[string]int{}
	cur, depth := "", 0
	for _, l := range strings.Split(ptx, "\n") {
		t := strings.TrimSpace(l)
		if cur == "" {
			for _, kw := range []string{".entry ", ".func "} {
				if i := strings.Index(t, kw); i >= 0 && (strings.HasPrefix(t, kw) || strings.HasPrefix(t, ".visible") || strings.HasPrefix(t, ".weak") || strings.HasPrefix(t, ".extern")) {
					name := strings.TrimSpace(t[i+len(kw):])
					if strings.HasPrefix(name, "(") { // .func (.param ...) name(
						if j := strings.Index(name, ")"); j >= 0 {
							name = strings.TrimSpace(name[j+1:])
						}
					}
					if j := strings.IndexAny(name, "( "); j >= 0 {
						name = name[:j]
					}
					if strings.HasPrefix(t, ".extern") || strings.HasSuffix(t, ";") {
						break // a declaration
					}
					cur, depth = name, 0
				}
			}
			continue
		}
		if strings.HasPrefix(t, "//") {
			continue
		}
		if t == "{" {
			depth++
			continue
		}
		if t == "}" {
			depth--
			if depth == 0 {
				cur = ""
			}
			continue
		}
		if t != "" && (t[0] >= 'a' && t[0] <= 'z' || t[0] == '@') {
			out[cur]++
		}
	}
	return out
}

// inst is one SASS instruction: its address, opcode with modifiers (the
// guard removed), guard, and branch target label ("" when none).
type inst struct {
	addr   int
	op     string
	guard  string
	target string
	labels []string // labels naming this address
}

// parseSass splits nvdisasm -c output into functions (".text.NAME:").
func parseSass(s string) map[string][]inst {
	out := map[string][]inst{}
	cur := ""
	var pending []string
	for _, l := range strings.Split(s, "\n") {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, ".text.") && strings.HasSuffix(t, ":") {
			cur = strings.TrimSuffix(strings.TrimPrefix(t, ".text."), ":")
			pending = nil
			continue
		}
		if cur == "" {
			continue
		}
		if strings.HasPrefix(t, ".L_") && strings.HasSuffix(t, ":") {
			pending = append(pending, strings.TrimSuffix(t, ":"))
			continue
		}
		if !strings.HasPrefix(t, "/*") {
			continue
		}
		end := strings.Index(t, "*/")
		var addr int
		if _, err := fmt.Sscanf(t[2:end], "%x", &addr); err != nil {
			continue
		}
		body := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(t[end+2:]), ";"))
		in := inst{addr: addr, labels: pending}
		pending = nil
		if strings.HasPrefix(body, "@") {
			sp := strings.IndexByte(body, ' ')
			in.guard, body = body[:sp], strings.TrimSpace(body[sp+1:])
		}
		f := strings.Fields(body)
		if len(f) == 0 {
			continue
		}
		in.op = f[0]
		if i := strings.Index(body, "`("); i >= 0 {
			if j := strings.Index(body[i:], ")"); j >= 0 {
				in.target = body[i+2 : i+j]
			}
		}
		out[cur] = append(out[cur], in)
	}
	return out
}

// countReal counts the instructions that are not NOPs (ptxas pads a
// function with NOPs to its alignment).
func countReal(code []inst) int {
	n := 0
	for _, in := range code {
		if in.op != "NOP" {
			n++
		}
	}
	return n
}

// isBranch: the instructions after which control does not simply fall
// through (a guarded one also falls through).
func isBranch(op string) bool {
	base := strings.SplitN(op, ".", 2)[0]
	switch base {
	case "BRA", "BRX", "JMP", "JMX", "EXIT", "RET", "KILL":
		return true
	}
	return false
}

// loop is a natural loop of the machine code: its header instruction
// index, the instruction indices of its body, and its inner loops.
type loop struct {
	header int
	body   map[int]bool
	inner  []*loop
}

// findLoops builds the control-flow graph of basic blocks, computes
// dominators (the iterative data-flow algorithm), and returns the natural
// loops (a back edge u -> h where h dominates u; loops with one header
// merged) as a forest nested by body inclusion. An out-of-line block that
// branches back into the loop (a retry of an mbarrier wait) belongs to the
// loop it returns to; a branch back from code the target does not dominate
// is not a loop.
func findLoops(code []inst) []*loop {
	if len(code) == 0 {
		return nil
	}
	labelAt := map[string]int{}
	for i, in := range code {
		for _, l := range in.labels {
			labelAt[l] = i
		}
	}
	leader := map[int]bool{0: true}
	for i, in := range code {
		if in.target != "" {
			if j, ok := labelAt[in.target]; ok {
				leader[j] = true
			}
		}
		if isBranch(in.op) && i+1 < len(code) {
			leader[i+1] = true
		}
	}
	var starts []int
	for i := range code {
		if leader[i] {
			starts = append(starts, i)
		}
	}
	blockOf := make([]int, len(code))
	for b, s := range starts {
		e := len(code)
		if b+1 < len(starts) {
			e = starts[b+1]
		}
		for i := s; i < e; i++ {
			blockOf[i] = b
		}
	}
	nb := len(starts)
	succ := make([][]int, nb)
	pred := make([][]int, nb)
	addEdge := func(a, b int) {
		succ[a] = append(succ[a], b)
		pred[b] = append(pred[b], a)
	}
	for b := range starts {
		e := len(code)
		if b+1 < len(starts) {
			e = starts[b+1]
		}
		last := code[e-1]
		falls := !isBranch(last.op) || last.guard != ""
		if last.target != "" && strings.HasPrefix(last.op, "BR") {
			if j, ok := labelAt[last.target]; ok {
				addEdge(b, blockOf[j])
			}
		}
		if falls && b+1 < nb {
			addEdge(b, b+1)
		}
	}
	// Dominators as bit sets over blocks reachable from the entry.
	reach := make([]bool, nb)
	stack := []int{0}
	reach[0] = true
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, s := range succ[b] {
			if !reach[s] {
				reach[s] = true
				stack = append(stack, s)
			}
		}
	}
	dom := make([][]bool, nb)
	for b := range dom {
		dom[b] = make([]bool, nb)
		if b == 0 {
			dom[b][0] = true
			continue
		}
		for i := range dom[b] {
			dom[b][i] = true
		}
	}
	for changed := true; changed; {
		changed = false
		for b := 1; b < nb; b++ {
			if !reach[b] {
				continue
			}
			nd := make([]bool, nb)
			first := true
			for _, p := range pred[b] {
				if !reach[p] {
					continue
				}
				if first {
					copy(nd, dom[p])
					first = false
					continue
				}
				for i := range nd {
					nd[i] = nd[i] && dom[p][i]
				}
			}
			nd[b] = true
			for i := range nd {
				if nd[i] != dom[b][i] {
					dom[b] = nd
					changed = true
					break
				}
			}
		}
	}
	// Natural loops, merged by header.
	byHeader := map[int]map[int]bool{}
	for u := 0; u < nb; u++ {
		if !reach[u] {
			continue
		}
		for _, h := range succ[u] {
			if !dom[u][h] {
				continue
			}
			body := byHeader[h]
			if body == nil {
				body = map[int]bool{h: true}
				byHeader[h] = body
			}
			work := []int{}
			if !body[u] {
				body[u] = true
				work = append(work, u)
			}
			for len(work) > 0 {
				x := work[len(work)-1]
				work = work[:len(work)-1]
				for _, p := range pred[x] {
					if reach[p] && !body[p] {
						body[p] = true
						work = append(work, p)
					}
				}
			}
		}
	}
	var loops []*loop
	for h, blocks := range byHeader {
		l := &loop{header: starts[h], body: map[int]bool{}}
		for b := range blocks {
			e := len(code)
			if b+1 < nb {
				e = starts[b+1]
			}
			for i := starts[b]; i < e; i++ {
				l.body[i] = true
			}
		}
		loops = append(loops, l)
	}
	// Nest: each loop goes inside the smallest loop that contains its header
	// and is larger.
	sort.Slice(loops, func(i, j int) bool {
		if len(loops[i].body) != len(loops[j].body) {
			return len(loops[i].body) > len(loops[j].body)
		}
		return loops[i].header < loops[j].header
	})
	var roots []*loop
	for i, l := range loops {
		var parent *loop
		for j := i - 1; j >= 0; j-- {
			if loops[j].body[l.header] && len(loops[j].body) > len(l.body) {
				parent = loops[j]
				break
			}
		}
		if parent == nil {
			roots = append(roots, l)
		} else {
			parent.inner = append(parent.inner, l)
		}
	}
	var order func([]*loop)
	order = func(ls []*loop) {
		sort.Slice(ls, func(i, j int) bool { return ls[i].header < ls[j].header })
		for _, l := range ls {
			order(l.inner)
		}
	}
	order(roots)
	return roots
}

// keyOps are the instructions that do a GEMM's work: tensor-core MMAs and
// the copies that feed them.
// smallLoop: loops of at most this many instructions are not printed.
const smallLoop = 16

var keyOps = []string{"HGMMA", "HMMA", "UTMALDG", "LDGSTS", "LDSM"}

// formatLoops prints the loop forest as size(ops){inner ...}, loops of more
// than smallLoop instructions only; "none" when there is no such loop.
func formatLoops(code []inst, roots []*loop) string {
	var b bytes.Buffer
	var rec func([]*loop) bool
	rec = func(ls []*loop) bool {
		wrote := false
		for _, l := range ls {
			n := 0
			ops := map[string]int{}
			for i := range l.body {
				if code[i].op == "NOP" {
					continue
				}
				n++
				base := strings.SplitN(code[i].op, ".", 2)[0]
				for _, k := range keyOps {
					if base == k {
						ops[k]++
					}
				}
			}
			if n <= smallLoop {
				continue
			}
			if wrote {
				b.WriteByte(' ')
			}
			wrote = true
			fmt.Fprint(&b, n)
			var parts []string
			for _, k := range keyOps {
				if ops[k] > 0 {
					parts = append(parts, fmt.Sprintf("%s %d", k, ops[k]))
				}
			}
			if len(parts) > 0 {
				b.WriteString("(" + strings.Join(parts, ", ") + ")")
			}
			mark := b.Len()
			b.WriteByte('{')
			if rec(l.inner) {
				b.WriteByte('}')
			} else {
				b.Truncate(mark)
			}
		}
		return wrote
	}
	if !rec(roots) {
		return "none"
	}
	return b.String()
}
