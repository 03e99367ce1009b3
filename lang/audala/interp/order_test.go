package interp

import (
	"fmt"
	"testing"
)

// TestOrders: the thesis programs give the same answers in other legal
// sequential executions (reverse and seeded random instance orders, spec
// §8 AT-1/AT-3), and AT-1's iteration counts match the spec: 2 in label
// order, 3 in reverse order under the strict semantics.
func TestOrders(t *testing.T) {
	fig1 := loadFile(t, "../testdata/fig1.adl")
	for _, c := range []struct {
		order Order
		want  int
	}{{LabelOrder, 2}, {ReverseOrder, 3}} {
		m := New(fig1, nil, Options{Semantics: Strict, Workers: 1, Order: c.order})
		if err := m.Run(); err != nil || m.Stats.Iterations != c.want {
			t.Errorf("fig1 strict %v: %d iterations (err %v), want %d", c.order, m.Stats.Iterations, err, c.want)
		}
	}

	fb := loadFile(t, "../testdata/fb_thesis_fixed.adl")
	ch := loadFile(t, "../testdata/ch_thesis.adl")
	spm := loadFile(t, "../testdata/spm_thesis.adl")
	pivot := param(t, fb, "NodeSet", "pivot")
	fwd, bwd := param(t, ch, "Node", "fwd"), param(t, ch, "Node", "bwd")
	top := param(t, spm, "Node", "rho_top")
	type run struct {
		order Order
		seed  uint64
	}
	runs := []run{{ReverseOrder, 0}, {RandomOrder, 1}, {RandomOrder, 2}, {RandomOrder, 3}}
	for gi, sz := range []struct{ n, m int }{{40, 60}, {250, 400}} {
		g := randomGraph(sz.n, sz.m, uint64(77+gi))
		want := tarjan(g)
		game := randomGame(sz.n, uint64(99+gi))
		wantOdd := zielonka(game)
		for _, sem := range []Semantics{Relaxed, Strict} {
			for _, r := range runs {
				name := fmt.Sprintf("n=%d %v %v seed=%d", sz.n, sem, r.order, r.seed)
				opt := Options{Semantics: sem, Workers: 1, Order: r.order, Seed: r.seed}
				m := New(fb, parseInit(t, fb, fbInit(g)), opt)
				if err := m.Run(); err != nil {
					t.Fatalf("%s: FB: %v", name, err)
				}
				got := 0
				for l := 1; l < m.Count(pivot.Owner); l++ {
					if m.Value(pivot, l) != 0 {
						got++
					}
				}
				if got != want {
					t.Errorf("%s: FB %d SCCs, Tarjan %d", name, got, want)
				}
				m = New(ch, parseInit(t, ch, chInit(g)), opt)
				if err := m.Run(); err != nil {
					t.Fatalf("%s: CH: %v", name, err)
				}
				got = 0
				for l := 1; l < m.Count(fwd.Owner); l++ {
					if m.Value(fwd, l) == int64(l) && m.Value(bwd, l) == int64(l) {
						got++
					}
				}
				if got != want {
					t.Errorf("%s: CH %d SCCs, Tarjan %d", name, got, want)
				}
				m = New(spm, parseInit(t, spm, spmInit(game)), opt)
				if err := m.Run(); err != nil {
					t.Fatalf("%s: SPM: %v", name, err)
				}
				for v, w := range wantOdd {
					if (m.Value(top, v+1) == 1) != w {
						t.Errorf("%s: SPM node %d odd-won=%v, Zielonka %v", name, v+1, !w, w)
						break
					}
				}
			}
		}
	}
}
