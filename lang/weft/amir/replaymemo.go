package amir

import "slices"

// Replay memo (issue 13: tk_split_gemm). Replaying a record (Machine.
// replay) is a function of the record's state and the log: apply reads
// only r.q, r.level, r.creator, r.reach, r.grants and r.pend (witness,
// augment, addPend) and writes only r.grants, r.pend and r.reach, and the
// log is append-only within a run; the per-thread replay skips only
// events that leave the record unchanged (replay), so it ends in the state
// the plain one does (TestThreadReplayMatchesFull). Two records with the
// same stamp and the same values of those fields therefore end a replay
// to the same log length in the same state, grant and pending lists
// included, element for element.
//
// Many such records exist when one statement records many cells: the
// cudaMemsetAsync0_3d of C before tk_split_gemm's kernel leaves one
// identical host record per block of C, and the warp-issued TMA reduce
// (unit cuda_warp, accesses not convergent) one record per thread of the
// warp per block, identical but for the creator; each is replayed over
// the kernel's log when a later tile or split first checks its block:
// cells x events, quadratic in the problem size. The memo remembers, for
// a few input states (stamp and fields), the state the last such replay
// reached and the log length it reached; a record with an identical input
// state takes that state and replays only the events logged since. The
// Result is exactly the un-memoized one (TestReplayMemoMatchesFull).

// replayMemoMin is the shortest replay (in events) worth memoizing: a
// shorter one costs about what comparing and copying the state costs.
var replayMemoMin int32 = 32 // a variable for the tests

// replayMemoSize is the number of input states remembered: two-way
// set-associative, sets indexed by stamp and creator, least recently used
// replaced (the per-thread records of one statement differ only in their
// creators, consecutive thread offsets, and must not evict each other).
const replayMemoSize = 256

type replayMemoEntry struct {
	valid bool
	used  uint64 // Machine.rmemoClock at the last use
	from  int32  // the input's stamp
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

// replayMemoLookup returns the entry remembering r's input state, or nil.
func (m *Machine) replayMemoLookup(r *record) *replayMemoEntry {
	m.rmemoClock++
	s := replayMemoSet(r)
	for i := s; i < s+2; i++ {
		e := &m.rmemo[i]
		if e.valid && e.from == r.stamp && e.q == r.q && e.level == r.level && e.cr == r.creator &&
			e.reach == r.reach && slices.Equal(e.g, r.grants) && slices.Equal(e.p, r.pend) {
			e.used = m.rmemoClock
			return e
		}
	}
	return nil
}

// replayMemoSet is the first entry of r's set.
func replayMemoSet(r *record) int {
	h := uint32(r.creator.start) + uint32(r.stamp)*37 + uint32(r.creator.shape)*101 + uint32(r.creator.task)*7
	return int(h%(replayMemoSize/2)) * 2
}

// replayMemoNew takes the least recently used entry of r's set and stores
// r's input state.
func (m *Machine) replayMemoNew(r *record) *replayMemoEntry {
	s := replayMemoSet(r)
	e := &m.rmemo[s]
	if o := &m.rmemo[s+1]; !o.valid || (e.valid && o.used < e.used) {
		e = o
	}
	e.valid, e.used = true, m.rmemoClock
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
		r.grants = m.grantStore(len(e.og))
	}
	r.grants = append(r.grants[:0], e.og...)
	r.pend = append(r.pend[:0], e.op...)
}
