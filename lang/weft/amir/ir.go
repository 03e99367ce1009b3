package amir

import (
	"math/bits"
	"strings"

	"weft.dev/weft/lang/weft/coll"
)

// Level is a visibility level τ_v (seed 000 Fig. 4). Levels are totally
// ordered: invisible < atomic_only < unordered < temporally_ordered <
// fully_ordered (§5.1).
type Level uint8

const (
	Invisible Level = iota
	AtomicOnly
	Unordered
	TemporallyOrdered
	FullyOrdered
)

var levelNames = [...]string{"invisible", "atomic_only", "unordered", "temporally_ordered", "fully_ordered"}

func (l Level) String() string {
	if int(l) < len(levelNames) {
		return levelNames[l]
	}
	return "level?"
}

// Qual is a qualitative timeline τ_q (Fig. 15), an index into
// Program.QualNames. At most 32 exist.
type Qual uint8

// QualSet is a set of qualitative timelines τ_q* as a bit mask.
type QualSet uint32

// Of is the set {q}.
func Of(q Qual) QualSet { return 1 << q }

// Has reports q ∈ s.
func (s QualSet) Has(q Qual) bool { return s&(1<<q) != 0 }

// Names lists s's members by name, in index order.
func (s QualSet) Names(names []string) string {
	var b strings.Builder
	for s != 0 {
		q := bits.TrailingZeros32(uint32(s))
		s &^= 1 << q
		if b.Len() > 0 {
			b.WriteString(", ")
		}
		if q < len(names) {
			b.WriteString(names[q])
		} else {
			b.WriteString("q?")
		}
	}
	return b.String()
}

// IntExpr is a compiled control expression c (Fig. 6, C-* rules) over the
// slot environment σ.
type IntExpr func(env []int) int

// BoolExpr is a compiled boolean expression b (B-* rules).
type BoolExpr func(env []int) bool

// Affine is the control expression K + Σ Coef·σ(Slot) (seed 000 Fig. 6
// C-AFF). Index expressions are nearly always affine; the machine evaluates
// this form inline instead of calling a closure, since window evaluation is
// on the hot path (one per access per statement instance).
type Affine struct {
	K     int
	Terms []Term
}

// Term is one Coef·σ(Slot) of an Affine.
type Term struct{ Slot, Coef int }

// Eval evaluates a in env.
func (a *Affine) Eval(env []int) int {
	v := a.K
	for _, t := range a.Terms {
		v += t.Coef * env[t.Slot]
	}
	return v
}

// Window is one coordinate of an access: the point Lo when Hi is nil, else
// the half-open interval [Lo, Hi) (Weft slices are half-open; seed 000 writes
// the inclusive c1..c2 of W-RANGE for the same set).
type Window struct {
	Lo, Hi IntExpr
	// LoAff and HiAff, when set, are Lo and Hi as affine forms and must
	// compute the same values; the machine evaluates them instead.
	LoAff, HiAff *Affine
	// LoMod, when set (for a point with no LoAff), is Lo as a ModAffine.
	LoMod *ModAffine
}

// ModAffine is Add + Sign·(Aff mod M) with the floor modulus, M > 0: the
// form of double-buffer indices (k % 2, 1 - k % 2).
type ModAffine struct {
	Aff          Affine
	M, Sign, Add int
}

// Eval evaluates f in env.
func (f *ModAffine) Eval(env []int) int {
	v := f.Aff.Eval(env)
	if f.M&(f.M-1) == 0 {
		v &= f.M - 1 // the floor modulus by a power of two
	} else {
		v %= f.M
		if v < 0 {
			v += f.M
		}
	}
	return f.Add + f.Sign*v
}

func (w *Window) lo(env []int) int {
	if w.LoAff != nil {
		return w.LoAff.Eval(env)
	}
	return w.Lo(env)
}

func (w *Window) hi(env []int) int {
	if w.HiAff != nil {
		return w.HiAff.Eval(env)
	}
	return w.Hi(env)
}

