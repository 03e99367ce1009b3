package amir

import (
	"fmt"
	"testing"
)

// TestDimApartMatchesScan: thsymEnterAt and thsymMeetsClasses skip their
// scan of a variable's maps when the new slices' span in the maps'
// dimension is apart from every map's (thVar.dimApart; issue 13, stop
// 39). Against the scan (thsymNoDimApart) and against no thread
// symmetry, on every random generator of amir's tests (randomGens), the
// classes generators with exact control slots, the grid move generator
// and the 2-D nests': the same Result, and against the scan the same
// virtual runs, class runs and adoptions. The skip must fire often.
func TestDimApartMatchesScan(t *testing.T) {
	t.Cleanup(func() { thsymNoDimApart = false })
	gens := randomGens()
	gens = append(gens,
		func(s int64) *Program { return randomClassesProgramCtl(s, true) },
		moveProgram, random2DProgram)
	seeds := int64(EnvCount("WEFT_DIM39_SEEDS", 1000))
	var skips, classRuns int64
	for g, mk := range gens {
		for seed := int64(0); seed < seeds; seed++ {
			label := fmt.Sprintf("generator %d seed %d", g, seed)
			var outs [3]string
			var ms [3]*Machine
			for i := range ms {
				m := New(mk(seed), Config{MaxHazards: 100})
				m.noThreadSym = i == 2
				thsymNoDimApart = i == 1
				thsymDimSkips = 0
				for run := 0; run < 2; run++ { // a second run finds no state left
					r := *m.Run(nil)
					r.Stats.Memory, r.Stats.SkippedOps = 0, 0
					o := fmt.Sprintf("%+v", r)
					if run == 1 && o != outs[i] {
						t.Fatalf("%s: machine %d's second run differs:\n%s\n%s", label, i, outs[i], o)
					}
					outs[i] = o
				}
				if i == 0 {
					skips += thsymDimSkips
				} else if thsymDimSkips != 0 {
					t.Fatalf("%s: %d skips with the skip off", label, thsymDimSkips)
				}
				ms[i] = m
			}
			thsymNoDimApart = false
			if outs[0] != outs[1] || outs[0] != outs[2] {
				t.Fatalf("%s:\nskip %s\nscan %s\nfull %s", label, outs[0], outs[1], outs[2])
			}
			a, b := ms[0], ms[1]
			if a.thSymRuns != b.thSymRuns || a.thClassRuns != b.thClassRuns || a.thAdopts != b.thAdopts {
				t.Fatalf("%s: skip %d runs, %d class runs, %d adoptions; scan %d, %d, %d",
					label, a.thSymRuns, a.thClassRuns, a.thAdopts, b.thSymRuns, b.thClassRuns, b.thAdopts)
			}
			classRuns += a.thClassRuns
		}
	}
	t.Logf("%d skips, %d class runs", skips, classRuns)
	if skips < 500 || classRuns < 200 {
		t.Fatalf("weak coverage: %d skips, %d class runs", skips, classRuns)
	}
}

// TestDimSpanBoundsSlicesMeet: for random pairs of maps of one dimension,
// a pair that dimApart's test (on a thVar holding the first map) calls
// apart is apart by slicesMeet too: the skip never hides a meet.
func TestDimSpanBoundsSlicesMeet(t *testing.T) {
	t.Cleanup(func() { thsymNoDimApart = false })
	thsymNoDimApart = false
	apart := 0
	for s := int64(0); s < 200000; s++ {
		x := uint64(s)*0x9E3779B97F4A7C15 + 1
		next := func(n int) int {
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
			return int(x % uint64(n))
		}
		var maps [3]thMap
		var frames [3]thFrame
		vs := &thVar{dSet: true}
		for k := range maps {
			frames[k] = thFrame{n: int32(1 + next(6))}
			maps[k] = thMap{frame: &frames[k], base: next(40) - 8, coef: next(9) - 2, width: 1 + next(4)}
		}
		for k := 0; k < 2; k++ {
			vs.maps = append(vs.maps, maps[k])
			vs.dimAdd(&vs.maps[k], frames[k].n, k == 0)
		}
		mp := &maps[2]
		if !vs.dimApart(mp, frames[2].n) {
			continue
		}
		apart++
		for k := 0; k < 2; k++ {
			if slicesMeet(&vs.maps[k], mp, frames[k].n, frames[2].n) {
				t.Fatalf("case %d: map %+v (n %d) meets %+v (n %d), span [%d, %d) apart", s, vs.maps[k], frames[k].n, *mp, frames[2].n, vs.dlo, vs.dhi)
			}
		}
	}
	if apart < 10000 {
		t.Fatalf("weak coverage: %d apart", apart)
	}
}
