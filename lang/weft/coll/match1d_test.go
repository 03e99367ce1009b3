package coll

import (
	"math/rand"
	"testing"
)

// TestMatch1DMatchesGeneral matches random units (scaled library units,
// units of constant coordinates, with levels of extent 1 after the
// first, boxes of any width) against the tilings of random nests and
// against one-dimensional tilings made directly with random tiles and
// starts, and compares Matches (with matchOne1D) with the general match.
// Some matches must be decided on one dimension, and some successes
// and failures left to the general way.
func TestMatch1DMatchesGeneral(t *testing.T) {
	r := rand.New(rand.NewSource(411))
	decided, general := 0, 0
	check := func(tl *Tiling, u Unit) {
		t.Helper()
		got := tl.Matches(u)
		want := tl.match(u)
		if (got == nil) != (want == nil) || got != nil && got.Msg != want.Msg {
			t.Fatalf("%s %s on %s: Matches %v, general %v", u, u.Shape(), tl, got, want)
		}
		if tl.matchOne1D(&u) {
			decided++
		} else {
			general++
		}
	}
	randUnit := func(m Machine) Unit {
		if r.Intn(2) == 0 {
			return randomUnit(r, m)
		}
		n := m.Threads()
		coord := func() Sym {
			switch r.Intn(6) {
			case 0:
				return Const(1 << r.Intn(9))
			case 1:
				return BlockDimSym(1, 1<<r.Intn(3))
			case 2:
				return Sym{Num: 1 + r.Intn(n), Any: r.Intn(5) == 0}
			}
			return Const(1 + r.Intn(n))
		}
		u := Unit{Name: "u", Domain: []Sym{Const(n)}, Box: []Sym{coord()}, ScaledDim: 0}
		if r.Intn(4) == 0 {
			u.Domain[0] = coord()
		}
		for i := r.Intn(3); i > 0; i-- {
			d, b := Const(1), Const(1)
			if r.Intn(4) == 0 {
				d = Const(r.Intn(3))
			}
			if r.Intn(4) == 0 {
				b = coord()
			}
			u.Domain, u.Box = append(u.Domain, d), append(u.Box, b)
		}
		return u
	}
	for trial := 0; trial < 4000; trial++ {
		m := Machine{BlockDim: []int{32, 64, 96, 128, 256}[r.Intn(5)], ClusterDim: []int{1, 1, 1, 2}[r.Intn(4)]}
		tl, _ := DeviceTiling(m)
		for depth := 0; depth < 1+r.Intn(5); depth++ {
			for k := 0; k < 4; k++ {
				check(tl, randUnit(m))
			}
			if tl.Tile[0] >= 1 {
				// The scope's own tile as the box: a match or an
				// unaligned start.
				check(tl, Unit{Name: "own", Domain: []Sym{Const(m.Threads())}, Box: []Sym{Const(tl.Tile[0])}})
			}
			if r.Intn(6) == 0 {
				lo := r.Intn(3)
				if w, err := tl.CudaWarps(lo, lo+1+r.Intn(3)); err == nil {
					tl = w
				}
				continue
			}
			u := randomUnit(r, m)
			if r.Intn(2) == 0 {
				u, _ = CudaThread.Scaled(1 << r.Intn(7))
			}
			next, err := tl.CudaThreads(depth, 1+r.Intn(8), u)
			if err != nil {
				break
			}
			tl = next
		}
	}
	// One dimension made directly: tiles anywhere, starts of random
	// terms (aligned or not).
	for trial := 0; trial < 20000; trial++ {
		m := Machine{BlockDim: []int{1, 2, 32, 40, 64, 96}[r.Intn(6)], ClusterDim: []int{1, 1, 2}[r.Intn(3)]}
		n := m.Threads()
		tile := 1 + r.Intn(n)
		if r.Intn(2) == 0 {
			tile = 1 << r.Intn(7) % n
			tile = max(tile, 1)
		}
		tl := &Tiling{M: m, Kind: KindThreads, Dims: []Dim{{n, 1}}, Tile: []int{tile}, Full: []int{max(tile, 1+r.Intn(n))},
			anchors: []anchor{{A: n, OK: true}}}
		for i := r.Intn(3); i > 0; i-- {
			tl.Base.Terms = append(tl.Base.Terms, Term{Iter: i, Step: tile * (1 + r.Intn(3)) / (1 + r.Intn(2)), Count: 1 + r.Intn(4)})
		}
		tl.Base.Const = tile * r.Intn(3) / (1 + r.Intn(2))
		if tl.finish() != nil {
			continue
		}
		u := randUnit(m)
		if r.Intn(2) == 0 {
			u = Unit{Name: "own", Domain: []Sym{Const(n)}, Box: []Sym{Const(tile)}}
			if r.Intn(3) == 0 {
				u.Domain, u.Box = append(u.Domain, Const(1)), append(u.Box, Const(1))
			}
		}
		check(tl, u)
	}
	t.Logf("decided on one dimension %d, general %d", decided, general)
	if decided < 3000 || general < 20000 {
		t.Errorf("the comparison exercised too little")
	}
}
