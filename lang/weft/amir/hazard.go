package amir

// HazardKind classifies a failed check for the report.
type HazardKind uint8

const (
	// ReadAfterWrite: a read's CheckMutates failed (RAW).
	ReadAfterWrite HazardKind = iota
	// WriteAfterWrite: a write's CheckMutates failed (WAW).
	WriteAfterWrite
	// WriteAfterRead: a write's CheckReads failed (WAR).
	WriteAfterRead
	// AsyncInFlight: the earlier access is an out-of-order (async) access
	// of the same thread that was never waited for.
	AsyncInFlight
	// UseAfterFree: a free's check failed: an access to the freed
	// variable may still be outstanding (seed 000 §4.2 SMEM free safety).
	UseAfterFree
	// BarrierMismatch: CheckBarrier found unequal arrive and await counts.
	BarrierMismatch
	// AwaitBeforeArrive: an Await (n < 0) pairs with an arrive that has
	// not happened yet in program order (see queues.go).
	AwaitBeforeArrive
	// PhaseAlias: the program breaks a requirement of the hardware
	// mbarriers the queue barrier lowers to (mbar.go); Phase says which.
	PhaseAlias
)

// PhaseKind says which hardware mbarrier requirement a PhaseAlias hazard
// breaks (mbar.go, rules 1-4).
type PhaseKind uint8

const (
	// PhaseCount: an Arrive's thread count differs from the arrival
	// count the mbarriers are initialized with (Awaits: its count;
	// Paired: the init count; Other: the Arrive that fixed it).
	PhaseCount PhaseKind = iota
	// PhaseSlot: a thread's own arrive counter (Awaits) names another
	// slot than the queue's arrive (Arrives).
	PhaseSlot
	// PhaseWrong: a thread's own await counter (Arrives) differs from the
	// queue's (Awaits): it waits for another phase (Paired: the arrive the
	// queue pairs it with).
	PhaseWrong
	// PhaseUnawaited: arrive Arrives reuses the slot of arrive
	// Arrives - Ring, which no Await has paired with yet (Paired: the
	// highest arrive awaited so far, -1 for none).
	PhaseUnawaited
	// PhaseAhead: no thread of the Arrive (arrive Arrives, OtherThreads
	// threads from Thread) is ordered after thread OtherStart, which
	// awaited the slot's previous phase at Other.
	PhaseAhead
	// PhaseEarly: Thread (arriving, arrive Arrives) is ordered after no
	// thread that awaited the slot's previous phase (OtherStart at Other,
	// one of them).
	PhaseEarly
	// PhaseTx: the Arrive's expect_tx count (Paired bytes) differs from
	// the bytes the TMA copies completing on this phase of the barrier
	// transfer (Awaits bytes); arrive Arrives; Other: a copy of the phase
	// (the first executed, else the first the count was summed from).
	PhaseTx
	// PhaseStale: Thread awaits phase Arrives of a ring-buffered array's
	// hardware mbarrier (logical index Paired, ring depth Ring) without
	// being ordered after any Await of its previous phase (OtherStart at
	// Other, one of them).
	PhaseStale
	// PhaseCarry: at the end of the barrier's scope (the task), Thread's
	// own counter (Arrives) is out of step with the queue's (Awaits):
	// Paired 0 for its arrive counter (compared modulo Ring), 1 for its
	// await counter. The next task of a persistent CTA continues the
	// counters.
	PhaseCarry
)

var hazardNames = [...]string{"read-after-write", "write-after-write", "write-after-read",
	"async access still in flight", "use after free", "arrive/await count mismatch", "await before its arrive", "mbarrier phase aliasing"}

func (k HazardKind) String() string { return hazardNames[k] }

