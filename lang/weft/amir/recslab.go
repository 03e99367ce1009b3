package amir

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

// grow adds a group of chunks, as many as the table holds (one at
// first, at most recGroupMax), in one allocation.
func (s *recSlab) grow() {
	g := make([][recChunk]record, min(max(len(s.tab), 1), recGroupMax))
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
// counts for the slab: its allocated size, except that a slab of one
// 8-record chunk counts two, as the 16-record chunks before stop 45 did.
// That overstates a one-chunk slab by 8 records and no other: the groups
// from the second on hold the records 16-record chunks did (16, 32, ...,
// 1 024, then 1 024 more each), so the estimate is the one of before,
// a little above the truth on the smallest runs, never below it.
func (s *recSlab) bytes() int64 {
	return int64(max(len(s.tab), 2*min(len(s.tab), 1))) * recChunk * recordBytes
}
