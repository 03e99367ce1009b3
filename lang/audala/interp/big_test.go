package interp

import (
	"math/rand/v2"
	"testing"

	"weft.dev/weft/lang/audala/check"
	"weft.dev/weft/lang/audala/initfile"
)

// Bigger acceptance tests (issue 17): the thesis programs at sizes where
// the batched and parallel paths carry the whole run, on inputs generated
// here from fixed seeds, against results computed independently in Go.
// Each runs in both semantics with 1 and 2 workers. Skipped with -short.

var bigConfigs = []config{{Relaxed, 1, false}, {Relaxed, 2, false}, {Strict, 1, false}, {Strict, 2, false}}

func runData(t *testing.T, prog *check.Program, data *initfile.Data, c config) *Machine {
	t.Helper()
	opt := c.options()
	opt.MaxIterations = 100000
	m := New(prog, data, opt)
	if err := m.Run(); err != nil {
		t.Fatalf("%v: %v", c, err)
	}
	return m
}

// TestBigPrefixSum: Hillis-Steele (ps_thesis.adl) on a 400,000-element list
// whose order is a random permutation of the labels, against running sums
// along the list.
func TestBigPrefixSum(t *testing.T) {
	if testing.Short() {
		t.Skip("big acceptance test")
	}
	const n = 400_000
	prog := loadFile(t, "../testdata/ps_thesis.adl")
	val := param(t, prog, "Position", "val")
	r := rand.New(rand.NewPCG(17, 400_000))
	order := r.Perm(n) // order[i] is the 0-based label slot of list element i
	vals, prev := make([]int32, n), make([]int32, n)
	for i, slot := range order {
		vals[slot] = int32(r.IntN(2001) - 1000)
		if i > 0 {
			prev[slot] = int32(order[i-1] + 1)
		}
	}
	want := make([]int64, n) // by slot
	sum := int64(0)
	for _, slot := range order {
		sum += int64(vals[slot])
		want[slot] = sum
	}
	zeros := make([]int32, n)
	data := &initfile.Data{Counts: []int{n}, Cols: [][][]int32{{vals, prev, zeros, zeros}}}
	for _, c := range bigConfigs {
		m := runData(t, prog, data, c)
		for slot := 0; slot < n; slot++ {
			if got := m.Value(val, slot+1); got != want[slot] {
				t.Fatalf("%v: val of label %d = %d, want %d", c, slot+1, got, want[slot])
			}
		}
	}
}

// plantedGraph is a random graph with n nodes and about 1.2n random edges,
// plus cycles planted through random node sets: ten of length 2..20, five
// of length 100..2000 and one of n/20 nodes, some overlapping (and so
// merging into larger components).
func plantedGraph(n int, seed uint64) graph {
	r := rand.New(rand.NewPCG(seed, 200_000))
	g := randomGraph(n, n*12/10, seed)
	plant := func(k int) {
		nodes := r.Perm(n)[:k]
		for i := range nodes {
			g.edges = append(g.edges, [2]int{nodes[i], nodes[(i+1)%k]})
		}
	}
	for i := 0; i < 10; i++ {
		plant(2 + r.IntN(19))
	}
	for i := 0; i < 5; i++ {
		plant(100 + r.IntN(1901))
	}
	plant(n / 20)
	return g
}

