package syncheck

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/amir"
	"weft.dev/weft/lang/weft/check"
	"weft.dev/weft/lang/weft/coll"
	"weft.dev/weft/lang/weft/gpucheck"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// printStmtRef is printStmt as it was, from syntax.ExprString and string
// concatenation (the reference for TestPrintStmtMatchesPrinter).
func printStmtRef(st syntax.Stmt) string {
	bars := func(s string, bs []syntax.Expr) string {
		for _, b := range bs {
			s += " >> " + syntax.ExprString(b)
		}
		return s
	}
	switch st := st.(type) {
	case *syntax.Assign:
		return syntax.ExprString(st.LHS) + " " + st.Op + " " + syntax.ExprString(st.RHS)
	case *syntax.CallStmt:
		return bars(syntax.ExprString(st.Call), st.Barriers)
	case *syntax.Fence:
		return "Fence(" + syntax.ExprString(st.First) + ", " + syntax.ExprString(st.Second) + ")"
	case *syntax.Arrive:
		s := "Arrive(" + syntax.ExprString(st.TL)
		if st.Reverse {
			s = "ReverseArrive(" + syntax.ExprString(st.TL)
		}
		if st.N != nil {
			s += ", " + syntax.ExprString(st.N)
		}
		return bars(s+")", st.Barriers)
	case *syntax.Await:
		s := "Await("
		if st.Reverse {
			s = "ReverseAwait("
		}
		s += syntax.ExprString(st.Bar) + ", " + syntax.ExprString(st.TL)
		if st.N != nil {
			s += ", " + syntax.ExprString(st.N)
		}
		return s + ")"
	case *syntax.Free:
		return "free " + st.Name.Name
	case *syntax.Alloc:
		return st.Name.Name + ": " + syntax.TypeString(st.Type)
	case *syntax.For:
		return "for " + st.Var.Name + " in " + st.Mode.Name + "(...)"
	}
	return fmt.Sprintf("%T", st)
}

// TestPrintStmtMatchesPrinter: printStmt, which writes names, literals,
// their binary operations and simple indices itself (appendExpr), prints
// every statement of the example and test programs as ExprString and
// concatenation did, and both of appendExpr's ways (its own and
// ExprString's) are taken.
func TestPrintStmtMatchesPrinter(t *testing.T) {
	var files []string
	for _, g := range []string{"../../../examples/weft/*/*.weft", "../../../examples/weft/*.weft", "testdata/*.weft"} {
		m, _ := filepath.Glob(g)
		files = append(files, m...)
	}
	if len(files) < 10 {
		t.Fatalf("found %d programs", len(files))
	}
	n, own, other := 0, 0, 0
	var walk func([]syntax.Stmt)
	walk = func(body []syntax.Stmt) {
		for _, st := range body {
			if got, want := printStmt(st), printStmtRef(st); got != want {
				t.Errorf("%s: printStmt %q, want %q", st.Pos(), got, want)
			}
			n++
			var es []syntax.Expr
			switch st := st.(type) {
			case *syntax.For:
				walk(st.Body)
			case *syntax.If:
				walk(st.Then)
				walk(st.Else)
			case *syntax.With:
				walk(st.Body)
			case *syntax.Assign:
				es = []syntax.Expr{st.LHS, st.RHS}
			case *syntax.Await:
				es = []syntax.Expr{st.Bar, st.TL}
			case *syntax.Arrive:
				es = st.Barriers
			}
			for _, e := range es {
				if got, want := string(appendExpr(nil, e)), syntax.ExprString(e); got != want {
					t.Errorf("%s: appendExpr %q, want %q", e.Pos(), got, want)
				}
				if _, ok := exprAtom(e); ok {
					own++
				} else if ix, ok := e.(*syntax.Index); ok && simpleIndices(ix.Indices) {
					own++
				} else {
					other++
				}
			}
		}
	}
	for _, p := range files {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var errs diag.List
		f := syntax.Parse(diag.NewFile(p, src), &errs)
		for _, d := range f.Decls {
			if pr, ok := d.(*syntax.Proc); ok {
				walk(pr.Body)
			}
		}
	}
	if n < 200 || own < 50 || other < 20 {
		t.Errorf("%d statements, %d expressions printed by appendExpr, %d by ExprString: want both ways taken", n, own, other)
	}
}

