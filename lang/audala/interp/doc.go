// Package interp executes checked AuDaLa programs on the CPU, in parallel
// over struct instances.
//
// Storage is a structure of arrays: one []int32 column per struct parameter,
// indexed by label; label 0 is the struct's null instance, whose cells stay
// at the default value (spec §3.3, Write Parameter Null-Skip). Steps are
// compiled once to closures over the columns, so an access is an index into
// a slice, never a map lookup.
//
// Two semantics (the --semantics flag):
//
//   - Relaxed (default): the relaxed, incoherent semantics of seed 003 §3.
//     Each step reads the initial value function ι (the state at the step's
//     start) or the instance's own cached writes; parameter writes go to a
//     second buffer and the last write of some writer wins at the step
//     boundary, where the buffer is copied back (ι' = fin). This is one legal
//     execution of the rules Read Initial / Read Internal / Write Parameter
//     I-II / Call Step: every read is Read Initial or Read Internal, and
//     fin(ℓ,v) is the last write of whichever writer stored last. It is the
//     lockstep execution of thesis Fig. 2. Stability is cleared by a write
//     whose value differs from the old value it read (ι or its own cache)
//     and by every construction.
//   - Strict: the original sequentially consistent semantics. Steps update
//     the columns in place; with several workers every access to a racing
//     column (one the step writes and also reaches through a reference,
//     spec §5.9) is a sync/atomic operation, so the execution is an
//     interleaving of single accesses; other columns are touched only by
//     their own instance and stay plain. Under the relaxed semantics the
//     buffer is never read during a step, so only writes into it to columns
//     the step assigns through a reference (two writers of one cell) are
//     atomic.
//
// Both run the instances of a step on Options.Workers goroutines over
// chunks of labels; Workers == 1 is sequential in label order and fully
// deterministic. Each worker's state (and its locals, write cache and
// counters) sits on cache lines of its own: it is written per instance, and
// sharing a line made two workers slower than one. Options.Order runs the instances sequentially in reverse or
// seeded random order instead: other legal executions, to test that a
// program's result does not depend on one. Constructors take labels from an
// atomic counter; the new instance joins from the next step (spec §2.5),
// and column capacity is grown before a step by its static bound
// (instances × constructor sites).
//
// Integers are 32-bit as in AuDaLaC (thesis §5.1); a result that does not fit
// its type is a run-time error (A0201), not a silent wrap.
package interp
