// Package validate implements `weft validate FILE [NAME=VALUE ...]`: it
// builds a .weft, .prism or .adl program with `weft build --harness`, runs
// the generated program, unmodified, in Weft's CUDA-C semantics
// (lang/cudac) with the race and deadlock checks of `weft check`, runs the
// source with `weft run` on the same inputs, and compares every output.
//
// It sits above the front ends (it drives their verbs through package
// frontend and reads a Weft proc's parameters through lang/weft/driver), so
// that no front end imports another.
//
// Contract: Main prints one verdict line per validated proc or program:
//
//	NAME: match (...)                       every output agrees
//	NAME: mismatch: ...                     the first differing element or line
//	NAME: the semantics reported ...        races, deadlocks or run-time errors,
//	                                        followed by those diagnostics
//
// and returns 0 only when everything matched and nothing was reported, 1
// otherwise, 2 on a usage or I/O error. Outputs are compared bit for bit,
// except the arrays of Weft programs whose generated code uses tensor-core
// instructions (mma.sync, wgmma) with tf32, bf16 or f16 inputs, which are
// compared within the bound of docs/cudac.md ("Inline PTX"): the ISA does not
// fix the accumulation order.
package validate
