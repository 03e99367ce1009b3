package sched

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// Property tests: every rewrite the scheduler accepts preserves the
// sequential meaning (seed 000 §2.3, seq[p_k] ≡ seq[p_k+1]). Each test
// applies rewrites with random parameters to programs (some generated at
// random, so the dependence checks meet accesses nobody wrote by hand),
// then runs the original and the scheduled proc in the interpreter on the
// same random inputs at random sizes and compares every array bit for bit
// (within 1e-5 where the rewrite reported a reassociation).

// schedule runs script over src; ok is false if the scheduler refused.
func schedule(t *testing.T, src, script string) (before, after *syntax.File, reassoc, ok bool) {
	t.Helper()
	before = parseChecked(t, "input.weft", []byte(src))
	var errs diag.List
	res := Run(before, diag.NewFile("script.star", []byte(script)), Options{Lib: lib.MustStd()}, &errs)
	for _, d := range errs.Diags {
		switch d.Code {
		case CodeScript, CodeArgs, CodePattern, CodeNoMatch, CodeProc:
			t.Fatalf("script error (a bug in the test): %v\nscript:\n%s", d, script)
		}
	}
	if errs.HasErrors() {
		return before, nil, false, false
	}
	// The result must still check.
	parseChecked(t, "after.weft", []byte(syntax.Print(res.File)))
	return before, res.File, len(res.Reassociated) > 0, true
}

func agree(t *testing.T, before, after *syntax.File, reassoc bool, sizes []string, seed uint64, what string) {
	t.Helper()
	if msg := sameMeaning(before, after, sizes, seed, reassoc); msg != "" {
		t.Fatalf("%s: sizes %v seed %d: %s\nbefore:\n%s\nafter:\n%s", what, sizes, seed, msg, syntax.Print(before), syntax.Print(after))
	}
}

const gemmSrc = `@proc
def gemm(M: size, N: size, K: size, A: f32[M, K] @ DRAM, B: f32[K, N] @ DRAM, C: f32[M, N] @ DRAM):
    for m in seq(0, M):
        for n in seq(0, N):
            for k in seq(0, K):
                C[m, n] += A[m, k] * B[k, n]
`

const gemvSrc = `@proc
def gemv(M: size, K: size, A: f32[M, K] @ DRAM, x: f32[K] @ DRAM, y: f32[M] @ DRAM):
    for m in seq(0, M):
        acc: f32 @ DRAM
        acc = 0.0
        for k in seq(0, K):
            acc += A[m, k] * x[k]
        y[m] = acc
`

// TestPropertyDivide divides every loop of GEMM and GEMV by random factors
// with every tail policy and compares at random sizes.
func TestPropertyDivide(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	iters := 40
	if testing.Short() {
		iters = 10
	}
	for it := 0; it < iters; it++ {
		src, loops, proc := gemmSrc, []string{"m", "n", "k"}, "gemm"
		if it%2 == 1 {
			src, loops, proc = gemvSrc, []string{"m", "k"}, "gemv"
		}
		var script strings.Builder
		var sizeMul = map[string]int{}
		for li, l := range loops {
			if rng.IntN(3) == 0 {
				continue
			}
			f := 1 + rng.IntN(6)
			tail := []string{"cut", "guard", "perfect"}[rng.IntN(3)]
			if tail == "perfect" {
				// Make it provable: assert the size is a multiple of 2f.
				sz := map[string]string{"m": "M", "n": "N", "k": "K"}[l]
				fmt.Fprintf(&script, "add_assert(%s, \"%s %% %d == 0\")\n", proc, sz, 2*f)
				sizeMul[sz] = 2 * f
			}
			fmt.Fprintf(&script, "divide_loop(%s, \"%s\", %d, [\"o%d\", \"i%d\"], tail = %q)\n", proc, l, f, li, li, tail)
		}
		before, after, reassoc, ok := schedule(t, src, script.String())
		if !ok {
			t.Fatalf("refused:\n%s", script.String())
		}
		for run := 0; run < 3; run++ {
			var sizes []string
			for _, s := range []string{"M", "N", "K"} {
				if s == "N" && proc == "gemv" {
					continue
				}
				v := 1 + rng.IntN(13)
				if m := sizeMul[s]; m > 0 {
					v = m * (1 + rng.IntN(3))
				}
				sizes = append(sizes, fmt.Sprintf("%s=%d", s, v))
			}
			agree(t, before, after, reassoc, sizes, uint64(it*7+run), script.String())
		}
	}
}