// Access is a windowed access e# = x[w*] or z[w*] (Fig. 4).
type Access struct {
	Var int
	Idx []Window
	// Slots are the control slots its windows read (for task symmetry).
	Slots []int

	// The cells of the last evaluation: the checks and records of one
	// instruction argument share one Access and evaluate it in a row.
	cacheOwner *Machine
	cacheGen   uint64
	cacheCells []int32
	// cachePat: the cells are cacheBase + cachePat, not written yet
	// (a loop's hoisted plan, hoist.go: fillHoisted).
	cachePat  []int32
	cacheBase int32
	// rig is the compiled rigid form (rigid.go), built on first use;
	// notRigid records that there is none.
	rig      *rigidForm
	notRigid bool
	// The block count of the last evaluation by a dead statement.
	countOwner *Machine
	countGen   uint64
	count      int64
}

// Exec gives the threads g_s(σ, ι) executing a statement (Definition 5.2):
// all of G for CPU-scoped statements, else the threads Start(σ) + Shape of
// the current task.
type Exec struct {
	All   bool
	Shape int     // index into Program.Shapes
	Start IntExpr // nil means 0
	// StartAff, when set, is Start as an affine form (evaluated instead).
	StartAff *Affine
}

// Kind is an AMIR statement constructor (Fig. 4).
type Kind uint8

const (
	KBlock Kind = iota // s1; s2; ...
	KLoop              // for y in loop(lo, hi) do s
	KIf                // if b then s
	KIncTaskID
	KAlloc
	KRecordRead
	KRecordMutate
	KClearReads
	KClearMutates
	KFence
	KArrive
	KAwait
	KCheckReads
	KCheckMutates
	KCheckBarrier
)

var kindNames = [...]string{"Block", "Loop", "If", "IncTaskID", "Alloc", "RecordRead", "RecordMutate",
	"ClearReads", "ClearMutates", "Fence", "Arrive", "Await", "CheckReads", "CheckMutates", "CheckBarrier"}

func (k Kind) String() string { return kindNames[k] }

// AccessKind says what a check protects, for hazard reports.
type AccessKind uint8

const (
	AccRead AccessKind = iota
	AccWrite
	AccFree
)

// Stmt is one AMIR statement. Only the fields of its Kind are used.
//
// The fields of few kinds are in side structs reached by an embedded
// pointer, nil for the other kinds: Ctl (KLoop, KIf, KAlloc), Event
// (KFence, KArrive, KAwait) and, for a kRun, runMemo. A statement had
// been 456 bytes (a 480-byte object), and statements half of the bytes
// of a small kernel's Convert (issue 13, stop 31); a record or a check,
// most of a program, uses none of those fields.
type Stmt struct {
	Kind       Kind
	Level      Level      // τ_v of records and checks
	Convergent bool       // t of RecordRead/Mutate/Check*; transitivity of Fence/Arrive
	Q          Qual       // τ_q of a new record
	What       AccessKind // what a check protects
	// TxCheck marks an Arrive whose lowering announces ExpectTx bytes
	// (mbarrier.arrive.expect_tx: the bytes of the copies completing on
	// the barrier before it in program text, as the code generator sums
	// them; Event.ExpectTx, Event.TxSrc). mbar.go.
	TxCheck bool
	// Set by Program.Finish:
	keepLite bool // the subtree holds an event or a live access to a shared variable
	// checkLite: the subtree holds a dead statement on a shared variable
	// (or with a shared barrier access), whose bounds a lite task must
	// still check (lite.go).
	checkLite bool
	dead      bool // a record or check that can never matter (see Finish)

	Quals QualSet // τ_q* (record: atomic set; check: accepted set)
	Src   int     // index into Program.Srcs: the source statement it came from
	// Sync is the index of the source synchronization statement this
	// statement implements (Program.Syncs), or -1. Machine.Disabled skips
	// statements whose Sync is disabled (for --redundant-sync and the
	// mutation test).
	Sync int

	Body []*Stmt // KBlock, KLoop, KIf

	Exec Exec // threads executing it (records, checks, syncs)

	Acc  *Access   // data or barrier access e#
	Bars []*Access // e_z: barrier accesses of RecordRead/Mutate and Arrive

	// TxBytes > 0 marks the record of a TMA copy's SMEM destination that
	// completes on a hardware mbarrier (`>> z`, Var.Ring > 0): the bytes
	// each execution completes on the barrier's current phase (-1: not
	// constant, the phase's count is then not checked). mbar.go.
	TxBytes int
	// CtlSlots are the control slots read by the statement's own control
	// expressions (Lo, Hi, Cond, N, Dims, Exec.Start), not by its accesses.
	CtlSlots []int

	// g_s of the last execution (valid while the machine's gen is gen);
	// shared by the statements of one source statement (same StartAff
	// and shape, see Finish), which evaluate it in a row (set by Finish).
	gsc *gsCache
	// fused is Body with runs of statements on one access replaced by
	// kRun statements (see fuse); nil when there are none (Finish).
	fused []*Stmt

	*Ctl
	*Event
	*runMemo
}

