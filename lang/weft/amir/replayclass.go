package amir

import "slices"

// Replay classes (issue 13, stop 33: ping_pong_reorder_await_war, row 38).
//
// The rejected ping-pong GEMM replays 1 105 records a check over 18 922
// events, and they fall into 49 groups of one source, stamp and log
// length: typically the 64 one-thread records of one statement (one per
// thread of two warps, two arrive counts, no grant) that a check walks one
// after the other, each replayed over the same 10 to 28 events. A replay
// reads the record's creator only in witness (Definition B.3 (i)), through
// intersects(e.exec, creator); everything else it reads (timeline, level,
// atomic set, reach, the grants it has or gains, the arrive counts, the
// current task for deadTask, the queue deaths up to the log length) is
// the same for two records that agree on every field but the creator and
// are replayed to the same log length in the same task. So when every
// event of the range holds both creators or neither, the second replay
// ends as the first, creator aside: the same grants, counts and reach.
//
// replayRun keeps its last such replay (a one-thread, grant-free,
// non-group record: the state of the first of a group) with the events
// of the range that hold its creator, and a record that matches it takes
// its end state after a test of its own creator against those events
// (one contains an event: a range or one word of a bitmap). The memo lives in
// the Machine (one check) and is keyed on the log length, so a later
// event or task ends it. TestReplayClassMatchesPlain (replayclass_test.go)
// compares with replays made in full (noReplayClass).

// replayClass is the input and end state of the last replay of a
// one-thread, grant-free data record (replayRun).
type replayClass struct {
	ok              bool
	held            bool // holds is made (replayClassHolds)
	q               Qual
	level           Level
	src             int32
	atomic          QualSet
	creator         threads
	reach, stamp, n int32
	task            int32
	reachOut        int32
	pendIn          []pend
	grantsOut       []grant
	pendOut         []pend
	holds           []uint64 // by event i - stamp: e.exec holds creator
}

// replayClassOf reports whether r may be kept or matched: one thread, no
// grant, no group.
func (m *Machine) replayClassOf(r *record) bool {
	return !m.noReplayClass && r.grp == 0 && len(r.grants) == 0 && m.single[r.creator.shape] && r.creator.task != allTasks
}

// replayClassTake gives r, replayed to n, the kept end state when r
// matches the kept input and every event of the range holds r's creator
// exactly when it holds the kept one's.
func (m *Machine) replayClassTake(r *record, n int32) bool {
	c := &m.rclass
	if !c.ok || c.n != n || c.stamp != r.stamp || c.task != m.task || c.src != r.src || c.q != r.q || c.level != r.level ||
		c.atomic != r.atomic || c.reach != r.reach || c.creator.task != r.creator.task || c.creator.shape != r.creator.shape ||
		!slices.Equal(c.pendIn, r.pend) {
		return false
	}
	if !c.held {
		m.replayClassHolds()
	}
	// intersects(e.exec, creator) is contains for a one-thread set (its
	// one offset is 0: Machine.single), a word or a range test.
	task, t := r.creator.task, r.creator.start
	for i := r.stamp; i < n; i++ {
		k := i - r.stamp
		in := c.holds[k/64]&(1<<(k%64)) != 0
		if m.contains(m.log[i].exec, task, t) != in {
			return false
		}
	}
	r.reach = c.reachOut
	r.stamp = n
	if len(c.grantsOut) > 0 {
		if cap(r.grants) < len(c.grantsOut) {
			r.grants = m.grantStore(len(c.grantsOut))
		}
		r.grants = append(r.grants[:0], c.grantsOut...)
	}
	r.pend = r.pend[:0]
	if len(c.pendOut) > 0 {
		if cap(r.pend) < len(c.pendOut) {
			r.pend = m.pendStore(len(c.pendOut))
		}
		r.pend = append(r.pend, c.pendOut...)
	}
	m.replayClassHits++
	return true
}

// replayClassIn keeps r's input before its replay (r qualifies).
func (m *Machine) replayClassIn(r *record, n int32) {
	c := &m.rclass
	c.ok = false
	c.src, c.q, c.level, c.atomic, c.creator = r.src, r.q, r.level, r.atomic, r.creator
	c.reach, c.stamp, c.n, c.task = r.reach, r.stamp, n, m.task
	c.pendIn = append(c.pendIn[:0], r.pend...)
}

// replayClassOut keeps r's end state (replayClassIn kept its input).
func (m *Machine) replayClassOut(r *record) {
	c := &m.rclass
	if r.stamp != c.n {
		return
	}
	c.reachOut = r.reach
	c.grantsOut = append(c.grantsOut[:0], r.grants...)
	c.pendOut = append(c.pendOut[:0], r.pend...)
	c.held = false
	c.ok = true
}

// replayClassHolds makes the bitmap of the kept range's events that hold
// the kept creator, at the first record that matches the kept input (a
// replay that no record matches pays nothing for it).
func (m *Machine) replayClassHolds() {
	c := &m.rclass
	w := int(c.n-c.stamp+63) / 64
	c.holds = slices.Grow(c.holds[:0], w)[:w]
	clear(c.holds)
	for i := c.stamp; i < c.n; i++ {
		if m.contains(m.log[i].exec, c.creator.task, c.creator.start) {
			k := i - c.stamp
			c.holds[k/64] |= 1 << (k % 64)
		}
	}
	c.held = true
}
