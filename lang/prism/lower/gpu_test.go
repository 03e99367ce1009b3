package lower_test

import (
	"math"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"weft.dev/weft/cuda"
	"weft.dev/weft/diag"
	"weft.dev/weft/lang/prism/bundl"
	"weft.dev/weft/lang/prism/lower"
)

// gpuCase is a kernel run on the GPU and in the Bundl interpreter.
type gpuCase struct {
	file, kernel string
	blocks       int
	args         map[string]float64
	buffers      map[string][]float64
}

func randData(seed int64, n int, div float64) []float64 {
	r := rand.New(rand.NewSource(seed))
	out := make([]float64, n)
	for i := range out {
		out[i] = float64(r.Intn(9)-4) / div
	}
	return out
}

func iota(n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = float64(i)
	}
	return out
}

// TestGPUMatchesBundl builds each case with a host harness, runs it on the
// GPU, and compares every output buffer with the Bundl interpreter's run of
// the same kernel (the CPU oracle, seed 001 §4). Without nvcc or a CUDA
// device the test is skipped (WEFT_REQUIRE_GPU=1 makes that a failure); the
// harness is still compiled when nvcc is present.
func TestGPUMatchesBundl(t *testing.T) {
	nvcc := cuda.FindNVCC()
	if nvcc == "" {
		if os.Getenv("WEFT_REQUIRE_NVCC") == "1" {
			t.Fatal("nvcc not found and WEFT_REQUIRE_NVCC=1")
		}
		t.Skip("nvcc not found")
	}
	if _, err := os.Stat("/dev/nvidiactl"); err != nil && os.Getenv("WEFT_REQUIRE_GPU") != "1" {
		// No GPU driver here: compiling the harnesses (full nvcc builds)
		// would cost CI time for nothing.
		t.Skip("no NVIDIA driver (/dev/nvidiactl); set WEFT_REQUIRE_GPU=1 to insist")
	}
	const M, N, K = 32, 16, 16
	cases := []gpuCase{
		{file: "fig6_tf32", kernel: "mmaTF32NaiveKernel", blocks: (M / 16) * (N / 8),
			args:    map[string]float64{"M": M, "N": N, "K": K},
			buffers: map[string][]float64{"A": randData(1, M*K, 1), "B": randData(2, K*N, 2), "C": make([]float64, M*N)}},
		{file: "b2_sgemm", kernel: "sgemm_tiled", blocks: 2,
			args:    map[string]float64{"M": 128, "N": 64, "K": 16, "alpha": 1.5, "beta": -1},
			buffers: map[string][]float64{"A": randData(4, 128*16, 1), "B": randData(5, 16*64, 2), "C": randData(6, 128*64, 1)}},
		{file: "fig13_async", kernel: "fig13_async", blocks: 2,
			buffers: map[string][]float64{"src": iota(256), "dst": make([]float64, 256)}},
		{file: "b4_cub", kernel: "copy_kernel", blocks: 2,
			buffers: map[string][]float64{"src": iota(512), "dst": make([]float64, 512), "scratch": make([]float64, 512)}},
		{file: "p6_broader_call", kernel: "broader", blocks: 1,
			buffers: map[string][]float64{"x": randData(3, 128, 1), "y": make([]float64, 128)}},
	}
	dir := t.TempDir()
	for _, c := range cases {
		c := c
		path := "../../../examples/prism/" + c.file + ".prism"
		info, _ := load(t, path)
		fn := info.ByName[c.kernel]
		// The oracle.
		bufs := map[string]*bundl.Buffer{}
		for name, data := range c.buffers {
			var elem string
			for _, p := range fn.Params {
				if p.Name == name {
					elem = p.Type.Base().Name
				}
			}
			bufs[name] = &bundl.Buffer{Name: name, Elem: elem, Int: !strings.Contains(elem, "float"), Data: append([]float64(nil), data...)}
		}
		var errs diag.List
		if res := bundl.Run(info, bundl.Config{Kernel: c.kernel, Blocks: c.blocks, Seed: 7, Args: c.args, Buffers: bufs}, &errs); res.Stuck || errs.HasErrors() {
			t.Fatalf("%s: Bundl run failed: %v", c.file, errs.Err())
		}
		out := build(t, path)
		h, err := lower.Harness(fn, lower.Launch{Blocks: c.blocks, Args: c.args, Buffers: c.buffers})
		if err != nil {
			t.Fatal(err)
		}
		src := filepath.Join(dir, c.file+"_main.cu")
		os.WriteFile(src, []byte(out.CUDA+h), 0o644)
		exe := filepath.Join(dir, c.file)
		arch := "-arch=sm_80"
		if out.SM90 {
			arch = "-arch=sm_90a"
		}
		t.Run(c.file, func(t *testing.T) {
			t.Parallel()
			if msg, err := exec.Command(nvcc, arch, "-o", exe, src).CombinedOutput(); err != nil {
				t.Fatalf("nvcc: %v\n%s", err, msg)
			}
			got, err := exec.Command(exe).CombinedOutput()
			if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 3 {
				if os.Getenv("WEFT_REQUIRE_GPU") == "1" {
					t.Fatalf("no usable CUDA device: %s", got)
				}
				t.Skipf("no usable CUDA device: %s", strings.TrimSpace(string(got)))
			}
			if err != nil {
				t.Fatalf("%s: %v\n%s", exe, err, got)
			}
			for _, line := range strings.Split(strings.TrimSpace(string(got)), "\n") {
				name, vals, _ := strings.Cut(line, "[")
				want := bufs[name]
				if want == nil {
					t.Fatalf("unexpected output %q", line)
				}
				_, vals, _ = strings.Cut(vals, "= ")
				fs := strings.Fields(vals)
				if len(fs) != len(want.Data) {
					t.Fatalf("%s: %d values, want %d", name, len(fs), len(want.Data))
				}
				for i, f := range fs {
					v, _ := strconv.ParseFloat(f, 64)
					if math.Abs(v-want.Data[i]) > 1e-4*math.Max(1, math.Abs(want.Data[i])) {
						t.Fatalf("%s[%d]: GPU %v, Bundl %v", name, i, v, want.Data[i])
					}
				}
			}
		})
	}
}
