// Package gpucheck is Weft's collective analysis over a checked program
// (seed 000 §4, §2.1, §3.2-3.4; seed 002 "Loop Modes", "Async Blocks",
// "cuda_threads Loops", "Warp Specialization", "Memory types"): it walks
// every proc, annotates each statement with its instruction timeline and,
// in device code, its collective tiling (package coll), and checks
//
//   - device structure: CudaDeviceFunction arguments (blockDim or
//     warp_config, clusterDim, blocks_per_sm), its only child is a nest of
//     cuda_tasks loops, cuda_tasks appears nowhere else, CPU code has only
//     seq loops, cuda_threads has lo = 0, a constant hi and fits its scope
//     ("loop needs 40 threads, scope is a warp of 32"), CudaWarps by name
//     and by number (W03xx);
//   - timelines and collectives: CudaAsync blocks, each instruction used
//     only in a scope of its timeline ("wrong instr-tl"), by exactly its
//     collective unit, scalar writes and reduces by one thread, and the
//     memory permissions of every allocation, read and write per timeline
//     (W04xx).
//
// Contract: Check never panics and returns a Result even with errors; the
// Result maps every statement to its Scope (timeline, tiling, the
// cuda_threads iterators in scope), which distributed memory analysis
// (package distmem), the sync checker and code generation consume.
// Everything is concrete: sizes the launch shape depends on are constants
// of the file or NAME=VALUE values. WriteThreads and WriteThreadsSVG print
// the thread mapping of every device statement (`weft check --threads`,
// `--threads=svg`); the output is deterministic.
package gpucheck
