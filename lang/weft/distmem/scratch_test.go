package distmem

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/coll"
	"weft.dev/weft/lang/weft/gpucheck"
	"weft.dev/weft/lang/weft/internal/expect"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// dumpFull prints every deduction with each triple's iterators in full:
// name, id, count, unit, and the parent and body tilings (shape, start,
// thread counts), so that a desugared loop derived in one pass is
// compared with the general derivation's.
func dumpFull(ds []*Deduction) string {
	var b strings.Builder
	b.WriteString(dumpDeductions(ds))
	for _, d := range ds {
		for _, t := range d.Triples {
			for _, it := range t.Iters {
				fmt.Fprintf(&b, "%s#%d count %d unit %v parent %v body %v (%d/%d threads, %s)\n", iterName(t, it), it.ID, it.Count, it.Unit,
					it.Parent, it.Body, it.Body.Threads(), it.Body.TileThreads, it.Body.Describe())
			}
		}
	}
	return b.String()
}

// shflPrograms are shuffles of pairs of lanes (rows 15's pattern) and of
// a warp's lanes, on launch shapes that make the desugared loops'
// starts one- and two-dimensional, with uses that disagree and indices
// that fail, so that both the one-pass and the general derivation, the
// one-thread owner and the messages that name desugared loops run.
var shflPrograms = []string{
	`def p(h_A: f32[BD] @ DRAM):
    d_A: f32[BD] @ CudaGmemLinear
    with CudaDeviceFunction(blockDim=BD):
        for task in cuda_tasks(0, 1):
            rmemA: f32[W, 2, 2, 4] @ CudaRmem
            tmp: f32[W, 2, 2, 4] @ CudaRmem
            for s in seq(0, 4):
                for t4 in cuda_threads(0, W, unit=cuda_thread * 4):
                    for t2 in cuda_threads(0, 2, unit=cuda_thread * 2):
                        for t1 in cuda_threads(0, 2, unit=cuda_thread * 1):
                            rmemA[t4, t2, t1, s] = d_A[t4 * 4 + t2 * 2 + t1]
            for s in seq(0, 4):
                for t4 in cuda_threads(0, W, unit=cuda_thread * 4):
                    for t2 in cuda_threads(0, 2, unit=cuda_thread * 2):
                        cuda_shfl_xor_sync_1f32(tmp[t4, t2, :, s], rmemA[t4, t2, :, s], laneMask=1)
                    for t1 in cuda_threads(0, 2, unit=2 * cuda_threads_strided(1, 2)):
                        cuda_shfl_xor_sync_1f32(rmemA[t4, :, t1, s], tmp[t4, :, t1, s], laneMask=2)
            for s in seq(0, 4):
                for t4 in cuda_threads(0, W, unit=cuda_thread * 4):
                    for t2 in cuda_threads(0, 2, unit=cuda_thread * 2):
                        for t1 in cuda_threads(0, 2, unit=cuda_thread * 1):
                            d_A[t4 * 4 + t2 * 2 + t1] = rmemA[t4, t2, t1, s]
`,
	`def q(A: f32[BD] @ CudaGmemLinear):
    with CudaDeviceFunction(blockDim=BD):
        for task in cuda_tasks(0, 1):
            x: f32[W4, 32] @ CudaRmem
            y: f32[W4, 32] @ CudaRmem
            for w in cuda_threads(0, W4, unit=cuda_warp):
                for t in cuda_threads(0, 32):
                    x[w, t] = A[w * 32 + t]
                Sm80_shfl_xor_f32(y[w, :], x[w, :], lane_mask=4)
                Sm80_shfl_xor_f32(x[w, 0:32], y[w, :], lane_mask=8)
                for t in cuda_threads(0, 32):
                    A[w * 32 + t] = y[w, t]
`,
	// A use that disagrees with the first (the shuffle's lanes against
	// a transposed write): the message names the desugared loop.
	`def r(A: f32[BD] @ CudaGmemLinear):
    with CudaDeviceFunction(blockDim=BD):
        for task in cuda_tasks(0, 1):
            x: f32[32, W4] @ CudaRmem
            y: f32[W4, 32] @ CudaRmem
            for t in cuda_threads(0, 32, unit=W4 * cuda_thread):
                for w in cuda_threads(0, W4):
                    x[t, w] = A[w * 32 + t]
            for w in cuda_threads(0, W4, unit=cuda_warp):
                Sm80_shfl_xor_f32(y[w, :], x[:, w], lane_mask=4)
`,
	// A slice the desugared loop cannot take.
	`def s(A: f32[BD] @ CudaGmemLinear):
    with CudaDeviceFunction(blockDim=BD):
        for task in cuda_tasks(0, 1):
            x: f32[W4, 32] @ CudaRmem
            y: f32[W4, 32] @ CudaRmem
            for w in cuda_threads(0, W4, unit=cuda_warp):
                for t in cuda_threads(0, 32):
                    x[w, t] = A[w * 32 + t]
                Sm80_shfl_xor_f32(y[w, 0:16], x[w, :], lane_mask=4)
`,
}

