package amir_test

import (
	"testing"

	"weft.dev/weft/lang/weft/amir"
)

// TestGridRoomRepo: `weft check --json` of every chunk of the
// repository's example programs and of the sync checker's testdata is the
// same with grid frames and plans in one allocation each (thgrid_mem.go,
// plan_grid_mem.go) and with each list an allocation of its own.
func TestGridRoomRepo(t *testing.T) {
	t.Cleanup(func() { amir.GridNoRoomTest(false) })
	n := 0
	for _, c := range repoChunks(t) {
		amir.GridNoRoomTest(false)
		room := c.checkJSON()
		amir.GridNoRoomTest(true)
		plain := c.checkJSON()
		if room != plain {
			t.Fatalf("%s chunk %d %v: in room:\n%s\nplain:\n%s", c.src, c.i, c.args, room, plain)
		}
		n++
	}
	t.Logf("%d chunks", n)
	if n < 50 {
		t.Fatalf("weak coverage: %d chunks", n)
	}
}
