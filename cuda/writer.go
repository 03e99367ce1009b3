package cuda

import (
	"fmt"
	"path/filepath"
	"strings"

	"weft.dev/weft/diag"
)

// Writer builds C/C++ source with indentation.
type Writer struct {
	b      strings.Builder
	indent int
	Tab    string // indentation unit; "  " if empty
	// Src, when not empty, is the source position (FILE:LINE:COL) of the
	// statement being generated: Line ends each line but a lone brace or
	// a preprocessor line with the comment "// weft:src FILE:LINE:COL"
	// (weft validate locates a diagnostic of the generated file in the
	// source; issue 12 item 7). Comments leave what nvcc compiles alone.
	Src string
	// Discard drops everything written: a generator's pass that only
	// learns facts or reports diagnostics (weft check runs the Weft code
	// generator for its diagnostics alone) need not format text.
	Discard bool
}

// Line writes one formatted line at the current indentation.
func (w *Writer) Line(format string, args ...any) {
	if w.Discard {
		return
	}
	tab := w.Tab
	if tab == "" {
		tab = "  "
	}
	s := fmt.Sprintf(format, args...)
	if w.Src != "" && s != "" && s != "}" && s != "{" && !strings.HasPrefix(s, "#") && !strings.HasSuffix(s, "\\") {
		s += " // weft:src " + w.Src
	}
	if s != "" {
		w.b.WriteString(strings.Repeat(tab, w.indent))
	}
	w.b.WriteString(s)
	w.b.WriteByte('\n')
}

// SrcPos renders p for Src: the base name of its file, its line and
// column ("" when p is invalid).
func SrcPos(p diag.Pos) string {
	if !p.IsValid() {
		return ""
	}
	return fmt.Sprintf("%s:%d:%d", filepath.Base(p.File.Name), p.Line(), p.Col())
}

// Raw writes s verbatim.
func (w *Writer) Raw(s string) {
	if !w.Discard {
		w.b.WriteString(s)
	}
}

// Open writes a line ending a block opener (e.g. "if (x) {") and indents.
func (w *Writer) Open(format string, args ...any) {
	w.Line(format, args...)
	w.indent++
}

// Close dedents and writes a closing line (e.g. "}").
func (w *Writer) Close(format string, args ...any) {
	if w.indent > 0 {
		w.indent--
	}
	w.Line(format, args...)
}

// Indent and Dedent adjust the level without writing.
func (w *Writer) Indent() { w.indent++ }
func (w *Writer) Dedent() {
	if w.indent > 0 {
		w.indent--
	}
}

// String returns the text written so far.
func (w *Writer) String() string { return w.b.String() }

var reserved = map[string]bool{}

func init() {
	for _, k := range strings.Fields(`auto break case char const continue default do double else enum extern
float for goto if inline int long register restrict return short signed sizeof static struct switch
typedef union unsigned void volatile while bool true false class delete new this template typename
namespace using public private protected virtual operator friend throw try catch asm alignas alignof
constexpr decltype explicit export mutable noexcept nullptr static_assert thread_local dim3
threadIdx blockIdx blockDim gridDim warpSize main printf malloc free memcpy memset`) {
		reserved[k] = true
	}
}

// Ident returns a valid C identifier for name: characters outside
// [A-Za-z0-9_] become '_', a leading digit gets a '_' prefix, and reserved
// words and names starting with "__" (reserved to the implementation) get a
// "_w" suffix or prefix.
func Ident(name string) string {
	if validIdent(name) {
		return name // the common case, without building a copy
	}
	return identSlow(name)
}

// identSlow is Ident building the identifier character by character.
func identSlow(name string) string {
	var b strings.Builder
	for i, r := range name {
		ok := r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9' && i > 0)
		if r >= '0' && r <= '9' && i == 0 {
			b.WriteByte('_')
			ok = true
		}
		if ok {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	s := b.String()
	if s == "" {
		s = "_"
	}
	if strings.HasPrefix(s, "__") {
		s = "w" + s
	}
	if reserved[s] {
		s += "_w"
	}
	return s
}

// validIdent reports whether Ident(name) is name: a nonempty C identifier,
// not reserved, not starting with "__".
func validIdent(name string) bool {
	if name == "" || strings.HasPrefix(name, "__") || reserved[name] {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' && i > 0) {
			return false
		}
	}
	return true
}
