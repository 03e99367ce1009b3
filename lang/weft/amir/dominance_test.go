package amir

import "testing"

// TestPendsCover: an old record may be dropped for a new one only
// when its arrive observations cover the new one's cell by cell.
func TestPendsCover(t *testing.T) {
	p := func(cc ...int32) []pend {
		var out []pend
		for i := 0; i+1 < len(cc); i += 2 {
			out = append(out, pend{cell: cc[i], count: cc[i+1]})
		}
		return out
	}
	cases := []struct {
		old, nw []pend
		want    bool
	}{
		{nil, nil, true},
		{p(0, 0), nil, true},            // old has more: more visible
		{nil, p(0, 0), false},           // new can be released by an Await old cannot
		{p(0, 0), p(0, 0), true},        // same cell, same count
		{p(0, 0), p(0, 3), true},        // older observation on the same cell
		{p(0, 3), p(0, 0), false},       // old needs a later arrive than new
		{p(0, 0), p(1, 0), false},       // other cell (the unsound drop of issue 4)
		{p(1, 0, 0, 2), p(0, 2), true},  // superset by cell
		{p(0, 0), p(0, 0, 1, 0), false}, // new pends on one more cell
		{p(0, 0, 1, 5), p(0, 0, 1, 4), false},
	}
	for _, c := range cases {
		if got := pendsCover(c.old, c.nw); got != c.want {
			t.Errorf("pendsCover(%v, %v) = %v, want %v", c.old, c.nw, got, c.want)
		}
	}
}
