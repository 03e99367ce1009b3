package amir

// A whole variable's lazy record in a grid nest's slabs (issue 13, stop
// 33: shfl_xor).
//
// shfl_xor's host copy writes all of d_A before the kernel: one lazy
// record (lazycells.go, varState.lazy). Each of the four entries of the
// first phase's block nest (thgrid_blk.go) then compared a region of d_A
// slab by slab (gridCompare), which made the record in all 256 cells
// first (unlazy, about 43 K instructions a check) and compared 16 slabs x
// 4 cells of copies of it record by record (about 85 K); the regions'
// slabs 1..15 were then deferred and their records never looked at again
// (the host's copy out is answered on slab_0 of each region: gridCheckRun,
// lazyOverRegions). That was 40% of gridTry and a fifth of the machine.
//
// A lazy record whose lists are all empty below it is what a deferred
// thread group is (lazygroups.go): a record that every cell would hold
// alone on its list, made when something reads the cell. So gridCompare
// moves it there (gridLazyToCells): every cell defers a plain lazyGrp of
// the same statement, creator, counts and stamp, and makeLazyGroup makes
// it as makeLazy would have (initRecord, the cell's version; no group).
// Everything that reads a cell's lists then makes it as it makes a
// deferred group (Machine.cells the cells it returns, unlazy all of
// them, gridUnlazyOutside those outside deferred slabs), and gridCompare
// compares slab p's copies without making them (thgrid_lzgrp.go: a cell
// of slab p that defers the very lazyGrp slab_0's cell deferred is, made,
// field for field slab_0's record before its replay; gridLazySame). A
// record made later with the same fields and stamp is the record made
// then (records replay lazily from their stamp), so the Result is the
// eager one; only the memory held and the cells' versions (fresh either
// way) differ.
//
// When a nest defers its slabs (gridVirtAdd), the deferred records of
// cells in slabs 1..n-1 are dropped (gridDropSlabLazy), as gridBuild
// drops them when it replaces those lists: a deferred slab's own lists
// are no state (thgrid_lazy.go), and making them later (the host's copy
// out makes every cell of d_A through Machine.cells) would only make
// records on lists that gridBuild frees.
//
// TestLazyToCellsMatchEager (thgrid_lzcell_test.go) runs the block and
// one-thread grid generators with lazy records at every size, with the
// move, without it (noLazyToCells: the record made at gridCompare), and
// without grid symmetry.

// gridLazyToCells moves lazy variable st's remembered record to its cells
// as deferred plain records, when the lists it records on are all empty.
func (m *Machine) gridLazyToCells(st *varState) {
	if !st.lazy || st.lzN > 0 || m.noLazyToCells || m.noLazySlabs || m.gridNoRawSkip {
		return
	}
	mut := st.lazyS.Kind == KRecordMutate
	cells := m.listCells(st) // the others' lists are empty
	for i := range cells {
		h := cells[i].reads
		if mut {
			h = cells[i].muts
		}
		if h >= 0 {
			return // made over records: gridCompare makes it (unlazy)
		}
	}
	if len(st.lzc) < len(st.cells) {
		st.lzc = make([]int32, len(st.cells))
	}
	var pends []pend
	if len(st.lazyPend) > 0 {
		// recordLazy reuses lazyPend's storage.
		pends = append(pends, st.lazyPend...)
	}
	st.lzRecs = append(st.lzRecs, lazyGrp{s: st.lazyS, gs: st.lazyCr, pends: pends, stamp: st.lazyStamp, plain: true})
	id := int32(len(st.lzRecs))
	lzc := st.lzc[:len(st.cells)]
	for c := range lzc {
		lzc[c] = id
	}
	st.lzN = len(lzc)
	st.lazy = false
	m.lazyMade++
	m.lazyToCells++
}

// gridDropSlabLazy forgets the deferred records and groups of the cells
// of region d's slabs 1..n-1 of variable st, which d now defers.
func (m *Machine) gridDropSlabLazy(st *varState, d *gridVirt) {
	if st.lzN == 0 || m.noLazySlabs || m.noLazyToCells {
		return
	}
	cells0, _ := m.slabCells(d, st)
	lzc := st.lzc
	for _, off := range d.offs[1:] {
		for _, c := range cells0 {
			if lzc[c+off] != 0 {
				lzc[c+off] = 0
				st.lzN--
			}
		}
	}
}
