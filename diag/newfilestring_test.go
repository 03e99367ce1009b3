package diag

import (
	"testing"
	"unsafe"
)

// TestNewFileString: the File reads the string in place (no copy), and
// positions and lines are those of NewFile over the same bytes.
func TestNewFileString(t *testing.T) {
	text := "a = 1\r\nb = 2\n\nc\rd"
	f := NewFileString("s.weft", text)
	g := NewFile("s.weft", []byte(text))
	if unsafe.SliceData(f.Src) != unsafe.StringData(text) || unsafe.StringData(f.Text()) != unsafe.StringData(text) {
		t.Fatal("NewFileString copied the text")
	}
	if string(f.Src) != text || f.Text() != g.Text() {
		t.Fatal("different text")
	}
	for off := 0; off <= len(text); off++ {
		fl, fc := f.LineCol(off)
		gl, gc := g.LineCol(off)
		if fl != gl || fc != gc {
			t.Errorf("offset %d: %d:%d, NewFile %d:%d", off, fl, fc, gl, gc)
		}
	}
	if e := NewFileString("e.weft", ""); len(e.Src) != 0 || e.Text() != "" {
		t.Error("empty file")
	}
}
