package bundl_test

import (
	"math"
	"math/rand"
	"os"
	"strings"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/prism/bundl"
	"weft.dev/weft/lang/prism/check"
	"weft.dev/weft/lang/prism/syntax"
)

func load(t testing.TB, name string, src []byte) *check.Info {
	t.Helper()
	f, errs := syntax.Parse(diag.NewFile(name, src))
	if errs.HasErrors() {
		t.Fatalf("%s: %v", name, errs.Err())
	}
	info := check.Check(f, errs)
	if errs.HasErrors() {
		t.Fatalf("%s: %v", name, errs.Err())
	}
	return info
}

func readExample(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile("../../../examples/prism/" + name + ".prism")
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func loadFile(t testing.TB, path string) *check.Info {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return load(t, path, data)
}

func tf32(x float64) float64 {
	b := math.Float32bits(float32(x))
	b += 0x1000
	b &^= 0x1fff
	return float64(math.Float32frombits(b))
}

// TestRunningExample runs seed 001's Fig. 6 kernel on a 32x16 by 16x16
// problem (2x2 blocks of 16x8, two K tiles) under several schedules and
// compares C with a CPU matmul of the TF32-rounded inputs.
func TestRunningExample(t *testing.T) {
	for _, ex := range []struct{ file, kernel string }{
		{"fig6_tf32", "mmaTF32NaiveKernel"},
		{"b1_tf32", "mmaTF32NaiveKernelB1"},
	} {
		runningExample(t, ex.file, ex.kernel)
	}
}

func runningExample(t *testing.T, file, kernel string) {
	info := loadFile(t, "../../../examples/prism/"+file+".prism")
	const M, N, K = 32, 16, 16
	rng := rand.New(rand.NewSource(1))
	A := &bundl.Buffer{Name: "A", Elem: "float", Data: make([]float64, M*K)}
	B := &bundl.Buffer{Name: "B", Elem: "float", Data: make([]float64, K*N)}
	for i := range A.Data {
		A.Data[i] = float64(rng.Intn(9) - 4)
	}
	for i := range B.Data {
		B.Data[i] = float64(rng.Intn(9)-4) / 2
	}
	want := make([]float64, M*N)
	for i := 0; i < M; i++ {
		for j := 0; j < N; j++ {
			s := 0.0
			for k := 0; k < K; k++ {
				s += tf32(A.Data[i*K+k]) * tf32(B.Data[k*N+j])
			}
			want[i*N+j] = s
		}
	}
	// Bundl's semantics, then the generated code's synchronization alone
	// (full barriers, then split barriers).
	for seed := int64(0); seed < 3; seed++ {
		C := &bundl.Buffer{Name: "C", Elem: "float", Data: make([]float64, M*N)}
		var errs diag.List
		res := bundl.Run(info, bundl.Config{Kernel: kernel, Blocks: (M / 16) * (N / 8), Seed: seed,
			CompiledSync: seed >= 1, SplitBarriers: seed >= 2,
			Args:    map[string]float64{"M": M, "N": N, "K": K},
			Buffers: map[string]*bundl.Buffer{"A": A, "B": B, "C": C}}, &errs)
		if errs.HasErrors() || res.Stuck {
			t.Fatalf("%s seed %d: %v", file, seed, errs.Err())
		}
		for i := range want {
			if C.Data[i] != want[i] {
				t.Fatalf("%s seed %d: C[%d] = %v, want %v", file, seed, i, C.Data[i], want[i])
			}
		}
	}
}

// TestStuck: an ill-typed program (Fig. 11, a __syncthreads under a
// thread-dependent branch), run without the checker's verdict, gets stuck
// and the report names the barrier.
func TestStuck(t *testing.T) {
	src := `@prism("global")
@requires(grid[1], block[1], thread[8])
def k(x : int @ grid[1]):
    with group(block[1]):
        flag : bool @ thread[1] = id() < 3
        with group(block[1]):
            if (flag):
                __syncthreads()
`
	f, errs := syntax.Parse(diag.NewFile("fig11.prism", []byte(src)))
	info := check.Check(f, errs)
	if !errs.HasErrors() {
		t.Fatal("checker accepted Fig. 11")
	}
	var run diag.List
	res := bundl.Run(info, bundl.Config{Kernel: "k", Blocks: 1, Seed: 1, Args: map[string]float64{"x": 0}}, &run)
	if !res.Stuck {
		t.Fatalf("not stuck: %v", run.Err())
	}
	var b strings.Builder
	diag.WriteText(&b, run.Diags)
	if !strings.Contains(b.String(), "fig11.prism:8:17: error[P0301]: Bundl run is stuck: 3 of 8 threads wait at the __syncthreads") {
		t.Errorf("report:\n%s", b.String())
	}
}

// TestViewOfFunctionView: an offset view of a view through an indexing
// function indexes through both (y[i] is x[f(off + i)]).
func TestViewOfFunctionView(t *testing.T) {
	src := `@prism("global")
@requires(grid[1], block[1], thread[4])
def k(x : ptr(float) @ grid[1]):
    with group(grid[1]):
        f = lambda i: 2 * i
        with partition(x, p=block[1], f=f) as xb:
            with group(block[1]):
                t : int @ thread[1] = id()
                with partition(xb, dimension=thread[1], offset=t * 2) as xt:
                    with group(thread[1]):
                        xt[0] = t + 1
                        xt[1] = 10 * (t + 1)
    return
`
	info := load(t, "view.prism", []byte(src))
	x := &bundl.Buffer{Name: "x", Elem: "float", Data: make([]float64, 16)}
	var errs diag.List
	bundl.Run(info, bundl.Config{Kernel: "k", Seed: 3, Buffers: map[string]*bundl.Buffer{"x": x}}, &errs)
	if errs.HasErrors() {
		t.Fatal(errs.Err())
	}
	want := []float64{1, 0, 10, 0, 2, 0, 20, 0, 3, 0, 30, 0, 4, 0, 40, 0}
	for i := range want {
		if x.Data[i] != want[i] {
			t.Fatalf("x = %v, want %v", x.Data, want)
		}
	}
}

// TestSGEMM runs the tiled SGEMM of appendix B.2 (two blocks) and compares
// C = alpha*A*B + beta*C with a CPU computation.
func TestSGEMM(t *testing.T) {
	info := loadFile(t, "../../../examples/prism/b2_sgemm.prism")
	const M, N, K = 128, 64, 16
	const alpha, beta = 1.5, -1.0
	rng := rand.New(rand.NewSource(4))
	A := &bundl.Buffer{Name: "A", Elem: "float", Data: make([]float64, M*K)}
	B := &bundl.Buffer{Name: "B", Elem: "float", Data: make([]float64, K*N)}
	C := &bundl.Buffer{Name: "C", Elem: "float", Data: make([]float64, M*N)}
	for _, b := range []*bundl.Buffer{A, B, C} {
		for i := range b.Data {
			b.Data[i] = float64(rng.Intn(9) - 4)
		}
	}
	want := make([]float64, M*N)
	for i := 0; i < M; i++ {
		for j := 0; j < N; j++ {
			s := 0.0
			for k := 0; k < K; k++ {
				s += A.Data[i*K+k] * B.Data[k*N+j]
			}
			want[i*N+j] = alpha*s + beta*C.Data[i*N+j]
		}
	}
	C0 := append([]float64(nil), C.Data...)
	for mode := 0; mode < 3; mode++ {
		copy(C.Data, C0)
		var errs diag.List
		res := bundl.Run(info, bundl.Config{Kernel: "sgemm_tiled", Blocks: 2, Seed: int64(5 + mode),
			CompiledSync: mode >= 1, SplitBarriers: mode >= 2,
			Args:    map[string]float64{"M": M, "N": N, "K": K, "alpha": alpha, "beta": beta},
			Buffers: map[string]*bundl.Buffer{"A": A, "B": B, "C": C}}, &errs)
		if errs.HasErrors() || res.Stuck {
			t.Fatal(errs.Err())
		}
		for i := range want {
			if C.Data[i] != want[i] {
				t.Fatalf("mode %d: C[%d] = %v, want %v", mode, i, C.Data[i], want[i])
			}
		}
	}
}

// TestShflScan: a warp-level inclusive scan with shfl_up_sync (the shape of
// B.3's scan_warp) computes prefix sums.
func TestShflScan(t *testing.T) {
	src := `@prism("global")
@requires(grid[1], block[1], thread[64])
def scan(x : ptr(float) @ grid[1]):
    with group(grid[1]):
        b : int @ block[1] = id()
        with partition(x, dimension=block[1], offset=b * 64) as xb:
          with group(block[1]):
            w : int @ thread[32] = id()
            with partition(xb, dimension=thread[32], offset=w * 32) as xw:
                with group(thread[32]):
                    lane : int @ thread[1] = id()
                    val : float @ thread[1] = lane + 1
                    stride : int @ thread[32] = 1
                    while stride < 32:
                        got : float @ thread[1] = shfl_up_sync(val, stride)
                        with group(thread[1]):
                            if lane >= stride:
                                val = val + got
                        stride *= 2
                    with partition(xw, dimension=thread[1], offset=lane) as xt:
                        with group(thread[1]):
                            xt[0] = val
    return
`
	info := load(t, "scan.prism", []byte(src))
	x := &bundl.Buffer{Name: "x", Elem: "float", Data: make([]float64, 64)}
	var errs diag.List
	bundl.Run(info, bundl.Config{Kernel: "scan", Seed: 2, Buffers: map[string]*bundl.Buffer{"x": x}}, &errs)
	if errs.HasErrors() {
		t.Fatal(errs.Err())
	}
	for i, v := range x.Data {
		l := float64(i%32 + 1)
		if v != l*(l+1)/2 {
			t.Fatalf("x[%d] = %v, want %v", i, v, l*(l+1)/2)
		}
	}
}
