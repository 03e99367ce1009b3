// Package dumpcmp compares two AuDaLa print/--dump outputs modulo the
// freedom the semantics leaves in naming created instances.
//
// Why: the Command Constructor rule (seed 003, §4, "Constructing") only
// asks that the new label ℓ' be unused (σ(ℓ') = ⊥); which fresh label an
// instance gets is open. `weft run` hands labels out in the order the
// instances run; the generated program takes them from one atomic counter
// (seed 003 §5.4, spec §5.8), so instances created by different threads in
// the same step interleave. Both outputs are then the same state under a
// renaming of the created instances. Compare decides whether such a
// renaming exists and, to be exact, only reports a match after checking an
// explicit renaming line by line: a wrong value, a wrong reference or a
// different number of instances is still a mismatch.
//
// What may be renamed: a bijection π of labels per struct that is the
// identity on the null instance and on the instances of the .init file
// (labels 1..A), applied to each line's label and to every reference
// parameter. Every print of S lists labels 1..n-1 in order, so π maps the
// instances that exist at each print onto those that exist at it in the
// other output: instances created before a print are never exchanged
// with ones created after it.
package dumpcmp

import (
	"sort"
	"strconv"
	"strings"

	"weft.dev/weft/lang/audala/check"
)

// Budget bounds the search for a renaming, in signatures computed (one
// per instance and refinement round; about a second on one core). Beyond
// it Compare answers Undecided, a mismatch, never a false match. Colour
// refinement alone decides most outputs; instances it cannot tell apart
// (symmetric, or twins such as equal leaves of one node) cost one
// refinement each, so large symmetric outputs can exceed it.
const Budget = 4_000_000

type line struct {
	s    *check.Struct
	l    int64
	vals []int64
}

// parse reads one print line `S(l): p=v, q=w` of prog's format (spec
// §5.11); ok is false for anything else.
func parse(prog *check.Program, text string) (line, bool) {
	open := strings.IndexByte(text, '(')
	if open < 0 {
		return line{}, false
	}
	s := prog.StructByName(text[:open])
	if s == nil {
		return line{}, false
	}
	rest := text[open+1:]
	cl := strings.Index(rest, "):")
	if cl < 0 {
		return line{}, false
	}
	l, err := strconv.ParseInt(rest[:cl], 10, 64)
	if err != nil || l < 1 {
		return line{}, false
	}
	rest = rest[cl+2:]
	ln := line{s: s, l: l}
	for i, p := range s.Params {
		want := " " + p.Name + "="
		if i > 0 {
			want = "," + want
		}
		if !strings.HasPrefix(rest, want) {
			return line{}, false
		}
		rest = rest[len(want):]
		end := strings.IndexByte(rest, ',')
		if end < 0 {
			end = len(rest)
		}
		v, err := strconv.ParseInt(rest[:end], 10, 64)
		if err != nil {
			return line{}, false
		}
		ln.vals = append(ln.vals, v)
		rest = rest[end:]
	}
	if rest != "" {
		return line{}, false
	}
	return ln, true
}

// side is one output: its lines, split into prints (sections), and its
// instances as graph vertices.
type side struct {
	lines   []line
	section []int // section of each line
	verts   map[vkey]int
	keys    []vkey
	rows    [][]int // lines of each vertex
	in      [][]edge
}

type vkey struct {
	s *check.Struct
	l int64
}

type edge struct{ from, line, param int }

func (sd *side) vertex(k vkey) int {
	if v, ok := sd.verts[k]; ok {
		return v
	}
	v := len(sd.keys)
	sd.verts[k] = v
	sd.keys = append(sd.keys, k)
	sd.rows = append(sd.rows, nil)
	sd.in = append(sd.in, nil)
	return v
}

func build(prog *check.Program, text string) (*side, bool) {
	sd := &side{verts: map[vkey]int{}}
	text = strings.TrimSuffix(text, "\n")
	if text == "" {
		return sd, true
	}
	sec := -1
	for i, t := range strings.Split(text, "\n") {
		ln, ok := parse(prog, t)
		if !ok {
			return nil, false
		}
		// A print of S lists labels 1..n-1 ascending: a new section starts
		// at another struct or a label that does not increase.
		if i == 0 || ln.s != sd.lines[i-1].s || ln.l <= sd.lines[i-1].l {
			sec++
		}
		sd.lines = append(sd.lines, ln)
		sd.section = append(sd.section, sec)
	}
	for i, ln := range sd.lines {
		v := sd.vertex(vkey{ln.s, ln.l})
		sd.rows[v] = append(sd.rows[v], i)
	}
	for i, ln := range sd.lines {
		v := sd.verts[vkey{ln.s, ln.l}]
		for j, p := range ln.s.Params {
			if p.Type.Kind == check.Ref && ln.vals[j] != 0 {
				t := sd.vertex(vkey{p.Type.Struct, ln.vals[j]})
				sd.in[t] = append(sd.in[t], edge{v, i, j})
			}
		}
	}
	return sd, true
}

