// Package frontend is the seam between the weft command and the four
// languages it serves (.weft, .cu, .adl, .prism).
//
// Contract: each language registers one FrontEnd from an init function in
// its lang/<name>/driver package. A FrontEnd claims file extensions and
// implements the verbs it supports; every verb receives the command line
// after the verb (file name and flags, in any order the front end accepts)
// and an Env for output, and returns the exit status: 0 success, 1 the
// program was rejected (diagnostics printed), 2 usage or I/O error. A verb
// left nil is reported as unsupported for that language with status 2.
//
// Report prints diagnostics in the form every front end shares (text or
// --json), so users see one format whatever the language.
package frontend
