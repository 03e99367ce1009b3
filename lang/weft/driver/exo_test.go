package driver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/frontend"
	"weft.dev/weft/lang/weft/interp"
	"weft.dev/weft/lang/weft/syntax"
	"weft.dev/weft/pyscan"
)

// TestExoDialectCorpus runs the corpus of programs written in Exo's printed
// dialect (examples/weft/exo, issue 19): each reprints with weft fmt token
// for token, passes weft check (every checker) with exactly the expected
// warnings, and runs with weft run to the expected outputs.
func TestExoDialectCorpus(t *testing.T) {
	for _, tc := range []struct {
		file     string
		warnings []string // "line:col CODE"
		outputs  map[string][]float64
	}{
		{"real_scale.weft", nil, map[string][]float64{"y": seqf(16, func(i int) float64 { return 2*float64(i) + 1 })}},
		{"config_scale.weft", nil, map[string][]float64{"dst": seqf(8, func(i int) float64 { return 2 * float64(i) })}},
		{"config_implicit.weft", []string{"6:5 W0229"}, map[string][]float64{"x": seqf(8, func(i int) float64 {
			if i < 3 {
				return float64(i) + 0.5
			}
			return float64(i)
		})}},
		{"externs.weft", nil, map[string][]float64{"y": seqf(8, func(i int) float64 {
			// f32 arithmetic, each operation rounded (relu(i) = i here).
			r := func(v float64) float64 { return float64(float32(v)) }
			s := r(float64(i) + r(math.Sin(float64(i))))
			return r(math.Sqrt(r(s * s)))
		})}},
		{"avx2_fma.weft", nil, map[string][]float64{"y": seqf(32, func(i int) float64 { return 1 + float64(i)*float64(i) })}},
		{"size_product.weft", nil, map[string][]float64{"arr": seqf(12, func(int) float64 { return 3 })}},
		{"par_loop.weft", nil, map[string][]float64{"A": seqf(32, func(i int) float64 { return float64(i) + 1 })}},
		// GPU: TMA ring + wgmma (sync check at the # check: sizes); with
		// A = B = ones every element of C is K = 64.
		{"tma_ring_gemm.weft", nil, map[string][]float64{"C": seqf(128*256, func(int) float64 { return 64 })}},
		// GPU, Exo's GPU-branch form: ring-buffered and pre-arrived
		// mbarriers, async instructions without CudaAsync, swizzled SMEM
		// in CUDA code; C = A + B with A = iota, B = ones.
		// GPU: Arrives multicast to slices of mbarrier arrays across a
		// cluster; C = A + 1.
		{"multicast_arrive.weft", nil, map[string][]float64{"C": seqf(8*6*128, func(i int) float64 { return float64(i) + 1 })}},
		{"ring_add.weft", nil, map[string][]float64{"C": seqf(128*96, func(i int) float64 { return float64(i) + 1 })}},
		// GPU, Exo's ThunderKittens-style split-K GEMM: TMA multicast
		// across a cluster of 2, 3-D/4-D tensor maps, Sm90_TkRmemTileD
		// accumulators, a TMA reduce-add per split; with A = B = ones
		// every element of C is S * K = 128.
		{"tk_split_gemm.weft", nil, map[string][]float64{"C": seqf(128*256, func(int) float64 { return 128 })}},
		// The same in clusters of one CTA, its Fence before the epilogue
		// issued per CTA (issue 13); C = S * K = 128 everywhere.
		{"tk_gemm_1cta.weft", nil, map[string][]float64{"C": seqf(128*128, func(int) float64 { return 128 })}},
	} {
		path := filepath.Join(examples, "exo", tc.file)
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var errs diag.List
		f := syntax.Parse(diag.NewFile(path, src), &errs)
		if errs.HasErrors() {
			t.Errorf("%s: %v", tc.file, errs.Err())
			continue
		}
		if a, b := tokenTexts(src), tokenTexts([]byte(syntax.Print(f))); strings.Join(a, "\n") != strings.Join(b, "\n") {
			t.Errorf("%s: weft fmt does not reprint it token for token", tc.file)
		}
		var stdout, stderr bytes.Buffer
		env := &frontend.Env{Stdout: &stdout, Stderr: &stderr}
		if rc := checkVerb(env, []string{path, "--json"}); rc != 0 {
			t.Errorf("weft check %s: exit %d\n%s", tc.file, rc, stdout.String())
		}
		got := decodeDiags(t, stdout.Bytes())
		if strings.Join(got, ";") != strings.Join(tc.warnings, ";") {
			t.Errorf("%s: diagnostics %q, want %q", tc.file, got, tc.warnings)
		}
		out := t.TempDir()
		var runArgs []string
		for _, line := range strings.Split(string(src), "\n") {
			if rest, ok := strings.CutPrefix(line, "# run:"); ok {
				runArgs = strings.Fields(rest)
			}
		}
		stdout.Reset()
		stderr.Reset()
		if rc := runVerb(env, append([]string{path, "--out", out}, runArgs...)); rc != 0 {
			t.Errorf("weft run %s: exit %d\n%s", tc.file, rc, stderr.String())
			continue
		}
		for name, want := range tc.outputs {
			fh, err := os.Open(filepath.Join(out, name+".npy"))
			if err != nil {
				t.Errorf("%s: %v", tc.file, err)
				continue
			}
			a, err := interp.ReadNpy(fh)
			fh.Close()
			if err != nil {
				t.Errorf("%s: %v", tc.file, err)
				continue
			}
			if a.Len() != len(want) {
				t.Errorf("%s: %s has %d elements, want %d", tc.file, name, a.Len(), len(want))
				continue
			}
			for i := range want {
				if a.Value(i) != want[i] {
					t.Errorf("%s: %s[%d] = %v, want %v", tc.file, name, i, a.Value(i), want[i])
					break
				}
			}
		}
	}
}

