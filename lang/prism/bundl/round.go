package bundl

import (
	"math"

	"weft.dev/weft/lang/prism/check"
)

// The precision model (docs/prism.md, "Precision"). Values are kept as
// float64, and every store into a variable or an element, and every
// arithmetic result, is rounded to the C type it has in the generated CUDA:
// float to binary32 (round to nearest even), bf16 and half to their formats
// (round to nearest even, as __float2bfloat16_rn and __float2half_rn do),
// 32-bit integers wrap as two's complement. Tensor-core operations round
// their inputs and outputs as the instructions do (see mma and wgmma).

// roundTo rounds f to the scalar type called name.
func roundTo(name string, f float64) float64 {
	switch name {
	case "float", "c_float", "tf32":
		return float64(float32(f))
	case "bf16", "__nv_bfloat16":
		return bf16(f)
	case "half", "fp16", "__half":
		return fp16(f)
	case "double":
		return f
	case "int", "int32_t", "c_int":
		return float64(int32(int64(math.Trunc(f))))
	case "uint", "uint32_t", "unsigned":
		return float64(uint32(int64(math.Trunc(f))))
	case "int64_t", "long":
		return math.Trunc(f)
	case "uint64_t":
		return float64(uint64(int64(math.Trunc(f))))
	case "int8_t", "char":
		return float64(int8(int64(math.Trunc(f))))
	case "uint8_t":
		return float64(uint8(int64(math.Trunc(f))))
	case "bool":
		if f != 0 {
			return 1
		}
		return 0
	}
	return f
}

// roundType rounds f to t's innermost scalar type (nil: unchanged).
func roundType(t *check.Type, f float64) float64 {
	if t == nil {
		return f
	}
	return roundTo(t.Base().Name, f)
}

// bf16 rounds to bfloat16 (8-bit significand) to nearest, ties to even.
func bf16(f float64) float64 {
	x := float32(f)
	if x != x {
		return f
	}
	b := math.Float32bits(x)
	b += 0x7fff + (b>>16)&1
	return float64(math.Float32frombits(b &^ 0xffff))
}

// fp16 rounds to IEEE binary16 to nearest, ties to even (overflow to
// infinity, gradual underflow).
func fp16(f float64) float64 {
	if f != f || math.IsInf(f, 0) || f == 0 {
		return f
	}
	a := math.Abs(f)
	if a >= 65520 { // beyond the largest half (65504) by half an ulp
		return math.Copysign(math.Inf(1), f)
	}
	_, exp := math.Frexp(a) // a = frac * 2^exp, frac in [0.5, 1)
	e := float64(exp - 1)
	if e < -14 {
		e = -14 // subnormals: fixed spacing 2^-24
	}
	q := math.Ldexp(1, int(e)-10)
	return math.Copysign(math.RoundToEven(a/q)*q, f)
}

// elemSize is the size in bytes of a buffer's element type.
func elemSize(elem string) int {
	return (&check.Type{Kind: check.Scalar, Name: elem}).Size()
}

// RoundBuffer rounds every element of b to its element type, as storing
// the values on the device would.
func RoundBuffer(b *Buffer) {
	for i, v := range b.Data {
		if b.Int {
			v = math.Trunc(v)
		}
		b.Data[i] = roundTo(b.Elem, v)
	}
}
