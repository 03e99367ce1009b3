package coll

// One-pass derivations of cuda_threads loops whose aligned shape has two
// dimensions (issue 13, stop 46).
//
// shfl_xor's strided loop, `for t1 in cuda_threads(0, 2, unit=2 *
// cuda_threads_strided(1, 2))` under a one-dimensional scope (64,), and
// the loop distmem desugars under its body (cuda_thread, a shuffle's
// lanes) took the general derivation (CudaThreads: the memo's lookup and
// twin search, the unit resolved, alignTo's refinement and three
// splitShapes, finish, a 1.1 KB tilingStore): ~3.5 K and ~2.5 K
// instructions a check. For these shapes alignment is a few integer
// steps:
//   - threadsStrided: a scope (n,) at pitch 1 and a unit of two levels
//     over all n threads, domain (d0, d1) (pitches (d1, 1)) and box (b0,
//     b1), both extents at least 2: the refinement is the unit's own
//     dimensions (alignTo's pitches d1 and 1), the scope's tile, full
//     tile and anchor split at pitch d1 (splitAtCTA's (1, x) or (x/d1,
//     d1), each anchor subAnchor of the scope's), and the box is (b0, b1).
//   - threadsOver2: a scope of two dimensions (E0, E1) at pitches (E1,
//     1) that does not merge (alignTo's merged), and a unit of one
//     level over all n threads, box b: alignSame's way, the scope's own
//     dimensions, tiles and normalized anchors, the box split at pitch
//     E1 as the scope's tile is above.
//
// loop2 then takes cudaThreads's and finish's steps on the aligned shape.
// Each declines (nil, the store untouched) for every other shape and for
// every failure, which the general derivation then makes and words. Like
// threads1D's, the tilings are not entered in the parent's memo (see
// threads1d.go). TestThreads2DMatchesGeneral compares the two ways on
// made shapes and nests.

// threads2DOff makes CudaThreadsIn decline both derivations (set by the
// tests that compare the two ways).
var threads2DOff bool

// stridedStore is room for a tiling threadsStrided makes: a
// ThreadsStore's, with room for the unit's four coordinates (888 bytes,
// the 896-byte size class; the general derivation's store is 1 096, in
// the 1 152 class).
type stridedStore struct {
	t     Tiling
	dims  [2]Dim
	ints  [4]int
	anch  [2]anchor
	terms [storeDims]Term
	syms  [4]Sym
}

// shape2 is an aligned shape of two dimensions (alignTo's result, the
// box with no wildcard and no inherited coordinate).
type shape2 struct {
	dims       [2]Dim
	tile, full [2]int
	box        [2]int
	anch       [2]anchor
}

// threadsStrided is the tiling of `for iter in cuda_threads(0, count,
// unit=u)` under t in a store of its own when t is (n,) at pitch 1 and u
// has two levels over all n threads (cuda_threads_strided and its
// multiples), and the derivation succeeds; else nil. count is at least 1
// (CudaThreadsIn).
func (t *Tiling) threadsStrided(iter, count int, u *Unit) *Tiling {
	m := t.M
	n := m.Threads()
	if len(t.Dims) != 1 || t.Dims[0] != (Dim{n, 1}) {
		return nil
	}
	// resolveInto: every coordinate evaluates (no wildcard: a loop's
	// error), each box within its domain, the domain all n threads (no
	// level prepended: alignTo's completion). Extents of at least 2:
	// a level of extent 1 shares its pitch with the next
	// (dropUnitLevels), which the general way treats apart.
	d0, ok0 := symValue(u.Domain[0], m)
	d1, ok1 := symValue(u.Domain[1], m)
	b0, ok2 := symValue(u.Box[0], m)
	b1, ok3 := symValue(u.Box[1], m)
	if !ok0 || !ok1 || !ok2 || !ok3 || d0 < 2 || d1 < 2 || d0*d1 != n || b0 > d0 || b1 > d1 {
		return nil
	}
	// alignTo: the scope's pitch 1 and the unit's d1 and 1 refine to
	// (d0, d1) at pitches (d1, 1); splitShape of the scope's tile, full
	// tile (in [1, n], a derivation's) and anchor, and of the box.
	tt, ff := t.Tile[0], t.Full[0]
	if tt < 1 || tt > n || ff < 1 || ff > n {
		return nil
	}
	var s shape2
	var ok bool
	s.dims = [2]Dim{{d0, d1}, {d1, 1}}
	if s.tile[0], s.tile[1], ok = splitAtCTA(tt, d1); !ok {
		return nil
	}
	if s.full[0], s.full[1], ok = splitAtCTA(ff, d1); !ok {
		return nil
	}
	a := t.anchors[0]
	s.anch = [2]anchor{subAnchor(a, d1, d0, s.tile[0]), subAnchor(a, 1, d1, s.tile[1])}
	s.box = [2]int{b0, b1}
	if !s.tiles(count) {
		return nil
	}
	st := new(stridedStore)
	c := &st.t
	term := s.loop(c, t, iter, count, &st.dims, &st.ints, &st.anch)
	c.Base = Affine{Const: t.Base.Const, Terms: appendInto(st.terms[:], t.Base.Terms, term)}
	c.Unit = keptUnitIn(*u, st.syms[:])
	return c
}

