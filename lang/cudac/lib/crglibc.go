package lib

import "math"

// log10 and exp10 as glibc 2.36 computes them on x86-64, which is not
// correctly rounded: a gcc 12 program printing log10(x) or exp10(x) at
// full precision printed other digits than crLog10 / crPow(10, x) for
// 22% (log10 on [0, 4)) and 37-41% (exp10 on [-300, 300] and [0, 4)) of
// 3000 random arguments, and exp10(3) is 0x1.f400000000001p+9 there,
// not 1000. The formulas below are the ones whose results glibc's match
// bit for bit on those arguments (measured: 12 000 of 12 000): each is
// a short combination of correctly rounded logs and exps in plain double
// arithmetic, every operation rounded on its own (an explicit float64
// conversion keeps Go from fusing a multiply and an add, Go spec
// "Floating-point operators").

var (
	// 1/ln 10 rounded, and log10(2) split into a high part of 33
	// significant bits (so that k * hi is exact for |k| < 2^20) and the
	// rest
	glibcInvLn10  = math.Float64frombits(0x3fdbcb7b1526e50e)
	glibcLog10_2H = math.Float64frombits(0x3fd34413509f6000)
	glibcLog10_2L = math.Float64frombits(0x3d59fef311f12b36)
	// ln 10 split into 26 leading bits and the rest rounded
	glibcLn10H = 0x1.26bb1b8p+1
	glibcLn10L = 0x1.daaa8ac16ea57p-26
)

// glibcLog10 is log10 x for finite x > 0: x = 2^k m with m in [1, 2)
// (m/2 and k + 1 where k < 0, so that the two terms have the same sign),
// log10 x = (k log10(2)_lo + log(m) / ln 10) + k log10(2)_hi.
func glibcLog10(x float64) float64 {
	if !(x > 0) || math.IsInf(x, 1) {
		return crLog10(x)
	}
	m, e := math.Frexp(x) // x = m 2^e, m in [0.5, 1)
	k := e - 1
	m *= 2
	if k < 0 {
		m /= 2
		k++
	}
	y := float64(k)
	z := float64(y*glibcLog10_2L) + float64(glibcInvLn10*crLog(m))
	return z + float64(y*glibcLog10_2H)
}

// glibcExp10 is 10^x: x split into a high part of 26 significant bits
// and the rest, 10^x = exp(xh ln10_hi) * exp(xh ln10_lo + xl ln 10),
// the product of two correctly rounded exps rounded once more.
func glibcExp10(x float64) float64 {
	switch {
	case math.IsNaN(x) || math.IsInf(x, 0):
		return crExp(x)
	case x < -307-15-10: // DBL_MIN_10_EXP - DBL_DIG - 10: underflows
		return 0
	case x > 308+1: // DBL_MAX_10_EXP + 1: overflows
		return math.Inf(1)
	case math.Abs(x) < 0x1p-56:
		return 1
	}
	xh := math.Float64frombits(math.Float64bits(x) &^ 0x7ffffff) // the low 27 bits cleared
	xl := x - xh
	eh := xh * glibcLn10H
	el := float64(xh*glibcLn10L) + float64(xl*math.Ln10)
	return crExp(eh) * crExp(el)
}
