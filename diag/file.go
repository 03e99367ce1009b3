package diag

import (
	"bytes"
	"unsafe"
)

// File is one source file: its name as the user gave it and its bytes.
type File struct {
	Name  string
	Src   []byte
	lines []int // byte offset of the start of each line, computed lazily
	// text is Src as a string (Text), made on first use; hasText says
	// it was made.
	text    string
	hasText bool
}

// NewFile returns a File for name with the given contents.
func NewFile(name string, src []byte) *File {
	return &File{Name: name, Src: src}
}

// NewFileOwned is NewFile for bytes the caller hands over: nothing
// changes them again, so Text is src itself as a string, not a copy (the
// weft command reads each source into a buffer of its own; the copy was
// one allocation and a memmove of the file per check, stop 32).
func NewFileOwned(name string, src []byte) *File {
	f := &File{Name: name, Src: src, hasText: true}
	if len(src) > 0 {
		f.text = unsafe.String(&src[0], len(src))
	}
	return f
}

// NewFileString is NewFile for a text that is already a string (the
// standard library's files, embedded in the binary): Src is the string's
// own bytes, not a copy, and Text is the string. A process kept two heap
// copies of the library's 53 KB of text (embed.FS.ReadFile's and Text's)
// for as long as it ran; an embedded string is in the binary's read-only
// data, outside the heap (stop 39). Src must not be written (nothing
// changes a File's bytes after it is made; here the write would fault).
func NewFileString(name, text string) *File {
	f := new(File)
	InitFileString(f, name, text)
	return f
}

// InitFileString makes *f what NewFileString(name, text) returns, in
// place: the standard library's Files are package-level variables, so
// that the Pos.File of each node of its trees, which live as long as the
// process, is not a heap pointer, which every collection would follow
// (stop 39).
func InitFileString(f *File, name, text string) {
	*f = File{Name: name, text: text, hasText: true}
	if len(text) > 0 {
		f.Src = unsafe.Slice(unsafe.StringData(text), len(text))
	}
}

// Text returns Src as a string, copied once per File: the scanner's
// token texts and the lines Line returns are substrings of it, not one
// copy each (a check that reads its "# check:" lines asked Line for every
// line of the file, 26 copies for a 2 KB kernel: issue 13). Src must not
// change once Text has been asked (nothing changes a File's bytes after
// it is made).
func (f *File) Text() string {
	if !f.hasText {
		f.text, f.hasText = string(f.Src), true
	}
	return f.text
}

// lineStarts finds the lines: a line ends at "\n", "\r\n" or a "\r" not
// followed by "\n" (old Mac files, and files mixing the three), so
// positions and excerpts are right whatever the line endings (issue 14).
func (f *File) lineStarts() []int {
	if f.lines == nil {
		if bytes.IndexByte(f.Src, '\r') < 0 {
			// Only "\n" ends a line: found by IndexByte, the table
			// sized by Count (issue 13, stop 32: a rejected check's
			// first LineCol went through a 2.8 KB kernel a byte at a
			// time, some 40 K instructions a check).
			f.lines = make([]int, 1, bytes.Count(f.Src, []byte{'\n'})+1)
			for i := 0; ; {
				j := bytes.IndexByte(f.Src[i:], '\n')
				if j < 0 {
					break
				}
				i += j + 1
				f.lines = append(f.lines, i)
			}
			return f.lines
		}
		f.lines = append(f.lines, 0)
		for i, c := range f.Src {
			if c == '\n' || c == '\r' && (i+1 == len(f.Src) || f.Src[i+1] != '\n') {
				f.lines = append(f.lines, i+1)
			}
		}
	}
	return f.lines
}

// LineCol returns the 1-based line and column of byte offset off.
func (f *File) LineCol(off int) (line, col int) {
	if off < 0 {
		return 0, 0
	}
	if off > len(f.Src) {
		off = len(f.Src)
	}
	ls := f.lineStarts()
	// The last line starting at or before off (ls[0] is 0): sort.Search's
	// binary search written out, without its closure call a step (a
	// report asks two positions a message, stop 38).
	lo, hi := 0, len(ls)
	for lo < hi {
		h := int(uint(lo+hi) >> 1)
		if ls[h] > off {
			hi = h
		} else {
			lo = h + 1
		}
	}
	i := lo - 1
	return i + 1, off - ls[i] + 1
}

