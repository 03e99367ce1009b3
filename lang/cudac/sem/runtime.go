package sem

import (
	"fmt"
	"math"
	mbits "math/bits"
	"strconv"
	"strings"

	"weft.dev/weft/lang/cudac/lib"
)

// The run-time side of the builtins: each takes its arguments as stack
// values and returns one value and a status (stBlocked suspends the thread
// at a barrier or warp collective; its result is pushed at release).

type builtinFn func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status)

type builtinDef struct {
	name string
	fn   builtinFn
}

var (
	builtinTable []builtinDef
	builtinIndex = map[string]int32{}
)

func defb(name string, fn builtinFn) {
	if strings.HasPrefix(name, "cuda") {
		// no CUDA API call inside a stream's host function (hostfn.go)
		inner := fn
		fn = func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
			if m.inHostFn {
				return m.hostFnAPI(t, pos, name)
			}
			// a sticky error (a failed device assert, assert.go) fails
			// every later runtime call, and the synchronizing call that
			// ran the failing kernel; cudaDeviceReset clears it
			if m.sticky != 0 {
				if v, fail := m.stickyResult(name); fail {
					return v, stDone
				}
			}
			v, s := inner(m, t, a, pos)
			if m.sticky != 0 && s == stDone {
				if name == "cudaDeviceReset" {
					m.sticky, m.lastErr = 0, 0
				} else if v, fail := m.stickyResult(name); fail {
					return v, stDone
				}
			}
			return v, s
		}
	}
	builtinIndex[name] = int32(len(builtinTable))
	builtinTable = append(builtinTable, builtinDef{name: name, fn: fn})
}

func ok(v uint64) (uint64, status) { return v, stDone }

// Barrier kinds (t.barKind).
const (
	barPlain = iota
	barCount
	barAnd
	barOr
)

// Warp collectives (t.warpOp).
const (
	wShfl = iota
	wShflUp
	wShflDown
	wShflXor
	wBallot
	wAny
	wAll
	wSyncwarp
	wMma // mma.sync (asm.go)
)

var warpOpNames = []string{"__shfl_sync", "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync",
	"__ballot_sync", "__any_sync", "__all_sync", "__syncwarp", "mma.sync/ldmatrix",
	"cooperative_groups::coalesced_threads", "cooperative_groups::labeled_partition/binary_partition", "cooperative_groups::reduce/inclusive_scan/exclusive_scan"}

// cudaError_t values and names for the errors we produce.
var cudaErrors map[int]string

// initCudaErrors builds cudaErrors (tables.go).
func initCudaErrors() {
	cudaErrors = map[int]string{
		0: "cudaSuccess", 1: "cudaErrorInvalidValue", 2: "cudaErrorMemoryAllocation",
		9: "cudaErrorInvalidConfiguration", 17: "cudaErrorInvalidDevicePointer",
		21: "cudaErrorInvalidMemcpyDirection", 26: "cudaErrorInvalidFilterSetting", 400: "cudaErrorInvalidResourceHandle", 600: "cudaErrorNotReady",
	}
}

var cudaErrorText map[int]string

// initCudaErrorText builds cudaErrorText (tables.go).
func initCudaErrorText() {
	cudaErrorText = map[int]string{
		0: "no error", 1: "invalid argument", 2: "out of memory", 9: "invalid configuration argument",
		17: "invalid device pointer", 21: "invalid copy direction for memcpy", 26: "invalid filter setting",
		400: "invalid resource handle", 600: "device not ready",
	}
}

// putFormatted stores formatted text s at dst as the printf family's
// string forms do (C11 7.21.6.5-6): at most size-1 characters and a
// terminating NUL, nothing when size is 0 (sprintf and vsprintf pass an
// unbounded size). size is the program's size_t, so (size_t)-1 is
// unbounded too.
func (m *Machine) putFormatted(t *Thread, dst, size uint64, s string, pos int32) bool {
	if size == 0 {
		return true
	}
	w := uint64(len(s))
	if w > size-1 {
		w = size - 1
	}
	b, good := m.resolve(t, dst, int(w)+1, pos, true, false)
	if !good {
		return false
	}
	copy(b, s[:w])
	b[w] = 0
	return true
}

