// Package progen generates random Prism kernels for property tests: seed
// 001's Theorem 4.1 (a well-typed program never gets stuck) in package
// bundl, lowering and nvcc compilation in package lower.
//
// Contract:
//   - GenerateAny(seed, plant) is deterministic in its seed. Programs use
//     every construct of the calculus (Rules): groups from the grid, the
//     block and thread groups, splits of threads and warps at block and
//     thread code and inside group copies, partitions, claims used by one
//     warp, async copies, uniform if/for/while with break and continue,
//     returns, mma/wgmma/setmaxnreg and calls of warp functions from exact
//     and broader perspectives, __syncthreads.
//   - The generator knows the thread offsets of every instance of the code
//     it writes (independently of the checker), so it writes legal splits
//     and collectives only where they are aligned. With probability plant
//     it breaks one typing rule once and reports the checker code and line
//     the rule's violation must produce (Program.Planted); otherwise the
//     program is meant to be well typed.
//   - Programs without a planted violation are race-free (writes through
//     injective partitions, claims written by one warp), so every schedule
//     must leave the same memory.
//   - Program.Constructs counts the rules a program exercises, for coverage
//     accounting over many programs.
package progen
