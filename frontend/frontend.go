package frontend

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"weft.dev/weft/diag"
	"weft.dev/weft/safeio"
)

// Env is what a verb may touch: its output streams and whether stderr is a
// terminal (for progress bars).
type Env struct {
	Stdout, Stderr io.Writer
	Stdin          io.Reader
	// StderrIsTerminal is true when stderr is an interactive terminal.
	StderrIsTerminal bool
	// MaxInput bounds the size of every input file in bytes (0:
	// DefaultMaxInput; negative: no limit); --max-input sets it.
	MaxInput int64
	// Force lets build outputs replace files Weft did not generate
	// (--force).
	Force bool
}

// DefaultMaxInput is the default input size limit: far above any real
// source or schedule script, far below what would exhaust memory.
const DefaultMaxInput = 16 << 20

// InputLimit is the size limit inputs are read under (<= 0: none).
func (env *Env) InputLimit() int64 {
	if env.MaxInput == 0 {
		return DefaultMaxInput
	}
	return env.MaxInput
}

// Verb runs one verb over args (the file and flags after the verb name).
type Verb func(env *Env, args []string) int

// FrontEnd is one language.
type FrontEnd struct {
	Name       string   // e.g. "weft", "cudac", "audala", "prism"
	Extensions []string // with the dot: ".weft"
	Summary    string   // one line for `weft help`
	Check      Verb
	Run        Verb
	Build      Verb
	Fmt        Verb
	Sched      Verb
	// Help, if set, prints the verb-specific flags this front end accepts.
	Help func(w io.Writer, verb string)
}

var registry []*FrontEnd

// Register adds fe. Registering an extension twice panics at start-up.
func Register(fe *FrontEnd) {
	for _, e := range fe.Extensions {
		if other := ForExt(e); other != nil {
			panic(fmt.Sprintf("frontend: %s claimed by %s and %s", e, other.Name, fe.Name))
		}
	}
	registry = append(registry, fe)
	sort.Slice(registry, func(i, j int) bool { return registry[i].Name < registry[j].Name })
}

// All returns the registered front ends sorted by name.
func All() []*FrontEnd { return registry }

// ForExt returns the front end claiming extension ext, or nil.
func ForExt(ext string) *FrontEnd {
	for _, fe := range registry {
		for _, e := range fe.Extensions {
			if strings.EqualFold(e, ext) {
				return fe
			}
		}
	}
	return nil
}

// ForFile returns the front end for path by its extension, or nil.
func ForFile(path string) *FrontEnd { return ForExt(filepath.Ext(path)) }

// Verb returns fe's implementation of the named verb, or nil.
func (fe *FrontEnd) Verb(name string) Verb {
	switch name {
	case "check":
		return fe.Check
	case "run":
		return fe.Run
	case "build":
		return fe.Build
	case "fmt":
		return fe.Fmt
	case "sched":
		return fe.Sched
	}
	return nil
}

// Report prints diags to env.Stderr as text, or to env.Stdout as one JSON
// array when asJSON is set, and returns 1 if any is an error, else 0.
func Report(env *Env, diags *diag.List, asJSON bool) int {
	diags.Sort()
	if asJSON {
		diag.WriteJSON(env.Stdout, diags.Diags)
	} else {
		diag.WriteText(env.Stderr, diags.Diags)
		if n := diags.Dropped(); n > 0 {
			fmt.Fprintf(env.Stderr, "(%d more diagnostics not shown)\n", n)
		}
	}
	if diags.HasErrors() {
		return 1
	}
	return 0
}

// ReadSource reads path into a diag.File, printing an I/O error and
// returning ok=false (status 2 for the caller) on failure.
func ReadSource(env *Env, path string) (*diag.File, bool) {
	src, err := ReadInput(env, path)
	if err != nil {
		fmt.Fprintf(env.Stderr, "weft: %v\n", err)
		return nil, false
	}
	// src is this File's alone (ReadInput's buffer): Text need not copy it.
	return diag.NewFileOwned(path, LoneCRToLF(src)), true
}

// LoneCRToLF replaces each "\r" not followed by "\n" (the line ending of
// old Mac files, or of files mixing conventions) with "\n", in place, so
// that every scanner, directive reader and excerpt sees the lines the
// user's editor shows (issue 14). It changes no offset: positions in
// diagnostics are those of the original bytes. "\r\n" is left alone.
func LoneCRToLF(src []byte) []byte {
	// From "\r" to "\r" by IndexByte: most files have none, and a loop
	// over every byte was a microsecond per 2 KB of every check (issue 13).
	for i := bytes.IndexByte(src, '\r'); i >= 0; {
		if i+1 == len(src) || src[i+1] != '\n' {
			src[i] = '\n'
		}
		j := bytes.IndexByte(src[i+1:], '\r')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return src
}

// ReadInput reads an input file under env's size limit; it must be a
// regular file. The error of an oversized file names --max-input.
func ReadInput(env *Env, path string) ([]byte, error) {
	src, err := safeio.ReadFile(path, env.InputLimit())
	if err == nil {
		return src, nil // (errors.As's target escapes: an allocation per read)
	}
	var le *safeio.LimitError
	if errors.As(err, &le) {
		return nil, fmt.Errorf("%s: error: the file is larger than %d bytes, the input size limit (--max-input BYTES raises it)", le.Path, le.Limit)
	}
	return src, err
}

// WriteOutputs writes the files of a build into dir all or nothing
// (safeio.WriteFiles), refusing to replace a file Weft did not generate
// unless --force. It prints any error and returns false.
func WriteOutputs(env *Env, dir string, outs []safeio.Output) bool {
	if err := safeio.WriteFiles(dir, outs, env.Force); err != nil {
		fmt.Fprintf(env.Stderr, "weft: %v\n", err)
		return false
	}
	return true
}

// WriteFile replaces path with data atomically (safeio.WriteFile), printing
// any error and returning false.
func WriteFile(env *Env, path string, data []byte) bool {
	if err := safeio.WriteFile(path, data, 0o644); err != nil {
		fmt.Fprintf(env.Stderr, "weft: %v\n", err)
		return false
	}
	return true
}

// Usagef prints a usage error and returns status 2.
func Usagef(env *Env, format string, args ...any) int {
	fmt.Fprintf(env.Stderr, "weft: "+format+"\n", args...)
	return 2
}
