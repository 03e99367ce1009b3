package amir

// The ordered-after clocks' repeated rounds (issue 13, stop 35;
// docs/weft-sync.md "Stop 35: ring35").
//
// The three-ring pipeline runs one loop body 25 times. From some round on
// the clocks (mbar_clock.go) end each round as they began it, every birth
// later by the round's length: its Awaits are born again, its grants carry
// the newest births, and the rows forget the older ones (they keep only
// the latest birth of each column, ordered by max). Such a round's fold
// is the previous round's, shifted. Here the clocks stop folding it:
// they verify that each event, birth and check of the round is the
// previous round's (the template's) as far as the fold reads it, and
// answer each check as the template's answered.
//
// The argument. Let g add d to every value >= 0 of the rows, of the
// last births and of the cell entries' values, and keep -1 (no claim).
// Every step of the fold commutes with g: a birth at b raises rows and
// last to b (g(b) = b + d); an event joins rows and entry values with max
// and copies them, and max commutes with any order-preserving map; a
// check compares a row with a record's birth (row >= b iff g(row) >=
// g(b), and -1 < b for every birth b >= 0). The fold reads of an event
// only its threads (which atoms, which columns within it), whether its
// first, temporal and full timelines hold the hidden timeline q (seed 000
// Fig. 7: visibility is carried through q's sets only; issue 13's rule 4
// records are read at temporally_ordered on q), and for an Await the cell
// entries with a count <= its Max; an Arrive writes entries from the
// join, on its own cells. So if, at the start of round r + 1, the rows and
// last births are those at the start of round r under g (d the round's
// length), the atoms and columns are the same (no split and no column in
// round r), and round r + 1's events and births are round r's (threads,
// kind, the three q bits, births' offsets and collectives) with each
// Await's entries those of its template under g (verified at the Await,
// entry by entry), then after every event of round r + 1 the clocks are
// those after the same event of round r under g, and every check asked
// with the same statement, threads, record columns and births under g
// (and the same first record's source, for its hazard key) gets the
// template's answer. A clkDup answer counts hazards already seen: the
// keys are the template's (its statement and first record's source), and
// whether each is in m.seen is asked again now (the template may have
// left its first occurrence to the replay). By induction round r + k is
// round r under g^k. The rows are then kept as they stood at the end of
// the last round folded (base) and, when anything differs, brought to
// the start of the current round by g^k (clkMaterialize) and the fold
// goes on from there, as if it had folded every round.
//
// The entries that virtual rounds' Arrives make are made (values of the
// template's entry under g^k, on the event's own cells and counts), so an
// Await's read is always of the entries the fold would have made; those
// of an unfinished round are taken back when it is folded.
//
// The rounds are a loop's iterations: the machine marks each iteration's
// start (clkRound from execLoop). The clocks follow one loop at a time:
// the marks of loops inside it are ignored, another loop's marks make it
// the one followed. Nothing depends on the marks for soundness (every
// round is verified); a mark only says where a round may repeat.
// TestClkRoundsMatchFold compares every answer of the clocks with and
// without the rounds on random ring programs.

// hwNoRounds, set only by a test, turns the repeated rounds off (every
// round folded); hwClockTrace, set only by a test, sees every answer of
// clkAnswer; hwRoundStats, set only by a test, sees each round not folded
// (true) and each end of the virtual rounds (false).
var (
	hwNoRounds   bool
	hwClockTrace func(src int, await, ans bool)
	hwRoundStats func(virtual bool)
	// hwRoundState, set only by a test, sees the clocks at each mark.
	hwRoundState func(m *Machine)
	// roundProbe, set only by a test, sees the machine at each mark of
	// loop s (round_probe_export_test.go).
	roundProbe func(m *Machine, s *Stmt)
)

