package sched

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// Property tests of the rewrites of dims.go, loops.go and exprs.go, in the
// style of property_test.go: random programs and parameters, and every
// accepted rewrite must compute the same arrays as the original.

// TestPropertyPipeline software-pipelines random loop bodies (plain and
// ring-indexed accesses) at random split points.
func TestPropertyPipeline(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	iters := 300
	if testing.Short() {
		iters = 60
	}
	accepted, refused := 0, 0
	idx := func() string {
		if rng.IntN(2) == 0 {
			return fmt.Sprintf("(i + %d) %% 2", rng.IntN(3))
		}
		return fmt.Sprintf("%d * i + %d", rng.IntN(3), rng.IntN(4))
	}
	for it := 0; it < iters; it++ {
		var body strings.Builder
		n := 2 + rng.IntN(2)
		for s := 0; s < n; s++ {
			dst := []string{"a", "b"}[rng.IntN(2)]
			src := []string{"a", "b", "x"}[rng.IntN(3)]
			op := []string{"=", "+="}[rng.IntN(2)]
			fmt.Fprintf(&body, "        %s[%s] %s %s[%s] * 0.5 + %d.0\n", dst, idx(), op, src, idx(), s)
		}
		src := "@proc\ndef f(N: size, a: f32[40] @ DRAM, b: f32[40] @ DRAM, x: f32[40] @ DRAM):\n    assert N < 12\n    for i in seq(0, N):\n" + body.String()
		split := 1 + rng.IntN(n-1)
		script := fmt.Sprintf("pipeline_loop(f, \"i\", %d)", split)
		before, after, reassoc, ok := schedule(t, src, script)
		if !ok {
			refused++
			continue
		}
		accepted++
		for _, nv := range []int{1, 2, 5, 11} {
			agree(t, before, after, reassoc, []string{fmt.Sprintf("N=%d", nv)}, uint64(it), script)
		}
	}
	if accepted == 0 || refused == 0 {
		t.Fatalf("pipeline_loop accepted %d and refused %d of %d: the test exercises one side only", accepted, refused, iters)
	}
	t.Logf("pipeline_loop accepted %d of %d random bodies", accepted, iters)
}

// TestPropertyDims divides, merges and permutes the dimensions of a
// temporary at random factors, with and without dividing the loops that
// index it first (the simplified and the floor-division forms of
// divide_dim's indices).
func TestPropertyDims(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	divisors := []int{1, 2, 3, 4, 6, 8, 12, 24}
	for it := 0; it < 40; it++ {
		q := divisors[rng.IntN(len(divisors))]
		a, b := 1+2*rng.IntN(3), rng.IntN(24)
		src := fmt.Sprintf(`@proc
def f(N: size, x: f32[N, 24] @ DRAM, y: f32[N, 24] @ DRAM):
    for i in seq(0, N):
        t: f32[24] @ DRAM
        for j in seq(0, 24):
            t[j] = x[i, j] * 2.0
        for j2 in seq(0, 24):
            y[i, j2] = t[(%d * j2 + %d) %% 24] + 1.0
`, a, b)
		var script strings.Builder
		if rng.IntN(2) == 0 {
			fmt.Fprintf(&script, "divide_loop(f, \"j\", %d, [\"jo\", \"ji\"], tail = \"perfect\")\n", q)
		}
		fmt.Fprintf(&script, "divide_dim(f, \"t\", 0, %d)\n", q)
		switch rng.IntN(3) {
		case 0:
			script.WriteString("rearrange_dim(f, \"t\", [1, 0])\n")
		case 1:
			script.WriteString("mult_dim(f, \"t\", 0, 1)\n")
		}
		before, after, reassoc, ok := schedule(t, src, script.String())
		if !ok {
			t.Fatalf("refused:\n%s", script.String())
		}
		for _, nv := range []int{1, 3} {
			agree(t, before, after, reassoc, []string{fmt.Sprintf("N=%d", nv)}, uint64(it), script.String())
		}
	}
}

