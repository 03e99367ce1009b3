package check

import (
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// TestLibParamFacts: the answers libParamFacts records with the standard
// library's procs (stop 41) are the lookups they replace, for every
// parameter of every instruction and helper; a file's own procs record
// none, so their calls ask the library.
func TestLibParamFacts(t *testing.T) {
	l := lib.MustStd()
	src := "def p(x: f32[4] @ DRAM):\n    pass\n"
	var errs diag.List
	f := syntax.Parse(diag.NewFileString("t.weft", src), &errs)
	prog := Lean(f, l, &errs)
	if len(prog.libProcs.entries()) == 0 {
		t.Fatal("no library procs")
	}
	instrs := 0
	for name := range prog.libProcs.entries() {
		p := prog.libProcs.get(name)
		if (p.Instr != nil) != (p.modes != nil) {
			t.Fatalf("%s: instruction %v, modes %v", name, p.Instr != nil, p.modes)
		}
		for k, psym := range p.Params {
			if p.Instr != nil {
				instrs++
				want := ""
				if a := p.Instr.Access[psym.Name]; a != nil {
					want = a.Mode
				}
				if p.modes[k] != want {
					t.Fatalf("%s.%s: mode %q, Access says %q", name, psym.Name, p.modes[k], want)
				}
			}
			win := l.Windows[psym.Mem] != nil
			if psym.winMem == winMemUnknown || (psym.winMem == winMemYes) != win {
				t.Fatalf("%s.%s: winMem %d, Windows says %v", name, psym.Name, psym.winMem, win)
			}
		}
	}
	if instrs == 0 {
		t.Fatal("no instruction parameters")
	}
	for _, p := range prog.Procs {
		if p.modes != nil {
			t.Fatalf("file proc %s has modes", p.Name)
		}
		for _, psym := range p.Params {
			if psym.winMem != winMemUnknown {
				t.Fatalf("file proc %s: %s.winMem %d", p.Name, psym.Name, psym.winMem)
			}
		}
	}
}

// TestLastLookup: unit and timeline answer c.lib.Units[name] and
// c.lib.Timelines[name] for names asked in any order, repeated or not,
// known or not (stop 41).
func TestLastLookup(t *testing.T) {
	l := lib.MustStd()
	c := &checker{lib: l}
	questions := func(keys []string) []string {
		var names []string
		for _, n := range keys {
			names = append(names, n, n)
		}
		return append(names, "no_such_name", "no_such_name", "", keys[0])
	}
	var units, tls []string
	for n := range l.Units {
		units = append(units, n)
	}
	for n := range l.Timelines {
		tls = append(tls, n)
	}
	for _, n := range questions(units) {
		if got, want := c.unit(n), l.Units[n]; got != want {
			t.Fatalf("unit(%q) = %v, want %v", n, got, want)
		}
	}
	for _, n := range questions(tls) {
		if got, want := c.timeline(n), l.Timelines[n]; got != want {
			t.Fatalf("timeline(%q) = %v, want %v", n, got, want)
		}
	}
}
