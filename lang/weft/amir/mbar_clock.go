package amir

import "math/bits"

// Ordered-after clocks for the ring-buffered arrays' mbarrier checks
// (issue 13, stop 30; docs/weft-sync.md "mbarriers on hardware", rules 4
// and 6).
//
// Rule 4 at an Arrive and rule 6 at an Await ask whether threads are
// ordered after (or before) the Awaits of a mbarrier's previous phase.
// hwOrder and hwAwaitOrder answer by replaying each Await's slot record
// from the Await to now (hwUniform): the three-ring pipeline's bug
// variants spent a fifth of their check there, every record replayed over
// some 50 events. The clocks below answer the same questions from one
// pass over the log for all records together. Lower bounds show that a
// check passes (clkCheck); an upper bound shows that a part of it fails
// (clkDup), which answers a check whose failing parts were already
// reported (only counted again). When they cannot tell, the check runs as
// before (stale records, then the replay), so the verdicts and reports
// are unchanged.
//
// The facts. A slot record born at log position b by collective C stands
// for one record ρ(u, b) per thread u of C (hwOrder), and the checks are
// those of the per-thread records: t sees ρ(u, b) at temporally_ordered
// when t = u (the creator, fully_ordered) or a grant of ρ(u, b) with the
// hidden timeline q in its temp set holds t (fully_ordered: in its full
// set). Two properties of the replay (Definition B.3, as apply and
// hwUniform run it) make a summary sound:
//
//   - Replay only adds: augment adds grants, addPend adds counts or lowers
//     them (slot records are never pruned: augment's dead-task rule and
//     the count pruning skip the hidden timeline), and every event's
//     effect on a record is monotone in its grants and counts (witness:
//     the event's threads meet the creator or a grant; an Await: a count
//     at most the Await's Max). So what an event implies from part of a
//     record's state, it implies from the whole.
//   - Antitone in the birth: for two Awaits of one thread u, at b' < b,
//     whatever sees ρ(u, b) sees ρ(u, b'). At b, ρ(u, b') already has
//     u as its creator and counts no larger than ρ(u, b)'s (none), and
//     from there on every event that changes ρ(u, b) changes ρ(u, b')
//     alike (the first property).
//
// The clocks, per thread t and per awaiting collective K (a column: the
// threads of one-shot Awaits, task, start and shape): aT[t][K] is the
// latest birth b of an Await by K such that t sees ρ(u, b) for some u of
// K (temporally ordered), aF the same fully ordered, and bT the latest b
// such that t sees ρ(u, b) for every u of K (temporally ordered); -1 for
// none. By the antitone property each also holds for K's earlier Awaits.
// They start at -1 and move only by these implications, each mirroring
// one step of the replay:
//
//   - birth of an Await by K at b: every thread u of K sees ρ(u, b) as
//     its creator: aT = aF = b (bT = b when K is one thread); last[K] = b;
//   - a Fence or Arrive by E whose first timelines hold q: a record that
//     some thread of E sees is witnessed (the creator or a grant with q in
//     its temp set meets E, for a transitive event too: q is in pre).
//     J_A[K] = max over t in E of aT[t][K]: some ρ(u, J_A) is witnessed;
//     J_B[K] = max of bT[t][K], and last[K] when E contains K (every
//     ρ(u, last) is witnessed by its creator): every ρ(u, J_B) is. A
//     Fence grants E: t in E gets aT, bT at least J_A, J_B when q is in
//     its temp set, aF at least J_A when in its full set. An Arrive adds
//     its cells' counts to those records: the cell keeps (count, J_A,
//     J_B);
//   - an Await by E on cell c with Max: the records holding a count of c
//     at most Max are granted E: P_A, P_B = the join of c's entries with
//     count <= Max; then as a Fence with J = P.
//
// Events of another task (or of the host) are skipped: skipping an event
// only loses implications. Threads that every event so far has treated
// alike share one row (an atom; rows split when an event meets part of an
// atom), so an event costs its thread count in lookups and its atoms'
// rows in updates.
//
// The upper bound uA and the checks it fails are at clkDup.
//
// The checks, for records ρ(·, b_r) of collectives K_r (the phase's
// Await records): rule 4 (a) passes when every atom of the arriving
// threads has aT[K_r] >= b_r for some record r; (b) when for every record
// r, K_r is within the arriving threads or some of their atoms has bT[K_r]
// >= b_r; rule 6 when every atom of the awaiting threads has aF[K_r] >=
// b_r for some r. Tests: TestHWClockMatchesReplayed, TestHWClockRingsRandom
// (the outputs with and without the clocks).

