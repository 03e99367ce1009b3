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
// threads, or two blocks on one state, race). The same functions run in
// whole programs (<curand_kernel.h>). XORWOW and Philox4_32_10 draw
// cuRAND's sequences (curand_gen.go says how exactly); MTGP32 words
// advance by a xorshift, deterministic and pseudo-random but not
// cuRAND's MTGP32.

// curand state kinds
const (
	crXorwow = iota + 1 // XORWOW (and MRG32k3a, Sobol: drawn as XORWOW): one state per thread
	crMtgp              // MTGP32: one state per block
	crPhilox            // Philox4_32_10: one state per thread
)

// CurandTypes is the source of the state types (syntax/curand.go, where
// <curand_kernel.h> serves it to every program).
const CurandTypes = syntax.CurandTypes

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
var curandFn map[string]int64

// initCurandFn builds curandFn (tables.go).
func initCurandFn() {
	curandFn = map[string]int64{
		"curand_init": 0, "curand": 1, "curand_uniform": 2, "curand_uniform_double": 3,
		"curand_normal": 4, "curand_normal_double": 5, "curand_log_normal": 6, "curand_log_normal_double": 7,
		"curand_poisson": 8, "skipahead": 9, "skipahead_sequence": 10,
	}
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
	case name == "curandStatePhilox4_32_10":
		return crPhilox
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

func initCurand() {
	builtinSigs["__weft_curand"] = sig(tLong, deviceSide).va()
	defb("__weft_curand", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		n := len(a)
		fn, kind, st := a[n-1], int(a[n-2]), a[n-3]
		args := a[:n-3]
		if kind == crMtgp {
			return m.curandMtgp(t, st, fn, pos)
		}
		size := crXorwowSize
		if kind == crPhilox {
			size = crPhiloxSize
		}
		// the state: read it, run the function, write it back (a
		// checked access of the whole state: two threads sharing one race)
		var g *curandGen
		if fn == 0 {
			g = &curandGen{kind: kind} // curand_init only writes the state
		} else {
			b, good := m.resolve(t, st, size, pos, false, false)
			if !good {
				return 0, stFault
			}
			g = newCurandGen(kind, b)
		}
		v := g.call(fn, args)
		b, good := m.resolve(t, st, size, pos, true, false)
		if !good {
			return 0, stFault
		}
		g.save(b)
		return ok(v)
	})
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
	var v uint64
	switch fn {
	case 1:
		v = uint64(draw())
	case 2:
		v = bits(float64(uniform32(draw())))
	case 4:
		// Box-Muller's sine branch (the pair is not kept: the word is
		// the thread's only state)
		u := uniform32(draw())
		w := float64(uniform32(draw())) * 2 * math.Pi
		v = bits(float64(float32(math.Sqrt(-2*math.Log(float64(u))) * math.Sin(w))))
	}
	storeN(b, 4, uint64(x))
	return ok(v)
}
