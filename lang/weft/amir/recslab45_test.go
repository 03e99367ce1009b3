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
