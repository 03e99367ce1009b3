// Package check validates a parsed AuDaLa program and produces its resolved,
// typed form (Program) that the interpreter and the CUDA generator consume.
//
// It implements the validation errors E001-E012 of thesis Table 2 (seed 003,
// Appendix B) with the typing rules AuDaLaC applies (spec §2.4): types Bool,
// Int, Nat and struct references; coercions Nat -> Int and null -> any
// struct; no shadowing (a declaration may not reuse a name of any enclosing
// scope, the struct's parameters included); reserved identifiers of the
// generated CUDA are E012.
//
// Contract: Check never panics; it reports every error it finds (at the
// offending token) and returns nil when there is any.
package check
