package frontend

import "testing"

// TestLoneCRToLF: each "\r" not followed by "\n" becomes "\n" (at the
// start, in the middle, at the end, in runs), "\r\n" is kept, and a file
// without "\r" is unchanged, the same as a byte-by-byte rewrite.
func TestLoneCRToLF(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{"no cr\n", "no cr\n"},
		{"\r", "\n"},
		{"a\rb\r\nc\r", "a\nb\r\nc\n"},
		{"\r\r\n\r\r", "\n\r\n\n\n"},
		{"x\r\n", "x\r\n"},
	} {
		if got := string(LoneCRToLF([]byte(c.in))); got != c.want {
			t.Errorf("LoneCRToLF(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
