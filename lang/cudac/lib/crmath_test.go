package lib

import (
	"math"
	"math/big"
	"math/rand"
	"testing"
)

const oraclePrec = 240

func bf(x float64) *big.Float    { return new(big.Float).SetPrec(oraclePrec).SetFloat64(x) }
func bi(x int64) *big.Float      { return new(big.Float).SetPrec(oraclePrec).SetInt64(x) }
func bnew() *big.Float           { return new(big.Float).SetPrec(oraclePrec) }
func round(b *big.Float) float64 { f, _ := b.Float64(); return f }

// bigExp is exp(z): z = k ln2 + r, exp(r) by its Taylor series.
func bigExp(z *big.Float) *big.Float {
	ln2 := bigLog(2, oraclePrec)
	kf, _ := bnew().Quo(z, ln2).Float64()
	k := math.Round(kf)
	r := bnew().Sub(z, bnew().Mul(ln2, bf(k)))
	s, t := bi(1), bi(1)
	for n := int64(1); n < 80; n++ {
		t.Mul(t, r)
		t.Quo(t, bi(n))
		s.Add(s, t)
	}
	return s.SetMantExp(s, int(k))
}

// bigSinCos is sin x and cos x by reduction modulo pi/2 at 240 bits and
// the Taylor series.
func bigSinCos(x float64) (*big.Float, *big.Float) {
	_, e := math.Frexp(x)
	prec := uint(oraclePrec + max(e, 0))
	bn := func() *big.Float { return new(big.Float).SetPrec(prec) }
	at := func(k int64) *big.Float {
		x := bn().Quo(bn().SetInt64(1), bn().SetInt64(k))
		x2 := bn().Mul(x, x)
		s, t := bn(), bn().Set(x)
		for n := int64(1); n < 1200; n += 2 {
			q := bn().Quo(t, bn().SetInt64(n))
			if n%4 == 1 {
				s.Add(s, q)
			} else {
				s.Sub(s, q)
			}
			t.Mul(t, x2)
		}
		return s
	}
	pi := bn().Mul(at(5), bn().SetInt64(16))
	pi.Sub(pi, bn().Mul(at(239), bn().SetInt64(4)))
	pio2 := bn().Quo(pi, bn().SetInt64(2))
	q := bn().Quo(bn().SetFloat64(x), pio2)
	nInt, _ := bn().Add(q, bn().SetFloat64(math.Copysign(0.5, x))).Int(nil)
	r := bn().Sub(bn().SetFloat64(x), bn().Mul(pio2, bn().SetInt(nInt)))
	quad := new(big.Int).And(nInt, big.NewInt(3)).Int64()
	return sinCosSeries(r, quad)
}

func sinCosSeries(rr *big.Float, quad int64) (*big.Float, *big.Float) {
	r := bnew().Set(rr)
	r2 := bnew().Mul(r, r)
	s, c := bnew(), bnew()
	ts, tc := bnew().Set(r), bi(1)
	for k := int64(0); k < 60; k++ {
		if k%2 == 0 {
			s.Add(s, ts)
			c.Add(c, tc)
		} else {
			s.Sub(s, ts)
			c.Sub(c, tc)
		}
		ts.Mul(ts, r2)
		ts.Quo(ts, bi((2*k+2)*(2*k+3)))
		tc.Mul(tc, r2)
		tc.Quo(tc, bi((2*k+1)*(2*k+2)))
	}
	switch quad {
	case 1:
		return c, bnew().Neg(s)
	case 2:
		return bnew().Neg(s), bnew().Neg(c)
	case 3:
		return bnew().Neg(c), s
	}
	return s, c
}