// TestAppendExprMatchesPrinter compares appendExpr with ExprString on
// expressions of each kind it writes itself and on ones it leaves to the
// printer (parenthesized operands, unary, nested and attribute indices).
func TestAppendExprMatchesPrinter(t *testing.T) {
	for _, src := range []string{"x", "17", "a + 1", "n - k", "i * 2", "i // 2", "i % 4", "a < b",
		"x[i]", "BtoC[w, n + 3]", "x[0, 7]", "x[i, j % 2, 1 - k]",
		"-i", "(a + b) * c", "a * (b + c)", "a - (b - c)", "x[(i + 1) * 2]", "x[-i]", "x[y[i]]", "x[i:j]",
		"x[a + b + c]", "f(a, b)", "x.y[i]", "x[i].y", "not a", "a and b"} {
		var errs diag.List
		f := syntax.Parse(diag.NewFile("e.weft", []byte("def f():\n    y = "+src+"\n")), &errs)
		if errs.HasErrors() {
			t.Fatalf("%s: %v", src, errs.Diags)
		}
		e := f.Decls[0].(*syntax.Proc).Body[0].(*syntax.Assign).RHS
		if got, want := string(appendExpr([]byte("p:"), e)), "p:"+syntax.ExprString(e); got != want {
			t.Errorf("appendExpr(%s) = %q, want %q", src, got, want)
		}
	}
}

// TestMsgTextTake: the strings take returns keep their text while later
// messages are appended, cut, taken and new chunks started; a message
// longer than a chunk moves the buffer and is taken whole; a name cut
// keeps its text while the names of its hazard are cut after it (the
// names buffer moved by append).
func TestMsgTextTake(t *testing.T) {
	m := &msgText{b: make([]byte, 0, 64)}
	var got, want []string
	for i := 0; i < 200; i++ {
		if i%3 == 0 {
			m.nb = m.nb[:0] // a new hazard (report)
		}
		n := len(m.b)
		m.b = fmt.Appendf(m.b, "name%d", i)
		name := m.cut(n)
		m.b = fmt.Appendf(m.b, "other%d", i)
		other := m.cut(n)
		if other != fmt.Sprint("other", i) || m.cut(len(m.b)) != "" {
			t.Fatalf("cut %q", other)
		}
		w := fmt.Sprintf("message %d about %s", i, name)
		if i%37 == 0 {
			for len(w) < 3*msgChunk {
				w += " and more"
			}
		}
		m.b = appendf(m.b, "message %d about %s", num(i), str(name))
		m.b = append(m.b, w[len(fmt.Sprintf("message %d about %s", i, name)):]...)
		got, want = append(got, m.take()), append(want, w)
		if i%5 == 0 {
			got, want = append(got, m.take()), append(want, "")
		}
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("message %d: %q, want %q", i, got[i], want[i])
		}
	}
}

// TestDiagRoom: a report's diagnostics from its room, and past it, with
// their notes (the first in the room, the next appended).
func TestDiagRoom(t *testing.T) {
	m := &msgText{ds: make([]diagRoom, 2)}
	var errs diag.List
	for i := 0; i < 3; i++ {
		d := m.addDiag(&errs, diag.Error, diag.Pos{}, "W0609", fmt.Sprint("m", i))
		for k := 0; k < i; k++ {
			d.addNote(diag.Pos{}, fmt.Sprint("n", k))
		}
	}
	if len(errs.Diags) != 3 {
		t.Fatalf("%d diagnostics", len(errs.Diags))
	}
	for i, d := range errs.Diags {
		if d.Message != fmt.Sprint("m", i) || len(d.Notes) != i || (i == 0 && d.Notes != nil) {
			t.Errorf("diagnostic %d: %q, notes %v", i, d.Message, d.Notes)
		}
		for k, n := range d.Notes {
			if n.Message != fmt.Sprint("n", k) {
				t.Errorf("diagnostic %d note %d: %q", i, k, n.Message)
			}
		}
	}
}

