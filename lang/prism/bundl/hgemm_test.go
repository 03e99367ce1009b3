package bundl_test

import (
	"math"
	"math/rand"
	"strings"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/prism/bundl"
	"weft.dev/weft/lang/prism/check"
)

// bf16 rounds to bfloat16, to nearest even (the reference's own rounding,
// written independently of the interpreter's).
func bf16(x float64) float64 {
	b := math.Float32bits(float32(x))
	if b&0x7fffffff > 0x7f800000 {
		return x
	}
	lsb := (b >> 16) & 1
	b += 0x7fff + lsb
	return float64(math.Float32frombits(b & 0xffff0000))
}

// hgemmProblem is one launch of B.5's kernel: A is M x K and B is N x K,
// both row-major with K contiguous (K-major, as the TMA coordinates
// (k, m) and (k, n) read them), C is M x N column-major (C[n*M + m]).
type hgemmProblem struct {
	M, N, K int
	A, B    []float64
}

func newHgemm(seed int64, M, N, K int) *hgemmProblem {
	r := rand.New(rand.NewSource(seed))
	p := &hgemmProblem{M: M, N: N, K: K, A: make([]float64, M*K), B: make([]float64, N*K)}
	// Multiples of 1/4 in [-2, 2]: every product and partial sum is exact
	// in float32, so the only rounding of the result is C's bf16 store,
	// whatever order the tensor core accumulates in.
	for i := range p.A {
		p.A[i] = float64(r.Intn(17)-8) / 4
	}
	for i := range p.B {
		p.B[i] = float64(r.Intn(17)-8) / 4
	}
	return p
}

// reference is C = A * B^T in exact arithmetic, rounded once to bf16.
func (p *hgemmProblem) reference() []float64 {
	C := make([]float64, p.M*p.N)
	for m := 0; m < p.M; m++ {
		for n := 0; n < p.N; n++ {
			s := 0.0
			for k := 0; k < p.K; k++ {
				s += p.A[m*p.K+k] * p.B[n*p.K+k]
			}
			C[n*p.M+m] = bf16(s)
		}
	}
	return C
}

func (p *hgemmProblem) run(t testing.TB, info *check.Info, cfg bundl.Config, swizzle int) ([]float64, bundl.Result, string) {
	t.Helper()
	A := &bundl.Buffer{Name: "A", Elem: "bf16", Data: append([]float64(nil), p.A...)}
	B := &bundl.Buffer{Name: "B", Elem: "bf16", Data: append([]float64(nil), p.B...)}
	C := &bundl.Buffer{Name: "C", Elem: "bf16", Data: make([]float64, p.M*p.N)}
	cfg.Kernel = "my_h100_mm_no_tail"
	cfg.Blocks = (p.M / 128) * (p.N / 256)
	cfg.Args = map[string]float64{"M": float64(p.M), "N": float64(p.N), "K": float64(p.K)}
	cfg.Buffers = map[string]*bundl.Buffer{"C": C}
	if cfg.TensorMaps == nil {
		cfg.TensorMaps = map[string]*bundl.TensorMap{
			"tensorMapA": {Buf: A, Rows: p.M, Cols: p.K, BoxRows: 128, BoxCols: 64, Swizzle: swizzle},
			"tensorMapB": {Buf: B, Rows: p.N, Cols: p.K, BoxRows: 256, BoxCols: 64, Swizzle: swizzle},
		}
	}
	var errs diag.List
	res := bundl.Run(info, cfg, &errs)
	var b strings.Builder
	diag.WriteText(&b, errs.Diags)
	return C.Data, res, b.String()
}

// TestHgemm runs appendix B.5's H100 GEMM (TMA loads into 128-byte
// swizzled slots, mbarrier expect-tx, two consumer warpgroups of wgmma
// m64n256k16, the accumulator write-back) for several problems, seeds and
// synchronization modes, and compares C with the Go reference.
func TestHgemm(t *testing.T) {
	info := loadFile(t, "../../../examples/prism/b5_hgemm.prism")
	cases := []struct {
		seed    int64
		M, N, K int
		mode    int // 0 Bundl, 1 compiled sync, 2 split barriers
	}{
		{1, 128, 256, 256, 0},
		{2, 128, 256, 512, 2},
		{3, 256, 256, 256, 1},
	}
	if testing.Short() {
		cases = cases[:2]
	}
	for _, c := range cases {
		p := newHgemm(c.seed, c.M, c.N, c.K)
		want := p.reference()
		got, res, report := p.run(t, info, bundl.Config{Seed: c.seed, CompiledSync: c.mode >= 1, SplitBarriers: c.mode >= 2}, 128)
		if report != "" || res.Stuck {
			t.Fatalf("seed %d %dx%dx%d: %s", c.seed, c.M, c.N, c.K, report)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("seed %d %dx%dx%d mode %d: C[%d] (m %d, n %d) = %v, want %v", c.seed, c.M, c.N, c.K, c.mode, i, i%c.M, i/c.M, got[i], want[i])
			}
		}
	}
}

