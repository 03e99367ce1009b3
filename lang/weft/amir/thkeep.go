package amir

// Whole-variable statements on a virtual variable (issue 13, stop 30).
//
// A statement outside a virtual loop that reads or changes a virtual
// variable had always materialized it (thsymTouch): per_cta_alloc's free
// check of its tile, after the CTA fence, copied the 16 rows'
// representatives into 240 records only to find that every one passes,
// and rmem_uniform's host copy of d_dst back (a check and a read record
// by the host) copied 255 slices. thsymKeep lets such a statement run on
// the virtual state when that gives the materialized run's result.
//
// The form: the statement (or fused run, kRun) accesses the whole
// variable (every window spans its dimension, so its cells are every
// cell and it cannot fault); its threads gs are σ-invariant for every
// frame of the variable's maps (all of the frame's threads or none, as
// the events of invariant 2 in thsym.go); it is checks (CheckReads,
// CheckMutates) followed by records (RecordRead, RecordMutate) of one
// record a cell (not one per thread: a per-thread record of the frame's
// first thread would be shifted by the copies), with no barrier access.
//
// Why the result is the materialized one. Materialized, thread i's slice
// holds τ_i of the representative's records (thsymCopy: creator and
// one-thread grants of the frame's first thread moved to thread i). A
// check reads a record only through tests of its components against gs
// (failing, and the creator and coversAll shortcuts, which pass only
// where failing passes) and of its timeline, level and atomic set; τ_i
// moves one thread of the frame to another, both in gs or both out, so
// τ_i(r) fails iff r does. Every record of the variable (the
// representatives' and any other) is tested first without reporting;
// if one fails, the variable is materialized as before. Otherwise no
// record fails in either state: the check reports nothing, and counts
// the same cells. A record statement then adds, in every cell, a record
// by gs that τ_i leaves alone; addRecord on τ_i of a list does what it
// does on the list, translated, as its tests (source, creator equal to
// gs, timeline, level, atomic set, dominated) read the old record's
// components the same way, except that the virtual state's other slices
// are empty where the materialized ones hold copies: the copies must not
// change what addRecord does, so no list may hold a record of the same
// source by gs (the only records it may keep or replace) nor a group.
// The other slices then hold the new record alone, which a later
// materialization replaces by the copy of the representative's list,
// whose head is the same record: the state materialized later is the
// one materialized now, as for the loop's own statements. Replays (the
// pre-pass's and the check's) only bring records up to the log, as a
// later inspection would.
//
// Checked by TestThreadSymKeepMatchesMaterialized (against the
// materializing path, thsymNoKeep) and the thread-symmetry differential
// tests (against runs with no symmetry).

// Checks already walked (issue 13, stop 32). thsymKeep walks every record
// of the variable with each check's own failing test (the same threads
// gs, convergence, level and qualifiers), replaying each record first: a
// kept check's own walk (checkCells) would then inspect the same records,
// every one already replayed (its stamp is the log's length, and no event
// comes between), none failing, and add nothing but its cells to the
// statistics. So a kept statement that is a check, or a run whose members
// are all checks, only counts its cells: every cell of the variable (its
// windows span every dimension, wholeVar), as many as evalCells would
// list. (A run with records still runs its members: the checks' walks
// are repeated there, as before.) Checked by TestKeepSkipMatchesWalk
// (thkeep_skip_test.go) against thsymNoKeepSkip and by the thread-
// symmetry differential tests against the materialized and plain runs;
// per_cta_alloc's free check and rmem_uniform's host copies had walked
// their 256 cells twice.

// keptChecksOnly reports whether every member of run is a check.
func keptChecksOnly(run *Stmt) bool {
	for _, s := range run.Body {
		if s.Kind != KCheckReads && s.Kind != KCheckMutates {
			return false
		}
	}
	return true
}

