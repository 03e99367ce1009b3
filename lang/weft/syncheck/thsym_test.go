package syncheck

import (
	"flag"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/amir"
	"weft.dev/weft/lang/weft/check"
	"weft.dev/weft/lang/weft/gpucheck"
	"weft.dev/weft/lang/weft/internal/expect"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// ringVariant is one generated variant of examples/weft/sync/
// cp_async_ring.weft (issue 13, item 4): the per-thread commit-group ring
// with its thread count, ring depth and sizes changed, and with pieces
// that keep or break thread symmetry (amir/thsym.go).
type ringVariant struct {
	t, ring, tasks, k int
	wcol              string // the cp.async's column of buf
	rcol              string // the column of buf a thread reads back
	yrow              string // the row of y a thread writes
	wait              string // the Await's count ("" none: a missing wait)
	fence             bool   // the thread's Fence after its read
	cond              string // a condition on the thread around the read-back ("" none)
	ctaFence          bool   // a CTA Fence after each k's thread loop
	final             bool   // the final per-thread Await before the free
	drain             string // a second thread loop after the ring reading buf[0, drain] ("" none)
}

func (v ringVariant) source() string {
	var b strings.Builder
	// The block is the threads rounded up to whole warps: with T < 32
	// some threads of the CTA are outside the thread loops.
	fmt.Fprintf(&b, "T = %d\nRING = %d\nBD = %d\n\n\n@proc\n", v.t, v.ring, (v.t+31)/32*32)
	b.WriteString(`def cp_async_ring(M: size, K: size, A: f32[M, K] @ CudaGmemLinear, y: f32[M, K] @ CudaGmemLinear):
    assert M % T == 0
    assert K >= RING
    with CudaDeviceFunction(blockDim=BD):
        for task in cuda_tasks(0, M / T):
            buf: f32[RING, T] @ CudaSmemLinear
            cg: barrier @ CudaCommitGroup
            for k in seq(0, K + RING - 1):
                for tid in cuda_threads(0, T, unit=cuda_thread):
                    if k < K:
                        with CudaAsync(Sm80_cp_async):
`)
	fmt.Fprintf(&b, "                            Sm80_cp_async_f32(buf[k %% RING, %s:%s + 1], A[task * T + tid, k:k + 1], size=1)\n", v.wcol, v.wcol)
	b.WriteString(`                    with CudaAsync(Sm80_cp_async):
                        Arrive(Sm80_cp_async, 1) >> cg
                    if k >= RING - 1:
`)
	ind := "                        "
	if v.wait != "" {
		fmt.Fprintf(&b, "%sAwait(cg, cuda_in_order, %s)\n", ind, v.wait)
	}
	if v.cond != "" {
		fmt.Fprintf(&b, "%sif %s:\n", ind, v.cond)
		ind += "    "
	}
	fmt.Fprintf(&b, "%sy[%s, k - (RING - 1)] = buf[(k - (RING - 1)) %% RING, %s]\n", ind, v.yrow, v.rcol)
	if v.fence {
		fmt.Fprintf(&b, "%sFence(cuda_in_order, cuda_in_order)\n", ind)
	}
	if v.ctaFence {
		b.WriteString("                Fence(cuda_in_order, cuda_in_order)\n")
	}
	if v.final {
		b.WriteString(`            for tid in cuda_threads(0, T, unit=cuda_thread):
                Await(cg, cuda_in_order, 0)
`)
	}
	if v.drain != "" {
		b.WriteString("            for tid in cuda_threads(0, T, unit=cuda_thread):\n")
		fmt.Fprintf(&b, "                y[task * T + tid, 0] = buf[0, %s]\n", v.drain)
	}
	b.WriteString("            Fence(cuda_in_order, cuda_in_order)\n")
	return b.String()
}

// -thsym.n and -thsym.seed run more variants than the default 400.
var (
	thsymN    = flag.Int("thsym.n", 0, "TestThreadSymDiagnostics: number of variants (0: 400)")
	thsymSeed = flag.Int64("thsym.seed", 13, "TestThreadSymDiagnostics: generator seed with -thsym.n")
)

func randomRingVariant(rng *rand.Rand) ringVariant {
	pick := func(xs ...string) string { return xs[rng.Intn(len(xs))] }
	v := ringVariant{
		t:     []int{2, 3, 4, 5, 8, 32, 64}[rng.Intn(7)],
		ring:  1 + rng.Intn(4),
		tasks: 1 + rng.Intn(3),
		wcol:  "tid", rcol: "tid", yrow: "task * T + tid",
		wait: "RING - 1", fence: true, final: true,
	}
	v.k = v.ring + rng.Intn(4)
	// Each piece keeps the kernel symmetric most of the time, so that
	// most variants mix symmetric and symmetry-breaking loops.
	if rng.Intn(4) == 0 { // not a translation of the first thread's column
		v.wcol = pick("0", "T - 1 - tid", "tid % 2", "(tid + 1) % T")
	}
	if rng.Intn(4) == 0 { // another thread's column (a cross-thread read)
		v.rcol = pick("0", "T - 1 - tid", "(tid + 1) % T", "tid % 2")
	}
	if rng.Intn(6) == 0 { // rows of y shared by threads
		v.yrow = pick("task * T", "task * T + T - 1 - tid", "task * T + tid % 2")
	}
	switch rng.Intn(6) {
	case 0:
		v.wait = "" // a missing wait
	case 1:
		v.wait = "RING" // one group too many outstanding
	case 2:
		v.wait = "0"
	}
	v.fence = rng.Intn(5) != 0
	if rng.Intn(4) == 0 { // a condition on the thread
		v.cond = pick("tid % 2 == 0", "tid < T - 1", "tid >= 1")
	}
	v.ctaFence = rng.Intn(5) == 0
	v.final = rng.Intn(4) != 0
	if rng.Intn(4) == 0 {
		v.drain = pick("tid", "T - 1 - tid", "0")
	}
	return v
}

// convertRing returns the converted program of src, or nil with the
// static diagnostics when the front end rejects it.
func convertRing(name, src string) (*Program, string) {
	l := lib.MustStd()
	var errs diag.List
	f := syntax.Parse(diag.NewFile(name, []byte(src)), &errs)
	if errs.HasErrors() {
		return nil, expect.List(&errs)
	}
	check.Check(f, l, &errs)
	gpu := gpucheck.Check(f, gpucheck.Options{Lib: l}, &errs)
	if errs.HasErrors() {
		return nil, expect.List(&errs)
	}
	for _, d := range f.Decls {
		if p, ok := d.(*syntax.Proc); ok && !lib.IsInstr(p) && hasDevice(p.Body) {
			prog := Convert(f, p, gpu, l, &errs)
			if errs.HasErrors() {
				return nil, expect.List(&errs)
			}
			return prog, ""
		}
	}
	return nil, "no device proc"
}

// TestThreadSymDiagnostics: the sync check of generated variants of the
// per-thread commit-group ring gives the same diagnostics (codes,
// positions, messages), hazards, faults and statistics with thread
// symmetry (amir/thsym.go) as with every cuda_threads loop run in full
// (amir.Config.NoThreadSym). The variants vary the thread count, ring
// depth, K and task count, and break symmetry in the ways thsym.go's
// plan and materialization must notice: a write column that is not a
// translation of the thread's (a constant, a reversal, tid % 2, a
// rotation), a read of another thread's column, rows of y shared by
// threads, a condition on the thread, a missing or too weak wait, a
// missing fence, a CTA fence between the thread loops, a missing final
// wait, and a later loop reading other threads' columns. Every run
// counts exact equality; coverage floors keep the generator honest.
func TestThreadSymDiagnostics(t *testing.T) {
	n, seed := 400, int64(13)
	if testing.Short() {
		n = 120
	}
	if *thsymN > 0 {
		n, seed = *thsymN, *thsymSeed
	}
	rng := rand.New(rand.NewSource(seed))
	// Whether thread symmetry was used: it skipped operations beyond
	// those of later tasks of a symmetric task loop.
	c := symVariants(t, n, "symmetric", func(i int) (string, string, any, []int) {
		v := randomRingVariant(rng)
		return fmt.Sprintf("ring%d.weft", i), v.source(), v, []int{v.tasks * v.t, v.k}
	})
	rejected, accepted, flagged, symmetric, symFlagged, broken := c.rejected, c.accepted, c.flagged, c.used, c.usedFlagged, c.unused
	t.Logf("%d variants: %d rejected statically, %d accepted, %d with hazards or faults; %d ran some loop symmetrically (%d of them flagged), %d none",
		n, rejected, accepted, flagged, symmetric, symFlagged, broken)
	if accepted < n/10 || flagged < n/4 || symmetric < n/5 || symFlagged < n/20 || broken < n/10 {
		t.Fatalf("weak coverage: %d accepted, %d flagged, %d symmetric (%d flagged), %d never symmetric", accepted, flagged, symmetric, symFlagged, broken)
	}
}

// symVsFull runs prog's AMIR at args with thread symmetry (and grid
// symmetry, which NoThreadSym also turns off) and without, and fails the
// test, naming the variant (name) and printing src, unless both report
// the same diagnostics and the same Result (memory estimate and skipped
// operations aside). It returns the symmetric run's Result and whether
// symmetry skipped operations beyond those the full run skipped (it was
// used). what names the symmetric run in the messages ("symmetric",
// "grid"). The differential tests TestThreadSymDiagnostics,
// TestGridSymDiagnostics and TestThreadSymRmemDiagnostics share it.
func symVsFull(t *testing.T, prog *Program, args []int, name, what, src string) (amir.Result, bool) {
	t.Helper()
	var out [2]string
	var res [2]amir.Result
	var skipped [2]int64
	for j, off := range []bool{false, true} {
		r := amir.New(prog.AMIR, amir.Config{MaxHazards: 100, NoThreadSym: off}).Run(args)
		run := &Run{Proc: prog.AMIR.Name, Result: r}
		if len(args) > 0 {
			run.Sizes = sizesString(prog.SizeParams, args)
		}
		var errs diag.List
		report(prog, run, &errs)
		out[j] = expect.List(&errs)
		res[j] = *r
		skipped[j] = r.Stats.SkippedOps
		res[j].Stats.Memory, res[j].Stats.SkippedOps = 0, 0
	}
	if out[0] != out[1] {
		t.Fatalf("%s: diagnostics differ\n%s:\n%s\nfull:\n%s\nsource:\n%s", name, what, out[0], out[1], src)
	}
	if g, w := fmt.Sprintf("%+v", res[0]), fmt.Sprintf("%+v", res[1]); g != w {
		t.Fatalf("%s: results differ\n%s %s\nfull %s\nsource:\n%s", name, what, g, w, src)
	}
	return res[0], skipped[0] > skipped[1]
}
