package coll

import (
	"fmt"
	"math/rand"
	"reflect"
	"sort"
	"testing"
)

// sameTiling compares every field of two tilings but their memos.
func sameTiling(a, b *Tiling) string {
	switch {
	case a.M != b.M || a.Parent != b.Parent || a.Kind != b.Kind:
		return "machine, parent or kind"
	case !reflect.DeepEqual(a.Dims, b.Dims) || !reflect.DeepEqual(a.Tile, b.Tile) || !reflect.DeepEqual(a.Full, b.Full):
		return fmt.Sprintf("shape %v %v %v vs %v %v %v", a.Dims, a.Tile, a.Full, b.Dims, b.Tile, b.Full)
	case !reflect.DeepEqual(a.Ops(), b.Ops()) || a.opDim != b.opDim || a.opBox != b.opBox || !reflect.DeepEqual(a.Base, b.Base):
		return "operators or base"
	case a.Iter != b.Iter || a.Count != b.Count || !reflect.DeepEqual(a.Unit, b.Unit) || a.Lo != b.Lo || a.Hi != b.Hi || a.WarpName != b.WarpName:
		return "derivation arguments"
	case a.TileThreads != b.TileThreads || a.threads != b.threads || a.col != b.col || a.lower != b.lower:
		return "thread counts, collective or lowering"
	case !reflect.DeepEqual(a.anchors, b.anchors):
		return fmt.Sprintf("anchors %v vs %v", a.anchors, b.anchors)
	}
	return ""
}

// TestMemoMatchesFresh derives random nests (as TestPropertyAgainstBruteForce
// does) and checks that asking a tiling again returns the same tiling or
// error, equal in every field to one derived afresh without the memo, and
// that a memoized match is the fresh match.
func TestMemoMatchesFresh(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	hits := 0
	for trial := 0; trial < 3000; trial++ {
		m := Machine{BlockDim: []int{32, 64, 128, 256, 384}[r.Intn(5)], ClusterDim: []int{1, 1, 2, 4}[r.Intn(4)]}
		tl, _ := DeviceTiling(m)
		for d := 0; d < 1+r.Intn(4); d++ {
			var got, again, fresh *Tiling
			var err, err2, ferr error
			switch r.Intn(6) {
			case 0:
				lo := r.Intn(4)
				hi := lo + 1 + r.Intn(3)
				got, err = tl.CudaWarps(lo, hi)
				again, err2 = tl.CudaWarps(lo, hi)
				fresh, ferr = tl.deriveWarps(lo, hi)
			case 1:
				lo, hi := 0, 1+r.Intn(2)
				got, err = tl.NamedWarps("w", lo, hi)
				again, err2 = tl.NamedWarps("w", lo, hi)
				fresh, ferr = tl.deriveNamedWarps("w", lo, hi)
			default:
				u := randomUnit(r, m)
				count := 1 + r.Intn(8)
				got, err = tl.CudaThreads(d, count, u)
				again, err2 = tl.CudaThreads(d, count, randomUnitCopy(u))
				fresh, ferr = tl.deriveThreads(d, count, u)
			}
			if got != again || err != err2 {
				t.Fatalf("trial %d: asked again: %p %v, first %p %v", trial, again, err2, got, err)
			}
			hits++
			if (err == nil) != (ferr == nil) || err != nil && err.Error() != ferr.Error() {
				t.Fatalf("trial %d: memoized error %v, fresh %v", trial, err, ferr)
			}
			if err != nil {
				break
			}
			if diff := sameTiling(got, fresh); diff != "" {
				t.Fatalf("trial %d: memoized %s differs from fresh %s: %s", trial, got, fresh, diff)
			}
			for _, u := range []Unit{CudaThread, CudaWarp, CudaWarpgroup, CudaCtaInCluster, CudaCluster, randomUnit(r, m)} {
				if a, b := tl.Matches(u), tl.match(u); (a == nil) != (b == nil) || a != nil && a.Msg != b.Msg {
					t.Fatalf("trial %d: Matches(%s) = %v, fresh %v", trial, u, a, b)
				}
			}
			tl = got
		}
	}
	if hits < 3000 {
		t.Errorf("only %d derivations compared", hits)
	}
}

// randomUnitCopy is u with its own coordinate slices: the memo compares
// units by value.
func randomUnitCopy(u Unit) Unit {
	u.Domain = append([]Sym(nil), u.Domain...)
	u.Box = append([]Sym(nil), u.Box...)
	return u
}

