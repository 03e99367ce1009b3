package sem

import (
	"math"
	"strings"

	"weft.dev/weft/lang/cudac/syntax"
)

// A model of cuRAND's device API for kernel-only files (issue 16; package
// verify declares the state types, CurandTypes). What a verifier needs of
// it is where the generators read and write their state: curand_init
// writes the state; curand and every distribution read and write it, so
// two threads that share a state without ordering race, at the call; an
// MTGP32 state is shared by the threads of one block, each using its own
// word (the thread's linear index in the block, modulo 256: more than 256
// threads, or two blocks on one state, race). The values are deterministic
// and pseudo-random but not cuRAND's sequences: the XORWOW step
// (Marsaglia's xorshift with a Weyl sequence) on a state seeded from
// (seed, subsequence) by a SplitMix64 hash and advanced offset steps;
// MTGP32 words advance by a xorshift. A uniform float is in (0, 1], a
// normal one comes from the Box-Muller transform of two draws.

// curand state kinds
const (
	crXorwow = iota + 1 // XORWOW, MRG32k3a, Philox4_32_10, Sobol: one state per thread
	crMtgp              // MTGP32: one state per block
)

// CurandTypes is the source of the state types: CUDA's names, our layout
// (programs treat the states as opaque). The first 24 bytes of a per-thread
// state are the generator's words; an MTGP32 state is 256 words and a
// position.
const CurandTypes = `#ifndef __WEFT_CURAND_TYPES
#define __WEFT_CURAND_TYPES
struct curandStateXORWOW { unsigned int d; unsigned int v[5]; int boxmuller_flag; int boxmuller_flag_double; float boxmuller_extra; double boxmuller_extra_double; };
typedef struct curandStateXORWOW curandStateXORWOW_t;
typedef struct curandStateXORWOW curandState_t;
typedef struct curandStateXORWOW curandState;
struct curandStateMRG32k3a { unsigned int d; unsigned int v[5]; int boxmuller_flag; int boxmuller_flag_double; float boxmuller_extra; double boxmuller_extra_double; };
typedef struct curandStateMRG32k3a curandStateMRG32k3a_t;
struct curandStatePhilox4_32_10 { unsigned int d; unsigned int v[5]; int boxmuller_flag; int boxmuller_flag_double; float boxmuller_extra; double boxmuller_extra_double; };
typedef struct curandStatePhilox4_32_10 curandStatePhilox4_32_10_t;
struct curandStateSobol32 { unsigned int d; unsigned int v[5]; };
typedef struct curandStateSobol32 curandStateSobol32_t;
struct curandStateScrambledSobol32 { unsigned int d; unsigned int v[5]; };
typedef struct curandStateScrambledSobol32 curandStateScrambledSobol32_t;
struct curandStateMtgp32 { unsigned int s[256]; int offset; int pIdx; };
typedef struct curandStateMtgp32 curandStateMtgp32_t;
#define CURAND_2POW32_INV (2.3283064e-10f)
#endif
`

// curandFuncs are the modelled functions: the number of arguments before
// the state, and the value's kind.
var curandFuncs = map[string]struct {
	before int // arguments before the state pointer
	after  int // arguments after it
	ret    *Type
}{
	"curand_init":              {3, 0, tVoid},
	"curand":                   {0, 0, tUInt},
	"curand_uniform":           {0, 0, tFloat},
	"curand_uniform_double":    {0, 0, tDouble},
	"curand_normal":            {0, 0, tFloat},
	"curand_normal_double":     {0, 0, tDouble},
	"curand_log_normal":        {0, 2, tFloat},
	"curand_log_normal_double": {0, 2, tDouble},
	"curand_poisson":           {0, 1, tUInt},
	"skipahead":                {1, 0, tVoid},
	"skipahead_sequence":       {1, 0, tVoid},
}

