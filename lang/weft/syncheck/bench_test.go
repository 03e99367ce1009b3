package syncheck

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"weft.dev/weft/lang/weft/amir"
)

// gemmProgram converts examples/weft/sync/xgemm_Sm80_fence.weft.
func gemmProgram(b testing.TB) *Program { return exampleProgram(b, "xgemm_Sm80_fence.weft") }

func exampleProgram(b testing.TB, name string) *Program {
	src, err := os.ReadFile("../../../examples/weft/sync/" + name)
	if err != nil {
		b.Fatal(err)
	}
	var prog *Program
	checkSourceProgram(b, name, string(src), func(p *Program) { prog = p })
	return prog
}

// BenchmarkSm80GEMM runs the abstract machine over the sm_80 GEMM at the
// seed's sizes (seed 000 Fig. 9: 2 / 16 / 128 s at 1024 / 2048 / 4096 for
// its Python checker) and reports memory operations per second. M, N and
// K are the size; the task loops cover floor(M/192) x floor(N/256) tiles.
func BenchmarkSm80GEMM(b *testing.B) { benchGEMM(b, gemmProgram(b), 256, 512, 1024, 2048, 4096) }

// BenchmarkSm90GEMM is the same for the Hopper TMA + wgmma GEMM
// (xgemm_Sm90_ring.weft), the kind of kernel the seed's figures are for.
func BenchmarkSm90GEMM(b *testing.B) {
	benchGEMM(b, exampleProgram(b, "xgemm_Sm90_ring.weft"), 1024, 2048, 4096)
}

// seedSeconds are the seed's Python checker times for its GEMM on one
// laptop thread (seed 000 Fig. 9): the baseline of the x-seed metric.
var seedSeconds = map[int]float64{1024: 2, 2048: 16, 4096: 128}

func benchGEMM(b *testing.B, prog *Program, sizes ...int) {
	for _, n := range sizes {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			if testing.Short() && n > 1024 {
				b.Skip("-short")
			}
			var ops, executed int64
			start, cpu0 := time.Now(), cpuSeconds()
			for i := 0; i < b.N; i++ {
				res := amir.New(prog.AMIR, amir.Config{}).Run([]int{n, n, n})
				if !res.OK() {
					b.Fatalf("hazards: %d", res.Distinct)
				}
				ops = res.Stats.MemOps
				executed = res.Stats.MemOps - res.Stats.SkippedOps
			}
			secs := time.Since(start).Seconds() / float64(b.N)
			cpu := (cpuSeconds() - cpu0) / float64(b.N)
			b.ReportMetric(float64(ops), "memops")
			b.ReportMetric(float64(ops)/secs/1e6, "Mmemops/s")
			b.ReportMetric(cpu, "cpu-s/op")
			// Memory operations the machine executed (not skipped as
			// task-symmetric), and CPU time per executed operation: the
			// linearity check.
			b.ReportMetric(float64(executed), "exec-memops")
			if executed > 0 {
				b.ReportMetric(cpu*1e9/float64(executed), "cpu-ns/exec-memop")
			}
			if seed, ok := seedSeconds[n]; ok && cpu > 0 {
				b.ReportMetric(seed/cpu, "x-seed")
			}
		})
	}
}

// BenchmarkSm80GEMMOneTask runs one 192 x 256 tile with K = 2048: no task
// symmetry applies, so it measures the per-operation speed of the machine.
func BenchmarkSm80GEMMOneTask(b *testing.B) {
	benchRuns(b, gemmProgram(b), []int{192, 256, 2048}, false)
}

// benchRuns runs the machine over prog b.N times and reports memory
// operations, their rate, CPU time per run and per memory operation.
func benchRuns(b *testing.B, prog *Program, args []int, mustPass bool) {
	var ops int64
	start, cpu0 := time.Now(), cpuSeconds()
	for i := 0; i < b.N; i++ {
		res := amir.New(prog.AMIR, amir.Config{}).Run(args)
		if mustPass && !res.OK() {
			b.Fatalf("hazards: %d, faults %v", res.Distinct, res.Faults)
		}
		ops = res.Stats.MemOps
	}
	secs := time.Since(start).Seconds() / float64(b.N)
	cpu := (cpuSeconds() - cpu0) / float64(b.N)
	b.ReportMetric(float64(ops), "memops")
	b.ReportMetric(float64(ops)/secs/1e6, "Mmemops/s")
	b.ReportMetric(cpu, "cpu-s/op")
	if cpu > 0 && ops > 0 {
		b.ReportMetric(cpu*1e9/float64(ops), "cpu-ns/memop")
	}
}

// BenchmarkFrontEnd is the fixed cost before the machine runs: parsing,
// the static checks, the collective analysis and the AMIR conversion of
// each GEMM (the figures of docs/weft-sync.md add it to the machine's).
func BenchmarkFrontEnd(b *testing.B) {
	for _, name := range []string{"xgemm_Sm80_fence.weft", "xgemm_Sm90_ring.weft"} {
		src, err := os.ReadFile("../../../examples/weft/sync/" + name)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			cpu0 := cpuSeconds()
			for i := 0; i < b.N; i++ {
				checkSourceProgram(b, name, string(src), func(*Program) {})
			}
			b.ReportMetric((cpuSeconds()-cpu0)/float64(b.N), "cpu-s/op")
		})
	}
}

// BenchmarkCommitGroupRing runs examples/weft/sync/cp_async_ring.weft, in
// which every thread owns a cp.async commit-group queue (issue 13, item 4):
// 256 threads with a ring of 6 stages at M = 512, K = 64, and 128 threads
// with a ring of 4 at M = 256, K = 192. It reports memory operations per
// second and CPU time per memory operation, to compare with the GEMMs.
func BenchmarkCommitGroupRing(b *testing.B) {
	src, err := os.ReadFile("../../../examples/weft/sync/cp_async_ring.weft")
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name    string
		t, ring int
		m, k    int
	}{{"T256R6", 256, 6, 512, 64}, {"T128R4", 128, 4, 256, 192}} {
		b.Run(c.name, func(b *testing.B) {
			s := strings.Replace(string(src), "T = 256\nRING = 6\n", fmt.Sprintf("T = %d\nRING = %d\n", c.t, c.ring), 1)
			var prog *Program
			checkSourceProgram(b, "cp_async_ring.weft", s, func(p *Program) { prog = p })
			benchRuns(b, prog, []int{c.m, c.k}, true)
		})
	}
}

// BenchmarkScalarSmemMatmul runs examples/weft/sync/smem_matmul.weft, the
// reference implementation's scalar shared-memory matmul test (issue 13:
// 6.49 s there on one core), at its sizes M = N = 256, K = 96: 256 threads
// per CTA, each accumulating an 8 x 16 block of C in registers from rows
// of the A and B tiles in shared memory.
func BenchmarkScalarSmemMatmul(b *testing.B) {
	benchRuns(b, exampleProgram(b, "smem_matmul.weft"), []int{256, 256, 96}, true)
}
