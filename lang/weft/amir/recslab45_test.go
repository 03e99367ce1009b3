package amir

import "testing"

// TestRecSlabBytesAsBefore: the slab of 8-record chunks (stop 45) counts
// the bytes the slab of 16-record chunks in groups of at most 64 (stop
// 41) had, for every number of records taken: the memory estimate, and
// with it the MaxMemory limit, is unchanged.
func TestRecSlabBytesAsBefore(t *testing.T) {
	var s recSlab
	old, oldCap := 0, 0 // stop 41's table length (chunks of 16) and records
	for n := 1; n <= 20000; n++ {
		s.takeSlot()
		for oldCap < n {
			g := min(max(old, 1), 64)
			old += g
			oldCap += 16 * g
		}
		if got, want := s.bytes(), int64(oldCap)*recordBytes; got != want {
			t.Fatalf("%d records: %d bytes, 16-record chunks %d", n, got, want)
		}
	}
}

// TestRecSlabGrowth: stop 47's groups (half the table past 8 chunks) hold
// every record taken, est45 is stop 45's doubling table's length (the
// memory estimate: bytes), and the chunks are at most 3/2 of those the
// records need past 8.
func TestRecSlabGrowth(t *testing.T) {
	var s recSlab
	old := 0 // stop 45's table length
	for n := 1; n <= 20000; n++ {
		h := s.takeSlot()
		s.tab[h>>recChunkBits][h&(recChunk-1)].next = int32(n) // the slot is there
		need := (n + recChunk - 1) / recChunk
		for old < need {
			old += min(max(old, 1), recGroupMax)
		}
		if c := len(s.tab); c < need || est45(c) != old || need > 8 && 2*c > 3*need {
			t.Fatalf("%d records: %d chunks, %d needed, %d in stop 45's table (est45 %d)", n, c, need, old, est45(c))
		}
	}
}
