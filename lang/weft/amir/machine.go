package amir

import (
	"fmt"
	"math/bits"
	"slices"
	"unsafe"

	"weft.dev/weft/lang/weft/coll"
)

// allTasks is the task of a thread set that is all of G (CPU scope).
const allTasks = -1

// threads is a global thread set: {(task, start+o) | o ∈ shape}, or all of
// G when task is allTasks.
type threads struct {
	task, start, shape int32
}

// grant is one augmentation A(r, exec, full, temp) (Definition B.3 (ii)):
// fully_ordered on exec × full, temporally_ordered on exec × temp (temp ⊇
// full).
type grant struct {
	th         threads
	full, temp QualSet
}

// pend is an observed arrive count of one barrier cell (r.p of Definition
// 5.3). Only the least count per cell is kept: Await tests ∃ i ≤ Max.
type pend struct {
	cell, count int32
}

// record is a visibility record (q, f, p) (Definition 5.3). f is the join of
// the creator grant (level on creator × {q}), atomic_only on G × atomic, and
// the grants.
type record struct {
	next    int32 // next record of the same cell list, -1 at the end
	src     int32
	q       Qual
	level   Level
	atomic  QualSet
	creator threads
	reach   int32 // the only task whose events can witness it, or allTasks
	stamp   int32 // events [0, stamp) of the log are applied
	// grp != 0 marks a group record (thgroup.go): it stands for one
	// record per thread of creator, each with creator that one thread
	// (shape grp-1, or shape 0 for a thread group, grp = thGroup), in
	// decreasing thread order.
	grp    int32
	grants []grant
	pend   []pend
}

type cell struct {
	reads, muts int32 // record list heads, -1 when empty
	// ver changes (to a value never used before) whenever either list
	// changes: records added or removed (not their replay); see memo.go.
	ver uint64
}

type varState struct {
	dims    []int // element extents
	gran    []int // block size per dimension (Var.Gran, 0 resolved to the extent)
	shift   []int // log2 of gran when it is a power of two, else -1
	blocks  []int // block extents (dims / gran, rounded up)
	strides []int // block strides
	cells   []cell
	bar0    int32 // first barrier cell id of this incarnation
	// hwCount is the arrival count the incarnation's hardware mbarriers
	// are initialized with (the first Arrive's thread count; 0 before),
	// hwSrc that Arrive (mbar.go).
	hwCount int32
	hwSrc   int
	// dim holds the same per-dimension facts packed for evalCells.
	dim []dimInfo
	// epoch identifies the incarnation (set at each allocation).
	epoch uint64
	total int // blocks (len(cells) unless Var.noCells)
	// hwPhys: the hardware mbarriers of a ring-buffered array (Var.
	// RingDepth), by slice * depth + slot (mbar.go).
	hwPhys []*hwPhysBar
	// hw: the hardware state of a lag ring's cells (Var.Ring > 0, not
	// PerThreadQueue), by cell. It outlives the incarnation: the code
	// generator initializes the mbarriers once per kernel and the
	// per-thread counters persist, so every allocation of the variable
	// in one launch (the next task of a persistent CTA, the next round
	// of a seq loop) continues it (mbar.go, "across tasks").
	hw []*hwBar
	// listLo, listHi: every cell outside [listLo, listHi) has both its
	// lists empty (listbound.go).
	listLo, listHi int32
	// lzc: by cell, 1 + the index in lzRecs of its deferred thread
	// group, or 0; lzN counts them (lazygroups.go).
	lzc    []int32
	lzN    int
	lzRecs []lazyGrp
	// lazy: every cell's list holds one record that is not made yet
	// (lazycells.go), that of lazyS by lazyCr with the counts lazyPend
	// at log length lazyStamp.
	lazyS     *Stmt
	lazyCr    threads
	lazyStamp int32
	lazyPend  []pend
	lazy      bool
	live      bool
	hwListed  bool // v is in Machine.hwVars
	local     bool // Var.TaskLocal
	// hasRecs: a record was added since the allocation (thsym.go);
	// hasReads, hasMuts: one to a read list, to a mutate list (issue 13,
	// stop 36: a list of one kind is filled only by a record of that
	// kind, recordCells, or by copies of the variable's own lists of
	// that kind, so with the flag false every list of the kind is
	// empty).
	hasRecs, hasReads, hasMuts bool
	// (The 4-byte fields and the flags are in pairs and together: 368
	// bytes, not 400; Run makes one per variable; issue 13, stop 45.)
}

type dimInfo struct {
	extent, gran, shift, stride int
}

// barState is a queue barrier's arrive and await counts (a, w). Its
// per-thread-set queues, for a PerThreadQueue cell (queues.go), are in
// Machine.barExt: a run makes one barState per barrier cell per
// incarnation, and the two slice headers they had made the GEMMs' state
// five times larger (issue 13: a fifth of the ping-pong GEMM's allocation).
type barState struct {
	a, w int32
	// freed is 1 + the log length when the cell's variable was
	// allocated again (its incarnation died), or 0 (dropDeadPends).
	freed int32
	// ext is 1 + the index of the cell's sub-queues in Machine.barExt,
	// or 0 (none).
	ext int32
}

// barExt holds the sub-queues of a PerThreadQueue cell.
type barExt struct {
	subs []subQueue
	// byThread indexes the one-thread sub-queues by thread offset
	// (queue).
	byThread []subRef
}

// event is one Fence, Arrive or Await waiting to be replayed on records.
type event struct {
	kind       Kind
	trans      bool
	ptq        bool // an Await on a per-thread queue (Var.PerThreadQueue)
	exec       threads
	pre        QualSet
	full, temp QualSet
	// Arrive: (cell, a) for each cell in W; Await: (cell, Max); at
	// Machine.evCells[c0 : c0+cn] (events hold no pointers: the log of a
	// large run is neither scanned by the GC nor copied with barriers).
	c0, cn int32
}

// Fault is a malformed execution (an out-of-bounds access, an Arrive without
// a unique home barrier): the program is rejected, but not for a hazard.
type Fault struct {
	Src int
	Msg string
	// Limit names the resource limit that stopped the run ("tasks",
	// "cells", "memory"; "" for a malformed execution).
	Limit string
}

// Stats counts the work of one run.
type Stats struct {
	MemOps  int64 // cell-block accesses recorded or checked
	Records int64 // visibility records created
	Events  int64 // Fence/Arrive/Await executions
	Tasks   int64
	// SkippedOps are task-local operations of later tasks of symmetric
	// task loops, identical to the first task's, and the operations of
	// threads after the first of thread-symmetric loops (thsym.go),
	// translations of the first's: counted in MemOps, not re-executed.
	SkippedOps int64
	// Memory is the estimated size of the machine's state at the end of
	// the run, in bytes (Machine.MemoryBytes; its slabs only grow).
	Memory int64
}

// Result is the outcome of Machine.Run.
type Result struct {
	Hazards []Hazard // distinct source pairs, first Config.MaxHazards in full
	// Distinct is the number of distinct hazards (by source pair), and
	// Occurrences the number of failing checks.
	Distinct    int
	Occurrences int64
	Faults      []Fault
	Stats       Stats
}

// OK reports no hazard and no fault.
func (r *Result) OK() bool { return r.Distinct == 0 && len(r.Faults) == 0 }

// Config tunes a run.
type Config struct {
	// MaxHazards bounds the hazards reported in full (0: 10).
	MaxHazards int
	// Disabled[i] skips every statement implementing source sync i.
	Disabled []bool
	// Progress, when set, is called with (done, total) top-level tasks.
	Progress func(done, total int64)
	// StopAfter stops the run after this many distinct hazards (0: never).
	StopAfter int
	// MaxMemOps stops the run with a fault after about this many memory
	// operations (0: no limit); used by fuzzing.
	MaxMemOps int64
	// MaxTasks stops the run, before it starts them, when its cuda_tasks
	// loops would run more than this many tasks (0: no limit).
	MaxTasks int64
	// MaxCells stops the run at an allocation that would make the tracked
	// cells of all live variables together more than this (0: no limit).
	MaxCells int64
	// MaxMemory stops the run when the machine's state (cells, records,
	// grants, the event log, task coordinates; estimated from their
	// allocated sizes) would take more than this many bytes (0: no
	// limit). It is checked at each allocation and task and every 256
	// loop iterations.
	MaxMemory int64
	// NoThreadSym runs every cuda_threads loop in full, without thread
	// symmetry (thsym.go): differential tests compare the two runs.
	NoThreadSym bool
}