// Hazard is one failed check, with what a report needs.
type Hazard struct {
	Kind  HazardKind
	Src   int // the later access (Program.Srcs index)
	Other int // the earlier access whose record failed, -1 for BarrierMismatch
	Var   int
	Index []int // first element of the cell block
	Block []int // the block's extent per dimension

	// The later access: its task and thread (Thread -1 with Task -1: the
	// CPU / all of G), the timelines it accepts and the level it needs.
	Task, Thread int
	Quals        QualSet
	Level        Level
	// The earlier access: its creator threads, timeline and level.
	OtherTask                int
	OtherStart, OtherThreads int // first thread and count
	OtherQ                   Qual
	OtherLevel               Level
	SameThread               bool
	Arrives, Awaits          int // BarrierMismatch, AwaitBeforeArrive
	Paired                   int // AwaitBeforeArrive: the 0-based arrive the Await pairs with
	// PhaseAlias: which requirement, the barrier's ring depth and the
	// await lag (see PhaseKind for the counts).
	Phase     PhaseKind
	Ring, Lag int
	// Across: a PhaseUnawaited, PhaseAhead or PhaseEarly hazard across
	// the task boundary (mbar.go): the Arrive (LocalArrive of its task)
	// reuses the mbarrier of arrive PrevArrive of the task a persistent
	// CTA ran before it (OtherTaskCoords).
	Across                  bool
	LocalArrive, PrevArrive int
	Occurrences             int64
	// TaskCoords and OtherTaskCoords are the cuda_tasks iterator values
	// (Program.TaskSlots order) of the two tasks; nil for the CPU.
	TaskCoords, OtherTaskCoords []int
}

func (m *Machine) stopCheck() {
	if m.cfg.StopAfter > 0 && m.res.Distinct >= m.cfg.StopAfter {
		m.stop = true
	}
}

// admit counts a failing check of the hazard named by key and reports
// whether it is new and within Config.MaxHazards, to be appended to
// Result.Hazards now (hazards are deduplicated by key).
func (m *Machine) admit(key [2]int) bool {
	m.res.Occurrences++
	if i, dup := m.seen[key]; dup {
		if i >= 0 {
			m.res.Hazards[i].Occurrences++
		}
		return false
	}
	m.res.Distinct++
	if m.seen == nil {
		m.seen = map[[2]int]int{} // made at the first hazard (Run)
	}
	if len(m.res.Hazards) >= m.cfg.MaxHazards {
		m.seen[key] = -1
		m.stopCheck()
		return false
	}
	m.seen[key] = len(m.res.Hazards)
	return true
}

// admitSeen is admit for a key already in m.seen with index i (its
// value there): another occurrence, only counted.
func (m *Machine) admitSeen(i int) {
	m.res.Occurrences++
	if i >= 0 {
		m.res.Hazards[i].Occurrences++
	}
}

func (m *Machine) hazard(s *Stmt, r *record, c int32, task, t int32) {
	if !m.admit([2]int{s.Src, int(r.src)}) {
		return
	}
	h := Hazard{
		Src: s.Src, Other: int(r.src), Var: s.Acc.Var, Index: m.coords(s.Acc.Var, c), Block: append([]int(nil), m.vars[s.Acc.Var].gran...),
		Task: int(task), Thread: int(t), Quals: s.Quals, Level: s.Level,
		OtherTask: int(r.creator.task), OtherStart: int(r.creator.start), OtherThreads: 1,
		OtherQ: r.q, OtherLevel: r.level, Occurrences: 1,
	}
	if r.creator.task == allTasks {
		h.OtherThreads = -1
	} else {
		h.OtherThreads = len(m.shapes[r.creator.shape])
	}
	h.TaskCoords, h.OtherTaskCoords = m.TaskCoords(int(task)), m.TaskCoords(int(r.creator.task))
	h.SameThread = task != allTasks && m.contains(r.creator, task, t)
	switch {
	case s.What == AccFree:
		h.Kind = UseAfterFree
	case r.level < FullyOrdered && h.SameThread:
		h.Kind = AsyncInFlight
	case s.Kind == KCheckReads:
		h.Kind = WriteAfterRead
	case s.What == AccRead:
		h.Kind = ReadAfterWrite
	default:
		h.Kind = WriteAfterWrite
	}
	m.res.Hazards = append(m.res.Hazards, h)
	m.stopCheck()
}
