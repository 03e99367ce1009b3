package amir_test

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"weft.dev/weft/lang/weft/amir"
)

// TestMut30ClockRingsSeeds (stop 30, mut30): TestHWClockRingsRandom's
// comparison of `weft check --json` with and without the ordered-after
// clocks (mbar_clock.go) on other seeds of ringsVariant/clockVariant.
// MUT30_CLOCK_N sets the variants per seed (default 60; the mutant runs
// of docs/weft-sync.md "stop 30: mutants of the new fast paths" used
// 1 000).
func TestMut30ClockRingsSeeds(t *testing.T) {
	hwOnAfter(t)
	n := amir.EnvCount("MUT30_CLOCK_N", 60)
	dir := t.TempDir()
	for _, seed := range []int64{3001, 3002, 3003} {
		rng := rand.New(rand.NewSource(seed))
		var h hwTally
		for i := 0; i < n; i++ {
			src, args := ringsVariant(rng)
			if seed == 3003 {
				src = fenceKindVariant(rng, src)
			} else {
				src = clockVariant(rng, src)
			}
			c := writeChunk(t, dir, fmt.Sprintf("rings%d_%d.weft", seed, i), src, args)
			amir.HWNoStale(i%2 == 1)
			if _, ok := h.fastVsPlain(t, c, amir.HWNoClock, fmt.Sprintf("seed %d variant %d", seed, i), "with clocks", "without"); !ok {
				t.FailNow()
			}
		}
		hits, clean, w0609 := h.hits, h.clean, h.w0609
		t.Logf("seed %d: %d variants, %d with W0609, %d without errors, %d checks passed by the clocks", seed, n, w0609, clean, hits)
		if hits < n || w0609 == 0 || clean == 0 {
			t.Fatalf("seed %d: weak coverage", seed)
		}
	}
}

// fenceKinds are Fences whose first and second timeline sets differ from
// clockVariant's (cuda_in_order both): the clocks follow a Fence only
// when its first set holds the mbarrier's hidden timeline, and grant the
// temporally and fully ordered clocks by its second set's parts.
var fenceKinds = []string{
	"Fence(cuda_in_order, cuda_in_order)",
	"Fence(cuda_classic, cuda_classic)",
	"Fence(cuda_in_order, cuda_classic)",
	"Fence(cuda_classic, cuda_in_order)",
	"Fence(cuda_generic_and_async, cuda_in_order)",
	"Fence(cuda_in_order, cuda_generic_and_async)",
	"Fence(tma_to_smem_async, cuda_in_order)",
	"Fence(cuda_in_order, tma_to_gmem_async)",
}

// fenceKindVariant is clockVariant with a Fence of a random kind (one or
// two of them, by the CTA, B's or C's warps, or B's warps before their
// Awaits).
func fenceKindVariant(rng *rand.Rand, src string) string {
	const top = "            for n in seq(0, "
	for f := 1 + rng.Intn(2); f > 0; f-- {
		i := strings.Index(src, top)
		if i < 0 {
			return src
		}
		j := i + strings.Index(src[i:], "\n") + 1
		fk := fenceKinds[rng.Intn(len(fenceKinds))]
		var fence string
		switch rng.Intn(5) {
		case 4:
			const loop = "unit=cuda_warp):\n"
			k := strings.Index(src, loop)
			if k < 0 {
				return src
			}
			k += len(loop)
			src = src[:k] + "                        " + fk + "\n" + src[k:]
			continue
		case 0:
			fence = "                " + fk + "\n"
		case 1:
			fence = "                if n % 2 == 0:\n                    " + fk + "\n"
		case 2:
			fence = "                with CudaWarps(name=\"B\"):\n                    " + fk + "\n"
		case 3:
			fence = "                with CudaWarps(name=\"C\"):\n                    " + fk + "\n"
		}
		src = src[:j] + fence + src[j:]
	}
	return src
}
