package amir

// The log and event cells of a loop of rounds sized once (issue 13, stop
// 38: ring38; docs/weft-sync.md "Stop 38: ring38"). The three-ring
// pipeline's loop logs 12 events and 12 event cells a round for 25 rounds
// (300 of each, whole rounds skipped or not: roundMake logs the skipped
// rounds' events too). Grown by grow2 from the program's first hint (one
// event per event statement) the log was made three times, 8, 272 and
// 800 events (43 KB a check, the largest allocation of rows 1-4), and the
// cells twice (256 and 768, 8 KB). At the second mark after the loop's
// first recorded one the length of a round is known: the log and the
// cells are grown once, to what the rounds left need if each logs as
// many as the last, plus one event per event statement for what follows
// the loop (Program.logHint).
//
// This changes no verdict and no counter but the state's size
// (Stats.Memory, which counts capacities): the plain run (hwNoSkip) and
// the skipping one reserve at the same mark, so TestRoundSkipMatchesPlain
// still compares their --sync-stats exactly. A reservation the rounds do
// not fill (a run that stops, rounds that log less) is only room: the
// memory limit is guarded as roundSkip guards it (far below the limit, or
// no reservation).

// rsReserveMax bounds one reservation (events): a longer loop grows by
// grow2 as before.
const rsReserveMax = 1 << 16

// rsReserve is the reservation's state (in roundSkip).
type rsReserve struct {
	loop       *Stmt
	run        uint64
	task       int32
	n          int
	pos, cells int32
	done       bool
}

// roundReserve is called at the mark of iteration n of a loop of rounds s
// whose bound is hi (roundSkipAt, before any skip decision).
func (m *Machine) roundReserve(s *Stmt, n, hi int) {
	rv := &m.hwClk.sk.rv
	now, cells := int32(len(m.log)), int32(len(m.evCells))
	if rv.loop != s || rv.run != m.runs || rv.task != m.task || n != rv.n+1 || now < rv.pos || cells < rv.cells {
		*rv = rsReserve{loop: s, run: m.runs, task: m.task, n: n, pos: now, cells: cells}
		return
	}
	d, dc := int64(now-rv.pos), int64(cells-rv.cells)
	rv.n, rv.pos, rv.cells = n, now, cells
	if rv.done || d <= 0 {
		return
	}
	rv.done = true
	left := int64(hi - n)
	ne := int64(now) + d*left + int64(m.p.logHint)
	nc := int64(cells) + dc*left + int64(m.p.logHint)
	if d*left > rsReserveMax || dc*left > rsReserveMax {
		return
	}
	if mx := m.cfg.MaxMemory; mx > 0 {
		if 4*(m.MemoryBytes()+ne*eventBytes+nc*pendBytes) > mx {
			return
		}
	}
	if int64(cap(m.log)) < ne {
		l := make([]event, len(m.log), ne)
		copy(l, m.log)
		m.log = l
	}
	if int64(cap(m.evCells)) < nc {
		c := make([]pend, len(m.evCells), nc)
		copy(c, m.evCells)
		m.evCells = c
	}
}
