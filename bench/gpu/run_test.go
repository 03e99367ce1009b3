package gpubench

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"weft.dev/weft/cuda"
)

// TestCompileOnly runs `bench/gpu/run.sh -compile-only` (GEMMs and AuDaLa) with a weft binary
// built as a GPU session builds it (CGO_ENABLED=0): every harness the GPU
// run uses is generated (check and benchmark sizes) and the check builds,
// the Weft host C and main.cu, and the cuBLAS baseline (when cublas_v2.h
// exists) are compiled with nvcc. The runs themselves need a GPU.
func TestCompileOnly(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: thirteen nvcc builds")
	}
	nvcc := cuda.FindNVCC()
	if nvcc == "" {
		if os.Getenv("WEFT_REQUIRE_NVCC") == "1" {
			t.Fatal("nvcc not found and WEFT_REQUIRE_NVCC=1")
		}
		t.Skip("nvcc not found")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	dir := t.TempDir()
	weft := filepath.Join(dir, "weft")
	gocmd := filepath.Join(runtime.GOROOT(), "bin", "go")
	build := exec.Command(gocmd, "build", "-o", weft, "./cmd/weft")
	build.Dir = "../.."
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if msg, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, msg)
	}
	cmd := exec.Command("bash", "bench/gpu/run.sh", "-compile-only")
	cmd.Dir = "../.."
	cmd.Env = append(os.Environ(), "WEFT="+weft, "NVCC="+nvcc, "BENCH_OUT="+filepath.Join(dir, "out"))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("run.sh -compile-only: %v\n%s", err, out)
	}
	want := []string{
		"ok   weft build --harness fig6_tf32 (check)",
		"ok   weft build --harness fig6_tf32 (bench)",
		"ok   weft build --harness b2_sgemm (check)",
		"ok   weft build --harness b2_sgemm (bench)",
		"ok   weft build --harness b5_hgemm (check)",
		"ok   weft build --harness b5_hgemm (bench)",
		"ok   weft build --harness xgemm_sm80",
		"ok   weft build --harness xgemm_sm90",
		"ok   weft build --harness xgemm_Sm90_ring",
	}
	// AuDaLa (step 5): every configuration generated, one memory order
	// per strategy compiled, the sequential baseline compiled.
	var nvccAdl []string
	for _, p := range []string{"ps", "ch"} {
		for _, s := range []string{"graph", "host", "grid"} {
			for _, m := range []string{"relaxed", "ra", "sc"} {
				want = append(want, "ok   weft build "+p+" --time ("+s+", "+m+")")
				if s+"."+m == "graph.relaxed" || s+"."+m == "host.ra" || s+"."+m == "grid.sc" {
					nvccAdl = append(nvccAdl, "ok   nvcc "+p+" ("+s+", "+m+")")
				}
			}
		}
	}
	want = append(want,
		"ok   weft build fig1 --time --printunstable (graph)",
		"ok   weft build fig1 --time --printunstable (host)",
		"ok   weft build fig1 --time --printunstable (grid)")
	nvccAdl = append(nvccAdl, "ok   nvcc fig1 (graph, --printunstable)", "ok   c++ audala_seq")
	cublas := "ok   nvcc cublas_gemm"
	if !hasCublas(nvcc) {
		want = append(want, "skip nvcc cublas_gemm: cublas_v2.h not found (install the CUDA toolkit's cuBLAS); no baseline")
		cublas = ""
	}
	want = append(want,
		"ok   nvcc fig6_tf32 (check, sm_80)",
		"ok   nvcc b2_sgemm (check, sm_80)",
		"ok   nvcc b5_hgemm (check, sm_90)",
		"ok   nvcc xgemm_sm80 (sm_80)",
		"ok   nvcc xgemm_sm90 (sm_90)",
		"ok   nvcc xgemm_Sm90_ring (sm_90)")
	want = append(want, nvccAdl...)
	if cublas != "" {
		want = append(want, cublas)
	}
	if got := strings.TrimSuffix(string(out), "\n"); got != strings.Join(want, "\n") {
		t.Errorf("run.sh -compile-only printed\n%s\nwant\n%s", got, strings.Join(want, "\n"))
	}
	// The benchmark harnesses are generated with their sizes, tensor
	// maps and FLOP counts (compiled only on the GPU machine).
	hg, err := os.ReadFile(filepath.Join(dir, "out", "b5_hgemm.bench", "b5_hgemm.cu"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		"if (prism_tensor_map_2d(&tm_tensorMapA, d_host_A, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, 8192, 8192, 128, 64, 128)) return 1;",
		"PRISM_CHECK(prism_launch_my_h100_mm_no_tail(2048, 0, (int)8192, (int)8192, (int)8192, d_C, tm_tensorMapA, tm_tensorMapB));",
		"1.099511627776e+12 / (ms * 1e9)",
	} {
		if !strings.Contains(string(hg), s) {
			t.Errorf("b5_hgemm.bench lacks %q", s)
		}
	}
	// The AuDaLa builds time the schedule; the prefix sum's copy has no
	// S.print (the run compares --dump output instead).
	ch, err := os.ReadFile(filepath.Join(dir, "out", "adl.ch.grid.ra", "ch_thesis.cu"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"#define ADL_LD_ORDER cuda::memory_order_acquire", "cudaLaunchCooperativeKernel", `"Total walltime GPU: %0.6f ms\n"`} {
		if !strings.Contains(string(ch), s) {
			t.Errorf("adl.ch.grid.ra lacks %q", s)
		}
	}
	if ps, err := os.ReadFile(filepath.Join(dir, "out", "ps_bench.adl")); err != nil || strings.Contains(string(ps), "print") || !strings.Contains(string(ps), "Fix(read < write)") {
		t.Errorf("ps_bench.adl: %v\n%s", err, ps)
	}
	for _, f := range []string{"adl.ps.graph.relaxed/prog", "adl.ch.host.ra/prog", "adl.ch.grid.sc/prog", "adl.fig1.graph/prog", "audala_seq", "xgemm_sm80/main", "xgemm_sm90/main", "b5_hgemm.check/prog", "fig6_tf32.check/prog", "b2_sgemm.check/prog"} {
		if _, err := os.Stat(filepath.Join(dir, "out", f)); err != nil {
			t.Errorf("no executable %s: %v", f, err)
		}
	}
}

// hasCublas reports whether nvcc finds cublas_v2.h (the toolkit's cuBLAS;
// the pip nvcc used in CI has none).
func hasCublas(nvcc string) bool {
	return exec.Command(nvcc, "-E", "-x", "cu", "cublas_gemm.cu", "-o", os.DevNull).Run() == nil
}

// TestValidateListCoversCI checks that bench/gpu/validate.sh, the GPU
// comparison of issue 12, runs every example file that validate's
// TestExamples validates in CI: a new example added there and not here
// would never meet a GPU.
func TestValidateListCoversCI(t *testing.T) {
	script, err := os.ReadFile("validate.sh")
	if err != nil {
		t.Fatal(err)
	}
	tests, err := os.ReadFile("../../validate/examples_test.go")
	if err != nil {
		t.Fatal(err)
	}
	// the script names Weft files by their path under examples/weft
	// without the extension, the others by their path
	for _, m := range regexp.MustCompile(`ex \+ "([a-z]+/[a-z0-9_/]+)\.(weft|prism)"`).FindAllStringSubmatch(string(tests), -1) {
		name := m[1]
		if m[2] == "weft" {
			name = strings.TrimPrefix(name, "weft/")
		} else {
			name += ".prism"
		}
		if !strings.Contains(string(script), name) {
			t.Errorf("bench/gpu/validate.sh does not run %s.%s, which TestExamples validates", m[1], m[2])
		}
	}
	for _, p := range []string{"prefix_sum", "reachability", "scc_colouring"} {
		if !strings.Contains(string(script), p) {
			t.Errorf("bench/gpu/validate.sh does not run %s.adl", p)
		}
	}
	if out, err := exec.Command("bash", "-n", "validate.sh").CombinedOutput(); err != nil {
		t.Errorf("bash -n validate.sh: %v\n%s", err, out)
	}
}
