package coll

// Shape alignment when the unit's pitches are already the scope's
// (issue 13, stop 36: docs/weft-sync.md "Stop 36: static36").
//
// align re-expresses the scope's shape and the unit's box over the
// common refinement of their thread pitches: the distinct pitches of
// both, sorted, then the scope's tile, full tile and anchors and the
// unit's box split over them (splitShape, three times). In the common
// case the unit adds no pitch: `n * cuda_thread` (pitch 1) or a warp
// under a CTA (pitches blockDim and 1), a cuda_cta_in_cluster loop under
// a cluster (pitch blockDim), a match of cuda_warp against a tiling a
// warp loop made. The refinement is then the scope's own dimensions
// (its pitches form a chain: each dimension's extent times its pitch is
// the pitch above it), and splitting the scope's shape over itself
// copies the tile and the full tile and normalizes each anchor
// (subAnchor of the dimension itself); only the unit's box is split.
// alignSame does that, and declines (the general alignment runs) where
// a dimension has extent 1 (a pitch shared by two levels, which
// splitShape treats apart), a tile is outside [1, extent], or the box
// does not split (the general alignment words the error).
// TestAlignSameMatchesGeneral compares the two on random shapes.

// alignSameOff makes every alignment take the general way (set by the
// tests that compare the two).
var alignSameOff bool

// alignSame is alignTo's result for the scope shape (tdims, ttile,
// tfull, tanch) of n threads and the unit shape (udims, ubox), when every
// pitch of udims is one of tdims's; ok is false when it declines.
func alignSame(n int, tdims []Dim, ttile, tfull []int, tanch []anchor, udims []Dim, ubox []int,
	scratch *alignBuf, store *tilingStore) (a aligned, ok bool) {
	k := len(tdims)
	if k == 0 || alignSameOff {
		return aligned{}, false
	}
	top := n
	for i, d := range tdims {
		if d.Extent < 2 || d.Pitch*d.Extent != top || ttile[i] < 1 || ttile[i] > d.Extent || tfull[i] < 1 || tfull[i] > d.Extent {
			return aligned{}, false
		}
		top = d.Pitch
	}
	j := 0
	for _, u := range udims {
		for j < k && tdims[j].Pitch > u.Pitch {
			j++
		}
		if j == k || tdims[j].Pitch != u.Pitch {
			return aligned{}, false
		}
	}
	dims, ints, anchors := alignSlices(scratch, store, k)
	copy(dims, tdims)
	a = aligned{dims: dims, tile: ints[:k:k], full: ints[k : 2*k : 2*k], box: ints[2*k:], anchors: anchors}
	copy(a.tile, ttile)
	copy(a.full, tfull)
	for i, d := range tdims {
		a.anchors[i] = subAnchor(tanch[i], 1, d.Extent, ttile[i])
	}
	if err := splitShape(udims, ubox, nil, dims, a.box, nil); err != nil {
		return aligned{}, false
	}
	return a, true
}

// alignSlices returns the k dims, 3k ints and k anchors of an alignment:
// from the caller's scratch when it has room, else from the tiling's
// store, else fresh (alignTo and alignSame).
func alignSlices(scratch *alignBuf, store *tilingStore, k int) ([]Dim, []int, []anchor) {
	if scratch != nil && k <= len(scratch.dims) {
		return scratch.dims[:k], scratch.ints[:3*k], scratch.anchors[:k]
	}
	if store != nil && k <= storeDims {
		return store.dims[:k:k], store.ints[: 3*k : 3*k], store.anch[:k:k]
	}
	return make([]Dim, k), make([]int, 3*k), make([]anchor, k)
}
