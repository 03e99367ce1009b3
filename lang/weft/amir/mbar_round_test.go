package amir_test

import (
	"fmt"
	"math/rand"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"weft.dev/weft/lang/weft/amir"
)

// TestClkRoundsMatchFold checks the clocks' repeated rounds (issue 13,
// stop 35, mbar_round.go) against the plain fold of every round: on
// random three-ring programs (ringsVariant, with clockVariant's fences
// and roundVariant's breaks of the repetition), every answer of the
// clocks, in order, and the output are the same with and without them.
func TestClkRoundsMatchFold(t *testing.T) {
	hwOnAfter(t)
	// Every round executed: the whole-round skip (round_skip.go, its own
	// test) would leave the clocks' later rounds out of the comparison.
	amir.RoundSkip(false)
	t.Cleanup(func() {
		amir.HWNoRounds(false, nil, nil, nil)
		amir.HWRoundStates(nil)
		amir.RoundSkip(true)
	})
	dir := t.TempDir()
	rng := rand.New(rand.NewSource(35))
	const variants = 300
	virt, ends, answers, rejects, compared := 0, 0, 0, 0, 0
	for i := 0; i < variants; i++ {
		src, args := ringsVariant(rng)
		src = clockVariant(rng, src)
		src = roundVariant(rng, src)
		c := writeChunk(t, dir, fmt.Sprintf("rounds%d.weft", i), src, args)
		amir.HWNoStale(i%3 == 2)
		var on, off []int
		son, soff := map[uint64]uint64{}, map[uint64]uint64{}
		amir.HWNoRounds(false, &on, &virt, &ends)
		amir.HWRoundStates(son)
		fast := c.checkJSON()
		amir.HWNoRounds(true, &off, new(int), new(int))
		amir.HWRoundStates(soff)
		plain := c.checkJSON()
		// The clocks at each round's start, by run and log position.
		for at, h := range son {
			if hp, ok := soff[at]; ok {
				compared++
				if h != hp {
					t.Fatalf("variant %d:\n%s\nthe clocks at run %d, log position %d differ with the rounds and without", i, src, at>>32, at&(1<<32-1))
				}
			}
		}
		answers += len(off)
		if strings.Contains(plain, "W0609") {
			rejects++
		}
		if fast != plain || !slices.Equal(on, off) {
			t.Fatalf("variant %d:\n%s\nwith the rounds (%d answers):\n%s\nwithout (%d answers):\n%s\nanswers differ at %d", i, src, len(on), fast, len(off), plain, firstDiff(on, off))
		}
	}
	t.Logf("%d variants (%d with W0609): %d answers of the clocks, %d rounds not folded, %d ends of them, %d states compared", variants, rejects, answers, virt, ends, compared)
	if virt < 2000 || ends < 100 || rejects < 50 || answers < 10000 || compared < 5000 {
		t.Fatalf("weak coverage: %d rounds not folded, %d ends, %d with W0609, %d answers", virt, ends, rejects, answers)
	}
}

func firstDiff(a, b []int) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

var roundsRe = regexp.MustCompile(`for n in seq\(0, (\d+)\):\n`)

// roundVariant breaks, at random, the repetition of a ringsVariant
// program's rounds: a Fence of some warps in one round only, from some
// round on, or every third round, at the top or the end of the round; or
// a Fence by C's warps that B's take over from some round on.
func roundVariant(rng *rand.Rand, src string) string {
	loc := roundsRe.FindStringSubmatchIndex(src)
	if loc == nil {
		return src
	}
	rounds, _ := strconv.Atoi(src[loc[2]:loc[3]])
	k := rng.Intn(max(rounds, 1))
	cond := []string{fmt.Sprintf("n == %d", k), fmt.Sprintf("n >= %d", k), "n % 3 == 1", fmt.Sprintf("n == %d or n == %d", k, k+1)}[rng.Intn(4)]
	who := []string{"", "B", "C", "A"}[rng.Intn(4)]
	var b strings.Builder
	if rng.Intn(4) == 0 {
		// From round k on another warp fences: as many events, one
		// of them by other threads.
		fmt.Fprintf(&b, "                if n >= %d:\n                    with CudaWarps(name=\"B\"):\n                        Fence(cuda_in_order, cuda_in_order)\n", k)
		b.WriteString("                else:\n                    with CudaWarps(name=\"C\"):\n                        Fence(cuda_in_order, cuda_in_order)\n")
		return src[:loc[1]] + b.String() + src[loc[1]:]
	}
	fmt.Fprintf(&b, "                if %s:\n", cond)
	ind := "                    "
	if who != "" {
		fmt.Fprintf(&b, "%swith CudaWarps(name=%q):\n", ind, who)
		ind += "    "
	}
	fmt.Fprintf(&b, "%sFence(cuda_in_order, cuda_in_order)\n", ind)
	switch rng.Intn(3) {
	case 0:
		return src
	case 1:
		return src[:loc[1]] + b.String() + src[loc[1]:] // the top of the round
	}
	return strings.TrimRight(src, "\n") + "\n" + b.String() // its end
}
