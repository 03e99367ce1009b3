package initfile

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/audala/check"
)

// Data is the initial state: for each struct of the program (by
// declaration index) the number of instances A (without the null instance)
// and the parameter columns, Cols[param][label-1], as 32-bit cells (Nat and
// references stored as their uint32 bit pattern).
type Data struct {
	Counts []int
	Cols   [][][]int32
}

// DefaultMaxInstances bounds the instance count A of each struct that
// Parse accepts, the default of `weft run --max-instances`: a 50-byte file
// must not make the reader allocate gigabytes (issue 14).
const DefaultMaxInstances = 1 << 24

// Parse reads f against prog, with at most DefaultMaxInstances instances
// per struct.
func Parse(f *diag.File, prog *check.Program, diags *diag.List) *Data {
	return ParseLimit(f, prog, diags, DefaultMaxInstances)
}

// ParseLimit is Parse with at most maxInstances instances per struct (0:
// 2^31-2, the most labels a 32-bit cell holds besides null); a larger
// count is error A0305, before anything of that size is allocated.
func ParseLimit(f *diag.File, prog *check.Program, diags *diag.List, maxInstances int) *Data {
	if maxInstances <= 0 || maxInstances > math.MaxInt32-1 {
		maxInstances = math.MaxInt32 - 1
	}
	p := &parser{f: f, diags: diags, maxInst: maxInstances}
	d, ok := p.parse(prog)
	if !ok {
		return nil
	}
	return d
}

type parser struct {
	f     *diag.File
	diags *diag.List
	off   int
	line  []word // current line's words
	// maxInst bounds the instance count of each struct (ParseLimit).
	maxInst int
}

type word struct {
	off  int
	text string
}

func (p *parser) errorf(off int, code, format string, args ...any) bool {
	p.diags.Errorf(p.f.At(off), code, format, args...)
	return false
}

// nextLine splits the next non-empty line into words; false at EOF.
func (p *parser) nextLine() bool {
	src := p.f.Src
	for p.off < len(src) {
		start := p.off
		for p.off < len(src) && src[p.off] != '\n' {
			p.off++
		}
		end := p.off
		if p.off < len(src) {
			p.off++
		}
		p.line = p.line[:0]
		i := start
		for i < end {
			for i < end && (src[i] == ' ' || src[i] == '\t' || src[i] == '\r') {
				i++
			}
			j := i
			for j < end && src[j] != ' ' && src[j] != '\t' && src[j] != '\r' {
				j++
			}
			if j > i {
				p.line = append(p.line, word{i, string(src[i:j])})
			}
			i = j
		}
		if len(p.line) > 0 {
			return true
		}
	}
	p.line = p.line[:0]
	return false
}

func (p *parser) eofPos() int { return len(p.f.Src) }

