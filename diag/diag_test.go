package diag

import (
	"bytes"
	"strings"
	"testing"
)

func TestLineCol(t *testing.T) {
	f := NewFile("a.weft", []byte("ab\n\tcd\nlast"))
	cases := []struct{ off, line, col int }{{0, 1, 1}, {2, 1, 3}, {3, 2, 1}, {5, 2, 3}, {7, 3, 1}, {11, 3, 5}, {99, 3, 5}}
	for _, c := range cases {
		l, col := f.LineCol(c.off)
		if l != c.line || col != c.col {
			t.Errorf("LineCol(%d) = %d:%d, want %d:%d", c.off, l, col, c.line, c.col)
		}
		if c.off <= len(f.Src) && f.Offset(l, col) != c.off {
			t.Errorf("Offset(%d,%d) = %d, want %d", l, col, f.Offset(l, col), c.off)
		}
	}
	if got := f.Line(2); got != "\tcd" {
		t.Errorf("Line(2) = %q", got)
	}
}

func TestWriteText(t *testing.T) {
	f := NewFile("k.weft", []byte("def f():\n\tx = y\n"))
	var l List
	l.Errorf(f.At(14), "W0101", "undefined: %s", "y").Note(f.At(10), "assigned here")
	var b bytes.Buffer
	WriteText(&b, l.Diags)
	want := "k.weft:2:6: error[W0101]: undefined: y\n    \tx = y\n    \t    ^\n" +
		"k.weft:2:2: note: assigned here\n    \tx = y\n    \t^\n"
	if b.String() != want {
		t.Errorf("got\n%q\nwant\n%q", b.String(), want)
	}
	if !l.HasErrors() {
		t.Error("HasErrors = false")
	}
}

func TestWriteJSON(t *testing.T) {
	f := NewFile("k.weft", []byte("x\n"))
	var l List
	l.Warnf(f.At(0), "W0001", "w").Note(Pos{}, "n")
	var b bytes.Buffer
	if err := WriteJSON(&b, l.Diags); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{`"file": "k.weft"`, `"line": 1`, `"col": 1`, `"severity": "warning"`, `"code": "W0001"`, `"message": "n"`} {
		if !strings.Contains(b.String(), s) {
			t.Errorf("JSON lacks %s:\n%s", s, b.String())
		}
	}
	b.Reset()
	WriteJSON(&b, nil)
	if strings.TrimSpace(b.String()) != "[]" {
		t.Errorf("empty list renders %q", b.String())
	}
}

func TestSortAndLimit(t *testing.T) {
	f := NewFile("a", []byte("0123456789"))
	l := List{Limit: 2}
	l.Errorf(f.At(5), "B", "b")
	l.Errorf(f.At(1), "A", "a")
	l.Errorf(f.At(0), "C", "c")
	l.Sort()
	if len(l.Diags) != 2 || l.Diags[0].Code != "A" || l.Dropped() != 1 {
		t.Errorf("got %v dropped %d", l.Diags, l.Dropped())
	}
}
