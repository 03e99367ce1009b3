package coll

import (
	"math/rand"
	"reflect"
	"testing"
)

// TestThreads1DMatchesGeneral derives random nests of cuda_threads loops
// and CudaWarps blocks on random launch shapes (mostly without clusters,
// where the one-pass derivation applies) with CudaThreadsIn, and compares
// every tiling and error text with the general derivation made afresh
// from the same parent (deriveThreads), and the tilings' matches with
// random units. A declined store must stay zero. Most derivations must
// take the one-pass way, and some must decline.
func TestThreads1DMatchesGeneral(t *testing.T) {
	r := rand.New(rand.NewSource(37))
	fast, declined := 0, 0
	units := []Unit{CudaThread, CudaWarp, CudaWarpgroup, CudaCtaInCluster, CudaCluster, CudaWarpInCluster, CudaQuadpair, StandaloneThread,
		ThreadsStrided(1, 4), ThreadsStrided(2, 8), CtaInClusterStrided(2), WarpInClusterStrided(1)}
	zero := new(ThreadsStore)
	for trial := 0; trial < 12000; trial++ {
		m := Machine{BlockDim: []int{32, 64, 96, 128, 256, 384}[r.Intn(6)], ClusterDim: []int{1, 1, 1, 2}[r.Intn(4)]}
		tl, _ := DeviceTiling(m)
		for depth := 0; depth < 1+r.Intn(6); depth++ {
			if r.Intn(6) == 0 {
				// A CudaWarps block between loops (its tiling is not
				// the one-pass derivation's).
				lo := r.Intn(3)
				if w, err := tl.CudaWarps(lo, lo+1+r.Intn(3)); err == nil {
					tl = w
				}
				continue
			}
			u := randomUnit(r, m)
			if r.Intn(3) == 0 {
				u = units[r.Intn(len(units))]
			}
			if r.Intn(4) == 0 {
				// Units whose coordinates are concrete, as the GPU
				// checker builds them (coll.Const).
				if d, b, err := u.Resolve(m); err == nil {
					c := Unit{Name: u.Name, ScaledDim: u.ScaledDim, Scale: u.Scale}
					for i := range d {
						c.Domain = append(c.Domain, Const(d[i]))
						if b[i] < 0 {
							c.Box = append(c.Box, AnySym)
						} else {
							c.Box = append(c.Box, Const(b[i]))
						}
					}
					u = c
				}
			}
			count := 1 + r.Intn(8)
			if r.Intn(3) == 0 {
				count = 1 << r.Intn(6)
			}
			iter := 10 + depth
			st := new(ThreadsStore)
			got, err := tl.CudaThreadsIn(iter, count, randomUnitCopy(u), st)
			want, werr := tl.deriveThreads(iter, count, u)
			if (err == nil) != (werr == nil) || err != nil && err.Error() != werr.Error() {
				t.Fatalf("trial %d: %d x %s on %s: error %v, general %v", trial, count, u, tl, err, werr)
			}
			if err != nil {
				if !reflect.DeepEqual(st, zero) {
					t.Fatalf("trial %d: a failed derivation wrote its store", trial)
				}
				break
			}
			if diff := sameTiling(got, want); diff != "" {
				t.Fatalf("trial %d: %d x %s on %s: %s (one-pass %v)", trial, count, u, tl, diff, got == &st.t)
			}
			if got == &st.t {
				fast++
			} else {
				declined++
				if !reflect.DeepEqual(st, zero) {
					t.Fatalf("trial %d: a declined store was written", trial)
				}
			}
			for _, mu := range []Unit{CudaThread, CudaWarp, CudaWarpgroup, CudaCtaInCluster, randomUnit(r, m)} {
				if a, b := got.Matches(mu), want.match(mu); (a == nil) != (b == nil) || a != nil && a.Msg != b.Msg {
					t.Fatalf("trial %d: Matches(%s) = %v, general %v", trial, mu, a, b)
				}
			}
			tl = got
		}
	}
	if fast < 1500 || declined < 1000 {
		t.Errorf("one-pass %d, declined %d", fast, declined)
	}
	t.Logf("one-pass %d, declined %d", fast, declined)
}