// Machine interprets one Program.
type Machine struct {
	p      *Program
	cfg    Config
	shapes [][]int32 // thread offsets of each shape, increasing
	// member[i] is shape i's membership bitmap: bit o is set iff o is a
	// thread offset of the shape (offsets start at 0).
	member [][]uint64
	// dense[i] is n > 0 when shape i is the offsets 0..n-1 (a range).
	dense []int32
	// newRoom backs New's per-shape slices and the record table's first
	// entries for a small program (machineRoom).
	newRoom machineRoom

	env                   []int
	vars                  []varState
	recs                  recSlab // the visibility records (recslab.go)
	bars                  []barState
	barExt                []barExt // sub-queues (barState.ext)
	log                   []event
	evCells               []pend // the events' cells (event.c0)
	res                   Result
	seen                  map[[2]int]int // src pair -> index in res.Hazards, or -1
	tasksTotal, tasksDone int64

	// lite: executing a later task of a symmetric task loop (only events
	// and shared-variable accesses run). A symmetric loop whose first task
	// has run is marked on its Ctl (doneM, doneGen: loopDone); doneGen
	// numbers the task-loop nests of this machine's runs, a new one at
	// each Run and each outermost task-loop entry, so a mark of an
	// earlier nest or run, or of another machine of the same program
	// (syncheck's mutants), is never current. It had been a map made per
	// run and cleared per nest (~750 instructions of a small check's Run:
	// makemap_small, the first assign; issue 13, stop 41: amir).
	doneGen   uint64
	taskDepth int
	// liteOps counts the task-local memory operations of the first task of
	// the current symmetric loop, added once per later task to Stats.MemOps
	// (they are the same operations).
	localOps, firstOps int64

	// taskCoords[(ι-1)*len(TaskSlots):] are the cuda_tasks iterator
	// values of task ι (one slab: 8 bytes a coordinate, no header per
	// task).
	taskCoords []int
	// taskProd is the product of the extents of the enclosing cuda_tasks
	// loops (MaxTasks); cellsLive the tracked cells of the live variables
	// (MaxCells); tick counts loop iterations (MaxMemory).
	taskProd  int64
	cellsLive int64

	epochs uint64 // allocation counter (varState.epoch)
	// vers is the last cell version handed out (cell.ver); runs counts
	// Runs (memoTable.run).
	vers, runs uint64
	memoHits   [3]int64 // executions of runs answered by their memo, by form (tests)
	// gen changes whenever the environment or an allocation changes; it
	// validates Access caches.
	gen    uint64
	accIdx []int
	// thState is addThreadRecords' scratch, per thread offset (all
	// thNone between calls).
	thState []uint8
	// pendBuf is record's scratch for P_{E#,ρ}.
	pendBuf []pend
	// grantArena backs the first grants of records (augment), pendArena
	// their first arrive counts (pendStore; noPendArena, for tests, gives
	// each record its own).
	grantArena []grant
	pendArena  []pend
	// mbarSet is {Program.MbarQual} (empty when the program has none).
	mbarSet QualSet
	// single[i]: shape i is one thread. shared lists the log indices of
	// the events every record must replay, thEv[t] those local to thread
	// offset t (logEvent, replay).
	single []bool
	shared []int32
	thEv   [][]int32
	// plainReplay disables the per-thread replay and fastReplays counts
	// its uses (tests).
	fastReplays int64
	// taskRuns are the log's maximal runs of events of one task
	// (event.exec.task), in log order (replayTask); noTaskReplay
	// disables their use and taskSkips counts the events skipped (tests).
	taskRuns  []taskRun
	taskSkips int64
	// noCheckSkip makes a check replay every record it inspects, and
	// checkSkips counts the replays a passing check left for later
	// (checkCells; tests).
	checkSkips int64
	// noEmptySkip makes a check or a clear walk the cells of a variable
	// with no record since its allocation (varState.hasRecs), and
	// emptySkips counts the checks and clears that skipped them
	// (checkCells, clearCells, execMembers; tests).
	// noAllocSame makes every allocation set its per-dimension state
	// anew (alloc's reallocation of the same extents; tests).
	// noListBound makes the walks of every cell's lists walk every cell,
	// not varState's [listLo, listHi) (listbound.go; tests).
	listShort  int64 // bounded walks shorter than the cells (tests)
	allocSame  int64 // allocations that kept it (tests)
	emptySkips int64
	// noDomSkip makes addRecord replay every older record it compares,
	// and domSkips counts the replays it left out (dominated; tests).
	domSkips int64
	// rmemo is the replay memo (replaymemo.go); noReplayMemo disables
	// it and replayMemoHits counts its hits (tests).
	rmemo          *[replayMemoSize]replayMemoEntry // nil until a replay is memoized
	rmemoClock     uint64
	rchains        []replayChain
	rckIdx         map[replayCkptKey]int32
	rckpts         []replayCkpt
	ckptHits       int64 // replays that found a checkpoint (tests)
	replayMemoHits int64
	// rclass is the last one-thread replay (replayclass.go);
	// noReplayClass disables it (tests), replayClassHits counts its use.
	rclass          replayClass
	replayClassHits int64
	// hwExpand makes hwOrder always check per-thread records;
	// hwExpanded counts the Await records it expanded (tests).
	hwExpanded int64
	// hwVars lists the variables with continued lag-ring state
	// (varState.hw); hwOnly: running a phantom continuation task
	// (mbar.go), only barrier statements execute.
	hwVars []int
	// hwLeft counts the cells a phantom has not yet arrived a full ring
	// on; hwCut stops the phantom (mbar.go, phantoms).
	hwLeft int
	// reuseBad marks the variables with a rule-4 hazard within a task
	// (phaseHazard).
	reuseBad map[int]bool
	// phaseBuf is phaseHazard's scratch.
	phaseBuf *Hazard // made at the first phase hazard (stop 45: 264 bytes a check)
	// hwClk: the ring-buffered arrays' ordered-after clocks (mbar_clock.go).
	hwClk *hwClock

	// Thread symmetry (thsym.go): the frames and virtual variables
	// (by variable), the representative's queues' copies (by queue id),
	// whether any state is virtual, and whether a loop runs virtually
	// now. noThreadSym disables it and thSymRuns counts its loop
	// executions (tests).
	thFrames   []*thFrame
	thFrameBuf []thFrame // thsymEnterAt's frames are carved from it (a run's own)
	// thsymNoKeepSkip makes a kept check walk its cells again (thkeep.go,
	// "checks already walked"; tests compare both ways); thKeepSkips
	// counts the walks skipped.
	thKeepSkips int64
	// noEmptyLoop (tests) iterates empty loops (skipEmptyLoop);
	// emptyLoops counts the loops skipped.
	emptyLoops int64
	// th2Corners (tests) makes th2Enter test each window at the four
	// corners of the nest (th2InBounds), not over the rectangle.
	// asc is 0, 1, 2, ...: the rigid patterns of consecutive blocks
	// (rigid.go ascending).
	asc []int32
	// intArena and dimArena: alloc's per-variable slices (carveInts,
	// carveDims), a run's own.
	intArena   []int
	dimArena   []dimInfo
	thVars     []*thVar
	thSubs     map[int32]thSub
	thRunBuf   thRun
	thPinBuf   []int // thsymEnter: the pinned iterators' values before entry
	thClassBuf []thClass
	// thDeadOn: thsymClasses runs representatives whose dead-only Ifs
	// (thDeadIf, thPlan.ydead) count their bodies' operations into
	// thDeadOps (execDeadIf); noDeadMerge: those Ifs split classes.
	deadMerges int64 // thsymClassify's entries with dead-only conditions merged
	thDeadIf   [thDeadConds]*Stmt
	thDeadOps  [thDeadConds][2]int64
	// thSaved, thSavedF, thSavedFrame: the slices and frames of the
	// classes tested (thsymClasses; thsymEnterAt keeps the last entry's).
	thSaved      []thNewMap
	thSavedF     thFrame
	thSavedFrame *thFrame
	// thsymClassesTwice: every class is tested again at its registration
	// (the stop-32 path; tests).
	// thClassSeen: the classes of the thread loops entered so far in the
	// run whose conditions read only the thread (thsymClassesOf).
	thClassSeen []thClassSeen
	// thNoAdopt lists the loops of this run whose adoption of records
	// failed once (thsym.go: not tried again, as per_cta_alloc's 16 rows).
	thNoAdopt []*Stmt
	// thsymNoBox: slices span the other dimensions whole (tests).
	// thsymNo2D: no nest enters as a 2-D frame (thsym2d.go; tests).
	// th2Inner is the inner loop of the 2-D nest running virtually (one
	// iteration, its representative's), th2Hi its bound; th2Runs counts
	// the nests entered.
	th2Inner  *Stmt
	th2Hi     int
	th2Runs   int64
	thNewMaps []thNewMap // thsymEnterAt's scratch
	thSymRuns int64
	// For tests: virtual loops with pinned inner loops, with private
	// variables, and slices adopted with their records (thsym.go).
	thPinRuns, thPrivRuns, thAdopts, thClassRuns, thLazyAdopts int64
	// thKeeps counts the whole-variable statements run on a virtual
	// variable without materializing it; thsymNoKeep turns that off
	// (thkeep.go, tests).
	thKeeps int64
	// Grid symmetry (thgrid.go): inGrid while a grid nest's
	// representative runs, gridInner its inner axes (run for their first
	// point only); noGrid disables it, gridRuns counts its uses (tests).
	gridInner []*Stmt
	gridRuns  int64
	// gridNests: per grid nest, its failures in a row and the entries
	// still to skip (thgrid.go gridEnter), and its last entry's points
	// (thgrid_pts.go): listed (gridNestOf), and in gridBackoff too
	// once the list is full.
	gridNests    []*gridNest
	gridNestFree []gridNest // the list's room not taken yet
	gridBackoff  map[*Stmt]*gridNest
	// rigSlab: the rigid forms not handed out yet (compileRigid);
	// rigNext: the size of its last chunk.
	rigSlab []rigidForm
	rigNext int
	// Deferred slabs (thgrid_lazy.go): by variable, the frame whose
	// other points' slabs are not built yet; gvAny: some is; gridDefer
	// enables deferring (tests turn it off).
	gv []*gridVirt
	// gridEventCommutes: an event by part of a deferred frame's threads
	// that commutes with its translations keeps the slabs deferred
	// (gridCommutes; tests turn it off). gridEventKept counts them.
	gridEventKept int64
	// gridCheckDeferred: a run of checks by a set uniform on a deferred
	// frame checks the slabs through the representative's
	// (gridCheckRun; tests turn it off). gridCheckKept counts them.
	groupSkips    int64 // group records' replays skipped by checkCells
	gridCheckKept int64

	// noGridGrp: no group record with grid threads among its members in
	// deferred slabs (thgrid_grp.go; tests); gridGrpAdmitted counts the
	// slabs deferred with one.
	gridGrpAdmitted int64
	gridRecKept     int64 // record runs on deferred slabs (gridRecordRun)
	// gridNoRawSkip replays every record gridCompare compares (tests).
	gridRawSkips int64
	// The grid nests' scratch and merge caches (gridScratch), made at
	// their first use.
	*gridScratch

	// Merged read records (thmerge.go): noGridMerge disables them
	// (tests), gridMerges counts them; grpGen changes whenever grpFrames
	// is emptied (gridScratch.mfKnown).
	gridMerges int64
	grpGen     uint64
	// Group records (thgroup.go): the grid frames whose events must be
	// uniform while groups exist, the variables that may hold groups,
	// whether any was made in this run (thread symmetry then stays off),
	// and their expansions (tests).
	grpFrames   []grpFrame
	grpVars     []grpVar
	grpMade     int64
	grpExpanded int64
	// Thread groups (thgroup.go): the frames of the groups
	// addThreadRecords made, by creator; noThreadGroups disables them
	// (tests, which compare both ways).
	tgFrames []tgFrame
	// tgTasks counts tgFrames by their executing set's task: an event of
	// a task with no frame expands nothing and skips the scan
	// (threadGroupEvent; frames outlive their groups, so the ping-pong
	// GEMM's list holds ~190 frames of other tasks at each event).
	tgTasks map[int32]int32
	// noLazyCells makes recordCells make every record at once
	// (lazycells.go; tests, which compare both ways).
	// noLazyRegions builds deferred regions before a lazy record
	// (lazyOverRegions; tests turn it on); lazyRegions counts the
	// records it kept them for, regionChecks the checks gridCheckRun
	// made over several regions.
	lazyRegions, regionChecks int64
	// noLazyGroups makes every thread group at once (lazygroups.go;
	// tests); lzTaken, lzMade: groups deferred and made.
	lzTaken, lzMade int64
	// noLazySlabs makes every deferred group that gridCompare or a walk
	// of deferred slabs meets (thgrid_lzgrp.go; tests); lzSlabKept
	// counts the copies compared without making them.
	lzSlabKept int64
	// noLazyToCells makes a lazy record at gridCompare instead of
	// moving it to the cells (thgrid_lzcell.go; tests); lazyToCells
	// counts the moves.
	lazyToCells int64
	// noGridPtsShare makes a grid's points at every entry (thgrid_pts.go;
	// tests); gridPtsShared counts the entries that took the last ones.
	gridPtsShared int64
	// gridLastPts: the last grid points made, for any nest of the same
	// steps (thgrid_pts.go).
	gridLastPts *gridPoints
	// noGridMove makes every grid entry's layout from scratch
	// (thgrid_move.go; tests); gridMoved counts the moved ones;
	// gridMoveVerify makes it beside each moved one too, gridMoveBad
	// counts the differences.
	// noGridUniform turns gridCompare's uniform regions off
	// (thgrid_uni.go; tests); gridUniSkips counts the points skipped.
	gridUniSkips           int64
	gridMoved, gridMoveBad int64
	// lazyTaken, lazyMade: recordLazy's deferrals and makeLazy's calls.
	lazyTaken, lazyMade int64
	// lastFreed: the log length when a barrier queue last died
	// (barState.freed; -1: none yet); keepDead keeps dead counts and
	// grants (tests: dropDeadPends, deadTask), deadDrops counts them.
	freeMarks []int32 // the log lengths at which queues died, increasing
	deadDrops int64
	// The read-creator index (rdindex.go): on when the program has
	// tracked sources and noRdIdx (tests) is off; the records made or
	// changed since the last rdFlush, the index by source, and the
	// read-list walks it spared (tests).
	rdPend  []int32
	rdSums  []rdSum
	rdSkips int64
	rdMiss  int // tests in a row the index did not spare a walk
	// rdVerify (tests) walks the read lists the index spared too, and
	// rdWrong counts the walks that then found a failing record.
	rdWrong int64

	// The flags, switches and 4-byte fields named above, packed: each had
	// been padded to 8 bytes among the counters and slices, 268 bytes of
	// the Machine's 3 400, which every check allocates (issue 13, stop 45).
	stop                       bool
	lite                       bool
	noPendArena                bool
	plainReplay                bool
	noTaskReplay               bool
	noCheckSkip                bool
	noEmptySkip                bool
	noAllocSame                bool
	noListBound                bool
	noDomSkip                  bool
	noReplayMemo               bool
	noReplayClass              bool
	hwExpand                   bool
	hwOnly                     bool
	hwCut                      bool
	thsymNoKeepSkip            bool
	noEmptyLoop                bool
	th2Corners                 bool
	thAny                      bool
	inVirt                     bool
	thDeadOn                   bool
	noDeadMerge                bool
	thsymClassesTwice          bool
	thsymNoBox                 bool
	thsymNo2D                  bool
	noThreadSym                bool
	thsymNoKeep                bool
	inGrid                     bool
	noGrid                     bool
	gvAny                      bool
	gridDefer                  bool
	gridEventCommutes          bool
	gridCheckDeferred          bool
	noGridGrp                  bool
	gridNoRawSkip              bool
	noGridMerge                bool
	grpAny                     bool
	noThreadGroups             bool
	noLazyCells                bool
	noLazyRegions              bool
	noLazyGroups               bool
	noLazySlabs                bool
	noLazyToCells              bool
	noGridPtsShare             bool
	noGridMove, gridMoveVerify bool
	noGridUniform              bool
	keepDead                   bool
	rdOn                       bool
	noRdIdx                    bool
	rdVerify                   bool
	task                       int32
	free                       int32
	filed                      int32 // log events filed into shared and thEv so far (fileEvents)
	lastFreed                  int32
	tick                       uint32
}