// TestPropertyReorderLoops reorders random 2-D loop nests whose accesses
// use random affine indices: whenever the dependence check accepts, the
// results must be identical; and it must accept the classic safe cases.
func TestPropertyReorderLoops(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	iters := 300
	if testing.Short() {
		iters = 60
	}
	accepted := 0
	idx := func(i, j string) string {
		ci, cj, c := rng.IntN(3), rng.IntN(3), rng.IntN(4)
		return fmt.Sprintf("%d * %s + %d * %s + %d", ci, i, cj, j, c)
	}
	for it := 0; it < iters; it++ {
		var body strings.Builder
		nst := 1 + rng.IntN(2)
		for s := 0; s < nst; s++ {
			dst := []string{"A", "B"}[rng.IntN(2)]
			src := []string{"A", "B"}[rng.IntN(2)]
			op := []string{"=", "+="}[rng.IntN(2)]
			fmt.Fprintf(&body, "            %s[%s] %s %s[%s] * 0.5 + 1.0\n", dst, idx("i", "j"), op, src, idx("i", "j"))
		}
		src := "@proc\ndef f(A: f32[64] @ DRAM, B: f32[64] @ DRAM):\n    for i in seq(0, 4):\n        for j in seq(0, 5):\n" + strings.Replace(body.String(), "            ", "            ", -1)
		before, after, reassoc, ok := schedule(t, src, `reorder_loops(f, "i")`)
		if !ok {
			continue
		}
		accepted++
		agree(t, before, after, reassoc, nil, uint64(it), "reorder_loops")
	}
	if accepted == 0 {
		t.Fatalf("reorder_loops accepted none of %d random nests", iters)
	}
	t.Logf("reorder_loops accepted %d of %d random nests", accepted, iters)
}

// TestPropertyReorderStmts swaps random adjacent statements of random
// programs: accepted swaps must not change any result.
func TestPropertyReorderStmts(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	iters := 300
	if testing.Short() {
		iters = 60
	}
	accepted := 0
	for it := 0; it < iters; it++ {
		var body strings.Builder
		n := 2 + rng.IntN(3)
		for s := 0; s < n; s++ {
			dst := []string{"a", "b"}[rng.IntN(2)]
			src := []string{"a", "b"}[rng.IntN(2)]
			switch rng.IntN(3) {
			case 0:
				fmt.Fprintf(&body, "    for i%d in seq(0, N):\n        %s[i%d + %d] = %s[i%d + %d] + 1.0\n", s, dst, s, rng.IntN(5), src, s, rng.IntN(5))
			case 1:
				fmt.Fprintf(&body, "    %s[%d] += %s[%d] * 2.0\n", dst, rng.IntN(6), src, rng.IntN(6))
			default:
				fmt.Fprintf(&body, "    for i%d in seq(0, 3):\n        %s[2 * i%d + N] = %s[i%d] + 1.0\n", s, dst, s, src, s)
			}
		}
		src := "@proc\ndef f(N: size, a: f32[N + 8] @ DRAM, b: f32[N + 8] @ DRAM):\n" + body.String()
		k := rng.IntN(n - 1)
		// The k-th top-level statement: a loop i<k> or the k-th reduce.
		pf := parseChecked(t, "input.weft", []byte(src))
		pat := header(pf.Decls[0].(*syntax.Proc).Body[k])
		nth := 0
		for _, s := range pf.Decls[0].(*syntax.Proc).Body[:k] {
			if header(s) == pat {
				nth++
			}
		}
		pat = strings.TrimSuffix(pat, ":")
		script := fmt.Sprintf("reorder_stmts(f, %q)", fmt.Sprintf("%s #%d", pat, nth))
		before, after, reassoc, ok := schedule(t, src, script)
		if !ok {
			continue
		}
		accepted++
		for _, nv := range []int{1, 4, 7} {
			agree(t, before, after, reassoc, []string{fmt.Sprintf("N=%d", nv)}, uint64(it), script)
		}
	}
	if accepted == 0 {
		t.Fatal("reorder_stmts accepted nothing")
	}
	t.Logf("reorder_stmts accepted %d of %d random swaps", accepted, iters)
}

// TestPropertyStageReplace stages tiles of x through new buffers and
// replaces the scalar statements with instructions, at random tile sizes.
func TestPropertyStageReplace(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for it := 0; it < 12; it++ {
		f := []int{1, 2, 4, 8}[rng.IntN(4)]
		script := fmt.Sprintf(`add_assert(gemv, "K %% %d == 0")
divide_loop(gemv, "k", %d, ["ko", "ki"], tail = "perfect")
stage_mem(gemv, "for ki in _", "x[%d * ko:%d * ko + %d]", "xt", "DRAM")
stage_mem(gemv, "y[_] = _", "y[m]", "yv", "DRAM")
replace(gemv, "acc += _", "cuda_fma_f32")
replace(gemv, "acc = _", "cuda_zero_f32")
simplify(gemv)
`, f, f, f, f, f)
		before, after, reassoc, ok := schedule(t, gemvSrc, script)
		if !ok {
			t.Fatalf("refused:\n%s", script)
		}
		for run := 0; run < 3; run++ {
			sizes := []string{fmt.Sprintf("M=%d", 1+rng.IntN(5)), fmt.Sprintf("K=%d", f*(1+rng.IntN(4)))}
			agree(t, before, after, reassoc, sizes, uint64(it*3+run), script)
		}
	}
}