// Ctl holds the fields of control statements: KLoop, KIf and KAlloc.
type Ctl struct {
	Slot int     // KLoop: the iterator's slot
	Lo   IntExpr // KLoop
	Hi   IntExpr // KLoop
	// Tasks marks a cuda_tasks loop (for progress reporting).
	Tasks bool
	// symmetric, set by Program.Finish: a KLoop with Tasks, see
	// Program.Finish (beside Tasks: 8 bytes of padding less a loop;
	// issue 13, stop 45).
	symmetric bool
	Cond      BoolExpr  // KIf
	Dims      []IntExpr // KAlloc: extents

	// Set by Program.Finish, for a KLoop:
	// doneM and doneGen mark a symmetric loop whose first task has run in
	// machine doneM's task-loop nest doneGen (Machine.doneGen).
	doneM   *Machine
	doneGen uint64
	// box is a KLoop's bounds plan for lite tasks when its subtree has
	// nothing but such statements to run there (lite.go); nil when it
	// cannot be planned.
	box *liteBox
	// thsym is a cuda_threads loop's thread-symmetry plan (thsym.go).
	// th2 is a cuda_threads loop's plan as the outer loop of a 2-D
	// thread nest (thsym2d.go). thPending and th2Pending: not planned
	// yet, they are at the machine's first ask (thPlanOf, th2PlanOf:
	// plan_lazy.go).
	thsym *thPlan
	th2   *th2Plan
	// grid is a cuda_threads nest's grid-symmetry plan (thgrid.go).
	grid *gridPlan
	// hoist lists the accesses of the runs directly in a KLoop's body,
	// planned at loop entry (hoist.go).
	hoist   []hoistState
	hoistGS []*gsPlan
	// innerSlots are the slots assigned by loops inside a KLoop's body.
	innerSlots []int
}

// Event holds the fields of synchronization statements: KFence, KArrive
// and KAwait.
type Event struct {
	Pre  QualSet // Fence/Arrive: τ_q^pre*
	Full QualSet // Fence/Await: τ_q^full*
	Temp QualSet // Fence/Await: τ_q^temp* (a superset of Full)
	N    IntExpr // Await: n
	// ExpectTx and TxSrc: an Arrive with TxCheck announces ExpectTx
	// bytes; TxSrc is the first of the copies they count (-1 none).
	// mbar.go.
	ExpectTx int
	TxSrc    int
}

// runMemo holds a kRun's memo: its memory of its last executions
// (memo.go), nil when its form has none; memoOps and memoRecs are the
// statistics of one execution on one cell.
type runMemo struct {
	memo              *memoTable
	memoKind          uint8
	memoOps, memoRecs int
}

// kRun is the internal kind of a fused run of statements (Stmt.fused).
const kRun Kind = 255

type gsCache struct {
	owner *Machine
	gen   uint64
	val   threads
}

// Src describes the source statement an AMIR statement came from, for
// reports.
type Src struct {
	Pos  Pos
	Text string // e.g. "Sm80_cp_async_f32(A_smem[...], ...)"
	// Timeline is the instruction or sync timeline named at the source, for
	// reports ("" when none).
	Timeline string
}

// Pos is an opaque source position (package diag's Pos in practice); the
// machine only copies it into hazards.
type Pos = any

