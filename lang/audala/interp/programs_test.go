package interp

import (
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/audala/check"
	"weft.dev/weft/lang/audala/initfile"
)

// The thesis programs of spec §2.7 on inputs generated here, checked
// against independent Go implementations in this file (issue 7, Tests):
// SCC counts against Tarjan, SPM against Zielonka, SCS against a direct
// fixpoint computation. Every case runs in both semantics with one worker
// and with several; graphs above parallelThreshold instances exercise the
// parallel paths.

type graph struct {
	n     int
	edges [][2]int // 0-based
}

func randomGraph(n, m int, seed uint64) graph {
	r := rand.New(rand.NewPCG(seed, 7))
	g := graph{n: n}
	for i := 0; i < m; i++ {
		g.edges = append(g.edges, [2]int{r.IntN(n), r.IntN(n)})
	}
	return g
}

// tarjan counts the strongly connected components of g.
func tarjan(g graph) int {
	adj := make([][]int, g.n)
	for _, e := range g.edges {
		adj[e[0]] = append(adj[e[0]], e[1])
	}
	index := make([]int, g.n)
	low := make([]int, g.n)
	on := make([]bool, g.n)
	for i := range index {
		index[i] = -1
	}
	var stack []int
	next, count := 0, 0
	var visit func(v int)
	visit = func(v int) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		on[v] = true
		for _, w := range adj[v] {
			if index[w] < 0 {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if on[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				on[w] = false
				if w == v {
					break
				}
			}
			count++
		}
	}
	for v := 0; v < g.n; v++ {
		if index[v] < 0 {
			visit(v)
		}
	}
	return count
}

// initText builds a .init file (spec §5.11): sections in sorted struct
// name order, references 1-based.
type initText struct {
	header, body strings.Builder
	k            int
}

func (b *initText) section(name, types string, d, a int, lines []string) {
	b.k++
	fmt.Fprintf(&b.header, "%s %s\n", name, types)
	fmt.Fprintf(&b.body, "%s instances %d %d\n", name, d, a)
	for _, l := range lines {
		b.body.WriteString(l + "\n")
	}
}

func (b *initText) String() string {
	return fmt.Sprintf("ADL structures %d\n%s%s", b.k, b.header.String(), b.body.String())
}

func fbInit(g graph) string {
	var b initText
	var edges, nodes []string
	for _, e := range g.edges {
		edges = append(edges, fmt.Sprintf("%d %d", e[0]+1, e[1]+1))
	}
	for i := 0; i < g.n; i++ {
		nodes = append(nodes, "1")
	}
	b.section("Edge", "Node Node", len(edges), len(edges), edges)
	b.section("Node", "NodeSet Bool Bool Edge Edge", g.n, g.n, nodes)
	b.section("NodeSet", "Node NodeSet NodeSet NodeSet", 0, 1, nil)
	return b.String()
}

func chInit(g graph) string {
	var b initText
	var edges []string
	for _, e := range g.edges {
		edges = append(edges, fmt.Sprintf("%d %d", e[0]+1, e[1]+1))
	}
	b.section("Edge", "Node Node Bool", len(edges), len(edges), edges)
	b.section("Node", "Node Node", 0, g.n, nil)
	return b.String()
}

type config struct {
	sem      Semantics
	workers  int
	lockstep bool
}

// configs: both semantics with 1 and 4 workers, and the relaxed semantics
// also in lockstep (thesis Fig. 2), another legal execution.
var configs = []config{{Relaxed, 1, false}, {Relaxed, 4, false}, {Strict, 1, false}, {Strict, 4, false}, {Relaxed, 1, true}, {Relaxed, 4, true}}

func (c config) String() string {
	s := fmt.Sprintf("%v workers=%d", c.sem, c.workers)
	if c.lockstep {
		s += " lockstep"
	}
	return s
}

func (c config) options() Options {
	return Options{Semantics: c.sem, Workers: c.workers, Lockstep: c.lockstep}
}

// run executes prog on the .init text and returns the machine.
func run(t *testing.T, prog *check.Program, init string, c config) *Machine {
	t.Helper()
	var diags diag.List
	data := parseInit(t, prog, init)
	opt := c.options()
	opt.MaxIterations = 100000
	m := New(prog, data, opt)
	if err := m.Run(); err != nil {
		t.Fatalf("%v: %v", c, err)
	}
	_ = diags
	return m
}

func param(t testing.TB, prog *check.Program, s, p string) *check.Param {
	st := prog.StructByName(s)
	for _, par := range st.Params {
		if par.Name == p {
			return par
		}
	}
	t.Fatalf("no parameter %s.%s", s, p)
	return nil
}

