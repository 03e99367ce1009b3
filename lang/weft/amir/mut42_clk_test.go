package amir_test

import "testing"

// Killers of the ordered-after clocks' mutants that rev31 left alive
// (issue 13, stop 42; docs/weft-sync.md "Stop 42: the surviving
// mutants"). Each program is checked with and without the clocks
// (fastVsPlain, as TestClk30Focused); each passes on main and fails on
// its mutant, applied by hand to mbar_clock.go:
//
//   - M23: clkAtoms' `me.gen == c.gen` fast test made always (the cached
//     atoms of a thread set kept after one of them was split);
//   - R1: clkEvent's Await granting from the latest cell entry with a
//     count <= Max only (the older entries not joined).

// mut42M23 (M23): warp A's Await of G[n] names the whole of A (two
// warps: one clocks atom a1 of 64 threads, its atom list cached); warp 0
// alone awaits H[n] (a1 is split: warp 0 a new atom, a1 = warp 1); warp 1
// alone awaits BtoA[n] (B arrives on it after its Await of Z[n]): a1 is
// ordered after B's Await and warp 0 is not; A then arrives on Z[n + 1],
// a ring of one, and thread 0 is not ordered after B's Await of Z[n]
// (W0609, once per round after the first). Under M23 the Arrive's check
// reads A's cached list [a1], which after the split holds warp 1 only:
// the clocks pass it and the occurrences of later rounds are lost (1
// instead of 7). clk30C13 aims at the same mutant with one-thread events
// that evict the set's cache entry before the check (it no longer kills
// it since the cache became two-way, stop 32).
var mut42M23 = clk30Src("m23", 2,
	`Z: barrier[9 @ ring_buffer_by(1)] @ CudaMbarrierPreArrive(1)
BtoA: barrier[8 @ ring_buffer_by(2)] @ CudaMbarrier
G: barrier[8 @ ring_buffer_by(2)] @ CudaMbarrier
H: barrier[8 @ ring_buffer_by(2)] @ CudaMbarrier`,
	`Arrive(cuda_in_order, 1) >> G[n]
Arrive(cuda_in_order, 1) >> H[n]
Await(Z[n], cuda_in_order, 0)
Arrive(cuda_in_order, 1) >> BtoA[n]`,
	`Await(G[n], cuda_in_order, 0)
for w in cuda_threads(0, 1, unit=cuda_warp):
    Await(H[n], cuda_in_order, 0)
for w in cuda_threads(0, 2, unit=cuda_warp):
    if w == 1:
        Await(BtoA[n], cuda_in_order, 0)
Arrive(cuda_in_order, 1) >> Z[n + 1]`)

// mut42R1 (R1): P is a plain mbarrier (one cell) that two collectives
// arrive on in every round: B, then C. In odd rounds B arrives after its
// Await of Z[n], so its entry on P carries B's Await (J_A, J_B); C's
// entry after it carries only older births (C awaited P at the top of
// the round, before B's arrival). A awaits P (count 0: every arrival so
// far) and arrives on Z[n + 1], a ring of one: ordered after B's Await
// through B's entry, the older one. In even rounds B arrives before its
// Await, and A's Arrive is not ordered after it (W0609, the same keys,
// so the replay's report of round 2 is counted again by clkDup in later
// even rounds). Under R1 A's Await is granted C's entry only: in odd
// rounds the clocks' upper bound uA of A misses B's Await, clkDup claims
// the failures already reported and counts them again (6 occurrences
// instead of 3). P's own reports (A and B and C are not ordered on its
// phases) are the same either way.
var mut42R1 = `my_warps = [CudaWarpConfig("A", 1), CudaWarpConfig("B", 1), CudaWarpConfig("C", 1)]


@proc
def r1(T: size):
    with CudaDeviceFunction(warp_config=my_warps):
        for task in cuda_tasks(0, T):
            Z: barrier[9 @ ring_buffer_by(1)] @ CudaMbarrierPreArrive(1)
            P: barrier @ CudaMbarrier
            for n in seq(0, 8):
                with CudaWarps(name="C"):
                    Await(P, cuda_in_order, 0)
                with CudaWarps(name="B"):
                    if n % 2 == 0:
                        Arrive(cuda_in_order, 1) >> P
                    Await(Z[n], cuda_in_order, 0)
                    if n % 2 == 1:
                        Arrive(cuda_in_order, 1) >> P
                with CudaWarps(name="C"):
                    Arrive(cuda_in_order, 1) >> P
                with CudaWarps(name="A"):
                    Await(P, cuda_in_order, 0)
                    Arrive(cuda_in_order, 1) >> Z[n + 1]
`

// TestMut42Clocks: the programs above, `weft check --json` with and
// without the clocks at T=1 and T=2; each must report its hazard, and
// the clocks must answer some of its checks. MUT42_SHOW=1 logs the
// outputs.
func TestMut42Clocks(t *testing.T) {
	clockCases(t, "MUT42_SHOW", []clockCase{
		{"M23", mut42M23, "thread 0 of task [task=0] arrives on Z[2]"},
		{"R1", mut42R1, "thread 0 of task [task=0] arrives on Z[3]"},
	})
}
