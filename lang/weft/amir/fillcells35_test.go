package amir

import "testing"

// TestFillCellsEveryLength: fillCells sets every cell, at each length
// around the loop's threshold and the doublings, and nothing past the
// slice (the backing array's tail keeps its sentinel).
func TestFillCellsEveryLength(t *testing.T) {
	sentinel := cell{7, 9, 11}
	for n := 0; n <= 4*fillCellsLoop+3; n++ {
		buf := make([]cell, n+2)
		for i := range buf {
			buf[i] = sentinel
		}
		want := cell{-1, -1, uint64(n + 1)}
		fillCells(buf[:n], want)
		for i := 0; i < n; i++ {
			if buf[i] != want {
				t.Fatalf("n=%d: cell %d = %v, want %v", n, i, buf[i], want)
			}
		}
		if buf[n] != sentinel || buf[n+1] != sentinel {
			t.Fatalf("n=%d: wrote past the slice", n)
		}
	}
}
