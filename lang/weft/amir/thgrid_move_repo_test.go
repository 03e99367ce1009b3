package amir_test

import (
	"testing"

	"weft.dev/weft/lang/weft/amir"
)

// TestGridMoveRepo: `weft check --json` of every chunk of the
// repository's example programs and of the sync checker's testdata is the
// same with the grid entries' layouts moved (thgrid_move.go, each moved
// layout compared with the one made from scratch) and made at every
// entry.
func TestGridMoveRepo(t *testing.T) {
	t.Cleanup(func() { amir.GridMoveTest(false, false) })
	var all int64
	n := 0
	for _, c := range repoChunks(t) {
		moved, bad := amir.GridMoveTest(false, true)
		fast := c.checkJSON()
		all += *moved
		if *bad != 0 {
			t.Fatalf("%s chunk %d: %d moved layouts differ from the ones made", c.src, c.i, *bad)
		}
		amir.GridMoveTest(true, false)
		plain := c.checkJSON()
		if fast != plain {
			t.Fatalf("%s chunk %d %v: moved:\n%s\nmade:\n%s", c.src, c.i, c.args, fast, plain)
		}
		n++
	}
	t.Logf("%d chunks, %d moved layouts", n, all)
	if all < 20 {
		t.Fatalf("weak coverage: %d moved layouts", all)
	}
}
