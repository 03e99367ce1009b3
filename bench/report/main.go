// Command report reads `go test -bench` output and prints each performance
// goal of the issues as a ratio against its baseline: a native Go baseline
// measured in the same run, or a figure the seed publishes (quoted below with
// its source). It prints the median of repeated runs (-count).
//
// Usage: go run ./bench/report bench/out/raw.txt
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
)

// results maps a benchmark name (without the GOMAXPROCS suffix) and a unit
// ("ns/op", or a reported metric) to every measured value.
type results map[string]map[string][]float64

// parse reads go test output; a line "procs: N" (written by bench/run.sh)
// says the following benchmarks ran with GOMAXPROCS=N, so their names carry
// the suffix -N when N > 1.
func parse(r io.Reader) results {
	res := results{}
	suffix := ""
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 2 && f[0] == "procs:" {
			suffix = ""
			if f[1] != "1" {
				suffix = "-" + f[1]
			}
			continue
		}
		if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") {
			continue
		}
		name := strings.TrimSuffix(strings.TrimPrefix(f[0], "Benchmark"), suffix)
		// value/unit pairs follow the iteration count
		for i := 2; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				break
			}
			if res[name] == nil {
				res[name] = map[string][]float64{}
			}
			res[name][f[i+1]] = append(res[name][f[i+1]], v)
		}
	}
	return res
}

// get is the median of name's unit, and whether it was measured.
func (r results) get(name, unit string) (float64, bool) {
	vs := r[name][unit]
	if len(vs) == 0 {
		return 0, false
	}
	s := append([]float64(nil), vs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2], true
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2, true
}

// names lists the measured benchmarks with the given prefix, sorted.
func (r results) names(prefix string) []string {
	var out []string
	for n := range r {
		if strings.HasPrefix(n, prefix) {
			out = append(out, n)
		}
	}
	sort.Slice(out, func(i, j int) bool { return natLess(out[i], out[j]) })
	return out
}

// natLess orders names with numbers by value: stmts=4000 before stmts=16000.
func natLess(a, b string) bool {
	for a != "" && b != "" {
		da, db := digits(a), digits(b)
		if da > 0 && db > 0 {
			na, _ := strconv.Atoi(a[:da])
			nb, _ := strconv.Atoi(b[:db])
			if na != nb {
				return na < nb
			}
			a, b = a[da:], b[db:]
			continue
		}
		if a[0] != b[0] {
			return a[0] < b[0]
		}
		a, b = a[1:], b[1:]
	}
	return len(a) < len(b)
}

func digits(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}

type table struct {
	title string
	head  []string
	rows  [][]string
}

func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

func (t *table) print(w io.Writer) {
	if len(t.rows) == 0 {
		fmt.Fprintf(w, "\n%s: not measured\n", t.title)
		return
	}
	fmt.Fprintf(w, "\n%s\n\n", t.title)
	width := make([]int, len(t.head))
	for _, row := range append([][]string{t.head}, t.rows...) {
		for i, c := range row {
			width[i] = max(width[i], len(c))
		}
	}
	line := func(row []string) {
		fmt.Fprint(w, "|")
		for i, c := range row {
			fmt.Fprintf(w, " %-*s |", width[i], c)
		}
		fmt.Fprintln(w)
	}
	line(t.head)
	sep := make([]string, len(t.head))
	for i := range sep {
		sep[i] = strings.Repeat("-", width[i])
	}
	line(sep)
	for _, row := range t.rows {
		line(row)
	}
}

func dur(ns float64) string {
	switch {
	case ns >= 1e9:
		return fmt.Sprintf("%.2f s", ns/1e9)
	case ns >= 1e6:
		return fmt.Sprintf("%.2f ms", ns/1e6)
	case ns >= 1e3:
		return fmt.Sprintf("%.1f µs", ns/1e3)
	}
	return fmt.Sprintf("%.0f ns", ns)
}

func verdict(ok bool) string {
	if ok {
		return "met"
	}
	return "missed"
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: report RAW-BENCH-OUTPUT")
		os.Exit(2)
	}
	f, err := os.Open(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	defer f.Close()
	report(os.Stdout, parse(f))
}