// gridScratch is the Machine's state that only grid nests use (thgrid*.go)
// and their merged read records (thmerge.go), made at its first use
// (gridScr): 240 bytes of the Machine, which every check makes, that a
// program with no grid nest never touched (issue 13, stop 45: Machine
// 2 936 -> 2 640 bytes, a 2 688-byte size class, not 3 072). It lives
// as long as the Machine, as its fields did.
type gridScratch struct {
	// gridCompare's snapshots of slab_0's records (gridSnap).
	gridSnaps []gridSnap
	gridSnapG []grant
	gridSnapP []pend
	// gridNs: gridTry's scratch.
	gridNs []int
	// gvMark (by cell, the generation gvMarkGen) and gvCells are
	// gridCheckRun's and gridRecordRun's scratch.
	gvMark    []uint64
	gvMarkGen uint64
	gvCells   []int32
	gvRuns    [][2]int32 // slabCells' scratch
	gvBitmaps [][]uint64 // gridUnlazyOutside's scratch
	// mergeShapes caches the shapes of unions (machine-local shapes
	// persist across runs); lastMerge caches its last answer; mfKnown
	// names a group whose members are in its task's merge frame as of
	// Machine.grpGen (mergeFrameAdd).
	mergeShapes map[mergeKey]int32
	lastMerge   mergeKey
	lastMergeX  int32
	lastMergeOK bool
	mfKnown     threads
	mfKnownGen  uint64
}

