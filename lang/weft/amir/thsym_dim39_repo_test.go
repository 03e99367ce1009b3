package amir_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
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
	files, _ := filepath.Glob("../syncheck/testdata/*.weft")
	ex, _ := filepath.Glob("../../../examples/weft/*/*.weft")
	files = append(files, ex...)
	sizeLine := regexp.MustCompile(`(?m)^# check: (.*)$`)
	dir := t.TempDir()
	var skips int64
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
			cnt := amir.DimApartTest(false)
			fast := c.checkJSON()
			skips += *cnt
			amir.DimApartTest(true)
			plain := c.checkJSON()
			if fast != plain {
				t.Fatalf("%s chunk %d %v: span skip:\n%s\nscan:\n%s", f, i, c.args, fast, plain)
			}
			n++
		}
	}
	t.Logf("%d chunks, %d skips", n, skips)
	if skips < 10 {
		t.Fatalf("weak coverage: %d skips", skips)
	}
}