var sccSizes = []struct{ n, m int }{{1, 0}, {1, 1}, {10, 12}, {60, 80}, {200, 200}, {300, 600}, {2500, 3300}}

func TestSCCForwardBackward(t *testing.T) {
	prog := loadFile(t, "../testdata/fb_thesis_fixed.adl")
	pivot := param(t, prog, "NodeSet", "pivot")
	for i, sz := range sccSizes {
		for seed := uint64(1); seed <= 2; seed++ {
			g := randomGraph(sz.n, sz.m, seed+uint64(i)*100)
			want := tarjan(g)
			for _, c := range configs {
				m := run(t, prog, fbInit(g), c)
				got := 0
				for l := 1; l < m.Count(pivot.Owner); l++ {
					if m.Value(pivot, l) != 0 {
						got++
					}
				}
				if got != want {
					t.Errorf("FB n=%d m=%d seed=%d %v: %d SCCs, Tarjan %d", sz.n, sz.m, seed, c, got, want)
				}
			}
		}
	}
}

func TestSCCColouring(t *testing.T) {
	prog := loadFile(t, "../testdata/ch_thesis.adl")
	fwd, bwd := param(t, prog, "Node", "fwd"), param(t, prog, "Node", "bwd")
	for i, sz := range sccSizes {
		for seed := uint64(1); seed <= 2; seed++ {
			g := randomGraph(sz.n, sz.m, seed+uint64(i)*100)
			want := tarjan(g)
			for _, c := range configs {
				m := run(t, prog, chInit(g), c)
				got := 0
				for l := 1; l < m.Count(fwd.Owner); l++ {
					if m.Value(fwd, l) == int64(l) && m.Value(bwd, l) == int64(l) {
						got++
					}
				}
				if got != want {
					t.Errorf("CH n=%d m=%d seed=%d %v: %d SCCs, Tarjan %d", sz.n, sz.m, seed, c, got, want)
				}
			}
		}
	}
}

// TestPrefixSumLarge: Hillis-Steele on a random list long enough to run in
// parallel, against direct summation.
func TestPrefixSumLarge(t *testing.T) {
	prog := loadFile(t, "../testdata/ps_thesis.adl")
	val := param(t, prog, "Position", "val")
	const n = 5000
	r := rand.New(rand.NewPCG(3, 3))
	vals := make([]int64, n)
	lines := make([]string, n)
	for i := range vals {
		vals[i] = int64(r.IntN(201) - 100)
		lines[i] = fmt.Sprintf("%d %d", vals[i], i)
	}
	var b initText
	b.section("Position", "Int Position Int Position", n, n, lines)
	for _, c := range configs {
		m := run(t, prog, b.String(), c)
		sum := int64(0)
		for i := 0; i < n; i++ {
			sum += vals[i]
			if got := m.Value(val, i+1); got != sum {
				t.Fatalf("%v: val[%d] = %d, want %d", c, i+1, got, sum)
			}
		}
	}
}

// A parity game: priorities 0..3 (the SPM program tracks ρ_1 and ρ_3), min
// parity, owner Odd when odd[v].
type game struct {
	prio []int
	odd  []bool
	succ [][]int
}

func randomGame(n int, seed uint64) game {
	r := rand.New(rand.NewPCG(seed, 11))
	g := game{prio: make([]int, n), odd: make([]bool, n), succ: make([][]int, n)}
	for v := 0; v < n; v++ {
		g.prio[v] = r.IntN(4)
		g.odd[v] = r.IntN(2) == 1
		k := 1 + r.IntN(3)
		seen := map[int]bool{}
		for j := 0; j < k; j++ {
			w := r.IntN(n)
			if !seen[w] {
				seen[w] = true
				g.succ[v] = append(g.succ[v], w)
			}
		}
	}
	return g
}