// Result is Compare's verdict.
type Result struct {
	// OK is false when a line is not in the print format: nothing is
	// decided, compare the text.
	OK bool
	// Match: got equals ref up to a renaming; Renamed: the texts differ.
	Match, Renamed bool
	// On a mismatch, Line (1-based, 0 if none) is the first line of got
	// whose kind (its print, its values, its references to instances of
	// the .init file or to created ones of each struct) occurs more often
	// in its print than in ref's: GotCount times against RefCount.
	Line, GotCount, RefCount int
	// Undecided: the search gave up at Budget (a mismatch verdict).
	Undecided bool
	// Shape: both outputs print the same structs with the same labels in
	// the same order (only values and references differ).
	Shape bool
}

// Compare decides whether got equals ref up to a renaming of the created
// instances; fixed[s.Index] is the number A of struct s's instances in the
// .init file (labels 1..A and null are never renamed).
func Compare(prog *check.Program, fixed []int, ref, got string) Result {
	if ref == got {
		return Result{OK: true, Match: true}
	}
	r, okr := build(prog, ref)
	g, okg := build(prog, got)
	if !okr || !okg {
		return Result{}
	}
	c := &search{prog: prog, fixed: fixed, r: r, g: g, ids: map[string]int{}}
	cr, cg := c.initial(r), c.initial(g)
	// The same prints of the same structs with the same label lists.
	same := len(r.lines) == len(g.lines)
	for i := 0; same && i < len(r.lines); i++ {
		same = r.lines[i].s == g.lines[i].s && r.lines[i].l == g.lines[i].l && r.section[i] == g.section[i]
	}
	if same && c.solve(cr, cg) {
		return Result{OK: true, Match: true, Renamed: true}
	}
	res := Result{OK: true, Shape: same, Undecided: c.work > Budget}
	// Locate: line kinds under the initial colours, counted per print.
	var b strings.Builder
	kinds := map[string]int{}
	for i := range r.lines {
		kinds[c.lineKind(r, cr, i, &b)]++
	}
	seen := map[string]int{}
	for i := range g.lines {
		k := c.lineKind(g, cg, i, &b)
		seen[k]++
		if seen[k] > kinds[k] {
			n := 0
			for j := range g.lines {
				if c.lineKind(g, cg, j, &b) == k {
					n++
				}
			}
			res.Line, res.GotCount, res.RefCount = i+1, n, kinds[k]
			break
		}
	}
	return res
}

// lineKind is line i's print, values and initial colours of its references.
func (c *search) lineKind(sd *side, col []int, i int, b *strings.Builder) string {
	ln := sd.lines[i]
	b.Reset()
	b.WriteString(strconv.Itoa(sd.section[i]))
	b.WriteByte(' ')
	b.WriteString(ln.s.Name)
	if c.isFixed(vkey{ln.s, ln.l}) {
		b.WriteString(" #" + strconv.FormatInt(ln.l, 10))
	}
	for j, p := range ln.s.Params {
		b.WriteByte(' ')
		if p.Type.Kind == check.Ref && ln.vals[j] != 0 {
			b.WriteByte('@')
			b.WriteString(strconv.Itoa(col[sd.verts[vkey{p.Type.Struct, ln.vals[j]}]]))
		} else {
			b.WriteString(strconv.FormatInt(ln.vals[j], 10))
		}
	}
	return b.String()
}

type search struct {
	prog       *check.Program
	fixed      []int
	r, g       *side
	ids        map[string]int
	work       int
	individual int
}

func (c *search) id(sig string) int {
	if v, ok := c.ids[sig]; ok {
		return v
	}
	v := len(c.ids)
	c.ids[sig] = v
	return v
}

func (c *search) isFixed(k vkey) bool { return k.l <= int64(c.fixed[k.s.Index]) }

// initial colours: a fixed instance is its own colour, a created one is
// coloured by its struct.
func (c *search) initial(sd *side) []int {
	col := make([]int, len(sd.keys))
	for v, k := range sd.keys {
		if c.isFixed(k) {
			col[v] = c.id("fixed " + k.s.Name + " " + strconv.FormatInt(k.l, 10))
		} else {
			col[v] = c.id("new " + k.s.Name)
		}
	}
	return col
}

