package coll

// The alignment of a tiling with warps, once per tiling (issue 13, stop
// 33: docs/weft-sync.md "Stop 33: gen33").
//
// Every CudaWarps and named CudaWarps block aligns its scope with warps
// (alignWarps: the domain (blockDim/32, 32), a box of one warp) before
// selecting its warps. The alignment reads only the scope's shape, not
// the block's warps: three named blocks of one CTA (a producer, a
// consumer, a barrier warp) aligned the CTA's tiling three times, ~2 K
// instructions each. warpDim makes it once per tiling (per origin: twins,
// twin.go, share the shape) and copies it into each derivation's store,
// whose arrays selectWarps then narrows (the kept alignment is never
// written after it is made).

// warpAlign is a kept alignWarps result: its arrays of its own.
type warpAlign struct {
	dims []Dim
	ints []int // tile, full, box
	anch []anchor
	w    int
	err  *Error
	// room for the arrays when they have at most storeDims dimensions.
	dimBuf  [storeDims]Dim
	intBuf  [3 * storeDims]int
	anchBuf [storeDims]anchor
}

// warpDim is alignWarps(st), its arrays st's (or new), made once per
// tiling's origin.
func (t *Tiling) warpDim(st *warpsStore) (aligned, int, *Error) {
	o := t.origin()
	m := &o.memo
	m.mu.Lock()
	wa := m.warps
	m.mu.Unlock()
	if wa == nil {
		wa = new(warpAlign)
		var tmp tilingStore
		a, w, err := o.alignWarps(&tmp)
		wa.w, wa.err = w, err
		if err == nil {
			k := len(a.dims)
			if k <= storeDims {
				wa.dims, wa.ints, wa.anch = wa.dimBuf[:k:k], wa.intBuf[:3*k:3*k], wa.anchBuf[:k:k]
			} else {
				wa.dims, wa.ints, wa.anch = make([]Dim, k), make([]int, 3*k), make([]anchor, k)
			}
			copy(wa.dims, a.dims)
			copy(wa.ints[:k], a.tile)
			copy(wa.ints[k:2*k], a.full)
			copy(wa.ints[2*k:], a.box)
			copy(wa.anch, a.anchors)
		}
		m.mu.Lock()
		if m.warps == nil {
			m.warps = wa
		} else {
			wa = m.warps
		}
		m.mu.Unlock()
	}
	if wa.err != nil {
		return aligned{}, 0, wa.err
	}
	k := len(wa.dims)
	var dims []Dim
	var ints []int
	var anchors []anchor
	if k <= storeDims {
		dims, ints, anchors = st.dims[:k:k], st.ints[:3*k:3*k], st.anch[:k:k]
	} else {
		dims, ints, anchors = make([]Dim, k), make([]int, 3*k), make([]anchor, k)
	}
	copy(dims, wa.dims)
	copy(ints, wa.ints)
	copy(anchors, wa.anch)
	return aligned{dims: dims, tile: ints[:k:k], full: ints[k : 2*k : 2*k], box: ints[2*k:], anchors: anchors}, wa.w, nil
}