// curandFn codes the function for the run-time builtin.
var curandFn = map[string]int64{
	"curand_init": 0, "curand": 1, "curand_uniform": 2, "curand_uniform_double": 3,
	"curand_normal": 4, "curand_normal_double": 5, "curand_log_normal": 6, "curand_log_normal_double": 7,
	"curand_poisson": 8, "skipahead": 9, "skipahead_sequence": 10,
}

// curandKind is the generator a state type belongs to; 0 if t is no
// pointer to a state.
func curandKind(t *Type) int {
	if t == nil || t.Kind != Ptr || t.Elem == nil || t.Elem.Kind != Struct {
		return 0
	}
	switch name := tagOf(t.Elem); {
	case name == "curandStateMtgp32":
		return crMtgp
	case strings.HasPrefix(name, "curandState"):
		return crXorwow
	}
	return 0
}

// curandCall compiles a call of a modelled cuRAND function: every
// argument as a double or an integer, then the state pointer, the
// generator kind and the function. nil when name is none of them or the
// program declares it itself.
func (c *compiler) curandCall(name string, e *syntax.Call) *Type {
	f, ok := curandFuncs[name]
	if !ok {
		return nil
	}
	if len(e.Args) != f.before+1+f.after {
		c.errorf(e.Pos, "C0304", "%s takes %d arguments, %d given", name, f.before+1+f.after, len(e.Args))
		c.emit(OpConst, 0, 0, e.Pos)
		return f.ret
	}
	// the state last, so that the builtin finds it at a fixed place
	order := append(append(append([]syntax.Expr(nil), e.Args[:f.before]...), e.Args[f.before+1:]...), e.Args[f.before])
	for _, a := range order[:len(order)-1] {
		t := c.expr(a)
		if name == "curand_log_normal" || name == "curand_log_normal_double" || name == "curand_poisson" {
			c.convert(t, tDouble, syntax.PosOf(a))
		} else {
			c.convert(t, tULong, syntax.PosOf(a))
		}
	}
	st := order[len(order)-1]
	kind := curandKind(c.expr(st))
	if kind == 0 {
		c.errorf(syntax.PosOf(st), "C0302", "%s takes a pointer to a cuRAND state (curandState, curandStateMtgp32_t, ...)", name)
	}
	if kind == crMtgp && name != "curand" && name != "curand_uniform" && name != "curand_normal" {
		c.errorf(e.Pos, "C0309", "%s of an MTGP32 state is not modelled", name)
	}
	c.emit(OpConst, 0, int64(kind), e.Pos)
	c.emit(OpConst, 0, curandFn[name], e.Pos)
	c.emit(OpBuiltin, builtinIndex["__weft_curand"], int64(len(order)+2), e.Pos)
	return f.ret
}

func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// maxSkip bounds the steps curand_init and skipahead take one at a time;
// a longer skip is hashed into the state.
const maxSkip = 1 << 16

func init() {
	builtinSigs["__weft_curand"] = sig(tLong, deviceSide).va()
	defb("__weft_curand", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		n := len(a)
		fn, kind, st := a[n-1], int(a[n-2]), a[n-3]
		args := a[:n-3]
		if kind == crMtgp {
			return m.curandMtgp(t, st, fn, pos)
		}
		// the generator's words: read them, step, write them back
		word := func() ([6]uint32, bool) {
			var w [6]uint32
			b, good := m.resolve(t, st, 24, pos, false, false)
			if !good {
				return w, false
			}
			for i := range w {
				w[i] = uint32(loadN(b[4*i:], 4))
			}
			return w, true
		}
		store := func(w [6]uint32) bool {
			b, good := m.resolve(t, st, 24, pos, true, false)
			if !good {
				return false
			}
			for i := range w {
				storeN(b[4*i:], 4, uint64(w[i]))
			}
			return true
		}
		skip := func(w *[6]uint32, k uint64) {
			if k > maxSkip {
				h := splitmix(uint64(w[1])<<32 | uint64(w[2]) ^ splitmix(k))
				w[1], w[2] = uint32(h), uint32(h>>32)|1
				k %= maxSkip
			}
			for ; k > 0; k-- {
				xorwow(w)
			}
		}
		switch fn {
		case 0: // curand_init(seed, subsequence, offset, state)
			var w [6]uint32
			h := splitmix(args[0] ^ splitmix(args[1]))
			for i := 1; i < 6; i++ {
				h = splitmix(h)
				w[i] = uint32(h)
			}
			if w[1]|w[2]|w[3]|w[4]|w[5] == 0 {
				w[1] = 1 // xorshift's one fixed point
			}
			w[0] = 6615241 + uint32(args[0]>>32)
			skip(&w, args[2])
			if !store(w) {
				return 0, stFault
			}
			return ok(0)
		case 9, 10: // skipahead(n, state), skipahead_sequence(n, state)
			w, good := word()
			if !good {
				return 0, stFault
			}
			k := args[0]
			if fn == 10 {
				k = splitmix(k) | maxSkip + 1 // a subsequence: far away
			}
			skip(&w, k)
			if !store(w) {
				return 0, stFault
			}
			return ok(0)
		}
		w, good := word()
		if !good {
			return 0, stFault
		}
		draw := func() uint32 { return xorwow(&w) }
		v := curandValue(fn, draw, args)
		if !store(w) {
			return 0, stFault
		}
		return ok(v)
	})
}

