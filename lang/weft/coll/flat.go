package coll

// Flat is a one-dimensional tiling of a CTA without clusters as a value:
// the fields of the device tiling and of the tilings threads1D makes under
// it that the code generator's diagnostics-only walk reads (issue 13, stop
// 47). A walk that derives its own tilings had kept them in a 3.4 KB slab
// on the heap: each derivation stores its parent's pointer, so the slab
// escaped. A Flat holds no pointer and stays in its holder; the walk falls
// back to the tilings wherever Threads1D declines.
// TestFlatMatchesThreads1D compares the two on random nests.
type Flat struct {
	// tile, full, an: the shape's tile, full tile and anchor (threads1D's
	// tt, full and an0); threads: the collective's threads, one run at
	// pitch 1 (none for one thread).
	tile, full, threads int
	an                  anchor
	// TileThreads is Tiling.TileThreads; LowerOK is Lowering().OK.
	TileThreads int
	LowerOK     bool
	// bits is LowBits.
	bits int
}

// FlatDevice is DeviceTiling(m) as a Flat, ok for a machine without
// clusters (one dimension) and a positive blockDim.
func FlatDevice(m Machine) (Flat, bool) {
	if m.ClusterDim != 1 || m.BlockDim < 1 {
		return Flat{}, false
	}
	n := m.BlockDim
	return Flat{tile: n, full: n, threads: n, an: anchor{A: n, OK: true}, TileThreads: n}, true
}

// Threads is Tiling.Threads.
func (f *Flat) Threads() int { return f.threads }

// Contiguous is the test of a barrier on the collective: at most one run,
// at pitch 1 (a Flat's collective always is).
func (f *Flat) Contiguous() bool { return true }

// LowBits is Tiling.LowBits.
func (f *Flat) LowBits() int { return f.bits }

// Full0 is Tiling.Full[0].
func (f *Flat) Full0() int { return f.full }

// Threads1D is the Flat of the tiling CudaThreadsIn(iter, count, v, st)
// makes under f's tiling on machine m by threads1D (any iter), v being u
// scaled by k (u.Scaled(k)'s box; k 1: u itself), which the caller need
// not make; ok false where threads1D does not make it (CudaThreadsIn then
// takes another way, which the caller must take from the tilings).
func (f *Flat) Threads1D(m Machine, count int, u *Unit, k int) (Flat, bool) {
	if len(u.Domain) != 1 || len(u.Box) != 1 || count < 1 || k != 1 && u.ScaledDim != 0 {
		return Flat{}, false
	}
	box := u.Box[0]
	if k != 1 {
		box = box.scaled(k)
	}
	d, ok1 := symValue(u.Domain[0], m)
	b, ok2 := symValue(box, m)
	n := m.Threads()
	if !ok1 || !ok2 || d != n {
		return Flat{}, false
	}
	bb, nf, an, ok := step1D(n, f.tile, f.full, f.an, count, b)
	if !ok {
		return Flat{}, false
	}
	c := Flat{tile: bb, full: nf, threads: bb, TileThreads: nf, bits: f.bits | bb}
	c.an = loopAnchor(an, bb, f.tile)
	// setLoop's lowering: known with the aligned anchor, or a no-op.
	c.LowerOK = an.OK || bb == f.tile
	return c, true
}

// LowBits is the bitwise or of t's base's constant and its terms'
// steps: a power of two k divides each of them where LowBits()&(k-1) is
// 0 (threadBarrierTo's alignment tests; issue 13, stop 47).
func (t *Tiling) LowBits() int {
	b := t.Base.Const
	for _, term := range t.Base.Terms {
		b |= term.Step
	}
	return b
}
