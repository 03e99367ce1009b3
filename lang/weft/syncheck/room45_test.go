package syncheck

import "testing"

// TestSlabExpect: an expected chunk is the next one made, whatever its
// size against take's (larger, and smaller than the doubling from the
// first chunk), and the chunks after it double from lo again (issue 13,
// stop 45: expectData).
func TestSlabExpect(t *testing.T) {
	for _, tc := range []struct {
		seed, expect int
		want         []int // the capacities of the chunks made, in order
	}{
		{4, 14, []int{14, 8, 16, 32}},
		{4, 5, []int{5, 8, 16, 32}},
		{4, 0, []int{8, 16, 32, 64}},
		{8, 3, []int{4, 8, 16, 32}}, // below lo: lo
	} {
		var s slab[int]
		s.seed(make([]int, tc.seed))
		s.expect(tc.expect)
		var got []int
		prev := -1
		for i := 0; i < 200; i++ {
			s.take(1, 4, 64)
			if c := cap(s.buf); c != prev && i >= tc.seed {
				got = append(got, c)
			}
			prev = cap(s.buf)
			if len(got) == len(tc.want) {
				break
			}
		}
		for i := range tc.want {
			if i >= len(got) || got[i] != tc.want[i] {
				t.Errorf("seed %d, expect %d: chunks %v, want %v", tc.seed, tc.expect, got, tc.want)
				break
			}
		}
	}
}
