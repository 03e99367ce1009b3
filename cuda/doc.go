// Package cuda is the CUDA C++ writer every code generator shares: an
// indenting source builder, identifier mangling that never collides with C,
// C++ or CUDA keywords, and the nvcc location/invocation helpers used by tests
// to compile generated code for sm_80 and sm_90a.
//
// Contract: Writer output is deterministic; Ident maps any source name to a
// valid, stable C identifier; FindNVCC never installs anything, it only
// looks (NVCC env var, PATH, the pip nvidia-cuda-nvcc layout).
package cuda
