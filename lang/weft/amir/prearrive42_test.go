package amir

import (
	"math/rand"
	"testing"
)

// TestPreArriveCounted: preArrive's counted ring index marks exactly the
// barriers whose coords coordinate along RingDim is below PreArrive, on
// random shapes (ranks 1-4, granules 1-3, every ring dimension, ring
// dimensions past the rank), and leaves the other barriers and those
// outside the variable's range alone.
func TestPreArriveCounted(t *testing.T) {
	rng := rand.New(rand.NewSource(42))
	for it := 0; it < 2000; it++ {
		n := 1 + rng.Intn(4)
		m := &Machine{vars: make([]varState, 1)}
		st := &m.vars[0]
		st.dims, st.gran, st.blocks, st.strides = make([]int, n), make([]int, n), make([]int, n), make([]int, n)
		total := 1
		for d := n - 1; d >= 0; d-- {
			st.dims[d] = rng.Intn(7)
			st.gran[d] = 1 + rng.Intn(3)
			st.blocks[d] = (st.dims[d] + st.gran[d] - 1) / st.gran[d]
			st.strides[d] = total
			total *= st.blocks[d]
		}
		pv := &Var{RingDim: rng.Intn(n + 1), PreArrive: rng.Intn(6), RingDepth: 1}
		lead, tail := rng.Intn(3), rng.Intn(3)
		st.bar0 = int32(lead)
		m.bars = make([]barState, lead+total+tail)
		m.preArrive(st, pv, total)
		for i := range m.bars {
			want := int32(0)
			if c := i - lead; c >= 0 && c < total {
				if co := m.coords(0, int32(c)); pv.RingDim < len(co) && co[pv.RingDim] < pv.PreArrive {
					want = 1
				}
			}
			if m.bars[i].a != want {
				t.Fatalf("iteration %d: dims %v gran %v ring dim %d pre-arrive %d: barrier %d (cell %d) a = %d, coords say %d",
					it, st.dims, st.gran, pv.RingDim, pv.PreArrive, i, i-lead, m.bars[i].a, want)
			}
		}
	}
}
