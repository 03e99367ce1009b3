package diag

import (
	"math/rand"
	"slices"
	"testing"
)

// TestLineStartsFastPath (issue 13, stop 32): the line table of a file
// without "\r" (found with IndexByte) equals the byte-at-a-time table of
// lineStarts' general loop, on random files of "\n" and other bytes,
// empty ones, ones ending with "\n" or not, and runs of "\n"; a file
// with a "\r" anywhere still takes the general loop (TestLineEndings).
func TestLineStartsFastPath(t *testing.T) {
	ref := func(src []byte) []int {
		ls := []int{0}
		for i, c := range src {
			if c == '\n' || c == '\r' && (i+1 == len(src) || src[i+1] != '\n') {
				ls = append(ls, i+1)
			}
		}
		return ls
	}
	rng := rand.New(rand.NewSource(32))
	alpha := []byte("ab \t\n\n#(")
	for i := 0; i < 3000; i++ {
		src := make([]byte, rng.Intn(200))
		for j := range src {
			src[j] = alpha[rng.Intn(len(alpha))]
		}
		if i%7 == 3 && len(src) > 0 {
			src[rng.Intn(len(src))] = '\r' // the general loop
		}
		f := NewFile("r.weft", src)
		if got, want := f.lineStarts(), ref(src); !slices.Equal(got, want) {
			t.Fatalf("%q: lines %v, want %v", src, got, want)
		}
		for off := -1; off <= len(src)+1; off++ {
			l, c := f.LineCol(off)
			g := &File{Src: src, lines: ref(src)}
			if wl, wc := g.LineCol(off); l != wl || c != wc {
				t.Fatalf("%q: offset %d at %d:%d, want %d:%d", src, off, l, c, wl, wc)
			}
		}
	}
}
