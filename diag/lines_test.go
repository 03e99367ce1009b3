package diag

import (
	"bytes"
	"strings"
	"testing"
)

// TestLineEndings: "\n", "\r\n" and a lone "\r" each end a line, in one
// file, for positions and excerpts alike (issue 14).
func TestLineEndings(t *testing.T) {
	f := NewFile("m.txt", []byte("a\rbb\r\nccc\nd\r"))
	if f.Lines() != 5 {
		t.Errorf("%d lines, want 5", f.Lines())
	}
	for i, want := range []string{"a", "bb", "ccc", "d", ""} {
		if got := f.Line(i + 1); got != want {
			t.Errorf("line %d = %q, want %q", i+1, got, want)
		}
	}
	for off, want := range map[int][2]int{0: {1, 1}, 2: {2, 1}, 3: {2, 2}, 6: {3, 1}, 10: {4, 1}, 12: {5, 1}} {
		if l, c := f.LineCol(off); l != want[0] || c != want[1] {
			t.Errorf("offset %d at %d:%d, want %d:%d", off, l, c, want[0], want[1])
		}
	}
	if off := f.Offset(3, 2); off != 7 {
		t.Errorf("Offset(3, 2) = %d, want 7", off)
	}
}

// TestLongLineExcerpt: a diagnostic on a very long line shows a window of
// the line around the column, with the caret under it.
func TestLongLineExcerpt(t *testing.T) {
	src := strings.Repeat("a", 1000) + "X" + strings.Repeat("b", 1000)
	f := NewFile("long.txt", []byte(src))
	var buf bytes.Buffer
	WriteText(&buf, []*Diagnostic{{Pos: f.At(1000), Severity: Error, Code: "T0001", Message: "here"}})
	lines := strings.Split(buf.String(), "\n")
	if lines[0] != "long.txt:1:1001: error[T0001]: here" {
		t.Errorf("head %q", lines[0])
	}
	want := "    ..." + strings.Repeat("a", 80) + "X" + strings.Repeat("b", 79) + "..."
	if lines[1] != want {
		t.Errorf("excerpt %q", lines[1])
	}
	if lines[2] != strings.Repeat(" ", 4+3+80)+"^" {
		t.Errorf("caret %q", lines[2])
	}
	// Short lines are printed whole.
	buf.Reset()
	g := NewFile("s.txt", []byte("short line"))
	WriteText(&buf, []*Diagnostic{{Pos: g.At(6), Severity: Error, Code: "T0001", Message: "m"}})
	if !strings.Contains(buf.String(), "\n    short line\n          ^\n") {
		t.Errorf("%q", buf.String())
	}
}

// TestSameLine: SameLine agrees with LineCol on every pair of offsets of
// files mixing the line endings, including offsets past the end.
func TestSameLine(t *testing.T) {
	for _, src := range []string{"a\rbb\r\nccc\nd\r", "\r\n\r\r\n\n", "x", "", "ab\r", "a\r\rb\r\n"} {
		f := NewFile("m.txt", []byte(src))
		for a := -1; a <= len(src)+1; a++ {
			for b := -1; b <= len(src)+1; b++ {
				la, _ := f.LineCol(a)
				lb, _ := f.LineCol(b)
				if got, want := f.SameLine(a, b), la == lb; got != want {
					t.Errorf("%q: SameLine(%d, %d) = %v, want %v", src, a, b, got, want)
				}
			}
		}
	}
}

// TestLineNoCopy: Line returns substrings of the file's one text copy
// (Text), so asking for every line allocates nothing after the first.
func TestLineNoCopy(t *testing.T) {
	f := NewFile("m.txt", []byte("a\rbb\r\nccc\nd\r"))
	if f.Text() != "a\rbb\r\nccc\nd\r" {
		t.Fatalf("Text = %q", f.Text())
	}
	f.Line(1)
	if n := testing.AllocsPerRun(100, func() {
		for i := 1; i <= f.Lines(); i++ {
			f.Line(i)
		}
	}); n != 0 {
		t.Errorf("Line allocates %v times per pass", n)
	}
}