func seqf(n int, f func(int) float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = f(i)
	}
	return out
}

// tokenTexts is the token sequence of src (kind and text; comments and
// line breaks inside brackets are not tokens).
func tokenTexts(src []byte) []string {
	s := pyscan.New(diag.NewFile("", src), func(diag.Pos, string, string) {})
	var out []string
	for _, t := range s.All() {
		out = append(out, t.Kind.String()+" "+t.Text)
	}
	return out
}

// decodeDiags reads `weft check --json` output as "line:col CODE" strings.
func decodeDiags(t *testing.T, js []byte) []string {
	t.Helper()
	var ds []struct {
		Line, Col int
		Code      string
	}
	if len(bytes.TrimSpace(js)) == 0 {
		return nil
	}
	if err := json.Unmarshal(js, &ds); err != nil {
		t.Fatalf("bad JSON %q: %v", js, err)
	}
	var out []string
	for _, d := range ds {
		out = append(out, fmt.Sprintf("%d:%d %s", d.Line, d.Col, d.Code))
	}
	return out
}

// TestCheckAsStrictAsBuild: what weft build rejects statically, weft check
// rejects with the same code and position (issue 19 item 3).
func TestCheckAsStrictAsBuild(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      string // "line:col CODE" of the first error
	}{
		{"smem_shape", `def f(N: size, x: f32[N] @ CudaGmemLinear):
    with CudaDeviceFunction(blockDim=32):
        for task in cuda_tasks(0, 1):
            s: f32[N] @ CudaSmemLinear
            for t in cuda_threads(0, 32):
                s[t] = x[t]
            Fence(cuda_in_order, cuda_in_order)
`, "4:13 W0903"},
		{"grid_constant_shape", `def f(N: size, x: f32[32] @ CudaGmemLinear):
    g: f32[N] @ CudaGridConstant
    for i in seq(0, N):
        g[i] = 1.0
    with CudaDeviceFunction(blockDim=32):
        for task in cuda_tasks(0, 1):
            for t in cuda_threads(0, 32):
                x[t] = g[0]
`, "2:5 W0903"},
		{"tensor_map_in_device_code", `def f(A: f32[64, 64] @ CudaGmemLinear):
    with CudaDeviceFunction(blockDim=128):
        for task in cuda_tasks(0, 1):
            m = A[:, :] @ Sm90_tensorMap(128, 64, 32)
`, "4:27 W0901"},
		{"attribute", `def f(x: f32[2, 2] @ DRAM, y: f32 @ DRAM):
    y = x.T[0, 1]
`, "2:9 W0230"},
	} {
		path := filepath.Join(t.TempDir(), tc.name+".weft")
		if err := os.WriteFile(path, []byte(tc.src), 0o644); err != nil {
			t.Fatal(err)
		}
		var stdout, stderr bytes.Buffer
		env := &frontend.Env{Stdout: &stdout, Stderr: &stderr}
		rc := checkVerb(env, []string{path, "--json", "N=64"})
		got := decodeDiags(t, stdout.Bytes())
		if rc != 1 || len(got) == 0 || got[0] != tc.want {
			t.Errorf("%s: weft check exit %d, diagnostics %q; want the first %s", tc.name, rc, got, tc.want)
		}
	}
}

