package diag

import (
	"testing"
	"unsafe"
)

// TestNewFileOwned: the File of handed-over bytes gives them as Text
// without a copy, and positions and lines as NewFile's File does.
func TestNewFileOwned(t *testing.T) {
	for _, src := range []string{"", "x", "a\nbc\r\nd\re\n"} {
		b := []byte(src)
		f := NewFileOwned("f", b)
		g := NewFile("f", []byte(src))
		if f.Text() != src || g.Text() != src {
			t.Fatalf("%q: Text %q, %q", src, f.Text(), g.Text())
		}
		if len(b) > 0 && unsafe.StringData(f.Text()) != &b[0] {
			t.Errorf("%q: Text copied the bytes", src)
		}
		for off := 0; off <= len(src); off++ {
			l1, c1 := f.LineCol(off)
			l2, c2 := g.LineCol(off)
			if l1 != l2 || c1 != c2 {
				t.Errorf("%q offset %d: %d:%d, want %d:%d", src, off, l1, c1, l2, c2)
			}
		}
	}
}
