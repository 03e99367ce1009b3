package syncheck

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// rmemVariant is one generated variant of bench rmem_uniform (issue 13,
// stop 29): a CudaRmemUniform(u) array written by each u-thread
// collective from GMEM (sometimes copied from the host first), then read
// by each thread of the collective in a nested cuda_threads loop that
// allocates its own register. Thread symmetry (amir/thsym.go) takes the
// one-thread form (u = 1: the inner loop pinned to its one iteration,
// the register private to the iteration, d_src's host records adopted).
type rmemVariant struct {
	u, tasks  int
	host      bool   // d_src copied from a host array before the kernel
	srcIdx    string // the d_src element collective g loads
	cond      string // the condition on the read ("" none)
	dstIdx    string // the d_dst element thread (g, t) writes
	regOuter  bool   // dst_value allocated in the g loop, not the t loop
	fence     bool   // a CTA fence between the two loops
	readBack  string // a third loop reading d_dst at this index ("" none)
	innerSeq  bool   // a sequential loop around the write of d_dst
	threadFen bool   // a fence by each thread after its write
}

func (v rmemVariant) source() string {
	ng := 256 / v.u
	var b strings.Builder
	if v.host {
		fmt.Fprintf(&b, "def rmem_uniform(h_src: f32[%d] @ DRAM, d_dst: f32[256] @ CudaGmemLinear):\n", ng)
		fmt.Fprintf(&b, "    d_src: f32[%d] @ CudaGmemLinear\n", ng)
		fmt.Fprintf(&b, "    cuda_copy_to_gmem_f32(%d, d_src[0:%d], h_src[0:%d])\n", ng, ng, ng)
	} else {
		fmt.Fprintf(&b, "def rmem_uniform(d_src: f32[%d] @ CudaGmemLinear, d_dst: f32[256] @ CudaGmemLinear):\n", ng)
	}
	b.WriteString("    with CudaDeviceFunction(blockDim=256):\n")
	fmt.Fprintf(&b, "        for task in cuda_tasks(0, %d):\n", v.tasks)
	fmt.Fprintf(&b, "            src_rmem: f32[%d] @ CudaRmemUniform(%d)\n", ng, v.u)
	fmt.Fprintf(&b, "            for g in cuda_threads(0, %d, unit=%d * cuda_thread):\n", ng, v.u)
	fmt.Fprintf(&b, "                src_rmem[g] = d_src[%s]\n", v.srcIdx)
	if v.fence {
		b.WriteString("            Fence(cuda_in_order, cuda_in_order)\n")
	}
	fmt.Fprintf(&b, "            for g in cuda_threads(0, %d, unit=%d * cuda_thread):\n", ng, v.u)
	ind := "                "
	if v.regOuter {
		b.WriteString(ind + "dst_value: f32 @ CudaRmemLinear\n")
	}
	fmt.Fprintf(&b, "%sfor t in cuda_threads(0, %d):\n", ind, v.u)
	ind += "    "
	if !v.regOuter {
		b.WriteString(ind + "dst_value: f32 @ CudaRmemLinear\n")
	}
	b.WriteString(ind + "dst_value = 0.0\n")
	if v.cond != "" {
		fmt.Fprintf(&b, "%sif %s:\n", ind, v.cond)
		b.WriteString(ind + "    dst_value = src_rmem[g] * 10.0\n")
	} else {
		b.WriteString(ind + "dst_value = src_rmem[g] * 10.0\n")
	}
	if v.innerSeq {
		fmt.Fprintf(&b, "%sfor i in seq(0, 2):\n", ind)
		fmt.Fprintf(&b, "%s    d_dst[%s] = dst_value\n", ind, v.dstIdx)
	} else {
		fmt.Fprintf(&b, "%sd_dst[%s] = dst_value\n", ind, v.dstIdx)
	}
	if v.threadFen {
		b.WriteString(ind + "Fence(cuda_in_order, cuda_in_order)\n")
	}
	if v.readBack != "" {
		fmt.Fprintf(&b, "            for g in cuda_threads(0, %d, unit=%d * cuda_thread):\n", ng, v.u)
		fmt.Fprintf(&b, "                for t in cuda_threads(0, %d):\n", v.u)
		fmt.Fprintf(&b, "                    d_dst[%s] = d_dst[%s] + 1.0\n", v.dstIdx, v.readBack)
	}
	return b.String()
}

func randomRmemVariant(rng *rand.Rand) rmemVariant {
	pick := func(xs ...string) string { return xs[rng.Intn(len(xs))] }
	v := rmemVariant{u: []int{1, 1, 1, 2, 32, 64}[rng.Intn(6)], tasks: 1 + rng.Intn(2)*rng.Intn(2)}
	ng := 256 / v.u
	v.host = rng.Intn(2) == 0
	v.srcIdx = pick("g", "g", "0", fmt.Sprintf("%d - g", ng-1))
	v.cond = pick("t % 2 == 0", "t % 2 == 0", "t == 0", "", "g % 2 == 0")
	v.dstIdx = pick(fmt.Sprintf("g * %d + t", v.u), fmt.Sprintf("g * %d + t", v.u), fmt.Sprintf("255 - g * %d - t", v.u), fmt.Sprintf("g * %d", v.u))
	v.regOuter = rng.Intn(4) == 0
	v.fence = rng.Intn(3) == 0
	if rng.Intn(3) == 0 {
		v.readBack = pick(fmt.Sprintf("g * %d + t", v.u), "0", fmt.Sprintf("255 - g * %d - t", v.u))
	}
	v.innerSeq = rng.Intn(4) == 0
	v.threadFen = rng.Intn(5) == 0
	return v
}

// TestThreadSymRmemDiagnostics: the sync check of generated variants of
// bench rmem_uniform gives the same diagnostics, hazards, faults and
// statistics with thread symmetry as with every cuda_threads loop run in
// full (amir.Config.NoThreadSym). The variants vary the collective size
// (one thread, the form thread symmetry takes, or 2, 32, 64), the task
// count, a host copy into d_src, the element each collective loads, the
// condition on the read (on the inner iterator, or on g), the element
// each thread writes (its own, reversed, or one per collective: shared
// by its threads), where the register is allocated, fences between the
// loops and after each write, an inner sequential loop, and a loop
// reading d_dst back.
func TestThreadSymRmemDiagnostics(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 100
	}
	rng := rand.New(rand.NewSource(29))
	c := symVariants(t, n, "symmetric", func(i int) (string, string, any, []int) {
		v := randomRmemVariant(rng)
		return fmt.Sprintf("rmem%d.weft", i), v.source(), v, nil
	})
	rejected, accepted, flagged, symmetric, broken := c.rejected, c.accepted, c.flagged, c.used, c.unused
	t.Logf("%d variants: %d rejected statically, %d accepted, %d with hazards or faults; %d ran some loop symmetrically, %d none",
		n, rejected, accepted, flagged, symmetric, broken)
	if accepted < n/10 || flagged < n/10 || symmetric < n/5 || broken < n/10 {
		t.Fatalf("weak coverage: %d accepted, %d flagged, %d symmetric, %d never symmetric", accepted, flagged, symmetric, broken)
	}
}