// TestScratchMatchesGeneral compares Check (its scratch: triples carved,
// desugared loops unnamed and derived in one pass where their start is
// one-dimensional, one-thread owners not matched; scratch.go) with the
// general way (mapCheck: every object new, every derivation general,
// every owner matched, every name made) on the repository's programs,
// distmem's and gpucheck's test data and the shuffles above on several
// launch shapes: the same deductions, iterators, tilings and
// diagnostics.
func TestScratchMatchesGeneral(t *testing.T) {
	l := lib.MustStd()
	var srcs, names []string
	files := repoFiles()
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, chunk := range expect.Chunks(string(src)) {
			srcs, names = append(srcs, chunk), append(names, file)
		}
	}
	for _, bd := range []int{32, 64, 128, 256} {
		for i, p := range shflPrograms {
			p = strings.ReplaceAll(p, "W4", fmt.Sprint(bd/32))
			p = strings.ReplaceAll(p, "BD", fmt.Sprint(bd))
			p = strings.ReplaceAll(p, "W", fmt.Sprint(bd/4))
			srcs, names = append(srcs, p), append(names, fmt.Sprintf("shfl%d/%d", i, bd))
		}
	}
	programs, desugared, oneDim, repeated, oneThread, failed := 0, 0, 0, 0, 0, 0
	for k, src := range srcs {
		var errs diag.List
		f := syntax.Parse(diag.NewFile(names[k], []byte(src)), &errs)
		if errs.HasErrors() {
			if strings.HasPrefix(names[k], "shfl") {
				t.Fatalf("%s: %v", names[k], errs.Err())
			}
			continue
		}
		g := gpucheck.Check(f, gpucheck.Options{Lib: l}, &errs)
		if errs.HasErrors() {
			if strings.HasPrefix(names[k], "shfl") {
				t.Fatalf("%s: %v", names[k], errs.Err())
			}
			continue
		}
		programs++
		var e1, e2 diag.List
		r := Check(g, &e1)
		want := mapCheck(g, &e2)
		if got, w := dumpFull(r.Deductions), dumpFull(want); got != w {
			t.Fatalf("%s: scratch:\n%s\ngeneral:\n%s", names[k], got, w)
		}
		if fmt.Sprint(e1.Diags) != fmt.Sprint(e2.Diags) {
			t.Fatalf("%s: diagnostics %v, general %v", names[k], e1.Diags, e2.Diags)
		}
		if e1.HasErrors() {
			failed++
		}
		bodies := map[*coll.Tiling]bool{}
		for _, d := range r.Deductions {
			for _, tr := range d.Triples {
				for _, it := range tr.Iters {
					if it.Loop == nil && it.Name == "" {
						desugared++
						if len(it.Parent.Dims) == 1 {
							oneDim++
							if bodies[it.Body] {
								repeated++ // derive's last derivation, taken again
							}
							bodies[it.Body] = true
						}
					}
				}
				if len(tr.Iters) > 0 && d.unit != nil {
					if end := chainEnd(tr.Iters); end.OneThreadOf(d.unit) {
						oneThread++
					}
				}
			}
		}
	}
	t.Logf("%d programs (%d rejected by distmem), %d desugared loops (%d from a one-dimensional start, %d repeating the last), %d one-thread owners", programs, failed, desugared, oneDim, repeated, oneThread)
	if programs < 60 || desugared < 40 || oneDim < 10 || oneDim == desugared || repeated < 5 || repeated == oneDim || oneThread < 100 || failed < 2 {
		t.Errorf("the comparison exercised too little")
	}
}
