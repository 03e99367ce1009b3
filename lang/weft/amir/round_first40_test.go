package amir_test

import (
	"path/filepath"
	"testing"

	"weft.dev/weft/lang/weft/amir"
)

// TestRoundSkipThreeRingsFirstDigest pins where the whole-round skip
// starts on the reference's three-ring rows (issue 13, stop 40): their
// rounds repeat from round 1, and the oldest Await record kept, born in
// round 0, is freed at the mark of round 13. The first digest is taken
// there (its window lies in the run), the second at round 14 (its window
// is the first's moved), so rounds 14..24 of 25 are skipped: 11. Taking
// the first digest only when its own window's predecessor lay in the run
// skipped 10 (from round 15). TestRoundSkipMatchesPlain checks that the
// skip's answers are the plain run's, these rows among them.
func TestRoundSkipThreeRingsFirstDigest(t *testing.T) {
	t.Cleanup(func() { amir.RoundSkip(true) })
	want := map[int]string{0: "positive", 2: "wrong offset", 3: "wrong box", 4: "wrong thread pitch", 5: "duplicate await"}
	seen := 0
	for _, c := range mbarChunks(t) {
		name, ok := want[c.i]
		if filepath.Base(c.src) != "three_rings_exo.weft" || !ok {
			continue
		}
		seen++
		before := amir.RoundSkip(true)
		c.checkJSON()
		if n := amir.RoundSkip(true) - before; n != 11 {
			t.Errorf("three_rings_exo chunk %d (%s): %d rounds skipped, want 11", c.i, name, n)
		}
	}
	if seen != len(want) {
		t.Fatalf("found %d of the %d three-ring chunks", seen, len(want))
	}
}
