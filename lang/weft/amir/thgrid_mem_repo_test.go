package amir_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"weft.dev/weft/lang/weft/amir"
)

// TestGridRoomRepo: `weft check --json` of every chunk of the
// repository's example programs and of the sync checker's testdata is the
// same with grid frames and plans in one allocation each (thgrid_mem.go,
// plan_grid_mem.go) and with each list an allocation of its own.
func TestGridRoomRepo(t *testing.T) {
	t.Cleanup(func() { amir.GridNoRoomTest(false) })
	files, _ := filepath.Glob("../syncheck/testdata/*.weft")
	ex, _ := filepath.Glob("../../../examples/weft/*/*.weft")
	files = append(files, ex...)
	sizeLine := regexp.MustCompile(`(?m)^# check: (.*)$`)
	dir := t.TempDir()
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
			amir.GridNoRoomTest(false)
			room := c.checkJSON()
			amir.GridNoRoomTest(true)
			plain := c.checkJSON()
			if room != plain {
				t.Fatalf("%s chunk %d %v: in room:\n%s\nplain:\n%s", f, i, c.args, room, plain)
			}
			n++
		}
	}
	t.Logf("%d chunks", n)
	if n < 50 {
		t.Fatalf("weak coverage: %d chunks", n)
	}
}
