// Package sched is user scheduling for the Weft kernel language: a schedule
// script (Starlark, go.starlark.net) rewrites the procs of a parsed .weft
// file step by step, p1 -R1-> p2 ... -> pN (seed 000 §2.3, "The scheduling
// flow in Exo-GPU"; seed 002 "Our View", workflow step 2).
//
// Contract:
//   - Every rewrite preserves the sequential meaning of the proc it
//     rewrites: seq[p_k] ≡ seq[p_k+1] (seed 000 §2.3). Rewrites that only
//     change annotations (loop modes, memories, CudaDeviceFunction, sync
//     statements) leave the sequential program unchanged by construction,
//     because the sequential semantics erases them (seed 000 §2.1). Rewrites
//     that move or restructure code (divide_loop, reorder_loops,
//     reorder_stmts, fission, stage_mem, replace, simplify, expand_dim,
//     lift_alloc, reorder_dim) first prove a
//     precondition with a sound, conservative analysis over quasi-affine
//     control expressions (affine.go, effects.go); when the proof fails the
//     rewrite is refused. The one documented exception is add_assert, which
//     narrows the proc's domain: on inputs satisfying the assertion the
//     meaning is unchanged, on the others the proc now fails its assert.
//     That seq[p_N] ≡ par[p_N] is not this package's business: the sync
//     checker (package syncheck) proves it afterwards.
//   - Reductions (`+=`) to the same location are allowed to commute, as in
//     Exo; a rewrite that relies on it (and so may reassociate floating-point
//     sums) says so in Result.Reassociated. Without it, results are
//     bit-exact.
//   - Procs are named values in a workspace: the file being scheduled. Each
//     operation takes a proc (a Proc value or its name), rewrites that proc
//     in the workspace and returns the Proc value again, so both Exo's
//     `p = divide_loop(p, ...)` style and plain calls work. The result is
//     the whole file with every proc at its last version.
//   - Further rewrites (Exo's vocabulary; dims.go, loops.go, exprs.go,
//     vocab.go, vocab_alloc.go, gpu.go) follow the same rule: each states
//     which original execution order or element labelling it changes and
//     proves the precondition that makes it unchanged (pipeline_loop,
//     fuse, add_loop and remove_loop with the dependence and idempotence
//     tests, divide_dim and resize_dim with bound proofs, rewrite_expr by
//     residue enumeration); the annotation ones (wrap_with_context,
//     insert_window, use_window, sync insertion) preserve it by
//     construction.
//   - Cursors (cursor.go) are Starlark values pointing at a statement or
//     block; every rewrite forwards them (a statement's copy, or the
//     statement a rewrite says replaced it), and a cursor whose statement
//     was removed is dead (W0954 when used).
//   - Statements are found by cursor patterns (pattern.go): the canonical
//     first line of a statement with `_` wildcards, e.g. "for i in _",
//     "acc += _", "y[_] = _", an optional " #N" picking the N-th match
//     (0-based, source order), and a bare name "i" as short for
//     "for i in _".
//   - Run never panics on any script or program: every failed precondition,
//     script error or bad argument is a diagnostic with a stable W095x code
//     at the script position of the failing call, with notes at the Weft
//     statements involved.
//   - Run does not run the static checks; the driver (weft sched) runs
//     `weft check`'s checks on the printed result.
package sched