// gridScr makes the grid scratch if it is not made yet.
func (m *Machine) gridScr() {
	if m.gridScratch == nil {
		m.gridScratch = new(gridScratch)
	}
}

// New prepares a machine for p. p must be Finished.
func New(p *Program, cfg Config) *Machine {
	if cfg.MaxHazards <= 0 {
		cfg.MaxHazards = 10
	}
	m := &Machine{p: p, cfg: cfg, noThreadSym: cfg.NoThreadSym, noGrid: cfg.NoThreadSym, gridDefer: true, gridEventCommutes: true, gridCheckDeferred: true}
	if p.MbarQual != 0 {
		m.mbarSet = Of(p.MbarQual)
	}
	// The shapes' thread lists and membership bitmaps share two backing
	// arrays, sized first: a small check's New had allocated each list by
	// appending, twice (issue 13, stop 26).
	ns := len(p.Shapes)
	r := &m.newRoom
	if ns <= len(r.shapes) {
		m.shapes, m.member = r.shapes[:ns], r.member[:ns]
		m.dense, m.single = r.dense[:ns], r.single[:ns]
	} else {
		m.shapes, m.member = make([][]int32, ns), make([][]uint64, ns)
		m.dense, m.single = make([]int32, ns), make([]bool, ns)
	}
	m.recs.tab = r.recTab[:0]
	nt := 0
	for i := range p.Shapes {
		nt += p.Shapes[i].Len() // a capacity hint
	}
	var tsAll []int32
	nw := 0
	for i := range p.Shapes {
		// A dense shape's list is a prefix of the ascending table
		// (asctable.go): no enumeration, no copy.
		ts := ascPrefix(denseLen(&p.Shapes[i]))
		if len(ts) == 0 || noAscShapes {
			if tsAll == nil {
				tsAll = make([]int32, 0, nt)
			}
			at := len(tsAll)
			tsAll = coll.AppendThreadsTo(tsAll, &p.Shapes[i])
			ts = tsAll[at:len(tsAll):len(tsAll)]
		}
		if len(ts) > 0 {
			m.shapes[i] = ts
			nw += int(ts[len(ts)-1])/64 + 1
		}
	}
	// The bitmaps share one backing array, sized by a first pass (one
	// allocation a shape had been 1-3 of a small check's New; issue 13,
	// stop 41: amir).
	var words []uint64
	if nw <= len(r.words) {
		words = r.words[:nw]
	} else {
		words = make([]uint64, nw)
	}
	for i := range p.Shapes {
		ts := m.shapes[i]
		n := int32(0)
		if len(ts) > 0 && ts[len(ts)-1] == int32(len(ts)-1) {
			n = int32(len(ts)) // increasing and distinct: 0..n-1
		}
		if len(ts) > 0 {
			k := int(ts[len(ts)-1])/64 + 1
			bm := words[:k:k]
			words = words[k:]
			if n > 0 {
				// Threads 0..n-1: whole words, then the last one's
				// low bits (a CTA's 256 threads had been set one by
				// one, ~5 K instructions of a small check's New;
				// issue 13, stop 32).
				for w := range bm {
					bm[w] = ^uint64(0)
				}
				if r := n % 64; r != 0 {
					bm[len(bm)-1] = 1<<r - 1
				}
			} else {
				for _, t := range ts {
					bm[t/64] |= 1 << (t % 64)
				}
			}
			m.member[i] = bm
		}
		m.dense[i] = n
		m.single[i] = len(ts) == 1 && ts[0] == 0
	}
	return m
}

// machineRoom is the room a small program's New needs, inside the
// Machine: the shapes' lists, bitmaps, density and single marks (five
// allocations of a small check's New, each a few dozen bytes; issue 13,
// stop 41: amir) and the record table's first entries (recSlab.grow's
// first append). A program with more shapes or wider ones allocates as
// before; shapes interned later (internShape) append past the room.
type machineRoom struct {
	shapes [4][]int32
	member [4][]uint64
	dense  [4]int32
	single [4]bool
	words  [8]uint64
	recTab [8]*[recChunk]record // 64 records (stop 45: chunks of 8)
}

// runRoom is the room a small program's Run needs, in one object: the
// environment, the per-variable thread-symmetry and grid states, the
// first task runs and shared events of the log, the first chunks of
// thread frames and of the variables' per-dimension state (carveInts,
// carveDims), the log's and its cells' first room had been about a dozen
// allocations of a small check's Run,
// each a few dozen bytes (append grew the task runs and the shared list
// from one entry; issue 13, stop 41: amir). A program that outgrows a
// piece allocates as before. A new room each run: the last run's slices
// may still be referenced.
//
// It holds 14 slots, 6 variables and 6 dimensions (5 ints each), as
// Finish's room 6 variables (issue 13, stop 45: 16 slots, 8 variables
// and 8 dimensions had made it 1 392 bytes, 1 408 with its malloc
// header; 1 264 now, a 1 280-byte size class). The log's and its cells'
// first room stay 8: the memory estimate counts their capacity.
type runRoom struct {
	env        [14]int
	thVars     [6]*thVar
	gv         [6]*gridVirt
	taskRuns   [4]taskRun
	shared     [4]int32
	thFrames   [8]*thFrame
	thFrameBuf [8]thFrame
	ints       [30]int
	dims       [6]dimInfo
	log        [8]event
	ev         [8]pend
}

// Run executes the program for the control parameter values args (in the
// order of Program.Params).
func (m *Machine) Run(args []int) *Result {
	p := m.p
	// A small program's per-run slices come from one object (runRoom).
	r := new(runRoom)
	if len(p.Slots) <= len(r.env) {
		m.env = r.env[:len(p.Slots)]
	} else {
		m.env = make([]int, len(p.Slots))
	}
	for i, slot := range p.Params {
		if i < len(args) {
			m.env[slot] = args[i]
		}
	}
	m.task = 0
	m.runs++
	m.taskCoords = m.taskCoords[:0]
	m.taskProd, m.cellsLive, m.tick = 1, 0, 0
	m.lite = false
	// The run's maps (seen, thSubs) are made when first written:
	// most small checks write none of them (issue 13, stop 32: four
	// small maps a run, ~1.3 K instructions).
	m.doneGen++ // no loop is done in this run
	m.taskDepth = 0
	m.vars = make([]varState, len(p.Vars))
	for i := range m.vars {
		m.vars[i].local = p.Vars[i].TaskLocal
	}
	m.recs.reset()
	m.free = -1
	m.rdReset()
	m.grantArena = nil // its chunks grow from the smallest again (grantStore)
	m.pendArena = nil  // likewise (pendStore)
	m.bars = m.bars[:0]
	m.barExt = m.barExt[:0]
	m.lastFreed, m.freeMarks = -1, m.freeMarks[:0]
	m.log, m.evCells = m.log[:0], m.evCells[:0]
	m.shared, m.filed = m.shared[:0], 0
	m.taskRuns = m.taskRuns[:0]
	m.replayMemoReset() // the log restarts
	// So does the last replay class: it is keyed on log positions,
	// which another run's log fills with other events (stop 42;
	// TestReplayClassNotKeptAcrossRuns).
	m.rclass.ok = false
	for i := range m.thEv {
		m.thEv[i] = m.thEv[i][:0]
	}
	// Size the log as the last run of p needed: runs of one program
	// differ only in sizes and disabled syncs. A short one (a first run's
	// hint of one event per event statement) is the room's.
	if cap(m.log) < p.logHint || m.log == nil {
		if p.logHint <= len(r.log) {
			m.log = r.log[:0]
		} else {
			m.log = make([]event, 0, p.logHint)
		}
	}
	if cap(m.evCells) < p.evHint || m.evCells == nil {
		if p.evHint <= len(r.ev) {
			m.evCells = r.ev[:0]
		} else {
			m.evCells = make([]pend, 0, p.evHint)
		}
	}
	m.res = Result{}
	m.seen = nil
	m.thFrames, m.thAny, m.inVirt = m.thFrames[:0], false, false
	if m.thFrames == nil {
		m.thFrames = r.thFrames[:0]
	}
	m.thFrameBuf = r.thFrameBuf[:0]                 // the last run's frames may still be referenced
	m.intArena, m.dimArena = r.ints[:0], r.dims[:0] // as carveInts' chunks
	m.thNoAdopt = m.thNoAdopt[:0]
	m.thClassSeen = m.thClassSeen[:0]
	m.hwVars, m.hwOnly, m.reuseBad = m.hwVars[:0], false, nil
	if len(p.Vars) <= len(r.thVars) {
		m.thVars, m.gv = r.thVars[:len(p.Vars)], r.gv[:len(p.Vars)]
	} else {
		m.thVars, m.gv = make([]*thVar, len(p.Vars)), make([]*gridVirt, len(p.Vars))
	}
	if m.taskRuns == nil {
		m.taskRuns, m.shared = r.taskRuns[:0], r.shared[:0]
	}
	m.grpFrames, m.grpVars, m.grpAny = m.grpFrames[:0], m.grpVars[:0], false
	m.grpGen++
	m.tgFrames = m.tgFrames[:0]
	clear(m.tgTasks)
	m.gridNests, m.gridNestFree, m.gridBackoff = nil, nil, nil // made at the first grid entry (gridNestOf)
	m.gridLastPts = nil
	m.gvAny = false
	m.thSubs = nil
	m.gen++
	m.stop = false
	for i := range p.Vars {
		if p.Vars[i].Param {
			m.alloc(i, p.Vars[i].Dims, 0)
		}
	}
	m.exec(p.Body)
	if listBoundCheck {
		for i := range m.vars {
			m.vars[i].checkListBound()
		}
	}
	m.res.Stats.Memory = m.MemoryBytes()
	if len(m.log) > p.logHint {
		p.logHint = len(m.log)
	}
	if len(m.evCells) > p.evHint {
		p.evHint = len(m.evCells)
	}

	return &m.res
}

