package dcfg_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/prism/check"
	"weft.dev/weft/lang/prism/dcfg"
	"weft.dev/weft/lang/prism/syntax"
)

func load(t *testing.T, path string) (*check.Info, *diag.List) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, errs := syntax.Parse(diag.NewFile(filepath.Base(path), data))
	if errs.HasErrors() {
		t.Fatalf("%s: %v", path, errs.Err())
	}
	info := check.Check(f, errs)
	if errs.HasErrors() {
		t.Fatalf("%s: %v", path, errs.Err())
	}
	return info, errs
}

func describe(t *testing.T, path string) string {
	info, errs := load(t, path)
	var b strings.Builder
	for _, fn := range info.Funcs {
		b.WriteString(dcfg.Infer(info, fn, errs).Describe())
	}
	return b.String()
}

// TestSyncPoints pins the inferred synchronization of the examples. For the
// running example (seed 001 Fig. 6) the paper marks four sync points:
// before the A-load loop and the B-load loop (backedges of the K loop),
// before the claim, and after it, before C_smem is read back.
func TestSyncPoints(t *testing.T) {
	want := map[string]string{
		"fig6_tf32.prism": `simple_mma: line 33: __syncwarp over thread[32] for C_s
mmaTF32NaiveKernel: line 85: __syncthreads over block[1] for A_smem
mmaTF32NaiveKernel: line 97: __syncthreads over block[1] for B_smem
mmaTF32NaiveKernel: line 110: __syncthreads over block[1] for A_smem, B_smem, C_smem
mmaTF32NaiveKernel: line 118: __syncthreads over block[1] for C_smem
`,
		"b1_tf32.prism": `simple_mma: line 34: __syncwarp over thread[32] for C_s
mmaTF32NaiveKernelB1: line 85: __syncthreads over block[1] for A_smem
mmaTF32NaiveKernelB1: line 96: __syncthreads over block[1] for B_smem
mmaTF32NaiveKernelB1: line 108: __syncthreads over block[1] for A_smem, B_smem, C_smem
mmaTF32NaiveKernelB1: line 114: __syncthreads over block[1] for C_smem
`,
		"b2_sgemm.prism": `sgemm_tiled: line 42: __syncthreads over block[1] for As
sgemm_tiled: line 46: __syncthreads over block[1] for Bs
sgemm_tiled: line 50: __syncthreads over block[1] for As, Bs
sgemm_tiled: line 61: __syncthreads over block[1] for C
`,
		"fig13_async.prism":     "fig13_async: line 21: __syncthreads over block[1] for tile\n",
		"fig2_mma.prism":        "",
		"warp_scan.prism":       "",
		"fig8_split.prism":      "",
		"b4_cub.prism":          "",
		"p6_broader_call.prism": "broader: line 33: __syncwarp over thread[32] for y\n",
		"b3_scan.prism": `naive_scan_warp_ends: line 82: __syncthreads over block[1] for x, x_buf
naive_scan_warp_ends: line 92: __syncthreads over block[1] for x, x_buf
scan_kernel: line 140: __syncthreads over block[1] for x_shmem
scan_kernel: line 141: __syncthreads over block[1] for warp_ends
scan_kernel: line 142: __syncthreads over block[1] for warp_ends_buf
scan_kernel: line 146: __syncthreads over block[1] for x
`,
		"b5_hgemm.prism": `my_h100_mm_no_tail: line 70: __syncthreads over block[1] for sA_slot0, sA_slot1, sA_slot2, sA_slot3, sB_slot0, sB_slot1, sB_slot2, sB_slot3
my_h100_mm_no_tail: line 102: none over block[1] + wait full_0, full_1, full_2, full_3 for sA_slot0, sA_slot1, sA_slot2, sA_slot3, sB_slot0, sB_slot1, sB_slot2, sB_slot3
`,
	}
	for _, path := range examples(t) {
		base := filepath.Base(path)
		w, ok := want[base]
		if !ok {
			t.Errorf("%s: no expected sync points", base)
			continue
		}
		if got := describe(t, path); got != w {
			t.Errorf("%s: sync points\n%s\nwant\n%s", base, got, w)
		}
	}
}

