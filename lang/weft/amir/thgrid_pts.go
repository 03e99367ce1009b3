package amir

import "slices"

// A grid nest's points, shared by its entries (issue 13, stop 33:
// shfl_xor).
//
// shfl_xor enters each of its three block nests four times, once per
// iteration of the sequential loop around it, and every entry has the
// same points: 16 blocks of 4 lanes. gridTry enumerated them at each
// entry (the threads th(p), the coordinates, the membership bitmap, a
// slice each), about 3.5 K instructions and four allocations an entry,
// a sixth of gridTry's own cost once gridCompare stopped making d_A's
// lazy record (thgrid_lzcell.go). They are a function of the points per
// axis (ns), the first point's thread and the block width (th0, w) and
// the plan's steps alone (th(p) = th0 + Σ steps_k·p_k), so a nest keeps
// its last entry's (gridNest.pts) and an entry with the same ns, th0 and
// w takes them as they are. The slices are never written after they are
// made: regions (gridVirt.g) and thread-group frames (grpFrame.ths) keep
// them, and a frame that grows its list appends to a full slice (a copy).
// Only the entry state (the variables' slabs, their comparison, the
// statistics) is computed at every entry. TestGridPointsShared
// (thgrid_pts_test.go) compares with points made at every entry.

// gridNest is a grid nest's state across its entries in one run.
type gridNest struct {
	s *Stmt // the nest's loop
	// bo: the failures in a row and the entries still to skip
	// (gridEnter's backoff).
	bo  [2]int32
	pts *gridPoints
	// lay: the last entry's layout, kept to move (thgrid_move.go).
	lay *gridLay
	// thLoops: the loops blkLeaveToThSym tests, listed once (thListed),
	// in thIn while they fit (issue 13, stop 46: the list's growth had
	// been 5 of shfl_xor's allocations a check).
	thLoops  []*Stmt
	thListed bool
	// layHeld: a deferred slab may hold lay's boxes and slabs (a frame
	// of this nest was kept since they were made); else gridLayMove
	// moves them in place.
	layHeld bool
	thIn    [3]*Stmt
	// spare: the last entry's frame when no deferred slab holds it
	// (gridFree), for the next entry (newGridRT; nil: none).
	spare *gridRT
}

// gridPoints is a grid's points (gridRT's fields of the same names).
type gridPoints struct {
	pl     *gridPlan
	ns     []int
	th0, w int32
	ths    []int32
	pts    []int
	inF    []uint64
}

// gridPointsOf sets g's points for ns points per axis from th0 and w (set
// already): nest's last ones when they match, else made and kept. It
// reports false when two points share a thread, or a thread is negative.
func (m *Machine) gridPointsOf(g *gridRT, nest *gridNest, ns []int) bool {
	c := nest.pts
	if c == nil || c.pl != g.pl {
		// Another nest's, when its steps are this one's (stop 37:
		// shfl_xor's three nests have one set of points).
		c = m.gridLastPts
	}
	if c != nil && (c.pl == g.pl || slices.Equal(c.pl.steps, g.pl.steps)) && c.th0 == g.th0 && c.w == g.w && slices.Equal(c.ns, ns) && !m.noGridPtsShare {
		nest.pts = c
		g.ns, g.ths, g.pts, g.inF = c.ns, c.ths, c.pts, c.inF
		m.gridPtsShared++
		return true
	}
	pl := g.pl
	g.ns = slices.Clone(ns)
	n := 1
	for _, nk := range ns {
		n *= nk
	}
	pt := make([]int, len(ns))
	maxT := int32(0)
	g.ths, g.pts = make([]int32, 0, n), make([]int, 0, n*len(pt))
	for i := 0; i < n; i++ {
		t := g.th0
		for k := range pt {
			t += int32(pl.steps[k] * pt[k])
		}
		if t < 0 {
			return false
		}
		g.ths = append(g.ths, t)
		g.pts = append(g.pts, pt...)
		if t+g.w-1 > maxT {
			maxT = t + g.w - 1
		}
		for k := len(pt) - 1; k >= 0; k-- {
			pt[k]++
			if pt[k] < g.ns[k] {
				break
			}
			pt[k] = 0
		}
	}
	g.inF = make([]uint64, maxT/64+1)
	for _, t0 := range g.ths {
		for t := t0; t < t0+g.w; t++ {
			if g.inF[t/64]&(1<<(t%64)) != 0 {
				return false // two points, one thread
			}
			g.inF[t/64] |= 1 << (t % 64)
		}
	}
	nest.pts = &gridPoints{pl: pl, ns: g.ns, th0: g.th0, w: g.w, ths: g.ths, pts: g.pts, inF: g.inF}
	m.gridLastPts = nest.pts
	return true
}
