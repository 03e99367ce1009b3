// Package syncheck is Weft's synchronization checker (seed 000 §5 and
// appendix B; seed 002 "Synchronization"): it converts a checked Weft proc
// to the Abstract Machine IR of package amir (statement conversion T_s of
// Fig. 5, expression conversion T_e of Fig. 17, instruction argument
// conversion T_arg of Fig. 19 with the helpers of Fig. 18 and 20) and runs
// the abstract machine for concrete sizes.
//
// Contract:
//   - Input: the parsed file, the collective analysis of package gpucheck
//     (which gives every statement its timeline scope and thread tiling;
//     the thread set of an iteration is coll.Tiling.Collective), and the
//     standard library (timelines of Fig. 15/16, memories, instructions).
//   - Sizes come from NAME=VALUE arguments or, when none are given, from
//     every `# check: NAME=VALUE ...` line of the file (one run each).
//   - Every hazard becomes a diagnostic at the later access with a note at
//     the earlier one, naming the kind (W0601-W0606), the cell, both
//     threads (task and thread ids), both timelines, and the sync that
//     would order them; hazards are deduplicated by source-position pair.
//     An Await that pairs with a later Arrive is W0608, at the Await.
//   - CudaMbarrier barriers are also checked against the hardware the
//     code generator emits (ring sizes as cudagen computes them, or
//     ring_buffer_by arrays): W0609 for phase aliasing, a wrong arrival
//     count or an await of the wrong phase (docs/weft-sync.md "mbarriers
//     on hardware"). Their free needs no Fence (only CheckBarrier): the
//     lowering never reuses mbarrier storage.
//   - CudaCommitGroup barriers are per-thread queues
//     (amir.Var.PerThreadQueue): an Await pairs only with the Arrives of
//     its own collective (docs/weft-sync.md, issue 4).
//   - With RedundantSync, each sync statement is removed in turn and the
//     machine rerun; statements whose removal creates no hazard are
//     reported as warnings (W0630), never changing the verdict.
//   - Deviations from the seed are documented in docs/weft-sync.md (reads
//     of an assignment check fully_ordered visibility, as Fig. 19 does for
//     read-only instruction arguments; CPU-scoped records are one record
//     for all of G; proc calls are not inlined yet).
package syncheck
