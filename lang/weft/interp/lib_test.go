package interp

import (
	"sort"
	"testing"

	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// TestLibCompiles: the behaviour body of every standard-library instruction
// and helper proc has a sequential meaning the interpreter can run.
func TestLibCompiles(t *testing.T) {
	l, err := lib.Std()
	if err != nil {
		t.Fatal(err)
	}
	procs := libProcs(t)
	var names []string
	for name := range l.Instrs() {
		names = append(names, name)
	}
	for name := range l.Procs() {
		names = append(names, name)
	}
	sort.Strings(names)
	if len(names) < 20 {
		t.Fatalf("only %d library procs", len(names))
	}
	for _, name := range names {
		prog := New(&syntax.File{Name: "lib"}, Options{Procs: procs})
		if _, err := prog.Proc(prog.lookup(name)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	t.Logf("%d library instructions and procs compile", len(names))
}
