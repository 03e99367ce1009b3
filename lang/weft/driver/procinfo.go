package driver

import (
	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/interp"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syncheck"
	"weft.dev/weft/lang/weft/syntax"
)

// ProcInfo parses src and returns the proc that weft run and weft build
// --harness use (name, or the file's only non-instruction proc) and the
// size sets of the file's "# check:" lines, for tools above the front ends
// (weft validate) that drive those verbs. Problems in the file are returned
// as a *diag.ListError.
func ProcInfo(src *diag.File, name string) (*interp.Proc, []map[string]int64, error) {
	var errs diag.List
	f := syntax.Parse(src, &errs)
	if errs.HasErrors() {
		return nil, nil, &diag.ListError{List: &errs}
	}
	l, err := lib.Std()
	if err != nil {
		return nil, nil, err
	}
	p, err := interp.New(f, interp.Options{Procs: libProcs(l)}).Main(name)
	if err != nil {
		return nil, nil, err
	}
	var scratch diag.List // malformed directives are weft check's to report
	return p, syncheck.Directives(src, &scratch), nil
}