// TestExoTypeBoundCallsChecked: the sync check sees the data accesses of
// instruction calls written in Exo's printed form with keyword type
// bindings (`dst=f32, src=f32`), and pairs a multicast Arrive (`>>
// empty[cn, k + 2] >> empty[0:2, k + 2]`) with the Awaits of every CTA it
// reaches. Before, the type bindings shifted the positional arguments
// (the accesses were dropped: 108 memory ops for tk_split_gemm instead
// of 148 912), so the first three mutants below passed and the fourth
// was reported only by the barrier rules.
func TestExoTypeBoundCallsChecked(t *testing.T) {
	path := filepath.Join(examples, "exo", "tk_split_gemm.weft")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []struct {
		name, old, new string
		want           []string
	}{
		// the proxy fence before the TMA reduce-add reads c_smem
		{"no proxy fence", "                            Fence(cuda_in_order, cuda_generic_and_async_proxy)\n", "", []string{"122:37 W0601"}},
		// CTA 1's consumers no longer free CTA 0's ring slot
		{"no multicast arrive", " >> empty[cn, k + 2] >> empty[0:2, k + 2]", " >> empty[cn, k + 2]", []string{"63:37 W0602"}},
		// the wgmma fence after the type-bound Sm90_tk_zero_scale_d wrote
		// acc (accepted before: neither call's accesses were seen)
		{"no wgmma fence", "                                        Fence(wgmma_fence_1, wgmma_fence_2)\n", "", []string{"90:41 W0603"}},
		// the consumers' Await on the full ring slot: before, only the
		// barrier rules saw it (W0609); now the wgmma's reads of the
		// TMA-loaded tiles race with the loads (W0601) as well
		{"no full await", "                                    Await(full[cn, k], cuda_generic_and_async_proxy, 0)\n", "", []string{"55:25 W0605", "56:25 W0605", "63:37 W0603", "76:37 W0603", "85:37 W0609", "90:41 W0601", "90:41 W0601"}},
	} {
		if !strings.Contains(string(src), m.old) {
			t.Fatalf("%s: the example no longer contains %q", m.name, m.old)
		}
		mut := filepath.Join(t.TempDir(), "tk_split_gemm.weft")
		if err := os.WriteFile(mut, []byte(strings.Replace(string(src), m.old, m.new, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		var stdout, stderr bytes.Buffer
		checkVerb(&frontend.Env{Stdout: &stdout, Stderr: &stderr}, []string{mut, "--json"})
		if got := decodeDiags(t, stdout.Bytes()); strings.Join(got, ";") != strings.Join(m.want, ";") {
			t.Errorf("%s: diagnostics %q, want %q", m.name, got, m.want)
		}
	}
}
