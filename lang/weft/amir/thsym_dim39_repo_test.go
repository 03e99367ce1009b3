package amir_test

import (
	"testing"

	"weft.dev/weft/lang/weft/amir"
)

// TestDimApartRepo: `weft check --json` of every chunk of the
// repository's example programs and of the sync checker's testdata
// (rmem_uniform's forms among them) is the same with the
// span skip of thsymEnterAt and thsymMeetsClasses (thVar.dimApart; issue
// 13, stop 39) and with their full scans of the maps.
func TestDimApartRepo(t *testing.T) {
	t.Cleanup(func() { amir.DimApartTest(false) })
	var skips int64
	n := 0
	for _, c := range repoChunks(t) {
		cnt := amir.DimApartTest(false)
		fast := c.checkJSON()
		skips += *cnt
		amir.DimApartTest(true)
		plain := c.checkJSON()
		if fast != plain {
			t.Fatalf("%s chunk %d %v: span skip:\n%s\nscan:\n%s", c.src, c.i, c.args, fast, plain)
		}
		n++
	}
	t.Logf("%d chunks, %d skips", n, skips)
	if skips < 10 {
		t.Fatalf("weak coverage: %d skips", skips)
	}
}
