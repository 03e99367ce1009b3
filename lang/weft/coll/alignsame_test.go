package coll

import (
	"math/rand"
	"reflect"
	"testing"
)

// generalAlign is alignTo without alignSame.
func generalAlign(t *Tiling, domain, box []int, completion int) (aligned, *Error) {
	alignSameOff = true
	defer func() { alignSameOff = false }()
	return t.alignTo(domain, box, completion, nil, nil)
}

// TestAlignSameMatchesGeneral checks alignSame (alignsame.go) against
// the general alignment it short-cuts: random nests of cuda_threads
// loops and CudaWarps blocks on random launch shapes (as the twin tests
// derive them), every tiling aligned with random units (the standard
// ones too, with their extent-1 levels dropped as derivations and
// matches retry) for a derivation (completion inherit) and a match
// (completion 1): the same dimensions, tile, full tile, box, anchors and
// error text. Then every derivation and match, with alignSame and
// without, gives the same tiling or error. Most alignments must take
// alignSame's way, and some must decline.
func TestAlignSameMatchesGeneral(t *testing.T) {
	r := rand.New(rand.NewSource(36))
	same, general, derived := 0, 0, 0
	units := []Unit{CudaThread, CudaWarp, CudaWarpgroup, CudaCtaInCluster, CudaCluster, CudaWarpInCluster, CudaQuadpair, StandaloneThread,
		ThreadsStrided(1, 4), ThreadsStrided(2, 8), CtaInClusterStrided(2), WarpInClusterStrided(1)}
	for trial := 0; trial < 3000; trial++ {
		m := Machine{BlockDim: []int{32, 64, 128, 256, 384}[r.Intn(5)], ClusterDim: []int{1, 1, 2, 4}[r.Intn(4)]}
		tl, _ := DeviceTiling(m)
		for depth := 0; depth < 1+r.Intn(5); depth++ {
			for k := 0; k < 6; k++ {
				u := randomUnit(r, m)
				if k < 2 {
					u = units[r.Intn(len(units))]
				}
				domain, box, err := u.Resolve(m)
				if err != nil {
					continue
				}
				variants := [][2][]int{{domain, box}}
				if d, b, ok := dropUnitLevels(domain, box); ok {
					variants = append(variants, [2][]int{d, b})
				}
				for _, v := range variants {
					for _, completion := range []int{inherit, 1} {
						want, werr := generalAlign(tl, v[0], v[1], completion)
						got, gerr := tl.alignTo(v[0], v[1], completion, nil, nil)
						if (werr == nil) != (gerr == nil) || werr != nil && werr.Msg != gerr.Msg {
							t.Fatalf("trial %d: %s on %s: error %v, general %v", trial, u, tl, gerr, werr)
						}
						if werr == nil && !reflect.DeepEqual(got, want) {
							t.Fatalf("trial %d: %s (completion %d) on %s: %+v, general %+v", trial, u, completion, tl, got, want)
						}
						if _, ok := tryAlignSame(tl, v[0], v[1], completion); ok {
							same++
						} else {
							general++
						}
					}
				}
				// Derivations and matches with and without it.
				count := 1 + r.Intn(8)
				body, err := tl.deriveThreads(100+depth, count, u)
				alignSameOff = true
				fbody, ferr := tl.deriveThreads(100+depth, count, u)
				fm := tl.match(u)
				alignSameOff = false
				if (err == nil) != (ferr == nil) || err != nil && err.Error() != ferr.Error() {
					t.Fatalf("trial %d: deriving %d x %s on %s: %v, general %v", trial, count, u, tl, err, ferr)
				}
				if err == nil {
					if diff := sameTiling(body, fbody); diff != "" {
						t.Fatalf("trial %d: deriving %d x %s on %s: %s", trial, count, u, tl, diff)
					}
					derived++
				}
				if gm := tl.match(u); (gm == nil) != (fm == nil) || gm != nil && gm.Msg != fm.Msg {
					t.Fatalf("trial %d: matching %s on %s: %v, general %v", trial, u, tl, gm, fm)
				}
			}
			// Descend: a loop or a CudaWarps block, as the twin tests do.
			s := randomTwinStep(r, m)
			next, _, err, _ := s.derive(tl, depth)
			if err != nil {
				break
			}
			tl = next
		}
	}
	t.Logf("%d alignments by alignSame, %d general, %d derivations compared", same, general, derived)
	if same < 20000 || general < 2000 || derived < 5000 {
		t.Errorf("alignSame took %d alignments, the general way %d (%d derivations): too few of one", same, general, derived)
	}
}

