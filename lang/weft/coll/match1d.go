package coll

// A match that succeeds on a one-dimensional scope, decided without
// aligning shapes (issue 13, stop 41).
//
// The GPU checker matches every instruction call's unit and every write
// to a uniform register's writers (`n * cuda_thread`) against the
// scope's tiling (Matches). Under a CTA without clusters most scopes are
// one-dimensional, (n,) at pitch 1, and most units resolve to one level
// (n,) with a box (b,) (levels of extent 1 after it, which match drops
// first, aside). For those the general match (the memo's search, the
// unit resolved, align with alignSame, the box against the tile, the
// starts' alignment, a memo entry and a copy of the unit kept) is: the
// unit's pitch 1 is the scope's own, so alignSame keeps the scope's shape
// and splits the box over it as (b,); the match holds iff the box is the
// scope's tile (b == tile) and, unless b is the whole dimension, every
// start is aligned to b (startsAligned(1, b, n)). matchOne1D answers
// true where that holds and declines (false) everywhere else, where
// Matches takes the general way (which words the failure); a success
// needs no memo entry (asking again decides it again alike).
// TestMatch1DMatchesGeneral compares the two on random nests and units.

// match1DOff makes Matches take the general way always (set by the tests
// that compare the two).
var match1DOff bool

// matchOne1D reports that t.Matches(*u) is nil, decided on t's one
// dimension; false says nothing.
func (t *Tiling) matchOne1D(u *Unit) bool {
	if match1DOff || len(t.Dims) != 1 || len(u.Domain) != len(u.Box) || len(u.Domain) == 0 || len(u.Domain) > 3 {
		return false
	}
	n := t.M.Threads()
	tt := t.Tile[0]
	if n < 2 || t.Dims[0] != (Dim{n, 1}) || tt < 1 || tt > n || t.Full[0] < 1 || t.Full[0] > n {
		return false // alignSame's conditions
	}
	d, ok1 := symValue(u.Domain[0], t.M)
	b, ok2 := symValue(u.Box[0], t.M)
	if !ok1 || !ok2 || d != n || b != tt {
		return false
	}
	// Further levels of extent 1 and box 1: Resolve accepts them (the
	// domain's product stays n), match drops them before aligning.
	for i := 1; i < len(u.Domain); i++ {
		di, ok1 := symValue(u.Domain[i], t.M)
		bi, ok2 := symValue(u.Box[i], t.M)
		if !ok1 || !ok2 || di != 1 || bi != 1 {
			return false
		}
	}
	return b == n || t.startsAligned(1, b, n)
}
