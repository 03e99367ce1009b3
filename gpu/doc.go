// Package gpu is the machine model the front ends share: launch shapes
// (Dim3), the CUDA thread hierarchy (thread, quadpair, warp, warpgroup, CTA,
// cluster, grid) with its fixed sizes, memory spaces, and the natural thread
// index of seed 000 Definition 4.1 (a thread's position counted across the
// whole clustered launch).
//
// Contract: values here are plain data with no dependence on any language;
// sizes are those of NVIDIA GPUs up to sm_90a (Hopper).
package gpu