// zielonka returns the nodes won by Odd under the min-parity condition
// (Even wins a play iff the least priority seen infinitely often is even).
func zielonka(g game) []bool {
	n := len(g.prio)
	in := make([]bool, n)
	for v := range in {
		in[v] = true
	}
	pred := make([][]int, n)
	for v, ws := range g.succ {
		for _, w := range ws {
			pred[w] = append(pred[w], v)
		}
	}
	// attr is the attractor of target for player (1 = Odd) within in.
	attr := func(in, target []bool, player int) []bool {
		a := append([]bool(nil), target...)
		count := make([]int, n)
		var queue []int
		for v := 0; v < n; v++ {
			if a[v] {
				queue = append(queue, v)
			}
			for _, w := range g.succ[v] {
				if in[v] && in[w] {
					count[v]++
				}
			}
		}
		for len(queue) > 0 {
			w := queue[0]
			queue = queue[1:]
			for _, v := range pred[w] {
				if !in[v] || a[v] {
					continue
				}
				if (g.odd[v] && player == 1) || (!g.odd[v] && player == 0) {
					a[v] = true
					queue = append(queue, v)
				} else if count[v]--; count[v] == 0 {
					a[v] = true
					queue = append(queue, v)
				}
			}
		}
		return a
	}
	var solve func(in []bool) [2][]bool
	solve = func(in []bool) [2][]bool {
		var w [2][]bool
		w[0], w[1] = make([]bool, n), make([]bool, n)
		p := -1
		for v := 0; v < n; v++ {
			if in[v] && (p < 0 || g.prio[v] < p) {
				p = g.prio[v]
			}
		}
		if p < 0 {
			return w
		}
		i := p % 2
		u := make([]bool, n)
		for v := 0; v < n; v++ {
			u[v] = in[v] && g.prio[v] == p
		}
		a := attr(in, u, i)
		rest := make([]bool, n)
		for v := 0; v < n; v++ {
			rest[v] = in[v] && !a[v]
		}
		w1 := solve(rest)
		empty := true
		for v := 0; v < n; v++ {
			if w1[1-i][v] {
				empty = false
			}
		}
		if empty {
			copy(w[i], in)
			return w
		}
		b := attr(in, w1[1-i], 1-i)
		for v := 0; v < n; v++ {
			rest[v] = in[v] && !b[v]
		}
		w2 := solve(rest)
		for v := 0; v < n; v++ {
			w[1-i][v] = w2[1-i][v] || b[v]
			w[i][v] = w2[i][v]
		}
		return w
	}
	return solve(in)[1]
}

func spmInit(g game) string {
	n := len(g.prio)
	max := [4]int{}
	for _, p := range g.prio {
		max[p]++
	}
	var edges, nodes []string
	for v, ws := range g.succ {
		for _, w := range ws {
			edges = append(edges, fmt.Sprintf("%d %d %d %d", v+1, w+1, max[1], max[3]))
		}
	}
	for v := 0; v < n; v++ {
		nodes = append(nodes, fmt.Sprintf("%d %d 1", g.prio[v], b2i(g.odd[v])))
	}
	var b initText
	b.section("Edge", "Node Node Nat Nat Bool Nat Nat", len(edges), len(edges), edges)
	b.section("Node", "Nat Bool Bool Bool Nat Nat Edge", n, n, nodes)
	return b.String()
}

func TestSmallProgressMeasures(t *testing.T) {
	prog := loadFile(t, "../testdata/spm_thesis.adl")
	top := param(t, prog, "Node", "rho_top")
	// AT-5's smallest repository input, keiren_ex1_pg_min (spec §5.11).
	keiren := game{prio: []int{2, 1, 3}, odd: []bool{false, true, false}, succ: [][]int{{0, 1}, {0, 2}, {1, 2}}}
	if got := zielonka(keiren); fmt.Sprint(got) != "[false true true]" {
		t.Fatalf("zielonka(keiren_ex1) = %v, want nodes 2 and 3 odd-won", got)
	}
	games := []game{keiren}
	for i, n := range []int{5, 20, 50, 200, 2200} {
		games = append(games, randomGame(n, uint64(i+1)))
		games = append(games, randomGame(n, uint64(i+50)))
	}
	oddWon := 0
	defer func() {
		// The generated games must exercise both players' wins.
		if oddWon == 0 {
			t.Errorf("no node won by Odd in any game")
		}
	}()
	for gi, g := range games {
		want := zielonka(g)
		for _, w := range want {
			if w {
				oddWon++
			}
		}
		if gi == len(games)-1 {
			t.Logf("largest game: %d of %d nodes odd-won", oddWon, len(want))
		}
		for _, c := range configs {
			m := run(t, prog, spmInit(g), c)
			for v := range want {
				if got := m.Value(top, v+1) == 1; got != want[v] {
					t.Errorf("game %d (n=%d) %v: node %d odd-won=%v, Zielonka %v", gi, len(want), c, v+1, got, want[v])
					break
				}
			}
		}
	}
}

// An automaton for supervisory controller synthesis (spec E6).
type plant struct {
	marked, initial []bool
	ctrl, unctrl    [][2]int
}

func randomPlant(n int, seed uint64) plant {
	r := rand.New(rand.NewPCG(seed, 13))
	p := plant{marked: make([]bool, n), initial: make([]bool, n)}
	for v := 0; v < n; v++ {
		p.marked[v] = r.IntN(8) == 0
		p.initial[v] = r.IntN(20) == 0
	}
	p.initial[0] = true
	for i := 0; i < n*3/2; i++ {
		p.ctrl = append(p.ctrl, [2]int{r.IntN(n), r.IntN(n)})
	}
	for i := 0; i < n/3; i++ {
		p.unctrl = append(p.unctrl, [2]int{r.IntN(n), r.IntN(n)})
	}
	return p
}

