package coll

// Twin tilings (issue 13, stop 33: docs/weft-sync.md "Stop 33: gen33").
//
// A derivation (CudaThreads, CudaWarps, NamedWarps) reads its parent's
// shape only: the machine, Dims, Tile, Full, the anchors, the thread
// count, and of Base and Ops the constants, steps and counts, never the
// iterator ids (cudaThreads, selectWarps). Two sibling loops with the
// same trip count and unit (shfl_xor's three `for t4 in cuda_threads(0,
// 16, unit=cuda_thread * 4)` nests, one per seq loop) differ in their
// iterator ids alone, and so do the tilings derived under them: the memo
// (memo.go), keyed by iterator id, derived each nest again, ~2-3 K
// instructions a loop, a third of the GPU checker on shfl_xor.
//
// A tiling derived as the twin of an earlier one shares its shape arrays
// (a derived tiling is immutable) and gets its own Base terms, operators
// and lowering with its iterator; it remembers the tiling it is a twin of
// (Tiling.twin, always an original, derived afresh), and the derivations
// under it look for their own twins among that original's children.
// Only successful derivations are shared: an error names the scope's
// start with its iterator ids (startDescr), so a failure is derived
// again.

// origin is the tiling whose shape t shares: t itself when it was derived
// afresh.
func (t *Tiling) origin() *Tiling {
	if t.twin != nil {
		return t.twin
	}
	return t
}

// twinOf returns an earlier successful derivation from t's origin that
// differs from d at most in its iterator id, or nil.
func (t *Tiling) twinOf(d *derivation) *Tiling {
	o := t.origin()
	m := &o.memo
	m.mu.Lock()
	defer m.mu.Unlock()
	for c := m.first; c != nil; c = c.sibling {
		if c.Kind != d.kind {
			continue
		}
		if d.kind == KindThreads {
			if c.Count == d.count && c.Unit.Same(&d.u) {
				return c
			}
			continue
		}
		if c.Lo == d.lo && c.Hi == d.hi && c.WarpName == d.name {
			return c
		}
	}
	return nil
}

// twinStore is a twin's Tiling with room for its own Base terms (one
// allocation, as a tilingStore is for a fresh derivation).
type twinStore struct {
	t     Tiling
	terms [storeDims]Term
}

// twinUnder makes the tiling t's derivation d would give, from c, the same
// derivation from t's origin (twinOf): c's shape, t's Base and Ops
// extended as c's extend its parent's, with d's iterator.
func (t *Tiling) twinUnder(c *Tiling, d *derivation) *Tiling {
	st := new(twinStore)
	n := &st.t
	o := c.origin()
	n.M, n.Parent, n.Kind = t.M, t, c.Kind
	n.Dims, n.Tile, n.Full, n.anchors = c.Dims, c.Tile, c.Full, c.anchors
	n.Count, n.Unit = c.Count, c.Unit
	n.Lo, n.Hi, n.WarpName = c.Lo, c.Hi, c.WarpName
	n.TileThreads, n.threads, n.col = c.TileThreads, c.threads, c.col
	n.lower = c.lower
	n.twin = o
	p := c.Parent
	n.opDim, n.opBox = c.opDim, c.opBox
	n.Base.Const = t.Base.Const + c.Base.Const - p.Base.Const
	if c.Kind == KindThreads {
		n.Iter = d.iter
		n.lower.Iter = d.iter
		term := c.Base.Terms[len(c.Base.Terms)-1]
		term.Iter = d.iter
		n.Base.Terms = appendInto(st.terms[:], t.Base.Terms, term)
	} else {
		// selectWarps: the parent's terms, its iterator -1.
		n.Iter = c.Iter
		n.Base.Terms = t.Base.Terms
	}
	return n
}
