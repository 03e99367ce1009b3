package syncheck

import (
	"reflect"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/internal/testrepo"
	"weft.dev/weft/lang/weft/amir"
	"weft.dev/weft/lang/weft/gpucheck"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// TestScopeOfMatchesScopeAt: scopeOf, which compares and searches
// statements as their concrete types (sameStmt, scopeAt), answers as
// gpucheck's ScopeAt with one cursor did, and moves the cursor alike,
// for every statement of the programs asked in walk order, backwards
// and by strides, and for statements that are not there (a nil, a new
// node of each kind searched by type, one of another kind).
func TestScopeOfMatchesScopeAt(t *testing.T) {
	checked, _ := testrepo.WeftPrograms(t, "../../..", lib.MustStd(), Directives)
	asked, found, missed := 0, 0, 0
	for _, ch := range checked {
		gpu := ch.GPU
		n := len(gpu.Stmts)
		var order []syntax.Stmt
		order = append(order, gpu.Stmts...)
		for i := n - 1; i >= 0; i-- {
			order = append(order, gpu.Stmts[i])
		}
		for _, k := range []int{3, 7} {
			for i := 0; i < n; i++ {
				order = append(order, gpu.Stmts[(i*k)%n], gpu.Stmts[(i*k)%n])
			}
		}
		order = append(order, nil, &syntax.Assign{}, &syntax.CallStmt{}, &syntax.For{}, &syntax.Alloc{}, &syntax.Pass{})
		c := &converter{res: gpu}
		ref := 0
		for _, st := range order {
			want := gpu.ScopeAt(st, &ref)
			if got := c.scopeOf(st); got != want || c.scopeCur != ref {
				t.Fatalf("%T: scope %p cursor %d, want %p %d", st, got, c.scopeCur, want, ref)
			}
			asked++
			if want != nil {
				found++
			} else {
				missed++
			}
		}
	}
	// A statement listed twice (an inlined proc's, walked per call) has
	// the scope of its first occurrence from the cursor on.
	x, y, w := &syntax.Assign{}, &syntax.For{}, &syntax.With{}
	list := []syntax.Stmt{x, y, w, x, y, w}
	scopes := make([]*gpucheck.Scope, len(list))
	for i := range scopes {
		scopes[i] = new(gpucheck.Scope)
	}
	gpu := &gpucheck.Result{Stmts: list, StmtScopes: scopes}
	c := &converter{res: gpu}
	ref := 0
	for _, i := range []int{1, 0, 3, 3, 4, 2, 5, 1, 0, 2, 4, 4, 3} {
		st := list[i]
		want := gpu.ScopeAt(st, &ref)
		if got := c.scopeOf(st); got != want || c.scopeCur != ref {
			t.Fatalf("twice: %T: scope %p cursor %d, want %p %d", st, got, c.scopeCur, want, ref)
		}
		c.lastSt = nil // asked again: searched again
	}
	if found < 1000 || missed < 10 {
		t.Errorf("%d asked, %d found, %d missed: want more", asked, found, missed)
	}
	// sameStmt is ==, for each kind it compares as its type and others.
	a, b := &syntax.Assign{}, &syntax.Assign{}
	stmts := []syntax.Stmt{nil, a, b, &syntax.CallStmt{}, &syntax.For{}, &syntax.Alloc{}, &syntax.With{}, &syntax.Free{}}
	for _, x := range stmts {
		for _, y := range stmts {
			if sameStmt(x, y) != (x == y) {
				t.Errorf("sameStmt(%T %p, %T %p) = %v", x, x, y, y, !(x == y))
			}
		}
	}
}

// TestBoundAccesses: the accesses boundAccesses pairs with arguments
// from in.AccessOrder (distinct parameter names) are those a lookup of
// every parameter's name in in.Access pairs, for every instruction of
// the library and of the programs and every pattern of unbound
// parameters; and an instruction whose parameters share a name takes
// the lookups (distinct false), where AccessOrder would pair
// differently.
func TestBoundAccesses(t *testing.T) {
	l := lib.MustStd()
	checked, _ := testrepo.WeftPrograms(t, "../../..", l, Directives)
	var ins []*lib.Instr
	for _, in := range l.Instrs() {
		ins = append(ins, in)
	}
	for _, ch := range checked {
		for _, d := range ch.File.Decls {
			if p, ok := d.(*syntax.Proc); ok && lib.IsInstr(p) {
				var scratch diag.List
				if in := lib.ParseInstr(p, l, &scratch); in != nil {
					ins = append(ins, in)
				}
			}
		}
	}
	// The lookup of every parameter's name, as call paired them before
	// (boundAccesses' other way, its code unchanged).
	ref := func(in *lib.Instr, vals []syntax.Expr) []boundArg { return boundAccesses(nil, in, false, vals) }
	bound := 0
	for _, in := range ins {
		ps := in.Proc.Params
		if !distinctParams(ps) {
			t.Errorf("%s: parameters share a name", in.Name)
			continue
		}
		for mask := 0; mask < 1<<min(len(ps), 8); mask++ {
			vals := make([]syntax.Expr, len(ps))
			for i := range vals {
				if i >= 8 || mask&(1<<i) != 0 {
					vals[i] = &syntax.Name{Name: ps[i].Name.Name}
				}
			}
			if got, want := boundAccesses(nil, in, true, vals), ref(in, vals); !reflect.DeepEqual(got, want) {
				t.Fatalf("%s %b: %v, want %v", in.Name, mask, got, want)
			}
			bound++
		}
	}
	if bound < 100 {
		t.Errorf("%d bindings checked", bound)
	}
	// x: f32 (data) and x: size (not), sharing a name: in.Access["x"] is
	// the data parameter's, which the lookup pairs with both arguments.
	src := "@instr(tl=cuda_in_order, unit=cuda_thread, cuda=\"\")\ndef dup(x: f32[4] @ CudaRmem, x: size):\n    pass\n"
	var errs diag.List
	f := syntax.Parse(diag.NewFile("dup.weft", []byte(src)), &errs)
	p := f.Decls[0].(*syntax.Proc)
	in := lib.ParseInstr(p, l, &errs)
	if in == nil || len(in.AccessOrder) != 1 {
		t.Fatalf("dup: %v %v", in, errs.Diags)
	}
	if distinctParams(p.Params) {
		t.Fatal("dup: distinctParams true")
	}
	c := &converter{instrs: map[string]*lib.Instr{"dup": in}, lib: l}
	if got, distinct := c.instr("dup"); got != in || distinct {
		t.Fatalf("instr(dup) = %v, %v", got, distinct)
	}
	vals := []syntax.Expr{&syntax.Name{Name: "a"}, &syntax.Name{Name: "b"}}
	x := in.Access["x"]
	if got := boundAccesses(nil, in, false, vals); !reflect.DeepEqual(got, []boundArg{{x, vals[0]}, {x, vals[1]}}) {
		t.Errorf("dup: %v", got)
	}
	if got := boundAccesses(nil, in, true, vals); len(got) != 1 {
		t.Errorf("dup by AccessOrder: %v (the lookups differ: the test shows nothing)", got)
	}
}

// TestAllocVarMatchesFree: every proc of the repository's programs
// converts to the same AMIR (each statement's kind, Src, Sync, access,
// threads, levels and qualifiers, in preorder) and diagnostics when a
// block's end frees its allocations by the variable alloc found
// (allocSrc.v) as by free's own search and lookup (allocVarOff), and
// the first way is taken.
func TestAllocVarMatchesFree(t *testing.T) {
	defer func() { allocVarOff = false }()
	progs, frees := 0, 0
	checked, _ := testrepo.WeftPrograms(t, "../../..", lib.MustStd(), Directives)
	for _, c := range checked {
		path, f, gpu, l := c.Path, c.File, c.GPU, c.GPU.Lib
		for _, p := range c.Procs {
			var e1, e2 diag.List
			allocVarOff = false
			got := Convert(f, p, gpu, l, &e1)
			allocVarOff = true
			want := Convert(f, p, gpu, l, &e2)
			allocVarOff = false
			if got == nil || want == nil || got.AMIR == nil {
				continue
			}
			g, w := stmtSigs(got.AMIR.Body), stmtSigs(want.AMIR.Body)
			if !reflect.DeepEqual(g, w) || len(e1.Diags) != len(e2.Diags) || !reflect.DeepEqual(got.srcStmts, want.srcStmts) {
				t.Fatalf("%s %s: the AMIR or the diagnostics differ with alloc's variable", path, p.Name.Name)
			}
			for _, s := range g {
				if s.k == amir.KCheckBarrier || s.what == amir.AccFree {
					frees++
				}
			}
			progs++
		}
	}
	t.Logf("%d programs, %d checks at frees", progs, frees)
	if progs < 50 || frees < 50 {
		t.Fatalf("weak coverage: %d programs, %d checks at frees", progs, frees)
	}
}

// stmtSig is what the conversion tests compare of an AMIR statement.
type stmtSig struct {
	k              amir.Kind
	src, sync, v   int
	shape          int
	all, cvg       bool
	lv             amir.Level
	q              amir.Qual
	quals          amir.QualSet
	what           amir.AccessKind
	nIdx, nb, nctl int
}

// stmtSigs lists the signatures of s's statements in walk order.
func stmtSigs(s *amir.Stmt) []stmtSig {
	var out []stmtSig
	amir.Walk(s, func(s *amir.Stmt) {
		g := stmtSig{k: s.Kind, src: s.Src, sync: s.Sync, v: -1, shape: s.Exec.Shape, all: s.Exec.All, cvg: s.Convergent, lv: s.Level, q: s.Q, quals: s.Quals, what: s.What, nb: len(s.Bars), nctl: len(s.CtlSlots)}
		if s.Acc != nil {
			g.v, g.nIdx = s.Acc.Var, len(s.Acc.Idx)
		}
		out = append(out, g)
	})
	return out
}