// synthesise computes directly what scs_thesis.adl computes: repeatedly
// delete the states that cannot reach a marked state through controllable
// events among non-deleted states, and the states from which an
// uncontrollable event leads to a deleted one; then the supervisor is what
// the initial non-deleted states reach through controllable events.
func synthesise(p plant) (deleted, supervisor []bool) {
	n := len(p.marked)
	deleted = make([]bool, n)
	for changed := true; changed; {
		changed = false
		coreach := make([]bool, n)
		for v := 0; v < n; v++ {
			coreach[v] = p.marked[v] && !deleted[v]
		}
		for grew := true; grew; {
			grew = false
			for _, e := range p.ctrl {
				if !deleted[e[0]] && !deleted[e[1]] && coreach[e[1]] && !coreach[e[0]] {
					coreach[e[0]], grew = true, true
				}
			}
		}
		for v := 0; v < n; v++ {
			if !deleted[v] && !coreach[v] {
				deleted[v], changed = true, true
			}
		}
		for grew := true; grew; {
			grew = false
			for _, e := range p.unctrl {
				if deleted[e[1]] && !deleted[e[0]] {
					deleted[e[0]], grew, changed = true, true, true
				}
			}
		}
	}
	supervisor = make([]bool, n)
	for v := 0; v < n; v++ {
		supervisor[v] = p.initial[v] && !deleted[v]
	}
	for grew := true; grew; {
		grew = false
		for _, e := range p.ctrl {
			if !deleted[e[0]] && !deleted[e[1]] && supervisor[e[0]] && !supervisor[e[1]] {
				supervisor[e[1]], grew = true, true
			}
		}
	}
	return deleted, supervisor
}

func count(b []bool) int {
	k := 0
	for _, x := range b {
		if x {
			k++
		}
	}
	return k
}

func scsInit(p plant) string {
	var ctrl, states, unctrl []string
	for _, e := range p.ctrl {
		ctrl = append(ctrl, fmt.Sprintf("%d %d", e[0]+1, e[1]+1))
	}
	for v := range p.marked {
		states = append(states, fmt.Sprintf("%d %d", b2i(p.marked[v]), b2i(p.initial[v])))
	}
	for _, e := range p.unctrl {
		unctrl = append(unctrl, fmt.Sprintf("%d %d", e[0]+1, e[1]+1))
	}
	var b initText
	b.section("ControllableEvent", "State State", len(ctrl), len(ctrl), ctrl)
	b.section("State", "Bool Bool Bool ControllableEvent Bool", len(states), len(states), states)
	b.section("UncontrollableEvent", "State State", len(unctrl), len(unctrl), unctrl)
	return b.String()
}

func TestSupervisorySynthesis(t *testing.T) {
	prog := loadFile(t, "../testdata/scs_thesis.adl")
	del, sup := param(t, prog, "State", "deleted"), param(t, prog, "State", "supervisor")
	for i, n := range []int{1, 10, 50, 300, 2500} {
		for seed := uint64(1); seed <= 2; seed++ {
			p := randomPlant(n, seed+uint64(i)*10)
			wantDel, wantSup := synthesise(p)
			if n == 2500 && seed == 1 {
				t.Logf("n=%d: %d deleted, %d supervisor states", n, count(wantDel), count(wantSup))
			}
			for _, c := range configs {
				m := run(t, prog, scsInit(p), c)
				for v := 0; v < n; v++ {
					if gd, gs := m.Value(del, v+1) == 1, m.Value(sup, v+1) == 1; gd != wantDel[v] || gs != wantSup[v] {
						t.Errorf("n=%d seed=%d %v: state %d deleted=%v supervisor=%v, want %v %v", n, seed, c, v+1, gd, gs, wantDel[v], wantSup[v])
						break
					}
				}
			}
		}
	}
}

func parseInit(t testing.TB, prog *check.Program, text string) *initfileData {
	t.Helper()
	var diags diag.List
	d := initfileParse(diag.NewFile("gen.init", []byte(text)), prog, &diags)
	if d == nil {
		t.Fatalf("generated .init: %v\n%s", diags.Err(), text)
	}
	return d
}

type initfileData = initfile.Data

var initfileParse = initfile.Parse

func withOut(o Options, w io.Writer) Options { o.Out = w; return o }

func withMax(o Options, n int) Options { o.MaxIterations = n; return o }
