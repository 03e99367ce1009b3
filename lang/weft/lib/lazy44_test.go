package lib

import (
	"fmt"
	"reflect"
	"slices"
	"sync"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/syntax"
)

// stripLib returns copies of a memory table's values without their
// Library (which the comparison would follow into the other library).
func stripLib[V any](m map[string]*V, strip func(*V)) map[string]V {
	out := map[string]V{}
	for n, v := range m {
		c := *v
		strip(&c)
		out[n] = c
	}
	return out
}

// TestLazyMatchesEager (issue 13, stop 44): Std, whose files of procs are
// parsed a def at a time at first lookup, is the library an eager Load of
// the same files makes: every instruction and helper proc, parsed here
// through the lazy path, deep-equal (trees, positions, accesses, modes)
// to the eager one, and the same tables. An error anywhere in the
// library fails it: the eager Load's error, or the lazy parse's panic.
func TestLazyMatchesEager(t *testing.T) {
	lazy := MustStd()
	for _, f := range StdFiles() {
		if lazyDefs(f.Text()) == nil && f.Name != "lib/externs.weft" && f.Name != "lib/memories.weft" && f.Name != "lib/timelines.weft" && f.Name != "lib/units.weft" {
			t.Errorf("%s: not loaded lazily", f.Name)
		}
	}
	eager, err := Load(StdFiles()...)
	if err != nil {
		t.Fatal(err)
	}
	names := slices.Sorted(eager.Names())
	if got := slices.Sorted(lazy.Names()); !slices.Equal(got, names) || lazy.NumInstrs() != eager.NumInstrs() {
		t.Fatalf("names %v (%d instrs), want %v (%d)", got, lazy.NumInstrs(), names, eager.NumInstrs())
	}
	for _, n := range names {
		if lazy.HasProc(n) != eager.HasProc(n) || lazy.defs[n].isInstr != eager.defs[n].isInstr {
			t.Errorf("%s: lazy is an instruction %v, eager %v", n, lazy.defs[n].isInstr, eager.defs[n].isInstr)
		}
		if li, ei := lazy.Instr(n), eager.Instr(n); !reflect.DeepEqual(li, ei) {
			t.Errorf("%s: the lazily parsed instruction differs from the eager one", n)
		}
		if lp, ep := lazy.Proc(n), eager.Proc(n); !reflect.DeepEqual(lp, ep) {
			t.Errorf("%s: the lazily parsed proc differs from the eager one", n)
		}
		if lazy.Decl(n) == nil || !reflect.DeepEqual(lazy.Decl(n), eager.Decl(n)) {
			t.Errorf("%s: Decl differs", n)
		}
		if d := lazy.defs[n]; d.file != nil && !d.done.Load() {
			t.Errorf("%s: not parsed by its lookups", n)
		}
	}
	noLib := func(m *Memory) { m.lib = nil }
	noBLib := func(b *BarrierMemory) { b.lib = nil }
	for _, c := range []struct {
		what       string
		lazy, want any
	}{
		{"memories", stripLib(lazy.Memories, noLib), stripLib(eager.Memories, noLib)},
		{"barriers", stripLib(lazy.Barriers, noBLib), stripLib(eager.Barriers, noBLib)},
		{"windows", lazy.Windows, eager.Windows},
		{"units", lazy.Units, eager.Units},
		{"quals", lazy.Quals, eager.Quals},
		{"qual order", lazy.QualOrder, eager.QualOrder},
		{"timelines", lazy.Timelines, eager.Timelines},
		{"known", lazy.Known, eager.Known},
		{"stream sync", lazy.StreamSync, eager.StreamSync},
	} {
		if !reflect.DeepEqual(c.lazy, c.want) {
			t.Errorf("%s differ", c.what)
		}
	}
	// The files kept: the eager load's, less those of procs parsed lazily.
	var kept []*syntax.File
	for _, f := range eager.Files {
		if lazyDefs(f.Decls[0].Pos().File.Text()) == nil {
			kept = append(kept, f)
		}
	}
	if !reflect.DeepEqual(lazy.Files, kept) {
		t.Errorf("files differ")
	}
	if s, w := lazy.String(), eager.String(); s != w {
		t.Errorf("String %q, want %q", s, w)
	}
	if lazy.Instr("no_such") != nil || lazy.Proc("no_such") != nil || lazy.Decl("no_such") != nil || lazy.HasProc("no_such") {
		t.Error("a name the library lacks was found")
	}
}

