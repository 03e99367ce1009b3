package sem

// segTable holds the race detector's segments (race.go) in chunks of
// segChunk, so that the table grows without copying and gcSegs compacts
// it in place: a wide grid's run makes a segment per thread, and the
// copies of a growing flat table, with the new table of each collection,
// were most of the memory such a run touched (issue 15 item 7).
type segTable struct {
	chunks [][]seg
	n      int
	// gcSegs' tables: a bit per live segment, and the live segments
	// before each word of bits
	live []uint64
	rank []uint32
}

const segChunkBits = 16
const segChunk = 1 << segChunkBits

// at returns segment i.
func (st *segTable) at(i uint32) *seg {
	return &st.chunks[i>>segChunkBits][i&(segChunk-1)]
}

// add appends s and returns its index.
func (st *segTable) add(s seg) uint32 {
	if st.n == len(st.chunks)*segChunk {
		st.chunks = append(st.chunks, make([]seg, segChunk))
	}
	i := uint32(st.n)
	st.chunks[i>>segChunkBits][i&(segChunk-1)] = s
	st.n++
	return i
}

// truncate keeps the first n segments, and one spare chunk.
func (st *segTable) truncate(n int) {
	st.n = n
	keep := min(n/segChunk+2, len(st.chunks))
	clear(st.chunks[keep:])
	st.chunks = st.chunks[:keep]
}
