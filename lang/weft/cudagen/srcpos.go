package cudagen

import (
	"weft.dev/weft/cuda"
	"weft.dev/weft/lang/weft/syntax"
)

// srcAt makes the lines w writes until the returned function runs carry
// s's source position as a "// weft:src FILE:LINE:COL" comment
// (cuda.Writer.Src): weft validate names it beside a diagnostic of the
// generated line (issue 12, item 7). Comments only: nvcc compiles the
// same code.
func srcAt(w *cuda.Writer, s syntax.Stmt) func() {
	if w.Discard {
		return func() {}
	}
	prev := w.Src
	if p := cuda.SrcPos(s.Pos()); p != "" {
		w.Src = p
	}
	return func() { w.Src = prev }
}