// TestLazyConcurrent (stop 44; run with -race): goroutines looking the
// same lazy defs up for the first time at once get one parse each, the
// eager load's.
func TestLazyConcurrent(t *testing.T) {
	eager, err := Load(StdFiles()...)
	if err != nil {
		t.Fatal(err)
	}
	l, err := load(StdFiles(), true)
	if err != nil {
		t.Fatal(err)
	}
	names := slices.Sorted(l.Names())
	const n = 8
	got := make([][]*syntax.Proc, n)
	var wg sync.WaitGroup
	for g := range n {
		wg.Go(func() {
			for i := range names {
				// Each goroutine from its own start: first lookups meet.
				name := names[(i+g*len(names)/n)%len(names)]
				d := l.Decl(name)
				if in := l.Instr(name); in != nil && in.Proc != d {
					t.Errorf("%s: Instr's proc is not Decl's", name)
				}
				got[g] = append(got[g], d)
			}
		})
	}
	wg.Wait()
	for g := 1; g < n; g++ {
		for _, d := range got[g] {
			if l.Decl(d.Name.Name) != d {
				t.Fatalf("%s parsed twice", d.Name.Name)
			}
		}
	}
	for _, name := range names {
		if !reflect.DeepEqual(l.Decl(name), eager.Decl(name)) {
			t.Errorf("%s differs from the eager load's", name)
		}
	}
}

// TestLazyPositions (stop 44): a diagnostic at a position inside a lazily
// parsed def, or at a lazily defined name (W0240 defined twice, found by
// lazyDefs' scan), reads the file, line and column of the eager load's.
func TestLazyPositions(t *testing.T) {
	eager, err := Load(StdFiles()...)
	if err != nil {
		t.Fatal(err)
	}
	lazy := MustStd()
	n := 0
	for name, ein := range eager.Instrs() {
		lp := lazy.Decl(name)
		var body []syntax.Stmt
		if len(lp.Body) > 0 {
			body = lp.Body
		}
		for i, s := range body {
			var le, ee diag.List
			le.Errorf(s.Pos(), "W0000", "here")
			ee.Errorf(ein.Proc.Body[i].Pos(), "W0000", "here")
			if l, e := le.Diags[0].Error(), ee.Diags[0].Error(); l != e {
				t.Fatalf("%s: %s, eager %s", name, l, e)
			}
			n++
		}
	}
	if n == 0 {
		t.Fatal("no statement compared")
	}
	// Defined twice: the note and the error at the scanned names.
	a := "@instr(tl=cuda_in_order, unit=cuda_thread, cuda=\"\")\ndef i(x: f32 @ any):\n    x = 0.0\n\n# a comment\ndef  p():\n    pass\n"
	b := "X = QualTL(abbrev=\"x\")\n@proc\ndef   p():\n    pass\ndef i():\n    pass\n"
	var msgs []string
	for _, lz := range []bool{false, true} {
		files := append(StdFiles(), diag.NewFile("a.weft", []byte(a)), diag.NewFile("b.weft", []byte(b)))
		if lz && (lazyDefs(a) == nil || lazyDefs(b) == nil) {
			t.Fatal("the test's files are not lazy")
		}
		_, err := load(files, lz)
		msgs = append(msgs, fmt.Sprint(err))
	}
	if msgs[0] != msgs[1] || !regexpMatch(`b\.weft:3:7: .*W0240.* p is defined twice`, msgs[0]) || !regexpMatch(`b\.weft:5:5: .*W0240.* i is defined twice`, msgs[0]) {
		t.Errorf("eager %s\nlazy %s", msgs[0], msgs[1])
	}
}

// TestLazyDefs (stop 44): the scan of a file's top-level lines.
func TestLazyDefs(t *testing.T) {
	for _, c := range []struct {
		src  string
		want string // the segments, or "" for nil
	}{
		{"def f():\n    pass\n", "[{0 18 4 f false false}]"},
		{"# c\n\n@instr(x)\n@access(y)\ndef g(a: f32):\n    # c2\n    pass\n  # tail\n\ndef h(): pass\n", "[{0 59 30 g true false} {59 83 73 h false false}]"},
		{"N = 3\n@proc\ndef f():\n  pass\nM = [1,\n  2]\n", "[{0 6 0  false true} {6 28 16 f false false} {28 41 0  false true}]"},
		{"N = 3\n", ""},                         // no proc
		{"@extern\ndef f():\n    pass\n", ""},   // an extern
		{"@proc\nN = 3\n", ""},                  // decorators of no def
		{"@proc\n", ""},                         // decorators of no def
		{"  x = 1\n", ""},                       // indented first
		{"def f():\n    pass\n)\n", ""},         // a closing bracket at column 0
		{"@config\nclass C:\n    a: f32\n", ""}, // a config
		{"def f(): pass\nclass C:\n    a: f32\n", "[{0 14 4 f false false} {14 34 0  false true}]"}, // a global line, parsed at load
	} {
		got := ""
		if s := lazyDefs(c.src); s != nil {
			got = fmt.Sprint(s)
		}
		if got != c.want {
			t.Errorf("%q: %s, want %s", c.src, got, c.want)
		}
	}
}
