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

// TestIdentFastPath checks that Ident returns a valid name as it is exactly
// when building it character by character gives it back.
func TestIdentFastPath(t *testing.T) {
	names := []string{"", "_", "__x", "_x", "x1", "1x", "int", "int_", "threadIdx", "a-b", "é", "A_b9", "x__", "main", "ok"}
	alphabet := "a_1Z-é"
	for n := 0; n < 4000; n++ {
		var b []rune
		for k := n; k > 0; k /= 7 {
			b = append(b, []rune(alphabet)[k%6])
		}
		names = append(names, string(b))
	}
	for _, name := range names {
		if got, want := Ident(name), identSlow(name); got != want {
			t.Errorf("Ident(%q) = %q, want %q", name, got, want)
		}
	}
}
