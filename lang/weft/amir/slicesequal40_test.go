package amir

import "testing"

// TestSlicesEqual32Shared covers slicesEqual32's shortcut for one backing
// array (stop 40) beside the element-wise compare it stands for.
func TestSlicesEqual32Shared(t *testing.T) {
	a := []int32{3, 1, 4, 1, 5}
	b := []int32{3, 1, 4, 1, 5}
	cases := []struct {
		x, y []int32
		want bool
	}{
		{a, a, true},             // shortcut
		{a[:3], a[:3], true},     // shortcut, a prefix
		{a, b, true},             // element-wise
		{a[:3], a[:4], false},    // one backing, lengths differ
		{a[1:3], a[3:5], false},  // {1, 4} vs {1, 5}
		{a[:0], b[:0], true},     // empty
		{a[1:2], b[3:4], true},   // {1} vs {1}, other arrays
		{a[0:2], a[1:3], false},  // one array, other starts
		{nil, a[:0], true},       // nil and empty
		{a[2:3], b[2:3], true},   // element-wise, equal
		{a[4:5], b[2:3], false},  // element-wise, differ
		{a[1:2], a[3:4], true},   // one array, other starts, equal
		{a[:5:5], b[:5:5], true}, // capacities do not matter
	}
	for i, c := range cases {
		if got := slicesEqual32(c.x, c.y); got != c.want {
			t.Errorf("case %d: slicesEqual32(%v, %v) = %v, want %v", i, c.x, c.y, got, c.want)
		}
	}
}
