package amir_test

import (
	"os"
	"path/filepath"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/internal/testrepo"
	"weft.dev/weft/lang/weft/amir"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syncheck"
)

// gridWalkPastSrc is a block grid nest of five variables, one of them
// (d_A) read by five statements: more variables, sources and checks than
// a plan's walk room holds (gridWalkMem, plan_grid_mem.go).
const gridWalkPastSrc = `def many(h_A: f32[256] @ DRAM):
    d_A: f32[256] @ CudaGmemLinear
    cuda_copy_to_gmem_f32(256, d_A[0:256], h_A[0:256])
    with CudaDeviceFunction(blockDim=64):
        for task in cuda_tasks(0, 1):
            r1: f32[16, 2, 2, 4] @ CudaRmem
            r2: f32[16, 2, 2, 4] @ CudaRmem
            r3: f32[16, 2, 2, 4] @ CudaRmem
            r4: f32[16, 2, 2, 4] @ CudaRmem
            r5: f32[16, 2, 2, 4] @ CudaRmem
            for s in seq(0, 4):
                for t4 in cuda_threads(0, 16, unit=cuda_thread * 4):
                    for t2 in cuda_threads(0, 2, unit=cuda_thread * 2):
                        for t1 in cuda_threads(0, 2, unit=cuda_thread * 1):
                            r1[t4, t2, t1, s] = d_A[t4 * 4 + t2 * 2 + t1 * 1 + s * 64]
                            r2[t4, t2, t1, s] = d_A[t4 * 4 + t2 * 2 + t1 * 1 + s * 64]
                            r3[t4, t2, t1, s] = d_A[t4 * 4 + t2 * 2 + t1 * 1 + s * 64]
                            r4[t4, t2, t1, s] = d_A[t4 * 4 + t2 * 2 + t1 * 1 + s * 64]
                            r5[t4, t2, t1, s] = d_A[t4 * 4 + t2 * 2 + t1 * 1 + s * 64]
            for s in seq(0, 4):
                for t4 in cuda_threads(0, 16, unit=cuda_thread * 4):
                    for t2 in cuda_threads(0, 2, unit=cuda_thread * 2):
                        for t1 in cuda_threads(0, 2, unit=cuda_thread * 1):
                            d_A[t4 * 4 + t2 * 2 + t1 * 1 + s * 64] = r1[t4, t2, t1, s] + r2[t4, t2, t1, s] + r3[t4, t2, t1, s] + r4[t4, t2, t1, s] + r5[t4, t2, t1, s]
    cuda_copy_from_gmem_f32(256, h_A[0:256], d_A[0:256])
`

// TestGridWalkPast (issue 13, stop 46): a grid plan whose variables and
// their sources and checks overflow the walk's room gives the Result and
// the lists of the plan made with each list an allocation of its own
// (gridNoRoom), and the room's are in fact overflowed.
func TestGridWalkPast(t *testing.T) {
	t.Cleanup(func() { amir.GridNoRoomTest(false) })
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "past.weft"), []byte(gridWalkPastSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	progs, _ := testrepo.WeftPrograms(t, dir, lib.MustStd(), syncheck.Directives)
	if len(progs) != 1 || len(progs[0].Procs) != 1 {
		t.Fatalf("%d programs", len(progs))
	}
	c, p := progs[0], progs[0].Procs[0]
	var res, lists [2]string
	for i, plain := range []bool{false, true} {
		amir.GridNoRoomTest(plain)
		var errs diag.List
		prog := syncheck.Convert(c.File, p, c.GPU, c.GPU.Lib, &errs)
		if errs.HasErrors() || prog == nil || prog.AMIR == nil {
			t.Fatalf("convert: %v", errs)
		}
		var past bool
		res[i], lists[i], past = amir.GridWalkRun(prog.AMIR)
		if !past {
			t.Fatalf("plain %v: no plan past the walk's room:\n%s", plain, lists[i])
		}
	}
	if res[0] != res[1] || lists[0] != lists[1] {
		t.Fatalf("in room:\n%s\n%s\nplain:\n%s\n%s", res[0], lists[0], res[1], lists[1])
	}
}
