package diag

import (
	"bytes"
	"encoding/json"
	"io"
	"strconv"
	"unicode/utf8"
)

// WriteText prints each diagnostic as
//
//	file:line:col: severity[CODE]: message
//	    source line
//	    ^
//
// followed by its notes in the same form with severity "note". The text
// is appended to one buffer, sized from the messages, and written at
// once: with fmt.Fprintf (every argument boxed, the writer called twice a
// message and grown as it went) the text of a rejected program's report
// cost about 8 K instructions a message (issue 13, stop 33,
// docs/weft-sync.md).
func WriteText(w io.Writer, diags []*Diagnostic) {
	size := 0
	for _, d := range diags {
		size += len(d.Message) + lineRoom
		for _, n := range d.Notes {
			size += len(n.Message) + lineRoom
		}
	}
	if size == 0 {
		return
	}
	b := make([]byte, 0, size)
	for _, d := range diags {
		b = appendOne(b, d.Pos, d.End, d.Severity.String(), d.Code, d.Message)
		for _, n := range d.Notes {
			b = appendOne(b, n.Pos, Pos{}, "note", "", n.Message)
		}
	}
	w.Write(b)
}

// lineRoom is the room WriteText reserves for a message's position, head,
// source line and caret line: a file name and two excerpts of about
// maxExcerpt bytes (a longer line is cut), so that the buffer seldom
// grows.
const lineRoom = 64 + 2*(maxExcerpt+16)

// appendOne appends one message, with its source line and caret when pos
// is valid, to b; its head is sev, followed by "[code]" unless code is "".
func appendOne(b []byte, pos, end Pos, sev, code, msg string) []byte {
	if !pos.IsValid() {
		b = appendHead(b, sev, code)
		b = append(b, ": "...)
		b = append(b, msg...)
		return append(b, '\n')
	}
	line, col := pos.File.LineCol(pos.Offset)
	b = append(b, pos.File.Name...)
	b = append(b, ':')
	b = strconv.AppendInt(b, int64(line), 10)
	b = append(b, ':')
	b = strconv.AppendInt(b, int64(col), 10)
	b = append(b, ": "...)
	b = appendHead(b, sev, code)
	b = append(b, ": "...)
	b = append(b, msg...)
	b = append(b, '\n')
	src := pos.File.Line(line)
	if src == "" && line > 0 && col == 1 {
		return b
	}
	b = append(b, "    "...)
	x := len(b) // the excerpt is b[x:x+n]
	b, col = appendExcerpt(b, src, col)
	n := len(b) - x
	b = append(b, "\n    "...)
	// Keep tabs in the caret line so the caret lines up under the column.
	k := min(col-1, n)
	if k > 0 && bytes.IndexByte(b[x:x+k], '\t') < 0 {
		b = appendRepeat(b, blanks, k)
	} else {
		for i := 0; i < k; i++ {
			if b[x+i] == '\t' {
				b = append(b, '\t')
			} else {
				b = append(b, ' ')
			}
		}
	}
	width := 1
	if end.IsValid() && end.File == pos.File {
		el, ec := end.File.LineCol(end.Offset)
		if el == line && ec > col {
			width = ec - col
		}
	}
	if width > n-(col-1) {
		width = max(1, n-(col-1))
	}
	b = appendRepeat(b, carets, width)
	return append(b, '\n')
}

func appendHead(b []byte, sev, code string) []byte {
	b = append(b, sev...)
	if code != "" {
		b = append(b, '[')
		b = append(b, code...)
		b = append(b, ']')
	}
	return b
}

const (
	blanks = "                                                                "
	carets = "^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^"
)

// appendRepeat appends k bytes of unit, a run of one byte.
func appendRepeat(b []byte, unit string, k int) []byte {
	for k > len(unit) {
		b = append(b, unit...)
		k -= len(unit)
	}
	return append(b, unit[:k]...)
}

// maxExcerpt is the longest source line printed whole; a longer one (a
// minified or generated file, a 10^6-deep expression) is cut to a window
// of about that many bytes around the column.
const maxExcerpt = 160

// appendExcerpt appends src, or for a long line a window around 1-based
// byte column col with its cuts marked "...", and returns the column
// within what it appended.
func appendExcerpt(b []byte, src string, col int) ([]byte, int) {
	if len(src) <= maxExcerpt {
		return append(b, src...), col
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
	col -= start
	if start > 0 {
		b = append(b, "..."...)
		col += 3
	}
	b = append(b, src[start:end]...)
	if end < len(src) {
		b = append(b, "..."...)
	}
	return b, col
}

// jsonPos is the JSON form of a position.
type jsonPos struct {
	File string `json:"file,omitempty"`
	Line int    `json:"line,omitempty"`
	Col  int    `json:"col,omitempty"`
}

type jsonNote struct {
	jsonPos
	Message string `json:"message"`
}

type jsonDiag struct {
	jsonPos
	EndLine  int        `json:"endLine,omitempty"`
	EndCol   int        `json:"endCol,omitempty"`
	Severity string     `json:"severity"`
	Code     string     `json:"code,omitempty"`
	Message  string     `json:"message"`
	Notes    []jsonNote `json:"notes,omitempty"`
}

func toJSONPos(p Pos) jsonPos {
	if !p.IsValid() {
		return jsonPos{}
	}
	l, c := p.File.LineCol(p.Offset)
	return jsonPos{File: p.File.Name, Line: l, Col: c}
}

// WriteJSON prints the diagnostics as one JSON array (an empty array when
// there are none), one object per diagnostic.
func WriteJSON(w io.Writer, diags []*Diagnostic) error {
	out := make([]jsonDiag, 0, len(diags))
	for _, d := range diags {
		j := jsonDiag{jsonPos: toJSONPos(d.Pos), Severity: d.Severity.String(), Code: d.Code, Message: d.Message}
		if d.End.IsValid() {
			e := toJSONPos(d.End)
			j.EndLine, j.EndCol = e.Line, e.Col
		}
		for _, n := range d.Notes {
			j.Notes = append(j.Notes, jsonNote{jsonPos: toJSONPos(n.Pos), Message: n.Message})
		}
		out = append(out, j)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
