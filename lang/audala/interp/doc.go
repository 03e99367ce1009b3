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
//     By default a relaxed run executes in place: every read returns the
//     latest write (own writes, others' writes in γ, untouched cells ι) and
//     the last write of a cell wins at the step boundary. Spec §3.7: this is
//     a legal execution of the rules (Read Initial / Internal / External,
//     Write Parameter I-II, Call Step), so relaxed costs what strict costs.
//     Options.Lockstep runs the execution of thesis Fig. 2 instead: each
//     step reads the initial value function ι or the instance's own cached
//     writes, parameter writes go to a second buffer and the last write of
//     some writer wins at the boundary, where the buffer is copied back.
//     Stability is cleared by a write whose value differs from the old
//     value it read, and by every construction.
//     With several workers, cells that two instances can write (racing
//     columns) take plain stores: each is a single write of an aligned
//     int32 and the relaxed semantics allows any of them to be read, the
//     last to win; race-detector builds keep atomic stores (race_on.go).
//   - Strict: the original sequentially consistent semantics, in place.
//     With several workers every access to a racing column (one the step
//     writes and also reaches through a reference, spec §5.9) is a
//     sync/atomic operation, so the execution is an interleaving of single
//     accesses; other columns are touched only by their own instance and
//     stay plain. Under lockstep the buffer is never read during a step,
//     so only writes into it to columns the step assigns through a
//     reference (two writers of one cell) are atomic.
//
// Execution order (Options.Order). BatchOrder, the default, runs a step on
// batches of up to 256 consecutive labels statement by statement: each
// compiled node loops over the batch (batch.go), which is another legal
// interleaving of the instances' accesses, each instance's own accesses
// staying in program order. Steps with constructors and lockstep runs go
// instance by instance instead. LabelOrder runs each instance's whole step
// body in label order (spec AT-1's counts: Fig. 1 stabilises after 2
// iterations, 3 batched or in lockstep); ReverseOrder and seeded
// RandomOrder are further legal executions, to test that a result does
// not depend on one. Batches run on Options.Workers goroutines over chunks
// of labels; Workers == 1 is deterministic. Each worker's state (and its
// locals, write cache, batch vectors and counters) sits on cache lines of
// its own: it is written per instance, and sharing a line made two
// workers slower than one. Constructors take labels from an atomic
// counter; the new instance joins from the next step (spec §2.5), and
// column capacity is grown before a step by its static bound (instances ×
// constructor sites). Loading large .init columns and formatting a large
// print are shared by the workers too (issue 17: with one worker they were
// a fifth of a prefix sum at 10^6, a serial part that capped two workers
// at 1.63x). Stats times the run: the shared (parallel) regions, the
// serial rest, the workers' busy time (weft run --profile). A run-time
// error is reported for the lowest label among those failing in the first
// failing statement (batched) or instance (otherwise).
//
// Inline C++ (`$$` lines) is skipped; the driver warns once (A0205).
//
// Integers are 32-bit as in AuDaLaC (thesis §5.1); a result that does not fit
// its type is a run-time error (A0201), not a silent wrap.
package interp
