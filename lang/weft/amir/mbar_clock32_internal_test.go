package amir

import "testing"

// TestClkEntryLayout (stop 32): an Arrive's cell entry holds the join of
// its atoms' aT, bT and uA rows, written straight into the entry's room
// (clkJoinInto: one copy for one atom, whose three rows are adjacent) and
// read back w = stride apart (entVals). With fewer columns than the
// stride (3 of 8 here) a layout slip (reading the parts n apart, copying
// from the wrong row) gives other values; the differential tests
// (TestHWClock*) do not see it, as a claim the clocks cannot make only
// sends a check to the replay.
func TestClkEntryLayout(t *testing.T) {
	c := &hwClock{cols: make([]threads, 3), stride: 8}
	const atoms = 3
	c.clk = make([]int32, atoms*hwClkRows*c.stride)
	for i := range c.clk {
		c.clk[i] = int32((i * 37) % 101)
	}
	for _, as := range [][]int32{{1}, {2}, {0, 2}, {2, 1, 0}} {
		off, v := c.valsReserve(3 * c.stride)
		c.clkJoinInto(as, v)
		en := hwClkEnt{off: off, n: int32(len(c.cols)), w: int32(c.stride)}
		va, vb, vu := c.entVals(&en)
		for part, row := range []int{rowAT, rowBT, rowUA} {
			got := [][]int32{va, vb, vu}[part]
			if len(got) != len(c.cols) {
				t.Fatalf("atoms %v: part %d has %d values, want %d", as, part, len(got), len(c.cols))
			}
			for k := range c.cols {
				want := int32(-1)
				for _, a := range as {
					want = max(want, c.clk[int(a)*hwClkRows*c.stride+row*c.stride+k])
				}
				if got[k] != want {
					t.Errorf("atoms %v: row %d column %d is %d, want %d", as, row, k, got[k], want)
				}
			}
		}
	}
}
