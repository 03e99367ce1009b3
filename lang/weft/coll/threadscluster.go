package coll

// A one-pass derivation for a cuda_threads loop of a CTA's unit under a
// cluster (issue 13, stop 41).
//
// With clusterDim = C > 1 and blockDim = B, a loop whose unit covers one
// CTA's threads (`n * cuda_thread`, `cuda_warp`: the domain (B,) and a
// box (b,)) under a scope of the cluster's n = C*B threads derives, the
// general way (CudaThreads), by alignTo: the unit's domain is completed
// to the cluster's, (C, B) at pitches (B, 1) with the box (inherit, b),
// and the scope's shape is either (n,) at pitch 1 (a loop over
// cuda_cta_in_cluster made it, or the device tiling, whose CTA level
// merges), split over those pitches by splitShape, or already (C, B)
// (such a loop's body), which alignSame copies with its anchors
// normalized; cudaThreads then tiles the inner dimension. On per_cta_alloc
// with NCTA=2 (rows 6, 8) both loops under the CTA loop took that way:
// the memo's lookup and twin search, the unit resolved, a refinement of
// the pitches, three splitShapes, a 1.3 KB store allocated per loop.
//
// threadsCluster makes the same tiling in one pass, in the caller's
// store (ThreadsStore), and declines (nil, the store untouched) for every
// other shape, unit and failure, which the general derivation then makes
// and words. Each step below names the general way's step it is, for
// these shapes: the scope's tile t, full tile f and anchor a split at
// pitch B are (1, t) when t <= B and (t/B, B) when B divides t
// (splitShape; else its error), each anchor subAnchor of the scope's
// with the relative pitch (1 inside a CTA, B across CTAs). Like
// threads1D's, the tiling is not entered in its parent's memo (see
// threads1d.go). TestThreadsClusterMatchesGeneral compares the two ways
// on made shapes and nests.

// threadsClusterOff makes CudaThreadsIn decline the one-pass cluster
// derivation (set by the tests that compare the two ways).
var threadsClusterOff bool

// splitAtCTA is splitShape of one coordinate count x of the cluster's
// one dimension (n,) over (C, B): (x/B, B) or (1, x); ok is false where
// splitShape fails.
func splitAtCTA(x, b int) (outer, inner int, ok bool) {
	switch {
	case x <= b:
		return 1, x, true
	case x%b == 0:
		return x / b, b, true
	}
	return 0, 0, false
}

// threadsCluster is the tiling of `for iter in cuda_threads(0, count,
// unit=u)` under t, made in st, when the machine has clusters, u's
// domain is one CTA's threads and t's shape is (n,) or (C, B); else nil.
// u has one dimension, its domain coordinate of value d and its box's b
// (symValue), and count is at least 1 (CudaThreadsIn).
func (t *Tiling) threadsCluster(iter, count int, u *Unit, d, b int, st *ThreadsStore) *Tiling {
	m := t.M
	C, B := m.ClusterDim, m.BlockDim
	// The unit's domain one CTA (alignTo completes it with (C, B)). A
	// box wider than it (Resolve's error) is wider than the scope's tile
	// within a CTA, which declines below.
	if threadsClusterOff || C < 2 || B < 2 || d != B {
		return nil
	}
	n := C * B
	// The scope's tile, full tile and anchors over (C, B): t0, f0, a0
	// across CTAs, t1, f1, a1 within one.
	var t0, t1, f0, f1 int
	var ok bool
	var a0, a1 anchor
	switch len(t.Dims) {
	case 1:
		// (n,) at pitch 1, its tile and full tile in [1, n] (a
		// derivation's): split at pitch B (alignTo's refinement; the
		// unit's pitch B is not the scope's, so alignSame declines).
		if t.Dims[0] != (Dim{n, 1}) || t.Tile[0] < 1 || t.Tile[0] > n || t.Full[0] < 1 || t.Full[0] > n {
			return nil
		}
		if t0, t1, ok = splitAtCTA(t.Tile[0], B); !ok {
			return nil
		}
		if f0, f1, ok = splitAtCTA(t.Full[0], B); !ok {
			return nil
		}
		a := t.anchors[0]
		a1, a0 = subAnchor(a, 1, B, t1), subAnchor(a, B, C, t0)
	case 2:
		if t.Dims[0] != (Dim{C, B}) || t.Dims[1] != (Dim{B, 1}) {
			return nil
		}
		if e := B; t.Tile[1] == e && t.Full[1] == e && t.anchors[1].OK && t.anchors[1].A == e && t.anchors[1].Off == 0 {
			// The CTA level covered whole: alignTo merges it (merged)
			// into one dimension (n,), which then splits as above.
			// Its tile and full tile are t0*B and f0*B: B divides
			// them, so they split back to (t0, B), (f0, B).
			t0, t1, f0, f1 = t.Tile[0], B, t.Full[0], B
			if t0 < 1 || t0 > C || f0 < 1 || f0 > C {
				return nil
			}
			var a anchor
			if x := t.anchors[0]; x.OK {
				a = anchor{A: x.A * B, Off: x.Off * B, OK: true}
			}
			a1, a0 = subAnchor(a, 1, B, t1), subAnchor(a, B, C, t0)
			break
		}
		// alignSame: the unit's pitches (B, 1) are the scope's; tiles
		// in [1, extent], each anchor normalized within its dimension.
		t0, t1, f0, f1 = t.Tile[0], t.Tile[1], t.Full[0], t.Full[1]
		if t0 < 1 || t0 > C || f0 < 1 || f0 > C || t1 < 1 || t1 > B || f1 < 1 || f1 > B {
			return nil
		}
		a0, a1 = subAnchor(t.anchors[0], 1, C, t0), subAnchor(t.anchors[1], 1, B, t1)
	default:
		return nil
	}
	// cudaThreads on the aligned shape, box (inherit, b): dimension 0
	// keeps the scope's tile and full tile, dimension 1 is the tiled
	// one (the only one that can differ). bb and nf are its new tile
	// with and without warp specialization.
	bb, nf := b, b
	if b == f1 && t1 < f1 {
		bb = t1
	}
	// The general way's errors: a tile wider than the scope's, the
	// iterations more than its tile (a no-op tiling, bb = t1, of more
	// than one iteration among them), a tile that does not divide it.
	if bb > t1 || count*bb > t1 || t1%bb != 0 {
		return nil
	}
	c := &st.t
	st.dims[0], st.dims[1] = Dim{C, B}, Dim{B, 1}
	st.ints[0], st.ints[1], st.ints[2], st.ints[3] = t0, bb, f0, nf
	c.Dims, c.Tile, c.Full = st.dims[:2:2], st.ints[0:2:2], st.ints[2:4:4]
	// Lowering: subAnchor's modulus within a CTA divides B (it is B or
	// divides it), so the general way's extent test holds whenever the
	// anchor is known.
	st.anch[0], st.anch[1] = a0, st.setLoop(t, iter, count, u, 1, bb, t1, a1)
	c.anchors = st.anch[:2:2]
	// finish, in scalars (stop 42): the tile (t0, bb) at pitches (B, 1)
	// is a run of t0 CTAs B threads apart and one of bb threads, each
	// left out when 1; the two join into one of t0*bb threads when the
	// CTA's run is whole (B == bb). At most two runs: never finish's
	// error.
	c.threads, c.TileThreads = t0*bb, f0*nf
	c.col.runs2(t0, bb, B)
	return c
}