// hwClock is the machine's ordered-after clocks (see above) for one task
// of one run.
type hwClock struct {
	run  uint64 // Machine.runs of the state (0: none)
	task int32  // the task whose threads and records it is of
	off  bool   // too many columns or atoms, or failing checks: no claims this task
	// armed: an Arrive's check ran by the replay (clkArm).
	armed bool
	// upOff: a host event was folded; the upper bounds (uA) do not hold.
	upOff bool
	// failing: a run of this machine turned the clocks off for failing
	// checks; its later runs (the same program at other sizes, or again)
	// start with them off.
	failing bool
	// passed, failed: the Arrives' checks the clocks passed and could
	// not (clkAnswer).
	passed, failed int
	start          int32 // the first birth registered
	pos            int32 // log events [start, pos) folded
	// births registered and not yet folded, from bi on.
	births []hwBirth
	bi     int
	cols   []threads // the columns K
	last   []int32   // by column: its latest birth
	stride int       // row length of each of an atom's rows in clk
	atomOf []int32   // by thread: its atom (0: not yet named by an event)
	size   []int32   // by atom: its threads (atom 0: every other thread)
	// splitGen: by atom, the split (gen counts them) it was last split or
	// made by.
	splitGen []int32
	gen      int32
	clk      []int32 // by atom: its hwClkRows rows, stride values each
	// cell entries: cellHead[id] is 1 + the last entry of queue id (0
	// none); an entry's values are J_A, J_B, J_U (hwClkEnt) at off in
	// vals, chunks of hwClkChunk (off is chunk<<hwClkChunkBits | index: a
	// chunk is never grown, so no entry moves and no chunk is copied);
	// valsAt: the chunk being filled, its first valsLen values taken.
	cellHead  []int32
	ents      []hwClkEnt
	vals      [][]int32
	valsAt    int
	valsLen   int
	memo      [1 << hwClkMemoBits]hwClkMemo
	memoOld   [1 << (hwClkMemoBits - 1)]uint8 // by pair of memo slots: the one to fill next when both are taken
	memoAtoms []int32
	// seenKeys, seenIdx: clkDup's cache of m.seen (seenIndex), seenN
	// entries, seenNext the one to replace next once full.
	seenKeys [8][2]int
	seenIdx  [8]int
	seenN    int
	seenNext uint8
	// unseenKeys: keys seenIndex found missing from m.seen while it held
	// unseenLen keys, unseenN of them (m.seen only grows within a run:
	// they are asked again once it has grown).
	unseenKeys         [4][2]int
	unseenN, unseenLen int
	// colMemo caches clkCol by clkHash: 1 + a column that may hold the
	// thread set (checked against cols; 0 none).
	colMemo [1 << hwClkMemoBits]int8
	// scratch
	atoms, cnt, remap, split []int32
	// clk0: room for the first rows (clkCol at stride 0), or nil
	// (mbar_clkroom.go).
	clk0       []int32
	ja, jb, ju [hwClkMaxCols]int32
	// rd: the repeated rounds (mbar_round.go); evOff: the entry values
	// of the Arrive clkEvent folded last (-1: none), for rd.
	rd    clkRounds
	sk    roundSkip // the whole rounds skipped (round_skip.go)
	evOff int32
}

type hwBirth struct {
	b  int32
	gs threads
}

// valsReserve returns n values' room for a cell entry (hwClkEnt.off) and
// the room itself.
func (c *hwClock) valsReserve(n int) (int32, []int32) {
	k := c.valsLen
	if k+n > hwClkChunk || len(c.vals) == 0 {
		if len(c.vals) > 0 {
			c.valsAt++
		}
		if c.valsAt == len(c.vals) {
			c.vals = append(c.vals, make([]int32, hwClkChunk))
		}
		k = 0
	}
	c.valsLen = k + n
	return int32(c.valsAt<<hwClkChunkBits | k), c.vals[c.valsAt][k : k+n]
}

// valsUnreserve gives back the room of the last valsReserve(n).
func (c *hwClock) valsUnreserve(n int) {
	c.valsLen -= n
}

const (
	hwClkChunkBits = 10
	hwClkChunk     = 1 << hwClkChunkBits // values a chunk (4 KB)
)

// hwClkMemo caches a thread set's atoms (clkAtoms): valid in its run
// while none of them has been split since.
type hwClkMemo struct {
	th          threads
	gen, off, n int32 // hwClock.gen when made; its atoms: inl[:n] when n <= len(inl), else memoAtoms[off:off+n]
	inl         [3]int32
	run         uint64
	exact       bool
	// sub: the columns within th, a bit each, when there were subN.
	sub  uint64
	subN int32
}

const hwClkMemoBits = 5 // 32 thread sets (a three-ring pipeline has 8)

// hwClkEnt is a cell entry: count, the previous entry of the cell (prev),
// and its values J_A, J_B, J_U, n columns each, at off, w apart; each
// value >= 0 there is earlier by sh than the entry's, but in the columns
// of fz (sh != 0: an entry of a repeated round shares its template's
// values, mbar_round.go).
type hwClkEnt struct {
	count, prev, off, n, w, sh int32
	fz                         uint64
}

// Limits past which a task's clocks make no claims (the checks replay).
const (
	hwClkMaxCols  = 64
	hwClkMaxAtoms = 1024
	// hwClkRows: an atom's rows, stride values each: aT, bT, uA, aF
	// (rowAT...). aT, bT, uA are adjacent: an Arrive's cell entry is
	// the three of one atom, copied at once (stop 32).
	hwClkRows = 4
)

// An atom's rows (hwClkRows).
const (
	rowAT = iota
	rowBT
	rowUA
	rowAF
)

// hwNoClock, set only by a test, turns the clocks off; hwClockHit, set
// only by a test, counts the checks they answered (clkAnswer).
var (
	hwNoClock  bool
	hwClockHit func()
)

// clkBirth registers the Await record born at log position b by gs.
func (m *Machine) clkBirth(b int32, gs threads) {
	if hwNoClock || gs.task == allTasks {
		return
	}
	if m.hwClk == nil {
		m.hwClk = newHWClock() // a program with ring-buffered arrays only
	}
	c := m.hwClk
	if c.run != m.runs || c.task != gs.task {
		c.reset(m.runs, gs.task, b)
	}
	if c.off {
		return
	}
	if c.births == nil {
		c.births = make([]hwBirth, 0, 64)
	}
	c.births = append(c.births, hwBirth{b: b, gs: gs})
}

