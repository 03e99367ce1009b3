// Package ptx reads the PTX text of inline asm statements and models the PTX
// instructions that CUDA code generators emit, written from the PTX ISA
// (docs.nvidia.com/cuda/parallel-thread-execution; the facts used are
// collected with their sources in /work/shared/specs/ptx.md).
//
// Contract:
//   - Parse turns an asm template (after C unescaping) into a Program: the
//     instructions in order, labels, .reg declarations, guard predicates and
//     operands (%N operand references, registers, immediates, [address]
//     and {vector} operands). %% and %= are resolved here. Every instruction
//     is looked up in the model table; one without a model, or with the
//     wrong operands, is an error naming the instruction and its line in the
//     template, never a panic (FuzzParse).
//   - The models that do not touch a machine are pure functions here:
//     cvt.rna.tf32.f32 (TF32), the mma.sync fragment layouts (Fragment*)
//     and the matrix product with the documented precision model (Mma),
//     the conversions of f16/bf16 halves.
//   - Effects (memory, barriers, asynchronous copies, mbarriers, warp
//     rendezvous) are executed by the interpreter (lang/cudac/sem/asm.go)
//     from the Kind of each instruction, so that it stays the only owner of
//     memory, scheduling and the race detector.
//
// Precision model of mma.sync (docs/cudac.md, "Inline PTX"): the ISA fixes
// neither the order nor the intermediate rounding of the accumulation.
// Products of tf32, f16 and bf16 inputs are exact in binary64; Mma adds the
// K products of one output element and C in binary64 in k order and rounds
// once to binary32. A GPU may round differently, so results agree within
// the bound of docs/cudac.md, not bit for bit.
package ptx
