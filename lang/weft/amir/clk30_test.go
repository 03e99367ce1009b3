package amir_test

import (
	"fmt"
	"math/rand"
	"os"
	"strings"
	"testing"

	"weft.dev/weft/lang/weft/amir"
)

// C6off (clkCheck's "row[ks[i]] >= bs[i]" as ">= bs[i]-1") cannot
// change an output, by this argument: a clock value is always some
// column K's birth (births set the rows; Fences, Arrive entries and
// Awaits only join values already there). A row holding b-1 for a record
// of K born at b means K's Awaits were born at b-1 and b, consecutive log
// positions, so no event lies between them: from b on, rho(u, b-1) and
// rho(u, b) have the same creator, no grants beyond it and no counts,
// and every later event changes both alike (mbar_clock.go's "replay only
// adds"), so a thread sees one exactly when it sees the other, and the
// replay agrees with the mutant's pass. The other direction (">") only
// passes less, and a check the clocks do not pass replays.
//
// C4 (clkRecCols accepting template records): a probe printing every
// template record reaching clkRecCols never fired on this file's
// generators (T=1, 2, 3) nor on TestHWClockMatchesReplayed's chunks:
// templates are made by hwSettle (hwNextTask, hwCarryOver) with born =
// the settle's log position, and the clocks restart at the next task's
// first birth, so such a record is normally born before c.start. Not
// killed, not proved.
//
// C13 (the memo's split invalidation dropped): killed by clk30C13 below
// (not by this file's generators nor TestMut30ClockRingsSeeds).

// countVariant rewrites a ringsVariant program's Await counts (the third
// argument, the Max that mbar_clock.go's Await step compares the cells'
// entries against) and Arrive counts at random, one statement at a time,
// so that the clocks' count test (docs/weft-sync.md mut30, C3) meets
// entries with a count just above, at and below an Await's Max.
func countVariant(rng *rand.Rand, src string) string {
	var b strings.Builder
	for _, ln := range strings.SplitAfter(src, "\n") {
		switch {
		case strings.Contains(ln, "Await(") && strings.Contains(ln, "cuda_in_order, 0)"):
			ln = strings.Replace(ln, "cuda_in_order, 0)", fmt.Sprintf("cuda_in_order, %d)", rng.Intn(3)), 1)
		case strings.Contains(ln, "Arrive(cuda_in_order, 1)"):
			ln = strings.Replace(ln, "Arrive(cuda_in_order, 1)", fmt.Sprintf("Arrive(cuda_in_order, %d)", 1+rng.Intn(2)), 1)
		}
		b.WriteString(ln)
	}
	return b.String()
}

// TestClk30Counts (stop 30, clk30): `weft check --json` with and without
// the ordered-after clocks on ringsVariant programs with other Await and
// Arrive counts (countVariant). CLK30_N sets the variants (default 80).
func TestClk30Counts(t *testing.T) {
	hwOnAfter(t)
	n := amir.EnvCount("CLK30_N", 80)
	dir := t.TempDir()
	rng := rand.New(rand.NewSource(3030))
	var h hwTally
	for i := 0; i < n; i++ {
		src, args := ringsVariant(rng)
		if tt := os.Getenv("CLK30_T"); tt != "" {
			args = []string{"T=" + tt}
		}
		src = countVariant(rng, src)
		if i%2 == 0 {
			src = clockVariant(rng, src)
		}
		c := writeChunk(t, dir, fmt.Sprintf("c%d.weft", i), src, args)
		if _, ok := h.fastVsPlain(t, c, amir.HWNoClock, fmt.Sprintf("variant %d", i), "with clocks", "without"); !ok {
			t.FailNow()
		}
	}
	hits := h.hits
	t.Logf("%d variants, %d checks answered by the clocks", n, hits)
	if hits == 0 {
		t.Fatal("weak coverage: no check answered by the clocks")
	}
}

// clk30Src is a focused program of clk30 (warps A and B, w warps each):
// in each task, the barriers that decls declares, then 8 rounds n of B's
// statements (b) and A's (a); each line of decls, b and a is indented
// to its place.
func clk30Src(name string, w int, decls, b, a string) string {
	var s strings.Builder
	fmt.Fprintf(&s, "my_warps = [CudaWarpConfig(\"A\", %d), CudaWarpConfig(\"B\", %d)]\n\n\n", w, w)
	fmt.Fprintf(&s, "@proc\ndef %s(T: size):\n    with CudaDeviceFunction(warp_config=my_warps):\n        for task in cuda_tasks(0, T):\n", name)
	lines := func(ind, text string) {
		for _, ln := range strings.Split(text, "\n") {
			s.WriteString(ind + ln + "\n")
		}
	}
	lines("            ", decls)
	s.WriteString("            for n in seq(0, 8):\n                with CudaWarps(name=\"B\"):\n")
	lines("                    ", b)
	s.WriteString("                with CudaWarps(name=\"A\"):\n")
	lines("                    ", a)
	return s.String()
}

