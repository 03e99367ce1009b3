package interp

import (
	"math/rand/v2"
	"testing"
	"time"
)

// The performance goal of the interpreter (issue 2): a 256x256x256
// sequential GEMM within 30x of the same triple loop in plain Go. Compare
// the two with
//
//	go test -run '^$' -bench GEMM256 ./lang/weft/interp
//
// BenchmarkGEMM256Ratio reports the ratio directly (interp/go).

const gemmSize = 256

func gemmInputs() (A, B, C *Array) {
	rng := rand.New(rand.NewPCG(1, 1))
	A = randArray(rng, F32, gemmSize, gemmSize)
	B = randArray(rng, F32, gemmSize, gemmSize)
	C = NewArray(F32, []int{gemmSize, gemmSize})
	C.Fill(0)
	return
}

func BenchmarkGEMM256Interp(b *testing.B) {
	p := example(b, "gemm_seq.weft")
	A, B, C := gemmInputs()
	args := map[string]any{"M": gemmSize, "N": gemmSize, "K": gemmSize, "A": A, "B": B, "C": C}
	for b.Loop() {
		if err := p.Call(args); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGEMM256Ratio runs the interpreter and the Go loop alternately,
// so both see the same machine load, and reports interp/go, the ratio the
// goal is stated in (interp-ns and go-ns are the per-GEMM times).
func BenchmarkGEMM256Ratio(b *testing.B) {
	p := example(b, "gemm_seq.weft")
	A, B, C := gemmInputs()
	args := map[string]any{"M": gemmSize, "N": gemmSize, "K": gemmSize, "A": A, "B": B, "C": C}
	a, bb, c := f32s(A), f32s(B), f32s(C)
	var ti, tg time.Duration
	for b.Loop() {
		t0 := time.Now()
		if err := p.Call(args); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		goGEMM(a, bb, c)
		ti += t1.Sub(t0)
		tg += time.Since(t1)
	}
	b.ReportMetric(float64(ti)/float64(tg), "interp/go")
	b.ReportMetric(float64(ti.Nanoseconds())/float64(b.N), "interp-ns")
	b.ReportMetric(float64(tg.Nanoseconds())/float64(b.N), "go-ns")
}

func goGEMM(a, b, c []float32) {
	const M, N, K = gemmSize, gemmSize, gemmSize
	for m := 0; m < M; m++ {
		for n := 0; n < N; n++ {
			for k := 0; k < K; k++ {
				c[m*N+n] += a[m*K+k] * b[k*N+n]
			}
		}
	}
}

// BenchmarkGEMM256Go is the baseline: the loop nest of gemm_seq.weft over
// float32 slices, with the same m, n, k order.
func BenchmarkGEMM256Go(b *testing.B) {
	A, B, C := gemmInputs()
	a, bb, c := f32s(A), f32s(B), f32s(C)
	for b.Loop() {
		goGEMM(a, bb, c)
	}
}