func (c *hwClock) reset(run uint64, task, start int32) {
	c.run, c.task, c.off, c.start, c.pos = run, task, c.failing, start, start
	c.passed, c.failed, c.armed, c.upOff = 0, 0, false, false
	c.births, c.bi = c.births[:0], 0
	c.cols, c.last = c.cols[:0], c.last[:0]
	c.stride = 0
	clear(c.atomOf[:cap(c.atomOf)])
	c.atomOf = c.atomOf[:0]
	c.size = append(c.size[:0], 0)
	c.splitGen, c.gen = append(c.splitGen[:0], 0), 0
	c.clk = c.clk[:0]
	c.cellHead = c.cellHead[:0]
	c.ents = c.ents[:0]
	c.valsAt, c.valsLen = 0, 0
	c.memoAtoms = c.memoAtoms[:0]
	c.memo = [1 << hwClkMemoBits]hwClkMemo{}
	c.memoOld = [1 << (hwClkMemoBits - 1)]uint8{}
	c.seenN, c.seenNext = 0, 0
	c.unseenN, c.unseenLen = 0, 0
	c.rd.loop, c.rd.inner, c.rd.rec, c.rd.virt = nil, c.rd.inner[:0], false, false
}

// clkReady folds the log to now and reports whether the clocks can answer
// for records of gs's task.
func (m *Machine) clkReady(gs threads) bool {
	c := m.hwClk
	if hwNoClock || c == nil || c.run != m.runs || c.task != gs.task || c.off {
		return false
	}
	n := int32(len(m.log))
	if c.rd.virt {
		// A repeated round (mbar_round.go): verified, not folded.
		if m.clkVirtTo(n) {
			return true
		}
		m.clkMaterialize()
	}
	rec := c.rd.rec
	for i := c.pos; i < n && !c.off; i++ {
		if c.bi < len(c.births) && c.births[c.bi].b <= i {
			m.clkBirths(i)
		}
		e := &m.log[i]
		if !rec {
			m.clkEvent(e)
			continue
		}
		// Recorded for the round's repeats: an Await's entries so
		// far, an Arrive's entry values.
		c.evOff = -1
		if e.kind == KAwait {
			c.evOff = int32(len(c.ents))
		}
		m.clkEvent(e)
		c.rd.ev = append(c.rd.ev, c.evOff)
	}
	m.clkBirths(n)
	c.pos = n
	return !c.off
}

// clkBirths folds the births at or before log position i.
func (m *Machine) clkBirths(i int32) {
	c := m.hwClk
	for c.bi < len(c.births) && c.births[c.bi].b <= i && !c.off {
		bt := c.births[c.bi]
		c.bi++
		k := m.clkCol(bt.gs, true)
		if k < 0 {
			return
		}
		c.last[k] = bt.b
		if c.rd.rec && bt.b >= c.rd.start {
			c.rd.births = append(c.rd.births, hwBirth{b: bt.b - c.rd.start, gs: bt.gs})
		}
		one := len(m.shapes[bt.gs.shape]) == 1
		atoms, _ := m.clkAtoms(bt.gs, true)
		for _, a := range atoms {
			row := c.clk[int(a)*hwClkRows*c.stride:]
			row[rowAT*c.stride+k] = max(row[rowAT*c.stride+k], bt.b)
			row[rowAF*c.stride+k] = max(row[rowAF*c.stride+k], bt.b)
			row[rowUA*c.stride+k] = max(row[rowUA*c.stride+k], bt.b)
			if one {
				row[rowBT*c.stride+k] = max(row[rowBT*c.stride+k], bt.b)
			}
		}
	}
	if c.bi == len(c.births) {
		c.births, c.bi = c.births[:0], 0
	}
}

// clkCol returns gs's column (-1 when there is none, or too many).
func (m *Machine) clkCol(gs threads, add bool) int {
	c := m.hwClk
	h := clkHash(gs)
	if k := int(c.colMemo[h]) - 1; k >= 0 && k < len(c.cols) && c.cols[k] == gs {
		return k
	}
	for k, g := range c.cols {
		if g == gs {
			c.colMemo[h] = int8(k + 1)
			return k
		}
	}
	if !add {
		return -1
	}
	if len(c.cols) == hwClkMaxCols {
		c.off = true
		return -1
	}
	c.cols = append(c.cols, gs)
	c.last = append(c.last, -1)
	c.colMemo[h] = int8(len(c.cols))
	if len(c.cols) > c.stride {
		// Widen every atom's rows (new columns -1).
		ns := max(2*c.stride, 8)
		na := len(c.size)
		// Room for 16 atoms at once (a pipeline's warps and threads;
		// append grew it 128 bytes an atom).
		var nc []int32
		if c.stride == 0 && na*hwClkRows*ns <= len(c.clk0) {
			// The room's (mbar_clkroom.go): at stride 0 the rows
			// are empty, and c.clk is the only holder of the
			// room's rows, so nothing reads them after this.
			nc = c.clk0[:na*hwClkRows*ns]
		} else {
			nc = make([]int32, na*hwClkRows*ns, max(na, 16)*hwClkRows*ns)
		}
		for i := range nc {
			nc[i] = -1
		}
		for a := 0; a < na; a++ {
			for j := 0; j < hwClkRows; j++ {
				copy(nc[(a*hwClkRows+j)*ns:], c.clk[(a*hwClkRows+j)*c.stride:(a*hwClkRows+j+1)*c.stride])
			}
		}
		c.clk, c.stride = nc, ns
	}
	return len(c.cols) - 1
}

