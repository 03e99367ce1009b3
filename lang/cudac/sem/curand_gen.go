package sem

import (
	"math"
	"sync"
)

// The generators behind the cuRAND model (curand.go), following cuRAND's
// documented algorithms (cuRAND Library, "Device API Overview" and
// "Bit Generation"):
//
//   - XORWOW is Marsaglia's xorwow (J. Statistical Software 8(14), 2003):
//     five 32-bit words of xorshift state and a Weyl counter d stepped by
//     362437, each value v[4] + d. curand_init salts the 64-bit seed into
//     the five words and d, then advances the state to position
//     subsequence·2^67 + offset, as cuRAND documents; the jump is the
//     xorshift's linear map over GF(2)^160 raised to that power (square
//     and multiply on 160x160 bit matrices, computed once), and d advances
//     by 362437·offset (2^67 steps move it by a multiple of 2^32).
//   - Philox4_32_10 is Salmon et al.'s counter-based generator (SC'11,
//     "Parallel random numbers: as easy as 1, 2, 3"): ten rounds of two
//     32x32->64 multiplications on a 128-bit counter under a 64-bit key
//     (the seed); each counter value gives four 32-bit values in turn.
//     curand_init sets the key from the seed, adds subsequence to the
//     counter's high 64 bits and skips offset values.
//
// curand() returns the generator's bits; curand_uniform turns x into
// x·2^-32 + 2^-33 in single precision (a value in (0, 1]), and
// curand_uniform_double uses two draws, x ^ (y << 21) scaled by 2^-53
// plus 2^-54: these are exact, given the bits. curand_normal is the
// Box-Muller transform of two draws, returning the sine branch and
// keeping the cosine one for the next call (as cuRAND does, which is why
// normals come in pairs); the transform's logf, sqrtf and sine/cosine are
// the host's correctly rounded functions, where a GPU uses its own
// approximations (curand_normal uses the fast __sincosf), so normal
// values can differ from a GPU's in their last bits. The double normal
// takes four draws (two 53-bit uniforms). The MRG32k3a and Sobol states
// are drawn as XORWOW (their own sequences are not modelled).

const (
	crXorwowSize = 48 // d, v[5], two flags, the float and double extras
	crPhiloxSize = 64 // ctr[4], output[4], key[2], STATE, flags, extras
	// cuRAND's flag that an extra normal value is kept
	crExtraNormal = 0x10000
)

// curandGen is a per-thread state being used by one call.
type curandGen struct {
	kind int
	// XORWOW
	d uint32
	v [5]uint32
	// Philox
	ctr, out [4]uint32
	key      [2]uint32
	idx      uint32
	// both
	flag, flagD int32
	extra       float32
	extraD      float64
}

func newCurandGen(kind int, b []byte) *curandGen {
	g := &curandGen{kind: kind}
	w := func(off int) uint32 { return uint32(loadN(b[off:], 4)) }
	var fo int
	if kind == crPhilox {
		for i := 0; i < 4; i++ {
			g.ctr[i], g.out[i] = w(4*i), w(16+4*i)
		}
		g.key = [2]uint32{w(32), w(36)}
		g.idx = w(40)
		fo = 44
	} else {
		g.d = w(0)
		for i := range g.v {
			g.v[i] = w(4 + 4*i)
		}
		fo = 24
	}
	g.flag, g.flagD = int32(w(fo)), int32(w(fo+4))
	g.extra = math.Float32frombits(w(fo + 8))
	do := 40
	if kind == crPhilox {
		do = 56
	}
	g.extraD = math.Float64frombits(loadN(b[do:], 8))
	return g
}

func (g *curandGen) save(b []byte) {
	put := func(off int, x uint32) { storeN(b[off:], 4, uint64(x)) }
	fo, do := 24, 40
	if g.kind == crPhilox {
		for i := 0; i < 4; i++ {
			put(4*i, g.ctr[i])
			put(16+4*i, g.out[i])
		}
		put(32, g.key[0])
		put(36, g.key[1])
		put(40, g.idx)
		fo, do = 44, 56
	} else {
		put(0, g.d)
		for i := range g.v {
			put(4+4*i, g.v[i])
		}
		put(36, 0) // (the padding before the double: the whole state is written)
	}
	put(fo, uint32(g.flag))
	put(fo+4, uint32(g.flagD))
	put(fo+8, math.Float32bits(g.extra))
	storeN(b[do:], 8, math.Float64bits(g.extraD))
}

