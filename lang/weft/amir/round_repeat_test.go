package amir_test

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"weft.dev/weft/lang/weft/amir"
)

// The repetition test of a whole-round skip (issue 13, stop 37: ring37;
// round_probe_export_test.go): when the machine's state at the start of
// round r + 1 is the state at the start of round r moved by the ring
// stride (amir.RoundDigest.Same), round r + 1 must do what round r did:
// the same effect on the Result's counters (events, memory operations,
// records, occurrences; no new distinct hazard where round r found none)
// and, at its end, the state at its start moved again. This is the
// induction step of the skip's argument (docs/weft-sync.md "Stop 37:
// ring37"), checked on every round of the mbarrier corpus and of random
// three-ring programs: a part of the state that the digest leaves out
// and that a round reads would break it.

// roundMarks is one check's output and its digests at the marks of its
// rounds' loop.
func roundMarks(c mbarChunk) (string, []amir.RoundDigest) {
	var all []amir.RoundDigest
	amir.RoundProbe(func(d amir.RoundDigest) { all = append(all, d) })
	out := c.checkJSON()
	amir.RoundProbe(nil)
	// The rounds' loop: the one whose iterator goes furthest (the
	// thread loops inside it are marked too).
	best, top := -1, -1
	for _, d := range all {
		if d.N > top {
			best, top = d.Loop, d.N
		}
	}
	var ds []amir.RoundDigest
	for _, d := range all {
		if d.Loop == best {
			ds = append(ds, d)
		}
	}
	return out, ds
}

// roundTally counts the rounds a skip could leave out (repeated: the
// state at a round's end, the next mark, is the state at its start moved
// by one round) and the induction steps tested.
type roundTally struct {
	repeated, tested, undescribed int
}

// induction checks the induction step on ds (above) comparing the parts
// of the state given, and returns the first failure ("" when none).
func (rt *roundTally) induction(ds []amir.RoundDigest, parts [3]bool) string {
	for i := 0; i+1 < len(ds); i++ {
		a, b := ds[i], ds[i+1]
		if !a.OK {
			rt.undescribed++
		}
		if !a.Same(b, parts) {
			continue
		}
		rt.repeated++
		if i+2 >= len(ds) {
			continue
		}
		c := ds[i+2]
		if c.Run != b.Run || c.Loop != b.Loop || c.Task != b.Task || c.N != b.N+1 {
			continue // round i + 1 was its loop's last: no mark at its end
		}
		rt.tested++
		da := [8]int64{b.Events - a.Events, b.MemOps - a.MemOps, b.Records - a.Records, b.Occ - a.Occ,
			int64(b.Distinct - a.Distinct), int64(b.Hazards - a.Hazards), int64(b.Seen - a.Seen), int64(b.Pos - a.Pos)}
		db := [8]int64{c.Events - b.Events, c.MemOps - b.MemOps, c.Records - b.Records, c.Occ - b.Occ,
			int64(c.Distinct - b.Distinct), int64(c.Hazards - b.Hazards), int64(c.Seen - b.Seen), int64(c.Pos - b.Pos)}
		switch {
		case da != db:
			return fmt.Sprintf("round n=%d repeats round n=%d's start, but its effect on the counters (events, memops, records, occurrences, distinct, hazards, seen, log) %v differs from %v", b.N, a.N, db, da)
		case c.Stop != b.Stop:
			return fmt.Sprintf("round n=%d repeats round n=%d's start, but stops the run", b.N, a.N)
		case !b.Same(c, parts):
			return fmt.Sprintf("round n=%d repeats round n=%d's start, but its end is not its start moved by one round (queues %v, phys %v, log %v)", b.N, a.N, b.Queues == c.Queues, b.Phys == c.Phys, b.Log == c.Log)
		}
	}
	return ""
}

var allParts = [3]bool{true, true, true}

// TestRoundRepeatCorpus checks the induction step on every round of the
// mbarrier corpus (mbarChunks: the three-ring rows of the suite among
// them) and reports the rounds a whole-round skip could leave out.
func TestRoundRepeatCorpus(t *testing.T) {
	amir.RoundSkip(false) // every round executed
	t.Cleanup(func() { amir.RoundSkip(true) })
	var rt roundTally
	for _, c := range mbarChunks(t) {
		_, ds := roundMarks(c)
		before := rt.repeated
		if bad := rt.induction(ds, allParts); bad != "" {
			src, _ := os.ReadFile(c.path)
			t.Fatalf("%s chunk %d:\n%s\n%s", filepath.Base(c.src), c.i, src, bad)
		}
		if strings.HasPrefix(filepath.Base(c.src), "three_rings") && len(ds) > 0 {
			t.Logf("%s chunk %d: %d marks, %d rounds repeated", filepath.Base(c.src), c.i, len(ds), rt.repeated-before)
		}
	}
	t.Logf("corpus: %d rounds repeated, %d induction steps tested, %d marks not described", rt.repeated, rt.tested, rt.undescribed)
	if rt.repeated < 50 || rt.tested < 40 {
		t.Fatalf("weak coverage: %d rounds repeated, %d induction steps tested", rt.repeated, rt.tested)
	}
}

// TestRoundRepeatRandom checks the induction step on random three-ring
// programs (ringsVariant, clockVariant's fences, roundVariant's breaks of
// the repetition).
func TestRoundRepeatRandom(t *testing.T) {
	amir.RoundSkip(false)
	t.Cleanup(func() { amir.RoundSkip(true) })
	dir := t.TempDir()
	rng := rand.New(rand.NewSource(37))
	var rt roundTally
	rejects := 0
	for i := 0; i < 300; i++ {
		src, args := ringsVariant(rng)
		src = clockVariant(rng, src)
		src = roundVariant(rng, src)
		c := writeChunk(t, dir, fmt.Sprintf("repeat%d.weft", i), src, args)
		out, ds := roundMarks(c)
		if strings.Contains(out, "W0609") {
			rejects++
		}
		if bad := rt.induction(ds, allParts); bad != "" {
			t.Fatalf("variant %d:\n%s\n%s", i, src, bad)
		}
	}
	t.Logf("300 variants (%d with W0609): %d rounds repeated, %d induction steps tested, %d marks not described", rejects, rt.repeated, rt.tested, rt.undescribed)
	if rt.repeated < 150 || rt.tested < 120 || rejects < 50 {
		t.Fatalf("weak coverage: %d rounds repeated, %d induction steps tested, %d with W0609", rt.repeated, rt.tested, rejects)
	}
}