// TestPropertyRewriteExpr offers random candidate rewrites of a ring index
// (k + c) % m: the accepted ones must not change any result, the true
// identities among them must be accepted.
func TestPropertyRewriteExpr(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 26))
	accepted := 0
	for it := 0; it < 200; it++ {
		m := 2 + rng.IntN(3)
		c := rng.IntN(5)
		src := fmt.Sprintf(`@proc
def f(N: size, x: f32[8] @ DRAM, y: f32[N] @ DRAM):
    for k in seq(0, N):
        y[k] = x[(k + %d) %% %d]
`, c, m)
		old := fmt.Sprintf("(k + %d) %% %d", c, m)
		var cand string
		truth := false
		switch rng.IntN(3) {
		case 0:
			d := rng.IntN(3 * m)
			cand = fmt.Sprintf("(k + %d) %% %d", d, m)
			truth = (d-c)%m == 0
		case 1:
			d := rng.IntN(2 * m)
			cand = fmt.Sprintf("%d - (k + %d) %% %d", m-1, d, m)
			// m - 1 - (k + d) % m == (k + c) % m for all k iff m == 2 and
			// d - c is odd... checked by brute force below instead.
			truth = true
			for k := 0; k < m; k++ {
				if int64(m-1)-floorMod(int64(k+d), int64(m)) != floorMod(int64(k+c), int64(m)) {
					truth = false
				}
			}
		default:
			cand = fmt.Sprintf("k %% %d", m)
			truth = c%m == 0
		}
		script := fmt.Sprintf("rewrite_expr(f, \"k\", %q, %q)", old, cand)
		before, after, reassoc, ok := schedule(t, src, script)
		if ok != truth {
			t.Fatalf("%s: accepted=%v, but the identity is %v", script, ok, truth)
		}
		if !ok {
			continue
		}
		accepted++
		for _, nv := range []int{1, 7} {
			agree(t, before, after, reassoc, []string{fmt.Sprintf("N=%d", nv)}, uint64(it), script)
		}
	}
	if accepted == 0 {
		t.Fatal("rewrite_expr accepted nothing")
	}
}

// TestPropertyVocab applies random loop and allocation rewrites of
// vocab.go (three per program, each on a random target; refusals and
// missing targets are skipped) to random programs: every accepted
// sequence must compute the same arrays as the original.
func TestPropertyVocab(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 28))
	iters := 150
	if testing.Short() {
		iters = 40
	}
	applied := map[string]int{}
	for it := 0; it < iters; it++ {
		var body strings.Builder
		nl := 2 + rng.IntN(2)
		for l := 0; l < nl; l++ {
			v := fmt.Sprintf("i%d", l)
			hi := []string{"N", "4"}[rng.IntN(2)]
			fmt.Fprintf(&body, "    for %s in seq(0, %s):\n", v, hi)
			if rng.IntN(3) == 0 {
				fmt.Fprintf(&body, "        if %s < %d:\n    ", v, 1+rng.IntN(4))
			}
			dst := []string{"a", "b"}[rng.IntN(2)]
			src := []string{"a", "b", "x"}[rng.IntN(3)]
			op := []string{"=", "+="}[rng.IntN(2)]
			fmt.Fprintf(&body, "        %s[%s + %d] %s %s[%s + %d] * 0.5 + %d.0\n", dst, v, rng.IntN(3), op, src, v, rng.IntN(3), l)
		}
		src := "@proc\ndef f(N: size, a: f32[N + 8] @ DRAM, b: f32[N + 8] @ DRAM, x: f32[N + 8] @ DRAM):\n" + body.String()
		before := parseChecked(t, "input.weft", []byte(src))
		var script strings.Builder
		for k := 0; k < 3; k++ {
			l := fmt.Sprintf("\"i%d\"", rng.IntN(nl))
			ops := []string{
				"cut_loop(f, %s, 1)", "shift_loop(f, %s, 3)", "join_loops(f, %s)", "fuse(f, %s)",
				"unroll_loop(f, %s)", "add_loop(f, f.find_loop(%s).body(), \"r%d\", 2, guard = True)",
				"add_loop(f, f.find_loop(%s).body(), \"s%d\", 3)", "remove_loop(f, %s)", "lift_scope(f, f.find_loop(%s).body()[0])",
				"specialize(f, f.find_loop(%s), [\"N > 3\"])", "eliminate_dead_code(f, f.find_loop(%s).body()[0])",
				"add_loop(f, f.find_loop(%s), \"u%d\", 1)\nremove_loop(f, \"u%[2]d\")",
			}
			o := ops[rng.IntN(len(ops))]
			if strings.Count(o, "%") >= 2 {
				fmt.Fprintf(&script, o+"\n", l, k)
			} else {
				fmt.Fprintf(&script, o+"\n", l)
			}
		}
		// Apply the ops one at a time, keeping those accepted.
		cur := before
		var kept []string
		for _, line := range strings.Split(strings.TrimSpace(script.String()), "\n") {
			var errs diag.List
			res := Run(cur, diag.NewFile("script.star", []byte(line)), Options{Lib: lib.MustStd()}, &errs)
			if errs.HasErrors() {
				for _, d := range errs.Diags {
					switch d.Code {
					case CodeScript, CodeArgs, CodeProc, CodePattern:
						t.Fatalf("script error (a bug in the test): %v\n%s", d, line)
					}
				}
				continue
			}
			text := syntax.Print(res.File)
			cur = parseChecked(t, "after.weft", []byte(text))
			kept = append(kept, line)
			applied[strings.SplitN(line, "(", 2)[0]]++
		}
		for _, nv := range []int{1, 4, 6} {
			agree(t, before, cur, false, []string{fmt.Sprintf("N=%d", nv)}, uint64(it), strings.Join(kept, "\n"))
		}
	}
	t.Logf("applied: %v", applied)
	for _, op := range []string{"cut_loop", "shift_loop", "fuse", "unroll_loop", "add_loop", "remove_loop", "lift_scope", "specialize", "eliminate_dead_code"} {
		if applied[op] == 0 {
			t.Errorf("%s was never applied", op)
		}
	}
}

