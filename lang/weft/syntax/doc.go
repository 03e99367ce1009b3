// Package syntax is the Weft kernel language's front end: the syntax tree,
// the parser and the canonical printer.
//
// The surface syntax is the Exo object-code syntax printed by seed 000
// (Fig. 1-2, appendix A) and seed 002: Python-like and indentation-based,
// tokenized by the shared pyscan scanner.
//
// Contract:
//   - Parse never panics. Every syntax error is a diagnostic with a position
//     and a code (W01xx); the parser recovers at the next line and keeps
//     going, so one run reports every independent error. The returned File is
//     usable (possibly partial) even when errors were reported.
//   - The tree is purely syntactic: names are not resolved and calls are not
//     classified beyond what the grammar fixes (Fence, Arrive, Await and their
//     Reverse forms are statements of their own; everything else that looks
//     like a call is a CallStmt). lang/weft/check gives the tree meaning.
//   - Print writes the canonical form (4-space indents, one space around
//     binary operators, minimal parentheses). Comments are kept: comments on
//     their own lines attach to the following statement, end-of-line comments
//     to the statement on that line. Parse(Print(f)) equals f up to
//     positions, and Print is idempotent.
package syntax
