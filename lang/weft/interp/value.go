package interp

import (
	"fmt"
	"math"
	"strings"

	"github.com/x448/float16"
)

// Elem is a data element type of appendix A.
type Elem uint8

const (
	Invalid Elem = iota
	I8
	UI8
	UI16
	I32
	F16
	BF16
	F32
	F64
)

var elemNames = [...]string{Invalid: "invalid", I8: "i8", UI8: "ui8", UI16: "ui16", I32: "i32", F16: "f16", BF16: "bf16", F32: "f32", F64: "f64"}

func (e Elem) String() string { return elemNames[e] }

// ParseElem returns the element type named s (Exo's `R` is f32), or Invalid.
func ParseElem(s string) Elem {
	if s == "R" {
		return F32
	}
	for i, n := range elemNames {
		if i > 0 && n == s {
			return Elem(i)
		}
	}
	return Invalid
}

// IsFloat reports whether e is a floating-point type.
func (e Elem) IsFloat() bool { return e >= F16 }

// join is the computation type of an operation whose operands (or
// destination) have types a and b; Invalid stands for "untyped" (literals
// and control values).
func join(a, b Elem) Elem {
	switch {
	case a == Invalid:
		return b
	case b == Invalid || a == b:
		return a
	case a.IsFloat() && !b.IsFloat():
		return a
	case b.IsFloat() && !a.IsFloat():
		return b
	case a.IsFloat(): // both floats, different
		if a == F64 || b == F64 {
			return F64
		}
		return F32 // f16/bf16 with f32, or f16 with bf16
	}
	// Both integers: the wider one (i32 holds every narrower type).
	if a == I32 || b == I32 {
		return I32
	}
	if a == UI16 || b == UI16 {
		return UI16
	}
	return I32 // i8 with ui8
}

// uninit is the bit pattern of an element never written: a signalling NaN
// with a payload no IEEE operation produces (operations quiet NaNs).
const uninitBits = 0x7FF4DEADBEEF0001

var uninit = math.Float64frombits(uninitBits)

func isUninit(v float64) bool { return math.Float64bits(v) == uninitBits }

// round returns v rounded (floats) or converted and wrapped (integers) to e.
func round(e Elem, v float64) float64 {
	switch e {
	case F64:
		return v
	case F32:
		return float64(float32(v))
	case F16:
		return float64(float16.Fromfloat32(float32(v)).Float32())
	case BF16:
		return float64(roundBF16(float32(v)))
	}
	return wrapInt(e, toInt(v))
}

// roundBF16 rounds f to bfloat16 (round to nearest even), keeping NaNs NaN.
func roundBF16(f float32) float32 {
	b := math.Float32bits(f)
	if f != f {
		return f
	}
	b += 0x7FFF + (b>>16)&1
	return math.Float32frombits(b &^ 0xFFFF)
}

// toInt converts a float to an integer the way C does (truncation); values
// out of int64 range and NaN become 0.
func toInt(v float64) int64 {
	if v != v || v >= 9.2e18 || v <= -9.2e18 {
		return 0
	}
	return int64(v)
}

func wrapInt(e Elem, x int64) float64 {
	switch e {
	case I8:
		return float64(int8(x))
	case UI8:
		return float64(uint8(x))
	case UI16:
		return float64(uint16(x))
	}
	return float64(int32(x))
}

// Array is a dense row-major array of one element type, the value of a
// tensor argument. Its elements are stored at the element type's width
// (see cells); an element never written is uninitialized (see Uninit).
type Array struct {
	Elem  Elem
	Shape []int
	mem   *cells
}

// NewArray returns an array of the given shape with every element
// uninitialized.
func NewArray(e Elem, shape []int) *Array {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return &Array{Elem: e, Shape: append([]int(nil), shape...), mem: newCells(e, n)}
}

// Len is the number of elements.
func (a *Array) Len() int { return a.mem.len() }

// Bytes is the memory the elements take (their type's width each).
func (a *Array) Bytes() int64 { return int64(a.Len()) * a.Elem.width() }

// Fill sets every element to v (rounded to the element type).
func (a *Array) Fill(v float64) { a.mem.fill(round(a.Elem, v)) }

// Set stores v rounded to the element type at flat index i.
func (a *Array) Set(i int, v float64) { a.mem.put(i, round(a.Elem, v)) }

// Uninit reports whether element i was never written.
func (a *Array) Uninit(i int) bool { return isUninit(a.mem.get(i)) }

// Value returns element i, or NaN if it is uninitialized.
func (a *Array) Value(i int) float64 {
	v := a.mem.get(i)
	if isUninit(v) {
		return math.NaN()
	}
	return v
}

// Values returns every element as a float64 (NaN where uninitialized), a
// copy for tests and comparisons.
func (a *Array) Values() []float64 {
	out := make([]float64, a.Len())
	for i := range out {
		out[i] = a.Value(i)
	}
	return out
}

// String prints the array compactly: shape, then values row by row ("?" for
// uninitialized elements), for `weft run --print` and test failures.
func (a *Array) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s%v", a.Elem, a.Shape)
	last := 1
	if len(a.Shape) > 0 {
		last = a.Shape[len(a.Shape)-1]
	}
	for i := range a.Len() {
		v := a.mem.get(i)
		if i%last == 0 {
			b.WriteString("\n ")
		} else {
			b.WriteByte(' ')
		}
		if isUninit(v) {
			b.WriteByte('?')
		} else {
			b.WriteString(formatValue(a.Elem, v))
		}
	}
	return b.String()
}

func formatValue(e Elem, v float64) string {
	switch e {
	case F64:
		return fmt.Sprint(v)
	case F32, F16, BF16:
		return fmt.Sprint(float32(v))
	}
	return fmt.Sprint(int64(v))
}
