package cudagen

import (
	"testing"

	"weft.dev/weft/lang/weft/coll"
)

// TestSameUnitOnMatchesSameOn is the differential test of sameUnitOn (the
// shared loop's unit check, shared.go; issue 13, stop 36): on every pair
// of units built from the standard and strided units of Fig. 11, scaled,
// and resolved to constants on one machine (as the GPU checker's units
// are), and on every machine of a small grid, sameUnitOn with u's own
// resolution gives coll.SameOn's answer. The pairs include a unit
// resolved on another machine (same name and scale, other values), which
// only the coordinate comparison tells apart.
func TestSameUnitOnMatchesSameOn(t *testing.T) {
	var base []coll.Unit
	for _, n := range []string{"cuda_thread", "cuda_quadpair", "cuda_warp", "cuda_warpgroup", "cuda_warp_in_cluster",
		"cuda_cta_in_cluster", "cuda_cluster", "cuda_agnostic_sub_cta", "cuda_agnostic_intact_cta"} {
		if u, ok := coll.LookupUnit(n); ok {
			base = append(base, u)
		}
	}
	for _, s := range []struct {
		name string
		args []int
	}{{"cuda_threads_strided", []int{1, 2}}, {"cuda_threads_strided", []int{2, 8}}, {"cuda_cta_in_cluster_strided", []int{2}}, {"cuda_warp_in_cluster_strided", []int{4}}} {
		u, err := coll.StridedUnit(s.name, s.args)
		if err != nil {
			t.Fatal(err)
		}
		base = append(base, u)
	}
	var units []coll.Unit
	for _, u := range base {
		units = append(units, u)
		for _, k := range []int{2, 4, 16} {
			if su, err := u.Scaled(k); err == nil {
				units = append(units, su)
			}
		}
	}
	var machines []coll.Machine
	for _, b := range []int{32, 64, 128, 256, 384} {
		for _, c := range []int{1, 2, 4} {
			machines = append(machines, coll.Machine{BlockDim: b, ClusterDim: c})
		}
	}
	// The checker's units: each unit's coordinates resolved to constants
	// on each machine where it resolves.
	checker := append([]coll.Unit(nil), units...)
	for _, u := range units {
		for _, m := range machines {
			d, b, err := u.Resolve(m)
			if err != nil {
				continue
			}
			r := u
			r.Domain, r.Box = make([]coll.Sym, len(d)), make([]coll.Sym, len(b))
			for i := range d {
				r.Domain[i] = coll.Const(d[i])
				if b[i] < 0 {
					r.Box[i] = coll.AnySym
				} else {
					r.Box[i] = coll.Const(b[i])
				}
			}
			checker = append(checker, r)
		}
	}
	pairs, same, fast := 0, 0, 0
	for i := range checker {
		a := &checker[i]
		for j := range units {
			u := &units[j]
			for _, m := range machines {
				_, err := u.Threads(m)
				got := sameUnitOn(a, u, m, m, err == nil)
				want := coll.SameOn(a, u, m)
				pairs++
				if want {
					same++
				}
				if a.Name == u.Name && a.Scale == u.Scale && len(a.Domain) == len(u.Domain) && len(a.Box) == len(u.Box) &&
					sameSyms(a.Domain, u.Domain, m) && sameSyms(a.Box, u.Box, m) {
					fast++
				}
				if got != want {
					t.Fatalf("%v %v on %+v: sameUnitOn %v, SameOn %v", a.Shape(), u.Shape(), m, got, want)
				}
			}
		}
	}
	t.Logf("%d pairs, %d the same, %d decided without SameOn", pairs, same, fast)
	if same < 100 || fast < 100 || pairs-same < 1000 {
		t.Errorf("the comparison exercised too little")
	}
}