func (m *Machine) fault(src int, format string, args ...any) {
	if len(m.res.Faults) < 20 {
		m.res.Faults = append(m.res.Faults, Fault{Src: src, Msg: fmt.Sprintf(format, args...)})
	}
	m.stop = true
}

// limit stops the run at src: resource limit name (Fault.Limit) is reached.
func (m *Machine) limit(src int, name, format string, args ...any) {
	m.res.Faults = append(m.res.Faults, Fault{Src: src, Msg: fmt.Sprintf(format, args...), Limit: name})
	m.stop = true
}

// Sizes of the machine's state, for MaxMemory.
const (
	recordBytes = int64(unsafe.Sizeof(record{}))
	eventBytes  = int64(unsafe.Sizeof(event{}))
	cellBytes   = int64(unsafe.Sizeof(cell{}))
	grantBytes  = int64(unsafe.Sizeof(grant{}))
	pendBytes   = int64(unsafe.Sizeof(pend{}))
	barBytes    = int64(unsafe.Sizeof(barState{}))
)

// MemoryBytes estimates the bytes the machine's state takes: the allocated
// sizes of its cells, record slab and grant arena, event log, barriers and
// task coordinates (not the records' own grant and pend lists beyond the
// arena, nor the garbage collector's overhead).
func (m *Machine) MemoryBytes() int64 {
	b := m.recs.bytes() + int64(cap(m.grantArena))*grantBytes +
		int64(cap(m.log))*eventBytes + int64(cap(m.evCells))*pendBytes +
		int64(cap(m.bars))*barBytes + int64(cap(m.taskCoords))*8 +
		int64(cap(m.shared))*4
	for _, t := range m.thEv {
		b += int64(cap(t)) * 4
	}
	for i := range m.vars {
		b += int64(cap(m.vars[i].cells)) * cellBytes
	}
	return b
}

// overMemory reports (and stops the run at src) whether the state is
// larger than Config.MaxMemory.
func (m *Machine) overMemory(src int) bool {
	if m.cfg.MaxMemory <= 0 {
		return false
	}
	if b := m.MemoryBytes(); b > m.cfg.MaxMemory {
		m.limit(src, "memory", "the checker's state takes about %d bytes, more than the memory limit of %d bytes", b, m.cfg.MaxMemory)
		return true
	}
	return false
}

func (m *Machine) disabled(s *Stmt) bool {
	return s.Sync >= 0 && s.Sync < len(m.cfg.Disabled) && m.cfg.Disabled[s.Sync]
}

// execBody runs s's body (its fused form when it has one).
func (m *Machine) execBody(s *Stmt) {
	if s.fused != nil {
		m.execList(s.fused)
		return
	}
	m.execList(s.Body)
}

func (m *Machine) execList(body []*Stmt) {
	for _, s := range body {
		if m.stop {
			return
		}
		if m.lite && !s.keepLite && !s.checkLite {
			continue
		}
		if s.Kind == kRun {
			m.execRun(s)
			continue
		}
		if s.Kind >= KRecordRead {
			// Recording, sync and check statements: dispatched here,
			// the hot path (exec's default case).
			if s.Sync >= 0 && m.disabled(s) {
				continue
			}
			m.effect(s)
			continue
		}
		m.exec(s)
	}
}

func (m *Machine) exec(s *Stmt) {
	if m.lite && !s.keepLite && !s.checkLite {
		return
	}
	switch s.Kind {
	case KBlock:
		m.execBody(s)
	case KLoop:
		m.execLoop(s)
	case KIf:
		if s.Cond(m.env) {
			if m.thDeadOn {
				m.execDeadIf(s)
			} else {
				m.execBody(s)
			}
		}
	case KIncTaskID:
		if m.cfg.MaxMemOps > 0 && m.res.Stats.MemOps > m.cfg.MaxMemOps {
			m.fault(s.Src, "the check stopped after %d memory operations", m.res.Stats.MemOps)
			return
		}
		if m.cfg.MaxTasks > 0 && m.res.Stats.Tasks >= m.cfg.MaxTasks {
			m.limit(s.Src, "tasks", "the check would run more than %d tasks", m.cfg.MaxTasks)
			return
		}
		if m.overMemory(s.Src) {
			return
		}
		m.task++
		for _, s := range m.p.TaskSlots {
			m.taskCoords = append(m.taskCoords, m.env[s])
		}
		m.res.Stats.Tasks++
		if len(m.hwVars) > 0 && !m.lite {
			m.hwNextTask()
		}
	case KAlloc:
		if m.thAny && !m.inVirt {
			m.thsymTouch(s)
		}
		if m.gvAny {
			m.gridVirtDrop(s.Acc.Var) // its cells are all freed
		}
		m.alloc(s.Acc.Var, s.Dims, s.Src)
	default:
		if m.disabled(s) {
			return
		}
		m.effect(s)
	}
}