// clkAtoms returns the atoms holding the threads of e, and whether each
// holds threads of e only; with split it does (an atom e meets in part is
// split, its part in e a new atom with a copy of its rows).
//
// The atoms of a thread set stay the same until one of them is split:
// they are cached by thread set (hwClkMemo) for as long as none is
// (splitGen), so that an event costs its thread count only when it, or
// an event before it, splits one of its atoms. The slice returned may be
// the cache entry's own (a few atoms are kept in it): valid until the
// next clkAtoms.
func (m *Machine) clkAtoms(e threads, split bool) ([]int32, bool) {
	c := m.hwClk
	me := c.memoFind(e)
	if me != nil && (me.exact || !split) {
		var as []int32
		if me.n <= int32(len(me.inl)) {
			as = me.inl[:me.n:me.n]
		} else {
			as = c.memoAtoms[me.off : me.off+me.n]
		}
		if me.gen == c.gen {
			return as, me.exact // no atom split since
		}
		ok := true
		for _, a := range as {
			if c.splitGen[a] > me.gen {
				ok = false
				break
			}
		}
		if ok {
			me.gen = c.gen // none split up to now: the fast test above next time
			return as, me.exact
		}
	}
	as, exact := m.clkAtomsScan(e, split)
	if !c.off {
		if me == nil {
			me = c.memoVictim(e)
		}
		*me = hwClkMemo{th: e, gen: c.gen, run: c.run, exact: exact, n: int32(len(as)), subN: -1}
		if len(as) <= len(me.inl) {
			copy(me.inl[:], as)
		} else {
			me.off = int32(len(c.memoAtoms))
			c.memoAtoms = append(c.memoAtoms, as...)
		}
	}
	return as, exact
}

func clkHash(e threads) uint32 {
	return (uint32(e.start)*0x9e3779b1 ^ uint32(e.shape)*0x85ebca77) >> (32 - hwClkMemoBits)
}

// memoFind returns e's cache entry of this run, nil when there is none.
// The cache is two-way: e's entry is at clkHash(e) or its pair slot
// (stop 32: on the three-ring pipeline's wrong_thread_pitch variant two of
// its eight thread sets share a slot and evicted each other at every
// event, 48 rescans of some 800 instructions a check).
func (c *hwClock) memoFind(e threads) *hwClkMemo {
	h := clkHash(e)
	if me := &c.memo[h]; me.th == e && me.run == c.run {
		return me
	}
	if me := &c.memo[h^1]; me.th == e && me.run == c.run {
		return me
	}
	return nil
}

// memoVictim returns the entry to overwrite with e's (which has none):
// a slot of the pair free in this run, else the one filled less recently.
func (c *hwClock) memoVictim(e threads) *hwClkMemo {
	h := clkHash(e)
	k := h
	switch {
	case c.memo[h].run != c.run:
	case c.memo[h^1].run != c.run:
		k = h ^ 1
	default:
		k = h&^1 | uint32(c.memoOld[h>>1])
	}
	c.memoOld[h>>1] = uint8(k&1) ^ 1
	return &c.memo[k]
}

// clkSub returns the columns within e, a bit each.
func (m *Machine) clkSub(e threads) uint64 {
	c := m.hwClk
	me := c.memoFind(e)
	n := int32(len(c.cols))
	if me != nil && me.subN == n {
		return me.sub
	}
	var sub uint64
	for k, g := range c.cols {
		if m.subset(g, e) {
			sub |= 1 << k
		}
	}
	if me != nil {
		me.sub, me.subN = sub, n
	}
	return sub
}

// clkAtomsScan is clkAtoms without the cache; exact reports that each
// atom returned holds threads of e only.
func (m *Machine) clkAtomsScan(e threads, split bool) (_ []int32, exact bool) {
	c := m.hwClk
	offs := m.shapes[e.shape]
	c.atoms = c.atoms[:0]
	if top := int(e.start) + int(offs[len(offs)-1]) + 1; top > len(c.atomOf) {
		if !split {
			// Threads no event named are in atom 0.
			for _, o := range offs {
				a := int32(0)
				if t := int(e.start + o); t < len(c.atomOf) {
					a = c.atomOf[t]
				}
				c.atoms = appendAtom(c.atoms, a)
			}
			return c.atoms, false
		}
		if top > cap(c.atomOf) {
			na := make([]int32, len(c.atomOf), max(top, 2*cap(c.atomOf), 256))
			copy(na, c.atomOf)
			c.atomOf = na
		}
		// New entries are 0: made so, or cleared by reset.
		c.atomOf = c.atomOf[:top]
	}
	for len(c.cnt) < len(c.size) {
		c.cnt = append(c.cnt, 0)
		c.remap = append(c.remap, 0)
	}
	for _, o := range offs {
		a := c.atomOf[e.start+o]
		if c.cnt[a] == 0 {
			c.atoms = append(c.atoms, a)
		}
		c.cnt[a]++
	}
	c.split = c.split[:0]
	exact = true
	for i, a := range c.atoms {
		n := c.cnt[a]
		c.cnt[a] = 0
		if a != 0 && n == c.size[a] {
			continue
		}
		if !split {
			exact = false
			continue
		}
		if len(c.size) >= hwClkMaxAtoms {
			c.off = true
			continue
		}
		na := int32(len(c.size))
		c.size = append(c.size, n)
		c.gen++
		c.splitGen[a] = c.gen
		c.splitGen = append(c.splitGen, c.gen)
		if a != 0 {
			c.size[a] -= n
		}
		w := hwClkRows * c.stride
		c.clk = append(c.clk, c.clk[int(a)*w:int(a+1)*w]...)
		c.remap[a] = na
		c.split = append(c.split, a)
		c.atoms[i] = na
	}
	if len(c.split) > 0 {
		for _, o := range offs {
			t := e.start + o
			if na := c.remap[c.atomOf[t]]; na != 0 {
				c.atomOf[t] = na
			}
		}
		for _, a := range c.split {
			c.remap[a] = 0
		}
	}
	return c.atoms, exact && !c.off
}

