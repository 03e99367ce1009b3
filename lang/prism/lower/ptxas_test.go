package lower_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
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

var spills = regexp.MustCompile(`(\d+) bytes spill stores, (\d+) bytes spill loads`)

// TestPtxasNoSpills compiles the Prism GEMMs for their architectures and
// fails on any spill (ptxas -v): a generator change that costs registers
// past the budget shows here first (issue 12, item 1; the full counts,
// instructions included, come from scripts/ptxas-counts.sh, see
// docs/validate.md, "Cost on the GPU").
func TestPtxasNoSpills(t *testing.T) {
	nvcc := requireNVCC(t)
	for _, c := range []struct{ name, arch string }{
		{"fig6_tf32", "sm_80"}, {"b1_tf32", "sm_80"}, {"b2_sgemm", "sm_80"}, {"b5_hgemm", "sm_90a"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := build(t, "../../../examples/prism/"+c.name+".prism")
			dir := t.TempDir()
			src := filepath.Join(dir, c.name+".cu")
			if err := os.WriteFile(src, []byte(out.CUDA), 0o644); err != nil {
				t.Fatal(err)
			}
			num := strings.TrimPrefix(c.arch, "sm_")
			b, err := exec.Command(nvcc, "-std=c++17", "-O3", "-cubin", "-gencode", "arch=compute_"+num+",code="+c.arch, "-Xptxas", "-v", "-o", filepath.Join(dir, "k.cubin"), src).CombinedOutput()
			if err != nil {
				t.Fatalf("nvcc: %v\n%s", err, b)
			}
			m := spills.FindAllStringSubmatch(string(b), -1)
			if len(m) == 0 {
				t.Fatalf("no spill line in ptxas -v output:\n%s", b)
			}
			for _, x := range m {
				if x[1] != "0" || x[2] != "0" {
					t.Errorf("%s bytes spill stores, %s bytes spill loads:\n%s", x[1], x[2], b)
				}
			}
		})
	}
}