// Var is a data or barrier variable.
type Var struct {
	Name    string
	Barrier bool
	// Dims are the extents, evaluated at Alloc (or at Run start for
	// parameters, Param = true).
	Dims  []IntExpr
	Param bool
	// Gran is the per-dimension block size: every access to the variable
	// is aligned to it, so cells are tracked per block (1 = per element;
	// 0 = the whole extent, when every access spans the dimension).
	Gran []int
	// NoReadRecords / NoMutateRecords: no CheckReads (resp. CheckMutates)
	// ever inspects this variable, so RecordRead (RecordMutate) on it can
	// be skipped without changing any verdict.
	NoReadRecords, NoMutateRecords bool
	// NeverMutated / NeverRead: no RecordMutate (RecordRead) on the
	// variable exists, so its mutate (read) lists are always empty and
	// CheckMutates (CheckReads) on it always pass.
	NeverMutated, NeverRead bool
	// TaskLocal: allocated inside a cuda_tasks loop body (set by Finish).
	TaskLocal bool
	// noCells: no live statement records, clears or checks the variable
	// (set by Finish), so the machine keeps no cells for it.
	noCells bool
	// selfChecked: every check of the variable passes on the records of
	// its own threads, so its records and checks are dead (set by Finish,
	// selfcheck.go).
	selfChecked bool
	// PerThreadQueue: each barrier cell holds one queue per executing
	// thread set, and Arrive, Await and the >> of an access use the queue
	// of their own g_s. For CudaCommitGroup: commit_group and wait_group
	// count the executing thread's own groups, so one collective's Await
	// must not pair with (or count) another collective's Arrives.
	PerThreadQueue bool
	// Ring > 0 marks a CudaMbarrier variable (or its hidden reverse
	// array) whose hardware lowering the machine checks (mbar.go): Ring
	// hardware mbarriers per cell, as the code generator allocates them.
	Ring int
	// RingDepth > 0 marks an mbarrier array with a ring-buffered
	// dimension RingDim (`n @ ring_buffer_by(depth)`, Exo's GPU branch):
	// each index value is a one-shot logical barrier, and logical index L
	// of a slice is phase (L - PreArrive) / RingDepth of hardware mbarrier
	// (L - PreArrive) mod RingDepth (mbar.go). Indices below PreArrive
	// (CudaMbarrierPreArrive(d)) are arrived at allocation.
	RingDepth, RingDim, PreArrive int
	// OneShotArrive: every logical barrier of the ring-buffered array
	// must be arrived exactly once (pre-arrived indices count) by the
	// time it is freed (checkBarrier). Set on the array itself, not on
	// its hidden reverse array.
	OneShotArrive bool
}

// SyncInfo describes one source synchronization statement.
type SyncInfo struct {
	Src int
}

// Program is an AMIR program proc y* do s# (Fig. 4).
type Program struct {
	Name      string
	Slots     []string // control variable names by slot
	Params    []int    // slots of the proc's control parameters y*
	Body      *Stmt
	Vars      []Var
	Srcs      []Src
	Syncs     []SyncInfo
	Shapes    []coll.Collective // Start is ignored
	QualNames []string
	// MbarQual is the hidden timeline of the records hardware mbarrier
	// awaits leave on their slot (mbar.go); the conversion adds it to
	// the sets of every synchronization that orders execution. 0 (the
	// first timeline) means none.
	MbarQual Qual
	// TaskSlots are the slots of the cuda_tasks iterators (set by Finish),
	// used to name tasks in reports.
	TaskSlots []int

	// logHint and evHint are the most events (and event cells) a run of
	// p has logged (for the same); logHint is at least the number of
	// event statements (Finish).
	logHint, evHint int
	// rdTrack marks, by source, the RecordReads of the read-only
	// variables of grid nests: the read-creator index's sources
	// (rdindex.go; nil: none).
	rdTrack []bool
	// accN and allocN count, per variable, the statements of the whole
	// program that access it (Acc or Bars, KAlloc not counted) and that
	// allocate it (set by Finish; thsym.go's loop-private variables).
	accN, allocN []int32
	// thExt: no loop has a grid plan, so thread symmetry's stop-29
	// extensions apply (set by Finish).
	thExt bool
	// rigN counts the accesses with indices (set by Finish): each
	// compiles at most one rigid form, the first chunk of a machine's
	// slab of forms (rigChunk). (An int32 beside thExt: in its padding.)
	rigN int32
	// th is the thread planner of the plans made lazily (plan_lazy.go),
	// its scratch Finish's room's.
	th *thPlanner
}

// AddShape interns a thread-set shape and returns its index.
func (p *Program) AddShape(c coll.Collective) int {
	c.Start = 0
	for i, s := range p.Shapes {
		if s == c {
			return i
		}
	}
	p.Shapes = append(p.Shapes, c)
	return len(p.Shapes) - 1
}

// Walk calls f for s and every statement nested in it, in order.
func Walk(s *Stmt, f func(*Stmt)) {
	if s == nil {
		return
	}
	f(s)
	for _, b := range s.Body {
		Walk(b, f)
	}
}
