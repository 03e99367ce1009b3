package syncheck

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// shflVariant is one generated variant of bench shfl_xor (issue 13, stop
// 30): sequential loops s around t4 x t2 x t1 nests over lanes
// 4·t4 + 2·t2 + t1 move a (host-written) global d_A into registers,
// exchange them by 2-thread xor shuffles, and write them back. Block grids
// (amir/thgrid_blk.go) take its nests with t4 as the axis and the 4 lanes
// of one t4 as a point.
type shflVariant struct {
	n4, nS, tasks int
	host          bool   // d_A copied from the host and back
	readIdx       string // the d_A element lane (t4, t2, t1) reads in phase 1
	writeIdx      string // the d_A element it writes in phase 3
	rmemRead      string // the rmemA element phase 3 reads
	shfl          int    // 0: both shuffles, 1: the pairs along t1 only, 2: none
	fence         bool   // a CTA fence between the phases
	srcS          string // the s index phase 2's first shuffle reads
}

func (v shflVariant) source() string {
	bd := 4 * v.n4
	n := bd * v.nS
	var b strings.Builder
	if v.host {
		fmt.Fprintf(&b, "def shfl_xor(h_A: f32[%d] @ DRAM):\n", n)
		fmt.Fprintf(&b, "    d_A: f32[%d] @ CudaGmemLinear\n", n)
		fmt.Fprintf(&b, "    cuda_copy_to_gmem_f32(%d, d_A[0:%d], h_A[0:%d])\n", n, n, n)
	} else {
		fmt.Fprintf(&b, "def shfl_xor(d_A: f32[%d] @ CudaGmemLinear):\n", n)
	}
	b.WriteString("    with CudaDeviceFunction(blockDim=64):\n")
	fmt.Fprintf(&b, "        for task in cuda_tasks(0, %d):\n", v.tasks)
	fmt.Fprintf(&b, "            rmemA: f32[%d, 2, 2, %d] @ CudaRmem\n", v.n4, v.nS)
	fmt.Fprintf(&b, "            tmp: f32[%d, 2, 2, %d] @ CudaRmem\n", v.n4, v.nS)
	nest := func(lines ...string) {
		fmt.Fprintf(&b, "            for s in seq(0, %d):\n", v.nS)
		fmt.Fprintf(&b, "                for t4 in cuda_threads(0, %d, unit=cuda_thread * 4):\n", v.n4)
		for _, l := range lines {
			b.WriteString("                    " + l + "\n")
		}
	}
	lanes := func(stmt string) []string {
		return []string{
			"for t2 in cuda_threads(0, 2, unit=cuda_thread * 2):",
			"    for t1 in cuda_threads(0, 2, unit=cuda_thread * 1):",
			"        " + stmt,
		}
	}
	fence := func() {
		if v.fence {
			b.WriteString("            Fence(cuda_in_order, cuda_in_order)\n")
		}
	}
	nest(lanes(fmt.Sprintf("rmemA[t4, t2, t1, s] = d_A[%s]", v.readIdx))...)
	fence()
	if v.shfl < 2 {
		l := []string{
			"for t2 in cuda_threads(0, 2, unit=cuda_thread * 2):",
			fmt.Sprintf("    cuda_shfl_xor_sync_1f32(tmp[t4, t2, :, s], rmemA[t4, t2, :, %s], laneMask=1)", v.srcS),
		}
		if v.shfl == 0 {
			l = append(l,
				"for t1 in cuda_threads(0, 2, unit=2 * cuda_threads_strided(1, 2)):",
				"    cuda_shfl_xor_sync_1f32(rmemA[t4, :, t1, s], tmp[t4, :, t1, s], laneMask=2)")
		}
		nest(l...)
		fence()
	}
	nest(lanes(fmt.Sprintf("d_A[%s] = rmemA[%s]", v.writeIdx, v.rmemRead))...)
	if v.host {
		fmt.Fprintf(&b, "    cuda_copy_from_gmem_f32(%d, h_A[0:%d], d_A[0:%d])\n", n, n, n)
	}
	return b.String()
}

func randomShflVariant(rng *rand.Rand) shflVariant {
	pick := func(xs ...string) string { return xs[rng.Intn(len(xs))] }
	v := shflVariant{n4: []int{2, 8, 16}[rng.Intn(3)], nS: 1 + rng.Intn(4), tasks: 1 + rng.Intn(2)*rng.Intn(2)}
	bd := 4 * v.n4
	own := fmt.Sprintf("t4 * 4 + t2 * 2 + t1 * 1 + s * %d", bd)
	v.host = rng.Intn(4) != 0
	v.readIdx = pick(own, own, own, fmt.Sprintf("t2 * 2 + t1 + s * %d", bd), fmt.Sprintf("%d - t4 * 4 - t2 * 2 - t1 - s * %d", bd*v.nS-1, bd))
	v.writeIdx = pick(own, own, own, fmt.Sprintf("t4 * 4 + s * %d", bd), fmt.Sprintf("%d - t4 * 4 - t2 * 2 - t1", bd*v.nS-1))
	v.rmemRead = pick("t4, t2, t1, s", "t4, t2, t1, s", "t4, t2, t1, s", "0, t2, t1, s", "t4, t1, t2, s")
	v.shfl = []int{0, 0, 0, 1, 2}[rng.Intn(5)]
	v.fence = rng.Intn(3) == 0
	v.srcS = pick("s", "s", "s", "0")
	return v
}

// TestGridBlockDiagnostics: the sync check of generated variants of bench
// shfl_xor gives the same diagnostics, hazards, faults and statistics
// with grid symmetry (block grids and their regions: amir/thgrid_blk.go)
// as with every loop run in full. The variants vary the lanes (8 to 64),
// the sequential s loops (1 to 4), the tasks, the host copies, the d_A
// elements read and written (each lane's own, reversed, shared by the
// lanes of one t4 or by every t4), the register read back (its own,
// another t4's, transposed), the shuffles (both, one, none; the first
// reading the registers of s = 0) and CTA fences between the phases.
func TestGridBlockDiagnostics(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 100
	}
	rng := rand.New(rand.NewSource(30))
	c := symVariants(t, n, "grid", func(i int) (string, string, any, []int) {
		v := randomShflVariant(rng)
		return fmt.Sprintf("shfl%d.weft", i), v.source(), v, nil
	})
	rejected, accepted, flagged, symmetric, broken := c.rejected, c.accepted, c.flagged, c.used, c.unused
	t.Logf("%d variants: %d rejected statically, %d accepted, %d with hazards or faults; %d ran some nest as a grid, %d none",
		n, rejected, accepted, flagged, symmetric, broken)
	if accepted < n/10 || flagged < n/10 || symmetric < n/2 || broken < n/100 {
		t.Fatalf("weak coverage: %d accepted, %d flagged, %d symmetric, %d never symmetric", accepted, flagged, symmetric, broken)
	}
}
