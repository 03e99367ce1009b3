package cudagen

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// forEachProgramVariant calls f on every .weft program of the repository
// (each chunk of the '---'-separated files) and on up to 24 variants of
// each with one line deleted, spread over it (which break syncs, shapes
// and declarations in many ways): the corpus of the code generator's
// differential tests (TestSinglePassMatchesTwoPasses,
// TestInstrCheckMatchesFill). name is path#chunk-deleted line (-1: none).
func forEachProgramVariant(t *testing.T, f func(name, text string)) {
	t.Helper()
	files := repoWeftFiles()
	if len(files) < 50 {
		t.Fatalf("only %d programs found", len(files))
	}
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for ci, chunk := range strings.Split(string(src), "\n---\n") {
			lines := strings.Split(chunk, "\n")
			step := max(1, len(lines)/24)
			for del := -1; del < len(lines); del += step {
				text := chunk
				if del >= 0 {
					text = strings.Join(append(append([]string(nil), lines[:del]...), lines[del+1:]...), "\n")
				}
				f(fmt.Sprintf("%s#%d-%d", path, ci, del), text)
			}
		}
	}
}

// repoWeftFiles lists the repository's Weft programs the differential
// tests run on: the examples, the sync-check benchmark's programs, the
// docs' and the language packages' testdata.
func repoWeftFiles() []string {
	var files []string
	for _, dir := range []string{"../../../examples", "../../../bench/syncref/weft", "../../../docs", ".."} {
		filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(path, ".weft") {
				files = append(files, path)
			}
			return nil
		})
	}
	return files
}
