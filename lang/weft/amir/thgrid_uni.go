package amir

// Uniform regions in gridCompare (issue 13, stop 37: shfl_xor).
//
// shfl_xor's first phase reads d_A, which the host's copy wrote whole:
// one lazy record, moved to the cells as a deferred plain record each
// (thgrid_lzcell.go). At each of the phase's four entries gridCompare
// walked the region's 4 slab_0 cells x 2 lists x 15 points, each point's
// cell found deferring the very record slab_0's did (lzc equal, lists
// empty) and passed by the same test: on the record's list, the test of
// slab_0's record against itself (gridLazySame, decided at p = 1 and kept
// in the snapshot's dec); on the other list, an empty list whose cell
// defers a record of the other kind. About 12 K instructions an entry.
//
// gridLzUniform tests the region once, cell by cell over slabs 1..n-1:
// every cell defers (lzc) what its slab_0 cell defers, nonzero, and both
// of its lists are empty, as are slab_0's. Then for every slab_0 cell c
// and point p >= 1, lzc[c + offs[p]] = lzc[c] = id0 and both lists of
// c + offs[p] are empty when gridCompare reaches them: the only writes in
// between are makeLazyGroup on c (a slab_0 cell) and, at p = 1, on
// c + offs[1] (a cell no other (c', p') reads: the slabs are disjoint,
// gridTry's fits). So at every p >= 2 of the record's list the branch
// `z == id && same && dec == 1` is taken when `same && dec == 1` holds
// (it does not change with p), and at every p of the other list the
// branch `q < 0 && z == id0 && other` is: gridCompare stops the walk of
// the points there and counts them kept, with the answer the walk gives.
// TestGridUniformMatchesWalk (thgrid_uni_test.go) compares with the walk
// (noGridUniform) on every generator; it fails with the test of lzc
// dropped. Alive, argued: the tests of the lists (a cell that defers a
// record has both lists empty: everything that reads or writes a list
// makes the cell's deferred record first, thgrid_lzcell.go), id != 0
// (with id0 = 0 neither shortcut applies), and dec == 1 beside same (a
// record that passes at p = 1 and is not free, so that dec stays 0, takes
// gridGrpSame's path: one-thread grids of group records, which no
// generator defers over a uniform region).

// gridLzUniform reports whether every cell of vr's slabs 1..n-1 defers
// the nonzero record its slab_0 cell defers, and every list of both is
// empty.
func (m *Machine) gridLzUniform(st *varState, vr *gridVarRT) bool {
	lzc, cells, offs := st.lzc, st.cells, vr.offs
	return forCells(st, vr.lo, vr.hi, func(c int32) bool {
		id := lzc[c]
		if id == 0 || cells[c].reads >= 0 || cells[c].muts >= 0 {
			return false
		}
		for _, off := range offs[1:] {
			d := c + off
			if lzc[d] != id || cells[d].reads >= 0 || cells[d].muts >= 0 {
				return false
			}
		}
		return true
	})
}
