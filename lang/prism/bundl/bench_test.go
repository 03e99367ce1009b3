package bundl_test

import (
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/prism/bundl"
)

// BenchmarkRunningExample runs Fig. 6 on a 32x16x16 problem (4 blocks of
// 32 threads); the metric steps/op is what the scheduler interleaves.
func BenchmarkRunningExample(b *testing.B) {
	info := loadFile(b, "../../../examples/prism/fig6_tf32.prism")
	const M, N, K = 32, 16, 16
	A := &bundl.Buffer{Name: "A", Elem: "float", Data: make([]float64, M*K)}
	B := &bundl.Buffer{Name: "B", Elem: "float", Data: make([]float64, K*N)}
	C := &bundl.Buffer{Name: "C", Elem: "float", Data: make([]float64, M*N)}
	steps := 0
	for i := 0; i < b.N; i++ {
		var errs diag.List
		res := bundl.Run(info, bundl.Config{Kernel: "mmaTF32NaiveKernel", Blocks: 4, Seed: int64(i),
			Args:    map[string]float64{"M": M, "N": N, "K": K},
			Buffers: map[string]*bundl.Buffer{"A": A, "B": B, "C": C}}, &errs)
		steps = res.Steps
	}
	b.ReportMetric(float64(steps), "steps/op")
}