// TestAppendNum: appendNum writes what strconv.AppendInt writes, on its
// one-digit path and past it.
func TestAppendNum(t *testing.T) {
	for _, n := range []int64{-1 << 63, -1000, -11, -10, -9, -1, 0, 1, 5, 9, 10, 11, 99, 100, 12345, 1<<63 - 1} {
		if got, want := string(appendNum([]byte("x"), n)), string(strconv.AppendInt([]byte("x"), n, 10)); got != want {
			t.Errorf("appendNum(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestAddToMatchesSubSub: addTo gives the form the two merges gave,
// sub(l, sub(0, o)), on forms over a few atoms with coefficients -1..1
// (zero terms included, which only sub keeps or drops), every pair.
func TestAddToMatchesSubSub(t *testing.T) {
	atoms := []string{"a", "b", "c"}
	var forms []linear
	for code := 0; code < 64; code++ { // each atom absent, -1, 0 or 1
		l := linear{k: code % 3}
		x := code
		for _, a := range atoms {
			if d := x % 4; d > 0 {
				l.terms = append(l.terms, linTerm{a, d - 2})
			}
			x /= 4
		}
		forms = append(forms, l)
	}
	for _, l := range forms {
		for _, o := range forms {
			want := subRef(l, subRef(linear{}, o))
			got := l.addTo(make([]linTerm, 0, len(l.terms)+len(o.terms)), o)
			if fmt.Sprint(got.k, got.terms) != fmt.Sprint(want.k, want.terms) {
				t.Fatalf("%v + %v = %v, want %v", l, o, got, want)
			}
			want = subRef(l, o)
			if got := l.sub(o); fmt.Sprint(got.k, got.terms) != fmt.Sprint(want.k, want.terms) {
				t.Fatalf("%v - %v = %v, want %v", l, o, got, want)
			}
		}
	}
}

// subRef is l - o as linear.sub's comment defines it, atom by atom: an
// atom of o's is dropped when its coefficient becomes 0 (or is 0 in o
// alone), l's other terms are kept as they are.
func subRef(l, o linear) linear {
	lc, oc := map[string]int{}, map[string]int{}
	var atoms []string
	for _, t := range l.terms {
		lc[t.atom] = t.c
		atoms = append(atoms, t.atom)
	}
	for _, t := range o.terms {
		oc[t.atom] = t.c
		if _, ok := lc[t.atom]; !ok {
			atoms = append(atoms, t.atom)
		}
	}
	sort.Strings(atoms)
	r := linear{k: l.k - o.k}
	for _, a := range atoms {
		x := lc[a]
		y, inO := oc[a]
		switch {
		case !inO:
			r.terms = append(r.terms, linTerm{a, x})
		case x-y != 0:
			r.terms = append(r.terms, linTerm{a, x - y})
		}
	}
	return r
}

// TestExecShapes: exec remembers the shape of the tiling it last asked
// for (lastTiling); every statement's shape must still be its scope's
// collective (Start zeroed), and the shapes distinct, as AddShape per
// statement made them, on programs whose statements change tilings
// often (nested cuda_threads loops, warp specialization, inlined procs).
func TestExecShapes(t *testing.T) {
	files, _ := filepath.Glob("../../../examples/weft/sync/*.weft")
	more, _ := filepath.Glob("testdata/*.weft")
	files = append(files, more...)
	l := lib.MustStd()
	checked, reused := 0, 0
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var errs diag.List
		f := syntax.Parse(diag.NewFile(path, src), &errs)
		check.Check(f, l, &errs)
		if errs.HasErrors() {
			continue
		}
		gpu := gpucheck.Check(f, gpucheck.Options{Lib: l}, &errs)
		if errs.HasErrors() {
			continue
		}
		for _, d := range f.Decls {
			p, ok := d.(*syntax.Proc)
			if !ok || lib.IsInstr(p) || !hasDeviceVia(p.Body, f, 0) {
				continue
			}
			var cerrs diag.List
			prog := Convert(f, p, gpu, l, &cerrs)
			if cerrs.HasErrors() {
				continue
			}
			a := prog.AMIR
			for i := range a.Shapes {
				for j := 0; j < i; j++ {
					if a.Shapes[i] == a.Shapes[j] {
						t.Errorf("%s: shapes %d and %d are equal", path, j, i)
					}
				}
			}
			seen := map[*coll.Tiling]bool{}
			amir.Walk(a.Body, func(s *amir.Stmt) {
				if s.Exec.All || s.Exec.StartAff == nil || s.Src < 0 || s.Src >= len(prog.srcStmts) {
					return
				}
				sc := gpu.ScopeOf(prog.srcStmts[s.Src])
				if sc == nil || sc.Tiling == nil {
					return
				}
				want := sc.Tiling.Collective(nil)
				want.Start = 0
				if s.Exec.Shape >= len(a.Shapes) || a.Shapes[s.Exec.Shape] != want {
					t.Errorf("%s: %s: shape %d, want %v", path, prog.srcStmts[s.Src].Pos(), s.Exec.Shape, want)
				}
				checked++
				if seen[sc.Tiling] {
					reused++
				}
				seen[sc.Tiling] = true
			})
		}
	}
	if checked < 100 || reused < 50 {
		t.Errorf("%d statements' shapes checked, %d of a tiling seen before: want more", checked, reused)
	}
}
