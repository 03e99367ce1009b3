// Package interp is the sequential interpreter of the Weft kernel language:
// the reference meaning of every Weft program (seed 000 §2, seed 002 §2.1).
//
// Contract:
//   - Parallel loops (par, cuda_tasks, cuda_threads) run as sequential
//     loops, `with` blocks run their bodies, and synchronization statements
//     (Fence, Arrive, Await and their Reverse forms, `>> bar` on calls) and
//     memory annotations are ignored: the sequential semantics is the
//     program with its parallel and sync annotations erased (seed 000 §2.1).
//   - Instruction calls execute the instruction's behaviour body: an @instr
//     proc (in the user's file or the standard library, via Options.Procs)
//     is a proc like any other here. Arguments bind as check.BindArgs binds
//     them (keywords by name, then positionals in order); tensors and
//     windows are passed by reference, and so is a data scalar that is an
//     element of a buffer (an instruction may write it).
//   - Arithmetic is exact IEEE: every data operation is rounded to its
//     computation type, which is the widest of the destination's type and the
//     operand types (f16 < f32 < f64, bf16 < f32; f16 with bf16 is f32;
//     integers lose to floats). f32 operations are computed in float64 and
//     rounded once, which is exact for + - * / and sqrt because float64 has
//     more than 2*24+2 significand bits; f16/bf16 go through float32 the same
//     way (github.com/x448/float16 for f16). Integer types wrap to their width;
//     integer division truncates toward zero as in C. Control expressions
//     (size/index) are int64 with floor division and modulo (seed 000 §3.1).
//   - Out-of-bounds accesses and windows, failed asserts, reads of
//     uninitialized memory (including the read of a reduce), division by zero
//     in control expressions and argument shape mismatches are diagnostics
//     with positions (codes W08xx) and a "called from here" note per call
//     level, never panics. Constructs the interpreter cannot give a meaning to
//     are reported when the proc is compiled, before it runs.
//   - Options.MaxSteps bounds one run (loop iterations, calls and allocated
//     elements), so every run terminates (W0811).
//
// Performance: each proc is compiled once to a tree of Go closures over a
// frame of int64 and view slots (no maps or tree walks per access); the
// common index forms (a loop variable, or a variable plus a constant) are
// read straight from the frame. Arrays hold float64 values already rounded
// to their element type; an uninitialized element holds a signalling-NaN
// payload that no arithmetic produces.
package interp
