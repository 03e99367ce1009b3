package amir

import "testing"

// TestClkSameEntsMemo checks clkSameEnts' shortcut (an Await that read
// one entry in the previous virtual round and reads one sharing its
// values, later by the round's length): an entry that shares another
// template entry's values, or the same values at another shift, is
// compared in full and refused; the right one is taken with the shortcut
// and without it.
func TestClkSameEntsMemo(t *testing.T) {
	m := &Machine{hwClk: newHWClock()}
	c := m.hwClk
	c.cols, c.last, c.stride = append(c.cols, threads{}), append(c.last, 5), 8
	rd := &c.rd
	rd.dlen, rd.aw = 12, make([]hwClkEnt, 12)
	room := func(a, b, u int32) int32 {
		off, v := c.valsReserve(3 * c.stride)
		v[0], v[c.stride], v[2*c.stride] = a, b, u
		return off
	}
	v0, w0 := room(5, 3, 7), room(6, -1, 9)
	// Cell 0: the template's entry (values v0); cells 1-4: entries of
	// virtual rounds.
	c.addEnt(pend{cell: 0, count: 1}, hwClkEnt{count: 1, off: v0, n: 1, w: 8}, 8)
	tn := int32(len(c.ents))
	c.addEnt(pend{cell: 1, count: 1}, hwClkEnt{count: 1, off: v0, n: 1, w: 8, sh: 12}, 8)
	c.addEnt(pend{cell: 2, count: 1}, hwClkEnt{count: 1, off: w0, n: 1, w: 8, sh: 24}, 8) // another template entry's values
	c.addEnt(pend{cell: 3, count: 1}, hwClkEnt{count: 1, off: v0, n: 1, w: 8, sh: 36}, 8) // v0 at another shift
	c.addEnt(pend{cell: 4, count: 1}, hwClkEnt{count: 1, off: v0, n: 1, w: 8, sh: 24}, 8) // the right one
	tp := pend{cell: 0, count: 1}
	for _, tc := range []struct {
		cell int32
		memo bool
		want bool
	}{{2, true, false}, {3, true, false}, {4, true, true}, {4, false, true}, {2, false, false}} {
		rd.aw[3] = hwClkEnt{}
		if tc.memo {
			rd.aw[3] = c.ents[1] // cell 1's, read in the previous round
		}
		if got := m.clkSameEnts(3, pend{cell: tc.cell, count: 1}, tp, tn, 24); got != tc.want {
			t.Errorf("cell %d (memo %v): clkSameEnts = %v, want %v", tc.cell, tc.memo, got, tc.want)
		}
		if tc.want && rd.aw[3] != c.ents[4] {
			t.Errorf("cell %d (memo %v): the memo is not the entry read", tc.cell, tc.memo)
		}
	}
}

// TestSeenIndexUnseen checks seenIndex's cache of keys missing from
// m.seen: a key found missing is missing while m.seen does not grow, and
// found once it holds it; other keys are looked up as before.
func TestSeenIndexUnseen(t *testing.T) {
	m := &Machine{hwClk: newHWClock()}
	c := m.hwClk
	k1, k2, k3 := [2]int{1, 2}, [2]int{3, 4}, [2]int{5, 6}
	m.seen = map[[2]int]int{k3: 7}
	for range 2 {
		if _, ok := c.seenIndex(m, k1); ok {
			t.Fatalf("k1 found in %v", m.seen)
		}
	}
	if i, ok := c.seenIndex(m, k3); !ok || i != 7 {
		t.Fatalf("k3: %d, %v", i, ok)
	}
	m.seen[k1] = 2
	if i, ok := c.seenIndex(m, k1); !ok || i != 2 {
		t.Fatalf("k1 after m.seen grew: %d, %v", i, ok)
	}
	if _, ok := c.seenIndex(m, k2); ok {
		t.Fatalf("k2 found")
	}
	m.seen[k2] = -1
	if i, ok := c.seenIndex(m, k2); !ok || i != -1 {
		t.Fatalf("k2 after m.seen grew: %d, %v", i, ok)
	}
}