// refAlign is shape alignment as it was before it kept its intermediate
// shapes on the stack (a set of pitches sorted, merged shapes copied): the
// reference of TestAlignMatchesReference.
func (t *Tiling) refAlign(domain, box []int, completion int) (aligned, *Error) {
	n := t.M.Threads()
	tdims, ttile, tfull, tanch := t.refMerged()
	udims := make([]Dim, len(domain))
	p := 1
	for i := len(domain) - 1; i >= 0; i-- {
		udims[i] = Dim{domain[i], p}
		p *= domain[i]
	}
	ubox := append([]int(nil), box...)
	if p != n {
		udims = append([]Dim{{n / p, p}}, udims...)
		ubox = append([]int{completion}, ubox...)
	}
	pset := map[int]bool{}
	for _, d := range tdims {
		pset[d.Pitch] = true
	}
	for _, d := range udims {
		pset[d.Pitch] = true
	}
	var pitches []int
	for q := range pset {
		pitches = append(pitches, q)
	}
	sort.Sort(sort.Reverse(sort.IntSlice(pitches)))
	top := n
	dims := make([]Dim, len(pitches))
	for i, q := range pitches {
		if top%q != 0 {
			return aligned{}, errorf("pitch %d does not divide %d", q, top)
		}
		dims[i] = Dim{top / q, q}
		top = q
	}
	k := len(dims)
	a := aligned{dims: dims, tile: make([]int, k), full: make([]int, k), box: make([]int, k), anchors: make([]anchor, k)}
	if err := splitShape(tdims, ttile, tanch, dims, a.tile, a.anchors); err != nil {
		return aligned{}, err
	}
	if err := splitShape(tdims, tfull, nil, dims, a.full, nil); err != nil {
		return aligned{}, err
	}
	if err := splitShape(udims, ubox, nil, dims, a.box, nil); err != nil {
		return aligned{}, err
	}
	return a, nil
}

func (t *Tiling) refMerged() ([]Dim, []int, []int, []anchor) {
	dims := append([]Dim(nil), t.Dims...)
	tile := append([]int(nil), t.Tile...)
	full := append([]int(nil), t.Full...)
	anch := append([]anchor(nil), t.anchors...)
	for i := len(dims) - 2; i >= 0; i-- {
		in := i + 1
		e := dims[in].Extent
		if tile[in] != e || full[in] != e || !anch[in].OK || anch[in].A != e || anch[in].Off != 0 {
			continue
		}
		m := anchor{}
		if anch[i].OK {
			m = anchor{A: anch[i].A * e, Off: anch[i].Off * e, OK: true}
		}
		dims[i] = Dim{Extent: dims[i].Extent * e, Pitch: dims[in].Pitch}
		tile[i] *= e
		full[i] *= e
		anch[i] = m
		dims = append(dims[:in], dims[in+1:]...)
		tile = append(tile[:in], tile[in+1:]...)
		full = append(full[:in], full[in+1:]...)
		anch = append(anch[:in], anch[in+1:]...)
	}
	return dims, tile, full, anch
}

// TestAlignMatchesReference aligns random tilings with random units, into
// fresh arrays and into a scratch buffer, and compares both with refAlign.
func TestAlignMatchesReference(t *testing.T) {
	r := rand.New(rand.NewSource(11))
	compared := 0
	for trial := 0; trial < 2000; trial++ {
		m := Machine{BlockDim: []int{32, 64, 128, 256, 384}[r.Intn(5)], ClusterDim: []int{1, 1, 2, 4}[r.Intn(4)]}
		tl, _ := DeviceTiling(m)
		for d := 0; d < 1+r.Intn(4); d++ {
			u := randomUnit(r, m)
			domain, box, err := u.Resolve(m)
			if err != nil {
				continue
			}
			for _, completion := range []int{inherit, 1} {
				want, werr := tl.refAlign(domain, box, completion)
				var scratch alignBuf
				for _, buf := range []*alignBuf{nil, &scratch} {
					got, gerr := tl.align(domain, box, completion, buf)
					if (werr == nil) != (gerr == nil) {
						t.Fatalf("trial %d: %s with %s: error %v, reference %v", trial, tl, u, gerr, werr)
					}
					if werr == nil && !reflect.DeepEqual(got, want) {
						t.Fatalf("trial %d: %s with %s: %+v, reference %+v", trial, tl, u, got, want)
					}
					compared++
				}
			}
			next, err := tl.CudaThreads(d, 1+r.Intn(4), u)
			if err != nil {
				break
			}
			tl = next
		}
	}
	if compared < 5000 {
		t.Errorf("only %d alignments compared", compared)
	}
}
