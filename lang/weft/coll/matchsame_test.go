package coll

import (
	"math/rand"
	"testing"
)

// TestMatchSameMatchesGeneral matches random units (the library's,
// strided ones, units of the scope's own shape with random boxes and
// trailing levels of extent 1) against the tilings of random nests and
// against tilings of two or three dimensions made directly with random
// tiles and starts, and compares Matches (with matchSame) with the
// general match. Some matches must be decided by matchSame, and some
// successes and failures on such scopes left to the general way.
func TestMatchSameMatchesGeneral(t *testing.T) {
	r := rand.New(rand.NewSource(421))
	decided, general, generalOK := 0, 0, 0
	check := func(tl *Tiling, u Unit) {
		t.Helper()
		got := tl.Matches(u)
		want := tl.match(u)
		if (got == nil) != (want == nil) || got != nil && got.Msg != want.Msg {
			t.Fatalf("%s %s on %s: Matches %v, general %v", u, u.Shape(), tl, got, want)
		}
		if len(tl.Dims) < 2 || tl.matchOne1D(&u) {
			return
		}
		if tl.matchSame(&u) {
			decided++
		} else if general++; want == nil {
			generalOK++
		}
	}
	// own is a unit of tl's own shape: its extents, a box of its tile or
	// of random coordinates, levels of extent 1 after it.
	own := func(tl *Tiling) Unit {
		u := Unit{Name: "own"}
		for i, d := range tl.Dims {
			b := tl.Tile[i]
			switch r.Intn(6) {
			case 0:
				b = 1 + r.Intn(d.Extent)
			case 1:
				b = d.Extent
			}
			u.Domain, u.Box = append(u.Domain, Const(d.Extent)), append(u.Box, Const(b))
		}
		for i := r.Intn(3); i > 0; i-- {
			d, b := Const(1), Const(1)
			if r.Intn(5) == 0 {
				b = Const(2)
			}
			u.Domain, u.Box = append(u.Domain, d), append(u.Box, b)
		}
		if r.Intn(8) == 0 {
			u.Box[r.Intn(len(u.Box))] = AnySym
		}
		return u
	}
	for trial := 0; trial < 6000; trial++ {
		m := Machine{BlockDim: []int{32, 64, 96, 128, 256}[r.Intn(5)], ClusterDim: []int{1, 1, 2, 4}[r.Intn(4)]}
		tl, _ := DeviceTiling(m)
		for depth := 0; depth < 1+r.Intn(5); depth++ {
			for k := 0; k < 3; k++ {
				check(tl, randomUnit(r, m))
				check(tl, own(tl))
			}
			if r.Intn(6) == 0 {
				lo := r.Intn(3)
				if w, err := tl.CudaWarps(lo, lo+1+r.Intn(3)); err == nil {
					tl = w
				}
				continue
			}
			u := randomUnit(r, m)
			if r.Intn(3) == 0 {
				n3 := []int{2, 4, 8}[r.Intn(3)]
				u, _ = ThreadsStrided(1, n3).Scaled([]int{1, 2, 4}[r.Intn(3)])
			}
			next, err := tl.CudaThreads(depth, 1+r.Intn(8), u)
			if err != nil {
				break
			}
			check(next, u)
			tl = next
		}
	}
	// Two or three dimensions made directly: tiles anywhere, starts of
	// random terms (aligned or not).
	for trial := 0; trial < 20000; trial++ {
		m := Machine{BlockDim: []int{32, 64, 96}[r.Intn(3)], ClusterDim: []int{1, 1, 2}[r.Intn(3)]}
		n := m.Threads()
		var ext []int
		for rest := n; ; {
			e := []int{1, 2, 3, 4, 8, 16}[r.Intn(6)]
			if len(ext) == 2 || rest%e != 0 || e == rest {
				ext = append([]int{rest}, ext...)
				break
			}
			ext = append([]int{e}, ext...)
			rest /= e
		}
		tl := &Tiling{M: m, Kind: KindThreads}
		p := 1
		for i := len(ext) - 1; i >= 0; i-- {
			tl.Dims = append([]Dim{{ext[i], p}}, tl.Dims...)
			p *= ext[i]
		}
		step := 1
		for _, d := range tl.Dims {
			tile := 1 + r.Intn(d.Extent)
			if r.Intn(2) == 0 {
				tile = max(1, (1<<r.Intn(4))%(d.Extent+1))
			}
			tl.Tile = append(tl.Tile, tile)
			tl.Full = append(tl.Full, max(tile, 1+r.Intn(d.Extent)))
			tl.anchors = append(tl.anchors, anchor{A: d.Extent, OK: true})
			step = max(step, tile*d.Pitch)
		}
		for i := r.Intn(3); i > 0; i-- {
			tl.Base.Terms = append(tl.Base.Terms, Term{Iter: i, Step: step * (1 + r.Intn(3)) / (1 + r.Intn(2)), Count: 1 + r.Intn(4)})
		}
		tl.Base.Const = step * r.Intn(3) / (1 + r.Intn(2))
		if tl.finish() != nil {
			continue
		}
		check(tl, own(tl))
		check(tl, randomUnit(r, m))
	}
	t.Logf("decided by matchSame %d, general %d (%d matched)", decided, general, generalOK)
	if decided < 2000 || general < 5000 || generalOK < 200 {
		t.Errorf("the comparison exercised too little")
	}
}
