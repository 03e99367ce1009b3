package cuda

import (
	"testing"

	"weft.dev/weft/diag"
)

// TestWriterSrc: with Src set, each line but a lone brace, a preprocessor
// line, an empty line or a continued line ends with the source position.
func TestWriterSrc(t *testing.T) {
	f := diag.NewFile("dir/k.prism", []byte("a\n  b = 1\n"))
	var w Writer
	w.Line("int x;")
	w.Src = SrcPos(f.At(4))
	w.Open("if (x) {")
	w.Line("y = 1; // note")
	w.Line("#pragma unroll")
	w.Line("")
	w.Line("#define M \\")
	w.Close("}")
	w.Src = SrcPos(diag.Pos{})
	w.Line("z = 2;")
	want := "int x;\nif (x) { // weft:src k.prism:2:3\n  y = 1; // note // weft:src k.prism:2:3\n  #pragma unroll\n\n  #define M \\\n}\nz = 2;\n"
	if got := w.String(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}
