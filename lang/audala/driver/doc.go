// Package driver registers the audala front end (.adl) with the weft
// command: it parses each verb's flags (before or after the file) and wires
// the phases together, syntax -> check -> interp / cudagen.
//
//	weft check PROG.adl                      diagnostics only
//	weft run   PROG.adl [INPUT.init] ...     the parallel interpreter
//	weft build PROG.adl -o DIR ...           DIR/PROG.cu (CUDA C++)
//	weft fmt   PROG.adl [-w]                 canonical source, comments kept
//
// Contract: exit 0 on success, 1 when the program or its input is rejected
// or fails at run time (diagnostics printed, --json for JSON), 2 for usage
// and I/O errors. `weft help run` / `weft help build` list the flags.
package driver