func initRuntime() {
	defb("printf", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		s, good := m.format(t, a[0], a[1:], pos)
		if !good {
			return 0, stFault
		}
		m.out.WriteString(s)
		return ok(uint64(len(s)))
	})
	defb("fprintf", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		s, good := m.format(t, a[1], a[2:], pos)
		if !good {
			return 0, stFault
		}
		if !m.writeStream(t, a[0], []byte(s), pos) {
			return 0, stFault
		}
		return ok(uint64(len(s)))
	})
	defb("sprintf", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		s, good := m.format(t, a[1], a[2:], pos)
		if !good || !m.putFormatted(t, a[0], 1<<62, s, pos) {
			return 0, stFault
		}
		return ok(uint64(len(s)))
	})
	defb("puts", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		s, good := m.cstring(t, a[0], pos)
		if !good {
			return 0, stFault
		}
		m.out.WriteString(s + "\n")
		return ok(0)
	})
	defb("putchar", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		m.out.WriteByte(byte(a[0]))
		return ok(a[0])
	})
	defb("fflush", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if a[0] == 0 || a[0] == 1 {
			m.out.Flush()
		}
		return ok(0)
	})
	defb("malloc", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		return m.alloc(t, a[0], false, pos)
	})
	defb("calloc", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if hi, n := mbits.Mul64(a[0], a[1]); hi == 0 {
			return m.alloc(t, n, true, pos)
		}
		return ok(0) // the product overflows: allocation failure (C11 7.22.3.2)
	})
	defb("realloc", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		p, s := m.alloc(t, a[1], false, pos)
		if s != stDone || a[0] == 0 {
			return p, s
		}
		if a[0]>>32 >= uint64(len(m.objs)) {
			return m.free(t, a[0], SpaceHost, "free", pos)
		}
		old := m.objs[a[0]>>32]
		if old.Freed {
			m.fault(t, pos, "C0404", "use of %s after it was freed", old.describe())
			return 0, stFault
		}
		n := len(old.Data)
		if int(a[1]) < n {
			n = int(a[1])
		}
		if !m.copyMem(t, p, a[0], n, pos, false) {
			return 0, stFault
		}
		if _, s := m.free(t, a[0], SpaceHost, "free", pos); s != stDone {
			return 0, s
		}
		return ok(p)
	})
	defb("free", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		sp := SpaceHost
		if !t.host {
			sp = SpaceDevice
		}
		return m.free(t, a[0], sp, "free", pos)
	})
	defb("memcpy", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if !m.copyMem(t, a[0], a[1], int(a[2]), pos, false) {
			return 0, stFault
		}
		return ok(a[0])
	})
	defb("memset", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if !m.setMem(t, a[0], byte(a[1]), int(a[2]), pos, false) {
			return 0, stFault
		}
		return ok(a[0])
	})
	defb("memcmp", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		x, good := m.resolve(t, a[0], int(a[2]), pos, false, false)
		if !good {
			return 0, stFault
		}
		y, good := m.resolve(t, a[1], int(a[2]), pos, false, false)
		if !good {
			return 0, stFault
		}
		return ok(uint64(int64(strings.Compare(string(x), string(y)))))
	})
	defb("strlen", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		s, good := m.cstring(t, a[0], pos)
		if !good {
			return 0, stFault
		}
		return ok(uint64(len(s)))
	})
	defb("strcmp", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		x, y, good := m.cstrings(t, a[0], a[1], pos)
		if !good {
			return 0, stFault
		}
		return ok(uint64(int64(strings.Compare(x, y))))
	})
	defb("strcpy", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		s, good := m.cstring(t, a[1], pos)
		if !good {
			return 0, stFault
		}
		b, good := m.resolve(t, a[0], len(s)+1, pos, true, false)
		if !good {
			return 0, stFault
		}
		copy(b, s)
		b[len(s)] = 0
		return ok(a[0])
	})
	defb("exit", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		m.exited = true
		m.exitCode = int(int32(a[0]))
		return 0, stFault
	})
	defb("abort", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		m.fault(t, pos, "C0604", "the program called abort()")
		return 0, stFault
	})
	defb("__trap", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		m.fault(t, pos, "C0604", "__trap() executed")
		return 0, stFault
	})
	defb("assert", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if a[0] == 0 {
			m.fault(t, pos, "C0602", "assertion failed")
			return 0, stFault
		}
		return ok(0)
	})
	defb("rand", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		return ok(uint64(m.crand.next()))
	})
	defb("srand", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		m.crand.seed(uint32(a[0]))
		return ok(0)
	})
	defb("atoi", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		s, good := m.cstring(t, a[0], pos)
		if !good {
			return 0, stFault
		}
		s = strings.TrimSpace(s)
		end := 0
		for end < len(s) && (s[end] >= '0' && s[end] <= '9' || end == 0 && (s[0] == '-' || s[0] == '+')) {
			end++
		}
		v, _ := strconv.ParseInt(s[:end], 10, 32)
		return ok(uint64(v))
	})
	defb("atof", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		s, good := m.cstring(t, a[0], pos)
		if !good {
			return 0, stFault
		}
		v, _ := strconv.ParseFloat(strings.TrimSpace(s), 64)
		return ok(bits(v))
	})
	defb("time", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		// the wall clock's seconds since the epoch the run starts at (lib_cstring.go)
		sec := m.wallNs() / 1e9
		if a[0] != 0 && !m.store(t, a[0], mU64, sec, pos) {
			return 0, stFault
		}
		return ok(sec)
	})
	// clock() and clock64() count interpreted instructions: deterministic.
	// a thread that reads the clock is not a function of its state and
	// memory: it may be waiting for time to pass (spin.go)
	defb("clock", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) { t.cyc = nil; return ok(m.steps) })
	defb("clock64", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) { t.cyc = nil; return ok(m.steps) })
	defb("labs", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if int64(a[0]) < 0 {
			return ok(-a[0])
		}
		return ok(a[0])
	})
	builtinIndex["llabs"] = builtinIndex["labs"]
	builtinIndex["abs"] = builtinIndex["labs"]
	for _, k := range []string{"i", "u", "f"} {
		k := k
		for _, op := range []string{"min", "max"} {
			isMax := op == "max"
			defb(op+"/"+k, func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
				var less bool
				switch k {
				case "i":
					less = int64(a[0]) < int64(a[1])
				case "u":
					less = a[0] < a[1]
				default:
					x, y := f64(a[0]), f64(a[1])
					if x != x {
						return ok(a[1])
					}
					if y != y {
						return ok(a[0])
					}
					less = x < y
				}
				if less != isMax {
					return ok(a[0])
				}
				return ok(a[1])
			})
		}
	}
	defb("fabs", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		return ok(bits(math.Abs(f64(a[0]))))
	})
	for name, n := range mathFuncs {
		f := mathImpl(name, n)
		hf := f
		// a host thread computes glibc's values (lib/libm.go)
		if h, isLibm := lib.HostMath1(name); isLibm {
			hf = func(a []uint64) float64 { return h(f64(a[0])) }
		} else if h, isLibm := lib.HostMath2(name); isLibm {
			hf = func(a []uint64) float64 { return h(f64(a[0]), f64(a[1])) }
		}
		defb("math/"+name, func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
			if t == nil || t.host {
				return ok(bits(hf(a)))
			}
			return ok(bits(f(a)))
		})
	}
	for name, f := range map[string]func(float64) bool{
		"isnan":    math.IsNaN,
		"isinf":    func(x float64) bool { return math.IsInf(x, 0) },
		"isfinite": func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) },
		"signbit":  math.Signbit,
	} {
		defb("class/"+name, func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
			return ok(b2u(f(f64(a[0]))))
		})
	}
	exp10Host, _ := lib.HostMath1("exp10")
	defb("math/exp10", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if t == nil || t.host {
			return ok(bits(exp10Host(f64(a[0]))))
		}
		return ok(bits(math.Pow(10, f64(a[0]))))
	})

	// bit and conversion intrinsics
	defb("__popc", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		return ok(uint64(mbits.OnesCount32(uint32(a[0]))))
	})
	defb("__popcll", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		return ok(uint64(mbits.OnesCount64(a[0])))
	})
	defb("__clz", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		return ok(uint64(mbits.LeadingZeros32(uint32(a[0]))))
	})
	defb("__clzll", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		return ok(uint64(mbits.LeadingZeros64(a[0])))
	})
	defb("__ffs", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if uint32(a[0]) == 0 {
			return ok(0)
		}
		return ok(uint64(mbits.TrailingZeros32(uint32(a[0])) + 1))
	})
	defb("__ffsll", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if a[0] == 0 {
			return ok(0)
		}
		return ok(uint64(mbits.TrailingZeros64(a[0]) + 1))
	})
	defb("__brev", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		return ok(uint64(mbits.Reverse32(uint32(a[0]))))
	})
	defb("__mul24", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		x := int64(int32(uint32(a[0])<<8) >> 8)
		y := int64(int32(uint32(a[1])<<8) >> 8)
		return ok(uint64(int64(int32(x * y))))
	})
	defb("__umul24", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		return ok(uint64(uint32((a[0] & 0xffffff) * (a[1] & 0xffffff))))
	})
	defb("__umulhi", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		return ok((a[0] & 0xffffffff) * (a[1] & 0xffffffff) >> 32)
	})
	defb("__nanosleep", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) { return ok(0) })
	defb("__builtin_prefetch", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) { return ok(0) })
	defb("__builtin_inff", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) { return ok(bits(math.Inf(1))) })
	defb("__builtin_inf", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) { return ok(bits(math.Inf(1))) })
	defb("__builtin_nanf", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) { return ok(bits(math.NaN())) })
	defb("__int_as_float", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		return ok(bits(float64(math.Float32frombits(uint32(a[0])))))
	})
	builtinIndex["__uint_as_float"] = builtinIndex["__int_as_float"]
	defb("__float_as_int", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		return ok(uint64(int64(int32(math.Float32bits(float32(f64(a[0])))))))
	})
	defb("__float_as_uint", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		return ok(uint64(math.Float32bits(float32(f64(a[0])))))
	})
	defb("__double_as_longlong", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) { return ok(a[0]) })
	builtinIndex["__longlong_as_double"] = builtinIndex["__double_as_longlong"]
	defb("__float2int_rn", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		return ok(uint64(int64(int32(math.RoundToEven(f64(a[0]))))))
	})
	defb("__int2float_rn", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		return ok(bits(float64(float32(int64(a[0])))))
	})
	defb("__fdividef", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		return ok(bits(float64(float32(f64(a[0])) / float32(f64(a[1])))))
	})
	defb("__saturatef", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		x := f64(a[0])
		if x != x || x < 0 {
			x = 0
		} else if x > 1 {
			x = 1
		}
		return ok(bits(x))
	})

	// synchronization (seed 004 §2.6)
	bar := func(kind int) builtinFn {
		return func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
			t.state, t.barKind, t.waitPos = tsBarrier, kind, pos
			t.syncs++
			if len(a) > 0 {
				t.pred = a[0]
			}
			return 0, stBlocked
		}
	}
	defb("__syncthreads", bar(barPlain))
	defb("__syncthreads_count", bar(barCount))
	defb("__syncthreads_and", bar(barAnd))
	defb("__syncthreads_or", bar(barOr))
	defb("__threadfence", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		m.fence(t, fenceGPU)
		return ok(0)
	})
	defb("__threadfence_block", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		m.fence(t, fenceCTA)
		return ok(0)
	})
	builtinIndex["__threadfence_system"] = builtinIndex["__threadfence"]
	warp := func(op int) builtinFn {
		return func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
			t.state, t.warpOp, t.waitPos = tsWarp, op, pos
			t.syncs++
			copy(t.wargs[:], a)
			return 0, stBlocked
		}
	}
	defb("__shfl", warp(wShfl))
	defb("__shfl_up", warp(wShflUp))
	defb("__shfl_down", warp(wShflDown))
	defb("__shfl_xor", warp(wShflXor))
	defb("__ballot_sync", warp(wBallot))
	defb("__any_sync", warp(wAny))
	defb("__all_sync", warp(wAll))
	defb("__syncwarp", warp(wSyncwarp))
	defb("__activemask", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		b := t.block
		w := int(t.tid) / 32
		var mask uint64
		for l := 0; l < 32 && w*32+l < len(b.threads); l++ {
			if b.threads[w*32+l].state != tsDone {
				mask |= 1 << l
			}
		}
		return ok(mask)
	})

	// atomics: every variant by operation and memory code
	for _, op := range atomicOps {
		for _, mc := range []int{mI32, mU32, mU64, mF32, mF64} {
			op, mc := op, mc
			defb("atomic"+op+"/"+string(rune('0'+mc)), func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
				return m.atomic(t, op, mc, a, pos)
			})
		}
	}

	defineCudaAPI()
}

