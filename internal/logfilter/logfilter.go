// Package logfilter drops one log line that a dependency prints while the
// program initializes (issue 14): go.starlark.net reserves 4 GB of address
// space for small integers in a package-level initializer and, when an
// address-space limit (ulimit -v) refuses it, logs "Starlark failed to
// allocate 4GB address space ... Integer performance may suffer." on every
// invocation of weft, even `weft version`. Starlark then falls back to
// ordinary integers, so the line is noise.
//
// Package initialization runs in import-path order among the packages whose
// imports are ready (Go spec, "Package initialization"), so this package
// lives in its own module, early.weft.dev/logfilter, replaced by this
// directory in weft's go.mod: its path sorts before go.starlark.net, and it
// imports only packages Starlark imports too, so its init runs first. It
// filters the standard logger's output and passes every other line on.
package logfilter

import (
	"log"
	"strings"
)

// Dropped is the prefix of the line that is dropped.
const Dropped = "Starlark failed to allocate 4GB address space"

type filter struct {
	next interface{ Write([]byte) (int, error) }
}

func (f filter) Write(p []byte) (int, error) {
	if strings.Contains(string(p), Dropped) {
		return len(p), nil
	}
	return f.next.Write(p)
}

func init() {
	log.SetOutput(filter{next: log.Writer()})
}
