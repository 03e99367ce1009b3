package syncheck

import "testing"

// TestConstExprMemo checks the conversion's compiled constants past the
// package table (converter.constExpr) against their values, constants
// asked for again and in between others, negative ones included.
func TestConstExprMemo(t *testing.T) {
	var c converter
	ks := []int{256, -1, 256, 1 << 20, -1, 0, 255, 300, 256, -7, 300}
	for round := 0; round < 2; round++ {
		for _, k := range ks {
			if got := c.constExpr(k)(nil); got != k {
				t.Fatalf("constExpr(%d) evaluates to %d", k, got)
			}
		}
	}
	if len(c.bigConsts) != 5 {
		t.Fatalf("%d constants compiled, want one each of 256, -1, 1<<20, 300, -7", len(c.bigConsts))
	}
}
