package interp

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestCellsWidth: arrays take their element type's width (issue 14, "Weft
// argument arrays stored as float64").
func TestCellsWidth(t *testing.T) {
	for e, want := range map[Elem]int64{F32: 4, F16: 2, BF16: 2, UI16: 2, I32: 4, I8: 1, UI8: 1, F64: 8} {
		a := NewArray(e, []int{1000})
		if a.Bytes() != 1000*want {
			t.Errorf("%s: %d bytes, want %d", e, a.Bytes(), 1000*want)
		}
	}
}

// TestCellsRoundTrip: a value rounded to the element type comes back with
// the same float64 bits, unwritten elements read as uninit, and no stored
// value (NaNs included) reads as uninit.
func TestCellsRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	specials := []float64{0, math.Copysign(0, -1), 1, -1, math.Inf(1), math.Inf(-1), math.NaN(),
		65504, 1e-8, 3.4e38, -2147483648, 2147483647, 255, -128, 127, 65535, math.Float64frombits(0x7FF0000000000001)}
	for _, e := range []Elem{F64, F32, F16, BF16, I32, I8, UI8, UI16} {
		c := newCells(e, 200)
		for o := range 200 {
			if !isUninit(c.get(o)) {
				t.Fatalf("%s: fresh element %d = %v, want uninit", e, o, c.get(o))
			}
		}
		for o := range 200 {
			v := rng.NormFloat64() * math.Pow(10, float64(rng.IntN(12)-4))
			if o < len(specials) {
				v = specials[o]
			}
			if !e.IsFloat() && (v != v || math.IsInf(v, 0)) {
				v = 7
			}
			r := round(e, v)
			c.put(o, r)
			got := c.get(o)
			if isUninit(got) {
				t.Fatalf("%s: put(%v) reads back as uninit", e, r)
			}
			if r != r {
				if got == got {
					t.Fatalf("%s: put(NaN) reads back %v", e, got)
				}
				continue
			}
			if math.Float64bits(got) != math.Float64bits(r) {
				t.Fatalf("%s: put(%v) (from %v) reads back %v", e, r, v, got)
			}
		}
		c.put(3, uninit)
		if !isUninit(c.get(3)) {
			t.Fatalf("%s: put(uninit) does not unset", e)
		}
	}
	// A stored pattern equal to a sentinel is quieted, never read as uninit.
	c := newCells(F16, 1)
	c.put(0, float64(math.Float32frombits(0x7FA0_2000))) // NaN whose f16 is the sentinel's neighbour
	if isUninit(c.get(0)) {
		t.Fatal("f16 NaN reads as uninit")
	}
}
