package diag

import (
	"bytes"
	"math/rand"
	"strings"
	"testing"
)

// plainWriter is an io.Writer without room of its own (as *os.File): it
// records each Write's length and capacity.
type plainWriter struct {
	buf        bytes.Buffer
	lens, caps []int
}

func (w *plainWriter) Write(p []byte) (int, error) {
	w.lens = append(w.lens, len(p))
	w.caps = append(w.caps, cap(p))
	return w.buf.Write(p)
}

// randLFSource is randSource's kind of file with "\n" endings only (the
// line table's fast path, lineStarts), with lines around 512 bytes long
// sometimes, and files of nothing but line endings.
func randLFSource(r *rand.Rand) []byte {
	b := randSource(r)
	b = bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n"))
	b = bytes.ReplaceAll(b, []byte("\r"), []byte("\n"))
	if r.Intn(3) == 0 {
		at := r.Intn(len(b) + 1)
		long := strings.Repeat("q", 512-8+r.Intn(16))
		b = append(b[:at:at], append([]byte(long+"\n"), b[at:]...)...)
	}
	if r.Intn(6) == 0 {
		b = bytes.Repeat([]byte("\n"), r.Intn(5))
	}
	return b
}

// TestWriteTextPlaces (stop 38): WriteText with its places found once and
// its length summed from them prints what the fmt-based renderer printed
// (render33_test.go), byte for byte, on 6 000 random reports: files of
// "\n" lines only and of mixed endings, long lines, offsets before the
// file and past its end, positions in any order across two files, more
// messages than WriteText's 16 places on the stack; written to a
// bytes.Buffer that holds text already, and to a writer without room of
// its own, which gets the text in one Write of a buffer of exactly its
// length.
func TestWriteTextPlaces(t *testing.T) {
	r := rand.New(rand.NewSource(38))
	for it := range 6000 {
		mk := randLFSource
		if it%4 == 3 {
			mk = randSource
		}
		files := []*File{NewFile("a.weft", mk(r)), NewFileOwned("dir/b c.weft", mk(r))}
		at := func() Pos {
			if r.Intn(10) == 0 {
				return Pos{}
			}
			f := files[r.Intn(len(files))]
			off := r.Intn(len(f.Src) + 2)
			if r.Intn(20) == 0 {
				off = -1 - r.Intn(3)
			}
			return f.At(off)
		}
		var diags []*Diagnostic
		nd := r.Intn(5)
		if it%10 == 0 {
			nd = 10 + r.Intn(20)
		}
		for range nd {
			diags = append(diags, randDiag(r, at, "message %d: %s", 300))
		}
		var want bytes.Buffer
		fmtWriteText(&want, diags)
		// Fresh Files for each renderer: each builds the line table.
		for _, f := range files {
			f.lines = nil
		}
		got := bytes.NewBufferString("before\n")
		WriteText(got, diags)
		if !bytes.Equal(want.Bytes(), got.Bytes()[7:]) || got.String()[:7] != "before\n" {
			t.Fatalf("case %d: WriteText\n%q\nwant\n%q", it, got.String(), want.String())
		}
		for _, f := range files {
			f.lines = nil
		}
		var pw plainWriter
		WriteText(&pw, diags)
		if !bytes.Equal(want.Bytes(), pw.buf.Bytes()) {
			t.Fatalf("case %d: WriteText to a plain writer\n%q\nwant\n%q", it, pw.buf.String(), want.String())
		}
		if want.Len() > 0 && (len(pw.lens) != 1 || pw.caps[0] != pw.lens[0]) {
			t.Fatalf("case %d: writes of %v bytes into buffers of %v", it, pw.lens, pw.caps)
		}
	}
}