// components labels each node with its strongly connected component
// (Tarjan, iterative so that long paths need no deep recursion).
func components(g graph) []int {
	adj := make([][]int, g.n)
	for _, e := range g.edges {
		adj[e[0]] = append(adj[e[0]], e[1])
	}
	index, low, comp := make([]int, g.n), make([]int, g.n), make([]int, g.n)
	on := make([]bool, g.n)
	for i := range index {
		index[i], comp[i] = -1, -1
	}
	var stack []int
	type frame struct{ v, next int }
	next, ncomp := 0, 0
	for root := 0; root < g.n; root++ {
		if index[root] >= 0 {
			continue
		}
		call := []frame{{root, 0}}
		index[root], low[root] = next, next
		next++
		stack = append(stack, root)
		on[root] = true
		for len(call) > 0 {
			f := &call[len(call)-1]
			if f.next < len(adj[f.v]) {
				w := adj[f.v][f.next]
				f.next++
				switch {
				case index[w] < 0:
					index[w], low[w] = next, next
					next++
					stack = append(stack, w)
					on[w] = true
					call = append(call, frame{w, 0})
				case on[w]:
					low[f.v] = min(low[f.v], index[w])
				}
				continue
			}
			v := f.v
			call = call[:len(call)-1]
			if len(call) > 0 {
				u := call[len(call)-1].v
				low[u] = min(low[u], low[v])
			}
			if low[v] == index[v] {
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					on[w] = false
					comp[w] = ncomp
					if w == v {
						break
					}
				}
				ncomp++
			}
		}
	}
	return comp
}

// TestBigSCCColouring: colouring SCC (ch_thesis.adl) on a 200,000-node
// graph with planted cycles. At its fixpoint every node's fwd and bwd are
// the smallest label of its component (edges between components are
// deleted, minima propagate within), so the partition is checked node by
// node against Tarjan's.
func TestBigSCCColouring(t *testing.T) {
	if testing.Short() {
		t.Skip("big acceptance test")
	}
	const n = 200_000
	prog := loadFile(t, "../testdata/ch_thesis.adl")
	fwd, bwd := param(t, prog, "Node", "fwd"), param(t, prog, "Node", "bwd")
	g := plantedGraph(n, 5)
	comp := components(g)
	minLabel := map[int]int64{}
	sizes := map[int]int{}
	for v := n - 1; v >= 0; v-- {
		minLabel[comp[v]] = int64(v + 1)
		sizes[comp[v]]++
	}
	largest := 0
	for _, s := range sizes {
		largest = max(largest, s)
	}
	if largest < n/20 || len(sizes) == n {
		t.Fatalf("planted cycles missing: %d components, largest %d", len(sizes), largest)
	}
	t.Logf("%d nodes, %d edges: %d components, largest %d", n, len(g.edges), len(sizes), largest)
	data := parseInit(t, prog, chInit(g))
	for _, c := range bigConfigs {
		m := runData(t, prog, data, c)
		for v := 0; v < n; v++ {
			want := minLabel[comp[v]]
			if f, b := m.Value(fwd, v+1), m.Value(bwd, v+1); f != want || b != want {
				t.Fatalf("%v: node %d: fwd=%d bwd=%d, want the component's smallest label %d", c, v+1, f, b, want)
			}
		}
	}
}

// TestBigSynthesis: supervisory controller synthesis (scs_thesis.adl) on a
// random 300,000-state plant, against the direct fixpoint computation
// (synthesise).
func TestBigSynthesis(t *testing.T) {
	if testing.Short() {
		t.Skip("big acceptance test")
	}
	const n = 300_000
	prog := loadFile(t, "../testdata/scs_thesis.adl")
	del, sup := param(t, prog, "State", "deleted"), param(t, prog, "State", "supervisor")
	p := randomPlant(n, 300)
	wantDel, wantSup := synthesise(p)
	t.Logf("%d states: %d deleted, %d in the supervisor", n, count(wantDel), count(wantSup))
	if c := count(wantDel); c == 0 || c == n || count(wantSup) == 0 {
		t.Fatalf("degenerate plant: %d deleted, %d in the supervisor", c, count(wantSup))
	}
	data := parseInit(t, prog, scsInit(p))
	for _, c := range bigConfigs {
		m := runData(t, prog, data, c)
		for v := 0; v < n; v++ {
			if gd, gs := m.Value(del, v+1) == 1, m.Value(sup, v+1) == 1; gd != wantDel[v] || gs != wantSup[v] {
				t.Fatalf("%v: state %d deleted=%v supervisor=%v, want %v %v", c, v+1, gd, gs, wantDel[v], wantSup[v])
			}
		}
	}
}