// threadsOver2 is the tiling of `for iter in cuda_threads(0, count,
// unit=u)` under t, made in st, when t has two dimensions at pitches
// (E1, 1) that do not merge and u has one level over all n threads, its
// domain coordinate of value d and its box's b (symValue), and the
// derivation succeeds; else nil (st untouched). count is at least 1
// (CudaThreadsIn).
func (t *Tiling) threadsOver2(iter, count int, u *Unit, d, b int, st *ThreadsStore) *Tiling {
	n := t.M.Threads()
	if len(t.Dims) != 2 || d != n || b > n {
		return nil
	}
	// alignSame: a chain of extents of at least 2, tiles in [1, extent];
	// merged (mergeable) would join an inner dimension covered whole
	// and anchored at 0 first (threads1D's case).
	e0, e1 := t.Dims[0].Extent, t.Dims[1].Extent
	if e0 < 2 || e1 < 2 || t.Dims[1].Pitch != 1 || t.Dims[0].Pitch != e1 || e0*e1 != n {
		return nil
	}
	var s shape2
	s.dims = [2]Dim{t.Dims[0], t.Dims[1]}
	for i, e := range [2]int{e0, e1} {
		s.tile[i], s.full[i] = t.Tile[i], t.Full[i]
		if s.tile[i] < 1 || s.tile[i] > e || s.full[i] < 1 || s.full[i] > e {
			return nil
		}
		s.anch[i] = subAnchor(t.anchors[i], 1, e, s.tile[i])
	}
	if a := t.anchors[1]; s.tile[1] == e1 && s.full[1] == e1 && a.OK && a.A == e1 && a.Off == 0 {
		return nil
	}
	// splitShape of the box (n,) at pitch 1 over (e0, e1).
	var ok bool
	if s.box[0], s.box[1], ok = splitAtCTA(b, e1); !ok {
		return nil
	}
	if !s.tiles(count) {
		return nil
	}
	c := &st.t
	term := s.loop(c, t, iter, count, &st.dims, &st.ints, &st.anch)
	c.Base = Affine{Const: t.Base.Const, Terms: appendInto(st.terms[:], t.Base.Terms, term)}
	st.syms[0], st.syms[1] = u.Domain[0], u.Box[0]
	c.Unit = *u
	c.Unit.Domain, c.Unit.Box = st.syms[0:1:1], st.syms[1:2:2]
	return c
}

