package cuda

import "testing"

func TestWriter(t *testing.T) {
	var w Writer
	w.Open("if (x) {")
	w.Line("y = %d;", 1)
	w.Close("}")
	if got, want := w.String(), "if (x) {\n  y = 1;\n}\n"; got != want {
		t.Errorf("got %q want %q", got, want)
	}
}

func TestIdent(t *testing.T) {
	for in, want := range map[string]string{"a.b": "a_b", "1x": "_1x", "int": "int_w", "__x": "w__x", "ok_1": "ok_1", "": "_"} {
		if got := Ident(in); got != want {
			t.Errorf("Ident(%q) = %q, want %q", in, got, want)
		}
	}
}
