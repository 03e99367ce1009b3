// Package amir is Weft's Abstract Machine IR and its interpreter: the
// synchronization checker's dynamic core (seed 000 §5, Fig. 4, 6, 7, 21, 22
// and appendix B, Definitions B.1-B.3).
//
// A Program is the AMIR of one Weft proc after conversion (package syncheck
// does the conversion): structural statements (Loop, If, IncTaskID) and the
// recording and checking statements RecordRead, RecordMutate, ClearReads,
// ClearMutates, Fence, Arrive, Await, CheckReads, CheckMutates, CheckBarrier
// and Alloc. Control expressions are compiled Go closures over a slot
// environment; each executing statement carries its thread mapping as a
// coll.Tiling-derived shape plus a start-thread function, so the thread set
// g_s(σ, ι) of Definition 5.2 is (task ι, start, shape) and never a Go set.
//
// The Machine runs a Program for concrete control values and reports
// Hazards. Its contract:
//
//   - Semantics are exactly those of Fig. 7/21/22 and appendix B: a memory
//     cell holds read and mutate visibility records (q, f, p); f maps
//     (global thread, QualTL) to a visibility level; Fence/Arrive/Await
//     update records through the witness W and augmentation A of
//     Definition B.3; Await pairs by arrive count with Max/New of Fig. 22.
//     Two refinements (queues.go): a PerThreadQueue barrier (commit
//     group) keeps one queue per executing thread set in each cell, and an
//     Await (n < 0) whose paired arrive has not happened is a hazard
//     (AwaitBeforeArrive).
//   - Representation is chosen for speed, not changed semantics: f is
//     stored as a creator grant plus a short list of (thread set, full set,
//     temporal set) grants; QualTL sets are bit masks; records live in one
//     slab with free lists; cells are flat arrays per variable, coarsened by
//     a per-dimension granularity that every access of the variable is
//     aligned to (so a block of cells always shares one history).
//   - Fence/Arrive/Await are applied lazily: each is appended to an event
//     log and a record replays the events it has not seen when it is next
//     inspected. Replay applies the same λ in the same order as the eager
//     rule, so results are identical; records never inspected again cost
//     nothing. Events of task ι can only witness records some thread of
//     task ι can see (all grants are per-task or all of G), which lets replay
//     skip other tasks' events.
//   - Records that no check can ever inspect (reads of a variable that is
//     never mutated or freed; see Var.NoReadRecords) are not stored, and a
//     variable no live statement records or checks keeps no cells.
//   - Evaluation is organized for speed with identical results (checked
//     by differential tests against the plain path): the statements of one
//     data access run as one fused run (Program.Finish) sharing one cells
//     and one g_s evaluation; affine windows and thread starts are
//     evaluated inline (Affine, ModAffine) and block-aligned ones as a base
//     block plus a fixed pattern (rigid.go); accesses directly in a loop
//     body are planned at loop entry, bounds checked at the first and last
//     iteration and stepped per iteration (hoist.go). Anything else, a
//     fault included, takes the general path.
//   - A fused run executed again on the same cell by the same threads,
//     with neither of the cell's lists changed (cell.ver) and no event
//     logged since, is answered from its memo when its form makes the
//     execution a no-op on the state (memo.go: a read; a convergent write
//     whose checks accept its own record); only its statistics are added.
//   - Task symmetry (Program.Finish): tasks after the first of an
//     innermost symmetric cuda_tasks loop run only their events and their
//     accesses to shared variables; their task-local work is the first
//     task's. Dead statements on shared variables (the reads of inputs)
//     still have their windows checked in every task, per statement or,
//     for a loop with nothing else to run, once at loop entry over the box
//     of the nest's iteration ranges (lite.go): an out-of-bounds access in
//     any task is a Fault, the one a run without symmetry reports.
//   - Hardware mbarriers (mbar.go, issue 13): for a barrier variable with
//     Var.Ring > 0 (or Var.RingDepth > 0, a ring-buffered array) the
//     machine also checks what the lowering needs beyond the queue
//     semantics: one arrival count, per-thread ring counters that agree
//     with the queue's, and no phase aliasing when a hardware mbarrier is
//     reused (PhaseAlias hazards). Its ordering records carry the hidden
//     timeline Program.MbarQual, which data records never gain. A lag
//     ring's hardware state continues across the variable's incarnations
//     in one launch, as the persistent CTA's does: the first task of a
//     symmetric loop is followed by phantom continuation tasks (its
//     synchronization again, no data statement) that check the task
//     boundary; other task loops continue it from task to task.
//   - Replay filters by thread (effects.go replay): a record whose creator
//     and grants are one thread replays only the shared events and that
//     thread's own one-thread events, merged in log order; the result is
//     the full replay's (checked by TestThreadReplayMatchesFull).
//   - Thread symmetry (thsym.go, issue 13): a cuda_threads loop of
//     one-thread units whose every live access is the thread's own slice
//     (one dimension, affine in the iterator with a positive coefficient
//     no smaller than the window, the same for every access of the
//     variable), whose syncs are one-thread Fences and per-thread queue
//     Arrives/Awaits, and which reads the iterator nowhere else runs its
//     first iteration and counts the others (operations, records, events,
//     hazard occurrences). The other threads' state is virtual until a
//     statement outside such a loop reads or changes it, or an event
//     tells the threads apart; it is then built by translating the first
//     thread's. Loops that could fault, or whose threads could see any
//     other record, run in full (checked by TestThreadSymMatchesFull).
//   - Grid symmetry (thgrid.go, issue 13): a nest of cuda_threads loops
//     (one or more axes) of one-thread statements with no event, whose
//     windows are affine in the axes, runs its first point only when the
//     state at entry allows it, checked on the state itself: every
//     variable the nest writes is each point's own slab, and the other
//     points' slabs equal the first's translated (condition 1); every
//     variable it only reads has no record a grid thread could fail on
//     and no earlier read record of the nest's own statements by a grid
//     thread (condition 2). The other points' slabs are then built by
//     translation, when something else first looks at them (deferred
//     slabs, thgrid_lazy.go), and the shared read records as one group
//     record per cell (thgroup.go) until an event tells their threads
//     apart. Checked by TestGridMatchesFull and TestGridEagerMatchesFull.
//     An Arrive or Await by part of the frame that commutes with the
//     translations on every record of the first slab, and checks by a
//     set that holds all or none of the frame's threads, leave deferred
//     slabs unbuilt (gridCommutes, gridCheckRun; issue 13 stop 26;
//     TestGridEventMatchesEager, TestGridCheckRunMatchesEager). Issue 13
//     stop 27: condition 2's walk of the read lists is skipped when an
//     index of the creators of each nest source's records rules out a
//     failure (rdindex.go, TestRdIndexMatchesWalk), and the read records
//     that successive entries of a nest by other frames leave on one cell
//     are merged into one group record (thmerge.go,
//     TestGridMergeMatchesPlain).
//   - Issue 13 stop 29 (thgrid_grp.go): deferred slabs may hold group
//     records whose members are grid threads (a TMA access by a warp that
//     holds part of the grid), and a run that records thread groups after
//     its checks acts on the representative's slab only
//     (TestGridGrpMatchesEager); thread groups recorded on empty cells are
//     made when a statement or walk first looks at the cell
//     (lazygroups.go, TestLazyGroupsMatchEager). Issue 13 stop 32
//     (thgrid_lzgrp.go): a deferred group in a deferred slab stays
//     deferred (a slab's own lists are no state while it is deferred),
//     gridCompare compares it as the copy of slab_0's it would be made
//     as, and walks of deferred slabs make only the groups outside them
//     (TestLazySlabsMatchEager); a loop's hoisted plan writes an access's
//     cells only when the iteration evaluates it (hoist.go hoistCells).
//     Issue 13 stop 33: a whole variable's lazy record over empty lists
//     moves to its cells as deferred plain records at gridCompare, so
//     the deferred-slab path compares it too (thgrid_lzcell.go,
//     TestLazyToCellsMatchEager), and a nest's entries share its points
//     while they are the same (thgrid_pts.go, TestGridPointsShared).
//   - Replay by task (effects.go replayTask, issue 13 stop 26): a record
//     whose reach is one task replays only the log's runs of that task's
//     and the host's events (Machine.taskRuns): apply leaves it unchanged
//     on any other (checked by TestTaskReplayMatchesFull).
//   - Memo checkpoints (replaymemo.go): a replay's end state is the
//     state of its input's chain at that log length; a record later found
//     in that exact state continues the chain (TestReplayMemoMatchesFull).
//   - Replays that cannot matter are not done (issue 13 stop 26): a check
//     that one component of a record (creator or grant) passes as it is
//     passes it replayed too, since replay only adds grants (checkCells,
//     TestCheckSkipMatchesFull); addRecord replaces an older record that
//     has a grant and covers the new counts without replaying it
//     (dominated, TestDomSkipMatchesFull).
//   - Run never panics on a well-formed Program; out-of-bounds accesses and
//     malformed barrier use are reported as Faults.
package amir
