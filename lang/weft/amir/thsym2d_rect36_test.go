package amir

import (
	"fmt"
	"math/rand"
	"testing"
)

// TestTh2RectMatchesCorners: th2RectInBounds (one evaluation of each
// window, the extremes over the nest's rectangle) answers what
// th2InBounds at the four corners answers, on random affine windows of
// both signs in the row and the column, points and ranges, near and
// past the extents.
func TestTh2RectMatchesCorners(t *testing.T) {
	rng := rand.New(rand.NewSource(36))
	const r, y, other = 0, 1, 2
	m := &Machine{env: make([]int, 3)}
	m.vars = make([]varState, 1)
	st := &m.vars[0]
	st.live = true
	aff := func() *Affine {
		a := &Affine{K: rng.Intn(9) - 2}
		for _, slot := range [3]int{r, y, other} {
			if rng.Intn(3) > 0 {
				a.Terms = append(a.Terms, Term{Slot: slot, Coef: rng.Intn(7) - 3})
			}
		}
		return a
	}
	yes, no := 0, 0
	for i := 0; i < 40000; i++ {
		nd := 1 + rng.Intn(2)
		st.dims, st.gran = make([]int, nd), make([]int, nd)
		a := &Access{Idx: make([]Window, nd)}
		for d := range nd {
			st.dims[d], st.gran[d] = 1+rng.Intn(12), 1
			if rng.Intn(8) == 0 {
				st.gran[d] = 2
			}
			w := &a.Idx[d]
			w.LoAff = aff()
			if rng.Intn(2) == 0 {
				w.Hi = func([]int) int { return 0 } // a range (only its presence is read)
				w.HiAff = aff()
				if rng.Intn(2) == 0 {
					// hi = lo + width, as most ranges are
					w.HiAff = &Affine{K: w.LoAff.K + rng.Intn(4), Terms: w.LoAff.Terms}
				}
			}
		}
		accs := []*Access{a}
		lo, tlo := rng.Intn(4), rng.Intn(4)
		dr, dy := rng.Intn(4), rng.Intn(4)
		m.env[other] = rng.Intn(3)
		want := true
		for _, rv := range [2]int{lo, lo + dr} {
			for _, cv := range [2]int{tlo, tlo + dy} {
				m.env[r], m.env[y] = rv, cv
				want = want && m.th2InBounds(accs, r, y)
			}
		}
		m.env[r], m.env[y] = lo, tlo
		if got := m.th2RectInBounds(accs, r, y, dr, dy); got != want {
			t.Fatalf("case %d: dims %v gran %v windows %s, rows %d+%d cols %d+%d: rectangle %v, corners %v",
				i, st.dims, st.gran, showWindows(a), lo, dr, tlo, dy, got, want)
		}
		if want {
			yes++
		} else {
			no++
		}
	}
	if yes < 2000 || no < 2000 {
		t.Fatalf("weak coverage: %d in bounds, %d not", yes, no)
	}
	t.Logf("%d in bounds, %d not", yes, no)
}

func showWindows(a *Access) string {
	s := ""
	for _, w := range a.Idx {
		s += fmt.Sprintf("[lo %+v", *w.LoAff)
		if w.HiAff != nil {
			s += fmt.Sprintf(" hi %+v", *w.HiAff)
		}
		s += "]"
	}
	return s
}

// TestTh2RectNestsMatch: the 2-D nests of random2DProgram enter and end
// alike with th2Enter's bounds tested over the rectangle and at the four
// corners (th2Corners).
func TestTh2RectNestsMatch(t *testing.T) {
	entered := int64(0)
	for seed := int64(0); seed < 1500; seed++ {
		m1 := New(random2DProgram(seed), Config{MaxHazards: 100})
		m2 := New(random2DProgram(seed), Config{MaxHazards: 100})
		m2.th2Corners = true
		for rep := 0; rep < 2; rep++ {
			a, b := fmt.Sprintf("%+v", *m1.Run(nil)), fmt.Sprintf("%+v", *m2.Run(nil))
			if a != b || m1.th2Runs != m2.th2Runs {
				t.Fatalf("seed %d run %d: %d/%d nests entered\nrectangle %s\ncorners   %s", seed, rep, m1.th2Runs, m2.th2Runs, a, b)
			}
		}
		entered += m1.th2Runs
	}
	if entered < 500 {
		t.Fatalf("weak coverage: %d 2-D nests entered", entered)
	}
	t.Logf("%d 2-D nests entered", entered)
}