// keptCheckOps counts the cells of kept check s (every cell of its
// variable), as checkCells does.
func (m *Machine) keptCheckOps(s *Stmt) {
	st := &m.vars[s.Acc.Var]
	n := int64(st.total)
	m.res.Stats.MemOps += n
	if st.local {
		m.localOps += n
	}
	m.thKeepSkips++
}

// thsymKeep reports whether s, a statement outside a virtual loop on
// virtual data variable s.Acc.Var, runs on the virtual state (true) or
// the variable must be materialized first (false).
func (m *Machine) thsymKeep(s *Stmt) bool {
	if m.thsymNoKeep || m.lite {
		return false
	}
	v := s.Acc.Var
	vs := m.thVars[v]
	pv := &m.p.Vars[v]
	if pv.Barrier {
		return false
	}
	var one [1]*Stmt
	body := one[:]
	one[0] = s
	if s.Kind == kRun {
		body = s.Body
		if !s.Exec.All && s.gsc == nil {
			return false // execRun has no common gs
		}
	}
	st := &m.vars[v]
	if !st.live || !m.wholeVar(body[0].Acc, st) {
		return false
	}
	gs := m.gs(s)
	for i := range vs.maps {
		if !m.thsymInvariant(gs, vs.maps[i].frame) {
			return false
		}
	}
	m.unlazy(st)
	now := int32(len(m.log))
	recorded := false
	for _, b := range body {
		if b.Acc.Var != v || len(b.Bars) > 0 {
			// A barrier access's counts (a record's P) name the
			// queues of gs; not needed by the argument either, and
			// not tested: refused.
			return false
		}
		reads := b.Kind == KCheckReads || b.Kind == KRecordRead
		// A list no statement of the program records on (no
		// RecordRead, or no RecordMutate, of v: Var.NeverRead,
		// NeverMutated, from Finish's walk of every statement) is
		// empty in every cell: its walk is skipped (issue 13, stop 32:
		// per_cta_alloc's free check walked 256 empty read lists).
		// Nor is one of a kind no record of the run has reached
		// (varState.hasReads, hasMuts; stop 36).
		empty := reads && pv.NeverRead || !reads && pv.NeverMutated || !st.hasKind(reads) && !m.noEmptySkip
		switch b.Kind {
		case KCheckReads, KCheckMutates:
			if recorded {
				// Not needed by the argument (the record is the same
				// in every cell of both states, and the records before
				// it were tested by the checks' pre-pass), but no
				// program has one: refused rather than relied on.
				return false
			}
			cells := m.listCells(st)
			if empty {
				cells = nil
			}
			for c, h := nextList(cells, 0, reads); c < len(cells); c, h = nextList(cells, c+1, reads) {
				for ; h >= 0; h = m.rec(h).next {
					r := m.rec(h)
					if r.grp != 0 {
						return false
					}
					if r.stamp != now {
						m.replay(r)
					}
					if _, _, fail := m.failing(r, gs, b.Convergent, b.Level, b.Quals); fail {
						return false
					}
				}
			}
		case KRecordRead, KRecordMutate:
			if !b.Convergent && gs.task != allTasks && len(m.shapes[gs.shape]) > 1 {
				return false // one record per thread
			}
			cells := m.listCells(st)
			if empty {
				cells = nil
			}
			for c, h := nextList(cells, 0, reads); c < len(cells); c, h = nextList(cells, c+1, reads) {
				for ; h >= 0; h = m.rec(h).next {
					r := m.rec(h)
					if r.grp != 0 || r.src == int32(b.Src) && r.creator == gs {
						return false
					}
				}
			}
			recorded = true
		default:
			return false
		}
	}
	m.thKeeps++
	return true
}