// TestPropertyResizeDim resizes a temporary to random (size, offset)
// windows: exactly those covering every access ([2, 10)) are accepted, and
// they compute the same arrays; then sink_alloc and inline_window.
func TestPropertyResizeDim(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 30))
	src := `@proc
def f(N: size, x: f32[N, 8] @ DRAM, y: f32[N] @ DRAM):
    t: f32[16] @ DRAM
    for i in seq(0, N):
        for k in seq(0, 8):
            t[k + 2] = x[i, k] * 2.0
        row = t[3:9]
        y[i] = t[2] + row[5] * t[9]
`
	accepted := 0
	for it := 0; it < 60; it++ {
		off, size := rng.IntN(5), 4+rng.IntN(12)
		if it%10 == 0 {
			off, size = 2, 8
		}
		script := fmt.Sprintf("resize_dim(f, \"t\", 0, %d, %d)\n", size, off)
		want := off <= 2 && off+size >= 10 && off+size <= 16
		if want && size == 8 {
			script += "sink_alloc(f, \"t\")\ninline_window(f, \"row\")\n"
		}
		before, after, reassoc, ok := schedule(t, src, script)
		if ok != (want || off <= 2 && off+size >= 10) {
			t.Fatalf("%s: accepted=%v", script, ok)
		}
		if !ok {
			continue
		}
		accepted++
		agree(t, before, after, reassoc, []string{"N=3"}, uint64(it), script)
	}
	if accepted == 0 {
		t.Fatal("resize_dim accepted nothing")
	}
}