func report(w io.Writer, r results) {
	// Issue 2: the Weft interpreter within 30x of the same loops in Go.
	t := &table{title: "Weft interpreter: 256x256x256 sequential GEMM vs the same loop nest in Go (goal: within 30x)",
		head: []string{"interpreter", "Go", "interp/Go", "goal"}}
	if i, ok := r.get("GEMM256Interp", "ns/op"); ok {
		if g, ok := r.get("GEMM256Go", "ns/op"); ok {
			t.add(dur(i), dur(g), fmt.Sprintf("%.1fx", i/g), verdict(i/g <= 30))
		}
	}
	t.print(w)

	// Issue 4: the seed's Python checker took 2 / 16 / 128 s at 1024 / 2048 /
	// 4096 (seed 000 Fig. 9); goal at least 50x faster on one core.
	//
	// Issue 13: those are the seed's figures for an older Python checker.
	// The reference implementation of seed 000 (Exo-GPU's C++ "camspork"
	// checker, built from its public source) was measured once, outside
	// CI, on one core of the same machine class, on the same kernels
	// re-expressed in Weft: 74.2 s for the Sm80 GEMM at 1024 (more than
	// 600 s at 2048), 1.24 / 10.0 / 78.7 s for the Sm90 GEMM at 1024 /
	// 2048 / 4096. It cannot run in CI; the ratio against it is printed
	// from those fixed figures and labelled so.
	seed := map[string]float64{"1024": 2e9, "2048": 16e9, "4096": 128e9}
	ref := map[string]float64{"Sm80GEMM/1024": 74.2e9, "Sm90GEMM/1024": 1.24e9, "Sm90GEMM/2048": 10.0e9, "Sm90GEMM/4096": 78.7e9}
	t = &table{title: "Sync checker vs the seed's published figures (seed 000 Fig. 9, an older Python checker: 2 / 16 / 128 s; goal: at least 50x faster, one core) and vs the reference implementation's C++ checker as measured once outside CI (issue 13: Sm80 1024 74.2 s; Sm90 1.24 / 10.0 / 78.7 s)",
		head: []string{"kernel", "size", "time", "memory ops", "M memops/s", "speedup vs seed figure", "goal", "vs reference (fixed figure)"}}
	for _, k := range []string{"Sm80GEMM", "Sm90GEMM"} {
		for _, size := range []string{"256", "512", "1024", "2048", "4096"} {
			ns, ok := r.get(k+"/"+size, "ns/op")
			if !ok {
				continue
			}
			ops, _ := r.get(k+"/"+size, "memops")
			rate, _ := r.get(k+"/"+size, "Mmemops/s")
			sp, g := "", ""
			if s, ok := seed[size]; ok {
				sp, g = fmt.Sprintf("%.0fx", s/ns), verdict(s/ns >= 50)
			}
			rs := "-"
			if x, ok := ref[k+"/"+size]; ok {
				rs = fmt.Sprintf("%.0fx", x/ns)
			}
			t.add(k, size, dur(ns), fmt.Sprintf("%.0f", ops), fmt.Sprintf("%.1f", rate), sp, g, rs)
		}
	}
	t.print(w)

	// Issue 13, item 4: per-thread cp.async commit groups
	// (examples/weft/sync/cp_async_ring.weft). The reference
	// implementation's times for this kind of kernel were measured once
	// outside CI (0.369 s with 256 threads and a ring of 6, 0.138 s with
	// 128 threads and a ring of 4); the kernel it ran was Weft's
	// re-expression of the same pattern, not necessarily this file.
	t = &table{title: "Sync checker, per-thread cp.async commit groups (goal: the GEMMs' cost per memory op; reference C++ checker measured once outside CI: 0.369 s / 0.138 s)",
		head: []string{"kernel", "time", "memory ops", "M memops/s", "ns/memop", "vs reference (fixed figure)"}}
	for _, c := range []struct {
		name string
		ref  float64
	}{{"CommitGroupRing/T256R6", 0.369e9}, {"CommitGroupRing/T128R4", 0.138e9}} {
		ns, ok := r.get(c.name, "ns/op")
		if !ok {
			continue
		}
		ops, _ := r.get(c.name, "memops")
		rate, _ := r.get(c.name, "Mmemops/s")
		per := "-"
		if ops > 0 {
			per = fmt.Sprintf("%.0f", ns/ops)
		}
		t.add(c.name, dur(ns), fmt.Sprintf("%.0f", ops), fmt.Sprintf("%.1f", rate), per, fmt.Sprintf("%.0fx", c.ref/ns))
	}
	t.print(w)

	// Issue 13: the reference implementation's scalar shared-memory
	// matmul test (sync_check(M=256, N=256, K=96) of Exo-GPU's
	// test_simple_cuda.py), re-expressed as
	// examples/weft/sync/smem_matmul.weft: 6.49 s there, measured once
	// outside CI on one core; goal at least 100x faster.
	t = &table{title: "Sync checker, scalar shared-memory matmul M=N=256, K=96 (reference C++ checker measured once outside CI: 6.49 s; goal: at least 100x faster, one core)",
		head: []string{"kernel", "time", "memory ops", "M memops/s", "vs reference (fixed figure)", "goal"}}
	if ns, ok := r.get("ScalarSmemMatmul", "ns/op"); ok {
		ops, _ := r.get("ScalarSmemMatmul", "memops")
		rate, _ := r.get("ScalarSmemMatmul", "Mmemops/s")
		t.add("ScalarSmemMatmul", dur(ns), fmt.Sprintf("%.0f", ops), fmt.Sprintf("%.1f", rate), fmt.Sprintf("%.0fx", 6.49e9/ns), verdict(6.49e9/ns >= 100))
	}
	t.print(w)

	// Issue 3: the static analyses are linear in program size.
	t = &table{title: "Collective and distributed-memory analysis on generated programs (goal: linear, constant ns/stmt)",
		head: []string{"benchmark", "time", "ns/stmt"}}
	for _, p := range []string{"Check/", "Collective"} {
		for _, n := range r.names(p) {
			ns, _ := r.get(n, "ns/op")
			per, ok := r.get(n, "ns/stmt")
			ps := "-"
			if ok {
				ps = fmt.Sprintf("%.0f", per)
			}
			t.add(n, dur(ns), ps)
		}
	}
	t.print(w)

	// Issue 6: seed 004's tool took nearly 3 minutes for Figure 1 and 27 hours
	// for 512 threads with race checking; goals 50 ms and 1 s.
	t = &table{title: "CUDA-C semantics (seed 004: ~3 min for Figure 1, 27 h for 512 threads; goals 50 ms and 1 s with race checking)",
		head: []string{"program", "run", "checked run", "check/run", "interpreted ops/s (checked)", "goal"}}
	for _, p := range []struct {
		name string
		goal float64
	}{{"Figure1", 50e6}, {"Sum512", 1e9}} {
		run, ok1 := r.get(p.name+"Run", "ns/op")
		chk, ok2 := r.get(p.name+"Check", "ns/op")
		if !ok1 || !ok2 {
			continue
		}
		ops, _ := r.get(p.name+"Check", "ops/s")
		t.add(p.name, dur(run), dur(chk), fmt.Sprintf("%.2fx", chk/run), fmt.Sprintf("%.3g", ops),
			fmt.Sprintf("< %s: %s", dur(p.goal), verdict(chk < p.goal)))
	}
	t.print(w)

	// Issue 16: weft check's search over kernel-only files, configurations
	// explored per second against checking each file's first configuration
	// only (one run per file, compile included).
	t = &table{title: "Kernel-only search (lang/cudac/verify corpus, or GPUVerify's suite with WEFT_GPUVERIFY_SUITE): configurations per second",
		head: []string{"search", "one configuration per file", "search/baseline"}}
	if s, ok := r.get("Search/search", "configs/s"); ok {
		if b, ok := r.get("Search/baseline", "configs/s"); ok {
			t.add(fmt.Sprintf("%.0f/s", s), fmt.Sprintf("%.0f/s", b), fmt.Sprintf("%.2fx", s/b))
		}
	}
	t.print(w)

	// Issue 7: the AuDaLa interpreter against a sequential native Go
	// implementation of the same algorithm, and its scaling over workers.
	t = &table{title: "AuDaLa interpreter vs a native sequential Go implementation (overhead), and 1 worker vs all cores (scaling)",
		head: []string{"benchmark", "n", "native", "config", "time", "x native", "x native (CPU)", "speedup over 1 worker"}}
	for _, prog := range []string{"PrefixSum", "SCCColouring"} {
		sizes := map[string]bool{}
		for _, n := range r.names(prog + "/") {
			sizes[strings.Split(n, "/")[1]] = true
		}
		var ss []string
		for s := range sizes {
			ss = append(ss, s)
		}
		sort.Slice(ss, func(i, j int) bool { return natLess(ss[i], ss[j]) })
		for _, size := range ss {
			base := prog + "/" + size + "/"
			nat, ok := r.get(base+"native", "ns/op")
			if !ok {
				continue
			}
			for _, n := range r.names(base) {
				cfg := strings.TrimPrefix(n, base)
				if cfg == "native" || cfg == "tarjan" {
					continue
				}
				ns, _ := r.get(n, "ns/op")
				sp := "-"
				if i := strings.LastIndex(cfg, "-"); i > 0 && cfg[i+1:] != "1" {
					if one, ok := r.get(base+cfg[:i]+"-1", "ns/op"); ok {
						sp = fmt.Sprintf("%.2fx", one/ns)
					}
				}
				// CPU time (cpu-ns/op, the process's): steadier than wall
				// time on a loaded machine, and equal to it for one worker
				// on a quiet one.
				cpu := "-"
				natCPU, ok1 := r.get(base+"native", "cpu-ns/op")
				if c, ok2 := r.get(n, "cpu-ns/op"); ok1 && ok2 && natCPU > 0 {
					cpu = fmt.Sprintf("%.1fx", c/natCPU)
				}
				t.add(prog, strings.TrimPrefix(size, "n="), dur(nat), cfg, dur(ns), fmt.Sprintf("%.1fx", ns/nat), cpu, sp)
			}
		}
	}
	t.print(w)

	// Issue 8: the Bundl reference interpreter on the running example.
	t = &table{title: "Prism Bundl interpreter (the CPU oracle)", head: []string{"benchmark", "time", "steps/op"}}
	for _, n := range r.names("RunningExample") {
		ns, _ := r.get(n, "ns/op")
		st, _ := r.get(n, "steps/op")
		t.add(n, dur(ns), fmt.Sprintf("%.0f", st))
	}
	t.print(w)
}
