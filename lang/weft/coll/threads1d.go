package coll

// A one-pass derivation for a one-dimensional cuda_threads loop (issue
// 13, stop 37: docs/weft-sync.md "Stop 37: static37").
//
// Under a CTA without clusters every tiling a cuda_threads loop derives
// is one-dimensional: the scope's shape is (blockDim,) at pitch 1, and
// the loop's unit (`n * cuda_thread`, `cuda_warp`, `cuda_cta_in_cluster`
// with clusterDim 1) resolves to the domain (blockDim,) and a box (b,).
// The general derivation (CudaThreads: the memo's lookup and its twins,
// the unit resolved, alignTo with alignSame, the new tile, finish, a
// 1.3 KB store allocated) reduces there to a few integer steps:
// alignment is the scope's own shape (its tile, full tile, anchor
// normalized by subAnchor), the box is b, and the loop tiles dimension
// 0. threads1D makes that tiling in one pass, in a store its caller
// carves from memory of its own (the GPU checker's room), and declines
// (nil) for every other shape and every failure, which the general
// derivation then makes and words; TestThreads1DMatchesGeneral compares
// the two on random nests.
//
// The tiling is not entered in its parent's memo: under `weft check`
// the GPU checker derives each loop once (its iterator ids are
// distinct), and the memo's only other use there is a twin (twin.go), a
// cheaper derivation of a sibling loop's shape, which the one-pass
// derivation is already. A later derivation from the parent that would
// have found it as a twin derives afresh: the same tiling (twins are
// equal to fresh derivations, TestTwinMatchesFresh).

// ThreadsStore is room for one tiling CudaThreadsIn derives: the tiling,
// its one or two dimensions (threadscluster.go), tile, full tile and
// anchors, its base's terms (up to storeDims enclosing
// loops; more are allocated) and its unit's two coordinates.
type ThreadsStore struct {
	t     Tiling
	dims  [2]Dim
	ints  [4]int
	anch  [2]anchor
	terms [storeDims]Term
	syms  [2]Sym
}

// threads1DOff makes CudaThreadsIn take the general derivation always
// (set by the tests that compare the two).
var threads1DOff bool

// CudaThreadsIn is CudaThreads(iter, count, u), with a one-dimensional
// loop's tiling made in st (which must be zero and is the tiling's from
// then on when it is used; a nil st is never used). A loop of a
// two-level unit under a one-dimensional scope is made in one pass too,
// in a store of its own (threads2d.go), st or not.
func (t *Tiling) CudaThreadsIn(iter, count int, u Unit, st *ThreadsStore) (*Tiling, error) {
	// Both one-pass derivations take a unit of one dimension, its
	// domain and box coordinates evaluated here once for both (symValue
	// is a pure function of the coordinate and the machine; each had
	// evaluated them, twice for a loop threads1D declines: stop 42).
	if st != nil && !threads1DOff && len(u.Domain) == 1 && len(u.Box) == 1 && count >= 1 {
		d, ok1 := symValue(u.Domain[0], t.M)
		b, ok2 := symValue(u.Box[0], t.M)
		if ok1 && ok2 {
			if c := t.threads1D(iter, count, &u, d, b, st); c != nil {
				return c, nil
			}
			if c := t.threadsCluster(iter, count, &u, d, b, st); c != nil {
				return c, nil
			}
			if !threads2DOff {
				if c := t.threadsOver2(iter, count, &u, d, b, st); c != nil {
					return c, nil
				}
			}
		}
	}
	// A unit of two levels (cuda_threads_strided) under a scope of one
	// dimension: in a store of its own, which st (its unit's two
	// coordinates) has no room for (threads2d.go).
	if !threads1DOff && !threads2DOff && len(u.Domain) == 2 && len(u.Box) == 2 && count >= 1 {
		if c := t.threadsStrided(iter, count, &u); c != nil {
			return c, nil
		}
	}
	return t.CudaThreads(iter, count, u)
}

// symValue is s.Eval(m) for a coordinate that evaluates; ok is false for
// the wildcard and for one Eval rejects.
func symValue(s Sym, m Machine) (int, bool) {
	if s.Any {
		return 0, false
	}
	if !s.BlockDim && !s.ClusterDim && s.Div <= 1 && s.Div >= 0 {
		return s.Num, s.Num > 0
	}
	v, err := s.Eval(m)
	return v, err == nil
}

