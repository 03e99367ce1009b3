package amir

// The record slab (issue 13, stop 28). The visibility records had been
// one slice grown by copying into one four, then two times larger (64,
// 256, 1 024, 3 072, ... records): a check of 1 500 records allocated,
// zeroed and partly copied 4 416 (390 KB), most of the small kernels'
// allocation, and with it most of their collections. The slab is now a
// table of fixed chunks of recChunk records (22 KB, a small-object size
// class): a check allocates its records rounded up to a chunk and copies
// none, and a record never moves (a pointer to one stays valid across
// takeRecord). An index is one table load away from its record: h /
// recChunk picks the chunk, h % recChunk the record, and the chunk being
// an array, the second index needs no bounds check.
//
// A machine run again reuses its chunks: the records below dirty may
// hold the last run's contents (takeRecord zeroes them).
type recSlab struct {
	tab   []*[recChunk]record
	n     int32 // records taken
	dirty int32
}

const (
	recChunkBits = 8
	recChunk     = 1 << recChunkBits
)

// rec returns record h.
func (m *Machine) rec(h int32) *record {
	return &m.recs.tab[h>>recChunkBits][h&(recChunk-1)]
}

// takeSlot returns the index of the next unused record slot.
func (s *recSlab) takeSlot() int32 {
	if int(s.n) == len(s.tab)*recChunk {
		s.tab = append(s.tab, new([recChunk]record))
	}
	i := s.n
	s.n++
	return i
}

// reset empties the slab for a new run, keeping its chunks.
func (s *recSlab) reset() {
	s.n = 0
	s.dirty = int32(len(s.tab) * recChunk)
}

// bytes is the slab's allocated size.
func (s *recSlab) bytes() int64 {
	return int64(len(s.tab)) * recChunk * recordBytes
}
