package cudagen

import (
	"os"
	"reflect"
	"testing"

	"weft.dev/weft/lang/weft/coll"
	"weft.dev/weft/lang/weft/gpucheck"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// TestStdUnit: stdUnit is LookupUnit on the standard units' names and
// on others.
func TestStdUnit(t *testing.T) {
	for _, n := range []string{"cuda_thread", "cuda_warp", "cuda_warpgroup", "cuda_quadpair", "cuda_warp_in_cluster",
		"cuda_cta_in_cluster", "cuda_cluster", "cuda_agnostic_sub_cta", "cuda_agnostic_intact_cta", "standalone_thread",
		"no_such_unit", "", "cuda_threads_strided", "cuda_thread "} {
		u, ok := stdUnit(n)
		v, okv := coll.LookupUnit(n)
		if ok != okv || !reflect.DeepEqual(u, v) {
			t.Errorf("stdUnit(%q) = %+v, %v; LookupUnit: %+v, %v", n, u, ok, v, okv)
		}
	}
}

// TestWalkUnitVars: exprUnit's default unit is LookupUnit's cuda_thread.
func TestWalkUnitVars(t *testing.T) {
	u, ok := coll.LookupUnit("cuda_thread")
	if !ok || !reflect.DeepEqual(u, coll.CudaThread) {
		t.Errorf("LookupUnit(cuda_thread) = %+v, %v; exprUnit takes %+v", u, ok, coll.CudaThread)
	}
	var w walker
	if v, ok := w.exprUnit(nil); !ok || !reflect.DeepEqual(v, u) {
		t.Errorf("exprUnit(nil) = %+v, %v", v, ok)
	}
}

// TestWalkResolved1D checks resolved1D's implication (walk.go, issue 13
// stop 41): on a grid of machines, parent tilings (the device tiling and
// loops derived from it, two levels deep) and loops (every unit the walk
// builds from the library's names, scaled by several factors, and
// strided units, over several counts), wherever CudaThreadsIn makes the
// tiling in the walk's store and resolved1D accepts it, the unit
// resolves on the machine (u.Threads has no error). It also requires
// both of threadsLoop's ways to be taken: the shortcut, and the
// resolution where the one pass declines or resolved1D does.
func TestWalkResolved1D(t *testing.T) {
	l := lib.MustStd()
	w := &walker{l: l}
	lit := func(k int64) syntax.Expr { return &syntax.IntLit{Value: k} }
	name := func(n string) syntax.Expr { return &syntax.Name{Name: n} }
	mul := func(x, y syntax.Expr) syntax.Expr { return &syntax.Binary{Op: "*", X: x, Y: y} }
	exprs := []syntax.Expr{nil}
	for _, n := range []string{"cuda_thread", "cuda_warp", "cuda_warpgroup", "cuda_quadpair", "cuda_warp_in_cluster",
		"cuda_cta_in_cluster", "cuda_cluster", "cuda_agnostic_sub_cta", "cuda_agnostic_intact_cta", "standalone_thread"} {
		exprs = append(exprs, name(n))
		for _, k := range []int64{2, 3, 4, 8, 16, 32, 64, 256, 4096} {
			exprs = append(exprs, mul(lit(k), name(n)))
		}
	}
	for _, a := range [][2]int64{{1, 2}, {1, 4}, {2, 4}, {1, 1}, {3, 8}} {
		exprs = append(exprs, &syntax.Call{Fun: name("cuda_threads_strided"), Args: []syntax.Expr{lit(a[0]), lit(a[1])}})
	}
	var units []coll.Unit
	for _, e := range exprs {
		if u, ok := w.exprUnit(e); ok {
			units = append(units, u)
		}
	}
	counts := []int{1, 2, 3, 4, 8, 16, 32, 64}
	shortcut, resolve := 0, 0
	for _, s := range [][2]int{{32, 1}, {64, 1}, {96, 1}, {128, 2}, {256, 1}, {256, 2}, {384, 3}, {1024, 1}} {
		df, err := coll.NewDeviceFunction(s[0], s[1], 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		m := df.Machine()
		top, err := coll.DeviceTiling(m)
		if err != nil {
			t.Fatal(err)
		}
		parents := []*coll.Tiling{top}
		iter := 0
		try := func(cur *coll.Tiling, u coll.Unit, n int) *coll.Tiling {
			iter++
			st := new(coll.ThreadsStore)
			b, err := cur.CudaThreadsIn(iter, n, u, st)
			if err != nil {
				return nil
			}
			_, errT := u.Threads(m)
			if b == st.Tiling() && resolved1D(b, m) {
				shortcut++
				if errT != nil {
					t.Errorf("blockDim %d clusterDim %d: %d loops of %+v under %+v: the one pass made the tiling and resolved1D accepts it; Threads: %v",
						s[0], s[1], n, u, cur.Describe(), errT)
				}
			} else {
				resolve++
			}
			return b
		}
		// Two levels: each loop under the device tiling, then each loop
		// under a few of those.
		for _, u := range units {
			for _, n := range counts {
				if b := try(top, u, n); b != nil && len(parents) < 12 {
					parents = append(parents, b)
				}
			}
		}
		for _, p := range parents[1:] {
			for _, u := range units {
				for _, n := range counts {
					try(p, u, n)
				}
			}
		}
	}
	t.Logf("shortcut %d, resolved %d", shortcut, resolve)
	if shortcut == 0 || resolve == 0 {
		t.Errorf("the shortcut was taken %d times, the resolution %d times: want both", shortcut, resolve)
	}
}

// TestWalkScaled: walker.scaled is coll.Unit.Scaled on every standard
// unit and strided unit, scaled once and twice, with and without a
// slab, and past the slab's room (where Scaled makes the box).
func TestWalkScaled(t *testing.T) {
	var units []coll.Unit
	for _, n := range []string{"cuda_thread", "cuda_warp", "cuda_warpgroup", "cuda_quadpair", "cuda_warp_in_cluster",
		"cuda_cta_in_cluster", "cuda_cluster", "cuda_agnostic_sub_cta", "cuda_agnostic_intact_cta", "standalone_thread"} {
		u, _ := coll.LookupUnit(n)
		units = append(units, u)
	}
	units = append(units, coll.ThreadsStrided(1, 2), coll.CtaInClusterStrided(2))
	inSlab, apart := 0, 0
	for _, slab := range []bool{false, true} {
		for _, u := range units {
			for _, k := range []int{-1, 0, 1, 2, 3, 32} {
				for _, k2 := range []int{0, 4} {
					w := &walker{}
					if slab {
						w.slab = new(walkSlab)
					}
					want, err := u.Scaled(k)
					got, ok := w.scaled(u, k)
					if k2 > 0 && err == nil {
						want, err = want.Scaled(k2)
						got, ok = w.scaled(got, k2)
					}
					if ok != (err == nil) || ok && !reflect.DeepEqual(got, want) {
						t.Errorf("%s scaled by %d, %d (slab %v): %+v, %v; Scaled: %+v, %v", u.Name, k, k2, slab, got, ok, want, err)
					}
					if ok && len(got.Box) > 0 && w.slab != nil && &got.Box[0] == &w.slab.syms[min(w.slab.nsyms, walkSlabSyms)-len(got.Box)] {
						inSlab++
					} else if ok {
						apart++
					}
				}
			}
			// The unit scaled is unchanged (Scaled copies the box).
			if v, _ := coll.LookupUnit(u.Name); v.Name != "" && !reflect.DeepEqual(v, u) {
				t.Errorf("%s changed: %+v", u.Name, u)
			}
		}
	}
	if inSlab == 0 || apart == 0 {
		t.Errorf("boxes in the slab %d, apart %d: want both", inSlab, apart)
	}
}

// TestWalkLitDims checks push's litDims (walk.go, issue 13 stop 42) and
// the walks of extents it skips: a memory whose dimensions are all
// integer literals is marked, one with a name among them is not, and on
// accesses and windows of memories of both kinds, in scopes where the
// named extent is a constant, an iterator and a tensor (which the walk
// of extents rejects), access and window answer as with litDims cleared
// (the walk of every extent).
func TestWalkLitDims(t *testing.T) {
	lit := func(k int64) syntax.Expr { return &syntax.IntLit{Value: k} }
	name := func(n string) *syntax.Name { return &syntax.Name{Name: n} }
	f32 := &syntax.Type{Elem: name("f32")}
	typ := func(dims ...syntax.Expr) *syntax.Type { return &syntax.Type{Elem: f32.Elem, Dims: dims} }
	mems := []*syntax.Type{typ(lit(16), lit(4)), typ(lit(16), name("N")), typ(name("N"))}
	compared, skipped := 0, 0
	for _, shadow := range []symKind{0, kIndex, kTensor} {
		for _, mt := range mems {
			for _, device := range []bool{false, true} {
				var w walker
				w.l = lib.MustStd()
				w.consts.put("N", 8)
				if !w.push(wsym{name: "x", typ: mt, kind: kTensor, dram: true, device: device}) {
					t.Fatal("push")
				}
				if shadow != 0 {
					w.push(wsym{name: "N", kind: shadow, device: true, typ: typ(lit(2))})
				}
				w.push(wsym{name: "i", kind: kIndex, device: true})
				v := w.lookup("x")
				if want := allLit(mt.Dims); v.litDims != want {
					t.Fatalf("litDims of %v: %v", mt.Dims, v.litDims)
				}
				var idx []syntax.Expr
				for range mt.Dims {
					idx = append(idx, name("i"))
				}
				acc := &syntax.Index{X: name("x"), Indices: idx}
				for _, dev := range []bool{false, true} {
					got1, got2 := w.access(acc, dev), w.window(acc, dev)
					lit := v.litDims
					v.litDims = false
					want1, want2 := w.access(acc, dev), w.window(acc, dev)
					v.litDims = lit
					if got1 != want1 || got2 != want2 {
						t.Errorf("x: %v, N a %v, device %v: access %v, window %v; walking the extents: %v, %v", mt.Dims, shadow, dev, got1, got2 != nil, want1, want2 != nil)
					}
					compared++
					if lit {
						skipped++
					}
				}
			}
		}
	}
	if skipped == 0 || skipped == compared {
		t.Errorf("%d of %d cases skip the extents' walk: both ways are not taken", skipped, compared)
	}
}

// TestStdUnitRef: stdUnitRef is stdUnit by reference (nil where stdUnit
// asks LookupUnit), issue 13, stop 46.
func TestStdUnitRef(t *testing.T) {
	for _, n := range []string{"cuda_thread", "cuda_warp", "cuda_warpgroup", "cuda_quadpair", "cuda_warp_in_cluster",
		"cuda_cta_in_cluster", "cuda_cluster", "no_such_unit", ""} {
		u, ok := stdUnit(n)
		if r := stdUnitRef(n); r != nil && (!ok || !reflect.DeepEqual(*r, u)) {
			t.Errorf("stdUnitRef(%q) = %+v; stdUnit: %+v, %v", n, *r, u, ok)
		}
	}
	for _, n := range []string{"cuda_thread", "cuda_warp", "cuda_warpgroup", "cuda_warp_in_cluster", "cuda_cta_in_cluster"} {
		if stdUnitRef(n) == nil {
			t.Errorf("stdUnitRef(%q) = nil", n)
		}
	}
}

// walkTestSyms is a grid of coordinates: constants, blockDim and
// clusterDim multiples, divisors that do and do not divide, negative and
// zero values, the wildcard.
func walkTestSyms() []coll.Sym {
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
	return append(syms, coll.AnySym, coll.Sym{Any: true, Num: 3})
}

// walkTestMachines is a grid of machines.
func walkTestMachines() []coll.Machine {
	var ms []coll.Machine
	for _, bd := range []int{0, 1, 32, 96, 128, 256} {
		for _, cd := range []int{1, 2, 4} {
			ms = append(ms, coll.Machine{BlockDim: bd, ClusterDim: cd})
		}
	}
	return ms
}

// TestSymEval compares symEval and sameSymRef (unitQuick's coordinate
// tests, issue 13, stop 46) with Eval on the grids: symEval(s, num) is
// Eval of s with Num num, and sameSymRef(x, y, k) is sameSym of x and y
// with Num times k (Scaled's coordinate).
func TestSymEval(t *testing.T) {
	syms := walkTestSyms()
	for _, m := range walkTestMachines() {
		for _, x := range syms {
			for _, num := range []int{-1, 0, 1, 3, 64} {
				s := x
				s.Num = num
				want, err := s.Eval(m)
				got, ok := symEval(&x, num, m)
				if ok != (err == nil) || ok && got != want {
					t.Fatalf("symEval(%+v, %d, %+v) = %d, %v; Eval: %d, %v", x, num, m, got, ok, want, err)
				}
			}
			for _, y := range syms {
				for _, k := range []int{1, 2, 3, 32} {
					ys := y
					ys.Num *= k
					v, ok := sameSymRef(&x, &y, k, m)
					wx, ex := x.Eval(m)
					wy, ey := ys.Eval(m)
					wok := ex == nil && (x == ys || ey == nil && wx == wy)
					if ok != wok || ok && v != wx {
						t.Fatalf("sameSymRef(%+v, %+v, %d, %+v) = %d, %v; want %d, %v", x, y, k, m, v, ok, wx, wok)
					}
				}
			}
		}
	}
}

// TestUnitThreads compares unitThreads (nativeThreads's resolution,
// issue 13, stop 46) with Threads on every standard unit, strided and
// scaled units and units of the coordinate grid, on the machine grid.
func TestUnitThreads(t *testing.T) {
	var units []coll.Unit
	for _, n := range []string{"cuda_thread", "cuda_warp", "cuda_warpgroup", "cuda_quadpair", "cuda_warp_in_cluster",
		"cuda_cta_in_cluster", "cuda_cluster", "cuda_agnostic_sub_cta", "cuda_agnostic_intact_cta", "standalone_thread"} {
		u, ok := coll.LookupUnit(n)
		if !ok {
			continue
		}
		units = append(units, u)
		for _, k := range []int{2, 4, 32} {
			if v, err := u.Scaled(k); err == nil {
				units = append(units, v)
			}
		}
	}
	units = append(units, coll.ThreadsStrided(1, 2), coll.ThreadsStrided(2, 8), coll.CtaInClusterStrided(2))
	syms := walkTestSyms()
	for _, d := range syms {
		for _, b := range syms {
			units = append(units, coll.Unit{Name: "grid", Domain: []coll.Sym{d}, Box: []coll.Sym{b}})
		}
	}
	n1 := 0
	for _, m := range walkTestMachines() {
		for _, u := range units {
			want, err := u.Threads(m)
			if err != nil {
				want = 0
			}
			if got := unitThreads(&u, m); got != want {
				t.Fatalf("unitThreads(%s %+v, %+v) = %d; Threads: %d, %v", u.Name, u, m, got, want, err)
			}
			if len(u.Domain) == 1 && len(u.Box) == 1 {
				if _, ok := threadsOneRef(&u.Domain[0], &u.Box[0], m); ok {
					n1++
				}
			}
		}
	}
	if n1 == 0 {
		t.Error("no unit took threadsOneRef")
	}
	t.Logf("%d units x machines in one step", n1)
}

// TestWalkFlatSameAnswers: the walk that derives its own tilings as
// coll.Flats (deviceFunction, issue 13 stop 47) answers as the walk with
// the tilings (flatOff) on every program and variant of the differential
// corpus, with an empty GPU checker's result (every device function's
// tilings the walk's own). per_cta_alloc (NCTA = 1 in the file) is walked
// as Flats to the end, without a slab; a Flat's failures (a loop of
// another derivation, an instruction's unit to match) walk the device
// function again with the tilings, and the answer is still the pass's.
func TestWalkFlatSameAnswers(t *testing.T) {
	l := lib.MustStd()
	n, answered := 0, 0
	forEachProgramVariant(t, func(name, text string) {
		f, _, _, ok := walkCase(l, name, text)
		if !ok {
			return
		}
		n++
		got := walkClean(f, l, &gpucheck.Result{})
		flatOff = true
		want := walkClean(f, l, &gpucheck.Result{})
		flatOff = false
		if got != want {
			t.Errorf("%s: the walk with Flats answers %v, with the tilings %v", name, got, want)
		}
		if got {
			answered++
		}
	})
	t.Logf("%d programs and variants, the walk answers for %d", n, answered)
	if n < 1000 || answered < 500 {
		t.Errorf("the comparison exercised too little")
	}
	src, err := os.ReadFile("../../../bench/syncref/weft/per_cta_alloc.weft")
	if err != nil {
		t.Fatal(err)
	}
	head := "@proc\ndef p(x: f32[64] @ CudaGmemLinear):\n    with CudaDeviceFunction(blockDim=64):\n        for task in cuda_tasks(0, 1):\n"
	for _, c := range []struct {
		name, text string
		slab       bool
	}{
		{"per_cta_alloc", string(src), false},
		// cuda_threads_strided: the general derivation.
		{"strided", head + "            for t in cuda_threads(0, 16, unit=2 * cuda_threads_strided(1, 1)):\n                pass\n", true},
		// A loop of more iterations than its scope holds: no Flat, and
		// the derivation's error.
		{"wide", head + "            for t in cuda_threads(0, 128, unit=cuda_thread):\n                pass\n", true},
	} {
		f, prog, _, ok := walkCase(l, c.name, c.text)
		if !ok {
			t.Fatalf("%s: does not parse", c.name)
		}
		var w walker
		got := w.clean(f, l, &gpucheck.Result{})
		if (w.slab != nil) != c.slab {
			t.Errorf("%s: slab %v, want %v", c.name, w.slab != nil, c.slab)
		}
		walkOff = true
		pass := generateDiags(f, l, Options{CheckOnly: true, Prog: prog, GPU: &gpucheck.Result{}})
		walkOff = false
		if got && pass != "" {
			t.Errorf("%s: the walk answers clean; the pass reports\n%s", c.name, pass)
		}
		if c.name != "wide" && !got {
			t.Errorf("%s: the walk does not answer", c.name)
		}
	}
}