// call runs function fn (curandFn's codes) with the arguments before the
// state.
func (g *curandGen) call(fn uint64, args []uint64) uint64 {
	switch fn {
	case 0: // curand_init(seed, subsequence, offset)
		g.init(args[0], args[1], args[2])
		return 0
	case 9: // skipahead(n)
		g.skip(args[0])
		return 0
	case 10: // skipahead_sequence(n)
		g.skipSeq(args[0])
		return 0
	case 1:
		return uint64(g.next())
	case 2:
		return bits(float64(uniform32(g.next())))
	case 3:
		x := g.next()
		return bits(uniform53(x, g.next()))
	case 4:
		return bits(float64(g.normal()))
	case 5:
		return bits(g.normalD())
	case 6:
		return bits(float64(float32(math.Exp(float64(float32(f64(args[0])) + float32(f64(args[1]))*g.normal())))))
	case 7:
		return bits(math.Exp(f64(args[0]) + f64(args[1])*g.normalD()))
	case 8:
		// curand_poisson: Knuth's product of uniforms for small lambda,
		// the rounded normal approximation above 64 (cuRAND's own
		// method differs: values are Poisson-distributed, not its)
		lambda := f64(args[0])
		if !(lambda > 0) {
			return 0
		}
		if lambda > 64 {
			return uint64(max(0, math.Floor(lambda+math.Sqrt(lambda)*g.normalD()+0.5)))
		}
		l, k, p := math.Exp(-lambda), uint64(0), 1.0
		for {
			p *= float64(uniform32(g.next()))
			if p <= l {
				return k
			}
			k++
		}
	}
	return 0
}

// uniform32 is cuRAND's x·2^-32 + 2^-32/2 in single precision (the
// product is exact; the sum rounds once).
func uniform32(x uint32) float32 {
	const inv = float32(1.0 / 4294967296.0)
	return float32(float32(x)*inv) + inv/2
}

// uniform53 is the double from two draws: 53 bits scaled by 2^-53, plus
// 2^-53/2.
func uniform53(x, y uint32) float64 {
	const inv = 1.0 / 9007199254740992.0
	z := uint64(x) ^ uint64(y)<<(53-32)
	return float64(float64(z)*inv) + inv/2
}

// normal is curand_normal: Box-Muller on two draws, in pairs.
func (g *curandGen) normal() float32 {
	if g.flag == crExtraNormal {
		g.flag = 0
		return g.extra
	}
	x, y := g.next(), g.next()
	const inv2pi = float32(2 * math.Pi / 4294967296.0)
	u := uniform32(x)
	v := float32(float32(y)*inv2pi) + inv2pi/2
	s := float32(math.Sqrt(float64(-2 * float32(math.Log(float64(u))))))
	sn, cs := math.Sincos(float64(v))
	g.extra = s * float32(cs)
	g.flag = crExtraNormal
	return s * float32(sn)
}

// normalD is curand_normal_double: Box-Muller on two 53-bit uniforms.
func (g *curandGen) normalD() float64 {
	if g.flagD == crExtraNormal {
		g.flagD = 0
		return g.extraD
	}
	x0, x1, y0, y1 := g.next(), g.next(), g.next(), g.next()
	u := uniform53(x0, x1)
	v := 2 * uniform53(y0, y1)
	s := math.Sqrt(-2 * math.Log(u))
	sn, cs := math.Sincos(math.Pi * v)
	g.extraD = s * cs
	g.flagD = crExtraNormal
	return s * sn
}

// next is curand(): the next 32 bits.
func (g *curandGen) next() uint32 {
	if g.kind == crPhilox {
		var r uint32
		r = g.out[g.idx&3]
		g.idx++
		if g.idx >= 4 {
			g.incr(1)
			g.out = philox(g.ctr, g.key)
			g.idx = 0
		}
		return r
	}
	t := g.v[0] ^ g.v[0]>>2
	g.v[0], g.v[1], g.v[2], g.v[3] = g.v[1], g.v[2], g.v[3], g.v[4]
	g.v[4] = (g.v[4] ^ g.v[4]<<4) ^ (t ^ t<<1)
	g.d += 362437
	return g.v[4] + g.d
}

