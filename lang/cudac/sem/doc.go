// Package sem is the executable semantics of CUDA-C (seed 004): it compiles
// a syntax.File to a compact stack bytecode (one code array per function over
// typed 64-bit slots) and runs the whole program, host and device, on the CPU.
//
// Contract: Compile reports every static error as a diagnostic (C03xx) and
// returns a Program; Machine.Run executes main (or one kernel, for kernel-only
// files) and reports run-time problems as diagnostics: memory-space
// violations, out-of-bounds, use after free, uninitialized reads (C04xx),
// data races and deadlocks (C05xx), division by zero, failed assertions
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
//     shadow state (last write, reads since) stamped with the accessing
//     thread, its block's barrier epoch and the vector clock of its stream,
//     and two accesses race unless barrier, kernel boundary, stream or event
//     order or host synchronization orders them, or both are atomic.
package sem
