package amir

// Replay memo (issue 13: tk_split_gemm). A plain replay (Machine.replay,
// the loop over every event of the log from r.stamp) is a function of
// the record's state and the events: apply reads only r.q, r.level,
// r.creator, r.reach, r.grants and r.pend (witness, augment, addPend) and
// writes only r.grants, r.pend and r.reach, and the log is append-only
// within a run. Two records with the same stamp and the same values of
// those fields therefore end a replay to the same log length in the same
// state, grant and pending lists included, element for element.
//
// Many such records exist when one statement records many cells: the
// cudaMemsetAsync0_3d of C before tk_split_gemm's kernel leaves one
// identical host record per block of C, each replayed over the whole
// kernel's log when the tile that reduces into it first checks it: cells
// x events, quadratic in the problem size. The memo remembers, for a few
// input states (stamp and fields), the state the last such replay reached
// and the log length it reached; a record with an identical input state
// takes that state and replays only the events logged since. The result is
// exactly the plain replay's (TestReplayMemoMatchesFull). Replays on the
// per-thread path (oneThread) are not memoized: they apply a subset of the
// log (the same result, but not by the same steps), so only a replay that
// applies every event from the record's stamp is.

// replayMemoMin is the shortest replay (in events) worth memoizing: a
// shorter one costs about what comparing and copying the state costs.
var replayMemoMin int32 = 32 // a variable for the tests

// replayMemoSize is the number of input states remembered (round robin).
const replayMemoSize = 4

type replayMemoEntry struct {
	valid bool
	from  int32 // the input's stamp
	q     Qual
	level Level
	cr    threads
	reach int32
	g     []grant
	p     []pend
	// The state reached at log length to.
	to     int32
	oreach int32
	og     []grant
	op     []pend
}

// replayMemoHit looks r's state up; on a hit it sets r to the remembered
// state and returns the entry and the log length that state is at.
func (m *Machine) replayMemoLookup(r *record) *replayMemoEntry {
	for i := range m.rmemo {
		e := &m.rmemo[i]
		if e.valid && e.from == r.stamp && e.q == r.q && e.level == r.level && e.cr == r.creator &&
			e.reach == r.reach && sameGrants(e.g, r.grants) && samePendList(e.p, r.pend) {
			return e
		}
	}
	return nil
}

// replayMemoNew takes an entry (round robin) and stores r's input state.
func (m *Machine) replayMemoNew(r *record) *replayMemoEntry {
	e := &m.rmemo[m.rmemoNext]
	m.rmemoNext = (m.rmemoNext + 1) % replayMemoSize
	e.valid = true
	e.from, e.q, e.level, e.cr, e.reach = r.stamp, r.q, r.level, r.creator, r.reach
	e.g = append(e.g[:0], r.grants...)
	e.p = append(e.p[:0], r.pend...)
	return e
}

// replayMemoSave stores r's state at log length n as e's output.
func (e *replayMemoEntry) save(r *record, n int32) {
	e.to, e.oreach = n, r.reach
	e.og = append(e.og[:0], r.grants...)
	e.op = append(e.op[:0], r.pend...)
}

// replayMemoLoad gives r e's output state (in r's own storage: grants
// from the arena as augment allocates them).
func (m *Machine) replayMemoLoad(r *record, e *replayMemoEntry) {
	r.reach = e.oreach
	if len(e.og) > cap(r.grants) {
		if len(e.og) <= 2 {
			if len(m.grantArena)+2 > cap(m.grantArena) {
				m.grantArena = make([]grant, 0, 4096)
			}
			k := len(m.grantArena)
			m.grantArena = m.grantArena[:k+2]
			r.grants = m.grantArena[k : k : k+2]
		} else {
			r.grants = make([]grant, 0, len(e.og))
		}
	}
	r.grants = append(r.grants[:0], e.og...)
	r.pend = append(r.pend[:0], e.op...)
}

func sameGrants(a, b []grant) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func samePendList(a, b []pend) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
