package sched

import (
	"strings"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// TestGPUOps exercises the Hopper operations on a small sequential
// program: a tensor-map window and a copy loop redirected through it, a
// TMA replace completing on an mbarrier, reverse, counted (~N) and guarded
// sync insertion. The result is not a valid CUDA program yet (DRAM
// buffers), so it is compared as text and in the interpreter, not checked.
func TestGPUOps(t *testing.T) {
	src := `@proc
def f(K: size, A: f32[64, K] @ DRAM, y: f32[64, 32] @ DRAM):
    assert K % 32 == 0
    s: f32[64, 32] @ DRAM
    for k1 in seq(0, K / 32):
        for r in seq(0, 64):
            for c in seq(0, 32):
                s[r, c] = A[r, 32 * k1 + c]
        for r2 in seq(0, 64):
            for c2 in seq(0, 32):
                y[r2, c2] = s[r2, c2]
`
	script := `p = f
p = set_memory(p, "s", "CudaSmemLinear")
p = new_barrier(p, "s: _", "bar", "CudaMbarrier", before = False)
p = insert_window(p, "s: _", "A_tmap", "A", "Sm90_tensorMap(128, 64, 32)")
p = use_window(p, "for r in _", "A_tmap")
p = replace(p, "for r in _", "Sm90_tma_load_2d_f32", barriers = ["bar"])
p = insert_await(p, "Sm90_tma_load_2d_f32(_) >> bar", "bar", "tma_to_smem_async", n = "~1", before = True, reverse = True)
p = insert_arrive(p, "for r2 in _", "cuda_in_order", "bar", reverse = True, cond = "k1 > 0")
k1 = p.find_loop("k1")
p = new_barrier(p, k1.body()[0], "ring", "CudaMbarrier")
p = insert_arrive(p, "for r2 in _", "cuda_in_order", "ring", before = True)
p = expand_dim(p, "ring", 4, "k1 % 4")
p = lift_alloc(p, "ring")
`
	in := parseChecked(t, "input.weft", []byte(src))
	var errs diag.List
	res := Run(in, diag.NewFile("script.star", []byte(script)), Options{Lib: lib.MustStd()}, &errs)
	if errs.HasErrors() {
		t.Fatal(errs.Err())
	}
	out := syntax.Print(res.File)
	for _, want := range []string{
		"    A_tmap = A[:, :] @ Sm90_tensorMap(128, 64, 32)\n    s: f32[64, 32] @ CudaSmemLinear\n    bar: barrier @ CudaMbarrier\n",
		"        ReverseAwait(bar, tma_to_smem_async, ~1)\n        Sm90_tma_load_2d_f32(64, 32, s[0:64, 0:32], A_tmap[0:64, 32 * k1:32 * k1 + 32]) >> bar\n",
		"                y[r2, c2] = s[r2, c2]\n        if k1 > 0:\n            ReverseArrive(cuda_in_order, 1) >> bar\n",
		// A ring of mbarriers: a stage dimension indexed k1 % 4.
		"    ring: barrier[4] @ CudaMbarrier\n    for k1 in seq(0, K / 32):\n",
		"        Arrive(cuda_in_order, 1) >> ring[k1 % 4]\n        for r2 in seq(0, 64):\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing\n%s\nin\n%s", want, out)
		}
	}
	for _, k := range []string{"K=32", "K=96"} {
		if msg := sameMeaning(in, res.File, []string{k}, 1, false); msg != "" {
			t.Errorf("%s: %s", k, msg)
		}
	}
}
