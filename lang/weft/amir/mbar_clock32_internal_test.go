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

// TestClkGrantRows (stop 32): clkGrantFrom raises an atom's aT and bT to
// J_A and J_B when the grant's temporal set holds the hidden timeline, aF
// to J_A when its full set does, and uA to J_U always (hwClock), for each
// of the four flag combinations (the two-set case runs its own loop).
// Lower values than these only send checks to the replay, and TestHWClock*
// do not see them; this pins each row.
func TestClkGrantRows(t *testing.T) {
	for _, temp := range []bool{false, true} {
		for _, full := range []bool{false, true} {
			c := &hwClock{cols: make([]threads, 5), stride: 8}
			const atoms = 3
			c.clk = make([]int32, atoms*hwClkRows*c.stride)
			for i := range c.clk {
				c.clk[i] = int32((i*53)%97) - 20
			}
			before := append([]int32(nil), c.clk...)
			n := len(c.cols)
			ja, jb, ju := make([]int32, n), make([]int32, n), make([]int32, n)
			for k := range ja {
				// J_B <= J_A <= J_U, as the fold makes them, each
				// above some rows and below others.
				jb[k], ja[k], ju[k] = int32(10*k-5), int32(10*k+15), int32(10*k+40)
			}
			as := []int32{2, 0}
			c.clkGrantFrom(as, ja, jb, ju, temp, full)
			for a := 0; a < atoms; a++ {
				granted := a != 1
				for row := 0; row < hwClkRows; row++ {
					for k := 0; k < c.stride; k++ {
						i := a*hwClkRows*c.stride + row*c.stride + k
						want := before[i]
						if granted && k < n {
							switch {
							case row == rowAT && temp, row == rowAF && full:
								want = max(want, ja[k])
							case row == rowBT && temp:
								want = max(want, jb[k])
							case row == rowUA:
								want = max(want, ju[k])
							}
						}
						if c.clk[i] != want {
							t.Errorf("temp %v full %v: atom %d row %d column %d is %d, want %d", temp, full, a, row, k, c.clk[i], want)
						}
					}
				}
			}
		}
	}
}
