package amir_test

import (
	"bytes"
	"fmt"
	"math/rand"
	"regexp"
	"strings"
	"testing"

	"weft.dev/weft/frontend"
	"weft.dev/weft/lang/weft/amir"
)

// TestRoundSkipMatchesPlain checks the whole-round skip (issue 13, stop
// 37, round_skip.go) against the plain run of every round: on the
// mbarrier corpus (the three-ring rows among them) and on random
// three-ring programs (ringsVariant with clockVariant's fences and
// roundVariant's breaks of the repetition in a third of them, and
// skipVariant's changes of the ring arrays and of the loop), `weft check` gives the same
// diagnostics (JSON: code, position, message with its occurrence count,
// notes), the same counters (--sync-stats: memory operations, records,
// events, tasks, hazards, state) and the same --redundant-sync answers
// (a run per sync statement left out) with the skip and without.
func TestRoundSkipMatchesPlain(t *testing.T) {
	t.Cleanup(func() { amir.RoundSkip(true) })
	dir := t.TempDir()
	rng := rand.New(rand.NewSource(3737))
	cs := mbarChunks(t)
	for i := 0; i < 600; i++ {
		src, args := ringsVariant(rng)
		src = clockVariant(rng, src)
		if i%3 == 0 {
			src = roundVariant(rng, src)
		}
		src = skipVariant(rng, src)
		cs = append(cs, writeChunk(t, dir, fmt.Sprintf("skip%d.weft", i), src, args))
	}
	skipped, programs, rejects, skipRejects := int64(0), 0, 0, 0
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
					if n > 0 {
						skipRejects++
					}
				}
			}
		}
	}
	t.Logf("%d programs (%d with W06xx): %d rounds skipped in %d of them (%d with W06xx)", len(cs), rejects, skipped, programs, skipRejects)
	if skipped < 800 || programs < 100 || rejects < 200 || skipRejects < 30 {
		t.Fatalf("weak coverage: %d rounds skipped in %d programs (%d with W06xx), %d with W06xx", skipped, programs, skipRejects, rejects)
	}
}

// statsTime is the time part of a --sync-stats line (it varies).
var statsTime = regexp.MustCompile(`[0-9.]+s \([0-9.]+[KMG]? memory ops/s\)`)

// check is `weft check` of c with flags: its stdout and stderr, the
// --sync-stats times left out.
func (c mbarChunk) check(flags ...string) string {
	var out, errb bytes.Buffer
	env := &frontend.Env{Stdout: &out, Stderr: &errb, Stdin: bytes.NewReader(nil)}
	frontend.ForExt(".weft").Check(env, append(append([]string{c.path}, flags...), c.args...))
	return statsTime.ReplaceAllString(out.String()+errb.String(), "")
}

// skipVariant changes, at random, what a whole-round skip must get right
// in a ringsVariant program: a loop that starts later (its first rounds'
// indices are other ones), a Fence by B's
// warps at the top of every round, an Arrive before the loop on an index
// the rounds reach later, or the loop split in two at a random
// round (the second reads the state the first leaves: the queue counts,
// the mbarriers' phase lists and Await records, the log their replays
// read), the second part sometimes with another round offset.
func skipVariant(rng *rand.Rand, src string) string {
	if loc := roundsRe.FindStringSubmatchIndex(src); loc != nil && rng.Intn(2) == 0 {
		var rounds int
		fmt.Sscanf(src[loc[2]:loc[3]], "%d", &rounds)
		cut := rng.Intn(rounds + 1)
		body := src[loc[1]:]
		second := body
		if rng.Intn(4) == 0 {
			second = strings.Replace(body, "CtoA[tid, n]", "CtoA[tid, n - 1 + 1]", 1)
		}
		return src[:loc[0]] + fmt.Sprintf("for n in seq(0, %d):\n", cut) + strings.TrimRight(body, "\n") + "\n" +
			fmt.Sprintf("            for n in seq(%d, %d):\n", cut, rounds) + second
	}
	switch rng.Intn(7) {
	case 3:
		// A's warps arrive once more on a later index before the loop:
		// a cell ahead of the rounds already arrived (a second Arrive
		// when the rounds reach it).
		loc := roundsRe.FindStringIndex(src)
		if loc == nil {
			return src
		}
		return src[:loc[0]] + fmt.Sprintf("with CudaWarps(name=\"A\"):\n                for tid in cuda_threads(0, 2, unit=cuda_thread):\n                    Arrive(cuda_in_order, 1) >> AtoB[tid, %d]\n            ", 12+rng.Intn(10)) + src[loc[0]:]
	case 0:
		return strings.Replace(src, "for n in seq(0, ", "for n in seq(1, ", 1)
	case 2:
		return strings.Replace(src, "                with CudaWarps(name=\"B\"):\n", "                with CudaWarps(name=\"B\"):\n                    Fence(cuda_in_order, cuda_in_order)\n", 1)
	}
	return src
}
