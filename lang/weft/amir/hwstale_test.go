package amir_test

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"weft.dev/weft/lang/weft/amir"
	_ "weft.dev/weft/lang/weft/driver"
)

// TestHWStaleMatchesReplayed: hwOrder and hwAwaitOrder passing a check on
// the slot records as they stand, without replaying them first
// (hwStaleOK, stop 29, issue 13), gives the same `weft check --json`
// output as replaying every record to now before each check, on every
// chunk of the sync checker's mbarrier and TMA testdata (correct programs
// and the reference's bug variants) and of the examples that use
// mbarriers, at the sizes their `# check:` lines give. The random
// programs of TestHWStaleRandom cover the lag rings and expansions.
func TestHWStaleMatchesReplayed(t *testing.T) {
	defer amir.HWNoStale(false)
	// The ordered-after clocks (stop 30) pass most of these checks before
	// hwStaleOK is asked: off here, so that it is (TestHWClock* compare
	// the clocks).
	amir.HWNoClock(true)
	defer amir.HWNoClock(false)
	chunks := 0
	var h hwTally
	for _, c := range mbarChunks(t) {
		h.fastVsPlain(t, c, amir.HWNoStale, fmt.Sprintf("%s chunk %d", c.src, c.i), "stale checks", "replayed")
		chunks++
	}
	hits, rejects := h.hits, h.w0609
	t.Logf("%d chunks (%d with W0609), %d checks passed unreplayed", chunks, rejects, hits)
	if chunks < 20 || hits < 1000 || rejects < 5 {
		t.Fatalf("weak coverage: %d chunks, %d with W0609, %d checks passed unreplayed", chunks, rejects, hits)
	}
}

// TestHWStaleRingsRandom: as TestHWStaleMatchesReplayed, on generated
// variants of the three-ring pipeline of ring-buffered mbarrier arrays
// (syncheck testdata three_rings_ringbuf.weft's form): ring depths, pre-
// arrive counts and arrive offsets (matched or not), the warps of C's
// Await and Arrive, A's thread unit, a takeover of A's awaits after the
// first round, the round and task counts.
func TestHWStaleRingsRandom(t *testing.T) {
	defer amir.HWNoStale(false)
	amir.HWNoClock(true) // as in TestHWStaleMatchesReplayed
	defer amir.HWNoClock(false)
	dir := t.TempDir()
	rng := rand.New(rand.NewSource(29))
	var h hwTally
	for i := 0; i < 150; i++ {
		src, args := ringsVariant(rng)
		c := writeChunk(t, dir, fmt.Sprintf("rings%d.weft", i), src, args)
		if _, ok := h.fastVsPlain(t, c, amir.HWNoStale, fmt.Sprintf("variant %d", i), "stale checks", "replayed"); !ok {
			t.FailNow()
		}
	}
	hits, rejects, accepts := h.hits, h.w0609, h.clean
	t.Logf("150 variants: %d with W0609, %d without errors, %d checks passed unreplayed", rejects, accepts, hits)
	if rejects < 30 || accepts < 10 || hits < 2000 {
		t.Fatalf("weak coverage: %d with W0609, %d without errors, %d checks passed unreplayed", rejects, accepts, hits)
	}
}

func ringsVariant(rng *rand.Rand) (string, []string) {
	pick := func(xs ...string) string { return xs[rng.Intn(len(xs))] }
	pre := [3]int{1 + rng.Intn(3), 1 + rng.Intn(3), 1 + rng.Intn(3)} // AtoB, BtoC, CtoA
	depth := pre[0] + pre[1] + pre[2]
	if rng.Intn(3) == 0 {
		depth = 2 + rng.Intn(6)
	}
	off := pre
	if rng.Intn(4) == 0 {
		off[rng.Intn(3)] = 1 + rng.Intn(3) // an offset that may not match
	}
	rounds := 2*depth + rng.Intn(3*depth)
	cAwait, cArrive := "2, 4", "2, 4"
	if rng.Intn(4) == 0 {
		cAwait = pick("0, 2", "2, 3", "1, 3", "0, 4")
	}
	if rng.Intn(4) == 0 {
		cArrive = pick("0, 2", "2, 3", "3, 4")
	}
	aUnit := pick("cuda_thread", "cuda_thread", "cuda_thread", "cuda_warp")
	aWarps := 2
	if aUnit == "cuda_warp" {
		aWarps = 4
	}
	var b strings.Builder
	fmt.Fprintf(&b, "my_warps = [CudaWarpConfig(\"A\", %d), CudaWarpConfig(\"B\", 2), CudaWarpConfig(\"C\", 8)]\n\n\n", aWarps)
	b.WriteString("@proc\ndef three_rings(T: size):\n    with CudaDeviceFunction(warp_config=my_warps):\n        for task in cuda_tasks(0, T):\n")
	for k, name := range []string{"AtoB", "BtoC", "CtoA"} {
		fmt.Fprintf(&b, "            %s: barrier[2, %d @ ring_buffer_by(%d)] @ CudaMbarrierPreArrive(%d)\n", name, rounds+pre[k], depth, pre[k])
	}
	fmt.Fprintf(&b, "            for n in seq(0, %d):\n", rounds)
	fmt.Fprintf(&b, "                with CudaWarps(name=\"B\"):\n                    for w in cuda_threads(0, 2, unit=cuda_warp):\n")
	fmt.Fprintf(&b, "                        Await(AtoB[w, n], cuda_in_order, 0)\n                        Arrive(cuda_in_order, 1) >> BtoC[w, n + %d]\n", off[1])
	fmt.Fprintf(&b, "                with CudaWarps(name=\"C\"):\n                    for wg in cuda_threads(0, 2, unit=cuda_warpgroup):\n")
	fmt.Fprintf(&b, "                        with CudaWarps(%s):\n                            Await(BtoC[wg, n], cuda_in_order, 0)\n", cAwait)
	fmt.Fprintf(&b, "                    for wg in cuda_threads(0, 2, unit=cuda_warpgroup):\n")
	fmt.Fprintf(&b, "                        with CudaWarps(%s):\n                            Arrive(cuda_in_order, 1) >> CtoA[wg, n + %d]\n", cArrive, off[2])
	b.WriteString("                with CudaWarps(name=\"A\"):\n")
	body := func(ind string) {
		fmt.Fprintf(&b, "%sfor tid in cuda_threads(0, 2, unit=%s):\n", ind, aUnit)
		fmt.Fprintf(&b, "%s    Await(CtoA[tid, n], cuda_in_order, 0)\n%s    Arrive(cuda_in_order, 1) >> AtoB[tid, n + %d]\n", ind, ind, off[0])
	}
	if rng.Intn(5) == 0 {
		b.WriteString("                    if n == 0:\n")
		body("                        ")
		b.WriteString("                    else:\n")
		if aUnit == "cuda_thread" {
			b.WriteString("                        with CudaWarps(1, 2):\n")
		} else {
			b.WriteString("                        with CudaWarps(2, 4):\n")
		}
		body("                            ")
	} else {
		body("                    ")
	}
	return b.String(), []string{fmt.Sprintf("T=%d", 1+rng.Intn(2))}
}
