package amir

import "unsafe"

// Lazy cells (issue 13: tk_split_gemm). A statement that records every
// cell of a variable none of whose cells holds a record, and makes one
// record a cell (not per thread: recordCells' !perThread), makes the same
// record in every cell: the same statement, creator, counts and stamp,
// and addRecord on an empty list only prepends it. The host
// cudaMemsetAsync0_3d of C before tk_split_gemm's kernel is one: 917 504
// records at M=1024 N=896, about 0.1 s of a run that the reference
// rejects in 0.07-0.11 s. Records are replayed lazily (record.stamp), so
// a record made later with the same fields and stamp is the record made
// now, replayed or not. recordCells therefore only remembers the record
// (varState.lazy) and makeLazy makes it in every cell before anything
// reads one of the variable's lists: Machine.cells (every access), and
// the walks of the thread-symmetry, grid and thread-group code over a
// variable's cells. Stats.Records and Stats.MemOps count the records
// when the statement executes, as before; only the memory held and the
// values of cell versions (fresh either way, memo.go) differ. A variable
// freed or reallocated while lazy never makes them. The Result is the
// eager one (TestLazyCellsMatchEager).
//
// Stop 30: the cells may already hold records when none is of the same
// statement (recordLazy); makeLazy puts the remembered record at the
// head of each list, where addRecord would have. thsymAdoptableLazy,
// which reads a lazy variable as holding that record alone, asks
// lazyAlone first.

// recordLazy is recordCells' lazy path: true when it recorded s on every
// cell of st by remembering the record.
//
// had is false when st had no record before this one (varState.hasRecs,
// read before recordCells set it): every list is empty then, and
// lazyNoSrc's walk of every cell would find nothing (issue 13, stop 36:
// rmem_uniform's host copies into fresh variables walked 256 empty
// lists each).
func (m *Machine) recordLazy(s *Stmt, cs []int32, gs threads, pends []pend, st *varState, had bool) bool {
	if m.noLazyCells || st.lazy || len(cs) != len(st.cells) || len(cs) < lazyCellsMin {
		return false
	}
	if !identityCells(cs) {
		return false
	}
	if had && !m.lazyNoSrc(s, st) {
		return false
	}
	st.lazy = true
	st.lazyS = s
	st.lazyCr = gs
	st.lazyPend = append(st.lazyPend[:0], pends...)
	st.lazyStamp = int32(len(m.log))
	m.res.Stats.Records += int64(len(cs))
	m.lazyTaken++
	return true
}

// lazyNoSrc reports whether no list of st that s records on holds a
// record of s's source. The cells may hold records (stop 30:
// rmem_uniform's host read of d_dst after the kernel's writes, 256
// records): addRecord then prepends the new record, as makeLazy does,
// unless the list holds one of the same statement (the only records it
// keeps, replaces or expands: a record of s's source, or a group of it).
func (m *Machine) lazyNoSrc(s *Stmt, st *varState) bool {
	src := int32(s.Src)
	reads := s.Kind == KRecordRead
	cells := m.listCells(st) // the others' lists are empty
	for i := range cells {
		h := cells[i].muts
		if reads {
			h = cells[i].reads
		}
		for ; h >= 0; h = m.rec(h).next {
			if m.rec(h).src == src {
				return false
			}
		}
	}
	return true
}

// Lazy records over deferred regions (stop 31, shfl31). shfl_xor's host
// copy out of d_A reads all of it after the kernel, whose nests left 4
// regions of d_A deferred (thgrid_blk.go): its CheckMutates is answered
// on them (gridCheckRun), and its RecordRead, a lazy record, built the
// 240 cells of slabs 1..15 of every region only to prepend one record
// to each. lazyOverRegions lets it be remembered with the regions still
// deferred, when
//
//   - recordLazy takes it: s records one record a cell (not per thread),
//     on the whole variable, and no list it records on holds a record
//     of its source. The cells of slabs 1..n-1 hold no state of their
//     own while deferred; their lists are what the nest found, and a
//     record of s's source there only makes this test refuse (the test
//     on the built cells sees slab_0's sources, which it sees too);
//   - its thread set holds all or none of each region's frame (and no
//     region holds group records), so τ_p leaves the record alone
//     (gridTau): it is its own image at every point.
//
// Whatever reads the variable later makes the remembered record in every
// cell first (Machine.cells, unlazy: gridBuild calls it before it copies
// slab_0), so a built slab p is τ_p of slab_0 with the record at its
// head, which is the record followed by τ_p of slab_0's old list: the
// list the eager path (build, then prepend) makes. Replay is lazy, so
// the copy made at the build (replayed then) is the record made now.
// TestLazyRegionsMatchEager (thgrid_blk_shfl31_test.go) compares it with
// the path that builds them.
func (m *Machine) lazyOverRegions(s *Stmt) bool {
	if s.Kind != KRecordRead && s.Kind != KRecordMutate || len(s.Bars) > 0 || m.noLazyRegions || m.gv[s.Acc.Var] == nil {
		return false // (no region of it: nothing to build)
	}
	st := &m.vars[s.Acc.Var]
	if !st.live || m.noLazyCells || st.lazy || len(st.cells) < lazyCellsMin {
		return false
	}
	gs := m.gs(s)
	if !s.Convergent && gs.task != allTasks && len(m.shapes[gs.shape]) > 1 {
		return false // recordCells' perThread
	}
	for d := m.gv[s.Acc.Var]; d != nil; d = d.next {
		if d.epoch != st.epoch || d.grpRep || !m.gridUniform(d.g, gs) {
			return false
		}
	}
	cs, ok := m.cells(s.Acc, s.Src)
	if !ok {
		return true // the eager run's fault (effect stops there)
	}
	if len(cs) != len(st.cells) {
		return false
	}
	for i, c := range cs {
		if c != int32(i) {
			return false
		}
	}
	return m.lazyNoSrc(s, st)
}

