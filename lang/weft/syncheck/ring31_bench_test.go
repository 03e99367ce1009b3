package syncheck

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"weft.dev/weft/lang/weft/amir"
)

// BenchmarkThreeRingsMachine runs the abstract machine alone, at T=1,
// over the chunks of testdata/three_rings_exo.weft that issue 13's rows
// 0-4 check (the correct three-ring pipeline and its wrong-offset,
// wrong-box, wrong-thread-pitch and duplicate-await variants), each
// converted once: the part of their check that the hardware mbarrier
// rules (amir's mbar.go, mbar_clock.go) decide (docs/weft-sync.md,
// "Stop 31: ring31").
func BenchmarkThreeRingsMachine(b *testing.B) {
	src, err := os.ReadFile("testdata/three_rings_exo.weft")
	if err != nil {
		b.Fatal(err)
	}
	chunks := strings.Split(string(src), "\n---\n")
	for _, row := range []struct {
		name  string
		chunk int
		bug   bool
	}{
		{"positive", 1, false}, {"wrong_offset", 3, true}, {"wrong_box", 4, true}, {"wrong_thread_pitch", 5, true}, {"wrong_duplicate_await", 6, true},
	} {
		b.Run(row.name, func(b *testing.B) {
			var prog *Program
			checkSourceProgram(b, fmt.Sprintf("three_rings_exo.weft chunk %d", row.chunk), chunks[row.chunk-1], func(p *Program) { prog = p })
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				res := amir.New(prog.AMIR, amir.Config{}).Run([]int{1})
				if (res.Distinct > 0) != row.bug || len(res.Faults) > 0 {
					b.Fatalf("hazards: %d, faults %v", res.Distinct, res.Faults)
				}
			}
		})
	}
}
