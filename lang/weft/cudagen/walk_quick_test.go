package cudagen

import (
	"testing"

	"weft.dev/weft/lang/weft/check"
	"weft.dev/weft/lang/weft/coll"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// TestUnitQuickImpliesGeneral is the differential test of unitQuick
// (walk_unit.go, issue 13 stop 38): on every pairing of a unit
// expression (the library's unit names, unknown names, constant
// multiples on either side, nested, zero and negative factors, strided
// calls) with a checker's unit (each unit as the generator builds it,
// scaled, renamed, rescaled, with a coordinate changed, a wildcard in
// the domain) and a pair of machines, wherever unitQuick answers true
// the general test answers true (loopUnit resolves the unit on the
// walk's machine and sameUnitOn accepts it), and unitQuick answers for
// every pair of its case (a name or constant multiples of one, on the
// walk's machine) that the general test accepts.
func TestUnitQuickImpliesGeneral(t *testing.T) {
	l := lib.MustStd()
	var machines []coll.Machine
	for _, s := range [][2]int{{32, 1}, {64, 1}, {96, 1}, {128, 2}, {256, 1}, {256, 4}, {384, 3}} {
		df, err := coll.NewDeviceFunction(s[0], s[1], 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		machines = append(machines, df.Machine())
	}
	names := []string{"cuda_thread", "cuda_warp", "cuda_warpgroup", "cuda_quadpair", "cuda_warp_in_cluster",
		"cuda_cta_in_cluster", "cuda_cluster", "cuda_agnostic_sub_cta", "cuda_agnostic_intact_cta", "standalone_thread", "no_such_unit"}
	lit := func(k int64) syntax.Expr { return &syntax.IntLit{Value: k} }
	name := func(n string) syntax.Expr { return &syntax.Name{Name: n} }
	mul := func(x, y syntax.Expr) syntax.Expr { return &syntax.Binary{Op: "*", X: x, Y: y} }
	exprs := []syntax.Expr{nil}
	for _, n := range names {
		exprs = append(exprs, name(n))
		for _, k := range []int64{0, -2, 1, 2, 4, 3, 32} {
			exprs = append(exprs, mul(lit(k), name(n)), mul(name(n), lit(k)))
		}
		exprs = append(exprs, mul(lit(2), mul(lit(4), name(n))), mul(mul(name(n), lit(2)), lit(2)),
			&syntax.Binary{Op: "+", X: lit(2), Y: name(n)})
	}
	exprs = append(exprs, &syntax.Call{Fun: name("cuda_threads_strided"), Args: []syntax.Expr{lit(1), lit(2)}},
		mul(lit(2), &syntax.Call{Fun: name("cuda_threads_strided"), Args: []syntax.Expr{lit(1), lit(2)}}))
	// The checker's units: each expression's unit as the generator
	// builds it on each machine, and mutants of each.
	var units []coll.Unit
	add := func(u coll.Unit) {
		units = append(units, u)
		r := u
		r.Name += "_x"
		units = append(units, r)
		s := u
		s.Scale++
		units = append(units, s)
		for i := range u.Domain {
			d := u
			d.Domain = append([]coll.Sym(nil), u.Domain...)
			d.Domain[i].Num *= 2
			b := u
			b.Box = append([]coll.Sym(nil), u.Box...)
			b.Box[i].Num *= 2
			a := u
			a.Domain = append([]coll.Sym(nil), u.Domain...)
			a.Domain[i] = coll.Sym{Any: true}
			units = append(units, d, b, a)
		}
		if len(u.Domain) > 0 {
			short := u
			short.Domain, short.Box = u.Domain[1:], u.Box[1:]
			units = append(units, short)
		}
	}
	w := &walker{l: l}
	for _, e := range exprs {
		if u, ok := w.unit(e); ok || e == nil {
			if e == nil {
				u, _ = coll.LookupUnit("cuda_thread")
			}
			add(u)
		}
	}
	quick, general, both, missed := 0, 0, 0, 0
	for _, m := range machines {
		w.m = m
		for _, am := range []coll.Machine{m, machines[0]} {
			for i := range units {
				a := &units[i]
				for _, e := range exprs {
					q := w.unitQuick(e, a, am)
					u, ok := w.loopUnit(e)
					g := ok && sameUnitOn(a, &u, am, w.m, true)
					if q && !g {
						t.Errorf("unitQuick(%v) answers true for checker unit %+v on %+v (walk %+v); the general test answers false",
							syntaxString(e), *a, am, m)
					}
					if q {
						quick++
					}
					if g && am == m && !hasCall(e) {
						// A name or constant multiples of one, on the
						// walk's machine: unitQuick's case.
						general++
						if q {
							both++
						} else if missed++; missed <= 5 {
							t.Logf("unitQuick(%v) gives no answer for %+v on %+v", syntaxString(e), *a, m)
						}
					}
				}
			}
		}
	}
	t.Logf("%d pairs: general %d, quick %d", len(machines)*2*len(units)*len(exprs), general, quick)
	if quick == 0 || both != general {
		t.Errorf("unitQuick answers for %d of the %d pairs of its case the general test accepts", both, general)
	}
}

// hasCall reports whether e has a call (a strided unit).
func hasCall(e syntax.Expr) bool {
	switch e := e.(type) {
	case *syntax.Call:
		return true
	case *syntax.Binary:
		return hasCall(e.X) || hasCall(e.Y)
	}
	return false
}

func syntaxString(e syntax.Expr) string {
	if e == nil {
		return "<default>"
	}
	return syntax.ExprString(e)
}

// TestWalkBindMatchesBindArgs is the differential test of walkBind
// (walk_bind.go): for every instruction and proc of the library and every
// call made of its parameters (positional, keywords in and out of order,
// one missing, one too many, one given twice, an unknown keyword, a
// template keyword, a type binding), wherever walkBind answers, BindArgs
// reports no problem and binds the same arguments.
func TestWalkBindMatchesBindArgs(t *testing.T) {
	l := lib.MustStd()
	answered, calls := 0, 0
	for nm, in := range l.Instrs() {
		p := in.Proc
		var pos []syntax.Expr
		var kws []*syntax.Kwarg
		for i, prm := range p.Params {
			v := &syntax.IntLit{Value: int64(i + 1)}
			pos = append(pos, v)
			if prm != nil && prm.Name != nil {
				kws = append(kws, &syntax.Kwarg{Name: &syntax.Name{Name: prm.Name.Name}, Value: v})
			}
		}
		fun := &syntax.Name{Name: nm}
		var cases []*syntax.Call
		for cut := 0; cut <= len(pos); cut++ {
			// The first cut positional, the rest as keywords, in order and
			// reversed; with one argument left out; with one extra.
			c := &syntax.Call{Fun: fun, Args: pos[:cut]}
			if cut <= len(kws) {
				c.Kwargs = kws[cut:]
			}
			cases = append(cases, c)
			if n := len(c.Kwargs); n > 1 {
				rev := make([]*syntax.Kwarg, n)
				for i := range rev {
					rev[i] = c.Kwargs[n-1-i]
				}
				cases = append(cases, &syntax.Call{Fun: fun, Args: c.Args, Kwargs: rev})
			}
			if len(c.Kwargs) > 0 {
				cases = append(cases, &syntax.Call{Fun: fun, Args: c.Args, Kwargs: c.Kwargs[1:]},
					&syntax.Call{Fun: fun, Args: c.Args, Kwargs: append(append([]*syntax.Kwarg(nil), c.Kwargs...), c.Kwargs[0])},
					&syntax.Call{Fun: fun, Args: append(append([]syntax.Expr(nil), c.Args...), c.Kwargs[0].Value), Kwargs: c.Kwargs})
			} else if cut > 0 {
				cases = append(cases, &syntax.Call{Fun: fun, Args: c.Args[1:]},
					&syntax.Call{Fun: fun, Args: append(append([]syntax.Expr(nil), c.Args...), c.Args[0])})
			}
			extra := []*syntax.Kwarg{{Name: &syntax.Name{Name: "no_such_parameter"}, Value: &syntax.IntLit{Value: 7}}}
			for _, tp := range lib.TemplateParams(p) {
				extra = append(extra, &syntax.Kwarg{Name: &syntax.Name{Name: tp}, Value: &syntax.IntLit{Value: 8}})
			}
			for _, prm := range p.Params {
				if prm != nil && prm.Name != nil {
					extra = append(extra, &syntax.Kwarg{Name: &syntax.Name{Name: prm.Name.Name}, Value: &syntax.Name{Name: "f32"}})
				}
			}
			for i, k := range c.Kwargs {
				// A keyword whose value is a data type's name: a type
				// binding where its parameter is data.
				kk := append([]*syntax.Kwarg(nil), c.Kwargs...)
				kk[i] = &syntax.Kwarg{Name: k.Name, Value: &syntax.Name{Name: "f32"}}
				cases = append(cases, &syntax.Call{Fun: fun, Args: c.Args, Kwargs: kk})
			}
			for _, k := range extra {
				cases = append(cases, &syntax.Call{Fun: fun, Args: c.Args, Kwargs: append(append([]*syntax.Kwarg(nil), c.Kwargs...), k)})
			}
		}
		for _, c := range cases {
			calls++
			var buf [walkBindMax]syntax.Expr
			if !walkBind(p, c, &buf) {
				continue
			}
			answered++
			args, probs := check.BindArgs(p.Params, c, lib.TemplateParams(p)...)
			if len(probs) > 0 {
				t.Errorf("%s: walkBind binds %s; BindArgs reports %v", nm, syntax.ExprString(c), probs)
				continue
			}
			for i := range args {
				if args[i] != buf[i] {
					t.Errorf("%s: walkBind binds %s's parameter %d to %v, BindArgs to %v", nm, syntax.ExprString(c), i, buf[i], args[i])
				}
			}
		}
	}
	t.Logf("%d calls, walkBind answers %d", calls, answered)
	if answered == 0 {
		t.Error("walkBind answers for no call")
	}
}

// TestTemplateParamsInPlace checks walkBind's test of a keyword against
// an instruction's template parameters (templateList, isTemplateParam)
// against lib.TemplateParams on every instruction and proc of the
// library and on decorators of every shape TemplateParams reads (a
// name, a call without template=, a template that is not a list, a list
// with other elements, a second @instr).
func TestTemplateParamsInPlace(t *testing.T) {
	l := lib.MustStd()
	var procs []*syntax.Proc
	for _, in := range l.Instrs() {
		procs = append(procs, in.Proc)
	}
	for _, p := range l.Procs() {
		procs = append(procs, p)
	}
	str := func(ss ...string) *syntax.List {
		lst := &syntax.List{}
		for _, s := range ss {
			lst.Elems = append(lst.Elems, &syntax.StringLit{Value: s})
		}
		return lst
	}
	instr := func(kw ...*syntax.Kwarg) *syntax.Call {
		return &syntax.Call{Fun: &syntax.Name{Name: "instr"}, Args: []syntax.Expr{&syntax.StringLit{Value: "x"}}, Kwargs: kw}
	}
	tmpl := func(v syntax.Expr) *syntax.Kwarg {
		return &syntax.Kwarg{Name: &syntax.Name{Name: "template"}, Value: v}
	}
	mixed := str("a", "b")
	mixed.Elems = append(mixed.Elems, &syntax.Name{Name: "c"}, &syntax.IntLit{Value: 1})
	for _, ds := range [][]syntax.Expr{
		{&syntax.Name{Name: "instr"}},
		{&syntax.Name{Name: "instr"}, instr(tmpl(str("a")))},
		{instr()},
		{instr(&syntax.Kwarg{Name: &syntax.Name{Name: "other"}, Value: str("a")})},
		{instr(tmpl(&syntax.StringLit{Value: "a"}))},
		{instr(tmpl(mixed))},
		{instr(tmpl(str("a", "b"))), instr(tmpl(str("c")))},
		{&syntax.Call{Fun: &syntax.Name{Name: "proc"}, Kwargs: []*syntax.Kwarg{tmpl(str("z"))}}, instr(tmpl(str("a")))},
	} {
		procs = append(procs, &syntax.Proc{Name: &syntax.Name{Name: "p"}, Decorators: ds})
	}
	asked, yes := 0, 0
	for _, p := range procs {
		want := lib.TemplateParams(p)
		names := append([]string{"a", "b", "c", "z", "x", "template", ""}, want...)
		for _, prm := range p.Params {
			if prm != nil && prm.Name != nil {
				names = append(names, prm.Name.Name)
			}
		}
		lst := templateList(p)
		for _, n := range names {
			w := false
			for _, s := range want {
				w = w || s == n
			}
			asked++
			if got := isTemplateParam(lst, n); got != w {
				t.Fatalf("%s: isTemplateParam(%q) = %v, TemplateParams %q", p.Name.Name, n, got, want)
			}
			if w {
				yes++
			}
		}
	}
	t.Logf("%d names asked, %d template parameters", asked, yes)
	if yes == 0 {
		t.Error("no template parameter asked")
	}
}

// TestSameSym compares sameSym (walk_unit.go), whose coordinates are
// compared field by field, with the comparison of Sym values it replaces
// on every pair of coordinates of a grid (constants, blockDim and
// clusterDim multiples, divisors that do and do not divide, negative and
// zero values, the wildcard) and a grid of machines.
func TestSameSym(t *testing.T) {
	var syms []coll.Sym
	for _, num := range []int{-3, 0, 1, 2, 4, 48} {
		for _, div := range []int{-2, 0, 1, 2, 3} {
			for _, bd := range []bool{false, true} {
				for _, cd := range []bool{false, true} {
					syms = append(syms, coll.Sym{Num: num, Div: div, BlockDim: bd, ClusterDim: cd})
				}
			}
		}
	}
	syms = append(syms, coll.AnySym, coll.Sym{Any: true, Num: 3})
	checked := 0
	for _, bd := range []int{0, 32, 96} {
		for _, cd := range []int{1, 2} {
			m := coll.Machine{BlockDim: bd, ClusterDim: cd}
			for _, x := range syms {
				for _, y := range syms {
					checked++
					v, ok := sameSym(x, y, m)
					wx, ex := x.Eval(m)
					wy, ey := y.Eval(m)
					wok := ex == nil && (x == y || ey == nil && wx == wy)
					if ok != wok || ok && v != wx {
						t.Fatalf("sameSym(%+v, %+v, %+v) = %d, %v; want %d, %v", x, y, m, v, ok, wx, wok)
					}
				}
			}
		}
	}
	t.Logf("%d pairs", checked)
}
