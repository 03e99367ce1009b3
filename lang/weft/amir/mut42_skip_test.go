package amir_test

import (
	"os"
	"strings"
	"testing"

	"weft.dev/weft/lang/weft/amir"
)

// mut42Guard kills stop 40's surviving mutant of the whole-round skip
// (round_skip.go, roundSkipAt): the comparison of two digests without its
// guard `lo - d >= from` (issue 13, stop 42; docs/weft-sync.md "Stop 42:
// the surviving mutants").
//
// The guard matters only when the round that ends breaks the run of
// repeats (from = its start) and every Await record kept was born in it
// (lo >= from), with a digest taken at the mark before. Here B awaits two
// phases of the one mbarrier of Z in every round (Z[n] and Z[n + 3], a
// ring of one), so both phase lists hold only records of the round, and
// the window lies in it; Z[0..2] are arrived before the loop so that no
// round's window reaches back. Round 4 ends with a Fence of the CTA, the
// others with a Fence of warp A only (one event either way: the digests
// of the states at the ends of rounds 4 and 5 are equal, the rounds are
// not). A's Arrive on Z[n + 3] must be ordered after B's Await of Z[n + 2]
// in round n - 1: it is after round 4 (its Fence) and after no other, so
// rule 4 fails in rounds 1-4 and 6-11 (10 occurrences of each of (a) and
// (b)). On main the break at round 4 and again at round 5 keeps the skip
// from comparing until the end of round 6 (template round 6, whose check
// fails as the later ones do): 5 rounds skipped. Without the guard the
// end of round 5 is compared with the end of round 4 (equal digests, yet
// round 5's records replay over a window without the CTA Fence that round
// 4's had), round 5 becomes the template and the rounds after it pass
// with it: 4 occurrences, 6 rounds skipped.
var mut42Guard = `my_warps = [CudaWarpConfig("A", 1), CudaWarpConfig("B", 1)]


@proc
def guard(T: size):
    with CudaDeviceFunction(warp_config=my_warps):
        for task in cuda_tasks(0, T):
            Z: barrier[16 @ ring_buffer_by(1)] @ CudaMbarrier
            with CudaWarps(name="A"):
                Arrive(cuda_in_order, 1) >> Z[0]
                Arrive(cuda_in_order, 1) >> Z[1]
                Arrive(cuda_in_order, 1) >> Z[2]
            for n in seq(0, 12):
                with CudaWarps(name="A"):
                    Arrive(cuda_in_order, 1) >> Z[n + 3]
                with CudaWarps(name="B"):
                    Await(Z[n], cuda_in_order, 0)
                    Await(Z[n + 3], cuda_in_order, 0)
                if n == 4:
                    Fence(cuda_in_order, cuda_in_order)
                else:
                    with CudaWarps(name="A"):
                        Fence(cuda_in_order, cuda_in_order)
`

// TestMut42RoundSkipGuard: mut42Guard's `weft check` (--json and
// --sync-stats) with the skip and without at T=1 and T=2; both report the
// 10 occurrences, and the skip is taken (5 rounds, in the first task
// only at T=2). MUT42_SHOW=1
// logs the outputs.
func TestMut42RoundSkipGuard(t *testing.T) {
	t.Cleanup(func() { amir.RoundSkip(true) })
	c := writeChunk(t, t.TempDir(), "guard.weft", mut42Guard, nil)
	for _, T := range []string{"T=1", "T=2"} {
		c.args = []string{T}
		for _, f := range []string{"--json", "--sync-stats"} {
			before := amir.RoundSkip(true)
			fast := c.check(f)
			n := amir.RoundSkip(false) - before
			plain := c.check(f)
			if fast != plain {
				t.Errorf("%s %s: with the skip (%d rounds):\n%s\nwithout:\n%s", T, f, n, fast, plain)
			}
			if n != 5 {
				t.Errorf("%s %s: %d rounds skipped, want 5", T, f, n)
			}
			if f == "--json" && strings.Count(plain, "(10 occurrences)") != 2 {
				t.Errorf("%s: want rule 4's (a) and (b) at 10 occurrences each in:\n%s", T, plain)
			}
			if os.Getenv("MUT42_SHOW") != "" {
				t.Logf("%s %s: %d rounds skipped\n%s", T, f, n, plain)
			}
		}
	}
}
