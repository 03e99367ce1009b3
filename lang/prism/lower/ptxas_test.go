package lower_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestPtxasAdvisories compiles the H100 GEMM (B.5) for sm_90a with
// -Xptxas -v and fails on any ptxas performance advisory (C75xx: C7507
// setmaxnreg ignored, C7519 wgmma serialized by a warpgroup arrive in a
// divergent path, ...). Without a GPU these are the static signal that the
// role split (roleSplit) and the wgmma blocks (waits before the fence)
// survive ptxas; see docs/prism.md, "ptxas advisories".
func TestPtxasAdvisories(t *testing.T) {
	nvcc := requireNVCC(t)
	out := build(t, "../../../examples/prism/b5_hgemm.prism")
	dir := t.TempDir()
	src := filepath.Join(dir, "b5_hgemm.cu")
	if err := os.WriteFile(src, []byte(out.CUDA), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := exec.Command(nvcc, "-std=c++17", "-c", "-gencode", "arch=compute_90a,code=sm_90a", "-Xptxas", "-v", "-o", filepath.Join(dir, "b5_hgemm.o"), src).CombinedOutput()
	if err != nil {
		t.Fatalf("nvcc: %v\n%s", err, b)
	}
	var adv []string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, "(C75") {
			adv = append(adv, l)
		}
	}
	if len(adv) > 0 {
		t.Errorf("ptxas performance advisories:\n%s", strings.Join(adv, "\n"))
	}
	// 384 threads: 65536 / 384 rounded down to a multiple of 8 at entry,
	// which setmaxnreg then moves between the warpgroups.
	if !strings.Contains(string(b), "Used 168 registers") {
		t.Errorf("want 168 registers at entry:\n%s", b)
	}
}
