package cudagen

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"weft.dev/weft/cuda"
	cudainclude "weft.dev/weft/cuda/include"
)

// needNVCC returns nvcc's path, skipping the test when it is absent unless
// WEFT_REQUIRE_NVCC=1 (CI installs it: scripts/install-nvcc.sh).
func needNVCC(t *testing.T) string {
	t.Helper()
	nvcc := cuda.FindNVCC()
	if nvcc == "" {
		if os.Getenv("WEFT_REQUIRE_NVCC") == "1" {
			t.Fatal("nvcc not found and WEFT_REQUIRE_NVCC=1")
		}
		t.Skip("nvcc not found")
	}
	return nvcc
}

// writeOutput writes the generated files and the runtime headers to dir.
func writeOutput(t *testing.T, dir string, out *Output) {
	t.Helper()
	files := out.Files
	for _, h := range cudainclude.Headers() {
		files = append(files, File{Name: h.Name, Data: h.Data})
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// sm90Only reports whether a program uses Hopper-only features (its file
// says `# arch: sm_90a`); the others compile for sm_80 as well.
func sm90Only(path string) bool {
	src, _ := os.ReadFile(path)
	return strings.Contains(string(src), "# arch: sm_90a")
}

// TestNVCC compiles every program's generated code: the host .c with gcc
// -Wall -Werror, then the .cu and the harness main.cu for sm_90a to cubin
// and PTX (so ptxas assembles the inline PTX), also for sm_80 where the
// program is not Hopper-only (`# arch: sm_90a`), with every nvcc warning an
// error, linked into the harness program.
func TestNVCC(t *testing.T) {
	nvcc := needNVCC(t)
	for _, path := range programs(t) {
		path := path
		t.Run(filepath.Base(path), func(t *testing.T) {
			t.Parallel()
			out, errs := generate(t, path, Options{Harness: true})
			if errs.HasErrors() {
				t.Fatalf("generation failed:\n%s", diagText(errs))
			}
			dir := t.TempDir()
			writeOutput(t, dir, out)
			stem := strings.TrimSuffix(out.Files[0].Name, ".h")
			cc := exec.Command("gcc", "-std=c11", "-Wall", "-Werror", "-c", stem+".c", "-o", stem+"_host.o")
			cc.Dir = dir
			if b, err := cc.CombinedOutput(); err != nil {
				t.Fatalf("gcc %s.c: %v\n%s", stem, err, b)
			}
			// The kernels for every target; the harness (host code, no
			// kernels) for one; then the link into a program.
			nv := func(args ...string) {
				t.Helper()
				cmd := exec.Command(nvcc, append([]string{"-std=c++17", "-Werror", "all-warnings"}, args...)...)
				cmd.Dir = dir
				if b, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("nvcc %s: %v\n%s", strings.Join(args, " "), err, b)
				}
			}
			args := []string{"-c", "-gencode", "arch=compute_90a,code=[sm_90a,compute_90a]"}
			if !sm90Only(path) {
				args = append(args, "-gencode", "arch=compute_80,code=sm_80")
			}
			nv(append(args, stem+".cu", "-o", stem+".o")...)
			nv("-c", "-arch=sm_90a", "main.cu", "-o", "main.o")
			nv("-arch=sm_90a", stem+".o", "main.o", stem+"_host.o", "-o", "main")
			if _, err := os.Stat(filepath.Join(dir, "main")); err != nil {
				t.Fatalf("no program linked: %v", err)
			}
		})
	}
}

// TestNVCCExamples compiles the generated code of the examples outside
// examples/weft/gemm (those are in TestNVCC with golden files): the
// kernels for sm_90a to cubin and PTX, the host C with gcc -Wall -Werror.
// Slow (one nvcc run per example), so not in -short.
func TestNVCCExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: one nvcc run per example")
	}
	nvcc := needNVCC(t)
	var files []string
	for _, pat := range []string{"../../../examples/weft/*.weft", "../../../examples/weft/sync/*.weft", "../../../examples/weft/exo/*.weft"} {
		m, _ := filepath.Glob(pat)
		files = append(files, m...)
	}
	if len(files) < 10 {
		t.Fatalf("found %d examples", len(files))
	}
	for _, path := range files {
		path := path
		t.Run(filepath.Base(path), func(t *testing.T) {
			t.Parallel()
			out, errs := generate(t, path, Options{})
			if errs.HasErrors() {
				t.Fatalf("generation failed:\n%s", diagText(errs))
			}
			dir := t.TempDir()
			writeOutput(t, dir, out)
			stem := strings.TrimSuffix(out.Files[0].Name, ".h")
			for _, cmd := range [][]string{
				{"gcc", "-std=c11", "-Wall", "-Werror", "-c", stem + ".c", "-o", stem + "_host.o"},
				{nvcc, "-std=c++17", "-Werror", "all-warnings", "-c", "-gencode", "arch=compute_90a,code=[sm_90a,compute_90a]", stem + ".cu", "-o", stem + ".o"},
			} {
				c := exec.Command(cmd[0], cmd[1:]...)
				c.Dir = dir
				if b, err := c.CombinedOutput(); err != nil {
					t.Fatalf("%s: %v\n%s", strings.Join(cmd, " "), err, b)
				}
			}
		})
	}
}

// TestPtxasAdvisories compiles the Hopper GEMMs for sm_90a with
// -Xptxas -v and fails on any ptxas performance advisory (codes C75xx:
// C7507/C7508 setmaxnreg ignored, C7509-C7520 wgmma serialized). Without a
// GPU these are the static signal that warp specialization and the wgmma
// pipeline survive ptxas (docs/weft-codegen.md, "Warp specialization").
func TestPtxasAdvisories(t *testing.T) {
	nvcc := needNVCC(t)
	for _, path := range []string{
		"../../../examples/weft/gemm/xgemm_sm90.weft",
		"../../../examples/weft/sync/xgemm_Sm90_ring.weft",
	} {
		path := path
		t.Run(filepath.Base(path), func(t *testing.T) {
			t.Parallel()
			out, errs := generate(t, path, Options{})
			if errs.HasErrors() {
				t.Fatalf("generation failed:\n%s", diagText(errs))
			}
			dir := t.TempDir()
			writeOutput(t, dir, out)
			stem := strings.TrimSuffix(out.Files[0].Name, ".h")
			cmd := exec.Command(nvcc, "-std=c++17", "-c", "-gencode", "arch=compute_90a,code=sm_90a", "-Xptxas", "-v", stem+".cu", "-o", stem+".o")
			cmd.Dir = dir
			b, err := cmd.CombinedOutput()
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
			if !strings.Contains(string(b), "Used 168 registers") {
				t.Errorf("want 168 registers at entry (launch bounds 384, 1 with setmaxnreg):\n%s", b)
			}
		})
	}
}
