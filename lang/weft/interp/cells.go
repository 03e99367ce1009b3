package interp

import (
	"math"

	"github.com/x448/float16"
)

// cells is the storage of one array (tensor, allocation or scalar) at its
// element type's width (issue 14, "arrays stored at their dtype's width"):
// f32 as float32, f16/bf16/ui16 as 16-bit words, i32 as int32, i8/ui8 as
// bytes, f64 as float64. Values enter and leave as float64 already rounded
// to the element type (see round), so every conversion here is exact and
// results are bit-identical to computing in float64 and rounding.
//
// An element never written reads as the float64 sentinel uninit, so the
// interpreter's isUninit checks work for every type:
//   - floats keep a signalling-NaN pattern of their own width (no IEEE
//     operation or float64->float32/f16 conversion produces one; a value
//     that would store one is quieted, see put);
//   - integers have no spare bit pattern, so a bitmap records the written
//     elements (1 bit per element).
type cells struct {
	elem Elem
	f64  []float64
	f32  []float32
	u16  []uint16 // F16 and BF16 bit patterns, UI16 values
	i32  []int32
	u8   []uint8  // I8 (two's complement) and UI8
	set  []uint64 // integer types: bit o is set once element o is written
}

// Sentinels of an unwritten element, per float width: signalling NaNs.
const (
	uninit32 = 0x7FA0DEAD // float32: quiet bit (0x00400000) clear
	uninit16 = 0x7D01     // f16: quiet bit (0x0200) clear
	uninitBF = 0x7F81     // bf16: quiet bit (0x0040) clear
)

// width is the bytes one element of e takes in memory and in .npy files.
func (e Elem) width() int64 {
	switch e {
	case I8, UI8:
		return 1
	case UI16, F16, BF16:
		return 2
	case F64:
		return 8
	}
	return 4
}

// newCells returns n unwritten elements of type e.
func newCells(e Elem, n int) *cells {
	c := &cells{elem: e}
	switch e {
	case F64:
		c.f64 = make([]float64, n)
		for i := range c.f64 {
			c.f64[i] = uninit
		}
	case F32:
		c.f32 = make([]float32, n)
		s := math.Float32frombits(uninit32)
		for i := range c.f32 {
			c.f32[i] = s
		}
	case F16, BF16:
		c.u16 = make([]uint16, n)
		s := uint16(uninit16)
		if e == BF16 {
			s = uninitBF
		}
		for i := range c.u16 {
			c.u16[i] = s
		}
	case UI16:
		c.u16 = make([]uint16, n)
	case I32:
		c.i32 = make([]int32, n)
	default: // I8, UI8
		c.u8 = make([]uint8, n)
	}
	if !e.IsFloat() {
		c.set = make([]uint64, (n+63)/64)
	}
	return c
}

// scalarCells is one element of type e holding v (already rounded to e).
func scalarCells(e Elem, v float64) *cells {
	c := newCells(e, 1)
	c.put(0, v)
	return c
}

func (c *cells) len() int {
	switch c.elem {
	case F64:
		return len(c.f64)
	case F32:
		return len(c.f32)
	case F16, BF16, UI16:
		return len(c.u16)
	case I32:
		return len(c.i32)
	}
	return len(c.u8)
}

// get returns element o as a float64, or the sentinel uninit when it was
// never written.
func (c *cells) get(o int) float64 {
	switch c.elem {
	case F32:
		x := c.f32[o]
		if math.Float32bits(x) == uninit32 {
			return uninit
		}
		return float64(x)
	case F64:
		return c.f64[o]
	case F16:
		b := c.u16[o]
		if b == uninit16 {
			return uninit
		}
		return float64(float16.Frombits(b).Float32())
	case BF16:
		b := c.u16[o]
		if b == uninitBF {
			return uninit
		}
		return float64(math.Float32frombits(uint32(b) << 16))
	}
	if c.set[o>>6]&(1<<(o&63)) == 0 {
		return uninit
	}
	switch c.elem {
	case UI16:
		return float64(c.u16[o])
	case I32:
		return float64(c.i32[o])
	case I8:
		return float64(int8(c.u8[o]))
	}
	return float64(c.u8[o])
}

// put stores v, a value already rounded to the element type (or the
// sentinel uninit, which marks the element unwritten again).
func (c *cells) put(o int, v float64) {
	switch c.elem {
	case F32:
		x := float32(v)
		if isUninit(v) {
			x = math.Float32frombits(uninit32)
		}
		c.f32[o] = x
		return
	case F64:
		c.f64[o] = v
		return
	case F16:
		b := float16.Fromfloat32(float32(v)).Bits()
		switch {
		case isUninit(v):
			b = uninit16
		case b == uninit16:
			b |= 0x0200 // quiet it
		}
		c.u16[o] = b
		return
	case BF16:
		b := uint16(math.Float32bits(float32(v)) >> 16)
		switch {
		case isUninit(v):
			b = uninitBF
		case b == uninitBF:
			b |= 0x0040
		}
		c.u16[o] = b
		return
	}
	if isUninit(v) {
		c.set[o>>6] &^= 1 << (o & 63)
		return
	}
	c.set[o>>6] |= 1 << (o & 63)
	switch c.elem {
	case UI16:
		c.u16[o] = uint16(int64(v))
	case I32:
		c.i32[o] = int32(int64(v))
	default: // I8, UI8
		c.u8[o] = uint8(int64(v))
	}
}

// fill stores v (rounded) in every element.
func (c *cells) fill(v float64) {
	switch c.elem {
	case F32:
		x := float32(v)
		for i := range c.f32 {
			c.f32[i] = x
		}
	case F64:
		for i := range c.f64 {
			c.f64[i] = v
		}
	default:
		for i, n := 0, c.len(); i < n; i++ {
			c.put(i, v)
		}
	}
}
