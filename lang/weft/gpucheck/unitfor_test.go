package gpucheck

import (
	"fmt"
	"sort"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/coll"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// TestUnitForMatchesLib checks unitFor (unitfor.go) against the library's
// UnitFor it replaces: for every instruction of the library and of the
// repository's programs, under several launch shapes and argument
// values (every size parameter given one value, none given, one given
// and the others not, values that make no unit), the unit resolve makes
// of each expression and its error text are the same. The scratch is
// shared by all, as by one check's calls: each expression is resolved
// right after it is made. Synthetic instructions add units with unary
// operators, nested calls and more substitutions than the scratch holds.
func TestUnitForMatchesLib(t *testing.T) {
	l := lib.MustStd()
	type prog struct {
		f   *syntax.File
		res *Result
		ins map[string]*lib.Instr
	}
	var progs []prog
	std := map[string]*lib.Instr{}
	for name, in := range l.Instrs() {
		std[name] = in
	}
	var syn diag.List
	sf := syntax.Parse(diag.NewFile("synthetic.weft", []byte(syntheticInstrs)), &syn)
	if syn.HasErrors() {
		t.Fatalf("synthetic: %v", syn.Err())
	}
	for _, d := range sf.Decls {
		if p, ok := d.(*syntax.Proc); ok && lib.IsInstr(p) {
			var errs diag.List
			in := lib.ParseInstr(p, l, &errs)
			if in == nil || errs.HasErrors() {
				t.Fatalf("synthetic %s: %v", p.Name.Name, errs.Err())
			}
			std[p.Name.Name] = in
		}
	}
	var errs diag.List
	progs = append(progs, prog{sf, Check(sf, Options{Lib: l}, &errs), std})
	for _, c := range checkedPrograms(t, l) {
		ins := map[string]*lib.Instr{}
		for _, d := range c.file.Decls {
			if p, ok := d.(*syntax.Proc); ok && lib.IsInstr(p) {
				var errs diag.List
				if in := lib.ParseInstr(p, l, &errs); in != nil {
					ins[p.Name.Name] = in
				}
			}
		}
		if len(ins) > 0 {
			progs = append(progs, prog{c.file, c.res, ins})
		}
	}
	machines := []coll.Machine{{BlockDim: 256, ClusterDim: 1}, {BlockDim: 384, ClusterDim: 2}, {BlockDim: 32, ClusterDim: 1}, {BlockDim: 128, ClusterDim: 4}}
	show := func(u coll.Unit, err error) string { return fmt.Sprintf("%#v %v", u, err) }
	c := &checker{}
	compared, substituted := 0, 0
	for _, p := range progs {
		names := make([]string, 0, len(p.ins))
		for n := range p.ins {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, name := range names {
			in := p.ins[name]
			orig := exprString(in.Unit)
			var params []string
			for _, prm := range in.Proc.Params {
				if sizeParam(in, prm.Name.Name) {
					params = append(params, prm.Name.Name)
				}
			}
			vals := []func(string) (int64, bool){
				func(string) (int64, bool) { return 0, false },
			}
			for _, v := range []int64{1, 2, 4, 8, 16, 32, 0, -2, 3} {
				vals = append(vals, func(string) (int64, bool) { return v, true })
				if len(params) > 1 {
					first := params[0]
					vals = append(vals, func(p string) (int64, bool) { return v, p == first })
				}
			}
			for _, val := range vals {
				for _, m := range machines {
					want := in.UnitFor(val)
					got := c.unitFor(in, val)
					if now := exprString(in.Unit); now != orig {
						t.Fatalf("%s: unitFor changed the instruction's unit %s to %s", name, orig, now)
					}
					if (want == nil) != (got == nil) {
						t.Fatalf("%s: unitFor nil %v, UnitFor nil %v", name, got == nil, want == nil)
					}
					if want == nil {
						continue
					}
					if exprString(got) != exprString(want) {
						t.Fatalf("%s: unitFor %s, UnitFor %s", name, exprString(got), exprString(want))
					}
					if got != in.Unit {
						substituted++
					}
					g := show(p.res.ResolveUnit(got, m))
					w := show(p.res.ResolveUnit(want, m))
					if g != w {
						t.Fatalf("%s (%s) on %+v: unitFor resolves to %s, UnitFor to %s", name, exprString(want), m, g, w)
					}
					compared++
				}
			}
		}
	}
	t.Logf("%d programs, %d units compared, %d substituted", len(progs), compared, substituted)
	if compared < 1000 || substituted < 200 {
		t.Errorf("the comparison exercised too little")
	}
}

// syntheticInstrs are instructions whose units take the substitution
// through every kind of node it reaches, more nodes than the scratch
// holds, and names that are not size parameters.
const syntheticInstrs = `
@instr(tl=cuda_in_order, unit=(a * b) * cuda_threads_strided(a, b), cuda="x;")
def syn_two(a: size, b: size, x: [f32][2] @ CudaRmem):
    pass

@instr(tl=cuda_in_order, unit=(-(-a)) * cuda_thread, cuda="x;")
def syn_unary(a: size, x: [f32][2] @ CudaRmem):
    pass

@instr(tl=cuda_in_order, unit=(a + a + a + a + a + a) * cuda_threads_strided(a + b, b * a), cuda="x;")
def syn_many(a: size, b: index, x: [f32][2] @ CudaRmem):
    pass

@instr(tl=cuda_in_order, unit=a * cuda_threads_strided(cuda_threads_strided(a, a), a), cuda="x;")
def syn_nested(a: size, x: [f32][2] @ CudaRmem):
    pass

@instr(tl=cuda_in_order, unit=a * cuda_warp, cuda="x;")
def syn_dims(a: size[2], x: [f32][2] @ CudaRmem):
    pass

@instr(tl=cuda_in_order, unit=a, cuda="x;")
def syn_bare(a: size, x: [f32][2] @ CudaRmem):
    pass
`