// TestThreads1DSyntheticShapes compares CudaThreadsIn with the general
// derivation on one-dimensional scopes made directly, with tiles and
// full tiles anywhere in [1, n] (a full tile narrower than the tile too), random anchors and terms, and units of
// random constant coordinates (zero, negative, wider than the domain, a
// second level of extent 1, a box of more levels than the domain), at
// trip counts from -1 up: shapes and units no nest of derivations
// makes, where each of its guards must decline as the general way does.
func TestThreads1DSyntheticShapes(t *testing.T) {
	r := rand.New(rand.NewSource(371))
	fast, declined := 0, 0
	for trial := 0; trial < 60000; trial++ {
		bd := []int{1, 2, 8, 32, 40, 64, 96, 128, 160}[r.Intn(9)]
		m := Machine{BlockDim: bd, ClusterDim: []int{1, 1, 1, 2}[r.Intn(4)]}
		n := m.Threads()
		pick := func() int {
			switch r.Intn(4) {
			case 0:
				return r.Intn(2*n + 1)
			case 1:
				return n
			}
			return 1 << r.Intn(8) % (n + 1)
		}
		// Tiles in [1, n] (a derivation's, as alignSame's checks
		// require: the general way divides by them).
		tile, full := max(1, min(pick(), n)), max(1, min(pick(), n))
		if r.Intn(2) == 0 {
			full = max(full, tile)
		}
		tl := &Tiling{M: m, Kind: KindThreads, Dims: []Dim{{n, 1}}, Tile: []int{tile}, Full: []int{full}}
		if r.Intn(5) == 0 {
			// Not one dimension of n: a cluster's, or extent 1 first.
			tl.Dims = []Dim{{1, n}, {n, 1}}
			tl.Tile, tl.Full = []int{1, tile}, []int{1, full}
		}
		tl.anchors = make([]anchor, len(tl.Dims))
		for i := range tl.anchors {
			tl.anchors[i] = anchor{A: pick(), Off: r.Intn(4), OK: r.Intn(4) > 0}
			if tl.anchors[i].A == 0 {
				tl.anchors[i].A = 1
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
				return ClusterThreadsSym(1, 1+r.Intn(2))
			case 3:
				return Const(n)
			case 4:
				return Sym{Num: pick(), Any: r.Intn(2) == 0, Div: r.Intn(6) - 1}
			}
			return Const(pick())
		}
		u := Unit{Name: "u", Domain: []Sym{Const(n)}, Box: []Sym{coord()}, ScaledDim: 0}
		switch r.Intn(6) {
		case 0:
			u.Domain[0] = coord()
		case 1:
			u.Domain = append(u.Domain, Const(1))
			u.Box = append(u.Box, Const(1))
		case 2:
			u.Box = append(u.Box, Const(1))
		case 3:
			u.Domain = append(u.Domain, Const(1))
		}
		count := r.Intn(10) - 1
		if r.Intn(2) == 0 && tile > 0 && u.Box[0].Num > 0 {
			count = tile / u.Box[0].Num
		}
		if r.Intn(8) == 0 {
			// Halves of the largest power of two in n, under an anchor
			// of n: a modulus the box does not divide when n is not a
			// power of two (160).
			p := 1
			for 2*p <= n {
				p *= 2
			}
			tl.Tile[len(tl.Tile)-1], tl.Full[len(tl.Full)-1] = p, p
			tl.anchors[len(tl.anchors)-1] = anchor{A: n, OK: true}
			tl.finish()
			u = Unit{Name: "u", Domain: []Sym{Const(n)}, Box: []Sym{Const(max(1, p/2))}}
			count = 2
		}
		st := new(ThreadsStore)
		got, err := tl.CudaThreadsIn(7, count, randomUnitCopy(u), st)
		want, werr := tl.deriveThreads(7, count, u)
		if (err == nil) != (werr == nil) || err != nil && err.Error() != werr.Error() {
			t.Fatalf("trial %d: %d x %s %s on %s (tile %d full %d): error %v, general %v", trial, count, u, u.Shape(), tl, tile, full, err, werr)
		}
		if err != nil {
			continue
		}
		if diff := sameTiling(got, want); diff != "" {
			t.Fatalf("trial %d: %d x %s on %s (tile %d full %d anchor %v): %s", trial, count, u.Shape(), tl, tile, full, tl.anchors, diff)
		}
		if got == &st.t {
			fast++
		} else {
			declined++
		}
	}
	if fast < 2000 || declined < 500 {
		t.Errorf("one-pass %d, declined %d", fast, declined)
	}
	t.Logf("one-pass %d, declined %d", fast, declined)
}
