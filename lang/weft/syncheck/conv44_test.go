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

// TestMemoryMatchesLookup checks converter.memory (gpucheck's memory of
// a variable, looked up at its first access) against the library's map:
// every variable of the repository's programs, asked before and after
// its conversion, and again with memoryOff, gets the map's memory of its
// name (issue 13, stop 44).
func TestMemoryMatchesLookup(t *testing.T) {
	defer func() { memoryOff = false }()
	vars, found := 0, 0
	checked, _ := testrepo.WeftPrograms(t, "../../..", lib.MustStd(), Directives)
	for _, c := range checked {
		gpu, l := c.GPU, c.GPU.Lib
		cv := &converter{res: gpu, lib: l}
		for round := 0; round < 3; round++ {
			memoryOff = round == 2
			for _, v := range gpu.Vars {
				if got, want := cv.memory(v), l.Memories[v.Mem]; got != want {
					t.Fatalf("%s: %s @ %s, round %d: memory %p, the library's %p", c.Path, v.Name, v.Mem, round, got, want)
				}
				if round == 0 {
					vars++
					if l.Memories[v.Mem] != nil {
						found++
					}
				}
			}
		}
	}
	t.Logf("%d variables, %d with a memory", vars, found)
	if vars < 200 || found < 150 {
		t.Fatalf("weak coverage: %d variables, %d with a memory", vars, found)
	}
}

// TestHintsMatchSearch checks varOf's and facts's hints (gpucheck.Var.
// ConvVar, ConvFacts) against the searches: every proc of the
// repository's programs converted with the hints, first in the file's
// order and then backwards (each conversion finding the hints the one
// before left, stale), gives the AMIR statements, Srcs and diagnostics
// of its conversion without them (issue 13, stop 44).
func TestHintsMatchSearch(t *testing.T) {
	defer func() { hintsOff = false }()
	progs, stale := 0, 0
	checked, _ := testrepo.WeftPrograms(t, "../../..", lib.MustStd(), Directives)
	for _, c := range checked {
		f, gpu, l := c.File, c.GPU, c.GPU.Lib
		n := len(c.Procs)
		for k := 0; k < 2*n; k++ {
			p := c.Procs[k%n]
			if k >= n {
				p = c.Procs[2*n-1-k]
			}
			var e1, e2 diag.List
			hintsOff = false
			before := 0
			for _, v := range gpu.Vars {
				if v.ConvVar != 0 || v.ConvFacts != 0 {
					before++
				}
			}
			got := Convert(f, p, gpu, l, &e1)
			hintsOff = true
			want := Convert(f, p, gpu, l, &e2)
			hintsOff = false
			if got == nil || want == nil || got.AMIR == nil {
				continue
			}
			if !reflect.DeepEqual(stmtSigs(got.AMIR.Body), stmtSigs(want.AMIR.Body)) || !reflect.DeepEqual(e1.Diags, e2.Diags) ||
				!reflect.DeepEqual(got.srcStmts, want.srcStmts) || len(got.AMIR.Vars) != len(want.AMIR.Vars) {
				t.Fatalf("%s %s: the conversion differs with the hints", c.Path, p.Name.Name)
			}
			for i := range got.AMIR.Vars {
				if g, w := got.AMIR.Vars[i], want.AMIR.Vars[i]; g.Name != w.Name || g.Barrier != w.Barrier || g.PerThreadQueue != w.PerThreadQueue || len(g.Dims) != len(w.Dims) {
					t.Fatalf("%s %s: variable %d differs with the hints", c.Path, p.Name.Name, i)
				}
			}
			if before > 0 {
				stale++
			}
			progs++
		}
	}
	t.Logf("%d conversions, %d after hints were set", progs, stale)
	if progs < 100 || stale < 40 {
		t.Fatalf("weak coverage: %d conversions, %d after hints were set", progs, stale)
	}
}

// TestModTestMatchesTree checks modTest's closures (a modulus compared
// with a constant) and slotCmp's (a slot's multiple compared with one)
// against boolExpr's general compilation: for moduli of powers of two
// and others, constants and a file constant, negative and out-of-range
// right-hand sides, each comparison, x of one slot, of a slot with an
// offset or coefficient, negated, of two slots and a constant, every
// guard gives the same value for every env of slot values in [-20, 20]
// (issue 13, stop 44).
func TestModTestMatchesTree(t *testing.T) {
	defer func() { modTestOff = false }()
	c := &converter{res: &gpucheck.Result{Consts: map[string]int64{"N": 4, "M": 6}}, p: &amir.Program{}, out: &Program{}}
	sc := c.child(nil)
	for _, n := range []string{"t", "u"} {
		sc.set(n, c.slot(n))
		c.setControl(n)
	}
	lit := func(k int64) syntax.Expr {
		if k < 0 {
			return &syntax.Unary{Op: "-", X: &syntax.IntLit{Value: -k}}
		}
		return &syntax.IntLit{Value: k}
	}
	name := func(n string) syntax.Expr { return &syntax.Name{Name: n} }
	bin := func(op string, x, y syntax.Expr) syntax.Expr { return &syntax.Binary{Op: op, X: x, Y: y} }
	xs := []syntax.Expr{name("t"), bin("+", name("t"), lit(3)), bin("*", lit(3), name("u")), bin("-", bin("+", name("t"), bin("*", lit(2), name("u"))), lit(1)), name("N"), lit(-7)}
	ms := []syntax.Expr{lit(1), lit(2), lit(3), lit(4), lit(5), lit(8), name("N"), name("M"), lit(0), lit(-2), name("t")}
	ks := []syntax.Expr{lit(0), lit(1), lit(3), lit(-1), lit(7), name("N"), name("u")}
	var es []*syntax.Binary
	for _, x := range xs {
		for _, k := range ks {
			for _, op := range []string{"==", "!="} {
				for _, m := range ms {
					es = append(es, bin(op, bin("%", x, m), k).(*syntax.Binary))
				}
			}
			for _, op := range []string{"==", "!=", "<", "<=", ">", ">="} {
				es = append(es, bin(op, x, k).(*syntax.Binary), bin(op, bin("-", lit(0), x), k).(*syntax.Binary))
			}
		}
	}
	fast, guards := 0, 0
	for _, e := range es {
		if c.modTest(sc, e) != nil || c.slotCmp(sc, e) != nil {
			fast++
		}
		modTestOff = false
		got, ok1 := c.boolExpr(sc, e)
		modTestOff = true
		want, ok2 := c.boolExpr(sc, e)
		modTestOff = false
		if ok1 != ok2 {
			t.Fatalf("%s: compiled %v, apart %v", syntax.ExprString(e), ok1, ok2)
		}
		if !ok1 {
			continue
		}
		guards++
		env := make([]int, len(c.p.Slots))
		for tv := -20; tv <= 20; tv++ {
			for uv := -20; uv <= 20; uv++ {
				env[0], env[1] = tv, uv
				if got(env) != want(env) {
					t.Fatalf("%s at t=%d u=%d: %v, apart %v", syntax.ExprString(e), tv, uv, got(env), want(env))
				}
			}
		}
	}
	t.Logf("%d guards, %d by modTest or slotCmp", guards, fast)
	if fast < 100 || guards <= fast {
		t.Fatalf("weak coverage: %d guards, %d by modTest or slotCmp", guards, fast)
	}
}
