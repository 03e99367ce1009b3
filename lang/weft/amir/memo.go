package amir

// Repeated accesses. An instruction in an inner loop often accesses the
// same register fragment several times in a row with nothing in between
// that could change the answer: the accumulator D of an mma over the
// k_seq loop, its A and B fragments over the n_seq and m_seq loops. A
// fused run (Stmt.fused) of such an access on one cell, executed again by
// the same threads when neither of the cell's lists has changed since its
// last execution (cell.ver) and no event has been logged since (so no
// record of the cell can have changed either: records change only by
// replaying events), starts from the state its last execution produced;
// for the two run forms below that execution is then a no-op on the state,
// and only its statistics are added:
//
//   - memoRead: checks of the mutate list and records into the read list
//     (CheckMutates, RecordRead: a read). The mutate list is the one the
//     last execution's checks passed on, with the same records in the same
//     state, so they pass again; each RecordRead finds first the record it
//     (or an identical one) left, with no grants and no arrive counts (no
//     event since), so it adds nothing (addRecord's identical case).
//   - memoWrite: checks, then ClearReads and ClearMutates, then one
//     convergent RecordMutate (a write). The last execution left the read
//     list empty and the mutate list holding its one record r, created by
//     the same threads; each CheckMutates of the run accepts r at its
//     first test (creator = g_s, its timelines include r's, its level is at
//     most r's: checked statically), CheckReads sees an empty list, the
//     clears free r and the record takes r's slot back from the free list
//     with the same fields: the state is the same. One record is created.
//
// An execution that reported a hazard is not memoized. Results and
// statistics are identical to executing the run (the differential tests
// run programs with and without the memo).

const (
	memoNone uint8 = iota
	memoRead
	memoWrite
)

// memoSize is the number of cells a run remembers (direct-mapped by cell).
const memoSize = 64

type memoEntry struct {
	cell, log int32
	ver       uint64
	gs        threads
	valid     bool
}

// memoTable is a run's memory of its last executions; valid for the run of
// the machine that owns it (Machine.runs).
//
// Its entries start as memoSmall in the table's own allocation and become
// memoSize (a second allocation) only when two cells that memoSize entries
// keep apart meet in one of the memoSmall (issue 13, stop 47: the 64
// entries, 2 304 bytes zeroed twice, had been two of shfl_xor's largest
// machine allocations, for runs of 16 cells, in 16 of the entries or
// 64 apart; 576 bytes now). Why the answers are the 64 entries': an
// invalid entry acts as an empty one (it is never a hit, invalidating it
// again changes nothing, and a write replaces it whole), and while the
// entries are memoSmall every valid one holds cell c at c mod memoSmall,
// where no other valid one can be, and is the entry the 64 would hold at
// c mod memoSize: two cells congruent modulo memoSmall but not memoSize
// are never both kept (memoEntryFor grows first), and two congruent
// modulo memoSize replace each other in both. TestMemoSmallMatchesFull.
type memoTable struct {
	owner *Machine
	run   uint64
	ents  []memoEntry // memoSmall or memoSize entries
	small [memoSmall]memoEntry
}

// memoSmall is the entries a table starts with (a power of two dividing
// memoSize).
const memoSmall = 16

// memoSmallOff (tests) makes every table memoSize entries from the start.
var memoSmallOff bool

// newMemoTable returns an empty table of m's current Run.
func newMemoTable(m *Machine) *memoTable {
	t := &memoTable{owner: m, run: m.runs}
	t.ents = t.small[:]
	if memoSmallOff {
		t.ents = make([]memoEntry, memoSize)
	}
	return t
}

// memoForm classifies a fused run (see above); ops is the memory
// operations an execution on one cell counts, recs the records it creates.
func memoForm(run *Stmt) (form uint8, ops, recs int) {
	body := run.Body
	reads := true
	for _, s := range body {
		switch s.Kind {
		case KCheckMutates, KRecordRead:
			ops++
		default:
			reads = false
		}
	}
	if reads {
		return memoRead, ops, 0
	}
	// Checks, ClearReads and ClearMutates (in either order), RecordMutate.
	n := len(body)
	if n < 3 || body[n-1].Kind != KRecordMutate {
		return memoNone, 0, 0
	}
	rec := body[n-1]
	if !rec.Convergent && !rec.Exec.All {
		return memoNone, 0, 0
	}
	c1, c2 := body[n-3].Kind, body[n-2].Kind
	if !(c1 == KClearReads && c2 == KClearMutates || c1 == KClearMutates && c2 == KClearReads) {
		return memoNone, 0, 0
	}
	ops = 1
	for _, s := range body[:n-3] {
		switch s.Kind {
		case KCheckReads:
		case KCheckMutates:
			if !s.Quals.Has(rec.Q) || rec.Level < s.Level {
				return memoNone, 0, 0
			}
		default:
			return memoNone, 0, 0
		}
		ops++
	}
	return memoWrite, ops, 1
}

// memoEntryFor returns run's entry for cell c (its table reset for this
// machine's current Run).
func (m *Machine) memoEntryFor(run *Stmt, c int32) *memoEntry {
	t := run.memo
	if t.owner != m || t.run != m.runs {
		t.owner, t.run = m, m.runs
		clear(t.ents)
	}
	e := &t.ents[c&int32(len(t.ents)-1)]
	if len(t.ents) < memoSize && e.valid && (e.cell^c)&(memoSize-1) != 0 {
		// Cells the memoSize entries keep apart: those entries now,
		// each valid one where they would hold it.
		full := make([]memoEntry, memoSize)
		for _, x := range t.ents {
			if x.valid {
				full[x.cell&(memoSize-1)] = x
			}
		}
		t.ents = full
		e = &full[c&(memoSize-1)]
	}
	return e
}
