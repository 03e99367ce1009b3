package amir

import "math/bits"

// The record slab (issue 13, stop 28). The visibility records had been
// one slice grown by copying into one four, then two times larger (64,
// 256, 1 024, 3 072, ... records): a check of 1 500 records allocated,
// zeroed and partly copied 4 416 (390 KB), most of the small kernels'
// allocation, and with it most of their collections. The slab is now a
// table of fixed chunks of recChunk records (256, 22 KB, a small-object size
// class): a check allocates its records rounded up to a chunk and copies
// none, and a record never moves (a pointer to one stays valid across
// takeRecord). An index is one table load away from its record: h /
// recChunk picks the chunk, h % recChunk the record, and the chunk being
// an array, the second index needs no bounds check.
//
// A machine run again reuses its chunks: the records below dirty may
// hold the last run's contents (takeRecord zeroes them).
//
// Stop 31 (issue 13): chunks of 64 records (5.6 KB), allocated in groups
// that double with the table (1, 1, 2, 4, 8, then recGroupMax chunks in
// one allocation). The 256-record first chunk (22 KB, zeroed) had been
// the whole slab of the small kernels, which take 8 to 20 records
// (per_cta_alloc, rmem_uniform: takeSlot was 3-5% of their check); a
// large run still allocates about as many bytes a time as before, and
// the index is the same shift and mask.
//
// Stop 41 (issue 13): chunks of 16 records (1.4 KB), groups up to 64
// chunks (the same 1 024 records an allocation at most). A small
// kernel's first chunk of 64 was 5.6 KB zeroed for its 1 to 20 records
// (per_cta_alloc takes one: its largest allocation of the machine). A
// run of more records makes two or three more small groups on the way
// to the large ones; the index is still a shift and a mask.
//
// Stop 45 (issue 13): chunks of 8 records (704 bytes, a 768-byte size
// class), groups up to 128 chunks (1 024 records an allocation at most,
// as before). The first chunk of 16 (1 536 bytes, zeroed) had been a
// tenth of a small kernel's machine allocation for its one record
// (per_cta_alloc, the 6-line kernel); a larger run makes one more small
// group, and the machine's room holds twice the table entries (the same
// records).
//
// Stop 47 (issue 13): past 8 chunks a group is half the table (at most
// recGroupMax chunks), not as large as the table: doubling had left up
// to half the slab's records unused, zeroed for nothing (shfl_xor takes
// 82 records, in 16 chunks, 6 of them unused: 4.2 KB a check; the
// 72-record rows 7 of 16). A run of 1 024 records makes a few more
// groups. The memory estimate counts the table stop 45's groups would
// have made (bytes), not this one: the MaxMemory limit is unchanged.
type recSlab struct {
	tab   []*[recChunk]record
	n     int32 // records taken
	dirty int32
}

const (
	recChunkBits = 3
	recChunk     = 1 << recChunkBits
	// recGroupMax is the most chunks one allocation holds (1 024
	// records, 90 KB).
	recGroupMax = 128
)

// rec returns record h.
func (m *Machine) rec(h int32) *record {
	return &m.recs.tab[h>>recChunkBits][h&(recChunk-1)]
}

// takeSlot returns the index of the next unused record slot.
func (s *recSlab) takeSlot() int32 {
	if int(s.n) == len(s.tab)*recChunk {
		s.grow()
	}
	i := s.n
	s.n++
	return i
}

// grow adds a group of chunks in one allocation: as many as the table
// holds (one at first) up to 8 chunks, then half as many, rounded down
// to a power of two (4, 4, 8, 8, 16, ...), at most recGroupMax.
func (s *recSlab) grow() {
	n := max(len(s.tab), 1)
	if n >= 8 {
		n = 1 << (bits.Len(uint(n)) - 2)
	}
	g := make([][recChunk]record, min(n, recGroupMax))
	for i := range g {
		s.tab = append(s.tab, &g[i])
	}
}

// reset empties the slab for a new run, keeping its chunks.
func (s *recSlab) reset() {
	s.n = 0
	s.dirty = int32(len(s.tab) * recChunk)
}

// bytes is what the memory estimate (Stats.Memory, the MaxMemory limit)
// counts for the slab: the size stop 45's table would have (est45),
// except that a slab of one
// 8-record chunk counts two, as the 16-record chunks before stop 45 did.
// That overstates a one-chunk slab by 8 records and no other: the groups
// from the second on hold the records 16-record chunks did (16, 32, ...,
// 1 024, then 1 024 more each), so the estimate is the one of before,
// a little above the truth on the smallest runs, never below it.
func (s *recSlab) bytes() int64 {
	est := est45(len(s.tab))
	return int64(max(est, 2*min(est, 1))) * recChunk * recordBytes
}

// est45 is the chunks stop 45's table holds where stop 47's holds n: its
// lengths (1, 2, 4, ..., 128, then 128 more each) are among stop 47's (1,
// 2, 4, 8, 12, 16, 24, ..., 128, 192, 256, then 128 more each), and each
// grows when the records taken fill it, so both tables' lengths follow
// the records taken, and stop 45's is the least of its lengths at least
// n (TestRecSlabBytesAsBefore, TestRecSlabGrowth).
func est45(n int) int {
	if n <= recGroupMax {
		if n <= 1 {
			return n
		}
		return 1 << bits.Len(uint(n-1))
	}
	return (n + recGroupMax - 1) / recGroupMax * recGroupMax
}
