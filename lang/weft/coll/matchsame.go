package coll

// A match that succeeds on a scope of several dimensions whose unit is
// exactly its shape, decided without aligning (issue 13, stop 42).
//
// matchOne1D (match1d.go) decides a successful match on a scope of one
// dimension. A scope of several has the same short answer when the
// unit resolves to the scope's own dimensions: shfl_xor's (row 15)
// second shuffle, `2 * cuda_threads_strided(1, 2)`, of domain
// (blockDim/2, 2) and box (2, 1), called in the body of a loop over
// that same unit, whose tiling is (blockDim/2, 2) at pitches (2, 1)
// with the tile (2, 1): the general match (the memo's search, the unit
// resolved, alignSame, the box against the tile, the starts' alignment,
// a memo entry and a copy of the unit kept) took 2.8 K instructions of
// the GPU checker there. The general way, for such a unit:
//   - resolveInto accepts it: every coordinate evaluates to a value of
//     at least 1 (symValue), each box coordinate within its domain, and
//     the domain's product is the machine's threads n;
//   - match drops its trailing levels of extent 1 and box 1, which
//     leaves the scope's extents in its order;
//   - alignTo (the scope not mergeable, so its own shape): the domain's
//     product is n, so no level is prepended, and each level's pitch is
//     the product of the extents after it, the scope's pitch (its
//     pitches chain from n down to 1); alignSame takes the scope's
//     dimensions when each extent is at least 2 and each tile and full
//     tile is in [1, extent] (else it declines), and splitShape of the
//     box over the same dimensions copies it (each box coordinate within
//     its extent);
//   - matches then holds iff each box coordinate is the scope's tile
//     there and, in each dimension the box does not cover whole, every
//     start is aligned to it (startsAligned at that pitch).
// matchSame answers true where all of that holds and declines (false)
// everywhere else, a failure included (the general way words it, and may
// still succeed by dropping levels of extent 1: dropUnitLevels); like
// matchOne1D's, a success needs no memo entry.
// TestMatchSameMatchesGeneral compares the two on random nests and
// made shapes.

// matchSameOff makes Matches take the general way for the scopes
// matchSame decides (set by the tests that compare the two).
var matchSameOff bool

// matchSame reports that t.Matches(*u) is nil, decided on t's own
// dimensions (two or more); false says nothing.
func (t *Tiling) matchSame(u *Unit) bool {
	k := len(t.Dims)
	nu := len(u.Domain)
	if matchSameOff || k < 2 || nu < k || nu > maxDims || len(u.Box) != nu || t.mergeable() {
		return false
	}
	var dom, box [maxDims]int
	for i := 0; i < nu; i++ {
		d, ok1 := symValue(u.Domain[i], t.M)
		b, ok2 := symValue(u.Box[i], t.M)
		if !ok1 || !ok2 {
			return false
		}
		dom[i], box[i] = d, b
	}
	// Below, each level left has the scope's extent and tile as its
	// domain and box (so its box is within it) and each level dropped
	// is (1, 1): resolveInto's bounds hold.
	for nu > 1 && dom[nu-1] == 1 && box[nu-1] == 1 {
		nu--
	}
	if nu != k {
		return false
	}
	top := t.M.Threads()
	for i, d := range t.Dims {
		if d.Extent < 2 || d.Pitch*d.Extent != top || dom[i] != d.Extent || box[i] != t.Tile[i] ||
			t.Tile[i] > d.Extent || t.Full[i] < 1 || t.Full[i] > d.Extent {
			return false
		}
		top = d.Pitch
	}
	if top != 1 {
		return false
	}
	for i, d := range t.Dims {
		if b := box[i]; b != d.Extent && !t.startsAligned(d.Pitch, b, d.Extent) {
			return false
		}
	}
	return true
}
