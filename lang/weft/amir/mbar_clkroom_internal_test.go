package amir

import (
	"math/rand"
	"slices"
	"testing"
)

// TestClkRoomMatchesPlain (stop 34): clocks made in one room
// (newHWClock, mbar_clkroom.go) keep the same columns, atoms and rows as
// clocks grown from nothing, through columns widened past the room's
// first rows (8 columns, then 16, 32) with few atoms and with many, atoms
// split past the room's lists, and a second run (reset) on the same
// clocks. A row lost in a widening (the room's rows read after they were
// overwritten) only makes the clocks claim less, so the verdict tests
// (TestHWClock*) do not see it; this compares the rows themselves.
func TestClkRoomMatchesPlain(t *testing.T) {
	rng := rand.New(rand.NewSource(34))
	shapes := [][]int32{{0}, {0, 1}, {0, 1, 2, 3}, {0, 2, 4, 6}, {0, 32, 64, 96}, {0, 1, 32, 33}}
	widened, chunks := 0, 0
	for iter := 0; iter < 3000; iter++ {
		mk := func(c *hwClock) *Machine {
			return &Machine{shapes: shapes, hwClk: c}
		}
		room, plain := mk(newHWClock()), mk(&hwClock{})
		ncols := 1 + rng.Intn(40)
		for run := uint64(1); run <= 2; run++ {
			room.hwClk.reset(run, 0, 0)
			plain.hwClk.reset(run, 0, 0)
			type kept struct {
				off  int32
				vals []int32
			}
			var ents []kept
			for step := 0; step < 60; step++ {
				if st := room.hwClk.stride; st > 0 {
					// An entry's room, as clkEvent takes it: it
					// must keep its values while later rooms are
					// taken (the chunks, the room's two included).
					off, v := room.hwClk.valsReserve(3 * st)
					k := kept{off: off}
					for i := range v {
						v[i] = int32(rng.Intn(1 << 20))
						k.vals = append(k.vals, v[i])
					}
					ents = append(ents, k)
				}
				e := threads{start: int32(rng.Intn(8) * []int{1, 4, 32}[rng.Intn(3)]), shape: int32(rng.Intn(len(shapes)))}
				if rng.Intn(3) == 0 && len(room.hwClk.cols) < ncols {
					e.start += int32(1000 * (1 + len(room.hwClk.cols)))
					st := room.hwClk.stride
					kr, kp := room.clkCol(e, true), plain.clkCol(e, true)
					if kr != kp {
						t.Fatalf("iter %d: column %d, plain %d", iter, kr, kp)
					}
					if room.hwClk.stride != st {
						widened++
					}
					continue
				}
				split := rng.Intn(2) == 0
				ar, er := room.clkAtomsScan(e, split)
				ap, ep := plain.clkAtomsScan(e, split)
				if !slices.Equal(ar, ap) || er != ep {
					t.Fatalf("iter %d: atoms %v %v, plain %v %v", iter, ar, er, ap, ep)
				}
				// Write some values into the atoms' rows.
				c, p := room.hwClk, plain.hwClk
				for _, a := range ar {
					for k := range c.cols {
						row := rng.Intn(hwClkRows)
						v := int32(rng.Intn(1000))
						c.clk[(int(a)*hwClkRows+row)*c.stride+k] = v
						p.clk[(int(a)*hwClkRows+row)*p.stride+k] = v
					}
				}
				clkSameRows(t, iter, c, p)
			}
			for _, k := range ents {
				c := room.hwClk
				got := c.vals[k.off>>hwClkChunkBits][k.off&(hwClkChunk-1):][:len(k.vals)]
				if !slices.Equal(got, k.vals) {
					t.Fatalf("iter %d: the entry at %#x was overwritten", iter, k.off)
				}
			}
			if len(room.hwClk.vals) > clkRoomChunks {
				chunks++
			}
		}
	}
	if chunks == 0 {
		t.Errorf("no run took more than the room's chunks")
	}
	if widened < 3000 {
		t.Errorf("%d widenings: the columns did not grow enough", widened)
	}
}

func clkSameRows(t *testing.T, iter int, c, p *hwClock) {
	t.Helper()
	if c.stride != p.stride || !slices.Equal(c.size, p.size) || !slices.Equal(c.cols, p.cols) || !slices.Equal(c.atomOf, p.atomOf) {
		t.Fatalf("iter %d: stride %d sizes %v, plain %d %v", iter, c.stride, c.size, p.stride, p.size)
	}
	for a := range c.size {
		for row := 0; row < hwClkRows; row++ {
			for k := range c.cols {
				i := (a*hwClkRows+row)*c.stride + k
				if c.clk[i] != p.clk[i] {
					t.Fatalf("iter %d: atom %d row %d column %d is %d, plain %d", iter, a, row, k, c.clk[i], p.clk[i])
				}
			}
		}
	}
}
