// Package syntax scans and parses AuDaLa source (.adl) into a syntax tree,
// and prints a tree back as canonical source (the `weft fmt` verb), keeping
// comments (Program.Comments).
//
// The concrete grammar is the one AuDaLaC implements (seed 003 [21]; spec
// §2.3): structs with typed parameters and steps, statements (declaration,
// assignment through a dotted path, `if E then { ... }`), expressions with
// C++ precedence, and a schedule of step calls, `<` sequencing and `Fix(...)`.
//
// Decisions where the thesis is silent (spec Appendix C):
//   - There is no `else` and no unary minus, as in AuDaLaC.
//   - A `-` directly followed by a digit is a negative Int literal only where
//     an operand is expected; after an operand it is the minus operator, so
//     `x-1` means `x - 1` (AuDaLaC's longest-match lexer rejects it).
//   - Strings (`String`, "...") and inline C++ (`$$`) are rejected with a
//     diagnostic: the thesis says AuDaLaC supports neither in the language.
//
// Contract: Parse never panics; on bad input it stops at the first syntax
// error, returns a nil *Program and records one diagnostic (code A01xx) at
// the offending position in the given diag.List.
package syntax