func mathImpl(name string, n int) func(a []uint64) float64 {
	x := func(a []uint64, i int) float64 { return f64(a[i]) }
	f1 := map[string]func(float64) float64{
		"sqrt": math.Sqrt, "cbrt": math.Cbrt, "exp": math.Exp, "exp2": math.Exp2, "expm1": math.Expm1,
		"log": math.Log, "log2": math.Log2, "log10": math.Log10, "log1p": math.Log1p,
		"sin": math.Sin, "cos": math.Cos, "tan": math.Tan, "asin": math.Asin, "acos": math.Acos, "atan": math.Atan,
		"sinh": math.Sinh, "cosh": math.Cosh, "tanh": math.Tanh, "fabs": math.Abs, "floor": math.Floor,
		"ceil": math.Ceil, "round": math.Round, "trunc": math.Trunc, "rint": math.RoundToEven,
		"nearbyint": math.RoundToEven, "erf": math.Erf, "erfc": math.Erfc,
		"rsqrt":  func(v float64) float64 { return 1 / math.Sqrt(v) },
		"exp10":  func(v float64) float64 { return math.Pow(10, v) },
		"lgamma": func(v float64) float64 { r, _ := math.Lgamma(v); return r },
		"tgamma": math.Gamma,
	}
	f2 := map[string]func(float64, float64) float64{
		"pow": math.Pow, "atan2": math.Atan2, "fmod": math.Mod, "fmin": math.Min, "fmax": math.Max,
		"hypot": math.Hypot, "copysign": math.Copysign, "fdim": math.Dim, "remainder": math.Remainder,
	}
	switch n {
	case 1:
		f := f1[name]
		return func(a []uint64) float64 { return f(x(a, 0)) }
	case 2:
		f := f2[name]
		return func(a []uint64) float64 { return f(x(a, 0), x(a, 1)) }
	}
	return func(a []uint64) float64 { return math.FMA(x(a, 0), x(a, 1), x(a, 2)) }
}