// clkRounds is the clocks' state of rounds (above).
type clkRounds struct {
	loop  *Stmt   // the loop whose iterations are the rounds (nil: none)
	inner []*Stmt // loops found inside loop: their marks are not rounds

	// The round folded for real from start (rec: being recorded): by
	// event, an Arrive's entry values (-1: none) or an Await's entry
	// count when folded (ev); the births folded in it, at offsets from
	// start (births); the checks answered (chk, their records' columns
	// and births at kb). At start: the rows and last births (snap,
	// snapLast), and the columns, atoms, stride and upOff.
	rec          bool
	start        int32
	ev           []int32
	births       []hwBirth
	chk          []clkRoundChk
	kb           []int32
	snap         []int32
	snapLast     []int32
	nCols, nAtom int
	stride       int
	upOff        bool

	// virt: the rounds since base are the template's (the round recorded
	// at t0, dlen events) under g; the clocks stand at base. The round
	// under way started at vs: its events verified to vpos, tb of the
	// template's births and nc of its checks matched; the entries made
	// in it are the last ones, on the cells vcells; bi0 is c.bi at vs.
	virt               bool
	t0, dlen, base, vs int32
	vpos               int32
	tb, nc, bi0        int
	vcells             []int32
	fz                 uint64 // the columns g keeps (clkRepeats)
	// aw: by event of the template, the one entry its Await read in the
	// previous virtual round (n = 0: none, or not one), clkSameEnts.
	aw []hwClkEnt
}

// clkRoundChk is a check answered in a recorded round (clkAnswer).
type clkRoundChk struct {
	at    int32 // log position, from the round's start
	s     *Stmt
	gs    threads
	await bool
	src   int32 // the first record's source (its hazard key)
	n, kb int32 // records: columns at kb[kb:kb+n], births after them
	res   uint8 // clkResNone...
	nk    uint8
	keys  [2][2]int
	// seen: each key was found in m.seen, at idx (clkVirtAnswer).
	seen bool
	idx  [2]int
}

// A check's answer (clkRoundChk.res).
const (
	clkResNone uint8 = iota // the clocks could not tell (and found no keys)
	clkResPass              // clkCheck passed it
	clkResKeys              // clkDup found its failing parts' keys (counted when seen)
)

// clkRound marks the start of an iteration of loop s (execLoop).
// hi is the loop's bound and can says that the loop may be skipped
// (round_skip.go): clkRound returns true when the rounds left were made
// without executing them, and the loop is done.
func (m *Machine) clkRound(s *Stmt, hi int, can bool) bool {
	if roundProbe != nil {
		roundProbe(m, s)
	}
	if st := m.hwClk.sk.st; s.Slot >= len(st) || st[s.Slot].s != s || st[s.Slot].ok {
		// (a loop known not to be skippable costs one look a mark)
		if m.roundSkipAt(s, hi, can) {
			return true
		}
	}
	m.clkRound1(s)
	if hwRoundState != nil {
		hwRoundState(m)
	}
	return false
}

func (m *Machine) clkRound1(s *Stmt) {
	c := m.hwClk
	if hwNoRounds || c.run != m.runs || c.off || !c.armed {
		return
	}
	rd := &c.rd
	if rd.loop != s {
		if rd.loop != nil && rd.isInner(s) {
			return
		}
		if rd.virt {
			m.clkMaterialize()
		}
		rd.loop, rd.inner, rd.rec = s, rd.inner[:0], false
	}
	now := int32(len(m.log))
	if rd.virt {
		if m.clkVirtTo(now) && now-rd.vs == rd.dlen && rd.tb == len(rd.births) {
			// The round was the template's: the next one may be too.
			if hwRoundStats != nil {
				hwRoundStats(true)
			}
			rd.vs, rd.nc, rd.tb, rd.bi0 = now, 0, 0, c.bi
			rd.vcells = rd.vcells[:0]
			if c.bi == len(c.births) {
				c.births, c.bi, rd.bi0 = c.births[:0], 0, 0
			}
			return
		}
		m.clkMaterialize()
	}
	if !m.clkFold() {
		rd.rec = false
		return
	}
	if rd.rec && int(now-rd.start) == len(rd.ev) && now > rd.start && m.clkRepeats(now-rd.start) {
		rd.virt, rd.t0, rd.dlen = true, rd.start, now-rd.start
		rd.aw = append(rd.aw[:0], make([]hwClkEnt, rd.dlen)...)
		rd.base, rd.vs, rd.vpos = now, now, now
		rd.tb, rd.nc, rd.bi0 = 0, 0, c.bi
		rd.vcells = rd.vcells[:0]
		rd.rec = false
		return
	}
	// Record this round: it may be the next one's template.
	rd.rec, rd.start = true, now
	rd.ev, rd.births, rd.chk, rd.kb = rd.ev[:0], rd.births[:0], rd.chk[:0], rd.kb[:0]
	n, st := len(c.cols), c.stride
	// The rows as they stand, whole (columns past n are -1 in both).
	rd.snap = append(rd.snap[:0], c.clk[:len(c.size)*hwClkRows*st]...)
	rd.snapLast = append(rd.snapLast[:0], c.last...)
	rd.nCols, rd.nAtom, rd.stride, rd.upOff = n, len(c.size), st, c.upOff
}

