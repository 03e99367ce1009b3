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
var replayMemoMin int32 = 256 // a variable for the tests

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
	// ch is the chain the input is on (Machine.rchains).
	ch int32
}

// replayChain is the state that the inputs of its entries and checkpoints
// reach at log length to (one input state replayed ever further: every
// replay of a record of that input ends in the chain's next state).
type replayChain struct {
	// shared: the chain's state was given to a record by a hit (its
	// input state is more than one record's); only such chains leave
	// checkpoints (a chain of one record's replays has no other record
	// to meet at one).
	shared bool
	to     int32
	oreach int32
	og     []grant
	op     []pend
}

// Checkpoints (issue 13: tk_split_gemm's split K). The host memset's
// record of each block of C is one input state, replayed by the first
// split when its tile first checks the block (a memo hit: the chain moves
// on to that check's log length t_b); the second split's check replays
// it again, from t_b, an input state of its own per block, and each such
// replay ran over the rest of the kernel's log: blocks x events again. A
// replay's end state at log length n is, by the argument above, the
// chain's state at n; remembered as a checkpoint (its stamp n, key fields
// and exact grants and counts), a record later found in that state at
// that stamp takes the chain's latest state instead. Checkpoints are
// found by a hash of the state and compared in full.
type replayCkptKey struct {
	stamp int32
	q     Qual
	level Level
	cr    threads
	reach int32
	h     uint64
}

type replayCkpt struct {
	g    []grant
	p    []pend
	ch   int32
	next int32 // the next checkpoint with the same key, or -1
}

// replayChainsMax bounds the chains (and checkpoints) of one run: past
// it the memo starts afresh.
const replayChainsMax = 1 << 14

// replayMemoLookup returns the entry remembering r's input state, or nil.
func (m *Machine) replayMemoLookup(r *record) *replayMemoEntry {
	m.rmemoClock++
	if m.rmemo == nil {
		// Made at the first long replay: a run of short ones (a small
		// check, a bug variant stopped early) does not allocate it.
		m.rmemo = new([replayMemoSize]replayMemoEntry)
		return nil
	}
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
// r's input state, on a new chain.
func (m *Machine) replayMemoNew(r *record) *replayMemoEntry {
	s := replayMemoSet(r)
	e := &m.rmemo[s]
	if o := &m.rmemo[s+1]; !o.valid || (e.valid && o.used < e.used) {
		e = o
	}
	if len(m.rchains) >= replayChainsMax {
		m.replayMemoReset()
	}
	e.valid, e.used = true, m.rmemoClock
	e.from, e.q, e.level, e.cr, e.reach = r.stamp, r.q, r.level, r.creator, r.reach
	e.g = append(e.g[:0], r.grants...)
	e.p = append(e.p[:0], r.pend...)
	e.ch = m.newChain()
	return e
}

// replayMemoReset forgets every entry, chain and checkpoint.
func (m *Machine) replayMemoReset() {
	if m.rmemo != nil {
		for i := range m.rmemo {
			m.rmemo[i].valid = false
		}
	}
	m.rchains = m.rchains[:0]
	clear(m.rckIdx)
	m.rckpts = m.rckpts[:0]
}

// newChain starts a chain (its state is set by the replay's save).
func (m *Machine) newChain() int32 {
	if len(m.rchains) < cap(m.rchains) {
		m.rchains = m.rchains[:len(m.rchains)+1]
	} else {
		m.rchains = append(m.rchains, replayChain{})
	}
	c := &m.rchains[len(m.rchains)-1]
	c.to, c.shared = -1, false // no state yet
	return int32(len(m.rchains) - 1)
}

// replayChainSave stores r's state at log length n as chain ch's state.
func (m *Machine) replayChainSave(ch int32, r *record, n int32) {
	c := &m.rchains[ch]
	c.to, c.oreach = n, r.reach
	c.og = append(c.og[:0], r.grants...)
	c.op = append(c.op[:0], r.pend...)
}

// replayMemoLoad gives r chain ch's state (in r's own storage: grants
// from the arena as augment allocates them) and its stamp.
func (m *Machine) replayMemoLoad(r *record, ch int32) {
	c := &m.rchains[ch]
	c.shared = true
	r.reach = c.oreach
	if len(c.og) > cap(r.grants) {
		r.grants = m.grantStore(len(c.og))
	}
	r.grants = append(r.grants[:0], c.og...)
	r.pend = append(r.pend[:0], c.op...)
	r.stamp = c.to
}

// ckptKey is r's checkpoint key.
func ckptKey(r *record) replayCkptKey {
	h := uint64(14695981039346656037)
	mix := func(v uint64) { h = (h ^ v) * 1099511628211 }
	for i := range r.grants {
		g := &r.grants[i]
		mix(uint64(uint32(g.th.task)) | uint64(uint32(g.th.start))<<32)
		mix(uint64(uint32(g.th.shape)) | uint64(g.full)<<32)
		mix(uint64(g.temp))
	}
	mix(uint64(len(r.grants)))
	for _, p := range r.pend {
		mix(uint64(uint32(p.cell)) | uint64(uint32(p.count))<<32)
	}
	return replayCkptKey{stamp: r.stamp, q: r.q, level: r.level, cr: r.creator, reach: r.reach, h: h}
}

// ckptFind returns the chain of a checkpoint equal to r's state, or -1.
func (m *Machine) ckptFind(r *record) int32 {
	if len(m.rckIdx) == 0 {
		return -1
	}
	i, ok := m.rckIdx[ckptKey(r)]
	if !ok {
		return -1
	}
	for ; i >= 0; i = m.rckpts[i].next {
		c := &m.rckpts[i]
		if slices.Equal(c.g, r.grants) && slices.Equal(c.p, r.pend) {
			return c.ch
		}
	}
	return -1
}

// ckptAdd remembers r's state (just replayed to its stamp, on chain ch)
// as a checkpoint of ch.
func (m *Machine) ckptAdd(r *record, ch int32) {
	if m.rckIdx == nil {
		m.rckIdx = map[replayCkptKey]int32{}
	}
	k := ckptKey(r)
	next, ok := m.rckIdx[k]
	if !ok {
		next = -1
	}
	for i := next; i >= 0; i = m.rckpts[i].next {
		if c := &m.rckpts[i]; slices.Equal(c.g, r.grants) && slices.Equal(c.p, r.pend) {
			return // already one (of this chain: the state decides)
		}
	}
	var c *replayCkpt
	if len(m.rckpts) < cap(m.rckpts) {
		m.rckpts = m.rckpts[:len(m.rckpts)+1]
	} else {
		m.rckpts = append(m.rckpts, replayCkpt{})
	}
	c = &m.rckpts[len(m.rckpts)-1]
	c.g = append(c.g[:0], r.grants...)
	c.p = append(c.p[:0], r.pend...)
	c.ch, c.next = ch, next
	m.rckIdx[k] = int32(len(m.rckpts) - 1)
}