func appendAtom(as []int32, a int32) []int32 {
	for _, x := range as {
		if x == a {
			return as
		}
	}
	return append(as, a)
}

// clkJoinInto sets v's three parts of stride values (J_A, J_B, J_U: the
// columns below len(cols) of each) to the join of the atoms' aT, bT and
// uA rows. One atom's three rows are adjacent: one copy.
func (c *hwClock) clkJoinInto(atoms []int32, v []int32) {
	n, st := len(c.cols), c.stride
	if len(atoms) == 1 {
		base := int(atoms[0]) * hwClkRows * st
		copy(v[:3*st], c.clk[base+rowAT*st:])
		return
	}
	ja, jb, ju := v[:n], v[st:][:n], v[2*st:][:n]
	copy(ja, hwClkNeg[:n])
	copy(jb, hwClkNeg[:n])
	copy(ju, hwClkNeg[:n])
	for _, a := range atoms {
		base := int(a) * hwClkRows * st
		rt := c.clk[base+rowAT*st:][:n]
		rb := c.clk[base+rowBT*st:][:n]
		ru := c.clk[base+rowUA*st:][:n]
		for k := range ja {
			ja[k] = max(ja[k], rt[k])
			jb[k] = max(jb[k], rb[k])
			ju[k] = max(ju[k], ru[k])
		}
	}
}

// hwClkNeg is a row of -1 (no claim).
var hwClkNeg = func() (r [hwClkMaxCols]int32) {
	for i := range r {
		r[i] = -1
	}
	return r
}()

// clkGrant raises the rows of atoms (an event's, each within it:
// clkAtoms with split) to ja, jb, ju (see hwClock): aT and bT when temp
// holds q, aF when full does, uA always (an upper bound: a grant of any
// timelines can witness a later transitive event).
func (c *hwClock) clkGrant(atoms []int32, temp, full bool) {
	n := len(c.cols)
	c.clkGrantFrom(atoms, c.ja[:n], c.jb[:n], c.ju[:n], temp, full)
}

// clkGrantFrom is clkGrant from ja, jb, ju given (the first len(ja)
// columns; the others stay).
func (c *hwClock) clkGrantFrom(atoms []int32, ja, jb, ju []int32, temp, full bool) {
	n, st := len(ja), c.stride
	jb, ju = jb[:n], ju[:n]
	w := hwClkRows * st
	for _, a := range atoms {
		r := c.clk[int(a)*w:][:w]
		if temp && full {
			// An Await or Fence in order (both sets hold q): the four
			// rows in one pass.
			rt, rb, ru, rf := r[rowAT*st:][:n], r[rowBT*st:][:n], r[rowUA*st:][:n], r[rowAF*st:][:n]
			for k, x := range ja {
				rt[k] = max(rt[k], x)
				rf[k] = max(rf[k], x)
				rb[k] = max(rb[k], jb[k])
				ru[k] = max(ru[k], ju[k])
			}
			continue
		}
		if temp {
			rt, rb := r[rowAT*st:][:n], r[rowBT*st:][:n]
			for k, x := range ja {
				rt[k] = max(rt[k], x)
				rb[k] = max(rb[k], jb[k])
			}
		}
		if full {
			rf := r[rowAF*st:][:n]
			for k, x := range ja {
				rf[k] = max(rf[k], x)
			}
		}
		ru := r[rowUA*st:][:n]
		for k, x := range ju {
			ru[k] = max(ru[k], x)
		}
	}
}