// TestPropertyExamples applies the shipped schedules
// (examples/weft/sched/*.star) to their examples and compares the
// sequential meaning at random sizes the schedules' asserts allow.
func TestPropertyExamples(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, ex := range []struct {
		src, script string
		sizes       func() []string
	}{
		{"gemv_seq.weft", "gemv_cuda.star", func() []string {
			return []string{fmt.Sprintf("M=%d", 256*(1+rng.IntN(2))), fmt.Sprintf("K=%d", 1+rng.IntN(9))}
		}},
		{"gemv_seq.weft", "gemv_smem.star", func() []string {
			return []string{fmt.Sprintf("M=%d", 128*(1+rng.IntN(2))), fmt.Sprintf("K=%d", 128*(1+rng.IntN(2)))}
		}},
		{"gemm_seq.weft", "gemm_cuda.star", func() []string {
			return []string{fmt.Sprintf("M=%d", 16*(1+rng.IntN(2))), fmt.Sprintf("N=%d", 16*(1+rng.IntN(2))), fmt.Sprintf("K=%d", 1+rng.IntN(5))}
		}},
		{"matmul_seq.weft", "xgemm_sm80.star", func() []string {
			return []string{fmt.Sprintf("M=%d", 192*(1+rng.IntN(2))), "N=256", fmt.Sprintf("K=%d", 16*(1+rng.IntN(3)))}
		}},
		{"matmul_bt_seq.weft", "xgemm_sm90.star", func() []string {
			return []string{fmt.Sprintf("M=%d", 128*(1+rng.IntN(2))), "N=256", fmt.Sprintf("K=%d", 32*(1+rng.IntN(3)))}
		}},
	} {
		src, err := os.ReadFile(filepath.Join("..", "..", "..", "examples", "weft", ex.src))
		if err != nil {
			t.Fatal(err)
		}
		script, err := os.ReadFile(filepath.Join("..", "..", "..", "examples", "weft", "sched", ex.script))
		if err != nil {
			t.Fatal(err)
		}
		before, after, reassoc, ok := schedule(t, string(src), string(script))
		if !ok {
			t.Fatalf("%s refused", ex.script)
		}
		if reassoc {
			t.Errorf("%s reassociates", ex.script)
		}
		for run := 0; run < 3; run++ {
			agree(t, before, after, false, ex.sizes(), uint64(run), ex.script)
		}
	}
}

// TestOracleDetects makes sure the equivalence oracle is not vacuous: a
// wrong "rewrite" is caught.
func TestOracleDetects(t *testing.T) {
	before := parseChecked(t, "a.weft", []byte(gemvSrc))
	after := parseChecked(t, "b.weft", []byte(strings.Replace(gemvSrc, "x[k]", "x[0]", 1)))
	if msg := sameMeaning(before, after, []string{"M=3", "K=4"}, 1, false); msg == "" {
		t.Fatal("a changed program compares equal")
	}
	if msg := sameMeaning(before, before, []string{"M=3", "K=4"}, 1, false); msg != "" {
		t.Fatal(msg)
	}
}

// TestPropertyFission splits random loop bodies at random points: accepted
// splits must not change any result.
func TestPropertyFission(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	iters := 300
	if testing.Short() {
		iters = 60
	}
	accepted := 0
	for it := 0; it < iters; it++ {
		var body strings.Builder
		n := 2 + rng.IntN(2)
		for s := 0; s < n; s++ {
			dst := []string{"a", "b"}[rng.IntN(2)]
			src := []string{"a", "b"}[rng.IntN(2)]
			op := []string{"=", "+="}[rng.IntN(2)]
			fmt.Fprintf(&body, "        %s[%d * i + %d] %s %s[%d * i + %d] * 0.5 + %d.0\n", dst, rng.IntN(3), rng.IntN(4), op, src, rng.IntN(3), rng.IntN(4), s)
		}
		src := "@proc\ndef f(a: f32[24] @ DRAM, b: f32[24] @ DRAM):\n    for i in seq(0, 6):\n" + body.String()
		k := rng.IntN(n - 1)
		pf := parseChecked(t, "input.weft", []byte(src))
		loop := pf.Decls[0].(*syntax.Proc).Body[0].(*syntax.For)
		pat := header(loop.Body[k])
		nth := 0
		for _, s := range loop.Body[:k] {
			if header(s) == pat {
				nth++
			}
		}
		script := fmt.Sprintf("fission(f, %q)", fmt.Sprintf("%s #%d", pat, nth))
		before, after, reassoc, ok := schedule(t, src, script)
		if !ok {
			continue
		}
		accepted++
		agree(t, before, after, reassoc, nil, uint64(it), script)
	}
	if accepted == 0 {
		t.Fatal("fission accepted nothing")
	}
	t.Logf("fission accepted %d of %d random splits", accepted, iters)
}
