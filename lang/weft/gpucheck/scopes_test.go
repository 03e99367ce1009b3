package gpucheck

import (
	"math/rand"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// TestScopeAtMatchesMap checks the statement list (scopes.go) against
// the map it replaced: on every .weft program of the repository (those
// with check errors too: misplaced cuda_tasks loops take walkUnchecked),
// every statement of a proc's body is recorded exactly once (the map
// held every statement the walk reached), the statements of @instr procs
// are not, and a map built from the list gives for every statement what
// ScopeOf gives and what ScopeAt gives with one cursor shared over the
// statements asked in walk order, in reverse and shuffled. Each scope's
// opening statement encloses the statement (its scope is its own, not a
// neighbour's).
func TestScopeAtMatchesMap(t *testing.T) {
	l := lib.MustStd()
	rng := rand.New(rand.NewSource(35))
	programs, stmts := 0, 0
	chunks := checkedPrograms(t, l)
	// walkUnchecked's cuda_tasks loops (recorded, then reached again by
	// tasks): a device function whose body does not start with one.
	for i, src := range []string{misplacedTasks, misplacedTasks2} {
		var errs diag.List
		f := syntax.Parse(diag.NewFile("misplaced.weft", []byte(src)), &errs)
		if errs.HasErrors() {
			t.Fatalf("misplaced %d: %v", i, errs.Err())
		}
		chunks = append(chunks, checkedChunk{"misplaced.weft", f, Check(f, Options{Lib: l}, &errs)})
	}
	for _, c := range chunks {
		path, f, r := c.path, c.file, c.res
		programs++
		if len(r.StmtScopes) != len(r.Stmts) {
			t.Fatalf("%s: %d scopes for %d statements", path, len(r.StmtScopes), len(r.Stmts))
		}
		want := map[syntax.Stmt]*Scope{}
		for i, st := range r.Stmts {
			if _, dup := want[st]; dup {
				t.Fatalf("%s: %s recorded twice", path, stmtText(st))
			}
			if r.StmtScopes[i] == nil {
				t.Fatalf("%s: %s has no scope", path, stmtText(st))
			}
			want[st] = r.StmtScopes[i]
		}
		stmts += len(want)
		// A program with errors may leave statements unwalked (a
		// misplaced device function's body).
		var errs diag.List
		Check(f, Options{Lib: l}, &errs)
		clean := !errs.HasErrors()
		// Every statement the walk reaches, with its enclosing statements.
		parents := map[syntax.Stmt][]syntax.Stmt{}
		var walk func(body []syntax.Stmt, up []syntax.Stmt, rec bool)
		walk = func(body []syntax.Stmt, up []syntax.Stmt, rec bool) {
			for _, st := range body {
				if _, ok := want[st]; ok != rec && (ok || clean) {
					t.Fatalf("%s: %s recorded %v, want %v", path, stmtText(st), ok, rec)
				}
				parents[st] = up
				in := append(up[:len(up):len(up)], st)
				switch st := st.(type) {
				case *syntax.For:
					walk(st.Body, in, rec)
				case *syntax.If:
					walk(st.Then, in, rec)
					walk(st.Else, in, rec)
				case *syntax.With:
					walk(st.Body, in, rec)
				}
			}
		}
		for _, d := range f.Decls {
			if p, ok := d.(*syntax.Proc); ok {
				walk(p.Body, nil, !lib.IsInstr(p))
			}
		}
		for st, s := range want {
			if s.Stmt == nil {
				continue
			}
			found := false
			for _, u := range parents[st] {
				found = found || u == s.Stmt
			}
			if !found {
				t.Fatalf("%s: %s's scope opens at %s, which does not enclose it", path, stmtText(st), stmtText(s.Stmt))
			}
		}
		for _, order := range stmtOrders(rng, r.Stmts) {
			cur := 0
			for _, st := range order {
				if got := r.ScopeAt(st, &cur); got != want[st] {
					t.Fatalf("%s: ScopeAt(%s) = %p, want %p", path, stmtText(st), got, want[st])
				}
				if got := r.ScopeOf(st); got != want[st] {
					t.Fatalf("%s: ScopeOf(%s) = %p, want %p", path, stmtText(st), got, want[st])
				}
			}
		}
		if r.ScopeOf(nil) != nil {
			t.Fatalf("%s: ScopeOf(nil) is not nil", path)
		}
	}
	t.Logf("%d programs, %d statements", programs, stmts)
	if programs < 50 || stmts < 1000 {
		t.Errorf("the comparison exercised too little")
	}
}

const misplacedTasks = `
@proc
def misplaced():
    with CudaDeviceFunction(blockDim=64):
        pass
        for task in cuda_tasks(0, 2):
            for t in cuda_threads(0, 64, unit=cuda_thread):
                pass
`

const misplacedTasks2 = `
@proc
def misplaced2():
    with CudaDeviceFunction(blockDim=32):
        for task in cuda_tasks(0, 2):
            pass
        for task2 in cuda_tasks(0, 2):
            for t in cuda_threads(0, 32, unit=cuda_thread):
                pass
`