// tiles reports whether cudaThreads succeeds on s with count iterations
// (count >= 1), its box replaced by the body's tile (newTile) and the
// full tile by the box (newFull) when it does: a box equal to a full
// tile that warp specialization narrowed keeps the narrower tile; no
// coordinate wider than the scope's tile; the tile changed in at most
// one dimension (none: a no-op tiling of one iteration), which count
// tiles of the box fill and the box divides.
func (s *shape2) tiles(count int) bool {
	var nt [2]int
	tiled := -1
	for i, b := range s.box {
		nt[i] = b
		if b == s.full[i] && s.tile[i] < s.full[i] {
			nt[i] = s.tile[i]
		}
		if nt[i] > s.tile[i] {
			return false
		}
		if nt[i] != s.tile[i] {
			if tiled >= 0 {
				return false
			}
			tiled = i
		}
	}
	if tiled < 0 {
		if count != 1 {
			return false
		}
		tiled = 1
	}
	if tt, bb := s.tile[tiled], nt[tiled]; count*bb > tt || tt%bb != 0 {
		return false
	}
	s.full, s.box = s.box, nt
	return true
}

// loop sets c, the body of `for iter in cuda_threads(0, count, ...)`
// under t on the aligned shape s (tiles: s.box the body's tile, s.full
// its full tile), in the arrays dims, ints and anch, as cudaThreads and
// finish do, but for c.Base and c.Unit, which its caller sets in its
// store: it returns the loop's term of the base.
func (s *shape2) loop(c, t *Tiling, iter, count int, dims *[2]Dim, ints *[4]int, anch *[2]anchor) Term {
	tiled := 1
	if s.box[0] != s.tile[0] {
		tiled = 0
	}
	tt, bb := s.tile[tiled], s.box[tiled]
	noop := bb == tt
	*dims = s.dims
	ints[0], ints[1], ints[2], ints[3] = s.box[0], s.box[1], s.full[0], s.full[1]
	c.M, c.Parent, c.Kind = t.M, t, KindThreads
	c.Dims, c.Tile, c.Full = dims[:2:2], ints[0:2:2], ints[2:4:4]
	c.Iter, c.Count = iter, count
	q := s.dims[tiled].Pitch
	c.opDim, c.opBox = tiled, bb
	an := s.anch[tiled]
	c.lower = Lowering{Iter: iter, Bound: count, Guard: count*bb < tt}
	if an.OK && s.dims[tiled].Extent%an.A == 0 {
		c.lower.OK = true
		c.lower.Div, c.lower.Mod, c.lower.Off = bb*q, an.A*q, an.Off*q
	}
	*anch = s.anch
	switch {
	case noop:
		c.lower = Lowering{Iter: iter, Bound: 1, OK: true, Div: 1, Mod: 1}
	case an.OK && an.A%bb == 0 && an.Off%bb == 0:
		anch[tiled] = anchor{A: bb, OK: true}
	default:
		anch[tiled] = anchor{}
	}
	c.anchors = anch[:2:2]
	// finish: runs of the tile's coordinates other than 1 at the
	// dimensions' pitches, joined when the inner one is whole (d1
	// threads at pitch 1 under a pitch of d1): never finish's error.
	t0, t1 := s.box[0], s.box[1]
	c.threads, c.TileThreads = t0*t1, s.full[0]*s.full[1]
	c.col.runs2(t0, t1, s.dims[0].Pitch)
	return Term{Iter: iter, Step: bb * q, Count: count}
}

// runs2 sets c's runs (c zero) to those of a tile (t0, t1) at pitches
// (p0, 1), as finish makes them: a run for each coordinate other than
// 1, the two joined into one of t0*t1 threads when the inner one is
// whole (t1 == p0). At most two: never finish's error.
func (c *Collective) runs2(t0, t1, p0 int) {
	switch {
	case t0 > 1 && t1 > 1 && p0 == t1:
		c.N, c.Runs[0] = 1, Run{Count: t0 * t1, Stride: 1}
	case t0 > 1 && t1 > 1:
		c.N, c.Runs[0], c.Runs[1] = 2, Run{Count: t0, Stride: p0}, Run{Count: t1, Stride: 1}
	case t0 > 1:
		c.N, c.Runs[0] = 1, Run{Count: t0, Stride: p0}
	case t1 > 1:
		c.N, c.Runs[0] = 1, Run{Count: t1, Stride: 1}
	}
}
