package lib

import "math"

// The sign of a NaN that a host math function returns, as glibc on
// x86-64 returns it, since printf prints it ("-nan" or "nan"):
//
//   - a NaN argument comes back as it is (glibc computes x + x or the
//     like, and an SSE operation on a quiet NaN returns it, sign
//     included: log(-NAN) prints -nan);
//   - a domain error (C99 7.12.1p2) makes the "default NaN" of the SSE
//     unit (Intel SDM vol. 1, 4.8.3.7, the QNaN floating-point
//     indefinite), whose sign bit is set, where glibc computes it as
//     (x - x) / 0 or 0/0: log, log2, sin, cos, tan of ±inf, pow of a
//     negative x and a non-integer y; but log10, asin and acos return
//     +nan (glibc divides by zero the other way round or returns a
//     positive constant). Measured with gcc 12 / glibc 2.36, double and
//     float versions alike.
//
// Go's math functions return a positive NaN (math.NaN()) whatever the
// argument, so log(-1.0) printed "nan" where gcc's program prints "-nan".

// defaultNaN is the x86 QNaN floating-point indefinite.
var defaultNaN = math.Float64frombits(0xfff8000000000000)

// negDomainNaN names the functions whose domain error gives defaultNaN.
var negDomainNaN = map[string]bool{"log": true, "log2": true, "sin": true, "cos": true, "tan": true, "pow": true}

// glibcNaN1 wraps a one-argument host function f (named name) with
// glibc's NaN signs.
func glibcNaN1(name string, f func(float64) float64) func(float64) float64 {
	neg := negDomainNaN[name]
	return func(x float64) float64 {
		if x != x {
			return x
		}
		r := f(x)
		if r != r {
			if neg {
				return defaultNaN
			}
			return math.NaN()
		}
		return r
	}
}

// glibcNaN2 wraps pow or atan2: a NaN argument is returned (the first
// when both are; pow(1, NaN) and pow(NaN, 0) are 1, C99 F.9.4.4, which f
// computes).
func glibcNaN2(name string, f func(float64, float64) float64) func(float64, float64) float64 {
	neg := negDomainNaN[name]
	return func(x, y float64) float64 {
		r := f(x, y)
		if r == r {
			return r
		}
		switch {
		case x != x:
			return x
		case y != y:
			return y
		case neg:
			return defaultNaN
		}
		return math.NaN()
	}
}
