package syncheck

import (
	"os"
	"testing"

	"weft.dev/weft/lang/weft/amir"
)

// BenchmarkShflXorMachine runs the abstract machine alone over
// examples/weft/exo/shfl_xor.weft (issue 13's row 15), converted once:
// the part of its check that amir's block grids and lazy records decide
// (docs/weft-sync.md, "Stop 31: shfl31").
func BenchmarkShflXorMachine(b *testing.B) {
	src, err := os.ReadFile("../../../examples/weft/exo/shfl_xor.weft")
	if err != nil {
		b.Fatal(err)
	}
	var prog *Program
	checkSourceProgram(b, "shfl_xor.weft", string(src), func(p *Program) { prog = p })
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res := amir.New(prog.AMIR, amir.Config{}).Run(nil)
		if !res.OK() {
			b.Fatalf("hazards: %d, faults %v", res.Distinct, res.Faults)
		}
	}
}
