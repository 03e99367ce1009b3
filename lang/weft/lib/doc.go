// Package lib is the Weft standard library: the memory types, collective
// units, timelines and instructions of seed 000 appendix A, written as Weft
// source (*.weft in this directory, embedded with go:embed) and loaded into
// Go tables.
//
//   - memories.weft: data memories (Fig. 12), barrier memories (Fig. 13) and
//     special windows (Fig. 14), as `Name = DataMemory(...)`,
//     `BarrierMemory(...)` and `SpecialWindow(...)` globals.
//   - units.weft: collective units (Fig. 11) as `CollUnit(...)` data; package
//     coll gives them meaning.
//   - timelines.weft: qualitative timelines (Fig. 15) and sync timelines
//     (Fig. 16) as `QualTL(...)` and `SyncTL(...)` globals.
//   - scalar.weft (and the instruction files of code generation): instruction
//     declarations, `@instr(tl=..., unit=..., cuda="...", barrier=...)` procs whose body
//     is the instruction's sequential behaviour, with optional
//     `@access(param, ...)` decorators (seed 000 Fig. 2).
//
// Contract:
//   - Std parses and loads the embedded files once and caches the result; it
//     is safe for concurrent use and the Library it returns is read-only.
//     A malformed library file is an error (with positions), never a panic.
//   - Load does the same for any set of files (tests, user libraries).
//   - ParseInstr interprets the decorators of one proc, so a user file's own
//     @instr procs are treated exactly like library instructions.
//   - Every map is keyed by the name the source uses; aliases (`CUtensorMap =
//     Sm90_tensorMap`, `cuda_classic = cuda_in_order`) map to the same value.
//   - Library diagnostics use the W02xx codes of package check's table
//     (W0240-W0249 are the library's own).
package lib