// clk30C7 (stop 30, clk30, aimed at mutant C7, which it does NOT kill):
// A's threads 0 and 1 fence together (one clocks atom), only thread 0
// awaits BtoA (B's arrive after both warps' Awaits of AtoB), and both
// arrive on AtoB[tid, n + 1]: thread 1 is ordered after nothing, W0609.
// The Await by thread 0 alone names all but one thread of the atom; C7
// (no split then) was expected to let thread 1 share thread 0's row, yet
// the output is the same under C7: a probe in clkAtomsScan's no-split
// branch never fires here, since the pair's Fence has nothing to grant
// (mbar_clock.go returns before clkGrant when no upper bound is set), so
// it names no atom {0, 1}. A killing program needs an event that grants
// something to a set of threads and then one naming all but one of
// them. Kept as a focused clocks-on == clocks-off program.
var clk30C7 = clk30Src("c7", 2,
	`AtoB: barrier[2, 9 @ ring_buffer_by(2)] @ CudaMbarrierPreArrive(1)
BtoA: barrier[9 @ ring_buffer_by(2)] @ CudaMbarrierPreArrive(1)`,
	`for w in cuda_threads(0, 2, unit=cuda_warp):
    Await(AtoB[w, n], cuda_in_order, 0)
Arrive(cuda_in_order, 1) >> BtoA[n + 1]`,
	`for tid in cuda_threads(0, 2, unit=cuda_thread):
    Fence(cuda_in_order, cuda_in_order)
for tid in cuda_threads(0, 1, unit=cuda_thread):
    Await(BtoA[n], cuda_in_order, 0)
for tid in cuda_threads(0, 2, unit=cuda_thread):
    Arrive(cuda_in_order, 1) >> AtoB[tid, n + 1]`)

// clk30Split is C7b's and C7c's form (w warps each): B arrives on G[n],
// awaits AtoB[i, n] for each of its n units of bUnit, and arrives on
// BtoA[n]; A awaits G[n] (aG: together), then its first k threads each
// await BtoA[n], and each of its n threads arrives on AtoB[tid, n + 1],
// a ring of one.
func clk30Split(name string, w, n int, bUnit, aG string, k int) string {
	return clk30Src(name, w,
		fmt.Sprintf("AtoB: barrier[%d, 9 @ ring_buffer_by(1)] @ CudaMbarrierPreArrive(1)\nBtoA: barrier[8 @ ring_buffer_by(2)] @ CudaMbarrier\nG: barrier[8 @ ring_buffer_by(2)] @ CudaMbarrier", n),
		fmt.Sprintf("Arrive(cuda_in_order, 1) >> G[n]\nfor w in cuda_threads(0, %d, unit=%s):\n    Await(AtoB[w, n], cuda_in_order, 0)\nArrive(cuda_in_order, 1) >> BtoA[n]", n, bUnit),
		fmt.Sprintf("%s\nfor tid in cuda_threads(0, %d, unit=cuda_thread):\n    Await(BtoA[n], cuda_in_order, 0)\nfor tid in cuda_threads(0, %d, unit=cuda_thread):\n    Arrive(cuda_in_order, 1) >> AtoB[tid, n + 1]", aG, k, n))
}

// clk30C7b (stop 30, clk30, mutant C7): A's threads 0 and 1 await G[n]
// together (B arrives on it before its Awaits of round n), which gives
// the clocks an atom {0, 1} holding B's round n-1 Awaits; then thread 0
// alone awaits BtoA[n] (B arrives after its round n Awaits), and both
// arrive on AtoB[tid, n + 1], a ring of one: thread 1 is not ordered
// after B's round n Await of AtoB[1, n], W0609. Thread 0's Await names
// all but one thread of the atom: under C7 it is not split and thread 1
// shares thread 0's row, so the clocks pass thread 1's Arrive.
var clk30C7b = clk30Split("c7b", 2, 2, "cuda_warp", `for tid in cuda_threads(0, 2, unit=cuda_thread):
    Await(G[n], cuda_in_order, 0)`, 1)

