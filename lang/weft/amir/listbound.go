package amir

// A bound on the cells that hold lists (issue 13, stop 42: amir42).
//
// Walks of every cell of a variable for its lists (alloc's free of the
// last incarnation's records, thsymKeep's walks) had tested every cell:
// per_cta_alloc's 256-cell tile, whose records lie in 16 cells, took
// ~3.5 K instructions a check there. varState.listLo and listHi bound the
// cells that may hold a list: every cell outside [listLo, listHi) has
// both its lists empty. An allocation empties every list (fillCells) and
// the range (listLo = listHi = 0); a list goes from
// empty to not empty only where a record is put on it, and every such
// place first widens the range over its cell (listAt, listAll):
// recordCells' records (effects.go), the lazy records made (makeLazy,
// makeLazyGroup, thsymAdoptLazy's part), the copies of the thread and
// grid symmetries (thsymCopyMap, thsymCopyMap2, gridLeave's and the
// deferred slabs' copies, thread-group copies). Nothing else writes a
// head but to -1 or to the next record of the same list. The range only
// widens until the next allocation, so it holds every list. A walk of
// the range's cells therefore meets every record a walk of all cells
// meets, in the same order.
//
// listBoundCheck (amir's tests turn it on for the whole package) makes
// every bounded walk, and the end of every run for every variable, test
// that no cell outside the range holds a list; TestListBoundMatchesFull
// compares Results with noListBound.

// listBoundCheck: test the bound at every bounded walk (tests).
var listBoundCheck bool

// listAt widens st's range of cells with lists over cell c (an empty
// range is [0, 0): listCells slices it with no test).
func (st *varState) listAt(c int32) {
	if st.listHi == 0 {
		st.listLo, st.listHi = c, c+1
		return
	}
	if c < st.listLo {
		st.listLo = c
	}
	if c >= st.listHi {
		st.listHi = c + 1
	}
}

// listAll widens st's range over every cell.
func (st *varState) listAll() {
	st.listLo, st.listHi = 0, int32(len(st.cells))
}

// listCells returns st's cells that may hold lists (the range's; every
// cell with noListBound). Small enough to inline: the tests' checks and
// counts are apart (listCellsTest). The walks it serves: alloc's free,
// thsymKeep's, lazyNoSrc's and gridLazyToCells' (which look for a list,
// or a record, in any cell: the order of the cells does not matter).
func (m *Machine) listCells(st *varState) []cell {
	if m.noListBound || listBoundCheck {
		return m.listCellsTest(st)
	}
	return st.cells[st.listLo:st.listHi]
}

// listCellsTest is listCells with the bound tested and the walks it
// shortens counted (listShort). Not inlined: listCells would not be.
//
//go:noinline
func (m *Machine) listCellsTest(st *varState) []cell {
	if m.noListBound {
		return st.cells
	}
	st.checkListBound()
	if int(st.listHi-st.listLo) < len(st.cells) {
		m.listShort++
	}
	return st.cells[st.listLo:st.listHi]
}

// checkListBound panics when a cell of st outside its range holds a list.
func (st *varState) checkListBound() {
	for c := range st.cells {
		if (int32(c) < st.listLo || int32(c) >= st.listHi) && (st.cells[c].reads >= 0 || st.cells[c].muts >= 0) {
			panic("amir: a list outside the variable's list bound")
		}
	}
}