// xorwow advances the words (w[0] the Weyl counter, w[1:] the xorshift
// state) and returns the next value.
func xorwow(w *[6]uint32) uint32 {
	t := w[1] ^ w[1]>>2
	w[1], w[2], w[3], w[4] = w[2], w[3], w[4], w[5]
	w[5] = (w[5] ^ w[5]<<4) ^ (t ^ t<<1)
	w[0] += 362437
	return w[5] + w[0]
}

// curandValue is the value of function fn from draws.
func curandValue(fn uint64, draw func() uint32, args []uint64) uint64 {
	const inv32 = 1.0 / 4294967296.0
	uniform := func() float64 { return float64(draw())*inv32 + inv32/2 }
	normal := func() float64 {
		u1, u2 := uniform(), uniform()
		return math.Sqrt(-2*math.Log(u1)) * math.Cos(2*math.Pi*u2)
	}
	f32 := func(x float64) uint64 { return bits(float64(float32(x))) }
	switch fn {
	case 1:
		return uint64(draw())
	case 2:
		return f32(uniform())
	case 3:
		return bits(uniform())
	case 4:
		return f32(normal())
	case 5:
		return bits(normal())
	case 6:
		return f32(math.Exp(f64(args[0]) + f64(args[1])*normal()))
	case 7:
		return bits(math.Exp(f64(args[0]) + f64(args[1])*normal()))
	case 8:
		lambda := f64(args[0])
		if !(lambda > 0) {
			return 0
		}
		if lambda > 64 {
			// the normal approximation
			return uint64(max(0, math.Floor(lambda+math.Sqrt(lambda)*normal()+0.5)))
		}
		// Knuth: count the uniforms whose product stays above e^-lambda
		l, k, p := math.Exp(-lambda), uint64(0), 1.0
		for {
			p *= uniform()
			if p <= l {
				return k
			}
			k++
		}
	}
	return 0
}

// curandMtgp draws from an MTGP32 state: the calling thread's word, its
// linear index in the block modulo 256, is read and written.
func (m *Machine) curandMtgp(t *Thread, st uint64, fn uint64, pos int32) (uint64, status) {
	idx := uint64(0)
	if t.block != nil {
		idx = uint64(t.tid) & 255
	}
	p := st + 4*idx
	b, good := m.resolve(t, p, 4, pos, false, false)
	if !good {
		return 0, stFault
	}
	x := uint32(loadN(b, 4))
	b, good = m.resolve(t, p, 4, pos, true, false)
	if !good {
		return 0, stFault
	}
	draw := func() uint32 {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		if x == 0 {
			x = uint32(idx) + 0x6d2b79f5
		}
		return x * 0x9e3779b1
	}
	v := curandValue(fn, draw, nil)
	storeN(b, 4, uint64(x))
	return ok(v)
}