// nextList returns the first cell at or after c whose read (reads) or
// mutate list is not empty, and the list's head; len(cells) when there is
// none. thsymKeep's walks skip the empty lists in a tight loop (most of a
// kept variable's cells: per_cta_alloc's free check finds 16 records in
// 256 cells; issue 13, stop 32).
//
// Four cells are tested at a time (issue 13, stop 36): a head is -1 when
// its list is empty and an index >= 0 otherwise, so four heads are all
// empty exactly when the AND of the four has its sign bit set; the one
// branch a group skips most of the loop's per-cell test, bound check and
// increment (per_cta_alloc's kept free check walked 256 cells for one
// record, 10 instructions a cell).
func nextList(cells []cell, c int, reads bool) (int, int32) {
	if reads {
		for ; c+4 <= len(cells); c += 4 {
			q := cells[c : c+4 : c+4]
			if q[0].reads&q[1].reads&q[2].reads&q[3].reads < 0 {
				continue
			}
			break
		}
		for ; c < len(cells); c++ {
			if h := cells[c].reads; h >= 0 {
				return c, h
			}
		}
	} else {
		for ; c+4 <= len(cells); c += 4 {
			q := cells[c : c+4 : c+4]
			if q[0].muts&q[1].muts&q[2].muts&q[3].muts < 0 {
				continue
			}
			break
		}
		for ; c < len(cells); c++ {
			if h := cells[c].muts; h >= 0 {
				return c, h
			}
		}
	}
	return len(cells), -1
}

// wholeVar reports whether every window of a spans its dimension of st
// (its cells are every cell of st, in bounds).
func (m *Machine) wholeVar(a *Access, st *varState) bool {
	if len(a.Idx) == 0 {
		return true
	}
	if len(a.Idx) != len(st.dims) {
		return false
	}
	for d := range a.Idx {
		w := &a.Idx[d]
		if w.lo(m.env) != 0 {
			return false
		}
		if w.Hi == nil {
			if st.dims[d] != 1 {
				return false
			}
		} else if w.hi(m.env) != st.dims[d] {
			return false
		}
	}
	return true
}

// thsymInvariant reports whether threads gs hold all of frame f's threads
// or none of them.
func (m *Machine) thsymInvariant(gs threads, f *thFrame) bool {
	if gs.task == allTasks || gs.task != f.task {
		return true
	}
	in := m.frameIn(gs, f)
	return in == 0 || in == f.n
}

// frameIn counts the threads of frame f (of gs's task) that gs holds.
// A range shape (dense) is counted by arithmetic: the frame's threads
// r0 + j*step in [start, start+n) are the j of [ceil((start-r0)/step),
// ceil((start+n-r0)/step)) within [0, f.n) (issue 13, stop 31: a CTA
// fence and a kept CTA check after per_cta_alloc's 16 row loops had
// tested each of the 16 frames' threads one by one, 9% of its machine).
func (m *Machine) frameIn(gs threads, f *thFrame) int32 {
	if n := m.dense[gs.shape]; n > 0 && f.step > 0 {
		lo := ceilDiv32(gs.start-f.r0, f.step)
		hi := ceilDiv32(gs.start+n-f.r0, f.step)
		return max(min(hi, f.n)-max(lo, 0), 0)
	}
	in := int32(0)
	for j := int32(0); j < f.n; j++ {
		if m.contains(gs, f.task, f.r0+j*f.step) {
			in++
		}
	}
	return in
}

// frameCount counts the threads of frame f that t holds, t of any task
// (frameIn's count, by arithmetic for a dense shape: adoption's tests had
// counted rmem_uniform's 256-thread frame thread by thread for the
// creator and each grant of the remembered record, ~10 K instructions a
// check; issue 13, stop 32).
func (m *Machine) frameCount(t threads, f *thFrame) int32 {
	if t.task == allTasks {
		return f.n
	}
	if t.task != f.task {
		return 0
	}
	return m.frameIn(t, f)
}

// ceilDiv32 is ⌈a/b⌉ for b > 0 (a of either sign).
func ceilDiv32(a, b int32) int32 {
	q := a / b
	if a%b != 0 && a > 0 {
		q++
	}
	return q
}
