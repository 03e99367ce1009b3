// Package lower compiles a checked Prism program (check.Info) to CUDA C++
// (seed 001 §5).
//
// Contract:
//   - Perspectives are erased: the generated code has no run-time checks.
//     group and split become arithmetic on a relative thread position (p mod
//     n, and masking p >= n1+n2, mirroring Bundl's S-Group and S-Split); id()
//     divides that position by the size of the destination perspective. Each
//     device function takes three extra parameters: the thread's relative
//     position, the block id and the offset of its shared-memory frame.
//   - Synchronization comes from package dcfg. In kernels a block-wide sync
//     point becomes a split barrier (an mbarrier: arrive after the last use,
//     phase snapshot at the point, wait before the first use on each path);
//     with Options.FullBarriers, and in device functions, __syncthreads() in
//     place. Over a warp: __syncwarp(); over another aligned group of warps:
//     a named barrier (bar.sync id, n). TMA loads bound to an mbarrier add
//     phase waits on it.
//   - Intrinsics lower to inline PTX: mma.sync m16n8k8 tf32, wgmma
//     m64n256k16 bf16, cp.async, cp.async.bulk.tensor (TMA) with
//     mbarrier expect-tx, setmaxnreg.
//   - Harness appends a host main() (weft build --harness) that runs one
//     kernel on weft run's inputs, encodes CUtensorMap arguments through the
//     runtime's driver entry point (no -lcuda) with the interpreter's
//     layout, and prints the outputs byte for byte as weft run does, so a
//     GPU run diffs with the Bundl oracle (seed 001 §4); WEFT_REPEAT=R
//     times R more launches.
//   - Output is deterministic: same program, same bytes.
package lower