// clk30C7c (stop 30, clk30, mutant C7): warp A awaits G[n] (B arrives
// on it before its round n Awaits), one clocks atom of 32 threads; then
// threads 0..30 each await BtoA[n] (B arrives after its round n Awaits),
// one-thread events that split the atom a thread at a time, the last
// naming thread 30 of the atom {30, 31}, all but one thread of it. Each
// thread then arrives on AtoB[tid, n + 1], a ring of one: thread 31 is
// not ordered after B's thread 31's Await of AtoB[31, n], W0609. Under C7
// the atom {30, 31} is not split and thread 31 shares thread 30's row.
var clk30C7c = clk30Split("c7c", 1, 32, "cuda_thread", `Await(G[n], cuda_in_order, 0)`, 31)

// clk30C13 (stop 30, clk30, mutant C13): warp A's Await of G[n] caches
// the warp's atoms (one atom a1 of 32 threads); thread 0 alone awaits
// H[n] (split off: a new atom, a1 = threads 1..31), then threads 1..31
// each await BtoA[n] (B arrives after its Await of Z[n]), the last
// naming what is left of a1, so a1 is ordered and thread 0 is not; the
// warp then arrives on Z[n + 1], a ring of one: thread 0 is not ordered
// after B's Await of Z[n], W0609. Without the memo's split invalidation
// the warp's cached atoms are [a1] and the clocks pass the Arrive.
var clk30C13 = clk30Src("c13", 1,
	`Z: barrier[9 @ ring_buffer_by(1)] @ CudaMbarrierPreArrive(1)
BtoA: barrier[8 @ ring_buffer_by(2)] @ CudaMbarrier
G: barrier[8 @ ring_buffer_by(2)] @ CudaMbarrier
H: barrier[8 @ ring_buffer_by(2)] @ CudaMbarrier`,
	`Arrive(cuda_in_order, 1) >> G[n]
Arrive(cuda_in_order, 1) >> H[n]
Await(Z[n], cuda_in_order, 0)
Arrive(cuda_in_order, 1) >> BtoA[n]`,
	`Await(G[n], cuda_in_order, 0)
for tid in cuda_threads(0, 1, unit=cuda_thread):
    Await(H[n], cuda_in_order, 0)
for tid in cuda_threads(0, 32, unit=cuda_thread):
    if tid > 0:
        Await(BtoA[n], cuda_in_order, 0)
Arrive(cuda_in_order, 1) >> Z[n + 1]`)

// TestClk30Focused: focused programs' `weft check --json` with and
// without the clocks; each must report the named hazard either way.
func TestClk30Focused(t *testing.T) {
	clockCases(t, "", []clockCase{
		{"C7", clk30C7, "no thread of this Arrive (thread 1 of task [task=0]) on AtoB[1, 3]"},
		{"C7c", clk30C7c, "no thread of this Arrive (thread 31 of task [task=0]) on AtoB[31, 2]"},
		{"C13", clk30C13, "thread 0 of task [task=0] arrives on Z[2]"},
		{"C7b", clk30C7b, "no thread of this Arrive (thread 1 of task [task=0]) on AtoB[1, 2]"},
	})
}

// clockCase is a program whose `weft check --json` must contain want.
type clockCase struct{ name, src, want string }

// clockCases checks each case at T=1 and T=2 with and without the
// clocks (the two outputs equal), wants its text in the output, and
// wants some check answered by the clocks. A non-empty showEnv names an
// environment variable that logs the outputs.
func clockCases(t *testing.T, showEnv string, cases []clockCase) {
	t.Helper()
	defer amir.HWNoClock(false)
	dir := t.TempDir()
	for _, c := range cases {
		ch := writeChunk(t, dir, c.name+".weft", c.src, nil)
		for _, T := range []string{"T=1", "T=2"} {
			ch.args = []string{T}
			var h hwTally
			plain, _ := h.fastVsPlain(t, ch, amir.HWNoClock, c.name+" "+T, "with clocks", "without")
			if !strings.Contains(plain, c.want) {
				t.Errorf("%s %s: want %q in:\n%s", c.name, T, c.want, plain)
			}
			if h.hits == 0 {
				t.Errorf("%s %s: no check answered by the clocks", c.name, T)
			}
			if showEnv != "" && os.Getenv(showEnv) != "" {
				t.Logf("%s %s: %d checks answered by the clocks\n%s", c.name, T, h.hits, plain)
			}
		}
	}
}
