package lib

// The host's libm, as glibc 2.36 on x86-64 computes it (crlog.go,
// crmath.go, crglibc.go, crnan.go): exp, exp2, log, log2, pow, sin, cos,
// tan, atan, atan2, asin, acos and hypot correctly rounded (glibc's are
// within about 0.52 ulp, so they agree but near halfway cases), log10
// and exp10 by glibc's own formulas (not correctly rounded), NaN results
// with glibc's signs. Go's math package differed from glibc in the last
// bit for 10-53% of arguments, so a host program printed other digits
// than built with gcc. Package sem uses these for host threads only: a
// device thread keeps Go's functions (CUDA documents ulp bounds, not
// glibc's values, and these cost about 5x more).

// hostMath1 are the one-argument functions.
var hostMath1 = map[string]func(float64) float64{
	"exp": crExp, "exp2": crExp2, "log": crLog, "log2": crLog2, "log10": glibcLog10,
	"sin": crSin, "cos": crCos, "tan": crTan, "exp10": glibcExp10,
	"atan": crAtan, "asin": crAsin, "acos": crAcos,
}

// hostMath2 are the two-argument functions.
var hostMath2 = map[string]func(float64, float64) float64{
	"pow": crPow, "atan2": crAtan2, "hypot": crHypot,
}

// HostMath1 is the host function of the name and whether libm has one
// here (the others are Go's math package's).
func HostMath1(name string) (func(float64) float64, bool) {
	f, ok := hostMath1[name]
	if !ok {
		return nil, false
	}
	return glibcNaN1(name, f), true
}

// HostMath2 is HostMath1 for the two-argument functions.
func HostMath2(name string) (func(float64, float64) float64, bool) {
	f, ok := hostMath2[name]
	if !ok {
		return nil, false
	}
	return glibcNaN2(name, f), true
}
