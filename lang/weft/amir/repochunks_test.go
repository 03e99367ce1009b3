package amir_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// repoChunks writes every '---'-separated chunk of the sync checker's
// testdata and of the repository's example programs to a file of its own
// in a temporary directory, with the sizes of its `# check:` line as
// arguments: the corpus of the differential tests that compare `weft
// check --json` of a fast path with its plain one over the whole
// repository (TestGridMoveRepo, TestGridRoomRepo, TestDimApartRepo).
func repoChunks(t *testing.T) []mbarChunk {
	t.Helper()
	files, _ := filepath.Glob("../syncheck/testdata/*.weft")
	ex, _ := filepath.Glob("../../../examples/weft/*/*.weft")
	files = append(files, ex...)
	sizeLine := regexp.MustCompile(`(?m)^# check: (.*)$`)
	dir := t.TempDir()
	var out []mbarChunk
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
			out = append(out, c)
		}
	}
	return out
}
