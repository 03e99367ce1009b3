// Package bundl runs a checked Prism kernel under the Bundl semantics of
// seed 001 §4.3: the reference interpreter and CPU oracle for the CUDA that
// package lower generates.
//
// Contract:
//   - Every thread of the launch (Blocks x Threads) is its own small-step
//     machine; a scheduler seeded by Config.Seed picks which thread steps
//     next at every access to thread-shared memory and every barrier
//     (S-Program's nondeterministic choice). Same seed, same run.
//   - Perspectives are tracked dynamically, as Bundl's thread judgment does:
//     group continues at p mod n (S-Group), split masks p >= n1+n2 and
//     renumbers (S-Split), id() divides the position by the destination's
//     size. Operations that need a perspective the thread does not have
//     (shared allocation off block[1], a thread-shared write off thread[1],
//     a warp collective off an aligned warp) make the run stuck, as in Bundl.
//   - partition and claim end with the barrier of S-Partition/S-Claim
//     (init; s; dec; wait) over the threads of the code perspective that
//     opened them; the sync points the compiler infers (package dcfg, seed
//     001 §5) are barriers too, and their mbarrier waits for TMA loads are
//     performed, so a run is an oracle for the generated CUDA;
//     __syncthreads is a barrier over the block; mma.sync is a rendezvous
//     of an aligned warp. cp.async copies are deferred and drained at the
//     end of their async scope (S-Async-Partition-Unwind).
//   - Hopper (seed 001 B.5): TMA loads are asynchronous operations the
//     scheduler performs at a step of its choice, writing a (swizzled) box
//     and completing bytes on an mbarrier whose phases follow PTX's
//     arrival and transaction counts; wgmma is a warpgroup collective
//     whose product is computed at the wait ending its wmma_async scope,
//     its accumulator unusable until then (P0307).
//   - Precision (round.go): stores and arithmetic round to their C type;
//     mma rounds inputs to TF32, wgmma to bf16 with exact k16 sums rounded
//     once to binary32.
//   - Raw-CUDA functions (body `pass`) run only where a Go model of their
//     body exists (extern.go: the scan's interface); others are P0306.
//   - A run where every live thread waits on a barrier, an mbarrier phase
//     or a spin others cannot satisfy is stuck and reported (P0301) with
//     where each waits; out-of-bounds accesses (P0302), division by zero
//     (P0303), bad arguments (P0304), the step limit (P0305), unmodeled
//     constructs (P0306) and async misuse (P0307) are reported with
//     positions.
package bundl