// atomic performs one read-modify-write; the race check sees an atomic
// write, and two atomics never race (issue 6 §4).
func (m *Machine) atomic(t *Thread, op string, mc int, a []uint64, pos int32) (uint64, status) {
	size := mSize[mc]
	b, good := m.resolveA(t, a[0], size, pos, true, false, true)
	if !good {
		return 0, stFault
	}
	old := fromMem(mc, loadN(b, size))
	m.atomicSync(t, a[0])
	v := a[1]
	var nv uint64
	isF := mc == mF32 || mc == mF64
	signed := mc == mI32
	switch op {
	case "Add":
		if isF {
			nv = bits(f64(old) + f64(v))
		} else {
			nv = old + v
		}
	case "Sub":
		if isF {
			nv = bits(f64(old) - f64(v))
		} else {
			nv = old - v
		}
	case "Exch":
		nv = v
	case "Min", "Max":
		less := old < v
		if signed {
			less = int64(old) < int64(v)
		}
		if less == (op == "Min") {
			nv = old
		} else {
			nv = v
		}
	case "Inc": // ((old >= v) ? 0 : (old+1)), unsigned
		if uint32(old) >= uint32(v) {
			nv = 0
		} else {
			nv = old + 1
		}
	case "Dec": // (((old == 0) || (old > v)) ? v : (old-1))
		if uint32(old) == 0 || uint32(old) > uint32(v) {
			nv = v
		} else {
			nv = old - 1
		}
	case "CAS":
		if old == v {
			nv = a[2]
		} else {
			nv = old
		}
	case "And":
		nv = old & v
	case "Or":
		nv = old | v
	case "Xor":
		nv = old ^ v
	}
	raw := loadN(b, size)
	storeN(b, size, toMem(mc, nv))
	if loadN(b, size) != raw {
		m.mver++ // a failed atomicCAS or an exchange of the same value is no progress
	}
	return ok(old)
}