// clkEvent folds event e into the clocks (see hwClock).
func (m *Machine) clkEvent(e *event) {
	c := m.hwClk
	if e.exec.task == allTasks {
		// A host event can witness every record (and give it grants
		// that reach every task): the upper bounds no longer hold.
		c.upOff = true
		return
	}
	if e.exec.task != c.task || len(c.cols) == 0 {
		return // another task's (the replay skips it too), or nothing to carry yet
	}
	q := m.p.MbarQual
	n := len(c.cols)
	ja, jb, ju := c.ja[:n], c.jb[:n], c.ju[:n]
	switch e.kind {
	case KFence, KArrive:
		// Split at once: the grant below uses e's atoms, each within e.
		atoms, _ := m.clkAtoms(e.exec, true)
		if c.off {
			return // no claims this task (clkReady stops)
		}
		// The join goes straight into a cell entry's room (an Arrive's
		// entry holds it as it stands below; a Fence's room is given
		// back after its grant).
		st := c.stride
		off, v := c.valsReserve(3 * st)
		c.clkJoinInto(atoms, v)
		ja, jb, ju := v[:n], v[st:][:n], v[2*st:][:n]
		if !e.pre.Has(q) {
			// Witnesses no record through q (lower bounds: a
			// transitive event through another timeline is not
			// followed); the upper bounds assume it witnesses all
			// that its threads may see.
			copy(ja, hwClkNeg[:n])
			copy(jb, hwClkNeg[:n])
		} else {
			// Every record of the last Await of a column within e, by
			// its creator.
			for sub := m.clkSub(e.exec); sub != 0; sub &= sub - 1 {
				k := bits.TrailingZeros64(sub)
				jb[k] = max(jb[k], c.last[k])
			}
		}
		some := false
		for _, x := range ju {
			if x >= 0 {
				some = true
				break
			}
		}
		if !some || e.kind == KFence {
			if some {
				c.clkGrantFrom(atoms, ja, jb, ju, e.temp.Has(q), e.full.Has(q))
			} // else (ja, jb <= ju): nothing to carry
			c.valsUnreserve(3 * st)
			return
		}
		// The cells share the entry's values (never written once made).
		c.evOff = off
		for _, p := range m.evCells[e.c0 : e.c0+e.cn] {
			if p.cell >= 0 {
				c.addEnt(p, hwClkEnt{count: p.count, off: off, n: int32(n), w: int32(st)}, len(m.bars))
			}
		}
	case KAwait:
		p := m.evCells[e.c0]
		if p.cell < 0 || int(p.cell) >= len(c.cellHead) || c.cellHead[p.cell] == 0 {
			return
		}
		// The entries of the cell with a count <= Max: one (a one-shot
		// barrier's cell is arrived once) is granted from directly,
		// more are joined first.
		var first *hwClkEnt
		joined := false
		for i := c.cellHead[p.cell]; i != 0; i = c.ents[i-1].prev {
			en := &c.ents[i-1]
			if en.count > p.count {
				continue
			}
			if first == nil {
				first = en
				continue
			}
			if !joined {
				joined = true
				copy(ja, hwClkNeg[:n])
				copy(jb, hwClkNeg[:n])
				copy(ju, hwClkNeg[:n])
				c.entJoin(first)
			}
			c.entJoin(en)
		}
		if first == nil {
			return
		}
		atoms, _ := m.clkAtoms(e.exec, true)
		if c.off {
			return
		}
		if joined {
			c.clkGrant(atoms, e.temp.Has(q), e.full.Has(q))
			return
		}
		va, vb, vu := c.entVals(first)
		if first.sh != 0 {
			// A repeated round's entry: its values, shifted.
			va, vb, vu = shiftInto(c.ja[:len(va)], va, first), shiftInto(c.jb[:len(va)], vb, first), shiftInto(c.ju[:len(va)], vu, first)
		}
		c.clkGrantFrom(atoms, va, vb, vu, e.temp.Has(q), e.full.Has(q))
	}
}

// addEnt records an Arrive's entry en (its count, values) on cell p; nq
// is the queues so far (the heads' size).
func (c *hwClock) addEnt(p pend, en hwClkEnt, nq int) {
	if int(p.cell) >= len(c.cellHead) {
		// Sized to the queues so far at once (one allocation).
		nh := max(int(p.cell)+1, nq)
		if nh > cap(c.cellHead) {
			c.cellHead = append(c.cellHead[:cap(c.cellHead)], make([]int32, nh-cap(c.cellHead))...)
		}
		k := len(c.cellHead)
		c.cellHead = c.cellHead[:nh]
		clear(c.cellHead[k:])
	}
	if c.ents == nil {
		// One entry a queue arrived once (the one-shot cells) at once.
		c.ents = make([]hwClkEnt, 0, max(nq, 16))
	}
	en.prev = c.cellHead[p.cell]
	c.ents = append(c.ents, en)
	c.cellHead[p.cell] = int32(len(c.ents))
}

// entVals returns cell entry en's values J_A, J_B, J_U (en.n columns each).
func (c *hwClock) entVals(en *hwClkEnt) (va, vb, vu []int32) {
	v := c.vals[en.off>>hwClkChunkBits][en.off&(hwClkChunk-1):]
	return v[:en.n], v[en.w:][:en.n], v[2*en.w:][:en.n]
}

// entJoin joins cell entry en's values into ja, jb, ju.
func (c *hwClock) entJoin(en *hwClkEnt) {
	va, vb, vu := c.entVals(en)
	ja, jb, ju := c.ja[:len(va)], c.jb[:len(va)], c.ju[:len(va)]
	if sh, fz := en.sh, en.fz; sh != 0 {
		// A repeated round's entry (mbar_round.go): -1 stays.
		for k := range va {
			ja[k] = max(ja[k], shiftAt(va[k], sh, fz, k))
			jb[k] = max(jb[k], shiftAt(vb[k], sh, fz, k))
			ju[k] = max(ju[k], shiftAt(vu[k], sh, fz, k))
		}
		return
	}
	for k := range va {
		ja[k] = max(ja[k], va[k])
		jb[k] = max(jb[k], vb[k])
		ju[k] = max(ju[k], vu[k])
	}
}

