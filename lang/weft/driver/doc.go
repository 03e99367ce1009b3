// Package driver registers the Weft kernel language (.weft) with the weft
// command and wires its phases together for each verb:
//
//	weft check FILE [NAME=VALUE ...] [--json]   parse, check.Check, then every registered Checker in Order
//	weft run   FILE [--proc NAME] [NAME=VALUE ...] [--seed S] [--out DIR]   the sequential interpreter
//	weft fmt   FILE [-w] [-d]                   canonical printing
//	weft build FILE ...                         CUDA C++ (build.go, owned by codegen, sets buildVerb)
//
// Contract: later analyses plug into `weft check` by one file each inside
// this package that calls RegisterChecker from init (check_gpu.go,
// check_sync.go); `weft build` is provided by build.go assigning buildVerb
// in its init. Checkers run in increasing Order and stop at the first one
// that reports errors. Flags and positional arguments may come in any order.
package driver
