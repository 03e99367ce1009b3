package sem

import mbits "math/bits"

// Race detection (seed 004 §3.1, extended to global memory, inter-block,
// inter-kernel and host/device accesses). Every byte of a checked object has
// a history: the last write and the reads since it. An access is stamped
// with where it happened; hb decides whether an earlier access is ordered
// before the current one, so the verdict does not depend on the schedule
// the interpreter happened to pick.
//
// Representation (docs/cudac.md "Shadow memory"). The history is per byte,
// but it is stored per granule: an object's shadow has one cell per aligned
// 2^g bytes, g chosen by its first access (at most 8 bytes). While every
// access covers whole granules, the bytes of a granule have the same
// history, so one cell holds it exactly. An access that covers part of a
// granule splits the object's cells to the finer granule, copying each
// history, so reports keep per-byte precision (the reported byte is the
// first byte of the first conflicting granule, the byte a per-byte walk
// would report). A stamp is 8 bytes: the access's position and kind, and
// the index of a segment, the ordering context (agent, clock, block, thread,
// barrier and warp epochs) of one thread between two of its barriers, which
// all accesses of that stretch share. A cell is the last write, the first
// read since it, and the index of a list of the further unordered reads:
// 20 bytes per granule.

// seg is the ordering context of a thread between two of its barriers.
type seg struct {
	agent  int32 // 0: host; s+1: stream s (an agent runs its operations in order)
	clock  int32 // the agent's clock when the accesses happened
	block  int32 // linear block id, -1 on the host or a copy engine
	tid    int32 // linear thread id in the block
	epoch  int32 // barrier epoch of the block
	wepoch int32 // __syncwarp epoch of the warp
	lc     int32 // the thread's clock for split synchronization (asm.go)
	gepoch int32 // the grid's grid.sync epoch (gridsync.go)
	// the thread's index in the vectors of split synchronization and its
	// cluster's id, -1 without clusters (cluster.go)
	ctid, cluster int32
}

// stamp identifies one access: a segment and pos<<4 | flags.
type stamp struct {
	seg uint32
	pf  uint32
}

const (
	sfValid  = 1
	sfWrite  = 2
	sfAtomic = 4 // a strong access: atomic, or volatile with sfVol
	sfVol    = 8
)

func (s stamp) valid() bool  { return s.pf&sfValid != 0 }
func (s stamp) write() bool  { return s.pf&sfWrite != 0 }
func (s stamp) atomic() bool { return s.pf&sfAtomic != 0 }
func (s stamp) vol() bool    { return s.pf&sfVol != 0 }
func (s stamp) pos() int32   { return int32(s.pf >> 4) }

// strong reports a strong access (atomic or volatile): two strong accesses
// of the same location are morally strong and no data race (fence.go).
func (s stamp) strong() bool { return s.pf&sfAtomic != 0 }

// cell is the history of one granule: the last write, the first read since
// it (valid whenever there is any), and 1 + the index in m.rmore of the
// later reads (0: none).
type cell struct {
	w, r stamp
	more uint32
}

// accessCtx is the ordering context of a running thread.
type accessCtx struct {
	agent int32
	clock int32
	vc    []int32 // what the agent has synchronized with
	ext   []vcEnt // and these entries over vc (a graph's kernel node: vclock.go)
}

func vcGet(vc []int32, i int32) int32 {
	if int(i) < len(vc) {
		return vc[i]
	}
	return 0
}

func vcJoin(dst []int32, src []int32) []int32 {
	for len(dst) < len(src) {
		dst = append(dst, 0)
	}
	for i, v := range src {
		if v > dst[i] {
			dst[i] = v
		}
	}
	return dst
}

// hb reports whether an access of segment a happens before the current
// access, made in segment b under ctx.
func hb(a, b *seg, ctx *accessCtx, bvc []int32) bool {
	return hbTid(a, a.tid, a.ctid, b, ctx, bvc)
}

