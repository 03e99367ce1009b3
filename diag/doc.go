// Package diag holds source files, positions and the diagnostics every Weft
// front end reports.
//
// Contract:
//   - A File owns its source text; a Pos is a byte offset into one File and
//     computes its 1-based line and column (columns count bytes, as Go and
//     Clang do) on demand, so positions stay one word plus a pointer.
//   - A Diagnostic has a severity, a stable code (e.g. "W0304"), a message,
//     a primary position and optional end, and Notes that point at related
//     places ("the other access is here").
//   - Rendering is `file:line:col: severity[CODE]: message`, the source line
//     and a caret under the column, then each note the same way (WriteText),
//     or one JSON array for editors and CI (WriteJSON). Rendering is
//     deterministic: List.Sort orders by file, offset and code.
//   - Codes are stable and documented: every front end registers its table
//     with Register, and `weft help codes` / docs/diagnostics.md print them.
//
// Nothing in this package panics on bad positions: an invalid Pos renders
// without line information.
package diag