func (m *Machine) alloc(t *Thread, n uint64, zero bool, pos int32) (uint64, status) {
	if n >= 1<<31 { // offsets are signed 32-bit (OpPtrAdd)
		return ok(0) // allocation failure, as malloc reports it
	}
	sp := SpaceHost
	if !t.host {
		sp = SpaceDevice
	}
	o := m.newObject(int(n), sp, "", pos)
	if m.failed { // over the memory limit
		return 0, stFault
	}
	o.Heap = true
	if zero {
		o.init.setAll()
	}
	return ok(ptrOf(o, 0))
}

// free releases a heap object of the given space (free/cudaFree/cudaFreeHost).
func (m *Machine) free(t *Thread, p uint64, sp Space, fn string, pos int32) (uint64, status) {
	if p == 0 {
		return ok(0)
	}
	id := p >> 32
	if id >= uint64(len(m.objs)) || int32(uint32(p)) != 0 || !m.objs[id].Heap {
		m.fault(t, pos, "C0406", "%s of a pointer that was not returned by the matching allocation function", fn)
		return 0, stFault
	}
	o := m.objs[id]
	if o.Freed {
		m.fault(t, pos, "C0406", "double %s of %s", fn, o.describe())
		return 0, stFault
	}
	if o.Space != sp && !(sp == SpaceHost && o.registered) {
		m.fault(t, pos, "C0406", "%s of %s", fn, o.describe())
		return 0, stFault
	}
	m.release(o)
	return ok(0)
}

