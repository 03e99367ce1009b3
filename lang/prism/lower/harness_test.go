package lower_test

import (
	"bytes"
	"fmt"
	"math"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"weft.dev/weft/cuda"
	"weft.dev/weft/lang/prism/lower"
)

// hgemmLaunch is the B.5 GEMM's launch of docs/prism.md: A (128 x 256) and
// B (256 x 256) bf16, K-major, behind 128-byte-swizzled tensor maps.
func hgemmLaunch() lower.Launch {
	return lower.Launch{
		Blocks: 1,
		Args:   map[string]float64{"M": 128, "N": 256, "K": 256},
		Inits: map[string]lower.Init{
			"C": {Elem: "bf16", Len: 32768, Kind: "zeros"},
			"A": {Elem: "bf16", Len: 32768, Kind: "iota", Mod: 7},
			"B": {Elem: "bf16", Len: 65536, Kind: "iota", Mod: 5},
		},
		TensorMaps: map[string]lower.TensorMap{
			"tensorMapA": {Buf: "A", Rows: 128, Cols: 256, BoxRows: 128, BoxCols: 64, Swizzle: 128},
			"tensorMapB": {Buf: "B", Rows: 256, Cols: 256, BoxRows: 256, BoxCols: 64, Swizzle: 128},
		},
		Flops: 2 * 128 * 256 * 256,
	}
}

// TestHarnessTensorMaps checks the host code of the hgemm harness: host
// buffers filled by the program, each map encoded with the interpreter's
// layout (ROWS x COLS, COLS contiguous, box, swizzle), the launch, the
// printed output and the WEFT_REPEAT timing.
func TestHarnessTensorMaps(t *testing.T) {
	info, _ := load(t, "../../../examples/prism/b5_hgemm.prism")
	h, err := lower.Harness(info.ByName["my_h100_mm_no_tail"], hgemmLaunch())
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"  prism_fill(h_host_A, n_host_A, 2, 7); // iota%7:32768\n",
		"  prism_fill(h_host_B, n_host_B, 2, 5); // iota%5:65536\n",
		"  prism_fill(h_C, n_C, 0, 0); // zeros:32768\n",
		"  // tensorMapA = tma:A,128,256,128,64,128\n  CUtensorMap tm_tensorMapA;\n" +
			"  if (prism_tensor_map_2d(&tm_tensorMapA, d_host_A, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, 128, 256, 128, 64, 128)) return 1;\n",
		"  if (prism_tensor_map_2d(&tm_tensorMapB, d_host_B, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, 256, 256, 256, 64, 128)) return 1;\n",
		"  PRISM_CHECK(prism_launch_my_h100_mm_no_tail(1, 0, (int)128, (int)256, (int)256, d_C, tm_tensorMapA, tm_tensorMapB));\n",
		"  prism_print(\"C\", h_C, n_C);\n",
		"cudaGetDriverEntryPointByVersion(\"cuTensorMapEncodeTiled\"",
		"  cuuint64_t dims[2] = {cols, rows};\n",
		"  cuuint32_t box[2] = {box_cols, box_rows};\n",
		`fprintf(stderr, "my_h100_mm_no_tail: %.4f ms per launch (%d launches), %.2f TFLOP/s\n", ms, reps, 1.6777216e+07 / (ms * 1e9));`,
	} {
		if !strings.Contains(h, want) {
			t.Errorf("harness lacks %q", want)
		}
	}
	if strings.Contains(h, " cuTensorMapEncodeTiled(") || strings.Contains(h, "cuGetProcAddress") {
		t.Errorf("harness should reach the driver through the runtime only")
	}

	// Errors name what is missing.
	l := hgemmLaunch()
	delete(l.TensorMaps, "tensorMapB")
	if _, err := lower.Harness(info.ByName["my_h100_mm_no_tail"], l); err == nil || err.Error() != "no tensor map for tensorMapB (--arg tensorMapB=tma:BUF,ROWS,COLS,BOX_ROWS,BOX_COLS[,SWIZZLE])" {
		t.Errorf("missing map: %v", err)
	}
	l = hgemmLaunch()
	l.TensorMaps["tensorMapA"] = lower.TensorMap{Buf: "A", Rows: 256, Cols: 256, BoxRows: 128, BoxCols: 64, Swizzle: 128}
	if _, err := lower.Harness(info.ByName["my_h100_mm_no_tail"], l); err == nil || err.Error() != "tensor map tensorMapA: a 256x256 tensor needs 65536 elements, buffer A has 32768" {
		t.Errorf("short buffer: %v", err)
	}
	l = hgemmLaunch()
	l.Inits["A"] = lower.Init{Elem: "bf16", Len: 32768, Kind: "rand"}
	if _, err := lower.Harness(info.ByName["my_h100_mm_no_tail"], l); err == nil || err.Error() != "no values for the rand buffer A" {
		t.Errorf("rand without values: %v", err)
	}
	l.Buffers = map[string][]float64{"A": make([]float64, 32768)}
	if h, err := lower.Harness(info.ByName["my_h100_mm_no_tail"], l); err != nil || !strings.Contains(h, "static const double prism_init_host_A[32768] = {0, 0, ") {
		t.Errorf("rand with values: %v", err)
	}
}