// lazyCellsMin is the fewest cells worth deferring (a variable for the
// tests).
var lazyCellsMin = 64

// makeLazy makes st's remembered record in every cell, as recordCells
// would have made it (without counting it again).
func (m *Machine) makeLazy(st *varState) {
	st.lazy = false
	m.lazyMade++
	s := st.lazyS
	st.listAll()
	for c := range st.cells {
		cl := &st.cells[c]
		head := &cl.reads
		if s.Kind == KRecordMutate {
			head = &cl.muts
		}
		i := m.takeRecord()
		m.initRecord(i, *head, s, st.lazyCr, st.lazyPend, st.lazyStamp)
		*head = i
		m.vers++
		cl.ver = m.vers
	}
}

// lazyAlone reports whether lazy variable st's cells hold nothing but the
// remembered record (recordLazy may defer it over records).
//
// Four cells at a time (issue 13, stop 39: rmem_uniform's adoption
// walked 256 empty cells a loop entry, 7 instructions a cell): a head is
// -1 when its list is empty and an index >= 0 otherwise, so the eight
// heads of four cells are all empty exactly when their AND has its sign
// bit set (as nextList, thkeep.go).
func lazyAlone(st *varState) bool {
	cells := st.cells
	i := 0
	for ; i+4 <= len(cells); i += 4 {
		q := cells[i : i+4 : i+4]
		if q[0].reads&q[0].muts&q[1].reads&q[1].muts&q[2].reads&q[2].muts&q[3].reads&q[3].muts >= 0 {
			return false
		}
	}
	for ; i < len(cells); i++ {
		if cells[i].reads >= 0 || cells[i].muts >= 0 {
			return false
		}
	}
	return true
}

// identityCells reports whether cs is 0, 1, ..., len(cs)-1 (recordLazy:
// the statement records every cell in order). Four at a time: the OR of
// each cell's XOR with its index is 0 exactly when all four equal theirs
// (stop 39: the test had been two instructions and a branch a cell on
// rmem_uniform's 256-cell host copies).
func identityCells(cs []int32) bool {
	if t := ascPrefix(len(cs)); t != nil {
		// A compare of the bytes with the ascending table's prefix:
		// memequal's vector loop (issue 13, stop 44: the four-at-a-time
		// test had been 2.8 K instructions of rmem_uniform's check).
		return int32Bytes(cs) == int32Bytes(t)
	}
	i := 0
	for ; i+4 <= len(cs); i += 4 {
		q := cs[i : i+4 : i+4]
		k := int32(i)
		if (q[0]^k)|(q[1]^(k+1))|(q[2]^(k+2))|(q[3]^(k+3)) != 0 { // ^ and | share a precedence
			return false
		}
	}
	for ; i < len(cs); i++ {
		if cs[i] != int32(i) {
			return false
		}
	}
	return true
}

// unlazy makes st's remembered records, if any, before a walk over its
// cells that does not go through Machine.cells.
func (m *Machine) unlazy(st *varState) {
	if st.lazy {
		m.makeLazy(st)
	}
	if st.lzN > 0 {
		m.makeLazyGroupsAll(st) // lazygroups.go
	}
}

// int32Bytes is s's memory as a string (read only, for a compare).
func int32Bytes(s []int32) string {
	return unsafe.String((*byte)(unsafe.Pointer(unsafe.SliceData(s))), 4*len(s))
}
