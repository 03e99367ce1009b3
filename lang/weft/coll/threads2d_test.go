package coll

import (
	"math/rand"
	"reflect"
	"testing"
)

// TestThreads2DMatchesGeneral compares CudaThreadsIn with the general
// derivation (deriveThreads) on made scopes: one dimension (n,) under
// units of two levels (threadsStrided), and two dimensions (e0, e1),
// merging or not, under units of one level (threadsOver2), with tiles,
// full tiles and anchors anywhere, random terms, units of random
// coordinates (extents of 1, boxes wider than their domain, domains
// other than n, wildcards) and trip counts from -1 up. Every tiling and
// error text must be the general way's, a declined store stay zero, and
// each one-pass derivation must make some tilings and decline others.
func TestThreads2DMatchesGeneral(t *testing.T) {
	r := rand.New(rand.NewSource(46))
	strided, over2, declined := 0, 0, 0
	zero := new(ThreadsStore)
	for trial := 0; trial < 80000; trial++ {
		bd := []int{2, 8, 32, 64, 96, 128, 160}[r.Intn(7)]
		m := Machine{BlockDim: bd, ClusterDim: []int{1, 1, 1, 2}[r.Intn(4)]}
		n := m.Threads()
		divs := []int{}
		for d := 1; d <= n; d++ {
			if n%d == 0 {
				divs = append(divs, d)
			}
		}
		div := func() int { return divs[r.Intn(len(divs))] }
		upto := func(e int) int {
			if r.Intn(3) == 0 {
				return e
			}
			return 1 + r.Intn(e)
		}
		var tl *Tiling
		twoD := r.Intn(2) == 0
		if !twoD {
			tile, full := upto(n), upto(n)
			if r.Intn(2) == 0 {
				full = max(full, tile)
			}
			tl = &Tiling{M: m, Kind: KindThreads, Dims: []Dim{{n, 1}}, Tile: []int{tile}, Full: []int{full}}
		} else {
			e1 := div()
			e0 := n / e1
			tl = &Tiling{M: m, Kind: KindThreads, Dims: []Dim{{e0, e1}, {e1, 1}}, Tile: []int{upto(e0), upto(e1)}, Full: []int{upto(e0), upto(e1)}}
			if r.Intn(3) == 0 {
				tl.Full[1] = max(tl.Full[1], tl.Tile[1])
			}
			if r.Intn(4) == 0 {
				tl.Dims[0].Pitch++ // not a chain
			}
		}
		tl.anchors = make([]anchor, len(tl.Dims))
		for i := range tl.anchors {
			tl.anchors[i] = anchor{A: div(), Off: r.Intn(4), OK: r.Intn(4) > 0}
			if r.Intn(4) == 0 {
				tl.anchors[i].Off = 0
			}
		}
		if twoD && r.Intn(4) == 0 {
			// The inner dimension covered whole at 0: merged first.
			e1 := tl.Dims[1].Extent
			tl.Tile[1], tl.Full[1], tl.anchors[1] = e1, e1, anchor{A: e1, OK: true}
		}
		for i := r.Intn(5); i > 0; i-- {
			tl.Base.Terms = append(tl.Base.Terms, Term{Iter: i, Step: r.Intn(64), Count: 1 + r.Intn(4)})
		}
		tl.Base.Const = r.Intn(100)
		if tl.finish() != nil {
			continue
		}
		coord := func(v int) Sym {
			switch r.Intn(10) {
			case 0:
				return Const(r.Intn(3) - 1)
			case 1:
				return Sym{Num: v, Any: r.Intn(2) == 0}
			case 2:
				return BlockDimSym(1, max(1, m.BlockDim/max(1, v)))
			}
			return Const(v)
		}
		var u Unit
		if !twoD {
			d1 := div()
			if r.Intn(8) == 0 {
				d1 = 1 + r.Intn(n)
			}
			d0 := max(1, n/d1)
			if r.Intn(10) == 0 {
				d0 = 1 + r.Intn(4)
			}
			u = Unit{Name: "s", Domain: []Sym{coord(d0), coord(d1)}, Box: []Sym{coord(upto(d0 + r.Intn(2))), coord(upto(d1 + r.Intn(2)))}, ScaledDim: 0, Scale: 1 + r.Intn(2)}
			if r.Intn(5) == 0 {
				u = ThreadsStrided(1+r.Intn(2), 2+r.Intn(3))
				if k := 1 + r.Intn(4); k > 1 {
					u, _ = u.Scaled(k)
				}
			}
		} else {
			d := n
			if r.Intn(8) == 0 {
				d = div()
			}
			u = Unit{Name: "u", Domain: []Sym{coord(d)}, Box: []Sym{coord(upto(d + r.Intn(2)))}, ScaledDim: 0}
		}
		count := r.Intn(10) - 1
		if r.Intn(2) == 0 {
			count = 1 << r.Intn(5)
		}
		got, want, st := bothWays(t, trial, tl, count, u)
		if got == nil {
			continue
		}
		if diff := sameTiling(got, want); diff != "" {
			t.Fatalf("trial %d: %d x %s %s on %s (tile %v full %v anchors %v): %s", trial, count, u, u.Shape(), tl, tl.Tile, tl.Full, tl.anchors, diff)
		}
		switch {
		case got == &st.t && len(tl.Dims) == 2:
			over2++
		case got != &st.t && len(u.Domain) == 2 && count >= 1 && tl.threadsStrided(7, count, &u) != nil:
			strided++
		default:
			declined++
		}
		if got != &st.t && !reflect.DeepEqual(st, zero) {
			t.Fatalf("trial %d: a declined store was written", trial)
		}
		for _, mu := range []Unit{CudaThread, CudaWarp, randomUnit(r, m)} {
			if a, b := got.Matches(mu), want.match(mu); (a == nil) != (b == nil) || a != nil && a.Msg != b.Msg {
				t.Fatalf("trial %d: Matches(%s) = %v, general %v", trial, mu, a, b)
			}
		}
	}
	if strided < 400 || over2 < 1000 || declined < 1000 {
		t.Errorf("strided %d, over two dimensions %d, declined %d", strided, over2, declined)
	}
	t.Logf("strided %d, over two dimensions %d, declined %d", strided, over2, declined)
}