// SameLine reports whether offsets a and b are on the same line
// (LineCol's lines), without building the line table: the parser asks it
// for every end-of-line comment, and a check that reports nothing never
// needs the table (issue 13). Offsets are clamped to the file as LineCol
// clamps them; a negative offset is on line 0, which no other offset is.
func (f *File) SameLine(a, b int) bool {
	if a < 0 || b < 0 {
		return a < 0 && b < 0
	}
	if a > b {
		a, b = b, a
	}
	if b > len(f.Src) {
		b = len(f.Src)
	}
	if a >= b {
		return true
	}
	// A line starts after each "\n" and after each "\r" not followed by
	// "\n" (lineStarts): the two are on one line when [a, b) holds none.
	seg := f.Src[a:b]
	if bytes.IndexByte(seg, '\n') >= 0 {
		return false
	}
	for i := bytes.IndexByte(seg, '\r'); i >= 0; {
		j := a + i // a lone "\r" ends a line
		if j+1 == len(f.Src) || f.Src[j+1] != '\n' {
			return false
		}
		k := bytes.IndexByte(seg[i+1:], '\r')
		if k < 0 {
			break
		}
		i += 1 + k
	}
	return true
}

// Offset returns the byte offset of 1-based line and column, clamped to the
// file.
func (f *File) Offset(line, col int) int {
	ls := f.lineStarts()
	if line < 1 {
		return 0
	}
	if line > len(ls) {
		return len(f.Src)
	}
	off := ls[line-1] + col - 1
	if off > len(f.Src) {
		off = len(f.Src)
	}
	if off < 0 {
		off = 0
	}
	return off
}

// Lines is the number of lines (a final line without a line ending counts;
// an empty file has one empty line).
func (f *File) Lines() int { return len(f.lineStarts()) }

// Line returns the text of 1-based line n without its line ending.
func (f *File) Line(n int) string {
	ls := f.lineStarts()
	if n < 1 || n > len(ls) {
		return ""
	}
	start := ls[n-1]
	end := len(f.Src)
	if n < len(ls) {
		end = ls[n] - 1
	}
	if end > start && f.Src[end-1] == '\r' { // "\r\n"
		end--
	}
	return f.Text()[start:end]
}

// Pos is a position in a File: a byte offset. The zero Pos is invalid and
// means "no position".
type Pos struct {
	File   *File
	Offset int
}

// At returns the position of byte offset off in f.
func (f *File) At(off int) Pos { return Pos{File: f, Offset: off} }

// IsValid reports whether p names a place in a file.
func (p Pos) IsValid() bool { return p.File != nil }

// Line returns p's 1-based line, or 0 if p is invalid.
func (p Pos) Line() int {
	if p.File == nil {
		return 0
	}
	l, _ := p.File.LineCol(p.Offset)
	return l
}

// Col returns p's 1-based byte column, or 0 if p is invalid.
func (p Pos) Col() int {
	if p.File == nil {
		return 0
	}
	_, c := p.File.LineCol(p.Offset)
	return c
}

// String renders p as file:line:col.
func (p Pos) String() string {
	if p.File == nil {
		return "-"
	}
	l, c := p.File.LineCol(p.Offset)
	return p.File.Name + ":" + itoa(l) + ":" + itoa(c)
}

// Before reports whether p comes before q (same file by offset, otherwise by
// file name).
func (p Pos) Before(q Pos) bool {
	if p.File != q.File {
		return fileName(p.File) < fileName(q.File)
	}
	return p.Offset < q.Offset
}

func fileName(f *File) string {
	if f == nil {
		return ""
	}
	return f.Name
}

// Span is a range [Start, End) in one file.
type Span struct {
	Start, End Pos
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	neg := n < 0
	if neg {
		n = -n
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}
