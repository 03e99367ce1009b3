package syncheck

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// matmulVariant is one generated variant of examples/weft/sync/
// smem_matmul.weft (issue 13): the CTA matmul with a smaller thread grid
// and tile, and with pieces that keep or break the conditions of grid
// symmetry (amir/thgrid.go).
type matmulVariant struct {
	ma, nb, i, j, bk int // m1 points (units of nb threads), n1 points, accumulator block, K slice
	tasks, slices    int
	fence1, fence2   bool   // the two __syncthreads
	arow, brow       string // the A_smem and B_smem rows the product reads
	cond             string // a condition on a thread around the product ("" none)
	inner            bool   // a one-thread fence after the product
	epilogue         string // the accumulator the epilogue reads
}

func (v matmulVariant) source() string {
	bd := (v.ma*v.nb + 31) / 32 * 32
	var b strings.Builder
	fmt.Fprintf(&b, "MA, NB, I, J, BK = %d, %d, %d, %d, %d\n\n\n@proc\n", v.ma, v.nb, v.i, v.j, v.bk)
	fmt.Fprintf(&b, `def mm(M: size, N: size, K: size, A: f32[M, K] @ CudaGmemLinear, B: f32[N, K] @ CudaGmemLinear, C: f32[N, M] @ CudaGmemLinear):
    assert M %% (MA * I) == 0
    assert N %% (NB * J) == 0
    assert K %% BK == 0
    with CudaDeviceFunction(blockDim=%d):
        for mt in cuda_tasks(0, M / (MA * I)):
            for nt in cuda_tasks(0, N / (NB * J)):
                A_smem: f32[MA * I + 1, BK] @ CudaSmemLinear
                B_smem: f32[NB * J + 1, BK] @ CudaSmemLinear
                accum: f32[MA, NB, I, J] @ CudaRmem
                for m1 in cuda_threads(0, MA, unit=NB * cuda_thread):
                    for n1 in cuda_threads(0, NB, unit=cuda_thread):
                        for i in seq(0, I):
                            for j in seq(0, J):
                                accum[m1, n1, i, j] = 0.0
                for kt in seq(0, K / BK):
                    for r in seq(0, MA * I):
                        for c in cuda_threads(0, BK, unit=cuda_thread):
                            A_smem[r, c] = A[mt * MA * I + r, kt * BK + c]
                    for r in seq(0, NB * J):
                        for c in cuda_threads(0, BK, unit=cuda_thread):
                            B_smem[r, c] = B[nt * NB * J + r, kt * BK + c]
`, bd)
	if v.fence1 {
		b.WriteString("                    Fence(cuda_in_order, cuda_in_order)\n")
	}
	b.WriteString(`                    for m1 in cuda_threads(0, MA, unit=NB * cuda_thread):
                        for n1 in cuda_threads(0, NB, unit=cuda_thread):
                            for k in seq(0, BK):
                                for i in seq(0, I):
                                    for j in seq(0, J):
`)
	ind := "                                        "
	if v.cond != "" {
		fmt.Fprintf(&b, "%sif %s:\n", ind, v.cond)
		ind += "    "
	}
	fmt.Fprintf(&b, "%saccum[m1, n1, i, j] += A_smem[%s, k] * B_smem[%s, k]\n", ind, v.arow, v.brow)
	if v.inner {
		b.WriteString("                            Fence(cuda_in_order, cuda_in_order)\n")
	}
	if v.fence2 {
		b.WriteString("                    Fence(cuda_in_order, cuda_in_order)\n")
	}
	fmt.Fprintf(&b, `                for m1 in cuda_threads(0, MA, unit=NB * cuda_thread):
                    for n1 in cuda_threads(0, NB, unit=cuda_thread):
                        for i in seq(0, I):
                            for j in seq(0, J):
                                C[nt * NB * J + n1 * J + j, mt * MA * I + m1 * I + i] = %s
`, v.epilogue)
	return b.String()
}

func randomMatmulVariant(rng *rand.Rand) matmulVariant {
	pick := func(xs ...string) string { return xs[rng.Intn(len(xs))] }
	v := matmulVariant{
		ma: 1 + rng.Intn(4), nb: []int{2, 4, 8}[rng.Intn(3)], i: 1 + rng.Intn(2), j: 1 + rng.Intn(3),
		bk: []int{2, 4, 8}[rng.Intn(3)], tasks: 1 + rng.Intn(2), slices: 1 + rng.Intn(3),
		fence1: rng.Intn(6) != 0, fence2: rng.Intn(6) != 0,
		arow: "m1 * I + i", brow: "n1 * J + j", epilogue: "accum[m1, n1, i, j]",
	}
	if rng.Intn(4) == 0 { // rows shared differently, or overlapping the next point's
		v.arow = pick("i", "m1 * I + i + 1", "m1 + i")
	}
	if rng.Intn(4) == 0 {
		v.brow = pick("j", "n1 * J + j + 1", "n1 + j")
	}
	if rng.Intn(6) == 0 { // a condition on a thread
		v.cond = pick("n1 < NB - 1", "m1 == 0")
	}
	v.inner = rng.Intn(8) == 0
	if rng.Intn(6) == 0 {
		v.epilogue = "0.0"
	}
	return v
}

// TestGridDiagnostics: the sync check of generated variants of the CTA
// matmul (examples/weft/sync/smem_matmul.weft) gives the same diagnostics
// (codes, positions, messages), hazards, faults and statistics with grid
// symmetry (amir/thgrid.go, its groups and deferred slabs) as with every
// cuda_threads loop run in full (amir.Config.NoThreadSym). The variants
// vary the thread grid (1-4 units of 2, 4 or 8 threads), the register
// block, the K slice, the tasks and slices, drop either __syncthreads,
// read A_smem and B_smem rows shared by every thread, shifted by one
// (overlapping the next point's, the last past the staged rows) or by
// the thread index itself, put a condition on a thread or a fence per
// thread in the nest, and skip the epilogue's accumulator read.
func TestGridDiagnostics(t *testing.T) {
	// All 300 even under -short: it takes about a second, and 100 variants
	// fall short of the coverage floor below (16 flagged, 25 needed).
	n := 300
	rng := rand.New(rand.NewSource(24))
	c := symVariants(t, n, "grid", func(i int) (string, string, any, []int) {
		v := randomMatmulVariant(rng)
		return fmt.Sprintf("mm%d.weft", i), v.source(), v, []int{v.tasks * v.ma * v.i, v.nb * v.j, v.slices * v.bk}
	})
	rejected, accepted, flagged, grid, gridFlagged := c.rejected, c.accepted, c.flagged, c.used, c.usedFlagged
	t.Logf("%d variants: %d rejected statically, %d accepted, %d with hazards or faults; %d ran some nest on the grid (%d of them flagged)",
		n, rejected, accepted, flagged, grid, gridFlagged)
	if accepted < n/10 || flagged < n/4 || grid < n/3 || gridFlagged < n/20 {
		t.Fatalf("weak coverage: %d accepted, %d flagged, %d on the grid (%d flagged)", accepted, flagged, grid, gridFlagged)
	}
}