// signature of v: its colour, its rows (section, scalars, the colours of
// the referenced instances) and the sorted references into it.
func (c *search) signature(sd *side, col []int, v int, b *strings.Builder) string {
	b.Reset()
	b.WriteString(strconv.Itoa(col[v]))
	for _, i := range sd.rows[v] {
		ln := sd.lines[i]
		b.WriteString("|")
		b.WriteString(strconv.Itoa(sd.section[i]))
		for j, p := range ln.s.Params {
			b.WriteByte(' ')
			if p.Type.Kind == check.Ref && ln.vals[j] != 0 {
				b.WriteByte('@')
				b.WriteString(strconv.Itoa(col[sd.verts[vkey{p.Type.Struct, ln.vals[j]}]]))
			} else {
				b.WriteString(strconv.FormatInt(ln.vals[j], 10))
			}
		}
	}
	in := make([]string, len(sd.in[v]))
	for k, e := range sd.in[v] {
		in[k] = strconv.Itoa(sd.section[e.line]) + "." + strconv.Itoa(e.param) + "." + strconv.Itoa(col[e.from])
	}
	sort.Strings(in)
	b.WriteString("<")
	b.WriteString(strings.Join(in, ","))
	return b.String()
}

// refine splits colour classes of both sides jointly until stable (the
// same signature gets the same colour on either side).
func (c *search) refine(cr, cg []int) ([]int, []int) {
	var b strings.Builder
	count := func(a, z []int) int {
		m := map[int]bool{}
		for _, x := range a {
			m[x] = true
		}
		for _, x := range z {
			m[x] = true
		}
		return len(m)
	}
	n := count(cr, cg)
	for {
		c.work += len(cr) + len(cg)
		if c.work > Budget {
			return cr, cg
		}
		nr, ng := make([]int, len(cr)), make([]int, len(cg))
		for v := range cr {
			nr[v] = c.id(c.signature(c.r, cr, v, &b))
		}
		for v := range cg {
			ng[v] = c.id(c.signature(c.g, cg, v, &b))
		}
		cr, cg = nr, ng
		if m := count(cr, cg); m == n {
			return cr, cg
		} else {
			n = m
		}
	}
}

// solve searches for a renaming: refine, pair the classes, verify; when
// a class has several members, individualise one pair and recurse.
func (c *search) solve(cr, cg []int) bool {
	if c.work > Budget {
		return false
	}
	cr, cg = c.refine(cr, cg)
	classR, classG := classes(cr), classes(cg)
	if len(classR) != len(classG) {
		return false
	}
	best := -1
	for k, mr := range classR {
		if len(classG[k]) != len(mr) {
			return false
		}
		if len(mr) > 1 && (best < 0 || len(mr) < len(classR[best]) || len(mr) == len(classR[best]) && k < best) {
			best = k
		}
	}
	// Pair each class's members in label order; verify.
	pi := make([]int, len(cr))
	for k, mr := range classR {
		for i, v := range mr {
			pi[v] = classG[k][i]
		}
	}
	if c.verify(pi) {
		return true
	}
	if pr := c.pairByRefs(cr, cg, classR, classG); pr != nil && c.verify(pr) {
		return true
	}
	if best < 0 {
		return false
	}
	a := classR[best][0]
	for _, bv := range classG[best] {
		c.individual++
		mark := c.id("individual " + strconv.Itoa(c.individual))
		nr, ng := append([]int(nil), cr...), append([]int(nil), cg...)
		nr[a], ng[bv] = mark, mark
		if c.solve(nr, ng) {
			return true
		}
		if c.work > Budget {
			return false
		}
	}
	return false
}

// classes lists each colour's vertices in vertex order (first appearance
// in the output, i.e. label order within the first print).
func classes(col []int) map[int][]int {
	m := map[int][]int{}
	for v, x := range col {
		m[x] = append(m[x], v)
	}
	return m
}

// verify checks the renaming pi (ref vertex -> got vertex) line by line:
// fixed instances unmoved, structs kept, and every line of ref renamed is
// the line of got with the renamed label in the same print.
func (c *search) verify(pi []int) bool {
	r, g := c.r, c.g
	for v, w := range pi {
		kr, kg := r.keys[v], g.keys[w]
		if kr.s != kg.s || c.isFixed(kr) != c.isFixed(kg) || c.isFixed(kr) && kr.l != kg.l {
			return false
		}
	}
	at := map[[2]int64]int{} // (section, label) -> line of got, per struct by section
	for i, ln := range g.lines {
		at[[2]int64{int64(g.section[i]), ln.l}] = i
	}
	for i, ln := range r.lines {
		w := pi[r.verts[vkey{ln.s, ln.l}]]
		j, ok := at[[2]int64{int64(r.section[i]), g.keys[w].l}]
		if !ok {
			return false
		}
		gl := g.lines[j]
		for k, p := range ln.s.Params {
			want := ln.vals[k]
			if p.Type.Kind == check.Ref && want != 0 {
				want = g.keys[pi[r.verts[vkey{p.Type.Struct, want}]]].l
			}
			if gl.vals[k] != want {
				return false
			}
		}
	}
	return true
}