// TestHgemmFaithful: the layouts are modeled closely enough that a wrong
// index in the program, or a tensor map the kernel was not written for,
// gives a wrong answer or a report, never the right C by accident.
func TestHgemmFaithful(t *testing.T) {
	src := readExample(t, "b5_hgemm")
	p := newHgemm(5, 128, 256, 256)
	want := p.reference()
	wrong := func(name string, info *check.Info, swizzle int) {
		t.Helper()
		got, res, report := p.run(t, info, bundl.Config{Seed: 1}, swizzle)
		if res.Stuck || report != "" {
			t.Fatalf("%s: %s", name, report)
		}
		for i := range want {
			if got[i] != want[i] {
				return
			}
		}
		t.Errorf("%s: still computes the right C", name)
	}
	// No swizzle in the tensor maps: the wgmma descriptors read 128-byte
	// swizzled tiles, so the operands are scrambled.
	wrong("unswizzled tensor maps", load(t, "b5.prism", src), 0)
	for _, m := range []struct{ name, old, new string }{
		{"K step of 8 instead of 16 in sA_0c", "sA_0c[64 * (m_it + wg_idx * B_WG_M / WGMMA_M) * WGMMA_M + k_it * WGMMA_K]", "sA_0c[64 * (m_it + wg_idx * B_WG_M / WGMMA_M) * WGMMA_M + k_it * 8]"},
		{"both warpgroups read A rows 0..63", "sA_2c[64 * (m_it + wg_idx * B_WG_M / WGMMA_M) * WGMMA_M", "sA_2c[64 * (m_it) * WGMMA_M"},
		{"accumulator registers 4 and 5 swapped", "d[m_it][w / 16][5]", "d[m_it][w / 16][4]"},
		{"row of lanes off by one", "row : int @ thread[1] = warp_id * 16 + lane / 4", "row : int @ thread[1] = warp_id * 16 + (lane + 1) % 32 / 4"},
	} {
		mut := strings.Replace(string(src), m.old, m.new, 1)
		if mut == string(src) {
			t.Fatalf("%s: pattern not found", m.name)
		}
		wrong(m.name, load(t, "b5_mut.prism", []byte(mut)), 128)
	}
}

