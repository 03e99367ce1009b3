package diag

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// WriteText prints each diagnostic as
//
//	file:line:col: severity[CODE]: message
//	    source line
//	    ^
//
// followed by its notes in the same form with severity "note".
func WriteText(w io.Writer, diags []*Diagnostic) {
	for _, d := range diags {
		head := d.Severity.String()
		if d.Code != "" {
			head += "[" + d.Code + "]"
		}
		writeOne(w, d.Pos, d.End, head, d.Message)
		for _, n := range d.Notes {
			writeOne(w, n.Pos, Pos{}, "note", n.Message)
		}
	}
}

func writeOne(w io.Writer, pos, end Pos, head, msg string) {
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
	src, col = excerpt(src, col)
	// Keep tabs in the caret line so the caret lines up under the column.
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

// maxExcerpt is the longest source line printed whole; a longer one (a
// minified or generated file, a 10^6-deep expression) is cut to a window
// of about that many bytes around the column.
const maxExcerpt = 160

// excerpt cuts a long line to a window around 1-based byte column col,
// marking the cuts with "...", and returns the column within the window.
func excerpt(src string, col int) (string, int) {
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