// TestHarnessHgemmNVCC compiles the hgemm harness for sm_90a to an object
// and links it with the CUDA runtime (no GPU and no libcuda needed: the
// tensor-map encoder comes through cudaGetDriverEntryPointByVersion). The
// program, run here, finds no device and exits 3; on a GPU it must print
// what weft run prints (bench/gpu/run.sh checks that).
func TestHarnessHgemmNVCC(t *testing.T) {
	nvcc := requireNVCC(t)
	info, _ := load(t, "../../../examples/prism/b5_hgemm.prism")
	h, err := lower.Harness(info.ByName["my_h100_mm_no_tail"], hgemmLaunch())
	if err != nil {
		t.Fatal(err)
	}
	out := build(t, "../../../examples/prism/b5_hgemm.prism")
	dir := t.TempDir()
	src := filepath.Join(dir, "hgemm.cu")
	os.WriteFile(src, []byte(out.CUDA+h), 0o644)
	arch := []string{"-gencode", "arch=compute_90a,code=sm_90a"}
	if msg, err := exec.Command(nvcc, append(arch, "-Werror", "all-warnings", "-c", "-o", filepath.Join(dir, "hgemm.o"), src)...).CombinedOutput(); err != nil {
		t.Fatalf("nvcc -c: %v\n%s", err, msg)
	}
	exe := filepath.Join(dir, "hgemm")
	if msg, err := exec.Command(nvcc, append(arch, "-o", exe, filepath.Join(dir, "hgemm.o"))...).CombinedOutput(); err != nil {
		t.Fatalf("nvcc link: %v\n%s", err, msg)
	}
	got, err := exec.Command(exe).CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 3 {
		t.Logf("no CUDA device: %s", strings.TrimSpace(string(got)))
		return
	}
	if err != nil {
		t.Fatalf("%v\n%s", err, got)
	}
	if !strings.HasPrefix(string(got), "C[32768] = ") {
		t.Fatalf("output %.200q", got)
	}
}

func requireNVCC(t *testing.T) string {
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

// TestHarnessFormat runs the harness's number format on the host (nvcc
// compiles host code without a GPU) against strconv.FormatFloat(v, 'g',
// -1, 64), the format of weft run, so that the two outputs diff equal:
// integers, the binary32 values GPU outputs hold, exponent boundaries, and
// the special values.
func TestHarnessFormat(t *testing.T) {
	nvcc := requireNVCC(t)
	vals := []float64{0, math.Copysign(0, -1), 1, -1, 1520, 0.5, 0.1, 1.0 / 3, 99999, 100000, 123456, 999999, 1e6, 1234567,
		1.5e6, 1e-4, 1.25e-4, 9.999e-5, 1e-5, 2.5e-7, 1e21, 1e22, 1e100, 5e-324, math.MaxFloat64, math.SmallestNonzeroFloat32,
		math.MaxFloat32, 16777217, float64(float32(0.1)), float64(float32(1) / 3), math.Inf(1), math.Inf(-1), math.NaN(), 2.0e-5}
	r := rand.New(rand.NewSource(1))
	for range 3000 {
		e := r.Intn(40) - 20
		vals = append(vals, float64(float32(r.NormFloat64()*math.Pow(10, float64(e)))))
	}
	for range 1000 {
		vals = append(vals, math.Float64frombits(r.Uint64()))
	}
	for range 500 {
		vals = append(vals, float64(r.Intn(1<<30)-1<<29))
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "fmt.cu")
	prog := "#include <cuda.h>\n#include <cuda_runtime.h>\n" + lower.HarnessRuntime + `
int main() {
  unsigned long long bits;
  char buf[64];
  while (scanf("%llx", &bits) == 1) {
    double v;
    memcpy(&v, &bits, sizeof v);
    prism_format(buf, sizeof buf, v);
    printf("%s\n", buf);
  }
  return 0;
}
`
	os.WriteFile(src, []byte(prog), 0o644)
	exe := filepath.Join(dir, "fmt")
	if msg, err := exec.Command(nvcc, "-o", exe, src).CombinedOutput(); err != nil {
		t.Fatalf("nvcc: %v\n%s", err, msg)
	}
	var in bytes.Buffer
	for _, v := range vals {
		fmt.Fprintf(&in, "%x\n", math.Float64bits(v))
	}
	cmd := exec.Command(exe)
	cmd.Stdin = &in
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != len(vals) {
		t.Fatalf("%d lines for %d values", len(lines), len(vals))
	}
	bad := 0
	for i, v := range vals {
		if want := strconv.FormatFloat(v, 'g', -1, 64); lines[i] != want {
			// The one known difference: of two equally short strings
			// next to a power of two, Go takes the nearer, the harness
			// the correctly rounded one; both read back as v.
			if back, err := strconv.ParseFloat(lines[i], 64); err == nil && back == v && len(lines[i]) == len(want) {
				continue
			}
			bad++
			if bad < 10 {
				t.Errorf("%x: harness %s, weft run %s", math.Float64bits(v), lines[i], want)
			}
		}
	}
}