// tryAlignSame reports whether alignTo takes alignSame's way for t and
// the unit shape (domain, box).
func tryAlignSame(t *Tiling, domain, box []int, completion int) (aligned, bool) {
	n := t.M.Threads()
	tdims, ttile, tfull, tanch := t.Dims, t.Tile, t.Full, t.anchors
	if t.mergeable() {
		var mb shapeBuf
		tdims, ttile, tfull, tanch = t.merged(&mb)
	}
	var udims []Dim
	var ubox []int
	p := 1
	for _, d := range domain {
		p *= d
	}
	if p != n {
		udims, ubox = append(udims, Dim{n / p, p}), append(ubox, completion)
	}
	q := p
	for i, d := range domain {
		q /= d
		udims, ubox = append(udims, Dim{d, q}), append(ubox, box[i])
	}
	return alignSame(n, tdims, ttile, tfull, tanch, udims, ubox, nil, nil)
}

// TestAlignSameSyntheticShapes compares alignSame with the general
// alignment on synthetic scope shapes no derivation need reach: random
// pitch chains with random tiles, full tiles and anchors (normalized or
// not), levels of extent 1, full tiles wider than their level, aligned with random unit shapes over some of their pitches,
// or a pitch of their own.
func TestAlignSameSyntheticShapes(t *testing.T) {
	r := rand.New(rand.NewSource(361))
	same := 0
	for trial := 0; trial < 20000; trial++ {
		k := 1 + r.Intn(4)
		dims := make([]Dim, k)
		tile, full := make([]int, k), make([]int, k)
		anch := make([]anchor, k)
		p := 1
		for i := k - 1; i >= 0; i-- {
			e := 2 + r.Intn(7)
			if r.Intn(8) == 0 {
				e = 1 // a level of extent 1: its pitch is the next one's
			}
			dims[i] = Dim{e, p}
			p *= e
			tile[i] = 1 + r.Intn(e)
			full[i] = tile[i] + r.Intn(e-tile[i]+1)
			if r.Intn(10) == 0 {
				full[i] = e * (1 + r.Intn(3)) // wider than its level
			}
			if r.Intn(4) > 0 {
				anch[i] = anchor{A: 1 + r.Intn(2*e), Off: r.Intn(e), OK: true}
			}
		}
		tl := &Tiling{M: Machine{BlockDim: p, ClusterDim: 1}, Dims: dims, Tile: tile, Full: full, anchors: anch}
		// A unit domain over a random subset of the pitches (or, now
		// and then, a pitch of its own): coordinates from one cut to
		// the next.
		var cuts []int
		for i := 1; i < k; i++ {
			if r.Intn(2) == 0 {
				cuts = append(cuts, i)
			}
		}
		var domain, box []int
		prev := 0
		for _, c := range append(cuts, k) {
			d := 1
			for i := prev; i < c; i++ {
				d *= dims[i].Extent
			}
			domain = append(domain, d)
			box = append(box, 1+r.Intn(d))
			prev = c
		}
		if r.Intn(5) == 0 {
			last := len(domain) - 1
			if d := domain[last]; d%2 == 0 && d > 2 {
				domain = append(domain[:last], d/2, 2)
				box = append(box[:last], 1, 1+r.Intn(2))
			}
		}
		if r.Intn(3) == 0 && domain[0] > 1 {
			// A domain smaller than the scope: completed.
			domain, box = domain[1:], box[1:]
			if len(domain) == 0 {
				continue
			}
		}
		for _, completion := range []int{inherit, 1} {
			want, werr := generalAlign(tl, domain, box, completion)
			got, gerr := tl.alignTo(domain, box, completion, nil, nil)
			if (werr == nil) != (gerr == nil) || werr != nil && werr.Msg != gerr.Msg {
				t.Fatalf("trial %d: %v %v on %v %v %v %v: error %v, general %v", trial, domain, box, dims, tile, full, anch, gerr, werr)
			}
			if werr == nil && !reflect.DeepEqual(got, want) {
				t.Fatalf("trial %d: %v %v on %v %v %v %v: %+v, general %+v", trial, domain, box, dims, tile, full, anch, got, want)
			}
			if _, ok := tryAlignSame(tl, domain, box, completion); ok {
				same++
			}
		}
	}
	t.Logf("%d alignments by alignSame", same)
	if same < 10000 {
		t.Errorf("only %d alignments by alignSame", same)
	}
}
