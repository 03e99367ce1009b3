// Package distmem is Weft's distributed memory analysis (seed 000 §4.1;
// seed 002 "Distributed Memory", Rules 1/4-4/4).
//
// A tile may be owned by a large thread collective but allocated per
// native unit of its memory type (CudaRmem per thread, CudaSmemLinear per
// CTA, Sm80_RmemMatrixD per warp, Sm90_RmemMatrixD per warpgroup). The
// leftmost indices of every use are distributed indices: plain
// cuda_threads iterators whose tiling operators t0 -> t1 chain from the
// tile thread count of the allocation's scope down to the native unit
// (the tiling chain). The analysis runs in the seed's four steps:
//
//  1. desugaring instruction calls: an instruction argument is used by the
//     collective unit of the instruction (package gpucheck checks the
//     scope matches it, so the use-site tiling is the call's); parameters
//     with distributed collective units (@access(p, units=[...]), the τ_u*
//     of seed 000 §3.3) are wrapped in synthetic cuda_threads loops that
//     take the argument's next dimensions, which must be whole slices.
//     This is how the communication instructions of seed 000 §2.1 reach
//     other threads' shards: a warp shuffle (units=[cuda_thread]) takes the
//     lane dimension of its own warp's registers, y[w, :]; a TMA multicast
//     issued by one thread (units=[cuda_cta_in_cluster]) takes the CTA
//     dimension of a cluster's SMEM, smem[:, :, :], and with
//     barrier_units=[cuda_cta_in_cluster] completes on every CTA's
//     mbarrier, >> bar[:]. Any other slice of a distributed dimension is
//     rejected;
//  2. collective analysis (package gpucheck);
//  3. triple collection: for every use of a CUDA-scoped data or barrier
//     variable, the triple (distributed indices, use-site tiling, thread
//     pitches of the distributed indices);
//  4. triple analysis: the allocation agrees with the native unit, every
//     use deduces a valid chain, and all uses of a variable deduce the
//     same distributed dimensions, thread pitches and owner offset, so one
//     thread collective owns each shard (Rule 3/4).
//
// Barrier variables have no native unit: all their indices are
// distributed (cuda_threads iterators, or the trailing slices of an
// instruction's completion barrier that declares barrier units), and uses
// must agree on the thread pitches (different warps may arrive and await
// on the same barrier). mbarrier arrays (CudaMbarrier and memories derived
// from it) pair by index value (seed 002 "Queue Barrier"), so their uses
// may index them by different collectives; they must agree only on which
// indices select a CTA of the cluster, and no index may take more values
// than its dimension has barriers (issue 13).
//
// Contract: Check consumes a gpucheck.Result without errors, reports
// W05xx diagnostics, never panics, and returns the deduction of every
// CUDA-scoped variable (the distributed dimensions code generation strips,
// Rule 4/4).
package distmem
