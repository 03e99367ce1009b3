package lib

import (
	"math"
	"math/big"
	"math/rand"
	"testing"
)

// bigLog is log(x) to prec bits, by 2 atanh((x-1)/(x+1)) after scaling x
// into [1/sqrt2, sqrt2] by powers of two (ln 2 by the same series): an
// oracle independent of crLog's table and double-double arithmetic.
func bigLog(x float64, prec uint) *big.Float {
	m, k := math.Frexp(x)
	if m < math.Sqrt2/2 {
		m, k = m*2, k-1
	}
	atanh2 := func(v *big.Float) *big.Float { // 2 atanh((v-1)/(v+1))
		one := new(big.Float).SetPrec(prec).SetInt64(1)
		num := new(big.Float).SetPrec(prec).Sub(v, one)
		den := new(big.Float).SetPrec(prec).Add(v, one)
		s := new(big.Float).SetPrec(prec).Quo(num, den)
		s2 := new(big.Float).SetPrec(prec).Mul(s, s)
		sum := new(big.Float).SetPrec(prec)
		term := new(big.Float).SetPrec(prec).Set(s)
		eps := new(big.Float).SetPrec(prec).SetMantExp(one, -int(prec)-8)
		for j := int64(1); ; j += 2 {
			t := new(big.Float).SetPrec(prec).Quo(term, new(big.Float).SetPrec(prec).SetInt64(j))
			sum.Add(sum, t)
			if new(big.Float).Abs(t).Cmp(eps) < 0 {
				break
			}
			term.Mul(term, s2)
		}
		return sum.Mul(sum, new(big.Float).SetPrec(prec).SetInt64(2))
	}
	r := atanh2(new(big.Float).SetPrec(prec).SetFloat64(m))
	if k != 0 {
		ln2 := atanh2(new(big.Float).SetPrec(prec).SetInt64(2))
		r.Add(r, ln2.Mul(ln2, new(big.Float).SetPrec(prec).SetInt64(int64(k))))
	}
	return r
}

// TestCrLog: crLog is the correctly rounded logarithm on 3000 arguments
// over the whole range (subnormals included) and near 1, against a
// 200-bit oracle; and glibc's results on the arguments where math.Log is
// off by one ulp.
func TestCrLog(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	var xs []float64
	for i := 0; i < 1500; i++ {
		xs = append(xs, math.Float64frombits(rng.Uint64()&(1<<63-1)))
	}
	for i := 0; i < 1500; i++ {
		xs = append(xs, 1+(rng.Float64()-0.5)*math.Pow(2, -float64(rng.Intn(40))))
	}
	xs = append(xs, 5e-324, 2.2250738585072014e-308, math.MaxFloat64, 0.5, 2, 0.99999999999999989, 1.0000000000000002)
	bad := 0
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) || x == 0 {
			continue
		}
		want, _ := bigLog(x, 200).Float64() // rounds to nearest even
		if got := crLog(x); got != want {
			bad++
			if bad < 10 {
				t.Errorf("crLog(%v) = %v (%x), want %v", x, got, math.Float64bits(got), want)
			}
		}
	}
	// glibc's log (what gcc-built programs print) where Go's is not
	// correctly rounded: an argument of libstdc++'s normal_distribution
	if got := crLog(0x1.eb9546ae1a372p-2); got != -0x1.77b9fac297d4dp-1 {
		t.Errorf("crLog(0x1.eb9546ae1a372p-2) = %x, want glibc's -0x1.77b9fac297d4dp-1", got)
	}
	for _, c := range []struct{ x, want float64 }{{0, math.Inf(-1)}, {1, 0}, {math.Inf(1), math.Inf(1)}} {
		if got := crLog(c.x); got != c.want {
			t.Errorf("crLog(%v) = %v, want %v", c.x, got, c.want)
		}
	}
	if !math.IsNaN(crLog(-1)) || !math.IsNaN(crLog(math.NaN())) {
		t.Error("crLog of a negative number or NaN is not NaN")
	}
}
