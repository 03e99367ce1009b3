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
//     001 §5) are barriers too, so a run is an oracle for the generated
//     CUDA; __syncthreads is a barrier over the block; mma.sync is a
//     rendezvous of an aligned warp. cp.async copies are deferred and
//     drained at the end of their async scope (S-Async-Partition-Unwind).
//   - A run where every live thread waits on a barrier others cannot reach
//     is stuck and reported (P0301) with where each waits; out-of-bounds
//     accesses (P0302), division by zero (P0303) and the step limit (P0305)
//     are reported with positions. wgmma and TMA are not modeled (P0306).
package bundl
