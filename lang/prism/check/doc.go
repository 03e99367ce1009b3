// Package check is the perspective checker of Prism (seed 001 §3): it
// resolves names, types and perspectives of a parsed file and enforces the
// typing rules, producing the Info that lowering (package lower), the sync
// inference (package dcfg) and the Bundl interpreter (package bundl) read.
//
// Contract:
//   - Check never panics; every violation is a diagnostic with a position
//     and a stable code, one code per error class of the paper (codes.go,
//     `weft help codes`), with a message in the paper's terms.
//   - Perspectives: level[n] with warp[k] = thread[32k] and level[] =
//     level[1]; order is lexicographic (§3.2). group only narrows and only
//     by divisors; split requests fit what the code perspective holds and
//     each branch starts at a multiple of its size.
//   - Read up / write down use the destination reading (spec §3.4): an
//     expression is checked against the perspective of the variable it
//     flows into; conditions and loop bounds against the code perspective.
//   - Thread-shared memory: shared allocations only at block[1], within the
//     smem= budget counted at definitions and across calls (scoped, Bundl's
//     max), and the device limit; partition/claim/async hide the original,
//     claimed views live in one split branch, async views feed only async
//     copies, and writes happen from thread[1] only.
//   - Calls: the callee's bound must be provided by the caller's code
//     perspective, aligned (broader callers replicate it); primitive
//     arguments may be broader than their parameters, non-const pointers
//     must match exactly, const pointers may be broader. Intrinsics carry
//     signatures (mma.sync a warp, wgmma and setmaxnreg a warpgroup,
//     __syncthreads a block, cp.async/TMA a single thread).
//   - Info is meaningful only when no error was reported.
package check
