// Package verify checks kernel-only CUDA files, a lone __global__ function
// without main, the way GPU race verifiers (GPUVerify, Faial) take them
// (issue 16): it reads the file's header ("//pass", "//--blockDim=[64,64]
// --gridDim=2 -DN=4 --warp-sync=32", Weft's own "--arg n=8"), and instead
// of one run it searches: launch shapes (the header's, or one and two blocks
// of one and two warps when there is none), scalar arguments (the number of
// threads, 0, 1, half the threads, the block size and the file's integer
// literals, one parameter at a time), values of bodiless functions and
// random contents of buffers and globals. Preconditions that fix a parameter
// (__requires(n == 64)) give its first value, file-scope __axiom(e) picks
// the blocks run, template kernels are instantiated from -D or with int and
// 64, and the launch is cooperative. What the dialect takes from GPUVerify's
// headers and the platform's (uint, cuRAND's state types) is declared when
// a file uses it (dialect.go). Every pointer parameter is a fresh buffer of
// unknown extent that grows to cover each access (sem.KernelConfig.Grow), so
// an access is out of bounds only against a known extent.
//
// Contract: Check runs at most Options.MaxConfigs configurations, each a
// dynamic run of sem (the race detector does not depend on the schedule),
// drops those a precondition excludes (C0620, annotations in sem/annot.go),
// and reports every distinct finding once (a race: once per pair of
// accesses) with a note giving the flags that rerun the configuration that
// exhibited it. It never claims more than it ran: the caller says "no race
// in N configurations". A grid too large to run whole runs its first,
// second and last blocks (Options.MaxThreads), which is a prefix of a full
// run, so what it reports is real. ParseHeader never panics on any input
// (FuzzParseHeader).
package verify