// TestCrMath: exp, exp2, pow, log2, log10, sin, cos and tan are correctly
// rounded on random arguments (a 240-bit oracle of its own: Machin's pi,
// Taylor series), exact where they must be, and equal to glibc's values
// where Go's math package differs from them.
func TestCrMath(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	n := 400
	check := func(name string, x, got float64, want *big.Float) {
		t.Helper()
		if w := round(want); got != w && !(math.IsNaN(got) && math.IsNaN(w)) {
			t.Errorf("%s(%v) = %v (%x), want %v (%x)", name, x, got, math.Float64bits(got), w, math.Float64bits(w))
		}
	}
	for i := 0; i < n; i++ {
		x := (rng.Float64() - 0.5) * 1400
		if i%2 == 0 {
			x = (rng.Float64() - 0.5) * 4
		}
		check("exp", x, crExp(x), bigExp(bf(x)))
		check("exp2", x, crExp2(x), bigExp(bnew().Mul(bf(x), bigLog(2, oraclePrec))))
		y := math.Float64frombits(rng.Uint64() &^ (1 << 63))
		if !math.IsNaN(y) && !math.IsInf(y, 0) && y != 0 {
			check("log2", y, crLog2(y), bnew().Quo(bigLog(y, oraclePrec), bigLog(2, oraclePrec)))
			check("log10", y, crLog10(y), bnew().Quo(bigLog(y, oraclePrec), bigLog(10, oraclePrec)))
		}
		b, e := rng.Float64()*20, (rng.Float64()-0.5)*30
		check("pow", b, crPow(b, e), bigExp(bnew().Mul(bf(e), bigLog(b, oraclePrec))))
		a := (rng.Float64() - 0.5) * math.Pow(2, float64(rng.Intn(24)))
		if i%50 == 0 {
			a = math.Float64frombits(rng.Uint64() &^ (1 << 63)) // any magnitude (reduceBig)
			if math.IsNaN(a) || math.IsInf(a, 0) {
				continue
			}
		}
		s, c := bigSinCos(a)
		check("sin", a, crSin(a), s)
		check("cos", a, crCos(a), c)
		check("tan", a, crTan(a), bnew().Quo(s, c))
	}
	// exact cases
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"pow(2, 10)", crPow(2, 10), 1024}, {"pow(10, 3)", crPow(10, 3), 1000}, {"pow(-2, 3)", crPow(-2, 3), -8},
		{"pow(-2, 2)", crPow(-2, 2), 4}, {"pow(4, 0.5)", crPow(4, 0.5), 2}, {"pow(0, 0)", crPow(0, 0), 1},
		{"log2(1024)", crLog2(1024), 10}, {"log2(0.125)", crLog2(0.125), -3}, {"log10(1000)", crLog10(1000), 3},
		{"log10(1e-5)", crLog10(1e-5), -5}, {"exp(0)", crExp(0), 1}, {"exp2(-3)", crExp2(-3), 0.125},
		{"sin(0)", crSin(0), 0}, {"cos(0)", crCos(0), 1}, {"exp(1000)", crExp(1000), math.Inf(1)}, {"exp(-1000)", crExp(-1000), 0},
		// glibc's values where Go's math package differs (from Python, which calls glibc)
		{"exp", crExp(0x1.313a0f4bb8c90p+4), 0x1.6f8e953e36af9p+27},
		{"pow", crPow(0x1.2cf681266e1dcp+3, 0x1.a546139403ad0p-1), 0x1.94a286de510b3p+2},
		{"log10", crLog10(0x1.2cf681266e1dcp+3), 0x1.f25ca279c8e10p-1},
		{"sin", crSin(-0x1.fdaa672e13a99p+2), -0x1.fcee5cbdaf251p-1},
		{"cos", crCos(-0x1.6dbe03a4b8d15p+3), 0x1.ae79b1d9e4780p-2},
		{"tan", crTan(-0x1.3ee742b4bbe4ap+1), 0x1.855aa2a977c15p-1},
		{"sin(1e22)", crSin(1e22), -0x1.b453ab76bf397p-1},
	} {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if !math.IsNaN(crPow(-2, 0.5)) {
		t.Error("pow(-2, 0.5) is not NaN")
	}
}

// bigAtanUnit is atan(x) for |x| <= 1: the angle halved eight times,
// then the series.
func bigAtanUnit(x *big.Float) *big.Float {
	x = bnew().Set(x)
	for k := 0; k < 8; k++ {
		s := bnew().Mul(x, x)
		s.Add(s, bi(1))
		s.Sqrt(s)
		s.Add(s, bi(1))
		x.Quo(x, s)
	}
	x2 := bnew().Mul(x, x)
	sum, t := bnew(), bnew().Set(x)
	for n := int64(1); n < 120; n += 2 {
		q := bnew().Quo(t, bi(n))
		if n%4 == 1 {
			sum.Add(sum, q)
		} else {
			sum.Sub(sum, q)
		}
		t.Mul(t, x2)
	}
	return sum.Mul(sum, bi(256))
}

