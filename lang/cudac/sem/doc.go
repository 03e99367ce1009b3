// Package sem is the executable semantics of CUDA-C (seed 004): it compiles
// a syntax.File to a compact stack bytecode (one code array per function over
// typed 64-bit slots) and runs the whole program, host and device, on the CPU.
//
// Contract: Compile reports every static error as a diagnostic (C03xx) and
// returns a Program; Machine.Run executes main (or one kernel, for kernel-only
// files) and reports run-time problems as diagnostics: memory-space
// violations, out-of-bounds, use after free, uninitialized reads (C04xx),
// data races, deadlocks and livelocks (C05xx), division by zero, failed assertions
// (C06xx). The program's own output goes to Options.Stdout byte for byte as
// on a GPU. Nothing here panics on a user program.
//
// Design (performance is designed in, see docs/cudac.md):
//   - Values are uint64 everywhere: integers normalized (sign- or
//     zero-extended) for their C type, floats as float64 bits (float results
//     rounded to float32, so float arithmetic is float32 arithmetic), and
//     pointers as objectID<<32 | offset, so provenance survives arithmetic and
//     every dereference is checked against its object (seed 004 §2.4: symbolic
//     pointers).
//   - A device thread is an explicit state (frames, pc, operand stack), so a
//     thread suspends at __syncthreads or a warp collective by returning from
//     the interpreter loop; threads of a block run round-robin between
//     barriers without goroutines.
//   - Race detection is schedule independent: every byte of device memory has
//     a history (last write, reads since) stamped with the accessing
//     thread, its block's barrier epoch and the vector clock of its stream,
//     and two accesses race unless barrier, kernel boundary, stream or event
//     order or host synchronization orders them, or both are atomic. The
//     history is stored per granule of 1-8 bytes, split when an access covers
//     part of one, with 8-byte stamps naming shared per-thread segments
//     (race.go), so reports keep per-byte precision at about 5 bytes of state
//     per byte of int data.
//   - Livelocks are found exactly (spin.go): a thread whose state repeats at a
//     backward jump while no byte of memory changed spins forever unless
//     another thread changes memory; blocks whose threads all spin are parked
//     until memory changes, and C0504 ends the run when every started block
//     is parked. Snapshots are taken only after a quiet window, so the check
//     costs one test per backward jump otherwise.
//   - Kernel-only verification (package verify, issue 16) uses hooks that
//     change nothing for whole programs: GPUVerify's annotation language
//     as builtins (annot.go; C0620 a false precondition, C0621 a false
//     assertion, invariant or postcondition), two-thread predicates compared
//     when the kernel ends (pairs.go) or judged over pairs of threads
//     (__other_*, __all, __same_group: others.go), cuRAND's device API
//     (curand.go), per-thread access logs for the
//     access predicates (only in programs that use them), values for
//     bodiless functions in files without main, and in Options/KernelConfig:
//     buffers that grow to cover an access, a subset of the grid's blocks,
//     lock-step warps (--warp-sync), blocks above 1024 threads, and equal
//     stores of zero or a pointer tolerated as GPUVerify's benign races
//     (kernelonly.go).
//   - The C++ that generated code and CUDA samples use compiles to the same
//     bytecode (cxx.go, cxx17.go, operators.go, lambda.go, virtual.go,
//     classtmpl.go): function and class templates are instantiated per
//     argument tuple (keyed on type identity), lambdas expanded inline or
//     made closure objects, operators are calls, references addresses; a
//     polymorphic object's hidden vptr names its class and the side that
//     built it, and a virtual call selects among the derived classes
//     (issue 15 item 1). The
//     library models (lib_*.go) bind package lib's pure models (file
//     system, number parsing, scanf, the device) to memory; std::string and
//     std::vector are 24-byte headers over exact-size heap buffers with deep
//     copies; fences plus atomics are release/acquire edges (fence.go).
package sem
