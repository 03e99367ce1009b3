package amir_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
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
	files, _ := filepath.Glob("../syncheck/testdata/*.weft")
	ex, _ := filepath.Glob("../../../examples/weft/*/*.weft")
	files = append(files, ex...)
	sizeLine := regexp.MustCompile(`(?m)^# check: (.*)$`)
	dir := t.TempDir()
	var all int64
	n := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, chunk := range strings.Split(string(src), "\n---\n") {
			c := mbarChunk{src: f, i: i, path: filepath.Join(dir, filepath.Base(f)+"."+string(rune('a'+i))+".weft")}
			if m := sizeLine.FindStringSubmatch(chunk); m != nil {
				c.args = strings.Fields(m[1])
			}
			if err := os.WriteFile(c.path, []byte(chunk), 0o644); err != nil {
				t.Fatal(err)
			}
			moved, bad := amir.GridMoveTest(false, true)
			fast := c.checkJSON()
			all += *moved
			if *bad != 0 {
				t.Fatalf("%s chunk %d: %d moved layouts differ from the ones made", f, i, *bad)
			}
			amir.GridMoveTest(true, false)
			plain := c.checkJSON()
			if fast != plain {
				t.Fatalf("%s chunk %d %v: moved:\n%s\nmade:\n%s", f, i, c.args, fast, plain)
			}
			n++
		}
	}
	t.Logf("%d chunks, %d moved layouts", n, all)
	if all < 20 {
		t.Fatalf("weak coverage: %d moved layouts", all)
	}
}