// hbTid is hb for the segment a with thread atid and split-synchronization
// index actid: a group segment's (race_segs.go), which is not copied out.
func hbTid(a *seg, atid, actid int32, b *seg, ctx *accessCtx, bvc []int32) bool {
	if a.agent == b.agent && a.clock == b.clock {
		if a.agent == 0 || a.block < 0 {
			return true // host program order; a copy runs as one sequential agent
		}
		if a.gepoch < b.gepoch {
			return true // a grid.sync separates them
		}
		if a.block != b.block {
			// blocks of one grid are unordered but by grid.sync, and CTAs
			// of one cluster by its barrier and mbarriers (cluster.go)
			return a.cluster >= 0 && a.cluster == b.cluster && int(actid) < len(bvc) && a.lc < bvc[actid]
		}
		if atid == b.tid {
			return true
		}
		if a.epoch < b.epoch {
			return true // a __syncthreads separates them
		}
		if int(actid) < len(bvc) && a.lc < bvc[actid] {
			return true // a named barrier or an mbarrier phase orders them
		}
		return atid/32 == b.tid/32 && a.wepoch < b.wepoch
	}
	if ctx.ext != nil {
		return ctx.get(a.agent) > a.clock
	}
	return vcGet(ctx.vc, a.agent) > a.clock
}

// curSeg returns t's current segment, making a new one when t passed a
// barrier or its agent's clock moved since its last access. t.segV is
// its value.
func (m *Machine) curSeg(t *Thread) uint32 {
	var ep, wep int32
	b := t.block
	if b != nil {
		ep, wep = b.epoch, b.wepoch[t.tid/32]
	}
	if t.segGen == m.segGen && t.segEp == ep && t.segWep == wep && t.segClock == t.ctx.clock && t.segAgent == t.ctx.agent && t.segLc == t.lc && (b == nil || t.segGep == b.grid.gepoch) {
		return t.seg
	}
	if b != nil && len(b.threads) <= 1<<segTidBits && !m.noGrp {
		// a group segment (race_segs.go): the block's last group, if
		// the thread's segment is in it (compared field by field: the
		// block is the same, tid is 0), else a new one
		cl := int32(-1)
		if b.cl != nil {
			cl = b.cl.id
		}
		ctb := t.hbIdx() - t.tid // the cluster's base, 0 without one
		gep := b.grid.gepoch
		t.segGep = gep
		k := &b.sgKey
		in := true
		if b.sgGen != m.segGen || k.agent != t.ctx.agent || k.clock != t.ctx.clock || k.epoch != ep || k.wepoch != wep || k.lc != t.lc || k.gepoch != gep || k.ctid != ctb || k.cluster != cl {
			if m.segs.n >= m.segGCAt || m.segs.ng >= m.grpGCAt && m.grpGCAt < m.grpLimit || m.gcEvery {
				m.gcSegs()
			}
			in = m.segs.ng < m.grpLimit
			if in {
				key := seg{agent: t.ctx.agent, clock: t.ctx.clock, block: b.id, epoch: ep, wepoch: wep, lc: t.lc, gepoch: gep, ctid: ctb, cluster: cl}
				b.sgKey, b.sgIdx, b.sgGen = key, m.segs.addGrp(key), m.segGen
			}
		}
		if in {
			t.seg = segGrp | b.sgIdx<<segTidBits | uint32(t.tid)
			t.segV = *k
			t.segV.tid, t.segV.ctid = t.tid, ctb+t.tid
			t.segGen, t.segEp, t.segWep, t.segClock, t.segAgent, t.segLc = m.segGen, ep, wep, t.ctx.clock, t.ctx.agent, t.lc
			return t.seg
		}
		// the groups' index space is full: an explicit segment
	}
	s := seg{agent: t.ctx.agent, clock: t.ctx.clock, block: -1, tid: -1, cluster: -1}
	if t.pth != nil && t.pth.id > 0 {
		s.tid = -3 // a host thread made by pthread_create (pthread.go)
	} else if t.host && t.ctx.agent != 0 {
		s.tid = -2 // a stream's host function (hostfn.go)
	}
	if b != nil {
		s.block, s.tid, s.epoch, s.wepoch, s.lc, s.gepoch = b.id, t.tid, ep, wep, t.lc, b.grid.gepoch
		s.ctid, s.cluster = t.hbIdx(), -1
		if b.cl != nil {
			s.cluster = b.cl.id
		}
		t.segGep = b.grid.gepoch
	}
	if m.segs.n >= m.segGCAt || m.gcEvery {
		m.gcSegs()
	}
	t.seg = m.segs.add(s)
	t.segV = s
	t.segGen, t.segEp, t.segWep, t.segClock, t.segAgent, t.segLc = m.segGen, ep, wep, t.ctx.clock, t.ctx.agent, t.lc
	return t.seg
}

