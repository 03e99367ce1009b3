package diag

import (
	"unicode/utf8"
)

// place is what WriteText prints of one message's position: its line and
// column (LineCol's), and when the source line is shown, the excerpt of
// it and the caret line under it. WriteText finds each place once, sums
// the text's length from them and then writes the text (stop 38).
type place struct {
	line, col int
	excerpt   bool   // the source line and caret line are printed
	src       string // the source line (File.Line)
	cut0      int    // the excerpt is src[cut0:cut1], "..." before it when cut0 > 0
	cut1      int    // and "..." after it when cut1 < len(src)
	n         int    // the excerpt's length with its "..."s
	k         int    // the caret line's indent (the excerpt's bytes before the column)
	width     int    // the carets
}

// maxExcerpt is the longest source line printed whole; a longer one (a
// minified or generated file, a 10^6-deep expression) is cut to a window
// of about that many bytes around the column.
const maxExcerpt = 160

// locate sets pl, zero before, to the place of a message at pos, whose
// range ends at end (a caret under each byte of the range when it ends on
// pos's line, else one caret).
func (pl *place) locate(pos, end Pos) {
	if !pos.IsValid() {
		return
	}
	f := pos.File
	line, col := f.LineCol(pos.Offset)
	src := f.Line(line)
	pl.line, pl.col = line, col
	if src == "" && line > 0 && col == 1 {
		return
	}
	pl.excerpt, pl.src = true, src
	// The window of a long line around the byte column; col becomes the
	// column within the excerpt.
	pl.cut0, pl.cut1 = 0, len(src)
	if len(src) > maxExcerpt {
		start := max(col-1-maxExcerpt/2, 0)
		stop := start + maxExcerpt
		if stop > len(src) {
			stop, start = len(src), max(0, len(src)-maxExcerpt)
		}
		for start > 0 && !utf8.RuneStart(src[start]) {
			start--
		}
		for stop < len(src) && !utf8.RuneStart(src[stop]) {
			stop++
		}
		col -= start
		if start > 0 {
			col += 3
		}
		pl.cut0, pl.cut1 = start, stop
	}
	n := pl.cut1 - pl.cut0
	if pl.cut0 > 0 {
		n += 3
	}
	if pl.cut1 < len(src) {
		n += 3
	}
	pl.n = n
	pl.k = max(min(col-1, n), 0)
	// The range's width compares the end's column in the line with the
	// column in the excerpt, as the renderer always has (the reference
	// of render33_test.go).
	width := 1
	if end.IsValid() && end.File == pos.File {
		el, ec := f.LineCol(end.Offset)
		if el == line && ec > col {
			width = ec - col
		}
	}
	if width > n-(col-1) {
		width = max(1, n-(col-1))
	}
	pl.width = width
}

// appendExcerpt appends pl's excerpt of its source line: the line, or a
// window of a long one with its cuts marked "...".
func (pl *place) appendExcerpt(b []byte) []byte {
	if pl.cut0 > 0 {
		b = append(b, "..."...)
	}
	b = append(b, pl.src[pl.cut0:pl.cut1]...)
	if pl.cut1 < len(pl.src) {
		b = append(b, "..."...)
	}
	return b
}