// TestThreads2DShfl derives shfl_xor's strided loop (2 *
// cuda_threads_strided(1, 2) under a loop of 4 * cuda_thread in a CTA of
// 64) and the loop of cuda_thread under it in one pass each.
func TestThreads2DShfl(t *testing.T) {
	m := Machine{BlockDim: 64, ClusterDim: 1}
	top, _ := DeviceTiling(m)
	t4, err := top.CudaThreadsIn(1, 16, Unit{Name: "cuda_thread", Domain: []Sym{BlockDimSym(1, 1)}, Box: []Sym{Const(4)}, ScaledDim: 0, Scale: 4}, new(ThreadsStore))
	if err != nil {
		t.Fatal(err)
	}
	su, _ := ThreadsStrided(1, 2).Scaled(2)
	if t4.threadsStrided(2, 2, &su) == nil {
		t.Fatalf("the strided loop declined")
	}
	t1, err := t4.CudaThreadsIn(2, 2, su, new(ThreadsStore))
	if err != nil {
		t.Fatal(err)
	}
	want, _ := t4.deriveThreads(2, 2, su)
	if diff := sameTiling(t1, want); diff != "" {
		t.Fatal(diff)
	}
	st := new(ThreadsStore)
	lane, err := t1.CudaThreadsIn(3, 2, CudaThread, st)
	if err != nil || lane != &st.t {
		t.Fatalf("the loop over lanes declined: %v", err)
	}
	want, _ = t1.deriveThreads(3, 2, CudaThread)
	if diff := sameTiling(lane, want); diff != "" {
		t.Fatal(diff)
	}
}

// bothWays derives count x u under tl with CudaThreadsIn, in a new store
// st, and with the general derivation, and fails t where their errors
// differ or a failed derivation wrote st; got is nil where both fail.
func bothWays(t *testing.T, trial int, tl *Tiling, count int, u Unit) (got, want *Tiling, st *ThreadsStore) {
	t.Helper()
	st = new(ThreadsStore)
	got, err := tl.CudaThreadsIn(7, count, randomUnitCopy(u), st)
	want, werr := tl.deriveThreads(7, count, u)
	if (err == nil) != (werr == nil) || err != nil && err.Error() != werr.Error() {
		t.Fatalf("trial %d: %d x %s %s on %s: error %v, general %v", trial, count, u, u.Shape(), tl, err, werr)
	}
	if err != nil {
		if !reflect.DeepEqual(st, new(ThreadsStore)) {
			t.Fatalf("trial %d: a failed derivation wrote its store", trial)
		}
		return nil, nil, st
	}
	return got, want, st
}