// granuleOf is the largest granule (log2, at most 3: 8 bytes) that an access
// of n bytes at off covers whole.
func granuleOf(off, n int) uint8 {
	g := uint8(3)
	for g > 0 && (off|n)&(1<<g-1) != 0 {
		g--
	}
	return g
}

// raceCheck records an access of n bytes at off of o and reports races.
func (m *Machine) raceCheck(t *Thread, o *Object, off, n int, write, atomic bool, pos int32) {
	if o.Space == SpaceLocal || o.Space == SpaceAny || n <= 0 {
		return
	}
	m.raceT = t // reportRace names its call sites (proxy.go, callNotes)
	sid := m.curSeg(t)
	bs := &t.segV
	pf := uint32(0)
	if pos > 0 {
		pf = uint32(pos) << 4
	}
	pf |= sfValid
	if write {
		pf |= sfWrite
	}
	if atomic {
		pf |= sfAtomic
		if m.volAcc {
			pf |= sfVol
		}
	}
	strong := atomic
	b := stamp{sid, pf}
	ctx := t.ctx
	// ordered reports whether the earlier access a is no race with b: the
	// same segment, happens-before, or released (fence.go)
	// The verdict depends only on a's segment, so the last one is kept: a
	// bulk copy or memset meets the same few segments in cell after cell.
	memo, memoOK := ^uint32(0), false
	ordered := func(a stamp) bool {
		if a.seg == sid {
			return true
		}
		if a.seg != memo {
			memo = a.seg
			if a.seg&segGrp == 0 {
				sa := m.segs.at(a.seg)
				memoOK = hb(sa, bs, ctx, t.bvc) || m.lockstep(sa, sa.tid, bs) || m.released(t, sa, a.seg)
			} else {
				// a group segment, its thread apart (race_segs.go)
				sa, atid := m.segs.group(a.seg)
				memoOK = hbTid(sa, atid, sa.ctid+atid, bs, ctx, t.bvc) || m.lockstep(sa, atid, bs) || m.released(t, sa, a.seg)
			}
		}
		return memoOK
	}
	if o.shadow == nil {
		if m.uniAccess(o, off, n, write, atomic, b, ordered) {
			return
		}
	} else if (off|n)&(1<<o.gshift-1) != 0 {
		m.split(o, granuleOf(off, n))
	}
	g := o.gshift
	benign := write && m.benignWrite(o, off, n) // Options.BenignWrites (kernelonly.go); the same for every cell
	for ci := off >> g; ci < (off+n)>>g; ci++ {
		c := &o.shadow[ci]
		if o.lazy && c.w.pf|c.r.pf == 0 {
			m.lazyCell(o, ci, c) // its first access (race_bulk.go)
		}
		if c.w.valid() && c.w.strong() && strong {
			m.volWarp(c.w, b, ordered)
		} else if c.w.valid() && !ordered(c.w) {
			switch {
			case benign:
				m.coWrite(o, ci, c.w.seg, sid)
			case !write && m.coWritten(o, ci, c.w.seg, sid):
			default:
				m.reportRace(o, ci<<g, c.w, b)
			}
		}
		if write {
			if c.r.valid() {
				if c.r.strong() && strong {
					m.volWarp(c.r, b, ordered)
				} else if !ordered(c.r) && !(benign && m.coWritten(o, ci, sid, c.r.seg)) {
					m.reportRace(o, ci<<g, c.r, b)
				}
				if c.more != 0 {
					for _, r := range m.rmore[c.more-1] {
						if r.strong() && strong {
							m.volWarp(r, b, ordered)
						} else if !ordered(r) && !(benign && m.coWritten(o, ci, sid, r.seg)) {
							m.reportRace(o, ci<<g, r, b)
						}
					}
					m.freeMore(c)
				}
			}
			c.w = b
			c.r = stamp{}
			continue
		}
		// keep only the reads not ordered before this one: if r happens
		// before b, any later write racing with r also races with b.
		switch {
		case !c.r.valid():
			c.r = b
		case c.more == 0:
			if ordered(c.r) {
				c.r = b
			} else {
				m.newMore(c, b)
			}
		default:
			lst := m.rmore[c.more-1]
			if k := t.rdAt; k < uint32(len(lst)) && lst[k] == b {
				// a read the list holds (t.rdAt: where t's last read
				// went, in whatever list; a thread rereading a word in
				// a loop, simpleStreams' *factor, finds its read there
				// while other threads' reads come between): it adds
				// nothing a write could report, as in compactReads
				continue
			}
			if n := len(lst); n < 8 || n < cap(lst) {
				// Reads ordered before this one are dropped only when the
				// list is full: keeping them longer costs memory, not
				// precision (a write checks each read with ordered). A
				// compaction that keeps more than half the list doubles
				// its room, so the scans cost O(1) per read amortized and
				// broadcast reads by many unordered threads are linear
				// (issue 15 B4). (Compacting at every power of two, as
				// before, rescanned a list of many threads' reads every
				// few reads: most of the time of weft check on a
				// Sobol-style kernel, issue 15 item 7.)
				m.rmore[c.more-1] = append(lst, b)
				t.rdAt = uint32(len(lst))
				continue
			}
			m.compactReads(c, b, sid, ordered)
			if c.more != 0 {
				t.rdAt = uint32(len(m.rmore[c.more-1]) - 1)
			}
		}
	}
}