// threads1D is the tiling of `for iter in cuda_threads(0, count,
// unit=u)` under t, made in st, when t has one dimension and u resolves
// to one dimension over all of t's threads, and the derivation succeeds;
// else nil (st untouched). u has one dimension, its domain coordinate
// of value d and its box's b (symValue), and count is at least 1
// (CudaThreadsIn). Each step is the general derivation's (cudaThreads,
// alignSame, finish) with k = 1, pitch 1.
func (t *Tiling) threads1D(iter, count int, u *Unit, d, b int, st *ThreadsStore) *Tiling {
	// A tiling of one dimension is (n,) at pitch 1 (its extents multiply
	// to the machine's threads); the unit's domain must be all of them,
	// with no level prepended (alignTo's completion).
	n := t.M.Threads()
	if d != n {
		return nil
	}
	// A scope whose dimensions merge into one (alignTo's merged: warps
	// a CudaWarps block selected, (W/k, 32), whose lanes are whole) is
	// aligned as that one dimension (stop 38: the loops under the
	// three-ring rows' named warps).
	var tt, full int
	var an0 anchor
	switch len(t.Dims) {
	case 1:
		tt, full, an0 = t.Tile[0], t.Full[0], t.anchors[0]
	case 2:
		// merged's one step, in scalars (no buffer to zero for each
		// loop): the inner dimension covered whole and anchored at 0
		// joins the outer one.
		e := t.Dims[1].Extent
		if a := t.anchors[1]; t.Dims[1].Pitch != 1 || t.Tile[1] != e || t.Full[1] != e || !a.OK || a.A != e || a.Off != 0 {
			return nil
		}
		tt, full = t.Tile[0]*e, t.Full[0]*e
		if a := t.anchors[0]; a.OK {
			an0 = anchor{A: a.A * e, Off: a.Off * e, OK: true}
		}
	default:
		return nil
	}
	// alignSame: the scope's tile and full tile (a derivation's are in
	// [1, n]), its anchor normalized.
	// cudaThreads: the body's tile with (bb) and without (nf) warp
	// specialization. With count >= 1 and tt <= n, count*bb > tt also
	// rejects a box wider than its domain (b > n: Resolve's error), a
	// tile larger than the scope's (bb > tt) and a no-op tiling (bb ==
	// tt) of more than one iteration, which the general way words.
	// (step1D, Flat's, takes these steps too: a call of it here was 10%
	// more of threads1D on shfl_xor; TestFlatMatchesThreads1D.)
	bb, nf := b, b
	if b == full && tt < full {
		bb = tt
	}
	if count*bb > tt || tt%bb != 0 {
		return nil
	}
	c := &st.t
	st.dims[0] = Dim{n, 1}
	st.ints[0], st.ints[1] = bb, nf
	c.Dims, c.Tile, c.Full = st.dims[:1:1], st.ints[0:1:1], st.ints[1:2:2]
	// Lowering: subAnchor over the whole dimension gives a modulus A
	// that divides n (or is n), so the general way's extent test holds
	// whenever the anchor is known.
	st.anch[0] = st.setLoop(t, iter, count, u, 0, bb, tt, subAnchor(an0, 1, n, tt))
	c.anchors = st.anch[:1:1]
	// finish: one run of bb threads at pitch 1, or none.
	c.threads, c.TileThreads = bb, nf
	if bb > 1 {
		c.col.N = 1
		c.col.Runs[0] = Run{Count: bb, Stride: 1}
	}
	return c
}

// setLoop sets the fields of st's tiling, the body of `for iter in
// cuda_threads(0, count, unit=u)` under t, that do not depend on its
// shape, for a loop that tiles dimension dim (pitch 1) of the scope's
// tile tt into tiles of bb, whose anchor there is an (aligned: subAnchor
// of the scope's): its derivation arguments, its unit's coordinates (its
// own: keptUnitIn's copy, in place), base, operators and lowering
// (cudaThreads's steps, threads1D's and threadsCluster's alike). It
// returns the dimension's anchor in the body.
func (st *ThreadsStore) setLoop(t *Tiling, iter, count int, u *Unit, dim, bb, tt int, an anchor) anchor {
	c := &st.t
	c.M, c.Parent, c.Kind = t.M, t, KindThreads
	c.Iter, c.Count = iter, count
	st.syms[0], st.syms[1] = u.Domain[0], u.Box[0]
	c.Unit = *u
	c.Unit.Domain, c.Unit.Box = st.syms[0:1:1], st.syms[1:2:2]
	c.Base = Affine{Const: t.Base.Const, Terms: appendInto(st.terms[:], t.Base.Terms, Term{Iter: iter, Step: bb, Count: count})}
	c.opDim, c.opBox = dim, bb
	c.lower = Lowering{Iter: iter, Bound: count, Guard: count*bb < tt}
	if an.OK {
		c.lower.OK = true
		c.lower.Div, c.lower.Mod, c.lower.Off = bb, an.A, an.Off
	}
	if bb == tt {
		// A no-op tiling: one iteration over the whole scope, which
		// keeps its anchor.
		c.lower = Lowering{Iter: iter, Bound: 1, OK: true, Div: 1, Mod: 1}
	}
	return loopAnchor(an, bb, tt)
}

// step1D is threads1D's arithmetic on a one-dimensional scope of n
// threads whose tile is tt, full tile full and anchor an0, for a loop of
// count iterations whose unit's box is b (its domain being n): the
// body's tile bb and full tile nf, and the aligned anchor an that
// setLoop takes; ok false where threads1D declines (Flat.Threads1D's
// steps, threads1D's in place; issue 13, stop 47).
func step1D(n, tt, full int, an0 anchor, count, b int) (bb, nf int, an anchor, ok bool) {
	bb, nf = b, b
	if b == full && tt < full {
		bb = tt
	}
	if count*bb > tt || tt%bb != 0 {
		return 0, 0, anchor{}, false
	}
	return bb, nf, subAnchor(an0, 1, n, tt), true
}

// loopAnchor is setLoop's anchor of the body in the dimension a loop
// tiles into tiles of bb from the scope's tile tt, an the aligned anchor
// there: a no-op tiling keeps it.
func loopAnchor(an anchor, bb, tt int) anchor {
	switch {
	case bb == tt:
		return an
	case an.OK && an.A%bb == 0 && an.Off%bb == 0:
		return anchor{A: bb, OK: true}
	}
	return anchor{}
}

// Tiling is the tiling st holds (used or not).
func (st *ThreadsStore) Tiling() *Tiling { return &st.t }
