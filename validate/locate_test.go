package validate

import (
	"os"
	"path/filepath"
	"testing"
)

// TestLocate: a diagnostic (or note) on a generated line that carries the
// generator's "// weft:src" comment is followed by the source position,
// with the name of the validated file in place of its base name
// (issue 12, item 7).
func TestLocate(t *testing.T) {
	dir := t.TempDir()
	gen := filepath.Join(dir, "k.cu")
	src := "  x = 1;\n  y[i] = x; // weft:src k.prism:7:9\n  helper(); // weft:src other.prism:3:1\n"
	if err := os.WriteFile(gen, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	v := &run{source: "examples/prism/k.prism"}
	problems := gen + ":2:3: error[C0501]: data race\n      y[i] = x;\n      ^\n" +
		gen + ":1:3: note: the other access\n" +
		gen + ":3:3: note: called from k\n"
	want := gen + ":2:3: error[C0501]: data race\n    = in the source: examples/prism/k.prism:7:9\n      y[i] = x;\n      ^\n" +
		gen + ":1:3: note: the other access\n" +
		gen + ":3:3: note: called from k\n    = in the source: other.prism:3:1\n"
	if got := v.locate(problems); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}