// compactReads drops from c's reads those ordered before b (a read by
// segment sid) and, in a long list, the repeated ones, then adds b. A read
// equal to a kept one (same segment, position and kind) adds nothing a
// write could report: its race would have the same positions and threads,
// which reportRace reports once. (Whether a read is ordered depends only
// on its segment; the segments of a list are mostly all different, one
// per thread, so that is decided afresh for each.)
func (m *Machine) compactReads(c *cell, b stamp, sid uint32, ordered func(stamp) bool) {
	lst := m.rmore[c.more-1]
	var seen *readSet
	if len(lst) >= dedupAt {
		seen = m.readSet(c.r, lst)
	}
	first, have := c.r, !ordered(c.r)
	if have && seen != nil {
		seen.add(c.r)
	}
	k := 0
	for _, r := range lst {
		if r.seg == sid || ordered(r) {
			continue
		}
		if seen != nil && seen.add(r) {
			continue
		}
		if !have {
			first, have = r, true
			continue
		}
		lst[k] = r
		k++
	}
	if !have {
		c.r = b
		m.freeMore(c)
		return
	}
	c.r = first
	lst = lst[:k]
	if 2*(k+1) > cap(lst) {
		nl := make([]stamp, k, 2*(k+1))
		copy(nl, lst)
		lst = nl
	}
	m.rmore[c.more-1] = append(lst, b)
}

// readSet is the set of reads a compaction kept (compactReads). The reads
// of a long list are mostly of one or two positions by threads whose
// segments were made one after the other, so the set is a bitmap over the
// segments' range per position when that is small enough, and a hash
// table otherwise. (The hash table's probes, at random over a table
// twice the list, were a fifth of simpleStreams' check: every thread
// reads one global word.)
type readSet struct {
	npf  int
	pfs  [4]uint32
	lo   uint32
	nw   int // words per position
	bits []uint64
	tab  *scanTab
}

// readSet returns the empty set for a compaction of first and lst.
func (m *Machine) readSet(first stamp, lst []stamp) *readSet {
	rs := &m.rset
	*rs = readSet{bits: rs.bits}
	lo, hi := first.seg, first.seg
	for i := -1; i < len(lst); i++ {
		r := first
		if i >= 0 {
			r = lst[i]
		}
		lo, hi = min(lo, r.seg), max(hi, r.seg)
		if rs.npf >= 0 && rs.slot(r.pf) < 0 {
			if rs.npf == len(rs.pfs) {
				rs.npf = -1 // too many positions: a hash table
				continue
			}
			rs.pfs[rs.npf] = r.pf
			rs.npf++
		}
	}
	span := int(hi-lo) + 1
	if rs.npf < 0 || span > 64*len(lst) {
		rs.npf = -1
		rs.tab = m.scanTab(&m.stampSeen, len(lst)+1)
		return rs
	}
	rs.lo, rs.nw = lo, (span+63)/64
	n := rs.npf * rs.nw
	if cap(rs.bits) < n {
		rs.bits = make([]uint64, n)
	}
	rs.bits = rs.bits[:n]
	clear(rs.bits)
	return rs
}