// TestPropertyProcs extracts a random block of a random program into a
// new proc and, half of the time, inlines it back: the program computes
// the same arrays either way.
func TestPropertyProcs(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	for it := 0; it < 60; it++ {
		var body strings.Builder
		nl := 2 + rng.IntN(2)
		for l := 0; l < nl; l++ {
			v := fmt.Sprintf("i%d", l)
			fmt.Fprintf(&body, "    for %s in seq(0, N):\n", v)
			dst := []string{"a", "b"}[rng.IntN(2)]
			src := []string{"a", "b", "x"}[rng.IntN(3)]
			op := []string{"=", "+="}[rng.IntN(2)]
			fmt.Fprintf(&body, "        %s[%s + %d] %s %s[%s + %d] * 0.5 + %d.0\n", dst, v, rng.IntN(3), op, src, v, rng.IntN(3), l)
		}
		src := "@proc\ndef f(N: size, a: f32[N + 8] @ DRAM, b: f32[N + 8] @ DRAM, x: f32[N + 8] @ DRAM):\n" + body.String()
		k := rng.IntN(nl)
		script := fmt.Sprintf("p, sub = extract_subproc(f, \"i%d\", \"sub\", count = %d)\n", k, 1+rng.IntN(nl-k))
		if rng.IntN(2) == 0 {
			script += "inline(p, \"sub(_)\")\n"
		}
		before, after, reassoc, ok := schedule(t, src, script)
		if !ok {
			t.Fatalf("refused:\n%s\n%s", script, src)
		}
		for _, nv := range []int{1, 5} {
			agree(t, before, after, reassoc, []string{fmt.Sprintf("N=%d", nv)}, uint64(it), script)
		}
	}
}

// TestPropertySetPrecision widens a temporary of random programs (copies,
// or arithmetic on it): accepted rewrites compute bit-identical arrays,
// and the arithmetic uses are refused.
func TestPropertySetPrecision(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 34))
	accepted, refused := 0, 0
	for it := 0; it < 60; it++ {
		src0 := []string{"x", "h"}[rng.IntN(2)]
		use := []string{"t[j]", "t[j] * 1.5", "t[j] + x[j]"}[rng.IntN(3)]
		typ := []string{"f32", "f64", "f16"}[rng.IntN(3)]
		src := fmt.Sprintf(`@proc
def f(N: size, x: f32[N] @ DRAM, h: f16[N] @ DRAM, y: f32[N] @ DRAM):
    t: f32[N] @ DRAM
    for i in seq(0, N):
        t[i] = %s[i]
    for j in seq(0, N):
        y[j] = %s
`, src0, use)
		script := fmt.Sprintf("set_precision(f, \"t\", %q)", typ)
		before, after, reassoc, ok := schedule(t, src, script)
		want := typ != "f16" && use == "t[j]"
		if ok != want {
			t.Fatalf("%s on\n%s: accepted=%v", script, src, ok)
		}
		if !ok {
			refused++
			continue
		}
		accepted++
		for _, nv := range []int{1, 7} {
			agree(t, before, after, reassoc, []string{fmt.Sprintf("N=%d", nv)}, uint64(it), script)
		}
	}
	if accepted == 0 || refused == 0 {
		t.Fatalf("accepted %d, refused %d", accepted, refused)
	}
}

// TestPropertyStageAccum stages random windows of C with accum=True
// around random blocks of a GEMM: accepted ones agree within the
// reassociation tolerance, and are reported as reassociating.
func TestPropertyStageAccum(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 36))
	src := `@proc
def gemm(M: size, N: size, K: size, A: f32[M, K] @ DRAM, B: f32[K, N] @ DRAM, C: f32[M, N] @ DRAM):
    for m in seq(0, M):
        for k in seq(0, K):
            for n in seq(0, N):
                C[m, n] += A[m, k] * B[k, n]
`
	for it := 0; it < 20; it++ {
		block := []string{"for k in _", "for n in _", "C[_] += _"}[rng.IntN(3)]
		window := map[string]string{"for k in _": "C[m, 0:N]", "for n in _": "C[m, 0:N]", "C[_] += _": "C[m, n]"}[block]
		script := fmt.Sprintf("stage_mem(gemm, %q, %q, \"acc\", \"DRAM\", accum = True)", block, window)
		before, after, reassoc, ok := schedule(t, src, script)
		if !ok || !reassoc {
			t.Fatalf("%s: accepted=%v reassociating=%v", script, ok, reassoc)
		}
		sizes := []string{fmt.Sprintf("M=%d", 1+rng.IntN(4)), fmt.Sprintf("N=%d", 1+rng.IntN(5)), fmt.Sprintf("K=%d", 1+rng.IntN(6))}
		agree(t, before, after, reassoc, sizes, uint64(it), script)
	}
}