// isInner reports that loop s is inside the loop followed.
func (rd *clkRounds) isInner(s *Stmt) bool {
	for _, x := range rd.inner {
		if x == s {
			return true
		}
	}
	if stmtHolds(rd.loop.Body, s) {
		rd.inner = append(rd.inner, s)
		return true
	}
	return false
}

func stmtHolds(body []*Stmt, s *Stmt) bool {
	for _, x := range body {
		if x == s || stmtHolds(x.Body, s) {
			return true
		}
	}
	return false
}

// clkFold folds the log to now (clkReady's fold, the task unchanged).
func (m *Machine) clkFold() bool {
	c := m.hwClk
	return m.clkReady(threads{task: c.task})
}

// clkRepeats reports that the clocks, folded to the end of the recorded
// round of d events, are those at its start under g (values >= 0 later
// by d), with the same columns, atoms, stride and upOff.
func (m *Machine) clkRepeats(d int32) bool {
	c, rd := m.hwClk, &m.hwClk.rd
	n, st := len(c.cols), c.stride
	if n != rd.nCols || len(c.size) != rd.nAtom || st != rd.stride || c.upOff != rd.upOff || len(c.last) != len(rd.snapLast) {
		return false
	}
	// A column born in this round is later by d; one not born in it
	// (fz: its last birth the same) keeps every value.
	var fz uint64
	for k, x := range c.last {
		if x >= 0 && x == rd.snapLast[k] {
			fz |= 1 << k
		} else if !shifted(rd.snapLast[k], x, d) {
			return false
		}
	}
	// By column, what g adds to a value >= 0 (0 in the columns of fz);
	// -1 stays: x + (dk[k] &^ (x >> 31)) is g(x) for x >= -1, no branch
	// a value (stop 39: row 3 asks this about ten times a check, 288
	// values each).
	var dk [hwClkMaxCols]int32
	for k := range n {
		if fz>>k&1 == 0 {
			dk[k] = d
		}
	}
	now, dn := c.clk[:len(rd.snap)], dk[:n]
	for r := 0; r < len(now); r += st {
		xs, ys := rd.snap[r:r+n], now[r:r+n]
		ys, dn = ys[:len(xs)], dn[:len(xs)] // (no bounds checks below)
		bad := int32(0)
		for k, x := range xs {
			bad |= ys[k] ^ (x + (dn[k] &^ (x >> 31)))
		}
		if bad != 0 {
			return false
		}
	}
	rd.fz = fz
	return true
}

// shifted reports y = g(x): x + d for x >= 0, -1 for -1.
func shifted(x, y, d int32) bool {
	if x < 0 {
		return y == x
	}
	return y == x+d
}

// clkVirtTo verifies the virtual round's events and births up to log
// position n against the template's, making its Arrives' entries; false
// when one differs (the round must be folded).
func (m *Machine) clkVirtTo(n int32) bool {
	c, rd := m.hwClk, &m.hwClk.rd
	q := m.p.MbarQual
	sh := rd.vs - rd.t0 // g of this round against the template
	qs := Of(q)
	for i := rd.vpos; i < n; i++ {
		rel := i - rd.vs
		if rel >= rd.dlen {
			return false
		}
		if c.bi < len(c.births) && c.births[c.bi].b <= i && !m.clkVirtBirths(i) {
			return false
		}
		e, t := &m.log[i], &m.log[rd.t0+rel]
		if e.exec != t.exec || e.kind != t.kind || ((e.pre^t.pre)|(e.temp^t.temp)|(e.full^t.full))&qs != 0 {
			// Not the same as far as the fold reads it (threads, kind,
			// and whether the three sets hold q), or another kind
			// the fold skips alike.
			if e.exec != t.exec || clkKind(e.kind) != clkKind(t.kind) || clkKind(e.kind) != KBlock {
				return false
			}
		}
		if e.exec.task != c.task || len(c.cols) == 0 {
			rd.vpos = i + 1
			continue // skipped by the fold (a host event was in the template too: upOff alike)
		}
		info := rd.ev[rel]
		switch e.kind {
		case KArrive:
			if info >= 0 {
				m.clkVirtEnt(e, info, sh)
			}
		case KAwait:
			if !m.clkSameEnts(rel, m.evCells[e.c0], m.evCells[t.c0], info, sh) {
				return false
			}
		}
		rd.vpos = i + 1
	}
	if !m.clkVirtBirths(n) {
		return false
	}
	return true
}