func (rs *readSet) slot(pf uint32) int {
	for i := 0; i < rs.npf; i++ {
		if rs.pfs[i] == pf {
			return i
		}
	}
	return -1
}

// add adds r and reports whether it was there already.
func (rs *readSet) add(r stamp) bool {
	if rs.npf < 0 {
		key := uint64(r.seg)<<32 | uint64(r.pf)
		if _, dup := rs.tab.get(key); dup {
			return true
		}
		rs.tab.put(key, 1)
		return false
	}
	i := int(r.seg - rs.lo)
	w := &rs.bits[rs.slot(r.pf)*rs.nw+i>>6]
	bit := uint64(1) << (i & 63)
	if *w&bit != 0 {
		return true
	}
	*w |= bit
	return false
}

// dedupAt is the list length from which a compaction drops repeated reads
// (the repeated reads of a strided loop would otherwise keep a list as
// long as the reads of a barrier interval).
const dedupAt = 128

// scanTab is an open-addressing table of nonzero uint64 keys, reused
// across scans: reset makes room for n keys and clears only that much.
type scanTab struct {
	keys, vals []uint64
	mask       uint64
}

func (m *Machine) scanTab(p **scanTab, n int) *scanTab {
	tb := *p
	if tb == nil {
		tb = &scanTab{}
		*p = tb
	}
	size := 16
	for size < 2*n {
		size *= 2
	}
	if cap(tb.keys) < size {
		tb.keys, tb.vals = make([]uint64, size), make([]uint64, size)
	}
	tb.keys, tb.vals = tb.keys[:size], tb.vals[:size]
	clear(tb.keys)
	tb.mask = uint64(size - 1)
	return tb
}

func (tb *scanTab) slot(k uint64) uint64 {
	i := (k * 0x9e3779b97f4a7c15) >> 32 & tb.mask
	for tb.keys[i] != 0 && tb.keys[i] != k {
		i = (i + 1) & tb.mask
	}
	return i
}

func (tb *scanTab) get(k uint64) (uint64, bool) {
	i := tb.slot(k)
	return tb.vals[i], tb.keys[i] != 0
}

func (tb *scanTab) put(k, v uint64) {
	i := tb.slot(k)
	tb.keys[i], tb.vals[i] = k, v
}

// dropShadow drops o's history, returning its cells' read lists to the
// pool (they were kept, unreachable, for the rest of the run: each
// finished block's shared memory left its lists behind).
func (m *Machine) dropShadow(o *Object) {
	if o.shadow == nil {
		if m.uni != nil && o.Space != SpaceLocal {
			delete(m.uni, o) // a uniform history (race_bulk.go); locals have none
		}
		return
	}
	if o.lazy {
		m.dropLazy(o) // only an object with cells has one
	}
	for i := range o.shadow {
		if c := &o.shadow[i]; c.more != 0 {
			m.freeMore(c)
		}
	}
	o.shadow = nil
}

// newMore starts the list of further reads of c with s.
func (m *Machine) newMore(c *cell, s stamp) {
	if k := len(m.rfree); k > 0 {
		i := m.rfree[k-1]
		m.rfree = m.rfree[:k-1]
		m.rmore[i] = append(m.rmore[i][:0], s)
		c.more = i + 1
		return
	}
	m.rmore = append(m.rmore, []stamp{s})
	c.more = uint32(len(m.rmore))
}

func (m *Machine) freeMore(c *cell) {
	i := c.more - 1
	if cap(m.rmore[i]) > 64 {
		m.rmore[i] = nil // do not keep a broadcast's long list for a cell that reuses it
	} else {
		m.rmore[i] = m.rmore[i][:0]
	}
	m.rfree = append(m.rfree, i)
	c.more = 0
}

