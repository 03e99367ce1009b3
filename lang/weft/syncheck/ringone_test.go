package syncheck

import (
	"strings"
	"testing"

	"weft.dev/weft/lang/weft/amir"
)

// ringOneSrc hands one buffer per warp from producer to consumer warps
// through a ring-buffered barrier array whose ring dimension has extent 1
// (full[w, 0]: one logical barrier, and so one hardware mbarrier, per
// warp). Both of the array's dimensions have stride 1, so the slot of
// full[1, 0] is found only if amir's oneShotSlot clears the remainder
// after the first stride-1 dimension: rev31's mutant X0 (ring31's
// division-free slot, 3228dbd) maps it to logical barrier 1, phase 1, and
// reports phase aliasing on a correct program.
const ringOneSrc = `my_warps = [CudaWarpConfig("P", 2), CudaWarpConfig("C", 2)]


@proc
def ring_one(T: size, X: f32[T, 2, 32] @ CudaGmemLinear):
    with CudaDeviceFunction(warp_config=my_warps):
        for task in cuda_tasks(0, T):
            s: f32[2, 32] @ CudaSmemLinear
            full: barrier[2, 1 @ ring_buffer_by(1)] @ CudaMbarrier
            with CudaWarps(name="P"):
                for w in cuda_threads(0, 2, unit=cuda_warp):
                    for t in cuda_threads(0, 32, unit=cuda_thread):
                        s[w, t] = X[task, w, t]
                    Arrive(cuda_in_order, 1) >> full[w, 0]
            with CudaWarps(name="C"):
                for w in cuda_threads(0, 2, unit=cuda_warp):
                    Await(full[w, 0], cuda_in_order, 0)
                    for t in cuda_threads(0, 32, unit=cuda_thread):
                        X[task, w, t] = s[w, t] + 1.0
            Fence(cuda_in_order, cuda_temporal)
`

// TestRingExtentOne: the program is accepted (no hazard, no fault) at
// T = 1 and 2, and without its Await (the consumer reads s unordered
// after the producer's write) it is not.
func TestRingExtentOne(t *testing.T) {
	for _, await := range []bool{true, false} {
		text := ringOneSrc
		if !await {
			line := "                    Await(full[w, 0], cuda_in_order, 0)\n"
			if strings.Count(text, line) != 1 {
				t.Fatal("the Await line is not in the program once")
			}
			text = strings.Replace(text, line, "", 1)
		}
		var prog *Program
		checkSourceProgram(t, "ring_one.weft", text, func(p *Program) { prog = p })
		for _, T := range []int{1, 2} {
			r := amir.New(prog.AMIR, amir.Config{MaxHazards: 10}).Run([]int{T})
			ok := r.OK() && r.Distinct == 0 && len(r.Faults) == 0
			if ok != await {
				t.Fatalf("await %v, T=%d: ok %v (%d hazards, %d faults: %+v)", await, T, ok, r.Distinct, len(r.Faults), r.Faults)
			}
		}
	}
}
