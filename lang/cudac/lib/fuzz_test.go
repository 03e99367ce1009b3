package lib

import "testing"

// FuzzScan runs the scanf engine on arbitrary input and formats: it must
// not panic, and never report more bytes consumed than the input has.
func FuzzScan(f *testing.F) {
	f.Add([]byte("ADL 12 -3.5 x"), "%255s %d %lf %c%n")
	f.Add([]byte("key=val"), "%[^=]=%[a-z]")
	f.Add([]byte("0x1f 017"), "%i %*i %%")
	f.Fuzz(func(t *testing.T, in []byte, format string) {
		items, used, n, _ := Scan(in, format)
		if used < 0 || used > len(in) {
			t.Fatalf("consumed %d of %d bytes", used, len(in))
		}
		if n > len(items) {
			t.Fatalf("%d conversions, %d items", n, len(items))
		}
	})
}

// FuzzStrTo runs strtol/strtoul/strtod on arbitrary text and bases.
func FuzzStrTo(f *testing.F) {
	f.Add([]byte("  -0x1fz"), 0)
	f.Add([]byte("1e400"), 10)
	f.Add([]byte("nan(12)"), 36)
	f.Fuzz(func(t *testing.T, in []byte, base int) {
		for _, signed := range []bool{true, false} {
			if _, n, _ := StrToInt(in, base, signed, 64); n < 0 || n > len(in) {
				t.Fatalf("StrToInt consumed %d of %d", n, len(in))
			}
		}
		if _, n, _ := StrToFloat(in); n < 0 || n > len(in) {
			t.Fatalf("StrToFloat consumed %d of %d", n, len(in))
		}
	})
}
