package check

import (
	"fmt"
	"reflect"
	"sort"
	"sync"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// eagerLibProcs is the library's resolution as check made it before stop
// 44, for the first Program of a Library: every instruction and proc, in
// name order, by the Program's own checker (the file's globals and procs
// not declared yet), into one private diagnostic list.
func eagerLibProcs(l *lib.Library) (map[string]*Proc, *Program, *diag.List) {
	blk := &progBlock{prog: Program{File: &syntax.File{Name: "eager.weft"}, Lib: l, ByName: map[string]*Proc{}}}
	c := &blk.chk
	c.lib, c.errs, c.prog, c.lean = l, &diag.List{}, &blk.prog, true
	m := map[string]*Proc{}
	var names []string
	for n := range l.Instrs() {
		names = append(names, n)
	}
	for n := range l.Procs() {
		names = append(names, n)
	}
	sort.Strings(names)
	var pending []*Proc
	for _, n := range names {
		var p *Proc
		if in := l.Instr(n); in != nil {
			p = newProc(in.Proc)
			p.Instr = in
		} else {
			p = newProc(l.Proc(n))
		}
		p.Lib = true
		m[n] = p
		pending = append(pending, p)
	}
	// The table eager lookups went through: the procs above, resolved
	// as they stand (a library body calling another library proc saw it
	// resolved only if its name came first).
	t := &libTable{lib: l, idx: new(libIndex), mu: new(sync.Mutex), held: true}
	t.idx.once.Do(func() {
		t.idx.procs = map[string]*libProc{}
		for n, p := range m {
			e := &libProc{p: p}
			e.done.Store(true)
			t.idx.procs[n] = e
		}
	})
	blk.prog.libProcs = t
	c.lean = false
	for _, p := range pending {
		c.checkProc(p, p.Decl, codeUnknown)
		libParamFacts(l, p)
	}
	return m, &blk.prog, c.errs
}

// TestLibTableAll (stop 44) forces every library instruction and proc
// through the lazy table's full resolution and check, as the eager load
// did at every first check: the bodies must check without diagnostics,
// so an error in the library still fails the suite.
func TestLibTableAll(t *testing.T) {
	l := lib.MustStd()
	tab := newLibTable(l)
	if len(tab.entries()) != l.NumNames() {
		t.Fatalf("table has %d procs, library %d instrs + %d procs", len(tab.entries()), l.NumInstrs(), l.NumNames()-l.NumInstrs())
	}
	for name, e := range tab.entries() {
		p := tab.get(name)
		if p == nil || p != e.p || !e.done.Load() || !p.Lib || p.Name != name {
			t.Fatalf("get(%s) = %+v", name, p)
		}
		if in := l.Instr(name); p.Instr != in || (in == nil && p.Decl != l.Proc(name)) {
			t.Fatalf("%s: Instr %p, Decl %p: not the library's", name, p.Instr, p.Decl)
		}
		if len(p.Params) != len(p.Decl.Params) {
			t.Fatalf("%s: %d params resolved of %d", name, len(p.Params), len(p.Decl.Params))
		}
		if again := tab.get(name); again != p {
			t.Fatalf("get(%s) twice: %p then %p", name, p, again)
		}
	}
	if tab.errs.Len() > 0 {
		t.Fatalf("library bodies: %v", tab.errs.Err())
	}
	if tab.get("no_such_proc") != nil || (*libTable)(nil).get("cuda_add_f32") != nil {
		t.Fatal("get of an unknown name, or of no table, found a proc")
	}
}

// TestLibTableMatchesEager (stop 44): each library proc the lazy table
// resolves at its first lookup, in any order, is the proc the eager
// resolution of the whole library made (symbols, uses, definitions,
// facts), and the eager resolution gave the first Program nothing of
// the library's (configs, externs, constants): the lazy one, whose
// checker has a Program of its own, takes none from it.
func TestLibTableMatchesEager(t *testing.T) {
	l := lib.MustStd()
	eager, prog, errs := eagerLibProcs(l)
	if errs.Len() > 0 {
		t.Fatalf("eager resolution: %v", errs.Err())
	}
	if prog.Configs != nil || prog.Fields != nil || prog.Externs != nil || prog.Consts != nil || prog.Globals != nil || len(prog.ByName) != 0 {
		t.Fatalf("the eager resolution wrote into its Program: %+v", prog)
	}
	var names []string
	for n := range eager {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, order := range []string{"forward", "backward"} {
		tab := newLibTable(l)
		for i := range names {
			n := names[i]
			if order == "backward" {
				n = names[len(names)-1-i]
			}
			lazy := tab.get(n)
			if !reflect.DeepEqual(lazy, eager[n]) {
				t.Fatalf("%s (%s): lazy %s\neager %s", n, order, dumpProc(lazy), dumpProc(eager[n]))
			}
		}
	}
}

// dumpProc is a proc's resolved parameters and locals, for a failure.
func dumpProc(p *Proc) string {
	if p == nil {
		return "nil"
	}
	s := fmt.Sprintf("%s instr=%v uses=%d defs=%d loops=%d decls=%d modes=%q", p.Name, p.Instr != nil, len(p.Uses), len(p.Defs), p.loops, p.decls, p.modes)
	for _, sym := range append(append([]*Symbol(nil), p.Params...), p.Locals...) {
		s += fmt.Sprintf("\n  %+v", *sym)
	}
	return s
}

// TestLibTableConcurrent (stop 44; run with -race): several checks of
// files that call the same library procs, started together against a
// Library no check has used yet, resolve each proc once and agree.
func TestLibTableConcurrent(t *testing.T) {
	l := lib.MustStd()
	libCache.Delete(l) // a fresh table: the checks below make the first lookups
	src := `def k(x: f32[16] @ DRAM):
    with CudaDeviceFunction(blockDim=16):
        for t in cuda_threads(0, 16, unit=cuda_thread):
            y: f32 @ CudaRmem
            cuda_zero_f32(y)
            cuda_add_f32(y, y, y)
            cuda_fma_f32(y, y, y)
            cuda_copy_f32(y, y)
`
	const n = 8
	progs := make([]*Program, n)
	msgs := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var errs diag.List
			f := syntax.Parse(diag.NewFileString(fmt.Sprintf("k%d.weft", i), src), &errs)
			progs[i] = Lean(f, l, &errs)
			for _, d := range errs.Diags {
				msgs[i] += d.Code + " " + d.Message + "\n"
			}
		}()
	}
	wg.Wait()
	for i := 1; i < n; i++ {
		if progs[i].libProcs != progs[0].libProcs {
			t.Fatalf("check %d has a table of its own", i)
		}
		if msgs[i] != msgs[0] {
			t.Fatalf("check %d: %q, check 0: %q", i, msgs[i], msgs[0])
		}
	}
	for _, name := range []string{"cuda_zero_f32", "cuda_add_f32", "cuda_fma_f32", "cuda_copy_f32"} {
		e := progs[0].libProcs.entries()[name]
		if e == nil || !e.done.Load() {
			t.Fatalf("%s not resolved", name)
		}
		for i := range n {
			if got := progs[i].Lookup(name); got != e.p {
				t.Fatalf("check %d: Lookup(%s) = %p, want %p", i, name, got, e.p)
			}
		}
	}
	if e := progs[0].libProcs.entries()["cuda_sub_f32"]; e == nil || e.done.Load() {
		t.Fatal("cuda_sub_f32, which no check calls, was resolved")
	}
	// A check that calls no library proc makes no index.
	libCache.Delete(l)
	var errs diag.List
	f := syntax.Parse(diag.NewFileString("none.weft", "def k(x: f32[16] @ DRAM):\n    x[0] = 1.0\n"), &errs)
	p := Lean(f, l, &errs)
	if errs.Len() > 0 || p.libProcs == nil || p.libProcs.idx.procs != nil {
		t.Fatalf("a check calling no library proc: %v, index %v", errs.Err(), p.libProcs.idx.procs)
	}
}
