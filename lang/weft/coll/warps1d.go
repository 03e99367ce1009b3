package coll

// A one-pass derivation of a CudaWarps block from a one-dimensional
// scope (issue 13, stop 38: docs/weft-sync.md "Stop 38: static38").
//
// Under a CTA without clusters the scope of a CudaWarps block is often
// one-dimensional: the CTA itself (a named block of a warp_config, the
// three-ring rows' producer, consumer and barrier warps) or the body of
// a loop over warps or warpgroups (`with CudaWarps(0, 1)` inside it).
// The general derivation (deriveWarps, deriveNamedWarps) aligns the
// scope with warps (warpDim: alignTo with the domain (blockDim/32, 32),
// a kept copy in the scope's memo, a 1.3 KB scratch store zeroed), then
// selects the warps (selectWarps). For a scope (n,) at pitch 1 with
// n = blockDim = 32 W the alignment is a few integer steps:
// the refinement is (W, 32) at pitches 32 and 1; the tile tt and the
// full tile ff split into (tt/32, 32) and (ff/32, 32) when 32 divides
// them (a tile that does not is not whole warps: an error the general
// way words); the anchor a splits into subAnchor(a, 32, W, tt/32) and
// subAnchor(a, 1, 32, 32); the warp dimension is 0. warps1D makes that,
// and the selection, in the derivation's store, and declines (nil, st
// untouched) for every other shape and every failure.
// TestWarps1DMatchesGeneral compares the two on random nests.

// warps1DOff makes the CudaWarps derivations take the general way
// always (set by the tests that compare the two).
var warps1DOff bool

// warps1D is the tiling of CudaWarps(lo, hi) (kind KindWarps) or of
// CudaWarps(name=name) selecting the CTA's warps [lo, hi) (KindNamedWarps)
// under t, made in st (zero), when t is one-dimensional on a machine
// without clusters and the derivation succeeds; else nil.
func (t *Tiling) warps1D(st *warpsStore, lo, hi int, kind Kind, name string) *Tiling {
	m := t.M
	n := m.BlockDim
	// One dimension (n,) at pitch 1 with n = blockDim: its extents
	// multiply to the machine's threads, so there are no clusters.
	if warps1DOff || len(t.Dims) != 1 || n%32 != 0 || t.Dims[0] != (Dim{n, 1}) {
		return nil
	}
	w := n / 32
	// A tiling's tile and full tile are in [1, n], the tile no larger.
	// Whole warps: the general way's split fails otherwise (and a full
	// tile of whole warps whose tile is not is an error too).
	tt, ff := t.Tile[0], t.Full[0]
	if tt < 32 || tt%32 != 0 || ff%32 != 0 {
		return nil
	}
	tw := tt / 32 // the scope's warps
	switch kind {
	case KindNamedWarps:
		// Whole CTAs: the tile is every warp.
		if tw != w {
			return nil
		}
	case KindWarps:
		if lo < 0 || hi <= lo || hi > tw {
			return nil
		}
	default:
		return nil
	}
	if lo < 0 || hi <= lo || hi > w {
		return nil
	}
	// The alignment (alignTo, splitShape), in st's arrays as warpDim
	// copies it there: dims, then tile, full and box.
	k := 2
	st.dims[0], st.dims[1] = Dim{w, 32}, Dim{32, 1}
	ints := st.ints[: 3*k : 3*k]
	ints[0], ints[1] = tw, 32
	ints[2], ints[3] = ff/32, 32
	ints[4], ints[5] = 1, 32
	an := t.anchors[0]
	st.anch[0] = subAnchor(an, 32, w, tw)
	st.anch[1] = subAnchor(an, 1, 32, 32)
	// selectWarps with w = 0, its fields set on the zero store.
	c := &st.t
	c.M, c.Parent, c.Kind = m, t, kind
	c.Dims, c.Tile, c.Full = st.dims[:k:k], ints[:k:k], ints[k:2*k:2*k]
	c.Iter, c.Lo, c.Hi, c.WarpName = -1, lo, hi, name
	c.opDim = 0
	c.anchors = st.anch[:k:k]
	c.Tile[0] = hi - lo
	c.Base = Affine{Const: t.Base.Const + lo*32, Terms: t.Base.Terms}
	a0 := c.anchors[0]
	c.lower = Lowering{Iter: -1, Lo: lo, Hi: hi, Guard: true}
	if a0.OK && w%a0.A == 0 {
		c.lower.OK = true
		c.lower.Div, c.lower.Mod, c.lower.Off = 32, a0.A*32, a0.Off*32
		c.anchors[0] = anchor{A: a0.A, Off: a0.Off + lo, OK: true}
	} else {
		c.anchors[0] = anchor{}
	}
	// finish: hi - lo warps of 32 lanes, one run of contiguous threads
	// (the lanes' run at pitch 1 and the warps' at pitch 32 merge).
	c.threads = (hi - lo) * 32
	c.TileThreads = ff
	c.col = Collective{N: 1}
	c.col.Runs[0] = Run{Count: (hi - lo) * 32, Stride: 1}
	return c
}
