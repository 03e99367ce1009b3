// Package check gives a parsed Weft file its static meaning (seed 000 §3 and
// appendix A; seed 002): it resolves every name, keeps control, boolean,
// data, barrier, unit and timeline expressions apart, resolves types,
// memories, barrier memories, special windows, collective units and
// timelines against the standard library (package lib), and checks shapes,
// static window bounds and calls.
//
// Contract:
//   - Check never panics and always returns a *Program, even for a file with
//     syntax or check errors; every rejection is a W02xx diagnostic with a
//     position (the table is in codes.go and docs/diagnostics.md).
//   - The Program is the resolved form later passes use: each *syntax.Name
//     use maps to its *Symbol (Proc.Uses), each declaring node (Param,
//     Alloc, For, window-statement Assign) to the Symbol it declares
//     (Proc.Defs), each call to its callee (Proc.Callees). Library
//     instructions and procs are found by Program.Lookup too, resolved the
//     same way, so the interpreter runs their behaviour bodies like user code.
//   - A Program is read-only once returned: library procs are resolved once
//     per *lib.Library and shared by every Program checked against it.
//   - Control expressions are the quasi-affine ones of seed 000 Fig. 1:
//     integers, control variables (size, index, stride, loop iterators,
//     integer globals), + and -, multiplication by a constant, and / and %
//     by a positive constant. Boolean expressions compare control
//     expressions. Data expressions read data (never control variables) and
//     combine them with + - * /. Barrier expressions only read barriers.
//   - What is static is checked statically: integer globals are folded,
//     loop bounds and dimensions that fold are used to check point indices
//     and window slices by interval arithmetic over the enclosing loops.
//     Sizes known only at run time are left to the interpreter.
//   - Collective analysis, distributed memory, instruction timelines vs
//     scopes and synchronization are later passes (packages coll,
//     gpucheck, distmem, syncheck); check only makes sure their inputs
//     name real things.
package check