// TestSplitBarriers pins the split barriers of the running example: the
// arrive of each memory moves up to just after its last use and the wait
// down to just before its first (seed 001 §5, arrive and wait motion).
func TestSplitBarriers(t *testing.T) {
	info, errs := load(t, "../../../examples/prism/fig6_tf32.prism")
	got := dcfg.Infer(info, info.ByName["mmaTF32NaiveKernel"], errs).DescribeSplit()
	want := `mmaTF32NaiveKernel: A_smem: mbarrier block[1]: arrive before line 85, wait before line 85
mmaTF32NaiveKernel: B_smem: mbarrier block[1]: arrive before line 85, wait before line 97
mmaTF32NaiveKernel: C_smem: mbarrier block[1]: arrive before line 85, wait before line 115
mmaTF32NaiveKernel: A_smem: mbarrier block[1]: arrive before line 97, wait before line 115
mmaTF32NaiveKernel: B_smem: mbarrier block[1]: arrive before line 110, wait before line 115
mmaTF32NaiveKernel: C_smem: mbarrier block[1]: arrive before line 118, wait before line 118
`
	if got != want {
		t.Errorf("split barriers:\n%s\nwant\n%s", got, want)
	}
	// Warp specialization by inference: in the H100 GEMM the producer's
	// single thread waits for the consumers to free a slot just before
	// arming its mbarrier; TMA-written slots need only their mbarrier
	// waits, each moved into the consumers' branch, to the wgmma block that
	// reads the slot.
	info, errs = load(t, "../../../examples/prism/b5_hgemm.prism")
	got = dcfg.Infer(info, info.ByName["my_h100_mm_no_tail"], errs).DescribeSplit()
	for _, line := range []string{
		"my_h100_mm_no_tail: sA_slot0: mbarrier block[1]: arrive before line 70, wait before line 88\n",
		"my_h100_mm_no_tail: sB_slot3: mbarrier block[1]: arrive before line 70, wait before line 97\n",
		"my_h100_mm_no_tail: sA_slot0: no barrier block[1]: arrive before line 102, wait before line 116 + wait full_0\n",
		"my_h100_mm_no_tail: sB_slot3: no barrier block[1]: arrive before line 102, wait before line 131 + wait full_3\n",
	} {
		if !strings.Contains(got, line) {
			t.Errorf("hgemm split barriers lack %q:\n%s", line, got)
		}
	}
}

// TestRoleBarriers pins the role-restricted split barriers (roles.go): in
// the H100 GEMM a slot's barrier counts the 256 consumer threads, which
// arrive (guarded) after the wgmma block that reads the slot, and the
// producer's thread, which arrives after the slot's last TMA load (the
// loads complete on full_0, which stands for both slots);
// where every thread of the block uses the memory (the running example,
// b2_sgemm) the block-wide form stays.
func TestRoleBarriers(t *testing.T) {
	info, errs := load(t, "../../../examples/prism/b5_hgemm.prism")
	got := dcfg.Infer(info, info.ByName["my_h100_mm_no_tail"], errs).DescribeSplit()
	for _, line := range []string{
		"my_h100_mm_no_tail: sA_slot0: mbarrier block[1]: arrive before line 70, wait before line 88\n" +
			"  roles: 257 threads arrive (1 before line 91, 256 before line 120 (guard)), waits for the previous iteration\n",
		"my_h100_mm_no_tail: sB_slot0: mbarrier block[1]: arrive before line 70, wait before line 88\n" +
			"  roles: 257 threads arrive (1 before line 91, 256 before line 120 (guard)), waits for the previous iteration\n",
		"my_h100_mm_no_tail: sB_slot3: mbarrier block[1]: arrive before line 70, wait before line 97\n" +
			"  roles: 257 threads arrive (1 after line 99, 256 after line 130 (guard)), waits for the previous iteration\n",
	} {
		if !strings.Contains(got, line) {
			t.Errorf("hgemm role barriers lack %q:\n%s", line, got)
		}
	}
	if n := strings.Count(got, "roles:"); n != 8 {
		t.Errorf("hgemm: %d role barriers, want 8 (one per slot and operand):\n%s", n, got)
	}
	for _, f := range []string{"fig6_tf32", "b1_tf32", "b2_sgemm", "b3_scan"} {
		info, errs := load(t, "../../../examples/prism/"+f+".prism")
		for _, fn := range info.Funcs {
			if got := dcfg.Infer(info, fn, errs).DescribeSplit(); strings.Contains(got, "roles:") {
				t.Errorf("%s: role barriers where every thread uses the memory:\n%s", f, got)
			}
		}
	}
}

func examples(t *testing.T) []string {
	files, _ := filepath.Glob("../../../examples/prism/*.prism")
	if len(files) < 8 {
		t.Fatalf("found %d examples", len(files))
	}
	return files
}
