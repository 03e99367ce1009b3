package amir_test

import (
	"fmt"
	"math/rand"
	"regexp"
	"strings"
	"testing"

	"weft.dev/weft/lang/weft/amir"
)

// TestRoundSkipCondMatchesPlain checks the whole-round skip of a loop
// whose body has conditions on its iterator (issue 13, stop 38: ring38;
// round_skip.go's roundStatic1 and roundSkip): random three-ring programs
// whose A role runs one body while a condition on n holds and another
// after (ringsVariant's `if n == 0` made `n == c`, `n < c`, `n >= c` or
// `c <= n`, c anywhere in the rounds or past them: a condition that
// changes after the rounds start repeating must stop the skip), some with
// a condition on n and a thread iterator inside the thread loop (never
// skipped: its value is not a function of n alone), give the same
// diagnostics, counters and --redundant-sync answers with the skip and
// without.
func TestRoundSkipCondMatchesPlain(t *testing.T) {
	t.Cleanup(func() { amir.RoundSkip(true) })
	dir := t.TempDir()
	rng := rand.New(rand.NewSource(3838))
	var cs []mbarChunk
	for len(cs) < 240 {
		src, args := ringsVariant(rng)
		if !strings.Contains(src, "if n == 0:\n") {
			continue
		}
		src = condVariant(rng, src)
		if rng.Intn(3) == 0 {
			src = clockVariant(rng, src)
		}
		cs = append(cs, writeChunk(t, dir, fmt.Sprintf("cond%d.weft", len(cs)), src, args))
	}
	skipped, programs, rejects := int64(0), 0, 0
	for i, c := range cs {
		flags := [][]string{{"--json"}, {"--sync-stats"}}
		if i%4 == 0 {
			flags = append(flags, []string{"--redundant-sync"})
		}
		for _, f := range flags {
			before := amir.RoundSkip(true)
			fast := c.check(f...)
			n := amir.RoundSkip(false) - before
			plain := c.check(f...)
			if fast != plain {
				t.Fatalf("%s %v %v: with the skip (%d rounds):\n%s\nwithout:\n%s", c.path, c.args, f, n, fast, plain)
			}
			if f[0] == "--json" {
				skipped += n
				if n > 0 {
					programs++
				}
				if strings.Contains(plain, "W06") {
					rejects++
				}
			}
		}
	}
	t.Logf("%d programs (%d with W06xx): %d rounds skipped in %d of them", len(cs), rejects, skipped, programs)
	if skipped < 200 || programs < 40 || rejects < 40 {
		t.Fatalf("weak coverage: %d rounds skipped in %d programs, %d with W06xx", skipped, programs, rejects)
	}
}

// awaitCtoA is the A role's Await line (its indentation captured).
var awaitCtoA = regexp.MustCompile(`(?m)^( *)Await\(CtoA\[tid, n\], cuda_in_order, 0\)\n`)

// condVariant rewrites ringsVariant's `if n == 0:` into another condition
// on n (above) and, in a quarter of the programs, adds a Fence under a
// condition on n and tid before A's first Await.
func condVariant(rng *rand.Rand, src string) string {
	rounds := 0
	if loc := roundsRe.FindStringSubmatch(src); loc != nil {
		fmt.Sscanf(loc[1], "%d", &rounds)
	}
	c := rng.Intn(rounds + 3)
	cond := []string{"n == %d", "n < %d", "n >= %d", "%d <= n"}[rng.Intn(4)]
	src = strings.Replace(src, "if n == 0:\n", "if "+fmt.Sprintf(cond, c)+":\n", 1)
	if rng.Intn(4) == 0 {
		if loc := awaitCtoA.FindStringSubmatchIndex(src); loc != nil {
			ind := src[loc[2]:loc[3]]
			// (tid's multiple past the rounds: the condition holds
			// in one round for thread 0 only.)
			src = src[:loc[0]] + fmt.Sprintf("%sif n + %d * tid == %d:\n%s    Fence(cuda_in_order, cuda_in_order)\n", ind, rounds+3, rng.Intn(rounds+2), ind) + src[loc[0]:]
		}
	}
	return src
}