// split refines o's granule to 2^g bytes, copying each history to the new
// cells it covers.
func (m *Machine) split(o *Object, g uint8) {
	k := o.gshift - g
	old := o.shadow
	o.shadow = make([]cell, (len(o.Data)+1<<g-1)>>g)
	for i, c := range old {
		for j := 0; j < 1<<k; j++ {
			ni := i<<k + j
			if ni >= len(o.shadow) {
				break
			}
			nc := c
			if c.more != 0 && j > 0 {
				m.newMore(&nc, stamp{})
				m.rmore[nc.more-1] = append(m.rmore[nc.more-1][:0], m.rmore[c.more-1]...)
			}
			o.shadow[ni] = nc
		}
	}
	o.gshift = g
	if o.lazy {
		// zero cells split into zero cells
		u := m.lazy[o]
		u.g, u.lo, u.hi = g, u.lo<<k, u.hi<<k
	}
}

// gcSegs drops the segments and groups no cell refers to any more and
// renumbers the others, keeping their order. It runs when the table
// doubled since the last collection, so its cost (two walks over the
// shadow cells) is spread over the segments made. The table is compacted
// in place (a new table, and a table of new indices, for each collection
// were most of the memory a wide grid's run touched: issue 15 item 7).
func (m *Machine) gcSegs() {
	st := &m.segs
	words, gwords := (st.n+63)/64, (st.ng+63)/64
	if cap(st.live) < words {
		st.live = make([]uint64, words)
		st.rank = make([]uint32, words)
	}
	if cap(st.glive) < gwords {
		st.glive = make([]uint64, gwords)
		st.grank = make([]uint32, gwords)
	}
	live, rank := st.live[:words], st.rank[:words]
	glive, grank := st.glive[:gwords], st.grank[:gwords]
	clear(live)
	clear(glive)
	// two walks over every stamp: mark the live segments, then renumber
	// (written out, not through a function value: they visit every cell)
	markS := func(i uint32) {
		if i&segGrp == 0 {
			live[i>>6] |= 1 << (i & 63)
		} else {
			g := (i &^ segGrp) >> segTidBits
			glive[g>>6] |= 1 << (g & 63)
		}
	}
	mark := func(cells []cell) {
		for i := range cells {
			c := &cells[i]
			if c.w.valid() {
				markS(c.w.seg)
			}
			if c.r.valid() {
				markS(c.r.seg)
				if c.more != 0 {
					for _, r := range m.rmore[c.more-1] {
						if r.valid() {
							markS(r.seg)
						}
					}
				}
			}
		}
	}
	renum := func(s *stamp) {
		i := s.seg
		if i&segGrp == 0 {
			w := i >> 6
			s.seg = rank[w] + uint32(mbits.OnesCount64(live[w]&(1<<(i&63)-1)))
			return
		}
		g := (i &^ segGrp) >> segTidBits
		w := g >> 6
		g = grank[w] + uint32(mbits.OnesCount64(glive[w]&(1<<(g&63)-1)))
		s.seg = segGrp | g<<segTidBits | i&segTidMask
	}
	renumber := func(cells []cell) {
		for i := range cells {
			c := &cells[i]
			if c.w.valid() {
				renum(&c.w)
			}
			if c.r.valid() {
				renum(&c.r)
				if c.more != 0 {
					lst := m.rmore[c.more-1]
					for j := range lst {
						if lst[j].valid() {
							renum(&lst[j])
						}
					}
				}
			}
		}
	}
	walk := func(f func([]cell)) {
		for _, o := range m.objs {
			if o == nil {
				continue
			}
			if o.shadow == nil {
				if len(m.uni) > 0 {
					if u := m.uni[o]; u != nil {
						cs := []cell{u.c}
						f(cs)
						u.c = cs[0]
					}
				}
				continue
			}
			f(o.shadow)
		}
		for _, u := range m.lazy {
			cs := []cell{u.c}
			f(cs)
			u.c = cs[0]
		}
	}
	walk(mark)
	ranks := func(live []uint64, rank []uint32) uint32 {
		n := uint32(0)
		for w, lw := range live {
			rank[w] = n
			n += uint32(mbits.OnesCount64(lw))
		}
		return n
	}
	n, ng := ranks(live, rank), ranks(glive, grank)
	walk(renumber)
	// a live segment moves down to its rank, never up
	compact := func(live []uint64, rank []uint32, at func(uint32) *seg) {
		for w, bw := range live {
			for bw != 0 {
				b := mbits.TrailingZeros64(bw)
				bw &= bw - 1
				i := uint32(w<<6 + b)
				if r := rank[w] + uint32(mbits.OnesCount64(live[w]&(1<<uint(b)-1))); r != i {
					*at(r) = *at(i)
				}
			}
		}
	}
	compact(live, rank, st.at)
	compact(glive, grank, st.gat)
	st.truncate(int(n), int(ng))
	m.segGen++ // every thread starts a new segment at its next access
	m.segGCAt = max(2*int(n), m.segGCMin)
	m.grpGCAt = min(max(2*int(ng), m.grpGCMin), m.grpLimit)
}

