package interp

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"weft.dev/weft/lang/audala/check"
	"weft.dev/weft/lang/audala/initfile"
)

// Benchmarks (issue 7, Performance): the interpreter with one worker and
// with all cores, against a sequential native Go implementation of the same
// algorithm, at 10^4, 10^5 and 10^6 elements. Compare ns/op of the
// sub-benchmarks of one run: strict-1 / native is the interpreter's
// overhead on the same in-place algorithm, X-1 / X-all its scaling. The
// relaxed runs are lockstep (every read sees the step's initial values), so
// fixpoints may need more iterations (reported as a metric).
//
//	go test ./lang/audala/interp -run XXX -bench . -benchtime 3x

var benchSizes = []int{10_000, 100_000, 1_000_000}

// loop runs f b.N times and reports, besides the wall time, the process's
// CPU time per op (cpu-ns/op): on the shared build machine wall-clock
// ratios swing with the load, CPU-time ratios much less. With one worker
// the two agree on a quiet machine.
func loop(b *testing.B, f func(i int)) {
	start := cpuNow()
	for i := 0; i < b.N; i++ {
		f(i)
	}
	b.ReportMetric(float64(cpuNow()-start)/float64(b.N), "cpu-ns/op")
}

// profile sums the Stats timings of a benchmark's runs and reports them
// as metrics: serial-% is the share of a run's wall time (New included)
// outside the parallel regions, idle-% the workers' waiting inside them,
// and amdahl-2 the speedup bound 1/(s + (1-s)/2) for two workers from the
// serial fraction s (meaningful on the 1-worker runs).
type profile struct {
	total, serial, parallel, busy time.Duration
	workers                       int
}

func (p *profile) run(b *testing.B, prog *check.Program, data *initfile.Data, opt Options) *Machine {
	m := New(prog, data, opt)
	if err := m.Run(); err != nil {
		b.Fatal(err)
	}
	p.total += m.Stats.Load + m.Stats.Wall
	p.serial += m.Stats.Serial()
	p.parallel += m.Stats.Parallel
	p.busy += m.Stats.Busy
	p.workers = len(m.workers)
	return m
}

func (p *profile) report(b *testing.B) {
	s := float64(p.serial) / float64(p.total)
	b.ReportMetric(100*s, "serial-%")
	b.ReportMetric(1/(s+(1-s)/2), "amdahl-2")
	if p.parallel > 0 {
		b.ReportMetric(100*(1-float64(p.busy)/float64(p.parallel*time.Duration(p.workers))), "idle-%")
	}
}

type benchConfig struct {
	name string
	config
}

// benchConfigs: relaxed (lockstep: reads see the step's initial values)
// and strict (in place, like the native loops) with one worker and all.
func benchConfigs() []benchConfig {
	all := runtime.GOMAXPROCS(0)
	return []benchConfig{
		{"relaxed-1", config{Relaxed, 1, false}}, {fmt.Sprintf("relaxed-%d", all), config{Relaxed, all, false}},
		{"strict-1", config{Strict, 1, false}}, {fmt.Sprintf("strict-%d", all), config{Strict, all, false}},
		{"lockstep-1", config{Relaxed, 1, true}}, {fmt.Sprintf("lockstep-%d", all), config{Relaxed, all, true}},
	}
}

func psData(n int) (*initfile.Data, []int32) {
	r := rand.New(rand.NewPCG(1, 2))
	vals := make([]int32, n)
	prev := make([]int32, n)
	for i := range vals {
		vals[i] = int32(r.IntN(201) - 100)
		prev[i] = int32(i) // label i+1's predecessor is label i (0 = null)
	}
	zeros := make([]int32, n)
	return &initfile.Data{Counts: []int{n}, Cols: [][][]int32{{vals, prev, zeros, zeros}}}, vals
}

// nativeHillisSteele is ps_thesis.adl's algorithm written directly: rounds
// of val += prev.val, prev := prev.prev with double buffering, until every
// prev is null.
func nativeHillisSteele(vals []int32) []int32 {
	n := len(vals)
	val := append([]int32(nil), vals...)
	prev := make([]int32, n) // 1-based labels, 0 = none
	for i := range prev {
		prev[i] = int32(i)
	}
	nv, np := make([]int32, n), make([]int32, n)
	for {
		done := true
		for i := 0; i < n; i++ {
			p := prev[i]
			if p == 0 {
				nv[i], np[i] = val[i], 0
				continue
			}
			done = false
			nv[i] = val[i] + val[p-1]
			np[i] = prev[p-1]
		}
		val, nv = nv, val
		prev, np = np, prev
		if done {
			return val
		}
	}
}

