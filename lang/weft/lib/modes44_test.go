package lib

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/syntax"
)

// TestParamModesByName (stop 44): ParamModes, by parameter position with
// bits, gives every parameter of every proc of the library, of the
// repository's programs and of a few made for it (a window chain, a
// reduction, parameters sharing a name, more than 64 parameters) the
// mode the walk by name with maps gave it, and AccessModes the same map.
func TestParamModesByName(t *testing.T) {
	var procs []*syntax.Proc
	l := MustStd()
	for _, in := range l.Instrs() {
		procs = append(procs, in.Proc)
	}
	for _, p := range l.Procs() {
		procs = append(procs, p)
	}
	var srcs []string
	err := filepath.WalkDir("../../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".weft") {
			srcs = append(srcs, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(srcs) < 20 {
		t.Fatalf("%d .weft files below the module root", len(srcs))
	}
	var files []*diag.File
	for _, path := range srcs {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, diag.NewFile(path, data))
	}
	var many []string
	for i := range 70 {
		many = append(many, fmt.Sprintf("p%d: f32[4]", i))
	}
	files = append(files, diag.NewFileString("made.weft", `def chain(a: f32[8], b: f32[8], c: f32[8], n: size):
    w = a[0:4]
    v = w[1:3]
    u = v[0:1]
    u[0] += b[n]
    w = c[0:2]
    w[0] = 1.0
    cuda_copy_f32(b[0], v[0])

def twice(a: f32[4], a: f32[4], b: f32[4]):
    a[0] = b[0]
    b[1] += 2.0

def many(`+strings.Join(many, ", ")+`):
    p3[0] = p69[1]
    p64[0] += p0[0]
    x = p65[0:2]
    x[0] = 1.0
`))
	for _, f := range files {
		var errs diag.List
		sf := syntax.Parse(f, &errs)
		for _, d := range sf.Decls {
			if p, ok := d.(*syntax.Proc); ok {
				procs = append(procs, p)
			}
		}
	}
	checked := 0
	for _, p := range procs {
		want := accessModesByName(p)
		got := ParamModes(p)
		if len(got) != len(p.Params) {
			t.Fatalf("%s: %d modes for %d params", p.Name.Name, len(got), len(p.Params))
		}
		for i, prm := range p.Params {
			if got[i] != want[prm.Name.Name] {
				t.Fatalf("%s (%s): %s is %q, by name %q", p.Name.Name, p.Pos(), prm.Name.Name, got[i], want[prm.Name.Name])
			}
			checked++
		}
		if m := AccessModes(p); fmt.Sprint(m) != fmt.Sprint(want) {
			t.Fatalf("%s: AccessModes %v, by name %v", p.Name.Name, m, want)
		}
	}
	if checked < 500 {
		t.Fatalf("only %d parameters compared", checked)
	}
}

// accessModesByName is AccessModes as it was before stop 44: a walk by
// name with maps, ParamModes' reference.
func accessModesByName(p *syntax.Proc) map[string]string {
	read, written := map[string]bool{}, map[string]bool{}
	// Window statements `w = x[...]` make w an alias of x's root.
	alias := map[string]string{}
	rootOf := func(n string) string {
		for i := 0; i < 64; i++ { // alias chains are short; bound the walk
			r, ok := alias[n]
			if !ok {
				break
			}
			n = r
		}
		return n
	}
	var expr func(e syntax.Expr)
	expr = func(e syntax.Expr) {
		switch e := e.(type) {
		case *syntax.Name:
			read[rootOf(e.Name)] = true
		case *syntax.Index:
			expr(e.X)
			for _, i := range e.Indices {
				expr(i)
			}
		case *syntax.Slice:
			if e.Lo != nil {
				expr(e.Lo)
			}
			if e.Hi != nil {
				expr(e.Hi)
			}
		case *syntax.Binary:
			expr(e.X)
			expr(e.Y)
		case *syntax.Unary:
			expr(e.X)
		case *syntax.Call:
			for _, a := range e.Args {
				expr(a)
			}
			for _, k := range e.Kwargs {
				expr(k.Value)
			}
		case *syntax.List:
			for _, x := range e.Elems {
				expr(x)
			}
		case *syntax.Tuple:
			for _, x := range e.Elems {
				expr(x)
			}
		}
	}
	root := func(e syntax.Expr) (string, []syntax.Expr) {
		switch e := e.(type) {
		case *syntax.Name:
			return e.Name, nil
		case *syntax.Index:
			if n, ok := e.X.(*syntax.Name); ok {
				return n.Name, e.Indices
			}
		}
		return "", nil
	}
	var stmts func(ss []syntax.Stmt)
	stmts = func(ss []syntax.Stmt) {
		for _, s := range ss {
			switch s := s.(type) {
			case *syntax.Assign:
				if lhs, ok := s.LHS.(*syntax.Name); ok && s.Op == "=" && isWindowExpr(s.RHS, s.Mem != nil) {
					if src, idx := root(s.RHS); src != "" {
						alias[lhs.Name] = rootOf(src)
						for _, i := range idx {
							expr(i)
						}
						continue
					}
				}
				name, idx := root(s.LHS)
				name = rootOf(name)
				for _, i := range idx {
					expr(i)
				}
				expr(s.RHS)
				if name != "" {
					written[name] = true
					if s.Op == "+=" {
						read[name] = true
					}
				}
			case *syntax.For:
				expr(s.Lo)
				expr(s.Hi)
				stmts(s.Body)
			case *syntax.If:
				expr(s.Cond)
				stmts(s.Then)
				stmts(s.Else)
			case *syntax.With:
				stmts(s.Body)
			case *syntax.CallStmt:
				for _, a := range s.Call.Args {
					if name, idx := root(a); name != "" {
						name = rootOf(name)
						read[name], written[name] = true, true
						for _, i := range idx {
							expr(i)
						}
					} else {
						expr(a)
					}
				}
				for _, k := range s.Call.Kwargs {
					expr(k.Value)
				}
			case *syntax.Assert:
				expr(s.Cond)
			}
		}
	}
	stmts(p.Body)
	modes := map[string]string{}
	for _, prm := range p.Params {
		n := prm.Name.Name
		switch {
		case written[n] && read[n]:
			modes[n] = "rw"
		case written[n]:
			modes[n] = "w"
		case read[n]:
			modes[n] = "r"
		default:
			modes[n] = ""
		}
	}
	return modes
}
