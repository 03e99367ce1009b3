package coll

import (
	"math/rand"
	"testing"
)

// TestFlatMatchesThreads1D derives random nests of cuda_threads loops on
// machines without clusters as Flats and as tilings (threads1D, in a
// store): each Threads1D answers where threads1D makes a tiling, and
// only there, and every field a Flat holds equals the tiling's (issue
// 13, stop 47). Most derivations must answer, and some must decline.
func TestFlatMatchesThreads1D(t *testing.T) {
	r := rand.New(rand.NewSource(47))
	made, declined := 0, 0
	for trial := 0; trial < 12000; trial++ {
		m := Machine{BlockDim: []int{1, 32, 64, 96, 128, 256, 384}[r.Intn(7)], ClusterDim: 1}
		tl, _ := DeviceTiling(m)
		f, ok := FlatDevice(m)
		if !ok {
			t.Fatalf("%v: no Flat of the device tiling", m)
		}
		flatEqual(t, m, &f, tl)
		for depth := 0; depth < 1+r.Intn(6); depth++ {
			u := randomUnit(r, m)
			if r.Intn(3) > 0 {
				// Mostly n * cuda_thread, which nests.
				u, _ = CudaThread.Scaled([]int{1, 2, 4, 8, 16, 32}[r.Intn(6)])
			}
			count := 1 + r.Intn(4)
			if r.Intn(3) == 0 {
				count = 1 << r.Intn(6)
			}
			c, okF := f.Threads1D(m, count, &u, 1)
			if base, k := flatScale(r, u); k > 1 {
				// The same unit as a unit and a scale.
				c2, ok2 := f.Threads1D(m, count, &base, k)
				if ok2 != okF || c2 != c {
					t.Fatalf("%v %s count %d: scaled %v %+v, as a unit and scale %d %v %+v", m, u.Name, count, okF, c, k, ok2, c2)
				}
			}
			var b *Tiling
			if len(u.Domain) == 1 && len(u.Box) == 1 {
				d, ok1 := symValue(u.Domain[0], m)
				bx, ok2 := symValue(u.Box[0], m)
				if ok1 && ok2 {
					b = tl.threads1D(10+depth, count, &u, d, bx, new(ThreadsStore))
				}
			}
			if okF != (b != nil) {
				t.Fatalf("%v %s count %d under %v: Flat answers %v, threads1D %v", m, u.Name, count, tl.Dims, okF, b != nil)
			}
			if b == nil {
				declined++
				break
			}
			made++
			flatEqual(t, m, &c, b)
			f, tl = c, b
		}
	}
	t.Logf("made %d, declined %d", made, declined)
	if made < 5000 || declined < 1000 {
		t.Errorf("made %d, declined %d: the comparison exercised too little", made, declined)
	}
}

// flatEqual compares Flat f with the tiling tl it stands for.
func flatEqual(t *testing.T, m Machine, f *Flat, tl *Tiling) {
	t.Helper()
	col := tl.Collective(nil)
	if len(tl.Dims) != 1 || f.tile != tl.Tile[0] || f.full != tl.Full[0] || f.an != tl.anchors[0] || f.Full0() != tl.Full[0] ||
		f.Threads() != tl.Threads() || f.TileThreads != tl.TileThreads || f.LowBits() != tl.LowBits() ||
		(tl.Kind == KindThreads && f.LowerOK != tl.Lowering().OK) ||
		f.Contiguous() != (col.N == 0 || col.N == 1 && col.Runs[0].Stride == 1) {
		t.Fatalf("%v: Flat %+v, tiling dims %v tile %v full %v anchors %v threads %d tile threads %d lowering %+v base %+v col %+v",
			m, *f, tl.Dims, tl.Tile, tl.Full, tl.anchors, tl.Threads(), tl.TileThreads, tl.Lowering(), tl.Base, col)
	}
	for _, k := range []int{1, 2, 4, 8, 16, 32, 64} {
		want := tl.Base.Const%k == 0
		for _, term := range tl.Base.Terms {
			want = want && term.Step%k == 0
		}
		if (f.LowBits()&(k-1) == 0) != want {
			t.Fatalf("%v: Flat %+v: %d divides its alignment %v, want %v", m, *f, k, !want, want)
		}
	}
}

// flatScale is u as a unit scaled by k > 1 when it is one (Scaled's
// scale of a unit of one box coordinate), else u and 1.
func flatScale(r *rand.Rand, u Unit) (Unit, int) {
	if len(u.Box) != 1 || u.ScaledDim != 0 || u.Scale <= 1 || u.Box[0].Num%u.Scale != 0 {
		return u, 1
	}
	k := u.Scale
	v := u
	v.Box = []Sym{u.Box[0]}
	v.Box[0].Num /= k
	v.Scale = 0
	if r.Intn(2) == 0 {
		v.Scale = 1
	}
	return v, k
}
