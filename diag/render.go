package diag

import (
	"bytes"
	"encoding/json"
	"io"
	"strconv"
)

// WriteText prints each diagnostic as
//
//	file:line:col: severity[CODE]: message
//	    source line
//	    ^
//
// followed by its notes in the same form with severity "note". Each
// message's place (line, column, excerpt, caret) is found once, the text's
// exact length summed from the places, and the text appended to one buffer
// of that length and written at once. With fmt.Fprintf (every argument
// boxed, the writer called twice a message and grown as it went) the text
// of a rejected program's report cost about 8 K instructions a message
// (issue 13, stop 33, docs/weft-sync.md); stop 38 found the buffer, sized
// by a guess of 416 bytes of room a message, 1.6 times the text on the
// three-ring rows, and copied again into a writer that grows its own
// (bytes.Buffer, as bench/syncref/weftime and tests give): 15 KB a check
// for 5.7 KB of text. A writer that offers its own room (Grow and
// AvailableBuffer, as bytes.Buffer does) gets the text appended there.
func WriteText(w io.Writer, diags []*Diagnostic) {
	if len(diags) == 0 {
		return
	}
	// The places in the order they are written: one a diagnostic and one
	// a note. 16 on the stack cover the benchmark's reports (12 at most).
	var room [16]place
	places := room[:0]
	size := 0
	for _, d := range diags {
		places = append(places, place{})
		pl := &places[len(places)-1]
		pl.locate(d.Pos, d.End)
		size += pl.textLen(d.Pos, d.Severity.String(), d.Code, d.Message)
		for _, n := range d.Notes {
			places = append(places, place{})
			pl := &places[len(places)-1]
			pl.locate(n.Pos, Pos{})
			size += pl.textLen(n.Pos, "note", "", n.Message)
		}
	}
	var b []byte
	if g, ok := w.(growWriter); ok {
		g.Grow(size)
		b = g.AvailableBuffer()
	} else {
		b = make([]byte, 0, size)
	}
	i := 0
	for _, d := range diags {
		b = places[i].appendText(b, d.Pos, d.Severity.String(), d.Code, d.Message)
		i++
		for _, n := range d.Notes {
			b = places[i].appendText(b, n.Pos, "note", "", n.Message)
			i++
		}
	}
	w.Write(b)
}

// growWriter is a writer with room of its own (bytes.Buffer): after
// Grow(n), AvailableBuffer has room for n bytes, and Write of bytes
// appended to it keeps them where they are (the idiom of
// bytes.Buffer.AvailableBuffer's documentation).
type growWriter interface {
	Grow(n int)
	AvailableBuffer() []byte
}

// textLen is the length of the text appendText writes for one message.
func (pl *place) textLen(pos Pos, sev, code, msg string) int {
	n := len(sev) + 2 + len(msg) + 1 // "sev: msg\n"
	if code != "" {
		n += len(code) + 2
	}
	if !pos.IsValid() {
		return n
	}
	n += len(pos.File.Name) + decLen(pl.line) + decLen(pl.col) + 4 // "name:l:c: "
	if !pl.excerpt {
		return n
	}
	// "    excerpt\n    carets\n", the carets indented by k.
	return n + 4 + pl.n + 5 + pl.k + pl.width + 1
}

// appendText appends one message, with its source line and caret when pos
// is valid, to b; its head is sev, followed by "[code]" unless code is "".
func (pl *place) appendText(b []byte, pos Pos, sev, code, msg string) []byte {
	if !pos.IsValid() {
		b = appendHead(b, sev, code)
		b = append(b, ": "...)
		b = append(b, msg...)
		return append(b, '\n')
	}
	b = append(b, pos.File.Name...)
	b = append(b, ':')
	b = strconv.AppendInt(b, int64(pl.line), 10)
	b = append(b, ':')
	b = strconv.AppendInt(b, int64(pl.col), 10)
	b = append(b, ": "...)
	b = appendHead(b, sev, code)
	b = append(b, ": "...)
	b = append(b, msg...)
	b = append(b, '\n')
	if !pl.excerpt {
		return b
	}
	b = append(b, "    "...)
	x := len(b) // the excerpt is b[x:x+pl.n]
	b = pl.appendExcerpt(b)
	b = append(b, "\n    "...)
	// Keep tabs in the caret line so the caret lines up under the column.
	if k := pl.k; k > 0 && bytes.IndexByte(b[x:x+k], '\t') < 0 {
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
	b = appendRepeat(b, carets, pl.width)
	return append(b, '\n')
}

// decLen is the length of strconv.AppendInt's decimal form of v (a line
// or column: never math.MinInt).
func decLen(v int) int {
	n := 1
	if v < 0 {
		n, v = 2, -v
	}
	for v >= 10 {
		v /= 10
		n++
	}
	return n
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