func (g *curandGen) init(seed, subseq, offset uint64) {
	*g = curandGen{kind: g.kind}
	if g.kind == crPhilox {
		g.key = [2]uint32{uint32(seed), uint32(seed >> 32)}
		g.skipSeq(subseq)
		g.skip(offset)
		return
	}
	// the seed's halves, salted and mixed (cuRAND's XORWOW seeding)
	s0 := uint32(seed) ^ 0xaad26b49
	s1 := uint32(seed>>32) ^ 0xf7dcefdd
	t0 := 1099087573 * s0
	t1 := 2591861531 * s1
	g.d = 6615241 + t1 + t0
	g.v = [5]uint32{123456789 + t0, 362436069 ^ t0, 521288629 + t1, 88675123 ^ t1, 5783321 + t0}
	g.skipSeq(subseq)
	g.skip(offset)
}

// skip advances n values.
func (g *curandGen) skip(n uint64) {
	if g.kind == crPhilox {
		// four values per counter: the index within the block, then
		// whole blocks
		g.idx += uint32(n & 3)
		n /= 4
		if g.idx > 3 {
			n++
			g.idx -= 4
		}
		g.incr(n)
		g.out = philox(g.ctr, g.key)
		return
	}
	g.v = xorwowJump(g.v, n, 0)
	g.d += 362437 * uint32(n)
}

// skipSeq advances n subsequences.
func (g *curandGen) skipSeq(n uint64) {
	if g.kind == crPhilox {
		// the counter's high 64 bits
		hi := uint64(g.ctr[2]) | uint64(g.ctr[3])<<32
		hi += n
		g.ctr[2], g.ctr[3] = uint32(hi), uint32(hi>>32)
		g.out = philox(g.ctr, g.key)
		return
	}
	g.v = xorwowJump(g.v, n, 67)
}

// incr adds n to the 128-bit counter.
func (g *curandGen) incr(n uint64) {
	lo := uint64(g.ctr[0]) | uint64(g.ctr[1])<<32
	nlo := lo + n
	g.ctr[0], g.ctr[1] = uint32(nlo), uint32(nlo>>32)
	if nlo < lo {
		hi := uint64(g.ctr[2]) | uint64(g.ctr[3])<<32
		hi++
		g.ctr[2], g.ctr[3] = uint32(hi), uint32(hi>>32)
	}
}

// philox is Philox4x32 with ten rounds (Salmon et al., Random123).
func philox(ctr [4]uint32, key [2]uint32) [4]uint32 {
	const (
		m0, m1 = 0xD2511F53, 0xCD9E8D57
		w0, w1 = 0x9E3779B9, 0xBB67AE85
	)
	c, k := ctr, key
	for r := 0; r < 10; r++ {
		if r > 0 {
			k[0] += w0
			k[1] += w1
		}
		p0 := uint64(m0) * uint64(c[0])
		p1 := uint64(m1) * uint64(c[2])
		c = [4]uint32{uint32(p1>>32) ^ c[1] ^ k[0], uint32(p1), uint32(p0>>32) ^ c[3] ^ k[1], uint32(p0)}
	}
	return c
}

// The XORWOW jump: the xorshift part of a step is a linear map on 160
// bits; xwPow[k] is its 2^k-th power, as 160 columns (the images of the
// unit vectors).
type xwMat [160][5]uint32

var (
	xwOnce sync.Once
	xwPow  [67 + 64]xwMat
)

func (m *xwMat) apply(v [5]uint32) [5]uint32 {
	var r [5]uint32
	for i := 0; i < 160; i++ {
		if v[i/32]>>(i%32)&1 != 0 {
			col := &m[i]
			r[0] ^= col[0]
			r[1] ^= col[1]
			r[2] ^= col[2]
			r[3] ^= col[3]
			r[4] ^= col[4]
		}
	}
	return r
}

func xwInit() {
	// the step's columns: the image of each unit vector
	for i := 0; i < 160; i++ {
		var v [5]uint32
		v[i/32] = 1 << (i % 32)
		g := curandGen{v: v}
		g.next()
		xwPow[0][i] = g.v
	}
	for k := 1; k < len(xwPow); k++ {
		for i := 0; i < 160; i++ {
			xwPow[k][i] = xwPow[k-1].apply(xwPow[k-1][i])
		}
	}
}

// xorwowJump applies the step 2^base·n times to the xorshift words.
func xorwowJump(v [5]uint32, n uint64, base int) [5]uint32 {
	if n == 0 {
		return v
	}
	xwOnce.Do(xwInit)
	for k := 0; n != 0 && base+k < len(xwPow); k++ {
		if n&1 != 0 {
			v = xwPow[base+k].apply(v)
		}
		n >>= 1
	}
	return v
}