func (p *parser) parse(prog *check.Program) (*Data, bool) {
	if !p.nextLine() || len(p.line) != 3 || p.line[0].text != "ADL" || p.line[1].text != "structures" {
		return nil, p.errorf(0, "A0301", "malformed .init file: want header \"ADL structures <K>\"")
	}
	k, err := strconv.Atoi(p.line[2].text)
	if err != nil || k < 0 {
		return nil, p.errorf(p.line[2].off, "A0301", "malformed struct count %q", p.line[2].text)
	}
	// Sections come in sorted struct-name order (spec §5.11).
	sorted := append([]*check.Struct(nil), prog.Structs...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	if k != len(sorted) {
		return nil, p.errorf(p.line[2].off, "A0302", ".init file has %d structs, the program has %d", k, len(sorted))
	}
	for _, s := range sorted {
		if !p.nextLine() {
			return nil, p.errorf(p.eofPos(), "A0301", "unexpected end of file: want the parameter types of %s", s.Name)
		}
		if p.line[0].text != s.Name {
			return nil, p.errorf(p.line[0].off, "A0302", "struct %s in .init file, want %s (structs in sorted name order)", p.line[0].text, s.Name)
		}
		if len(p.line)-1 != len(s.Params) {
			return nil, p.errorf(p.line[0].off, "A0302", "struct %s has %d parameters in the .init file, %d in the program", s.Name, len(p.line)-1, len(s.Params))
		}
		for i, par := range s.Params {
			w := p.line[i+1]
			if w.text != typeWord(par.Type) && !(par.Type.Kind == check.Ref && w.text == par.Type.Struct.Name) {
				return nil, p.errorf(w.off, "A0302", "parameter %s of %s has type %s in the .init file, %s in the program", par.Name, s.Name, w.text, typeWord(par.Type))
			}
		}
	}
	d := &Data{Counts: make([]int, len(prog.Structs)), Cols: make([][][]int32, len(prog.Structs))}
	type refCheck struct {
		off    int
		target *check.Struct
		v      int64
	}
	var refs []refCheck
	for _, s := range sorted {
		if !p.nextLine() {
			return nil, p.errorf(p.eofPos(), "A0301", "unexpected end of file: want \"%s instances <D> <A>\"", s.Name)
		}
		l := p.line
		if len(l) != 4 || l[0].text != s.Name || l[1].text != "instances" {
			return nil, p.errorf(l[0].off, "A0301", "want \"%s instances <D> <A>\"", s.Name)
		}
		nd, err1 := strconv.Atoi(l[2].text)
		na, err2 := strconv.Atoi(l[3].text)
		if err1 != nil || err2 != nil || nd < 0 || na < nd || na > math.MaxInt32-1 {
			return nil, p.errorf(l[2].off, "A0301", "malformed instance counts %s %s (want 0 <= D <= A)", l[2].text, l[3].text)
		}
		if na > p.maxInst {
			return nil, p.errorf(l[3].off, "A0305", "%d %s instances: more than the limit of %d (--max-instances N raises it)", na, s.Name, p.maxInst)
		}
		cols := make([][]int32, len(s.Params))
		for i := range cols {
			cols[i] = make([]int32, na)
		}
		for j := 0; j < nd; j++ {
			if !p.nextLine() {
				return nil, p.errorf(p.eofPos(), "A0301", "unexpected end of file: %s has %d of %d instance lines", s.Name, j, nd)
			}
			if len(p.line) > len(s.Params) {
				return nil, p.errorf(p.line[len(s.Params)].off, "A0301", "instance %d of %s has %d values, the struct has %d parameters", j+1, s.Name, len(p.line), len(s.Params))
			}
			for i, w := range p.line {
				par := s.Params[i]
				v, err := strconv.ParseInt(w.text, 10, 64)
				if err != nil {
					return nil, p.errorf(w.off, "A0301", "malformed value %q", w.text)
				}
				lo, hi := Range(par.Type)
				if v < lo || v > hi {
					return nil, p.errorf(w.off, "A0303", "value %d out of range for parameter %s: %s", v, par.Name, typeWord(par.Type))
				}
				if par.Type.Kind == check.Ref && v != 0 {
					refs = append(refs, refCheck{w.off, par.Type.Struct, v})
				}
				cols[i][j] = int32(uint32(v))
			}
		}
		d.Counts[s.Index] = na
		d.Cols[s.Index] = cols
	}
	if p.nextLine() {
		return nil, p.errorf(p.line[0].off, "A0301", "unexpected text after the last instance section")
	}
	for _, r := range refs {
		if r.v > int64(d.Counts[r.target.Index]) {
			return nil, p.errorf(r.off, "A0304", "reference %d to a non-existent %s (there are %d)", r.v, r.target.Name, d.Counts[r.target.Index])
		}
	}
	return d, true
}

// Range is the range of values of t in a 32-bit cell.
func Range(t check.Type) (lo, hi int64) {
	switch t.Kind {
	case check.Bool:
		return 0, 1
	case check.Int:
		return math.MinInt32, math.MaxInt32
	case check.Ref:
		return 0, math.MaxInt32
	}
	return 0, math.MaxUint32
}

func typeWord(t check.Type) string {
	if t.Kind == check.Ref {
		return t.Struct.Name
	}
	return t.String()
}

// Write prints d for prog in the .init format (used by tests and the
// benchmark generators).
func Write(w io.Writer, prog *check.Program, d *Data) error {
	bw := bufio.NewWriter(w)
	sorted := append([]*check.Struct(nil), prog.Structs...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	fmt.Fprintf(bw, "ADL structures %d\n", len(sorted))
	for _, s := range sorted {
		bw.WriteString(s.Name)
		for _, p := range s.Params {
			bw.WriteString(" " + typeWord(p.Type))
		}
		bw.WriteString("\n")
	}
	for _, s := range sorted {
		n := d.Counts[s.Index]
		fmt.Fprintf(bw, "%s instances %d %d\n", s.Name, n, n)
		buf := make([]byte, 0, 64)
		for j := 0; j < n; j++ {
			buf = buf[:0]
			for i, p := range s.Params {
				if i > 0 {
					buf = append(buf, ' ')
				}
				v := d.Cols[s.Index][i][j]
				if p.Type.Kind == check.Int {
					buf = strconv.AppendInt(buf, int64(v), 10)
				} else {
					buf = strconv.AppendUint(buf, uint64(uint32(v)), 10)
				}
			}
			buf = append(buf, '\n')
			bw.Write(buf)
		}
	}
	return bw.Flush()
}
