package gpucheck

import (
	"fmt"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/check"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// dupParams has a data parameter named twice (the checker, package
// check, reports it; the GPU check may still run on such a file): the
// map holds the later one, as must paramAccess.
const dupParams = `
@instr(tl=cuda_in_order, unit=cuda_thread, cuda="x;")
def dup(a: f32[1] @ CudaRmem, n: size, a: f32[2] @ CudaSmemLinear):
    a[0] = 0.0
`

// TestParamAccessMatchesMap checks paramAccess against the map it
// replaced: for every instruction of the library, of the repository's
// programs and of dupParams, every parameter's name, the instruction's
// own name and a name of no parameter give what in.Access gives; and the
// accesses the check binds to instruction arguments carry it
// (ParamAccess). It fails when the scan is forward (dupParams) or stops
// short.
func TestParamAccessMatchesMap(t *testing.T) {
	l := lib.MustStd()
	instrs := []*lib.Instr{}
	for _, in := range l.Instrs() {
		instrs = append(instrs, in)
	}
	var errs diag.List
	f := syntax.Parse(diag.NewFile("dup.weft", []byte(dupParams)), &errs)
	if errs.HasErrors() {
		t.Fatal(errs.Err())
	}
	files := []*syntax.File{f}
	chunks := checkedPrograms(t, l)
	for _, c := range chunks {
		files = append(files, c.file)
	}
	for _, f := range files {
		for _, d := range f.Decls {
			if p, ok := d.(*syntax.Proc); ok && lib.IsInstr(p) {
				var errs diag.List
				if in := lib.ParseInstr(p, l, &errs); in != nil {
					instrs = append(instrs, in)
				}
			}
		}
	}
	compared, dup := 0, false
	for _, in := range instrs {
		names := []string{in.Name, "no_such_param", ""}
		for _, p := range in.Proc.Params {
			if p.Name != nil {
				names = append(names, p.Name.Name)
			}
		}
		for _, n := range names {
			if got, want := paramAccess(in, n), in.Access[n]; got != want {
				t.Fatalf("%s: paramAccess(%q) = %p, want %p", in.Name, n, got, want)
			}
			compared++
		}
		if in.Name == "dup" {
			dup = true
			if a := paramAccess(in, "a"); a == nil || a.Index != 2 {
				t.Fatalf("dup: paramAccess(a) is not the later parameter")
			}
		}
	}
	bound := 0
	for _, c := range chunks {
		for _, a := range c.res.Accesses {
			if a.Instr != nil {
				if a.acc == nil || a.ParamAccess() != a.Instr.Access[a.Param] {
					t.Fatalf("%s: the access of %s's %s does not carry its parameter's", c.path, a.Instr.Name, a.Param)
				}
				bound++
			}
			if a.Instr == nil && a.ParamAccess() != nil {
				t.Fatalf("%s: a use outside an instruction has a parameter's access", c.path)
			}
		}
	}
	t.Logf("%d instructions, %d names, %d bound arguments", len(instrs), compared, bound)
	if !dup || compared < 500 || bound < 200 {
		t.Errorf("the comparison exercised too little")
	}
}

// TestMemoryMatchesMap checks Result.Memory, the memory type the check
// looked up at a variable's first access, against the library's map:
// for every variable of the repository's programs, after the check (the
// distributed memory analysis asks then) and asked twice.
func TestMemoryMatchesMap(t *testing.T) {
	l := lib.MustStd()
	vars, looked := 0, 0
	for _, c := range checkedPrograms(t, l) {
		for _, v := range c.res.Vars {
			if v.memDone {
				looked++
			}
			for range 2 {
				if got, want := c.res.Memory(v), l.Memories[v.Mem]; got != want {
					t.Fatalf("%s: Memory(%s) = %p, want %p (%s)", c.path, v.Name, got, want, v.Mem)
				}
			}
			vars++
		}
	}
	t.Logf("%d variables, %d looked up by the check", vars, looked)
	if vars < 300 || looked < 200 {
		t.Errorf("the comparison exercised too little")
	}
}

// bindCalls has instruction calls bound the general way (keywords, too
// few and too many arguments) and the shortcut's way.
const bindCalls = `
@instr(tl=cuda_in_order, unit=cuda_thread, cuda="x;")
def three(n: size, a: f32[1] @ CudaRmem, b: f32[1] @ CudaRmem):
    a[0] = b[0]

def f(x: f32[1] @ CudaRmem, y: f32[1] @ CudaRmem):
    three(1, x, y)
    three(x, y, n=1)
    three(1, x)
    three(1, x, y, y)
    three(1, x, y, n=2)
    three()
`

// TestBindArgsMatchesCheck compares bindArgs with check.BindArgs on
// every instruction call of the repository's programs and of bindCalls:
// the same argument for every parameter and the same problems with an
// expression (the ones call reads); the shortcut taken for some calls,
// binding into the buffer for others (a list of their own where it is
// too short).
func TestBindArgsMatchesCheck(t *testing.T) {
	l := lib.MustStd()
	var errs diag.List
	files := []checkedChunk{{path: "bind.weft", file: syntax.Parse(diag.NewFile("bind.weft", []byte(bindCalls)), &errs)}}
	if errs.HasErrors() {
		t.Fatal(errs.Err())
	}
	files = append(files, checkedPrograms(t, l)...)
	short, kw, general := 0, 0, 0
	// One buffer for every call, as the checker has: a binding must not
	// see the last one's entries.
	var buf [4]syntax.Expr
	for _, fc := range files {
		f, path := fc.file, fc.path
		own := map[string]*lib.Instr{}
		for _, d := range f.Decls {
			if p, ok := d.(*syntax.Proc); ok && lib.IsInstr(p) {
				var errs diag.List
				if in := lib.ParseInstr(p, l, &errs); in != nil {
					own[p.Name.Name] = in
				}
			}
		}
		var walk func(body []syntax.Stmt)
		walk = func(body []syntax.Stmt) {
			for _, st := range body {
				switch st := st.(type) {
				case *syntax.For:
					walk(st.Body)
				case *syntax.If:
					walk(st.Then)
					walk(st.Else)
				case *syntax.With:
					walk(st.Body)
				case *syntax.CallStmt:
					name := st.Call.FunName()
					in := own[name]
					if in == nil {
						in = l.Instr(name)
					}
					if in == nil {
						continue
					}
					params := in.Proc.Params
					got, gp := bindArgs(params, st.Call, in.Template, buf[:])
					want, wp := check.BindArgs(params, st.Call, in.Template...)
					if len(got) != len(want) {
						t.Fatalf("%s: %s: %d bound, want %d", path, name, len(got), len(want))
					}
					for i := range got {
						if got[i] != want[i] {
							t.Fatalf("%s: %s: parameter %d bound to %v, want %v", path, name, i, got[i], want[i])
						}
					}
					if exprProblems(gp) != exprProblems(wp) {
						t.Fatalf("%s: %s: problems %s, want %s", path, name, exprProblems(gp), exprProblems(wp))
					}
					switch {
					case len(st.Call.Kwargs) == 0 && len(st.Call.Args) == len(params):
						short++
					case len(params) <= len(buf) && len(got) > 0 && &got[0] == &buf[0]:
						kw++
					default:
						general++
					}
				}
			}
		}
		for _, d := range f.Decls {
			if p, ok := d.(*syntax.Proc); ok && !lib.IsInstr(p) {
				walk(p.Body)
			}
		}
	}
	t.Logf("%d calls bound by the shortcut, %d into the buffer, %d into a list of their own", short, kw, general)
	if short < 20 || kw < 20 || general < 3 {
		t.Errorf("the comparison exercised too little")
	}
}

// exprProblems lists the problems with an expression.
func exprProblems(ps []check.BindProblem) string {
	s := ""
	for _, p := range ps {
		if p.Expr != nil {
			s += fmt.Sprintf("[%s %p]", p.Msg, p.Expr)
		}
	}
	return s
}
