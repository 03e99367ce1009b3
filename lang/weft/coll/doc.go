// Package coll is Weft's collective algebra (seed 000 §4 and appendix A
// Fig. 11; seed 002 "cuda_threads Loops"): collective units, collective
// tilings and the thread mappings compiled from them.
//
// A collective unit (Unit) is a domain and a box over the natural thread
// index of a cluster (Definition 4.1): `cuda_warp` is the box (32,) in the
// domain (blockDim,). A collective tiling (Tiling, Definition 4.2) annotates
// one program scope: it says which threads execute the scope for each value
// of the enclosing cuda_threads iterators. Tilings are made by
//
//   - DeviceTiling: the top-level collective of a CudaDeviceFunction (the CTA,
//     or the cluster when clusterDim > 1);
//   - (*Tiling).CudaThreads: a cuda_threads loop (derive with shape alignment and
//     single-dimension refinement; dimensions the collective covers whole
//     are merged first, so 8 specialized warps are 256 contiguous threads);
//   - (*Tiling).CudaWarps and (*Tiling).NamedWarps: CudaWarps blocks.
//
// Contract:
//   - Everything is concrete: blockDim and clusterDim are known integers
//     (Machine). Units are symbolic until Resolve.
//   - Derivations return a *Error (with a message in the seed's terms, e.g.
//     "loop needs 40 threads, scope is a warp of 32") and never panic.
//   - A Tiling is immutable once derived. Its thread mapping f: Σ -> T is
//     compiled: (*Tiling).Collective(env) computes the thread set of one
//     iteration from the iterator values without allocating, as a start
//     thread plus at most MaxRuns (count, stride) runs.
//   - Lowering data for the code generator (Lowering) gives each cuda_threads
//     iterator as ((threadIdx.x / Div) % Mod - Off) / 1 with an optional
//     guard `iter < Bound`, the form of seed 002 "cuda_threads_cxx".
package coll
