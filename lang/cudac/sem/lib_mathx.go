package sem

import "math"

// The <math.h> functions that split or scale a floating value by a power
// of two (C11 7.12.6.4, 7.12.6.6, 7.12.6.12): frexp, ldexp, modf and their
// float forms, on the host and in device code as CUDA provides them. The
// out-parameters are ordinary checked stores. Go's math.Frexp,
// math.Ldexp and math.Modf follow C's definitions (frexp's fraction in
// [0.5, 1), zero, infinities and NaN passed through); the float forms
// round the result to binary32, as the value is a float.

var (
	tDoubleP = ptrTo(tDouble)
	tFloatPx = ptrTo(tFloat)
)

func initLibMathx() {
	for name, s := range map[string]*bsig{
		"frexp":  sig(tDouble, anySide, tDouble, tIntP),
		"frexpf": sig(tFloat, anySide, tFloat, tIntP),
		"ldexp":  sig(tDouble, anySide, tDouble, tInt),
		"ldexpf": sig(tFloat, anySide, tFloat, tInt),
		"modf":   sig(tDouble, anySide, tDouble, tDoubleP),
		"modff":  sig(tFloat, anySide, tFloat, tFloatPx),
	} {
		builtinSigs[name] = s
	}
	round := func(single bool, x float64) float64 {
		if single {
			return float64(float32(x))
		}
		return x
	}
	for _, single := range []bool{false, true} {
		suffix := ""
		if single {
			suffix = "f"
		}
		defb("frexp"+suffix, func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
			frac, exp := math.Frexp(f64(a[0]))
			if !m.store(t, a[1], mI32, uint64(int64(exp)), pos) {
				return 0, stFault
			}
			return ok(bits(round(single, frac)))
		})
		defb("ldexp"+suffix, func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
			return ok(bits(round(single, math.Ldexp(f64(a[0]), int(int32(a[1]))))))
		})
		mk := mF64
		if single {
			mk = mF32
		}
		defb("modf"+suffix, func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
			ip, frac := math.Modf(f64(a[0]))
			if !m.store(t, a[1], mk, bits(ip), pos) {
				return 0, stFault
			}
			return ok(bits(round(single, frac)))
		})
	}
}
