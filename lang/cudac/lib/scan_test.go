package lib

import "testing"

func TestScan(t *testing.T) {
	items, used, n, eof := Scan([]byte("  ADL 12 -3.5e1 x0y rest"), "%255s %d %lf %c%*c%c%n")
	if n != 5 || eof || used != 19 {
		t.Fatalf("n=%d eof=%v used=%d", n, eof, used)
	}
	if string(items[0].Str) != "ADL" || items[1].Int != 12 || items[2].Float != -35 || items[2].Size != 8 ||
		string(items[3].Str) != "x" || string(items[4].Str) != "y" || items[5].Kind != 'n' || items[5].Int != 19 {
		t.Errorf("items %+v", items)
	}
	if _, _, n, eof := Scan([]byte("   "), "%d"); n != 0 || !eof {
		t.Errorf("EOF: n=%d eof=%v", n, eof)
	}
	if _, used, n, eof := Scan([]byte("abc"), "%d"); n != 0 || eof || used != 0 {
		t.Errorf("matching failure: n=%d eof=%v used=%d", n, eof, used)
	}
	items, _, n, _ = Scan([]byte("key=val;"), "%[^=]=%[a-z]")
	if n != 2 || string(items[0].Str) != "key" || string(items[1].Str) != "val" {
		t.Errorf("scanset: %+v", items)
	}
	items, _, n, _ = Scan([]byte("0x1f 017 42%"), "%i %i %u%%")
	if n != 3 || items[0].Int != 31 || items[1].Int != 15 || items[2].Int != 42 {
		t.Errorf("%%i: %+v", items)
	}
}
