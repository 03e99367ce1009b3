package coll

import (
	"math/rand"
	"reflect"
	"testing"
)

// TestThreadsClusterMatchesGeneral compares CudaThreadsIn with the general
// derivation (deriveThreads, afresh from the same parent) on clusters:
// scopes made directly, of one dimension (n,) and of two (C, B) (the CTA
// level covered whole, which alignTo merges, or not), with tiles and
// full tiles anywhere in their extents, random anchors and terms, and
// units of random coordinates (a CTA's domain or another, boxes wider
// than a CTA, the wildcard, two levels), at trip counts from -1 up; then
// random nests of loops and CudaWarps blocks from the device tiling.
// Every tiling, error text and match must be the general way's, a
// declined store must stay zero, and the one-pass cluster derivation
// must make some of them in each kind of scope and decline others.
func TestThreadsClusterMatchesGeneral(t *testing.T) {
	r := rand.New(rand.NewSource(41))
	zero := new(ThreadsStore)
	var fast [3]int // one-pass cluster tilings from (n,), (C, B) merged, (C, B)
	declined := 0
	compare := func(trial int, tl *Tiling, count int, u Unit) *Tiling {
		t.Helper()
		kind := len(tl.Dims) - 1
		if kind == 1 && tl.mergeable() {
			kind = 1
		} else if kind == 1 {
			kind = 2
		}
		got, want, st := bothWays(t, trial, tl, count, u)
		if got == nil {
			return nil
		}
		if diff := sameTiling(got, want); diff != "" {
			t.Fatalf("trial %d: %d x %s %s on %s (anchors %v): %s", trial, count, u, u.Shape(), tl, tl.anchors, diff)
		}
		if got == &st.t && len(got.Dims) == 2 {
			fast[kind]++
		} else if got != &st.t {
			declined++
			if !reflect.DeepEqual(st, zero) {
				t.Fatalf("trial %d: a declined store was written", trial)
			}
		}
		for _, mu := range []Unit{CudaThread, CudaWarp, CudaCtaInCluster, CudaCluster, u} {
			if a, b := got.Matches(mu), want.match(mu); (a == nil) != (b == nil) || a != nil && a.Msg != b.Msg {
				t.Fatalf("trial %d: Matches(%s) = %v, general %v", trial, mu, a, b)
			}
		}
		return got
	}
	for trial := 0; trial < 40000; trial++ {
		B := []int{2, 8, 32, 40, 64, 96, 128, 160}[r.Intn(8)]
		C := []int{2, 2, 3, 4}[r.Intn(4)]
		m := Machine{BlockDim: B, ClusterDim: C}
		n := C * B
		in := func(e int) int {
			switch r.Intn(5) {
			case 0:
				return e
			case 1:
				return 1
			case 2:
				return 1 << r.Intn(8) % e
			}
			return 1 + r.Intn(e)
		}
		tl := &Tiling{M: m, Kind: KindThreads}
		switch r.Intn(3) {
		case 0:
			// (n,): tiles of whole CTAs, within one, or neither.
			tile, full := in(n), in(n)
			if r.Intn(2) == 0 {
				tile = B * in(C)
			}
			if r.Intn(2) == 0 {
				full = max(full, tile)
			}
			tl.Dims, tl.Tile, tl.Full = []Dim{{n, 1}}, []int{max(tile, 1)}, []int{max(full, 1)}
		default:
			t0, t1, f0, f1 := in(C), in(B), in(C), in(B)
			if r.Intn(3) == 0 {
				t1, f1 = B, B
			}
			tl.Dims, tl.Tile, tl.Full = []Dim{{C, B}, {B, 1}}, []int{max(t0, 1), max(t1, 1)}, []int{max(f0, 1), max(f1, 1)}
		}
		tl.anchors = make([]anchor, len(tl.Dims))
		for i := range tl.anchors {
			tl.anchors[i] = anchor{A: max(1, in(n)), Off: r.Intn(4), OK: r.Intn(4) > 0}
			if r.Intn(3) == 0 {
				tl.anchors[i] = anchor{A: tl.Dims[i].Extent, OK: true}
			}
		}
		for i := r.Intn(5); i > 0; i-- {
			tl.Base.Terms = append(tl.Base.Terms, Term{Iter: i, Step: r.Intn(64), Count: 1 + r.Intn(4)})
		}
		tl.Base.Const = r.Intn(100)
		if tl.finish() != nil {
			continue
		}
		coord := func() Sym {
			switch r.Intn(8) {
			case 0:
				return Const(r.Intn(3) - 1)
			case 1:
				return BlockDimSym(1, 1)
			case 2:
				return BlockDimSym(1, 1+r.Intn(2))
			case 3:
				return Const(B + r.Intn(2))
			case 4:
				return Sym{Num: in(n), Any: r.Intn(4) == 0}
			}
			return Const(in(B))
		}
		u := Unit{Name: "u", Domain: []Sym{BlockDimSym(1, 1)}, Box: []Sym{coord()}, ScaledDim: 0}
		switch r.Intn(8) {
		case 0:
			u.Domain[0] = coord()
		case 1:
			u.Domain[0] = Const(B)
		case 2:
			u.Domain = append(u.Domain, Const(1))
			u.Box = append(u.Box, Const(1))
		case 3:
			u.Box = append(u.Box, Const(1))
		}
		count := r.Intn(10) - 1
		if b := u.Box[0].Num; r.Intn(2) == 0 && b > 0 {
			count = max(1, tl.Tile[len(tl.Tile)-1]/b)
		}
		compare(trial, tl, count, u)
	}
	// Nests from the device tiling, as a check derives them.
	for trial := 0; trial < 6000; trial++ {
		m := Machine{BlockDim: []int{32, 64, 96, 128, 256}[r.Intn(5)], ClusterDim: []int{2, 2, 4}[r.Intn(3)]}
		tl, _ := DeviceTiling(m)
		for depth := 0; depth < 1+r.Intn(5); depth++ {
			if r.Intn(6) == 0 {
				lo := r.Intn(3)
				if w, err := tl.CudaWarps(lo, lo+1+r.Intn(3)); err == nil {
					tl = w
				}
				continue
			}
			u := randomUnit(r, m)
			if r.Intn(3) == 0 {
				u, _ = CudaThread.Scaled(1 << r.Intn(6))
			}
			count := 1 + r.Intn(8)
			if r.Intn(3) == 0 {
				count = 1 << r.Intn(6)
			}
			got := compare(trial, tl, count, u)
			if got == nil {
				break
			}
			tl = got
		}
	}
	t.Logf("one-pass cluster tilings from (n,) %d, (C, B) merged %d, (C, B) %d; declined %d", fast[0], fast[1], fast[2], declined)
	if fast[0] < 500 || fast[1] < 300 || fast[2] < 500 || declined < 2000 {
		t.Errorf("the comparison exercised too little")
	}
}
