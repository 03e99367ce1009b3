package check

import (
	"strings"
	"testing"
	"unsafe"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// TestArgExtents (stop 43): an argument's window extents come from the
// checker's ext slots without their Text (extentsOf), four of them, and
// from the slab past the fourth (intLit's fallback). A five-dimensional
// argument mismatches the parameter in a dimension of each kind (2: an
// ext slot; 4: the slab), both reported with the extent's value, and a
// window statement after the calls (the last with a free ext slot) keeps
// literals with their Text. Check
// and Lean report the same.
func TestArgExtents(t *testing.T) {
	src := "def g(x: f32[2, 3, 4, 5, 6] @ DRAM):\n    pass\n\n" +
		"def h(y: f32[2] @ DRAM):\n    pass\n\n" +
		"def f(a: f32[8, 8, 8, 8, 8] @ DRAM):\n" +
		"    g(a[0:2, 1:4, 0:3, 0:5, 2:8])\n" +
		"    g(a[0:2, 0:3, 0:4, 0:5, 1:8])\n" +
		"    g(a[0:2, 0:3, 0:4, 0:5, 2:8])\n" +
		"    h(a[0:2, 0, 0, 0, 0])\n" +
		"    w = a[0:2, 1:4, 0:4, 0:5, 2:7]\n"
	want := []string{
		"dimension 2 of x of g is 4, the argument's is 3",
		"dimension 4 of x of g is 6, the argument's is 7",
	}
	var lists [2]*diag.List
	for i, lean := range []bool{false, true} {
		var errs diag.List
		f := syntax.Parse(diag.NewFile("ext.weft", []byte(src)), &errs)
		p := check(f, lib.MustStd(), &errs, lean)
		lists[i] = &errs
		if len(errs.Diags) != len(want) {
			t.Fatalf("lean %v: want %d diagnostics, got:\n%s", lean, len(want), dump(&errs))
		}
		for k, d := range errs.Diags {
			if d.Code != "W0216" || !strings.Contains(d.Message, want[k]) {
				t.Fatalf("lean %v: diagnostic %d: %s %s, want W0216 %q", lean, k, d.Code, d.Message, want[k])
			}
		}
		if lean {
			continue
		}
		var w *Symbol
		for _, s := range p.ByName["f"].Locals {
			if s.Name == "w" {
				w = s
			}
		}
		if w == nil || len(w.Dims) != 5 {
			t.Fatalf("window w: %+v", w)
		}
		for k, d := range w.Dims {
			l, ok := d.(*syntax.IntLit)
			if !ok || l.Text != itoa(l.Value) || l.Value != []int64{2, 3, 4, 5, 5}[k] {
				t.Fatalf("w's dimension %d: %#v", k, d)
			}
		}
	}
	if dump(lists[0]) != dump(lists[1]) {
		t.Fatalf("Check and Lean differ:\n%s\n--\n%s", dump(lists[0]), dump(lists[1]))
	}
}

// TestParamLists (stop 43): the first proc of a file with at most four
// parameters lists them in the checker's array (paramList); every other
// proc, and one of more parameters, gets a list of its own. Each proc's
// list holds its own parameters, in order, whichever it got.
func TestParamLists(t *testing.T) {
	src := "def a(x: size, y: size):\n    pass\n\n" +
		"def b(u: size, v: size, w: size):\n    pass\n\n" +
		"def c(p0: size, p1: size, p2: size, p3: size, p4: size, p5: size):\n    pass\n"
	want := map[string][]string{"a": {"x", "y"}, "b": {"u", "v", "w"}, "c": {"p0", "p1", "p2", "p3", "p4", "p5"}}
	for _, lean := range []bool{false, true} {
		var errs diag.List
		f := syntax.Parse(diag.NewFile("params.weft", []byte(src)), &errs)
		p := check(f, lib.MustStd(), &errs, lean)
		if len(errs.Diags) != 0 {
			t.Fatalf("lean %v: %s", lean, dump(&errs))
		}
		for name, names := range want {
			got := p.ByName[name].Params
			if len(got) != len(names) || cap(got) != len(names) {
				t.Fatalf("lean %v: %s has %d parameters (cap %d), want %d", lean, name, len(got), cap(got), len(names))
			}
			for i, s := range got {
				if s.Name != names[i] || int(s.Param) != i {
					t.Fatalf("lean %v: %s's parameter %d is %s (%d), want %s", lean, name, i, s.Name, s.Param, names[i])
				}
			}
		}
		if &p.ByName["a"].Params[0] == &p.ByName["b"].Params[0] {
			t.Fatalf("lean %v: a and b share a list", lean)
		}
	}
}

// TestLookupProc (stop 43): lookupProc, a scan of Procs for a file of at
// most four procs and Lookup past that, answers as Lookup for every name
// of the file and of the library and for a name of neither, in files
// of one, four and six procs, one proc declared twice (W0202, in neither
// table) and one shadowing a library proc.
func TestLookupProc(t *testing.T) {
	shadow := "cuda_copy_to_gmem_f32"
	if l := lib.MustStd(); l.Proc(shadow) == nil && l.Instr(shadow) == nil {
		t.Fatalf("the library has no proc %s", shadow)
	}
	for _, n := range []int{1, 4, 6} {
		src := "def " + shadow + "(x: size):\n    pass\n\n"
		for i := 1; i < n; i++ {
			src += "def p" + itoa(int64(i)) + "(x: size):\n    pass\n\n"
		}
		if n > 1 {
			src += "def p1(y: size):\n    pass\n" // declared twice
		}
		var errs diag.List
		f := syntax.Parse(diag.NewFile("procs.weft", []byte(src)), &errs)
		p := Lean(f, lib.MustStd(), &errs)
		if len(p.Procs) != n {
			t.Fatalf("%d procs: Procs has %d", n, len(p.Procs))
		}
		c := &checker{prog: p}
		names := []string{"nope", "p1"}
		for name := range p.ByName {
			names = append(names, name)
		}
		for name := range p.libProcs.entries() {
			names = append(names, name)
		}
		for _, name := range names {
			if got, want := c.lookupProc(name), p.Lookup(name); got != want {
				t.Fatalf("%d procs: lookupProc(%s) = %v, Lookup %v", n, name, got, want)
			}
		}
		if got := c.lookupProc(shadow); got == nil || got.Lib {
			t.Fatalf("%d procs: %s is the library's, not the file's", n, shadow)
		}
		if got := c.lookupProc("p1"); n > 1 && (got == nil || got.Params[0].Name != "x") {
			t.Fatalf("%d procs: p1 is not its first declaration", n)
		}
	}
}

// TestLinearNames (stop 43): the open names sit in declared alone up to
// linearNames of them and in names too past that (hashDeclared). At
// every count, up to well past the crossing and back, find answers each
// open name's symbol and nil for a closed one, declare refuses an open
// name (W0202) and accepts a closed one again, and names holds exactly
// the open names or none.
func TestLinearNames(t *testing.T) {
	var errs diag.List
	c := &checker{errs: &errs, lean: true, prog: &Program{}}
	c.declared = c.first.declared[:0]
	n := 3 * linearNames
	syms := make([]*Symbol, n)
	name := func(i int) string { return "v" + itoa(int64(i)) }
	top := 0 // the round's most open names
	check := func(open int) {
		t.Helper()
		for i := 0; i < n; i++ {
			want := syms[i]
			if i >= open {
				want = nil
			}
			if got := c.find(name(i)); got != want {
				t.Fatalf("%d open: find(%s) = %v, want %v", open, name(i), got, want)
			}
		}
		if open < linearNames && c.names.n != 0 && top < linearNames {
			t.Fatalf("%d open: names holds %d", open, c.names.n)
		}
		if c.names.n != 0 && c.names.n != open {
			t.Fatalf("%d open: names holds %d", open, c.names.n)
		}
		if open > linearNames && c.names.n != open {
			t.Fatalf("%d open: names holds %d", open, c.names.n)
		}
	}
	// Up to linearNames - 1 and back (declared alone, a declaration
	// again included: v10 shares v1's bucket, v12 v3's), then to 3 *
	// linearNames and back.
	for _, top = range []int{linearNames - 1, n} {
		for i := 0; i < top; i++ {
			c.push()
			syms[i] = &Symbol{Name: name(i)}
			c.declare(&syntax.Name{Name: name(i)}, syms[i])
			check(i + 1)
			before := len(errs.Diags)
			c.declare(&syntax.Name{Name: name(i / 2)}, &Symbol{Name: name(i / 2)})
			if len(errs.Diags) != before+1 || errs.Diags[before].Code != "W0202" {
				t.Fatalf("%d open: %s declared again without W0202", i+1, name(i/2))
			}
			check(i + 1)
		}
		for i := top - 1; i >= 0; i-- {
			c.pop()
			check(i)
		}
	}
	c.push()
	syms[0] = &Symbol{Name: name(0)}
	c.declare(&syntax.Name{Name: name(0)}, syms[0]) // closed: declared anew
	check(1)
	// openName's pre-tests: names of one length and last byte (v10,
	// v20 above; x0, y0 here), and the empty name.
	x0, y0, empty := &Symbol{Name: "x0"}, &Symbol{Name: "y0"}, &Symbol{}
	c.declare(&syntax.Name{Name: "x0"}, x0)
	c.declare(&syntax.Name{Name: "y0"}, y0)
	if c.find("x0") != x0 || c.find("y0") != y0 || c.find("z0") != nil || c.find("") != nil {
		t.Fatalf("x0, y0: %v %v", c.find("x0"), c.find("y0"))
	}
	c.declare(&syntax.Name{Name: ""}, empty)
	if c.find("") != empty || c.find("x0") != x0 {
		t.Fatalf("the empty name: %v", c.find(""))
	}
}

// TestProgBlockSize keeps a check's one block (Program, first Proc and
// checker) within the 2304-byte size class, counting the allocator's
// 8-byte header of an object of more than 512 bytes with pointers: it
// was 2912 bytes, the 3072-byte class, with names' 16 first slots that
// no check used and declName's hash (stop 45).
func TestProgBlockSize(t *testing.T) {
	if n := unsafe.Sizeof(progBlock{}) + 8; n > 2304 {
		t.Errorf("progBlock takes %d bytes, more than 2304", n)
	}
}

// TestSymbolSize: a Symbol is 240 bytes, Kind, three flags and Param
// in one word (stop 45: 264). A proc's symbols are one array of them.
func TestSymbolSize(t *testing.T) {
	if n := unsafe.Sizeof(Symbol{}); n > 240 {
		t.Errorf("Symbol is %d bytes, more than 240", n)
	}
}