// clkAnswer answers the check of gs against recs (the Await records of
// the mbarrier's previous phase: rule 4 (a) and (b) for an Arrive, rule 6
// for an Await) from the clocks when they can: clkCheck shows that it
// passes, or clkDup that its failing parts were already reported (only
// counted again). False means only that they cannot tell. The two share
// the fold and the records' columns (stop 32: on the bug variants every
// Arrive check that clkCheck could not pass folded and looked them up
// again in clkDup).
func (m *Machine) clkAnswer(s *Stmt, recs []hwRec, gs threads, await bool) bool {
	ans := m.clkAnswer1(s, recs, gs, await)
	if hwClockTrace != nil {
		hwClockTrace(s.Src, await, ans)
	}
	return ans
}

func (m *Machine) clkAnswer1(s *Stmt, recs []hwRec, gs threads, await bool) bool {
	c := m.hwClk
	if len(recs) == 0 || c == nil || !c.armed || !m.clkReady(gs) {
		// The clocks start answering once an Arrive's check has run
		// by the replay (clkArm).
		return false
	}
	ks, bs, ok := m.clkRecCols(recs)
	if !ok {
		return false
	}
	if c.rd.virt {
		// A repeated round (mbar_round.go): the template's answer.
		if ans, ok := m.clkVirtAnswer(s, &ks, &bs, recs, gs, await); ok {
			return ans
		}
		m.clkMaterialize()
		if !m.clkReady(gs) {
			return false
		}
	}
	if m.clkCheck(&ks, &bs, recs, gs, await) {
		if c.rd.rec {
			m.clkRecord(s, &ks, &bs, recs, gs, await, clkResPass, nil)
		}
		if !await {
			c.passed++
		}
		if hwClockHit != nil {
			hwClockHit()
		}
		return true
	}
	return m.clkDup(s, &ks, &bs, recs, gs, await)
}

// clkUndecided notes an Arrive's check that clkAnswer did not answer: a task whose checks the clocks keep leaving to the replay
// stops folding the log (they would cost without answering).
func (m *Machine) clkUndecided() {
	if c := m.hwClk; c != nil && c.run == m.runs && !c.off {
		if c.failed++; c.failed > 2*c.passed+4 {
			c.off, c.failing = true, true
		}
	}
}

// clkDup answers a check clkCheck did not pass when the clocks show which
// of its parts fail and each failing part's hazard is one already
// reported: it counts them as phaseHazard does for a hazard seen before
// (admit) and reports true; the replay would only find them again. A part
// passes when the lower bounds (aT, aF, bT) show it passes; it fails when
// the upper bound uA shows it: uA[t][K] is at least the latest birth b of
// an Await by K such that t may see ρ(u, b) for some u of K in any way
// (as creator, or in a grant of any level or timelines), folded as the
// lower bounds are but assuming every Fence or Arrive witnesses what its
// threads may see and every grant makes a record visible; a host event
// turns it off (upOff). So (b) fails for the first record r (the replay
// reports the first failing record) when K_r is not within gs and no
// atom of gs has uA[K_r] >= b_r (a thread of K_r outside gs is then
// ordered before no thread of gs), and (a) or rule 6 fails when some atom
// of gs has uA[K_r] < b_r for every record r; the replay reports either
// with the first record as the other side (hwOrder, hwAwaitOrder).
//
// ks, bs: the records' columns and births (clkRecCols), the clocks folded
// to now (clkAnswer).
func (m *Machine) clkDup(s *Stmt, ks, bs *[clkMaxRecs]int32, recs []hwRec, gs threads, await bool) bool {
	keys, nk := m.clkDupKeys(s, ks, bs, recs, gs, await)
	if m.hwClk.rd.rec {
		res := clkResNone
		if nk > 0 {
			res = clkResKeys
		}
		m.clkRecord(s, ks, bs, recs, gs, await, res, keys[:nk])
	}
	return nk > 0 && m.clkCount(keys[:nk])
}

// clkDupKeys returns the keys of the hazards the clocks show the check
// fails (clkDup), none when they cannot show it.
func (m *Machine) clkDupKeys(s *Stmt, ks, bs *[clkMaxRecs]int32, recs []hwRec, gs threads, await bool) (keys [2][2]int, nk int) {
	c := m.hwClk
	if c.upOff {
		return keys, 0
	}
	atoms, _ := m.clkAtoms(gs, true)
	if c.off {
		return keys, 0
	}
	w := hwClkRows * c.stride
	r0 := m.rec(recs[0].rec)
	key := func(sub PhaseKind) [2]int {
		return [2]int{s.Src, -(2 << 40) - int(sub)<<32 - int(r0.src)}
	}
	if !await {
		pass := true
		for i, h := range recs {
			if m.subset(m.rec(h.rec).creator, gs) {
				continue
			}
			ok := false
			for _, a := range atoms {
				if c.clk[int(a)*w+rowBT*c.stride+int(ks[i])] >= bs[i] {
					ok = true
					break
				}
			}
			if !ok {
				pass = false
				break
			}
		}
		if !pass {
			if m.subset(r0.creator, gs) {
				return keys, 0
			}
			for _, a := range atoms {
				if c.clk[int(a)*w+rowUA*c.stride+int(ks[0])] >= bs[0] {
					return keys, 0 // (b) may pass for the first record
				}
			}
			keys[nk] = key(PhaseAhead)
			nk++
		}
	}
	lvl := rowAT
	sub := PhaseEarly
	if await {
		lvl, sub = rowAF, PhaseStale
	}
	pass := true
	for _, a := range atoms {
		ok := false
		for i := range recs {
			if c.clk[int(a)*w+lvl*c.stride+int(ks[i])] >= bs[i] {
				ok = true
				break
			}
		}
		if !ok {
			pass = false
			break
		}
	}
	if !pass {
		fails := false
		for _, a := range atoms {
			seen := false
			for i := range recs {
				if c.clk[int(a)*w+rowUA*c.stride+int(ks[i])] >= bs[i] {
					seen = true
					break
				}
			}
			if !seen {
				fails = true
				break
			}
		}
		if !fails {
			return keys, 0
		}
		keys[nk] = key(sub)
		nk++
	}
	return keys, nk
}