// execLoop runs a KLoop (apart from exec so that exec has no defer).
func (m *Machine) execLoop(s *Stmt) {
	lo, hi := s.Lo(m.env), s.Hi(m.env)
	if s.Tasks {
		// Symmetry holds within one execution of a task-loop nest:
		// slots outside it (enclosing seq loops, inlined arguments)
		// may differ between executions.
		if m.taskDepth == 0 {
			m.doneGen++ // a new nest: no loop of it is done
			// A new launch: its kernel initializes fresh mbarriers.
			m.hwDrop()
		}
		if m.cfg.MaxTasks > 0 && hi > lo && !m.lite {
			// Refuse a task nest too large before running any of it:
			// the tasks still to come of the enclosing loops are not
			// counted, those already run are.
			n := int64(hi - lo)
			if m.taskProd > m.cfg.MaxTasks/n || m.res.Stats.Tasks+m.taskProd*n > m.cfg.MaxTasks {
				prod := "more than the limit"
				if m.taskProd <= (1<<62)/n {
					prod = fmt.Sprint(m.taskProd * n)
				}
				m.limit(s.Src, "tasks", "these cuda_tasks loops launch %s tasks; the checker's limit is %d", prod, m.cfg.MaxTasks)
				return
			}
			outer := m.taskProd
			m.taskProd *= n
			defer func() { m.taskProd = outer }()
		}
		m.taskDepth++
		defer func() { m.taskDepth-- }()
	}
	if m.lite && !s.keepLite && s.box != nil && hi > lo && m.boxInBounds(s, lo, hi) {
		// Only bounds checks to run, and all pass (lite.go).
		return
	}
	if m.th2Inner == s {
		hi = min(hi, lo+1) // the inner loop of a virtual 2-D nest (thsym2d.go)
	}
	if m.inGrid {
		for _, ax := range m.gridInner {
			if ax == s && hi > lo {
				hi = lo + 1 // an inner axis of a grid nest (thgrid.go)
			}
		}
	}
	if s.emptyLoop() && !m.noEmptyLoop && m.hwClk == nil && m.cfg.MaxMemOps == 0 {
		m.skipEmptyLoop(s, lo, hi)
		return
	}
	var thr *thRun
	var grid *gridRT
	realHi := hi
	// Group records (thgroup.go) stand for one-thread records that events
	// tell apart: a loop with events does not run virtually while any
	// exists; a loop with none touches no group (thsymEnter refuses
	// owned slices holding one, private variables are reallocated).
	// A quiet loop runs virtually beside groups only in a program with
	// no grid nest (Program.thExt, which also means s.grid == nil): in
	// the TMA tester, its 248-thread loops beside warp 0's TMA groups
	// had records one per thread that every later check walked (8-9 ms),
	// where grid symmetry's deferred slabs take 1.7 ms.
	// A pending plan (thPending, th2Pending) is asked for after the
	// other tests: it is made at the first ask (plan_lazy.go).
	if s.thsym != nil && hi-lo >= 2 && !m.inVirt && !m.inGrid && !m.gvAny && !m.noThreadSym && m.cfg.MaxMemOps == 0 && m.p.thPlanOf(s) != nil && (!m.grpAny || s.thsym.quiet && m.p.thExt) {
		if len(s.thsym.yconds) > 0 {
			// Conditions on the thread: classes of iterations.
			if m.thsymClasses(s, lo, hi) {
				return
			}
		} else if thr = m.thsymEnter(s, lo, hi); thr != nil {
			// Thread symmetry (thsym.go): the first thread runs, the
			// others are counted.
			hi = lo + 1
			m.inVirt = true // reset on every return below (no defer: stop 31)
		}
	} else if s.th2 != nil && hi-lo >= 2 && !m.inVirt && !m.inGrid && !m.gvAny && !m.noThreadSym && m.cfg.MaxMemOps == 0 && m.p.th2PlanOf(s) != nil {
		if thr = m.th2Enter(s, lo, hi); thr != nil {
			// A 2-D nest (thsym2d.go): its first thread runs one
			// iteration of the inner loop.
			hi = lo + 1
			m.inVirt, m.th2Inner = true, s.th2.inner
		}
	}
	if thr == nil && s.grid != nil && hi-lo >= 1 && !m.inVirt && !m.inGrid && !m.thAny && !m.lite && !m.noGrid && m.cfg.MaxMemOps == 0 {
		if grid = m.gridEnter(s, lo, hi); grid != nil {
			// Grid symmetry (thgrid.go): the first point runs, the
			// others' state is built from it afterwards.
			hi = lo + 1
			m.inGrid, m.gridInner = true, grid.pl.axes[1:]
			m.gridRuns++ // inGrid reset on every return below
		}
	}
	top := s.Tasks && m.tasksTotal == 0
	if top && m.cfg.Progress != nil && hi > lo {
		m.tasksTotal = int64(hi - lo)
		m.cfg.Progress(0, m.tasksTotal)
	}
	// Planning costs about what an iteration's evaluation saves: a loop
	// of two iterations evaluates each one (issue 13, stop 28: shfl_xor's
	// pairs of lanes, entered 384 times a check).
	hoist := (len(s.hoist) > 0 || len(s.hoistGS) > 0) && hi-lo >= hoistMinTrips && !m.lite
	if hoist {
		m.env[s.Slot] = lo // as the first iteration sets it
		for k := range s.hoist {
			m.planHoist(s, &s.hoist[k], lo, hi)
		}
		for _, p := range s.hoistGS {
			m.planGS(s, p, lo)
		}
	}
	for i := lo; i < hi && !m.stop; i++ {
		m.env[s.Slot] = i
		m.gen++
		if m.hwClk != nil && !s.Tasks && m.clkRound(s, hi, thr == nil && grid == nil && !hoist) {
			break // a round of the mbarrier clocks; the rest made (round_skip.go)
		}
		if hoist {
			m.fillHoisted(s, i)
			m.fillGS(s, i)
		}
		if m.cfg.MaxMemOps > 0 && m.res.Stats.MemOps > m.cfg.MaxMemOps {
			m.fault(s.Src, "the check stopped after %d memory operations", m.res.Stats.MemOps)
			m.loopExit(thr, grid)
			return
		}
		if m.tick++; m.tick&255 == 0 && m.overMemory(s.Src) {
			m.loopExit(thr, grid)
			return
		}
		if s.symmetric && !m.lite {
			if s.doneM == m && s.doneGen == m.doneGen {
				m.lite = true
				m.execBody(s)
				m.lite = false
				m.res.Stats.MemOps += m.firstOps
				m.res.Stats.SkippedOps += m.firstOps
			} else {
				m.localOps = 0
				m.execBody(s)
				m.firstOps = m.localOps
				s.doneM, s.doneGen = m, m.doneGen
				// The next task of a persistent CTA continues the
				// first one's mbarriers (mbar.go, "across tasks").
				m.phantoms(s)
			}
		} else {
			m.execBody(s)
		}
		if top && m.cfg.Progress != nil {
			m.tasksDone++
			m.cfg.Progress(m.tasksDone, m.tasksTotal)
		}
	}
	if top {
		m.tasksTotal, m.tasksDone = 0, 0
	}
	if thr != nil && !m.stop {
		m.inVirt = false
		m.thsymLeave(thr)
		m.env[s.Slot] = realHi - 1 // as after the last iteration
		if t := m.th2Inner; t != nil {
			m.env[t.Slot] = m.th2Hi - 1
			m.th2Inner = nil
		}
		m.gen++
	}
	if grid != nil && !m.stop {
		m.inGrid, m.gridInner = false, nil
		m.gridLeave(grid)
		m.env[s.Slot] = realHi - 1 // as after the last point
		for k, ax := range grid.pl.axes[1:] {
			m.env[ax.Slot] = grid.los[k+1] + grid.ns[k+1] - 1
		}
		m.gen++
	}
	m.loopExit(thr, grid)
}

// emptyLoop reports whether s is a loop whose body has no statement
// (an empty kernel's `pass`) and that nothing else makes iterate: not a
// task loop (task depth, symmetric tasks, progress), with no symmetry
// plan and nothing hoisted.
func (s *Stmt) emptyLoop() bool {
	body := s.Body
	if s.fused != nil {
		body = s.fused
	}
	return len(body) == 0 && !s.Tasks && !s.symmetric && s.thsym == nil && s.th2 == nil && s.grid == nil &&
		len(s.hoist) == 0 && len(s.hoistGS) == 0
}

// skipEmptyLoop leaves the state as execLoop's iterations of empty loop s
// over [lo, hi) leave it, without iterating (issue 13, stop 36: an empty
// 32-thread kernel's loop was ~2.8 K of its 9.4 K instructions of
// machine). An iteration sets the iterator, renews the generation and
// ticks; the memory test of every 256th tick sees the state unchanged
// since the loop began, so one test stands for all (a fault stops the
// run, as the first failing test would; the iterator and generation
// then differ, and nothing reads them after a stop).
func (m *Machine) skipEmptyLoop(s *Stmt, lo, hi int) {
	if hi <= lo || m.stop {
		return
	}
	n := hi - lo
	m.emptyLoops++
	m.env[s.Slot] = hi - 1
	m.gen += uint64(n)
	t0 := m.tick
	m.tick += uint32(n)
	if uint64(t0&255)+uint64(n) >= 256 {
		m.overMemory(s.Src) // a multiple of 256 in (t0, t0+n]
	}
}

// loopExit clears the virtual and grid marks execLoop set for thr and
// grid (as deferred calls had: a deferred closure cost about 150
// instructions an entry, 32 entries a check in per_cta_alloc).
func (m *Machine) loopExit(thr *thRun, grid *gridRT) {
	if thr != nil {
		m.inVirt, m.th2Inner = false, nil
	}
	if grid != nil {
		m.inGrid, m.gridInner = false, nil
		gridFree(grid)
	}
}

// gs computes g_s(σ, ι).
func (m *Machine) gs(s *Stmt) threads {
	if s.Exec.All {
		return threads{task: allTasks}
	}
	c := s.gsc
	if c == nil {
		return m.computeGS(s)
	}
	if c.owner == m && c.gen == m.gen && c.val.task == m.task {
		return c.val
	}
	t := m.computeGS(s)
	c.owner, c.gen, c.val = m, m.gen, t
	return t
}

func (m *Machine) computeGS(s *Stmt) threads {
	start := 0
	if af := s.Exec.StartAff; af != nil {
		start = af.K
		for _, t := range af.Terms {
			start += t.Coef * m.env[t.Slot]
		}
	} else if s.Exec.Start != nil {
		start = s.Exec.Start(m.env)
	}
	return threads{task: m.task, start: int32(start), shape: int32(s.Exec.Shape)}
}