// clkKind is the fold's class of an event kind (KBlock: none of its
// kinds, which it skips).
func clkKind(k Kind) Kind {
	if k == KFence || k == KArrive || k == KAwait {
		return k
	}
	return KBlock
}

// clkVirtBirths matches the births registered at or before log position
// i with the template's next ones (offset from the round's start and
// collective).
func (m *Machine) clkVirtBirths(i int32) bool {
	c, rd := m.hwClk, &m.hwClk.rd
	for c.bi < len(c.births) && c.births[c.bi].b <= i {
		b := c.births[c.bi]
		if rd.tb == len(rd.births) {
			return false
		}
		t := rd.births[rd.tb]
		if b.b-rd.vs != t.b || b.gs != t.gs {
			return false
		}
		rd.tb++
		c.bi++
	}
	return true
}

// clkVirtEnt makes the entries of a virtual round's Arrive e: the
// template's values at off under g (sh: they share the template's room),
// on e's cells.
func (m *Machine) clkVirtEnt(e *event, off, sh int32) {
	c, rd := m.hwClk, &m.hwClk.rd
	n, st := int32(len(c.cols)), int32(c.stride)
	for _, p := range m.evCells[e.c0 : e.c0+e.cn] {
		if p.cell >= 0 {
			c.addEnt(p, hwClkEnt{count: p.count, off: off, n: n, w: st, sh: sh, fz: rd.fz}, len(m.bars))
			rd.vcells = append(rd.vcells, p.cell)
		}
	}
}

// shiftAt is g of value x of column k: sh added, but to -1 and in the
// columns of fz.
func shiftAt(x, sh int32, fz uint64, k int) int32 {
	if x >= 0 && fz>>k&1 == 0 {
		return x + sh
	}
	return x
}

// shiftInto sets dst to src under entry en's g (its sh and fz) and
// returns it.
func shiftInto(dst, src []int32, en *hwClkEnt) []int32 {
	for k, x := range src {
		dst[k] = shiftAt(x, en.sh, en.fz, k)
	}
	return dst
}

// clkSameEnts reports that the entries an Await on p reads now (count <=
// Max) are those its template (event rel of the template round) read on
// tp (the entries made before the template's fold reached it: fewer than
// tn) under g (sh), in order. An Await that read one entry in the
// previous virtual round and reads one sharing its values, later by the
// round's length, reads the template's under g: those are not compared
// again (rd.aw).
func (m *Machine) clkSameEnts(rel int32, p, tp pend, tn, sh int32) bool {
	c, rd := m.hwClk, &m.hwClk.rd
	head := func(x pend) int32 {
		if x.cell < 0 || int(x.cell) >= len(c.cellHead) {
			return 0
		}
		return c.cellHead[x.cell]
	}
	i := head(p)
	for i != 0 && c.ents[i-1].count > p.count {
		i = c.ents[i-1].prev
	}
	aw := &rd.aw[rel]
	one := i != 0
	if one {
		a := &c.ents[i-1]
		for k := a.prev; k != 0; k = c.ents[k-1].prev {
			if c.ents[k-1].count <= p.count {
				one = false
				break
			}
		}
		if one && aw.n > 0 && a.off == aw.off && a.sh == aw.sh+rd.dlen && a.fz == aw.fz && a.fz == rd.fz && a.n == aw.n && a.w == aw.w {
			aw.sh = a.sh
			return true
		}
	}
	aw.n = 0
	j := head(tp)
	first := i
	for {
		for i != 0 && c.ents[i-1].count > p.count {
			i = c.ents[i-1].prev
		}
		for j != 0 && (j > tn || c.ents[j-1].count > tp.count) {
			j = c.ents[j-1].prev
		}
		if i == 0 || j == 0 {
			if i != j {
				return false
			}
			break
		}
		a, b := &c.ents[i-1], &c.ents[j-1]
		if a.n != b.n {
			return false
		}
		va, vb, vu := c.entVals(a)
		ta, tb, tu := c.entVals(b)
		for k := range va {
			// The template's entry under its own g, then this
			// round's (sh, rd.fz); this entry under its own.
			if shiftAt(shiftAt(ta[k], b.sh, b.fz, k), sh, rd.fz, k) != shiftAt(va[k], a.sh, a.fz, k) ||
				shiftAt(shiftAt(tb[k], b.sh, b.fz, k), sh, rd.fz, k) != shiftAt(vb[k], a.sh, a.fz, k) ||
				shiftAt(shiftAt(tu[k], b.sh, b.fz, k), sh, rd.fz, k) != shiftAt(vu[k], a.sh, a.fz, k) {
				return false
			}
		}
		i, j = a.prev, b.prev
	}
	if one {
		*aw = c.ents[first-1]
	}
	return true
}

