// Package cudagen is Weft's code generator (seed 000 §4.2 and §6; seed 002
// "Code generation", "Warp Specialization", "Synchronization"): it lowers a
// parsed .weft file to host C (.h, .c) and CUDA C++ (.cuh, .cu) ready for
// nvcc, plus an optional test harness (main.cu) that reads and writes .npy
// files.
//
// Contract:
//   - Generate(file, lib, opts, errs) never panics. Constructs it cannot
//     lower get a W09xx diagnostic with the position of the statement; the
//     returned Output is then incomplete and must not be written.
//   - Output is deterministic: same input, same bytes.
//   - Every non-instruction proc becomes a C function in the .c file (CPU
//     code at the top level, seed 002 "Procedures"). Each `with
//     CudaDeviceFunction(...)` block becomes a persistent kernel
//     (exo_deviceFunction{N}_{proc}) whose task loop hands the cuda_tasks
//     iterations round-robin to CTAs or clusters, a C-linkage launch
//     function the .c file calls, and an args struct carrying every CPU
//     value the kernel reads (sizes, GMEM pointers, grid constants), passed
//     as a __grid_constant__ parameter.
//   - cuda_threads loops become `if (int exo_<T>thr_<iter> = f(threadIdx);
//     g(...)) {` with f and g from coll.Lowering (seed 002
//     cuda_threads_cxx); distributed dimensions and indices are stripped
//     (seed 002 Rule 4/4); SMEM allocations are static offsets into one
//     dynamic allocation, reusing space across disjoint lifetimes.
//   - Fence, Arrive and Await lower by their collective unit and timelines
//     (spec §8.2-8.3); instruction calls substitute their arguments into the
//     instruction's CUDA template (lang/weft/lib/sm80.weft, sm90.weft).
//   - Procs whose body is device code are not C functions: device code
//     that calls them inlines them (an extension of the seed, whose procs
//     are CPU code at the top level).
//   - Options.Harness adds main.cu, which runs one proc on .npy inputs and
//     writes every tensor argument as .npy (the files `weft run --out`
//     writes), optionally timing WEFT_REPEAT more runs.
//   - The generated code includes weft_runtime.h / weft_cuda.cuh /
//     weft_npy.h, shipped in cuda/include and written next to the
//     generated files by `weft build`.
//
// docs/weft-codegen.md describes the output and every lowering rule.
//
// Generation runs twice over each proc: the first pass learns what later
// code needs earlier (how many indices of an allocation are distributed,
// mbarrier arrive counts and ring sizes, the kind of each commit group);
// the second pass prints.
package cudagen