// alloc implements ALLOC (Fig. 22): every cell gets (∅, ∅, (0, 0)).
func (m *Machine) alloc(v int, dimExprs []IntExpr, src int) {
	m.gen++
	st := &m.vars[v]
	pv := &m.p.Vars[v]
	if st.live && pv.Barrier {
		m.freeBars(st.bar0, st.total)
	}
	if st.live && pv.RingDepth > 0 {
		m.hwFree(st)
	}
	// A lag ring's hardware state continues into this incarnation
	// (varState.hw); the old incarnation's cells are remembered to
	// carry it over once the new ones exist.
	carry := st.live && len(st.hw) > 0 && !m.lite
	oldBar0, oldTotal := st.bar0, st.total
	if !carry {
		st.hwCount = 0
	}
	if st.live && (st.hasReads || st.hasMuts || m.noEmptySkip) {
		// With neither flag every list is empty (varState.hasReads):
		// nothing to free. Else only a cell with a list is freed: a
		// negative head is an empty list, which freeList leaves as is,
		// and r&w < 0 holds exactly when both heads are negative
		// (per_cta_alloc's second CTA freed its tile's 256 cells, two
		// calls each, where one cell holds records: Machine.alloc
		// 8.9 K instructions a check; issue 13, stop 40: sym40).
		// Four cells are tested at a time, as nextList does: their
		// eight heads are all negative exactly when their AND is.
		cs := m.listCells(st)
		i := 0
		for ; i+4 <= len(cs); i += 4 {
			q := cs[i : i+4 : i+4]
			if q[0].reads&q[0].muts&q[1].reads&q[1].muts&q[2].reads&q[2].muts&q[3].reads&q[3].muts < 0 {
				continue
			}
			for k := range q {
				m.freeList(q[k].reads)
				m.freeList(q[k].muts)
			}
		}
		for ; i < len(cs); i++ {
			if r, w := cs[i].reads, cs[i].muts; r&w >= 0 {
				m.freeList(r)
				m.freeList(w)
			}
		}
	}
	st.lazy = false // its records die unmade (lazycells.go)
	st.dropLazyGroups()
	st.live = true
	st.hasRecs, st.hasReads, st.hasMuts = false, false, false
	m.epochs++
	st.epoch = m.epochs
	n := len(dimExprs)
	// A reallocation of the same extents (a private variable of a
	// loop body, each iteration) keeps the per-dimension state as it
	// is: gran, shift, blocks, strides and dim are functions of the
	// extents and Var.Gran alone, each set in full by the last
	// allocation, whose extents were these (a negative one was stored
	// as 0, which no negative extent equals). The extents are read
	// again below otherwise (IntExprs read env only). (rmem_uniform:
	// 19 allocations a check; issue 13, stop 40: sym40.)
	total := 1
	same := len(st.dims) == n && len(st.dim) == n && !m.noAllocSame
	for i := n - 1; same && i >= 0; i-- {
		same = dimExprs[i](m.env) == st.dims[i]
		total *= st.blocks[i]
	}
	if same {
		m.allocSame++
	} else {
		if cap(st.dims) < n || cap(st.gran) < n {
			// One backing array for the five (each is set in full below): a
			// small kernel's allocations made eleven objects per variable
			// (issue 13, stop 26).
			b := m.carveInts(5 * n)
			st.dims, st.blocks, st.strides = b[:n:n], b[n:2*n:2*n], b[2*n:3*n:3*n]
			st.gran, st.shift = b[3*n:4*n:4*n], b[4*n:5*n:5*n]
		}
		if cap(st.dim) < n {
			st.dim = m.carveDims(n)
		}
		st.shift = st.shift[:n]
		st.dims, st.blocks, st.strides, st.gran = st.dims[:n], st.blocks[:n], st.strides[:n], st.gran[:n]
		total = 1
		for i := n - 1; i >= 0; i-- {
			d := dimExprs[i](m.env)
			if d < 0 {
				m.fault(src, "%s: negative extent %d", pv.Name, d)
				d = 0
			}
			g := 1
			if i < len(pv.Gran) {
				g = pv.Gran[i]
				if g == 0 {
					g = d // only whole-extent windows: one block
				}
				if g < 1 {
					g = 1
				}
			}
			st.gran[i] = g
			st.shift[i] = -1
			if g&(g-1) == 0 {
				st.shift[i] = bits.TrailingZeros(uint(g))
			}
			st.dims[i] = d
			st.blocks[i] = (d + g - 1) / g
			st.strides[i] = total
			total *= st.blocks[i]
		}
		st.dim = st.dim[:0]
		for i := 0; i < n; i++ {
			st.dim = append(st.dim, dimInfo{extent: st.dims[i], gran: st.gran[i], shift: st.shift[i], stride: st.strides[i]})
		}
	}
	if total > 1<<28 {
		m.fault(src, "%s has %d tracked cells; the checker's limit is %d", pv.Name, total, 1<<28)
		total = 0
	}
	if !pv.noCells && m.cfg.MaxCells > 0 {
		m.cellsLive -= int64(len(st.cells))
		if m.cellsLive+int64(total) > m.cfg.MaxCells {
			m.limit(src, "cells", "allocating %s (%d tracked cells) would make %d tracked cells in all, more than the checker's limit of %d", pv.Name, total, m.cellsLive+int64(total), m.cfg.MaxCells)
			total = 0
		}
		m.cellsLive += int64(total)
	}
	st.total = total
	if pv.noCells {
		// No live statement records or checks it (an input only read,
		// say): its cells would never be looked at.
		st.cells = st.cells[:0]
	} else {
		if cap(st.cells) < total {
			if mx := m.cfg.MaxMemory; mx > 0 {
				if b := m.MemoryBytes() + int64(total)*cellBytes; b > mx {
					m.limit(src, "memory", "allocating %s (%d tracked cells) would make the checker's state about %d bytes, more than the memory limit of %d bytes", pv.Name, total, b, mx)
					total = 0
					st.total = 0
				}
			}
			st.cells = make([]cell, total)
		}
		st.cells = st.cells[:total]
		m.vers++
		// Through locals: a store through st.cells may alias st and m,
		// so the loop had reloaded the slice and m.vers and tested the
		// bound at every cell (per_cta_alloc: alloc 5.9 K -> 5.1 K
		// instructions a check; issue 13, stop 34: grid34).
		fillCells(st.cells, cell{-1, -1, m.vers})
	}
	st.listLo, st.listHi = 0, 0 // every list empty (listbound.go)
	if pv.Barrier {
		st.bar0 = int32(len(m.bars))
		for len(m.bars)+total > cap(m.bars) {
			m.bars = grow2(m.bars)
		}
		m.bars = m.bars[:len(m.bars)+total]
		clear(m.bars[st.bar0:])
		st.hwPhys = nil
		if carry {
			m.hwCarryOver(v, oldBar0, oldTotal)
		}
		if pv.RingDepth > 0 && pv.PreArrive > 0 {
			// CudaMbarrierPreArrive(d): logical barriers [0, d) of each
			// slice are arrived once before the program's first Arrive.
			m.preArrive(st, pv, total)
		}
	}
}

// preArrive arrives once, at allocation, on each of st's total barriers
// whose index along pv.RingDim (coords' element coordinate: the block
// index times the dimension's granule) is below pv.PreArrive.
//
// The index is counted, not computed by coords for every cell (a slice
// made and divisions a cell: the three-ring pipeline's 162 barriers took
// ~20 K instructions a check; issue 13, stop 42). Flat indices are mixed
// radix: strides[d] is the product of blocks[d+1:] (alloc), so along
// i = 0, 1, ... coords' quotient q at RingDim (i / strides[rd], less the
// outer dimensions' multiples of blocks[rd]) stays for strides[rd] cells,
// then steps by one and wraps to 0 after blocks[rd] steps: the counter
// below. TestPreArriveCounted compares it with coords.
func (m *Machine) preArrive(st *varState, pv *Var, total int) {
	rd := pv.RingDim
	if rd >= len(st.dims) {
		return // coords has no such coordinate
	}
	stride, blocks, gran := st.strides[rd], st.blocks[rd], st.gran[rd]
	bars := m.bars[st.bar0 : int(st.bar0)+total]
	q, k := 0, 0
	for i := range bars {
		if q*gran < pv.PreArrive {
			bars[i].a = 1
		}
		if k++; k == stride {
			k = 0
			if q++; q == blocks {
				q = 0
			}
		}
	}
}

// hasKind reports whether a list of st of the kind reads (read lists, else
// mutate lists) may hold a record.
func (st *varState) hasKind(reads bool) bool {
	if reads {
		return st.hasReads
	}
	return st.hasMuts
}

