package amir

import (
	"fmt"
	"math/rand"
	"slices"
	"testing"
)

// TestRigidMatchesGeneral: the rigid fast path of window evaluation
// (rigid.go) gives the same blocks, block counts and faults as the general
// path of evalCells, on random variables (extents, block sizes) and
// accesses (affine points and windows, double-buffer indices, whole
// extents, empty and out-of-bounds windows).
func TestRigidMatchesGeneral(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	const nslots = 3
	affine := func() *Affine {
		a := &Affine{K: rng.Intn(9) - 2}
		for s := 0; s < nslots; s++ {
			if rng.Intn(2) == 0 {
				a.Terms = append(a.Terms, Term{Slot: s, Coef: []int{1, 2, 4, 3, -1}[rng.Intn(5)]})
			}
		}
		return a
	}
	closure := func(a *Affine) IntExpr { return func(env []int) int { return a.Eval(env) } }
	rigidUsed, checked := 0, 0
	for iter := 0; iter < 20000; iter++ {
		nd := 1 + rng.Intn(3)
		p := &Program{Name: "t", Slots: make([]string, nslots), Body: &Stmt{Kind: KBlock}}
		var dims []IntExpr
		var gran []int
		for d := 0; d < nd; d++ {
			dims = append(dims, k(rng.Intn(12)))
			gran = append(gran, []int{1, 1, 2, 4, 3, 0}[rng.Intn(6)])
		}
		p.Vars = []Var{{Name: "x", Dims: dims, Param: true, Gran: gran}}
		a := &Access{Var: 0}
		for d := 0; d < nd; d++ {
			lo := affine()
			switch rng.Intn(5) {
			case 0: // point
				a.Idx = append(a.Idx, Window{Lo: closure(lo), LoAff: lo})
			case 1: // window with a constant extent (possibly empty)
				hi := &Affine{K: lo.K + rng.Intn(6), Terms: lo.Terms}
				a.Idx = append(a.Idx, Window{Lo: closure(lo), Hi: closure(hi), LoAff: lo, HiAff: hi})
			case 2: // double-buffer index
				f := &ModAffine{Aff: *lo, M: 1 + rng.Intn(4), Sign: []int{1, -1}[rng.Intn(2)], Add: rng.Intn(3)}
				a.Idx = append(a.Idx, Window{Lo: func(env []int) int { return f.Eval(env) }, LoMod: f})
			case 3: // non-affine point
				a.Idx = append(a.Idx, Window{Lo: func(env []int) int { return lo.Eval(env) / 2 }})
			case 4: // to the end of the dimension
				n := dims[d](nil)
				a.Idx = append(a.Idx, Window{Lo: k(0), Hi: k(n), LoAff: &Affine{}, HiAff: &Affine{K: n}})
			}
		}
		ref := *a
		ref.notRigid = true
		m := New(p, Config{})
		m.Run(nil) // allocates x
		for e := 0; e < 4; e++ {
			for s := range m.env {
				m.env[s] = rng.Intn(8) - 1
			}
			m.gen++
			got, gotFault := evalBoth(m, a)
			want, wantFault := evalBoth(m, &ref)
			checked++
			if a.rig != nil && a.rig.aligned {
				rigidUsed++
			}
			if !slices.Equal(got, want) || gotFault != wantFault {
				t.Fatalf("iter %d: dims %v gran %v env %v: rigid %v %q, general %v %q", iter, evalDims(dims), gran, m.env, got, gotFault, want, wantFault)
			}
			// Dead statements count blocks through the same paths.
			s := &Stmt{Kind: KRecordRead, Acc: a}
			sr := &Stmt{Kind: KRecordRead, Acc: &ref}
			m.gen++
			n1, f1 := countBoth(m, s)
			n2, f2 := countBoth(m, sr)
			if n1 != n2 || f1 != f2 || (f1 == "" && n1 != int64(len(want))) {
				t.Fatalf("iter %d: count rigid %d %q, general %d %q, cells %d", iter, n1, f1, n2, f2, len(want))
			}
		}
	}
	t.Logf("rigid path used in %d of %d evaluations", rigidUsed, checked)
	if rigidUsed < checked/10 {
		t.Fatalf("rigid path used in %d of %d evaluations", rigidUsed, checked)
	}
}

func evalDims(ds []IntExpr) []int {
	var out []int
	for _, d := range ds {
		out = append(out, d(nil))
	}
	return out
}

func evalBoth(m *Machine, a *Access) ([]int32, string) {
	m.res.Faults, m.stop = nil, false
	cs, ok := m.evalCells(a, 0, nil)
	if !ok {
		return nil, fmt.Sprint(m.res.Faults)
	}
	return slices.Clone(cs), ""
}

func countBoth(m *Machine, s *Stmt) (int64, string) {
	m.res.Faults, m.stop = nil, false
	n := m.countOps(s)
	if len(m.res.Faults) > 0 {
		return 0, fmt.Sprint(m.res.Faults)
	}
	return n, ""
}

// TestModAffine: the floor modulus of ModAffine, power of two or not.
func TestModAffine(t *testing.T) {
	for _, mod := range []int{1, 2, 3, 4, 5, 8} {
		for x := -20; x <= 20; x++ {
			f := &ModAffine{Aff: Affine{K: x}, M: mod, Sign: -1, Add: 7}
			r := x % mod
			if r < 0 {
				r += mod
			}
			if got := f.Eval(nil); got != 7-r {
				t.Fatalf("%d mod %d: got %d, want %d", x, mod, got, 7-r)
			}
		}
	}
}