func BenchmarkPrefixSum(b *testing.B) {
	prog := loadFile(b, "../testdata/ps_thesis.adl")
	val := prog.Structs[0].Params[0]
	for _, n := range benchSizes {
		data, vals := psData(n)
		want := nativeHillisSteele(vals)
		b.Run(fmt.Sprintf("n=%d/native", n), func(b *testing.B) {
			loop(b, func(int) { nativeHillisSteele(vals) })
		})
		for _, c := range benchConfigs() {
			b.Run(fmt.Sprintf("n=%d/%s", n, c.name), func(b *testing.B) {
				var p profile
				loop(b, func(i int) {
					m := p.run(b, prog, data, c.options())
					if i == 0 && (m.Value(val, n) != int64(want[n-1]) || m.Value(val, 1) != int64(want[0])) {
						b.Fatalf("wrong result")
					}
					b.ReportMetric(float64(m.Stats.Iterations), "iterations")
				})
				p.report(b)
			})
		}
	}
}

// chData is a random graph with n nodes and 1.3n edges, the shape of the
// thesis's random_col inputs (spec AT-3: N=10^5, M=129651).
func chData(prog *check.Program, n int) (*initfile.Data, graph) {
	g := randomGraph(n, n*13/10, 42)
	src := make([]int32, len(g.edges))
	dst := make([]int32, len(g.edges))
	for i, e := range g.edges {
		src[i], dst[i] = int32(e[0]+1), int32(e[1]+1)
	}
	d := &initfile.Data{Counts: make([]int, 2), Cols: make([][][]int32, 2)}
	edge, node := prog.StructByName("Edge"), prog.StructByName("Node")
	d.Counts[edge.Index], d.Counts[node.Index] = len(g.edges), n
	d.Cols[edge.Index] = [][]int32{src, dst, make([]int32, len(g.edges))}
	d.Cols[node.Index] = [][]int32{make([]int32, n), make([]int32, n)}
	return d, g
}

// nativeColouring is ch_thesis.adl's algorithm (colouring / heads-off SCC)
// written directly in sequential Go, with the same fixpoint structure.
func nativeColouring(g graph) int {
	n := g.n
	fwd := make([]int32, n+1)
	bwd := make([]int32, n+1)
	deleted := make([]bool, len(g.edges))
	for v := 1; v <= n; v++ {
		fwd[v], bwd[v] = int32(v), int32(v)
	}
	for outer := true; outer; {
		outer = false
		for changed := true; changed; {
			changed = false
			for i, e := range g.edges {
				s, t := e[0]+1, e[1]+1
				if !deleted[i] && fwd[s] < fwd[t] {
					fwd[t], changed, outer = fwd[s], true, true
				}
			}
		}
		for i, e := range g.edges {
			if !deleted[i] && fwd[e[0]+1] != fwd[e[1]+1] {
				deleted[i], outer = true, true
			}
		}
		for changed := true; changed; {
			changed = false
			for i, e := range g.edges {
				s, t := e[0]+1, e[1]+1
				if !deleted[i] && bwd[t] < bwd[s] {
					bwd[s], changed, outer = bwd[t], true, true
				}
			}
		}
		for i, e := range g.edges {
			if !deleted[i] && bwd[e[0]+1] != bwd[e[1]+1] {
				deleted[i], outer = true, true
			}
		}
		for v := 1; v <= n; v++ {
			if fwd[v] != bwd[v] {
				fwd[v], bwd[v], outer = int32(v), int32(v), true
			}
		}
	}
	count := 0
	for v := 1; v <= n; v++ {
		if fwd[v] == int32(v) && bwd[v] == int32(v) {
			count++
		}
	}
	return count
}

func BenchmarkSCCColouring(b *testing.B) {
	prog := loadFile(b, "../testdata/ch_thesis.adl")
	fwd, bwd := param(b, prog, "Node", "fwd"), param(b, prog, "Node", "bwd")
	for _, n := range benchSizes {
		data, g := chData(prog, n)
		want := tarjan(g)
		b.Run(fmt.Sprintf("n=%d/tarjan", n), func(b *testing.B) {
			loop(b, func(int) { tarjan(g) })
		})
		b.Run(fmt.Sprintf("n=%d/native", n), func(b *testing.B) {
			loop(b, func(int) {
				if got := nativeColouring(g); got != want {
					b.Fatalf("native colouring: %d SCCs, Tarjan %d", got, want)
				}
			})
		})
		for _, c := range benchConfigs() {
			b.Run(fmt.Sprintf("n=%d/%s", n, c.name), func(b *testing.B) {
				var p profile
				loop(b, func(i int) {
					m := p.run(b, prog, data, c.options())
					if i == 0 {
						got := 0
						for l := 1; l <= n; l++ {
							if m.Value(fwd, l) == int64(l) && m.Value(bwd, l) == int64(l) {
								got++
							}
						}
						if got != want {
							b.Fatalf("%d SCCs, Tarjan %d", got, want)
						}
					}
					b.ReportMetric(float64(m.Stats.Iterations), "iterations")
				})
				p.report(b)
			})
		}
	}
}
