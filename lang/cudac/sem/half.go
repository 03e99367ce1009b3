package sem

import (
	"math"

	"github.com/x448/float16"
)

// Half-precision types (cuda_fp16.h's __half, cuda_bf16.h's
// __nv_bfloat16). A value of either type lives on the operand stack as the
// double it denotes, already rounded to the type; memory holds its 16-bit
// encoding. Arithmetic on two half values is computed in double and rounded
// once to the type: double holds the exact sum or product of two 11-bit
// (or 8-bit) significands, and for quotients and square roots 53 >= 2*11+2
// bits make the double rounding innocuous, so the result is the correctly
// rounded one that the GPU's __hadd/__hmul/__hdiv (round to nearest even)
// produce.

// toOddF32 rounds x to float32 with round-to-odd: the result is exact, or
// the float32 next to x toward zero with its last bit set. Rounding that
// result again to a format with at most 22 significand bits is the same as
// rounding x directly, so double -> float32 -> half is correctly rounded.
func toOddF32(x float64) float32 {
	f := float32(x)
	if float64(f) == x || x != x {
		return f
	}
	b := math.Float32bits(f)
	if math.Abs(float64(f)) > math.Abs(x) {
		b-- // one step toward zero (sign-magnitude encoding)
	}
	return math.Float32frombits(b | 1)
}

// halfBits is x rounded to the nearest __half (ties to even), encoded.
func halfBits(x float64) uint16 { return float16.Fromfloat32(toOddF32(x)).Bits() }

func halfFromBits(b uint16) float64 { return float64(float16.Frombits(b).Float32()) }

// roundHalf rounds x to the nearest __half value.
func roundHalf(x float64) float64 { return halfFromBits(halfBits(x)) }

// bf16Bits is x rounded to the nearest __nv_bfloat16 (ties to even):
// bfloat16 is the upper half of a float32.
func bf16Bits(x float64) uint16 {
	f := toOddF32(x)
	b := math.Float32bits(f)
	if f != f {
		return uint16(b>>16) | 0x40 // quiet NaN
	}
	b += 0x7fff + (b>>16)&1
	return uint16(b >> 16)
}

func bf16FromBits(b uint16) float64 { return float64(math.Float32frombits(uint32(b) << 16)) }

func roundBF16(x float64) float64 { return bf16FromBits(bf16Bits(x)) }
