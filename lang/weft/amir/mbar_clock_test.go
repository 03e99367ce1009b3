package amir_test

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"weft.dev/weft/lang/weft/amir"
)

// TestHWClockMatchesReplayed: the ordered-after clocks (mbar_clock.go,
// stop 30) passing rule 4 and rule 6 checks without the records' replay,
// and counting again the ones whose failing parts they show were already
// reported, give the same `weft check --json` output as the checks without them
// (stale records, then the replay), on every chunk of the mbarrier and
// TMA testdata and examples (mbarChunks), and again with hwStaleOK off,
// so that every check the clocks do not pass replays.
func TestHWClockMatchesReplayed(t *testing.T) {
	hwOnAfter(t)
	chunks := 0
	var h, noStale hwTally // hits and W0609 are counted with hwStaleOK on
	for _, c := range mbarChunks(t) {
		amir.HWNoStale(false)
		h.fastVsPlain(t, c, amir.HWNoClock, fmt.Sprintf("%s chunk %d (stale checks off: false)", c.src, c.i), "with clocks", "without")
		amir.HWNoStale(true)
		noStale.fastVsPlain(t, c, amir.HWNoClock, fmt.Sprintf("%s chunk %d (stale checks off: true)", c.src, c.i), "with clocks", "without")
		chunks++
	}
	hits, rejects := h.hits, h.w0609
	t.Logf("%d chunks (%d with W0609), %d checks answered by the clocks", chunks, rejects, hits)
	if chunks < 20 || hits < 500 || rejects < 5 {
		t.Fatalf("weak coverage: %d chunks, %d with W0609, %d checks passed by the clocks", chunks, rejects, hits)
	}
}

// TestHWClockRingsRandom: as TestHWClockMatchesReplayed, on generated
// three-ring pipelines (ringsVariant's ring depths, pre-arrive counts,
// offsets, warps, A's unit and takeover), most also with Fences that
// order the rings' threads other than through the rings, in every round
// or some (clockVariant); every other variant with hwStaleOK off.
func TestHWClockRingsRandom(t *testing.T) {
	hwOnAfter(t)
	dir := t.TempDir()
	rng := rand.New(rand.NewSource(30))
	var h hwTally
	const variants = 400
	for i := 0; i < variants; i++ {
		src, args := ringsVariant(rng)
		src = clockVariant(rng, src)
		c := writeChunk(t, dir, fmt.Sprintf("rings%d.weft", i), src, args)
		amir.HWNoStale(i%2 == 1)
		if _, ok := h.fastVsPlain(t, c, amir.HWNoClock, fmt.Sprintf("variant %d", i), "with clocks", "without"); !ok {
			t.FailNow()
		}
	}
	hits, rejects, accepts := h.hits, h.w0609, h.clean
	t.Logf("%d variants: %d with W0609, %d without errors, %d checks answered by the clocks", variants, rejects, accepts, hits)
	if rejects < 80 || accepts < 20 || hits < 10000 {
		t.Fatalf("weak coverage: %d with W0609, %d without errors, %d checks passed by the clocks", rejects, accepts, hits)
	}
}

// clockVariant adds to a ringsVariant program, at random, synchronization
// that orders (or fails to order) the rings' threads other than through
// the rings: a Fence of the whole CTA or of B's warps at the top of every
// round or of the even rounds only, or B's Await and Arrive on their own
// (no change).
func clockVariant(rng *rand.Rand, src string) string {
	const top = "            for n in seq(0, "
	i := strings.Index(src, top)
	if i < 0 {
		return src
	}
	j := i + strings.Index(src[i:], "\n") + 1
	var fence string
	switch rng.Intn(6) {
	case 4:
		// Each of B's warps fences on its own before its Await.
		const loop = "unit=cuda_warp):\n"
		k := strings.Index(src, loop)
		if k < 0 {
			return src
		}
		k += len(loop)
		return src[:k] + "                        Fence(cuda_in_order, cuda_in_order)\n" + src[k:]
	case 0:
		fence = "                Fence(cuda_in_order, cuda_in_order)\n"
	case 1:
		fence = "                if n % 2 == 0:\n                    Fence(cuda_in_order, cuda_in_order)\n"
	case 2:
		fence = "                with CudaWarps(name=\"B\"):\n                    Fence(cuda_in_order, cuda_in_order)\n"
	case 3:
		fence = "                with CudaWarps(name=\"C\"):\n                    Fence(cuda_in_order, cuda_in_order)\n"
	default:
		return src
	}
	return src[:j] + fence + src[j:]
}