// carveInts returns n zeroed ints of the run's int arena (capacity n:
// the five per-dimension slices of a variable, carved from one chunk for
// all variables; a small kernel's allocations had made two objects a
// variable; issue 13, stop 32).
func (m *Machine) carveInts(n int) []int {
	if len(m.intArena)+n > cap(m.intArena) {
		m.intArena = make([]int, 0, max(n, 80))
	}
	at := len(m.intArena)
	m.intArena = m.intArena[:at+n]
	return m.intArena[at : at+n : at+n]
}

// carveDims returns an empty dimInfo slice of capacity n from the run's
// arena (as carveInts).
func (m *Machine) carveDims(n int) []dimInfo {
	if len(m.dimArena)+n > cap(m.dimArena) {
		m.dimArena = make([]dimInfo, 0, max(n, 16))
	}
	at := len(m.dimArena)
	m.dimArena = m.dimArena[:at+n]
	return m.dimArena[at : at : at+n]
}

func (m *Machine) freeList(h int32) {
	for h >= 0 {
		r := m.rec(h)
		next := r.next
		r.next = m.free // grants and pend are reset when it is reused (addRecord)
		r.grp = 0       // no longer a group (a thread-group frame may still list it)
		m.free = h
		h = next
	}
}

// cells evaluates an access to the flat block indices it touches (E#-Acc,
// Fig. 6), in m.cellBuf. It reports false after a fault.
func (m *Machine) cells(a *Access, src int) ([]int32, bool) {
	return m.cellsSlow(a, &m.vars[a.Var], src)
}

// cellsSlow is cells on st, a's variable's state (execRun tries
// cellsRigid first).
func (m *Machine) cellsSlow(a *Access, st *varState, src int) ([]int32, bool) {
	cs, ok := m.cellsOf(st, a, src)
	if ok && st.lzN > 0 {
		m.makeLazyGroupsIn(st, cs) // lazygroups.go
	}
	return cs, ok
}

// cellsRigid is cells for an access with a rigid form (nearly every
// access a thread of a nest makes), with the steps cells, cellsOf,
// evalCellsOf and rigidCells take for it done here: no lazy record or
// deferred group on the variable to make, no valid cache, a live
// variable (its form's dimensions then are a.Idx's and the variable's),
// the base block in bounds; the cache is left as cellsOf leaves it.
// Anything else is cells' (ok false here, nothing changed but a form
// prepared, as rigidBase would have prepared it there). Issue 13, stop
// 46: the five calls had been ~150 instructions of each of shfl_xor's
// ~100 runs a check.
func (m *Machine) cellsRigid(a *Access, st *varState) ([]int32, bool) {
	r := a.rig
	if r == nil || !st.live || st.lazy || st.lzN > 0 || a.cacheOwner == m && a.cacheGen == m.gen {
		return nil, false
	}
	base, ok := m.rigidBase(r, st)
	if !ok {
		return nil, false
	}
	cs := addPattern(a.cacheCells[:0], r.pattern, int32(base))
	a.cachePat = nil
	a.cacheOwner, a.cacheGen = m, m.gen
	a.cacheCells = cs
	return cs, true
}

// cellsOnly is cells without making the cells' deferred thread groups
// (a walk of deferred slabs makes those it reads: thgrid_lzgrp.go).
func (m *Machine) cellsOnly(a *Access, src int) ([]int32, bool) {
	return m.cellsOf(&m.vars[a.Var], a, src)
}

// cellsOf is cellsOnly on st, a's variable's state (found once: cells,
// cellsOnly and evalCells had each indexed m.vars, about 15 instructions
// a time, at each of rmem_uniform's 57 accesses a check; issue 13, stop
// 40: sym40).
func (m *Machine) cellsOf(st *varState, a *Access, src int) ([]int32, bool) {
	if st.lazy {
		m.makeLazy(st)
	}
	if a.cacheOwner == m && a.cacheGen == m.gen {
		if a.cachePat != nil {
			hoistCells(a) // hoist.go
		}
		return a.cacheCells, true
	}
	cs, ok := m.evalCellsOf(st, a, src, a.cacheCells[:0])
	if cap(cs) > cap(a.cacheCells) {
		a.cacheCells = cs[:0]
	}
	a.cachePat = nil
	if ok {
		a.cacheOwner, a.cacheGen = m, m.gen
		a.cacheCells = cs
	}
	return cs, ok
}

func (m *Machine) evalCells(a *Access, src int, buf []int32) ([]int32, bool) {
	return m.evalCellsOf(&m.vars[a.Var], a, src, buf)
}

// evalCellsOf is evalCells on st, a's variable's state.
func (m *Machine) evalCellsOf(st *varState, a *Access, src int, buf []int32) ([]int32, bool) {
	if !st.live {
		m.fault(src, "%s is used before its allocation", m.p.Vars[a.Var].Name)
		return nil, false
	}
	di := st.dim
	n := len(di)
	if len(a.Idx) == 0 {
		// The whole variable: every block, in increasing flat order
		// (a copy of the ascending table's prefix where it has one).
		if t := ascPrefix(st.total); t != nil {
			return addPattern(buf, t, 0), true
		}
		buf = slices.Grow(buf, st.total)
		for i := 0; i < st.total; i++ {
			buf = append(buf, int32(i))
		}
		return buf, true
	}
	if len(a.Idx) != n {
		m.fault(src, "%s has %d dimensions, accessed with %d indices", m.p.Vars[a.Var].Name, n, len(a.Idx))
		return nil, false
	}
	if a.rig == nil && !a.notRigid {
		a.rig = m.compileRigid(a)
		a.notRigid = a.rig == nil
	}
	if a.rig != nil {
		if out, ok := m.rigidCells(a.rig, st, buf); ok {
			return out, true
		}
	}
	if cap(m.accIdx) < 3*n {
		m.accIdx = make([]int, 3*n)
	}
	lo, hi, cur := m.accIdx[:n], m.accIdx[n:2*n], m.accIdx[2*n:3*n]
	env := m.env
	base, multi := 0, false
	for d := range di {
		w := &a.Idx[d]
		x := &di[d]
		var l, h int
		if af := w.LoAff; af != nil {
			l = af.K
			for _, t := range af.Terms {
				l += t.Coef * env[t.Slot]
			}
		} else {
			l = w.Lo(env)
		}
		point := w.Hi == nil
		switch {
		case point:
			h = l + 1
		case w.HiAff != nil:
			af := w.HiAff
			h = af.K
			for _, t := range af.Terms {
				h += t.Coef * env[t.Slot]
			}
		default:
			h = w.Hi(env)
		}
		if l < 0 || h > x.extent || h < l || (point && l >= x.extent) {
			pv := &m.p.Vars[a.Var]
			if point {
				m.fault(src, "index out of bounds: %s dimension %d index %d, extent %d", pv.Name, d, l, x.extent)
			} else {
				m.fault(src, "index out of bounds: %s dimension %d window %d:%d, extent %d", pv.Name, d, l, h, x.extent)
			}
			return nil, false
		}
		if h <= l {
			return buf, true
		}
		var bl, bh int
		if sh := x.shift; sh >= 0 {
			bl, bh = l>>sh, (h-1)>>sh+1
		} else {
			bl, bh = l/x.gran, (h-1)/x.gran+1
		}
		lo[d], hi[d], cur[d] = bl, bh, bl
		base += bl * x.stride
		if bh-bl > 1 {
			multi = true
		}
	}
	if !multi {
		buf = append(buf, int32(base))
		return buf, true
	}
	count := 1
	for d := range di {
		count *= hi[d] - lo[d]
	}
	buf = slices.Grow(buf, count)
	for {
		idx := 0
		for d := 0; d < n; d++ {
			idx += cur[d] * di[d].stride
		}
		buf = append(buf, int32(idx))
		d := n - 1
		for ; d >= 0; d-- {
			cur[d]++
			if cur[d] < hi[d] {
				break
			}
			cur[d] = lo[d]
		}
		if d < 0 {
			return buf, true
		}
	}
}

// coords turns a flat block index of v back into element coordinates (the
// block's first element), for reports.
func (m *Machine) coords(v int, idx int32) []int {
	st := &m.vars[v]
	out := make([]int, len(st.dims))
	r := int(idx)
	for d := range st.dims {
		q := r / st.strides[d]
		r -= q * st.strides[d]
		out[d] = q * st.gran[d]
	}
	return out
}

// TaskCoords returns the cuda_tasks iterator values of task (nil for the
// CPU / all tasks); valid until the next Run.
func (m *Machine) TaskCoords(task int) []int {
	k := len(m.p.TaskSlots)
	if task < 1 || task*k > len(m.taskCoords) {
		return nil
	}
	if k == 0 {
		return []int{}
	}
	return m.taskCoords[(task-1)*k : task*k : task*k]
}