// clkMaterialize ends the virtual rounds: the entries of the round under
// way are taken back, the rows and last births are brought from base to
// its start by g, and the fold goes on from there (its births again
// pending).
func (m *Machine) clkMaterialize() {
	c, rd := m.hwClk, &m.hwClk.rd
	rd.virt, rd.rec = false, false
	if hwRoundStats != nil {
		hwRoundStats(false)
	}
	for k := len(rd.vcells) - 1; k >= 0; k-- {
		en := c.ents[len(c.ents)-1]
		c.cellHead[rd.vcells[k]] = en.prev
		c.ents = c.ents[:len(c.ents)-1]
	}
	rd.vcells = rd.vcells[:0]
	if d := rd.vs - rd.base; d != 0 {
		n, st, fz := len(c.cols), c.stride, rd.fz
		for a := range c.size {
			for j := 0; j < hwClkRows; j++ {
				row := c.clk[(a*hwClkRows+j)*st:][:n]
				for k, x := range row {
					row[k] = shiftAt(x, d, fz, k)
				}
			}
		}
		for k, x := range c.last {
			c.last[k] = shiftAt(x, d, fz, k)
		}
	}
	c.pos, c.bi = rd.vs, rd.bi0
}

// clkVirtAnswer answers a check in a virtual round as its template's
// check answered (ok), or reports that it differs (the round must be
// folded); ks, bs as clkDup's.
func (m *Machine) clkVirtAnswer(s *Stmt, ks, bs *[clkMaxRecs]int32, recs []hwRec, gs threads, await bool) (ans, ok bool) {
	c, rd := m.hwClk, &m.hwClk.rd
	if rd.nc == len(rd.chk) {
		return false, false
	}
	t := &rd.chk[rd.nc]
	if t.at != int32(len(m.log))-rd.vs || t.s != s || t.gs != gs || t.await != await || int(t.n) != len(recs) || t.src != m.rec(recs[0].rec).src {
		return false, false
	}
	tk := rd.kb[t.kb:][:2*t.n]
	for i := range recs {
		if tk[i] != ks[i] || shiftAt(tk[int(t.n)+i], rd.vs-rd.t0, rd.fz, int(ks[i])) != bs[i] {
			return false, false
		}
	}
	rd.nc++
	switch t.res {
	case clkResPass:
		if !await {
			c.passed++
		}
		if hwClockHit != nil {
			hwClockHit()
		}
		return true, true
	case clkResKeys:
		if !t.seen {
			// Once each key is in m.seen its index there never
			// changes (within the run: the rounds' state is the
			// run's): looked up once for the virtual rounds.
			idx, ok := m.clkSeen(t.keys[:t.nk])
			if !ok {
				return false, true
			}
			t.idx, t.seen = idx, true
		}
		m.clkAdmit(t.idx[:t.nk])
		return true, true
	}
	return false, true
}

// clkRecord notes a check answered in a recorded round.
func (m *Machine) clkRecord(s *Stmt, ks, bs *[clkMaxRecs]int32, recs []hwRec, gs threads, await bool, res uint8, keys [][2]int) {
	rd := &m.hwClk.rd
	t := clkRoundChk{at: int32(len(m.log)) - rd.start, s: s, gs: gs, await: await, src: m.rec(recs[0].rec).src,
		n: int32(len(recs)), kb: int32(len(rd.kb)), res: res, nk: uint8(len(keys))}
	copy(t.keys[:], keys)
	rd.kb = append(rd.kb, ks[:len(recs)]...)
	rd.kb = append(rd.kb, bs[:len(recs)]...)
	rd.chk = append(rd.chk, t)
}
