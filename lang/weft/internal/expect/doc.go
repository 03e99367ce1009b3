// Package expect is the test driver shared by the Weft analyses' data-driven
// tests (gpucheck, distmem, syncheck): chunked testdata files and the inline
// markers that name the diagnostics each line must produce.
//
// A testdata file holds many small programs separated by `---` lines
// (Chunks keeps file positions). A marker on a line,
//
//	# ERROR W0601@17 "regexp"            (or WARN, INFO)
//	# ERROR W0601@17 "regexp" NOTE@12:5  (position of the first note)
//
// names a diagnostic with that severity and code at that line and column
// whose message matches the regexp. Match fails the test for a missing
// diagnostic, an unexpected one, and a malformed marker.
package expect
