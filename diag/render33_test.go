package diag

import (
	"bytes"
	"fmt"
	"io"
	"math/rand"
	"strings"
	"testing"
	"unicode/utf8"
)

// fmtWriteText is WriteText as it was before stop 33, with fmt.Fprintf
// and a string excerpt: the reference the appending renderer must match
// byte for byte (issue 13, stop 33).
func fmtWriteText(w io.Writer, diags []*Diagnostic) {
	for _, d := range diags {
		head := d.Severity.String()
		if d.Code != "" {
			head += "[" + d.Code + "]"
		}
		fmtWriteOne(w, d.Pos, d.End, head, d.Message)
		for _, n := range d.Notes {
			fmtWriteOne(w, n.Pos, Pos{}, "note", n.Message)
		}
	}
}

func fmtWriteOne(w io.Writer, pos, end Pos, head, msg string) {
	if !pos.IsValid() {
		fmt.Fprintf(w, "%s: %s\n", head, msg)
		return
	}
	line, col := pos.File.LineCol(pos.Offset)
	fmt.Fprintf(w, "%s:%d:%d: %s: %s\n", pos.File.Name, line, col, head, msg)
	src := pos.File.Line(line)
	if src == "" && line > 0 && col == 1 {
		return
	}
	src, col = fmtExcerpt(src, col)
	var caret strings.Builder
	for i := 0; i < col-1 && i < len(src); i++ {
		if src[i] == '\t' {
			caret.WriteByte('\t')
		} else {
			caret.WriteByte(' ')
		}
	}
	width := 1
	if end.IsValid() && end.File == pos.File {
		el, ec := end.File.LineCol(end.Offset)
		if el == line && ec > col {
			width = ec - col
		}
	}
	if width > len(src)-(col-1) {
		width = max(1, len(src)-(col-1))
	}
	caret.WriteString(strings.Repeat("^", width))
	fmt.Fprintf(w, "    %s\n    %s\n", src, caret.String())
}

func fmtExcerpt(src string, col int) (string, int) {
	if len(src) <= maxExcerpt {
		return src, col
	}
	start := col - 1 - maxExcerpt/2
	if start < 0 {
		start = 0
	}
	end := start + maxExcerpt
	if end > len(src) {
		end, start = len(src), max(0, len(src)-maxExcerpt)
	}
	for start > 0 && !utf8.RuneStart(src[start]) {
		start--
	}
	for end < len(src) && !utf8.RuneStart(src[end]) {
		end++
	}
	out, col := src[start:end], col-start
	if start > 0 {
		out, col = "..."+out, col+3
	}
	if end < len(src) {
		out += "..."
	}
	return out, col
}

// randSource makes a file of random lines: empty, short, with tabs, with
// multi-byte runes, and longer than maxExcerpt (so that both cuts, one
// cut or none apply), with "\n", "\r\n" or "\r" endings.
func randSource(r *rand.Rand) []byte {
	var b []byte
	pieces := []string{"a", "bc", "\t", "é", "世界", " ", "x = y + 1", "%d", "%s"}
	for range 1 + r.Intn(8) {
		n := r.Intn(4)
		switch r.Intn(4) {
		case 0:
			n = maxExcerpt - 20 + r.Intn(40)
		case 1:
			n = 2*maxExcerpt + r.Intn(300)
		}
		ln := 0
		for ln < n {
			p := pieces[r.Intn(len(pieces))]
			b = append(b, p...)
			ln += len(p)
		}
		b = append(b, []string{"\n", "\n", "\r\n", "\r"}[r.Intn(4)]...)
	}
	if r.Intn(3) == 0 {
		b = b[:len(b)-1] // no final line ending
	}
	return b
}

// TestWriteTextMatchesFmt: the appending WriteText prints what the
// fmt-based one printed, byte for byte, on 3 000 random lists of
// diagnostics over random files: positions at every kind of column (on
// tabs, inside multi-byte runes, past a long line's middle, at the end of
// the file), end positions on and off the line and in another file,
// invalid positions, codes or none, notes.
func TestWriteTextMatchesFmt(t *testing.T) {
	r := rand.New(rand.NewSource(33))
	for it := range 3000 {
		files := []*File{NewFile("a.weft", randSource(r)), NewFile("dir/b c.weft", randSource(r))}
		at := func() Pos {
			if r.Intn(8) == 0 {
				return Pos{}
			}
			f := files[r.Intn(len(files))]
			return f.At(r.Intn(len(f.Src) + 2))
		}
		var diags []*Diagnostic
		for range r.Intn(5) {
			diags = append(diags, randDiag(r, at, "message %d: 100%% %s", 400))
		}
		var want, got bytes.Buffer
		fmtWriteText(&want, diags)
		WriteText(&got, diags)
		if !bytes.Equal(want.Bytes(), got.Bytes()) {
			t.Fatalf("case %d: WriteText\n%q\nwant\n%q", it, got.String(), want.String())
		}
	}
}

// randDiag is one random diagnostic for the renderers' differential tests
// (TestWriteTextMatchesFmt, TestWriteTextPlaces): a random severity, a
// position from at, a message from format with a number and up to maxW
// letters, a code or none, an end position (another random one, or on or
// past the line) or none, and up to two notes.
func randDiag(r *rand.Rand, at func() Pos, format string, maxW int) *Diagnostic {
	sevs := []Severity{Error, Warning, Info}
	d := &Diagnostic{Severity: sevs[r.Intn(3)], Pos: at(), Message: fmt.Sprintf(format, r.Intn(1000), strings.Repeat("w", r.Intn(maxW)))}
	if r.Intn(3) > 0 {
		d.Code = fmt.Sprintf("W%04d", r.Intn(10000))
	}
	switch r.Intn(4) {
	case 0:
		d.End = at()
	case 1, 2:
		if d.Pos.IsValid() {
			d.End = d.Pos.File.At(d.Pos.Offset + r.Intn([]int{6, 200}[r.Intn(2)]))
		}
	}
	for range r.Intn(3) {
		d.Note(at(), "note %d", r.Intn(50))
	}
	return d
}
