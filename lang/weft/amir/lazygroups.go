package amir

// Lazy thread groups (issue 13 stop 29: the TMA tester). A statement that
// is not convergent, executed by more than 8 threads, records one thread
// group per cell (thgroup.go) where the cell's list holds no record
// (addThreadRecords finds nothing to match and makes the group). The
// TMA tester's TMA store by warp 0 writes its d_sum tile in every task
// (248 groups a task, 2 976 a check at SW32: a third of its records),
// and nothing ever reads those cells again. Like a whole variable's
// lazy record (lazycells.go), each such cell only remembers the group
// (varState.lzc, the descriptor in varState.lzRecs) and it is made when
// something looks at the cell's lists:
//
//   - Machine.cells (every statement's access) makes the deferred groups
//     of the cells it returns, before the statement acts on them;
//   - unlazy (every walk of a variable's cells outside cells: grid and
//     thread symmetry, group expansion) makes them all;
//   - threadGroupEvent, which expands the groups of a frame that an
//     event holds in part, first makes the deferred groups of that frame
//     (makeLazyGroupsOf), so that they are expanded as the eager ones;
//   - an allocation of the variable drops them (they die unmade).
//
// A group made later with the same fields and stamp is the group made
// then (records replay lazily from their stamp). recordLazyGroups does at
// record time what the eager path does besides making the record: the
// statistics (the members are counted), the cell version (memo.go), the
// frame of the executing set (gridGrpEvent reads the frames) and grpAny.
// Only the memory held differs. TestLazyGroupsMatchEager.

// lazyGrp is a deferred thread group's statement, executing set, arrive
// counts and stamp.
type lazyGrp struct {
	s     *Stmt
	gs    threads
	pends []pend
	stamp int32
	// plain: a whole variable's lazy record moved to its cells, made
	// as makeLazy makes it, no group (thgrid_lzcell.go).
	plain bool
}

// recordLazyGroups is recordCells' lazy path for thread groups: true when
// it recorded s by gs on every cell of cs by remembering the group.
func (m *Machine) recordLazyGroups(s *Stmt, cs []int32, gs threads, pends []pend, st *varState) bool {
	if m.noLazyGroups {
		return false
	}
	mut := s.Kind == KRecordMutate
	for _, c := range cs {
		cl := &st.cells[c]
		h := cl.reads
		if mut {
			h = cl.muts
		}
		if h >= 0 || (st.lzN > 0 && st.lzc[c] != 0) {
			return false
		}
	}
	if len(st.lzc) < len(st.cells) {
		st.lzc = make([]int32, len(st.cells))
	}
	st.lzRecs = append(st.lzRecs, lazyGrp{s: s, gs: gs, pends: append([]pend(nil), pends...), stamp: int32(len(m.log))})
	id := int32(len(st.lzRecs))
	for _, c := range cs {
		st.lzc[c] = id
		m.vers++
		st.cells[c].ver = m.vers
	}
	st.lzN += len(cs)
	m.threadGroupFrame(gs)
	m.grpAny = true
	m.grpMade += int64(len(cs))
	m.res.Stats.Records += int64(len(m.shapes[gs.shape])) * int64(len(cs))
	m.lzTaken += int64(len(cs))
	return true
}

// makeLazyGroup makes cell c's deferred group as addThreadRecords would
// have made it on the empty list.
func (m *Machine) makeLazyGroup(st *varState, c int32) {
	lg := &st.lzRecs[st.lzc[c]-1]
	st.lzc[c] = 0
	st.lzN--
	st.listAt(c)
	cl := &st.cells[c]
	head := &cl.reads
	if lg.s.Kind == KRecordMutate {
		head = &cl.muts
	}
	i := m.takeRecord()
	m.initRecord(i, *head, lg.s, lg.gs, lg.pends, lg.stamp)
	if lg.plain {
		*head = i
		m.vers++
		cl.ver = m.vers
		return
	}
	m.rec(i).grp = thGroup
	*head = i
	m.threadGroupAdd(m.threadGroupFrame(lg.gs), i)
	m.grpMade-- // counted when deferred (threadGroupAdd counts again)
	m.vers++
	cl.ver = m.vers
	m.lzMade++
}

// makeLazyGroupsIn makes the deferred groups of cells cs.
func (m *Machine) makeLazyGroupsIn(st *varState, cs []int32) {
	for _, c := range cs {
		if st.lzc[c] != 0 {
			m.makeLazyGroup(st, c)
			if st.lzN == 0 {
				return
			}
		}
	}
}

// makeLazyGroupsAll makes every deferred group of st.
func (m *Machine) makeLazyGroupsAll(st *varState) {
	for c := range st.lzc {
		if st.lzc[c] != 0 {
			m.makeLazyGroup(st, int32(c))
			if st.lzN == 0 {
				break
			}
		}
	}
	st.lzRecs = st.lzRecs[:0]
}

// makeLazyGroupsOf makes the deferred groups by x of every variable
// (before threadGroupEvent expands x's frame).
func (m *Machine) makeLazyGroupsOf(x threads) {
	for v := range m.vars {
		st := &m.vars[v]
		if st.lzN == 0 {
			continue
		}
		for c := range st.lzc {
			if id := st.lzc[c]; id != 0 && st.lzRecs[id-1].gs == x {
				m.makeLazyGroup(st, int32(c))
			}
		}
	}
}

// dropLazyGroups forgets st's deferred groups (its cells are freed).
func (st *varState) dropLazyGroups() {
	if st.lzN > 0 {
		clear(st.lzc)
		st.lzN = 0
	}
	st.lzRecs = st.lzRecs[:0]
}
