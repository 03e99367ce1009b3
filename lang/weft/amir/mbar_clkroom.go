package amir

// The clocks' first room in one object (issue 13, stop 34). A check of a
// program with ring-buffered arrays made its clocks (mbar_clock.go) from
// about thirty objects: the clock itself, the births, columns and last
// births, the atoms' scratch lists (atoms, cnt, remap, split, size,
// splitGen) each grown by append from nothing, the first rows and the
// chunks of cell-entry values (hwClkChunk values each; the room holds
// two, the three-ring pipeline's rows fill three). The three-ring
// pipeline's rows hold 8 columns and about 20 atoms; these arrays are
// sized for them and grow by append as before past that, so a larger
// program pays what it paid. Nothing here outlives the machine (one
// check): the room is made with the clocks, on a machine's first Await
// record (clkBirth).

// Sizes of the room's arrays.
const (
	clkRoomBirths = 64 // births registered and not yet folded
	clkRoomCols   = 16 // columns
	clkRoomAtoms  = 64 // atoms (the scratch lists are by atom)
	clkRoomRows   = 16 // atoms with rows of 8 columns (clkCol's first rows)
	clkRoomChunks = 2  // chunks of cell-entry values
)

type hwClockRoom struct {
	c                                  hwClock
	births                             [clkRoomBirths]hwBirth
	cols                               [clkRoomCols]threads
	last                               [clkRoomCols]int32
	atoms, cnt, remap, split, size, sg [clkRoomAtoms]int32
	clk                                [clkRoomRows * hwClkRows * 8]int32
	vals                               [4][]int32
	chunks                             [clkRoomChunks * hwClkChunk]int32
}

// newHWClock returns clocks whose lists start in one room (above).
func newHWClock() *hwClock {
	r := new(hwClockRoom)
	c := &r.c
	c.births = r.births[:0]
	c.cols, c.last = r.cols[:0], r.last[:0]
	c.atoms, c.cnt, c.remap, c.split = r.atoms[:0], r.cnt[:0], r.remap[:0], r.split[:0]
	c.size, c.splitGen = r.size[:0], r.sg[:0]
	c.clk0 = r.clk[:]
	for i := range clkRoomChunks {
		r.vals[i] = r.chunks[i*hwClkChunk : (i+1)*hwClkChunk : (i+1)*hwClkChunk]
	}
	c.vals = r.vals[:clkRoomChunks]
	return c
}