// bigAtan2 is atan2(y, x) from bigAtanUnit, pi as 4 atan(1).
func bigAtan2(y, x float64) *big.Float {
	pi := bnew().Mul(bigAtanUnit(bi(1)), bi(4))
	by, bx := bf(y), bf(x)
	if math.Abs(y) <= math.Abs(x) {
		r := bigAtanUnit(bnew().Quo(by, bx))
		if x < 0 {
			if y < 0 {
				return r.Sub(r, pi)
			}
			return r.Add(r, pi)
		}
		return r
	}
	r := bigAtanUnit(bnew().Quo(bx, by))
	h := bnew().Quo(pi, bi(2))
	if y < 0 {
		h.Neg(h)
	}
	return h.Sub(h, r)
}

// TestCrAtan: atan, atan2, asin and acos correctly rounded against the
// oracle, and glibc's values where Go's math package differs.
func TestCrAtan(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	check := func(name string, x, got float64, want *big.Float) {
		t.Helper()
		if w := round(want); got != w {
			t.Errorf("%s(%v) = %v (%x), want %v (%x)", name, x, got, math.Float64bits(got), w, math.Float64bits(w))
		}
	}
	for i := 0; i < 300; i++ {
		x := (rng.Float64() - 0.5) * math.Pow(2, float64(rng.Intn(30)-10))
		y := (rng.Float64() - 0.5) * math.Pow(2, float64(rng.Intn(30)-10))
		check("atan", x, crAtan(x), bigAtan2(x, 1))
		check("atan2", y, crAtan2(y, x), bigAtan2(y, x))
		u := rng.Float64()*2 - 1
		s := bnew().Sub(bi(1), bnew().Mul(bf(u), bf(u)))
		s.Sqrt(s)
		sf, _ := s.Float64()
		_ = sf
		check("asin", u, crAsin(u), bigAtan2Big(bf(u), s))
		check("acos", u, crAcos(u), bigAtan2Big(s, bf(u)))
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"acos(-1)", crAcos(-1), math.Pi}, {"asin(1)", crAsin(1), math.Pi / 2}, {"atan2(1, -1)", crAtan2(1, -1), 3 * math.Pi / 4},
		{"atan(1)", crAtan(1), math.Pi / 4}, {"acos(0)", crAcos(0), math.Pi / 2},
	} {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
}

// bigAtan2Big is atan2 of big arguments (y >= 0 or any sign, x any sign)
// through bigAtan2's reduction.
func bigAtan2Big(y, x *big.Float) *big.Float {
	pi := bnew().Mul(bigAtanUnit(bi(1)), bi(4))
	ay, ax := bnew().Abs(y), bnew().Abs(x)
	if ay.Cmp(ax) <= 0 {
		r := bigAtanUnit(bnew().Quo(y, x))
		if x.Sign() < 0 {
			if y.Sign() < 0 {
				return r.Sub(r, pi)
			}
			return r.Add(r, pi)
		}
		return r
	}
	r := bigAtanUnit(bnew().Quo(x, y))
	h := bnew().Quo(pi, bi(2))
	if y.Sign() < 0 {
		h.Neg(h)
	}
	return h.Sub(h, r)
}

// TestCrHypot: hypot correctly rounded against the oracle over the whole
// range (scaled squares), C99 F.9.4.3's special cases.
func TestCrHypot(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	for i := 0; i < 2000; i++ {
		e := rng.Intn(2000) - 1000
		x := (rng.Float64() - 0.5) * math.Pow(2, float64(e))
		y := (rng.Float64() - 0.5) * math.Pow(2, float64(e+rng.Intn(40)-20))
		s := bnew().Add(bnew().Mul(bf(x), bf(x)), bnew().Mul(bf(y), bf(y)))
		want := round(s.Sqrt(s))
		if got := crHypot(x, y); got != want {
			t.Errorf("hypot(%v, %v) = %v, want %v", x, y, got, want)
		}
	}
	for _, c := range []struct{ x, y, want float64 }{
		{3, 4, 5}, {math.Inf(-1), math.NaN(), math.Inf(1)}, {0, -2, 2}, {math.MaxFloat64, math.MaxFloat64, math.Inf(1)}, {5e-324, 5e-324, 5e-324},
	} {
		if got := crHypot(c.x, c.y); got != c.want {
			t.Errorf("hypot(%v, %v) = %v, want %v", c.x, c.y, got, c.want)
		}
	}
	if !math.IsNaN(crHypot(math.NaN(), 1)) {
		t.Error("hypot(NaN, 1) is not NaN")
	}
}
