package amir

import (
	"math/rand"
	"testing"
)

// TestOneShotSlotFast: oneShotSlot's 2-D path (issue 13, stop 36) maps
// every cell of random 2-D ring-buffered arrays (ring dimension 0 or 1,
// pre-arrived counts 0-4, depths 1-7, extents 1-40) to the hardware
// mbarrier, phase and pre-arrived answer of the general loop, and arrays
// of other ranks or block sizes still take the loop.
func TestOneShotSlotFast(t *testing.T) {
	t.Cleanup(func() { oneShotNoFast = false })
	rng := rand.New(rand.NewSource(36))
	cells := 0
	for k := 0; k < 2000; k++ {
		rank := 2
		if k%5 == 4 {
			rank = 1 + rng.Intn(3)
		}
		dims, gran := make([]int, rank), make([]int, rank)
		for d := range dims {
			dims[d], gran[d] = 1+rng.Intn(40), 1
			if k%7 == 6 {
				gran[d] = 1 + rng.Intn(3)
			}
		}
		blocks, strides := make([]int, rank), make([]int, rank)
		total := 1
		for d := rank - 1; d >= 0; d-- {
			blocks[d] = (dims[d] + gran[d] - 1) / gran[d]
			strides[d] = total
			total *= blocks[d]
		}
		pv := Var{RingDim: rng.Intn(rank), PreArrive: rng.Intn(5), RingDepth: 1 + rng.Intn(7)}
		m := &Machine{p: &Program{Vars: []Var{pv}}, vars: []varState{{dims: dims, gran: gran, blocks: blocks, strides: strides}}}
		for c := int32(0); c < int32(total); c++ {
			oneShotNoFast = false
			p1, ph1, ok1 := m.oneShotSlot(0, c)
			oneShotNoFast = true
			p2, ph2, ok2 := m.oneShotSlot(0, c)
			if p1 != p2 || ph1 != ph2 || ok1 != ok2 {
				t.Fatalf("dims %v gran %v ring %+v cell %d: fast (%d, %d, %v), loop (%d, %d, %v)", dims, gran, pv, c, p1, ph1, ok1, p2, ph2, ok2)
			}
			cells++
		}
	}
	t.Logf("%d cells", cells)
}