// segGCMin is the table size below which segments are never collected.
const segGCMin = 1 << 20

func (m *Machine) who(s *seg) string {
	if s.agent == 0 {
		return "the host"
	}
	if s.block < 0 {
		if s.tid == -3 {
			return m.pthName(s.agent)
		}
		if s.tid == -2 {
			return m.hostFnName(s.agent) // graph_order.go
		}
		return "an asynchronous copy"
	}
	g := m.gridOf(s.agent, s.clock)
	if g == nil {
		return "a device thread"
	}
	b := g.gdim.Unlinear(int(s.block))
	th := g.bdim.Unlinear(int(s.tid))
	return "thread " + dimStr(th, g.bdim) + " of block " + dimStr(b, g.gdim) + " (kernel " + g.fn.Name + ")"
}

func (m *Machine) reportRace(o *Object, off int, a, b stamp) {
	key := [2]int32{a.pos(), b.pos()}
	if key[0] > key[1] {
		key[0], key[1] = key[1], key[0]
	}
	if m.races[key] {
		return
	}
	m.races[key] = true
	where := o.Space.String() + " memory"
	if o.Name != "" {
		where += " " + o.Name
	}
	sa, sb := m.segs.get(a.seg), m.segs.get(b.seg)
	// inside a built-in header's code (<mma.h>'s load_matrix_sync): at
	// the program's call, the header's line named (exec.go, programPos)
	at, from, inside := m.programPos(m.raceT, m.pos(b.pos()))
	d := m.diags.Errorf(at, "C0501", "data race on %s (byte %d): %s by %s conflicts with an unordered %s by %s%s",
		where, off, kind(b), m.who(&sb), kind(a), m.who(&sa), inside)
	m.callNotesFrom(m.raceT, d, from)
	d.Note(m.pos(a.pos()), "the other access: %s by %s", kind(a), m.who(&sa))
}

func kind(s stamp) string {
	k := "read"
	if s.write() {
		k = "write"
	}
	switch {
	case s.vol():
		k = "volatile " + k
	case s.atomic():
		k = "atomic " + k
	}
	return k
}

// volWarp warns about two volatile accesses, a read and a write, made
// unordered by lanes of one warp (fence.go): no data race under the PTX
// memory model, but warp-synchronous code that assumes the lanes run in
// lock step, which independent thread scheduling does not promise (CUDA
// C++ Programming Guide, "Independent Thread Scheduling"; __syncwarp
// orders them).
func (m *Machine) volWarp(a, b stamp, ordered func(stamp) bool) {
	if !a.vol() || !b.vol() || a.write() == b.write() {
		return
	}
	sa, sb := m.segs.get(a.seg), m.segs.get(b.seg)
	if sa.block < 0 || sa.agent != sb.agent || sa.clock != sb.clock || sa.block != sb.block || sa.tid == sb.tid || sa.tid/32 != sb.tid/32 || ordered(a) {
		return
	}
	// one warning per line (each step of a reduction reads and writes
	// at two columns, against its own and the previous step)
	key := [2]int32{-1, -int32(m.pos(b.pos()).Line())} // negative: apart from the races
	if m.races[key] {
		return
	}
	m.races[key] = true
	d := m.diags.Warnf(m.pos(b.pos()), "C0506", "unordered volatile accesses by lanes of one warp: %s by %s and %s by %s; volatile orders nothing, so this warp-synchronous code relies on lock step (use __syncwarp)",
		kind(b), m.who(&sb), kind(a), m.who(&sa))
	d.Note(m.pos(a.pos()), "the other access: %s by %s", kind(a), m.who(&sa))
}