// clkCount counts the hazards of keys when each was seen before (as
// phaseHazard does for a hazard seen before: admit) and reports true;
// false when one is a first occurrence (the replay describes it).
func (m *Machine) clkCount(keys [][2]int) bool {
	idx, ok := m.clkSeen(keys)
	if ok {
		m.clkAdmit(idx[:len(keys)])
	}
	return ok
}

// clkSeen returns the keys' indexes in m.seen, ok false when one is not
// there (its first occurrence: the replay describes it).
func (m *Machine) clkSeen(keys [][2]int) (idx [2]int, ok bool) {
	c := m.hwClk
	for j, k := range keys {
		i, seen := c.seenIndex(m, k)
		if !seen {
			return idx, false
		}
		idx[j] = i
	}
	return idx, true
}

// clkAdmit counts another occurrence of the hazards at idx (clkCount).
func (m *Machine) clkAdmit(idx []int) {
	if !m.hwOnly {
		for _, i := range idx {
			m.admitSeen(i)
		}
	}
	if hwClockHit != nil {
		hwClockHit()
	}
}

// seenIndex is m.seen[k] (Machine.admit's hazard index, or -1), through
// a small cache of the keys clkDup found there: a key's entry never
// changes once made, and a bug variant of the three-ring pipeline counts
// one to three keys some 110 times a run (stop 32: the map lookups were
// a third of clkDup).
func (c *hwClock) seenIndex(m *Machine, k [2]int) (int, bool) {
	for i := range c.seenN {
		if c.seenKeys[i] == k {
			return c.seenIdx[i], true
		}
	}
	// A key not there at the last look, m.seen no larger since (stop
	// 35: a key the replay reports under another one is asked at every
	// repeat of its check, a map lookup each).
	if n := len(m.seen); n == c.unseenLen {
		for _, x := range c.unseenKeys[:c.unseenN] {
			if x == k {
				return -1, false
			}
		}
	} else {
		c.unseenN, c.unseenLen = 0, n
	}
	i, ok := m.seen[k]
	if !ok && c.unseenN < len(c.unseenKeys) {
		c.unseenKeys[c.unseenN] = k
		c.unseenN++
	}
	if ok {
		j := c.seenN
		if j == len(c.seenKeys) {
			j = int(c.seenNext)
			c.seenNext = (c.seenNext + 1) % uint8(len(c.seenKeys))
		} else {
			c.seenN++
		}
		c.seenKeys[j], c.seenIdx[j] = k, i
	}
	return i, ok
}

// clkArm lets the clocks answer from now on: an Arrive's check of the
// task ran by the replay (a program without a slot reuse to check, or
// whose first one the replay answered, never folds the log).
func (m *Machine) clkArm() {
	if c := m.hwClk; c != nil && c.run == m.runs {
		c.armed = true
	}
}

// clkMaxRecs bounds the records clkDup and clkCheck decide: more go to
// the replay.
const clkMaxRecs = 16

// clkRecCols gives each record's clock column and birth, or ok false when
// some record is not one the clocks track (a template record, one born
// before the clocks started or of another task, or a creator without a
// column), or there are more than clkMaxRecs of them.
func (m *Machine) clkRecCols(recs []hwRec) (ks, bs [clkMaxRecs]int32, ok bool) {
	c := m.hwClk
	if len(recs) > clkMaxRecs {
		return ks, bs, false
	}
	for i, h := range recs {
		r := m.rec(h.rec)
		if h.tmpl >= 0 || h.born < c.start || r.creator.task != c.task {
			return ks, bs, false
		}
		k := m.clkCol(r.creator, false)
		if k < 0 {
			return ks, bs, false
		}
		ks[i], bs[i] = int32(k), h.born
	}
	return ks, bs, true
}

// clkCheck reports that the folded clocks show the check passes (see
// hwClock); ks, bs as clkDup's.
func (m *Machine) clkCheck(ks, bs *[clkMaxRecs]int32, recs []hwRec, gs threads, await bool) bool {
	c := m.hwClk
	atoms, _ := m.clkAtoms(gs, false)
	if !await {
		// (b): every record's awaiters ordered before some arriving thread.
		for i, h := range recs {
			if m.subset(m.rec(h.rec).creator, gs) {
				continue
			}
			ok := false
			for _, a := range atoms {
				if c.clk[int(a)*hwClkRows*c.stride+rowBT*c.stride+int(ks[i])] >= bs[i] {
					ok = true
					break
				}
			}
			if !ok {
				return false
			}
		}
	}
	// (a), or rule 6: every thread of gs ordered after some record.
	lvl := rowAT
	if await {
		lvl = rowAF
	}
	for _, a := range atoms {
		row := c.clk[int(a)*hwClkRows*c.stride+lvl*c.stride:]
		ok := false
		for i := range recs {
			if row[ks[i]] >= bs[i] {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}
