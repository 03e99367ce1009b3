package cudagen

import (
	"strings"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/check"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// TestCheckOnlyIndexWalks compares CheckOnly's diagnostics with a full
// generation's on accesses whose indices and symbolic extents the
// generator rejects (issue 13, stop 35: linearWalk walks each index and
// extent once, where linear formats an index twice and the extents once
// per nonzero index). Each program must have generator diagnostics, so
// a walk left out fails the comparison.
func TestCheckOnlyIndexWalks(t *testing.T) {
	l := lib.MustStd()
	progs := []string{
		// a device access (linearWalk): an index that names a tensor
		dev("tile[B, col] = 3.0"),
		dev("tile[0, B] = 3.0"),
		dev("tile[row, B] = 3.0"),
		dev("tile[B, B] = 3.0"),
		dev("tile[row, col] = tile[B, 0]"),
		// an index that names a tensor
		"@proc\ndef p(N: size, A: f32[N, 4] @ DRAM, B: f32[4] @ DRAM):\n    A[B, 0] = 1.0\n",
		// a later index that names a tensor, after a constant 0
		"@proc\ndef p(N: size, A: f32[4, N] @ DRAM, B: f32[4] @ DRAM):\n    A[0, B] = 1.0\n",
		// a symbolic extent that names a tensor
		"@proc\ndef p(B: f32[4] @ DRAM, A: f32[4, B] @ DRAM):\n    for i in seq(0, 4):\n        A[i, 0] = 1.0\n",
		// both, and a read
		"@proc\ndef p(B: f32[4] @ DRAM, A: f32[4, B, 4] @ DRAM, x: f32 @ DRAM):\n    for i in seq(0, 4):\n        x = A[i, B, i]\n",
	}
	for _, text := range progs {
		var perrs diag.List
		f := syntax.Parse(diag.NewFile("t.weft", []byte(text)), &perrs)
		if perrs.HasErrors() {
			t.Fatalf("%s: %v", text, perrs.Diags)
		}
		var cerrs diag.List
		prog := check.Check(f, l, &cerrs)
		quick := generateDiags(f, l, Options{CheckOnly: true, Prog: prog})
		full := generateDiags(f, l, Options{Prog: prog})
		if full == "" {
			t.Errorf("%s: the generator reports nothing", text)
		}
		if quick != full {
			t.Errorf("%s: CheckOnly reports\n%s\na full build\n%s", text, quick, full)
		}
		t.Logf("%s%s", text, strings.TrimSpace(full))
	}
}

// dev is a per-CTA SMEM kernel (bench/syncref's per_cta_alloc) whose
// innermost statement is stmt.
func dev(stmt string) string {
	return `@proc
def per_cta_alloc(B: f32[4] @ DRAM):
    with CudaDeviceFunction(clusterDim=1, blockDim=256):
        for task in cuda_tasks(0, 1):
            for cta in cuda_threads(0, 1, unit=cuda_cta_in_cluster):
                tile: f32[16, 16] @ CudaSmemLinear
                for row in cuda_threads(0, 16, unit=16 * cuda_thread):
                    for col in cuda_threads(0, 16, unit=cuda_thread):
                        ` + stmt + `
                Fence(cuda_in_order, cuda_in_order)
`
}