// ---- printf ----

// format implements C printf conversions over raw argument values.
func (m *Machine) format(t *Thread, fmtp uint64, args []uint64, pos int32) (string, bool) {
	f, good := m.cstring(t, fmtp, pos)
	if !good {
		return "", false
	}
	var b strings.Builder
	ai := 0
	next := func() (uint64, bool) {
		if ai >= len(args) {
			m.fault(t, pos, "C0302", "printf format %q needs more arguments than the %d given", f, len(args))
			return 0, false
		}
		ai++
		return args[ai-1], true
	}
	for i := 0; i < len(f); i++ {
		ch := f[i]
		if ch != '%' {
			b.WriteByte(ch)
			continue
		}
		i++
		if i >= len(f) {
			b.WriteByte('%')
			break
		}
		if f[i] == '%' {
			b.WriteByte('%')
			continue
		}
		// flags, width, precision
		spec := "%"
		for i < len(f) && strings.IndexByte("-+ #0", f[i]) >= 0 {
			spec += string(f[i])
			i++
		}
		for i < len(f) && (f[i] >= '0' && f[i] <= '9' || f[i] == '*') {
			if f[i] == '*' {
				v, good := next()
				if !good {
					return "", false
				}
				spec += strconv.Itoa(int(int32(v)))
			} else {
				spec += string(f[i])
			}
			i++
		}
		prec := -1
		if i < len(f) && f[i] == '.' {
			spec += "."
			i++
			p := 0
			for i < len(f) && (f[i] >= '0' && f[i] <= '9' || f[i] == '*') {
				if f[i] == '*' {
					v, good := next()
					if !good {
						return "", false
					}
					p = int(int32(v))
				} else {
					p = p*10 + int(f[i]-'0')
				}
				i++
			}
			prec = p
			spec += strconv.Itoa(p)
		}
		long := 0
		for i < len(f) && strings.IndexByte("hlLqjzt", f[i]) >= 0 {
			if f[i] == 'l' || f[i] == 'L' || f[i] == 'q' || f[i] == 'j' || f[i] == 'z' || f[i] == 't' {
				long++
			}
			i++
		}
		if i >= len(f) {
			b.WriteString(spec)
			break
		}
		conv := f[i]
		if conv == 'n' {
			continue
		}
		v, good := next()
		if !good {
			return "", false
		}
		switch conv {
		case 'd', 'i':
			x := int64(v)
			if long == 0 {
				x = int64(int32(v))
			}
			if prec >= 0 {
				b.WriteString(cIntPrec(spec, strconv.FormatInt(abs64(x), 10), x < 0))
			} else {
				fmt.Fprintf(&b, spec+"d", x)
			}
		case 'u', 'x', 'X', 'o':
			x := v
			if long == 0 {
				x = uint64(uint32(v))
			}
			gc := map[byte]string{'u': "d", 'x': "x", 'X': "X", 'o': "o"}[conv]
			if strings.Contains(spec, "#") && (conv == 'x' || conv == 'X') && x == 0 {
				spec = strings.ReplaceAll(spec, "#", "")
			}
			fmt.Fprintf(&b, spec+gc, x)
		case 'c':
			fmt.Fprintf(&b, strings.Split(spec, ".")[0]+"c", rune(byte(v)))
		case 's':
			s, good := m.cstring(t, v, pos)
			if !good {
				return "", false
			}
			fmt.Fprintf(&b, spec+"s", s)
		case 'p':
			if v == 0 {
				b.WriteString("(nil)") // as glibc prints a null pointer
			} else {
				fmt.Fprintf(&b, "0x%x", v)
			}
		case 'f', 'F', 'e', 'E', 'g', 'G', 'a', 'A':
			x := f64(v)
			if math.IsInf(x, 0) || math.IsNaN(x) {
				s := "inf"
				if math.IsNaN(x) {
					s = "nan"
				}
				// C11 7.21.6.1p6, p8: the sign, '+' or ' ' as for a
				// number; the width pads with spaces (the 0 flag is for
				// digits), on the left unless '-'. Only the flags lose
				// their zeros: the width's stay (%10f printed "inf")
				body := strings.TrimPrefix(spec, "%")
				flags := body[:len(body)-len(strings.TrimLeft(body, "-+ #0"))]
				width := strings.Split(body[len(flags):], ".")[0]
				switch {
				case math.Signbit(x):
					s = "-" + s
				case strings.Contains(flags, "+"):
					s = "+" + s
				case strings.Contains(flags, " "):
					s = " " + s
				}
				if conv >= 'A' && conv <= 'Z' {
					s = strings.ToUpper(s)
				}
				left := ""
				if strings.Contains(flags, "-") {
					left = "-"
				}
				fmt.Fprintf(&b, "%"+left+width+"s", s)
				continue
			}
			if prec < 0 && conv != 'a' && conv != 'A' {
				spec += ".6"
			}
			gc := string(conv)
			if conv == 'F' {
				gc = "f"
			}
			if conv == 'a' || conv == 'A' {
				b.WriteString(cFormatA(spec, conv == 'A', x))
				continue
			}
			if (conv == 'g' || conv == 'G') && !strings.Contains(spec, "#") {
				b.WriteString(cFormatG(spec, gc, x))
				continue
			}
			fmt.Fprintf(&b, spec+gc, x)
		default:
			b.WriteString(spec + string(conv))
		}
	}
	return b.String(), true
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// cIntPrec formats an integer with a C precision (minimum digits).
func cIntPrec(spec, digits string, neg bool) string {
	parts := strings.SplitN(spec[1:], ".", 2)
	p, _ := strconv.Atoi(parts[1])
	if p == 0 && digits == "0" {
		digits = ""
	}
	for len(digits) < p {
		digits = "0" + digits
	}
	flags := strings.TrimRight(parts[0], "0123456789")
	width, _ := strconv.Atoi(strings.TrimLeft(parts[0], "-+ #0"))
	if neg {
		digits = "-" + digits
	} else if strings.Contains(flags, "+") {
		digits = "+" + digits
	} else if strings.Contains(flags, " ") {
		digits = " " + digits
	}
	for len(digits) < width {
		if strings.Contains(flags, "-") {
			digits += " "
		} else {
			digits = " " + digits
		}
	}
	return digits
}

// cFormatG is C's %g: Go's %g keeps the shortest representation instead of
// dropping trailing zeros from a fixed precision, so format the digits with
// strconv and strip as C does.
func cFormatG(spec, gc string, x float64) string {
	parts := strings.SplitN(spec[1:], ".", 2)
	p, _ := strconv.Atoi(parts[1])
	if p == 0 {
		p = 1
	}
	exp := 0
	if x != 0 {
		e := strconv.FormatFloat(math.Abs(x), 'e', p-1, 64)
		exp, _ = strconv.Atoi(e[strings.IndexByte(e, 'e')+1:])
	}
	var s string
	if exp < -4 || exp >= p {
		s = strconv.FormatFloat(x, 'e', p-1, 64)
		mant, ex, _ := strings.Cut(s, "e")
		if strings.Contains(mant, ".") {
			mant = strings.TrimRight(strings.TrimRight(mant, "0"), ".")
		}
		if len(ex) == 2 { // e+5 -> e+05
			ex = ex[:1] + "0" + ex[1:]
		}
		s = mant + "e" + ex
	} else {
		s = strconv.FormatFloat(x, 'f', p-1-exp, 64)
		if strings.Contains(s, ".") {
			s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
		}
	}
	if gc == "G" {
		s = strings.ToUpper(s)
	}
	flags := strings.TrimRight(parts[0], "0123456789")
	if x >= 0 && strings.Contains(flags, "+") {
		s = "+" + s
	} else if x >= 0 && strings.Contains(flags, " ") {
		s = " " + s
	}
	width, _ := strconv.Atoi(strings.TrimLeft(parts[0], "-+ #0"))
	for len(s) < width {
		switch {
		case strings.Contains(flags, "-"):
			s += " "
		case strings.Contains(flags, "0"):
			if s[0] == '-' || s[0] == '+' {
				s = s[:1] + "0" + s[1:]
			} else {
				s = "0" + s
			}
		default:
			s = " " + s
		}
	}
	return s
}

// cFormatA formats x as glibc's %a does (C11 7.21.6.1p8): "0x1.8p+0",
// the exponent with as few digits as it needs (Go's %x gives two), a
// subnormal as "0x0.<hex>p-1022", zeros of the '0' flag after "0x".
func cFormatA(spec string, upper bool, x float64) string {
	body := spec[1:]
	prec := -1
	if i := strings.IndexByte(body, '.'); i >= 0 {
		prec, _ = strconv.Atoi(body[i+1:])
		body = body[:i]
	}
	flags := body[:len(body)-len(strings.TrimLeft(body, "-+ #0"))]
	width, _ := strconv.Atoi(strings.TrimLeft(body, "-+ #0"))
	neg := math.Signbit(x)
	ax := math.Abs(x)
	// the leading digit (1, or 0 for zero and subnormals), 52 fraction
	// bits as 13 hex digits, and the binary exponent
	bits := math.Float64bits(ax)
	frac, e := bits&(1<<52-1), int(bits>>52)-1023
	lead := uint64(1)
	switch {
	case ax == 0:
		lead, e = 0, 0
	case bits>>52 == 0:
		lead, e = 0, -1022
	}
	m := lead<<52 | frac
	fd := 13
	if prec >= 0 && prec < 13 {
		// round to prec hex digits, to nearest, ties to even
		sh := uint(4 * (13 - prec))
		keep, rem, half := m>>sh, m&(1<<sh-1), uint64(1)<<(sh-1)
		if rem > half || rem == half && keep&1 == 1 {
			keep++
		}
		m, fd = keep<<sh, prec
	}
	fs := fmt.Sprintf("%013x", m&(1<<52-1))
	if prec < 0 {
		fs = strings.TrimRight(fs, "0")
	} else if prec > 13 {
		fs += strings.Repeat("0", prec-13)
	} else {
		fs = fs[:fd]
	}
	digits := strconv.FormatUint(m>>52, 16)
	if fs != "" {
		digits += "." + fs
	}
	digits += "p" + map[bool]string{true: "-", false: "+"}[e < 0] + strconv.Itoa(max(e, -e))
	if strings.Contains(flags, "#") && !strings.Contains(digits, ".") {
		i := strings.IndexByte(digits, 'p')
		digits = digits[:i] + "." + digits[i:]
	}
	pre := "0x"
	switch {
	case neg:
		pre = "-0x"
	case strings.Contains(flags, "+"):
		pre = "+0x"
	case strings.Contains(flags, " "):
		pre = " 0x"
	}
	for len(pre)+len(digits) < width {
		switch {
		case strings.Contains(flags, "-"):
			digits += " "
		case strings.Contains(flags, "0"):
			digits = "0" + digits
		default:
			pre = " " + pre
		}
	}
	s := pre + digits
	if upper {
		s = strings.ToUpper(s)
	}
	return s
}

// ---- glibc rand() ----

// crand reproduces glibc's random() (TYPE_3 additive feedback generator),
// so that host programs calling rand() print what they print on Linux.
type crand struct {
	r    [34 + 310 + 1]int32
	i    int
	init bool
	out  []int32
	pos  int
}

func (c *crand) seed(s uint32) {
	if s == 0 {
		s = 1
	}
	var r [344]int32
	r[0] = int32(s)
	for i := 1; i < 31; i++ {
		// r[i] = (16807 * r[i-1]) % 2147483647 computed without overflow
		hi := int64(r[i-1]) / 127773
		lo := int64(r[i-1]) % 127773
		word := 16807*lo - 2836*hi
		if word < 0 {
			word += 2147483647
		}
		r[i] = int32(word)
	}
	for i := 31; i < 34; i++ {
		r[i] = r[i-31]
	}
	c.out = c.out[:0]
	state := r[:34]
	for i := 34; i < 344; i++ {
		state = append(state, int32(uint32(state[i-31])+uint32(state[i-3])))
	}
	c.out = append(c.out, state...)
	c.pos = 344
	c.init = true
}

func (c *crand) next() int32 {
	if !c.init {
		c.seed(1)
	}
	k := len(c.out)
	v := int32(uint32(c.out[k-31]) + uint32(c.out[k-3]))
	c.out = append(c.out, v)
	if len(c.out) > 4096 {
		c.out = append(c.out[:0], c.out[len(c.out)-34:]...)
	}
	return int32(uint32(v) >> 1)
}
