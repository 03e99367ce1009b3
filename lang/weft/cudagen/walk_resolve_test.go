package cudagen

import (
	"reflect"
	"testing"

	"weft.dev/weft/lang/weft/coll"
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
