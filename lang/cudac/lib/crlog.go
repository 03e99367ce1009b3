package lib

import (
	"math"
	"sync"
)

// crLog is the natural logarithm of x rounded to nearest: what glibc's
// log returns (its error bound is 0.52 ulp, and it is correctly rounded
// on all but rare hard cases), where Go's math.Log is off by one ulp for
// a few percent of arguments. Programs print logarithms (and values made
// from them: a normal_distribution's draws) and compare them with what
// they print built with gcc; with math.Log about 3% of libstdc++'s normal
// draws differed in the last bit.
//
// Method: x = 2^k m with m in [1, 2); m = c (1 + q) with c = 1 + i/128 the
// table point below m, so |q| < 2^-7; log(1 + q) = 2 atanh(s), s = q/(2 +
// q), |s| < 2^-8, by its series. k ln 2, log c (tabulated in double-double
// the first time a log is taken, by the same series on (c-1)/(c+1)) and the
// series are added in double-double arithmetic (about 2^-100 relative
// error), and the sum rounded once.
func crLog(x float64) float64 { return logScaled(x, 1, 0) }

// logDD is log(x) for a finite x > 0 in double-double (about 2^-100
// relative error).
func logDD(x float64) (float64, float64) {
	m, k := math.Frexp(x) // x = m 2^k, m in [0.5, 1)
	m, k = m*2, k-1
	i := int((m - 1) * 128)
	c := 1 + float64(i)/128
	t := m - c // exact: c <= m < 2c
	// q = t / c in double-double
	qh := t / c
	ql := math.FMA(-qh, c, t) / c
	// s = q / (2 + q)
	dh, dl := twoSum(2, qh)
	dl += ql
	dh, dl = fastTwoSum(dh, dl)
	sh, sl := ddDiv(qh, ql, dh, dl)
	// log(1 + q) = 2 (s + s^3/3 + s^5/5 + s^7 R(s^2)), R in double
	s2h, s2l := ddMul(sh, sl, sh, sl)
	r := 1.0/7 + s2h*(1.0/9+s2h*(1.0/11+s2h*(1.0/13)))
	ph, pl := ddAdd(ddFifthH, ddFifthL, s2h*r, 0) // 1/5 + s^2 r
	ph, pl = ddMul(ph, pl, s2h, s2l)              // s^2 (1/5 + s^2 r)
	ph, pl = ddAdd(ddThirdH, ddThirdL, ph, pl)    // 1/3 + ...
	ph, pl = ddMul(ph, pl, s2h, s2l)              // s^2/3 + ...
	ph, pl = ddMul(ph, pl, sh, sl)                // s^3/3 + ...
	lh, ll := ddAdd(sh, sl, ph, pl)
	lh, ll = lh*2, ll*2
	// + log c + k log 2
	lt := logTab()
	lh, ll = ddAdd(lh, ll, lt[i][0], lt[i][1])
	kh, kl := twoProd(float64(k), ln2H)
	kl += float64(k) * ln2L
	return ddAdd(lh, ll, kh, kl)
}

// ln 2 in double-double.
const (
	ln2H = 0x1.62e42fefa39efp-1
	ln2L = 0x1.abc9e3b39803fp-56
)

var (
	ddThirdH, ddThirdL = ddDiv(1, 0, 3, 0)
	ddFifthH, ddFifthL = ddDiv(1, 0, 5, 0)
	// logTab is made on first use, as are crmath.go's exp2Tab, atanTab,
	// pio2 and invLn10: made when the package loaded, these tables were
	// 4.1 M instructions of every weft process's start, a quarter of a
	// `weft check` of a small kernel (16.5 M), which never takes a host
	// logarithm (issue 13, stop 41).
	logTab = sync.OnceValue(makeLogTab)
)

// makeLogTab tabulates log(1 + i/128) in double-double: 2 atanh(s), s =
// (c - 1)/(c + 1) <= 1/3, by 60 terms of the series (the last below
// 3^-119).
func makeLogTab() *[128][2]float64 {
	var t [128][2]float64
	for i := 1; i < 128; i++ {
		c := 1 + float64(i)/128
		sh, sl := ddDiv(c-1, 0, c+1, 0) // c - 1 and c + 1 are exact
		s2h, s2l := ddMul(sh, sl, sh, sl)
		ph, pl := 0.0, 0.0
		for j := 60; j >= 0; j-- {
			ch, cl := ddDiv(1, 0, float64(2*j+1), 0)
			ph, pl = ddMul(ph, pl, s2h, s2l)
			ph, pl = ddAdd(ph, pl, ch, cl)
		}
		ph, pl = ddMul(ph, pl, sh, sl)
		t[i] = [2]float64{ph * 2, pl * 2}
	}
	return &t
}

// Double-double arithmetic (Dekker; Knuth's TwoSum; the product's error
// by FMA): a value is hi + lo with |lo| <= ulp(hi)/2.

func twoSum(a, b float64) (float64, float64) {
	s := a + b
	bb := s - a
	return s, (a - (s - bb)) + (b - bb)
}

func fastTwoSum(a, b float64) (float64, float64) {
	s := a + b
	return s, b - (s - a)
}

func twoProd(a, b float64) (float64, float64) {
	p := a * b
	return p, math.FMA(a, b, -p)
}

func ddAdd(ah, al, bh, bl float64) (float64, float64) {
	sh, sl := twoSum(ah, bh)
	th, tl := twoSum(al, bl)
	sl += th
	sh, sl = fastTwoSum(sh, sl)
	sl += tl
	return fastTwoSum(sh, sl)
}

func ddMul(ah, al, bh, bl float64) (float64, float64) {
	ph, pl := twoProd(ah, bh)
	pl += ah*bl + al*bh
	return fastTwoSum(ph, pl)
}

func ddDiv(ah, al, bh, bl float64) (float64, float64) {
	q1 := ah / bh
	// r = a - q1 b
	ph, pl := ddMul(q1, 0, bh, bl)
	rh, rl := ddAdd(ah, al, -ph, -pl)
	q2 := rh / bh
	ph, pl = ddMul(q2, 0, bh, bl)
	rh, rl = ddAdd(rh, rl, -ph, -pl)
	q3 := rh / bh
	q1, q2 = fastTwoSum(q1, q2)
	return ddAdd(q1, q2, q3, 0)
}