// TestHgemmReports: a TMA transaction count that does not match the bytes
// the loads deliver hangs on a GPU and is reported stuck (P0301) where the
// consumers wait; touching a wgmma accumulator before the wait that ends
// the wmma_async scope is P0307.
func TestHgemmReports(t *testing.T) {
	src := readExample(t, "b5_hgemm")
	p := newHgemm(6, 128, 256, 256)
	info := load(t, "b5_hgemm.prism", src)
	A := &bundl.Buffer{Name: "A", Elem: "bf16", Data: p.A}
	B := &bundl.Buffer{Name: "B", Elem: "bf16", Data: p.B}
	for _, c := range []struct {
		name string
		cfg  bundl.Config
		want string
	}{
		{"B boxes of 128 rows: 16384 bytes short", bundl.Config{Seed: 2, TensorMaps: map[string]*bundl.TensorMap{
			"tensorMapA": {Buf: A, Rows: 128, Cols: 256, BoxRows: 128, BoxCols: 64, Swizzle: 128},
			"tensorMapB": {Buf: B, Rows: 256, Cols: 256, BoxRows: 128, BoxCols: 64, Swizzle: 128}}},
			"b5_hgemm.prism:102:21: error[P0301]: Bundl run is stuck: 384 threads wait here for phase 0 of mbarrier full_0 (first: "},
		{"split barriers: the consumers wait at their wgmma block", bundl.Config{Seed: 3, CompiledSync: true, SplitBarriers: true, TensorMaps: map[string]*bundl.TensorMap{
			"tensorMapA": {Buf: A, Rows: 128, Cols: 256, BoxRows: 64, BoxCols: 64, Swizzle: 128},
			"tensorMapB": {Buf: B, Rows: 256, Cols: 256, BoxRows: 256, BoxCols: 64, Swizzle: 128}}},
			"b5_hgemm.prism:116:69: error[P0301]: Bundl run is stuck: 256 threads wait here for phase 0 of mbarrier full_0"},
	} {
		_, res, report := p.run(t, info, c.cfg, 128)
		if !res.Stuck || !strings.Contains(report, c.want) {
			t.Errorf("%s: stuck=%v, report:\n%s\nwant %q", c.name, res.Stuck, report, c.want)
		}
		if !strings.Contains(report, "expect_bytes (line 88:69) announced 49152 bytes, TMA loads delivered") {
			t.Errorf("%s: report lacks the transaction count:\n%s", c.name, report)
		}
	}
	early := strings.Replace(string(src), `                                                                            intrinsic.wmma256(sA_0c[64 * (m_it + wg_idx * B_WG_M / WGMMA_M) * WGMMA_M + k_it * WGMMA_K], sB_0c[k_it * WGMMA_K], 1, 1, 1, 0, 0, out=[d[m_it]])
`, `                                                                            intrinsic.wmma256(sA_0c[64 * (m_it + wg_idx * B_WG_M / WGMMA_M) * WGMMA_M + k_it * WGMMA_K], sB_0c[k_it * WGMMA_K], 1, 1, 1, 0, 0, out=[d[m_it]])
                                                                    with group(thread[1]):
                                                                        d[0][0][0] += 1
`, 1)
	if early == string(src) {
		t.Fatal("pattern not found")
	}
	_, _, report := p.run(t, load(t, "early.prism", []byte(early)), bundl.Config{Seed: 1}, 128)
	if want := "early.prism:121:73: error[P0307]: d is the accumulator of a wgmma still in flight (issued at line 119:77)"; !strings.Contains(report, want) {
		t.Errorf("early accumulator read: report:\n%s\nwant %q", report, want)
	}
}

// TestMmaFragmentFaithful: swapping two A registers of Fig. 6's mma.sync
// (a wrong fragment index) gives a wrong C.
func TestMmaFragmentFaithful(t *testing.T) {
	src := string(readExample(t, "fig6_tf32"))
	mut := strings.Replace(src, "intrinsic.mma(a[0], a[1], a[2], a[3],", "intrinsic.mma(a[0], a[2], a[1], a[3],", 1)
	if mut == src {
		t.Fatal("pattern not found")
	}
	info := load(t, "fig6_mut.prism", []byte(mut))
	const M, N, K = 16, 8, 8
	r := rand.New(rand.NewSource(3))
	A := &bundl.Buffer{Name: "A", Elem: "float", Data: make([]float64, M*K)}
	B := &bundl.Buffer{Name: "B", Elem: "float", Data: make([]float64, K*N)}
	C := &bundl.Buffer{Name: "C", Elem: "float", Data: make([]float64, M*N)}
	for i := range A.Data {
		A.Data[i] = float64(r.Intn(9) - 4)
	}
	for i := range B.Data {
		B.Data[i] = float64(r.Intn(9) - 4)
	}
	var errs diag.List
	bundl.Run(info, bundl.Config{Kernel: "mmaTF32NaiveKernel", Blocks: 1, Seed: 1,
		Args:    map[string]float64{"M": M, "N": N, "K": K},
		Buffers: map[string]*bundl.Buffer{"A": A, "B": B, "C": C}}, &errs)
	if errs.HasErrors() {
		t.Fatal(errs.Err())
	}
	for i := 0; i < M; i++ {
		for j := 0; j < N; j++ {
			s := 0.0
			for k := 0; k < K; k++ {
				s += A.Data[i*K+k] * B.Data[k*N+j]
			}
			if C.Data[i*N+j] != s {
				return
			}
		}
	}
	t.Error("swapped mma fragment registers still compute the right C")
}

// BenchmarkHgemm runs B.5 on 128x256x256 (one block of 384 threads, 16
// wgmmas per warpgroup, one TMA round of four slots).
func BenchmarkHgemm(b *testing.B) {
	info := loadFile(b, "../../../examples/prism/b5_hgemm.prism")
	p := newHgemm(1, 128, 256, 256)
	steps := 0
	for i := 0; i < b.N; i++ {
		_, res, _ := p.run(b, info, bundl.Config{Seed: int64(i)}, 128)
		steps = res.Steps
	}
	b.ReportMetric(float64(steps), "steps/op")
}
