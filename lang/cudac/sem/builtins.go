package sem

import (
	"strings"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/cudac/syntax"
)

// Built-in functions: the C library, math.h and the CUDA runtime and device
// intrinsics we model. The compiler checks a call against its signature and
// emits OpBuiltin with the index of the implementation (builtins_rt.go).

// Where a builtin may be called from.
const (
	anySide = iota
	deviceSide
	hostSide
)

type bsig struct {
	ret      *Type
	params   []*Type // nil: any scalar, passed as is
	variadic bool
	side     int
	defaults []int64 // values of trailing omitted arguments
}

var (
	tAny     *Type // marker for "any scalar"
	tVoidPP  = ptrTo(tVoidP)
	tIntP    = ptrTo(tInt)
	tFloatP  = ptrTo(tFloat)
	tStreamP = ptrTo(tLong)
)

func sig(ret *Type, side int, params ...*Type) *bsig {
	return &bsig{ret: ret, params: params, side: side}
}

func (s *bsig) def(vals ...int64) *bsig { s.defaults = vals; return s }
func (s *bsig) va() *bsig               { s.variadic = true; return s }

const fullMask = 0xffffffff

var builtinSigs map[string]*bsig

// initBuiltinSigs builds builtinSigs, first of the tables (tables.go).
func initBuiltinSigs() {
	builtinSigs = map[string]*bsig{
		// C library (host; printf also on the device)
		"printf":  sig(tInt, anySide, tCharP).va(),
		"fprintf": sig(tInt, hostSide, tAny, tCharP).va(),
		"sprintf": sig(tInt, hostSide, tCharP, tCharP).va(),
		"puts":    sig(tInt, hostSide, tCharP),
		"putchar": sig(tInt, hostSide, tInt),
		"fflush":  sig(tInt, hostSide, tAny),
		"malloc":  sig(tVoidP, anySide, tULong),
		"calloc":  sig(tVoidP, hostSide, tULong, tULong),
		"realloc": sig(tVoidP, hostSide, tVoidP, tULong),
		"free":    sig(tVoid, anySide, tVoidP),
		"memcpy":  sig(tVoidP, anySide, tVoidP, tVoidP, tULong),
		"memset":  sig(tVoidP, anySide, tVoidP, tInt, tULong),
		"memcmp":  sig(tInt, hostSide, tVoidP, tVoidP, tULong),
		"strlen":  sig(tULong, anySide, tCharP),
		"strcmp":  sig(tInt, anySide, tCharP, tCharP),
		"strcpy":  sig(tCharP, anySide, tCharP, tCharP),
		"exit":    sig(tVoid, hostSide, tInt),
		"abort":   sig(tVoid, hostSide),
		"assert":  sig(tVoid, anySide, tAny),
		"rand":    sig(tInt, hostSide),
		"srand":   sig(tVoid, hostSide, tUInt),
		"atoi":    sig(tInt, hostSide, tCharP),
		"atof":    sig(tDouble, hostSide, tCharP),
		"time":    sig(tLong, hostSide, tAny),
		"clock":   sig(tLong, anySide),
		"clock64": sig(tLLong, deviceSide),
		"labs":    sig(tLong, anySide, tLong),
		"llabs":   sig(tLLong, anySide, tLLong),

		// CUDA device intrinsics (seed 004 §2.6; CUDA Programming Guide)
		"__syncthreads":        sig(tVoid, deviceSide),
		"__syncthreads_count":  sig(tInt, deviceSide, tInt),
		"__syncthreads_and":    sig(tInt, deviceSide, tInt),
		"__syncthreads_or":     sig(tInt, deviceSide, tInt),
		"__syncwarp":           sig(tVoid, deviceSide, tUInt).def(fullMask),
		"__threadfence":        sig(tVoid, deviceSide),
		"__threadfence_block":  sig(tVoid, deviceSide),
		"__threadfence_system": sig(tVoid, deviceSide),
		"__ballot_sync":        sig(tUInt, deviceSide, tUInt, tInt),
		"__any_sync":           sig(tInt, deviceSide, tUInt, tInt),
		"__all_sync":           sig(tInt, deviceSide, tUInt, tInt),
		"__activemask":         sig(tUInt, deviceSide),
		"__popc":               sig(tInt, anySide, tUInt),
		"__popcll":             sig(tInt, anySide, tULLong),
		"__clz":                sig(tInt, anySide, tInt),
		"__clzll":              sig(tInt, anySide, tLLong),
		"__ffs":                sig(tInt, anySide, tInt),
		"__ffsll":              sig(tInt, anySide, tLLong),
		"__brev":               sig(tUInt, anySide, tUInt),
		"__mul24":              sig(tInt, anySide, tInt, tInt),
		"__umul24":             sig(tUInt, anySide, tUInt, tUInt),
		"__umulhi":             sig(tUInt, anySide, tUInt, tUInt),
		"__trap":               sig(tVoid, deviceSide),
		"__nanosleep":          sig(tVoid, deviceSide, tUInt),
		"__builtin_inff":       sig(tFloat, anySide),
		// GCC's prefetch hint (rw and locality constants): no observable effect
		"__builtin_prefetch":   sig(tVoid, anySide, tVoidP, tInt, tInt),
		"__builtin_nanf":       sig(tFloat, anySide),
		"__builtin_inf":        sig(tDouble, anySide),
		"__int_as_float":       sig(tFloat, anySide, tInt),
		"__float_as_int":       sig(tInt, anySide, tFloat),
		"__uint_as_float":      sig(tFloat, anySide, tUInt),
		"__float_as_uint":      sig(tUInt, anySide, tFloat),
		"__double_as_longlong": sig(tLLong, anySide, tDouble),
		"__longlong_as_double": sig(tDouble, anySide, tLLong),
		"__float2int_rn":       sig(tInt, anySide, tFloat),
		"__int2float_rn":       sig(tFloat, anySide, tInt),
		"__fdividef":           sig(tFloat, anySide, tFloat, tFloat),
		"__saturatef":          sig(tFloat, anySide, tFloat),

		// CUDA runtime API (host)
		"cudaMalloc":                sig(tInt, hostSide, tVoidPP, tULong),
		"cudaMallocHost":            sig(tInt, hostSide, tVoidPP, tULong),
		"cudaHostAlloc":             sig(tInt, hostSide, tVoidPP, tULong, tUInt),
		"cudaMallocManaged":         sig(tInt, hostSide, tVoidPP, tULong, tUInt).def(1),
		"cudaFree":                  sig(tInt, hostSide, tVoidP),
		"cudaFreeHost":              sig(tInt, hostSide, tVoidP),
		"cudaMemcpy":                sig(tInt, hostSide, tVoidP, tVoidP, tULong, tInt),
		"cudaMemcpyAsync":           sig(tInt, hostSide, tVoidP, tVoidP, tULong, tInt, tLong).def(0),
		"cudaMemset":                sig(tInt, hostSide, tVoidP, tInt, tULong),
		"cudaMemsetAsync":           sig(tInt, hostSide, tVoidP, tInt, tULong, tLong).def(0),
		"cudaMemcpyToSymbol":        sig(tInt, hostSide, tVoidP, tVoidP, tULong, tULong, tInt).def(0, 1),
		"cudaMemcpyFromSymbol":      sig(tInt, hostSide, tVoidP, tVoidP, tULong, tULong, tInt).def(0, 2),
		"cudaDeviceSynchronize":     sig(tInt, hostSide),
		"cudaThreadSynchronize":     sig(tInt, hostSide),
		"cudaDeviceReset":           sig(tInt, hostSide),
		"cudaGetLastError":          sig(tInt, hostSide),
		"cudaPeekAtLastError":       sig(tInt, hostSide),
		"cudaGetErrorString":        sig(tCharP, hostSide, tInt),
		"cudaGetErrorName":          sig(tCharP, hostSide, tInt),
		"cudaStreamCreate":          sig(tInt, hostSide, tStreamP),
		"cudaStreamCreateWithFlags": sig(tInt, hostSide, tStreamP, tUInt),
		"cudaStreamDestroy":         sig(tInt, hostSide, tLong),
		"cudaStreamSynchronize":     sig(tInt, hostSide, tLong),
		"cudaStreamQuery":           sig(tInt, hostSide, tLong),
		"cudaStreamWaitEvent":       sig(tInt, hostSide, tLong, tLong, tUInt).def(0),
		"cudaEventCreate":           sig(tInt, hostSide, tStreamP),
		"cudaEventCreateWithFlags":  sig(tInt, hostSide, tStreamP, tUInt),
		"cudaEventDestroy":          sig(tInt, hostSide, tLong),
		"cudaEventRecord":           sig(tInt, hostSide, tLong, tLong).def(0),
		"cudaEventSynchronize":      sig(tInt, hostSide, tLong),
		"cudaEventQuery":            sig(tInt, hostSide, tLong),
		"cudaEventElapsedTime":      sig(tInt, hostSide, tFloatP, tLong, tLong),
		"cudaGetDeviceCount":        sig(tInt, hostSide, tIntP),
		"cudaGetDevice":             sig(tInt, hostSide, tIntP),
		"cudaSetDevice":             sig(tInt, hostSide, tInt),
		"cudaGetDeviceProperties":   sig(tInt, hostSide, ptrTo(tDeviceProp), tInt),
	}
}

// mathFuncs are math.h functions of one or two floating arguments; the f
// suffix variants compute in float.
var mathFuncs map[string]int

// initMathFuncs builds mathFuncs (tables.go).
func initMathFuncs() {
	mathFuncs = map[string]int{
		"sqrt": 1, "cbrt": 1, "exp": 1, "exp2": 1, "expm1": 1, "log": 1, "log2": 1, "log10": 1, "log1p": 1,
		"sin": 1, "cos": 1, "tan": 1, "asin": 1, "acos": 1, "atan": 1, "sinh": 1, "cosh": 1, "tanh": 1,
		"fabs": 1, "floor": 1, "ceil": 1, "round": 1, "trunc": 1, "rint": 1, "nearbyint": 1, "erf": 1, "erfc": 1,
		"rsqrt": 1, "exp10": 1, "lgamma": 1, "tgamma": 1,
		"pow": 2, "atan2": 2, "fmod": 2, "fmin": 2, "fmax": 2, "hypot": 2, "copysign": 2, "fdim": 2, "remainder": 2,
		"fma": 3,
	}
}

// fastMath are the device intrinsics that are float math functions.
var fastMath map[string]string

// initFastMath builds fastMath (tables.go).
func initFastMath() {
	fastMath = map[string]string{
		"__expf": "exp", "__logf": "log", "__sinf": "sin", "__cosf": "cos", "__tanf": "tan",
		"__powf": "pow", "__log2f": "log2", "__log10f": "log10", "__exp10f": "exp10",
		"__fsqrt_rn": "sqrt", "__frsqrt_rn": "rsqrt", "__fmaf_rn": "fma",
	}
}

// genericBuiltins are type-generic: their result type follows their
// arguments, so the compiler handles them by name.
var genericBuiltins map[string]bool

// initGenericBuiltins builds genericBuiltins (tables.go).
func initGenericBuiltins() {
	genericBuiltins = map[string]bool{
		"min": true, "max": true, "abs": true, "umin": true, "umax": true, "llmin": true, "llmax": true,
		"__shfl_sync": true, "__shfl_up_sync": true, "__shfl_down_sync": true, "__shfl_xor_sync": true,
		"__shfl": true, "__shfl_up": true, "__shfl_down": true, "__shfl_xor": true, "__ldg": true,
	}
}

// classifyFuncs are the math.h classification macros (C99 7.12.3); they take
// any floating value and yield an int.
var classifyFuncs map[string]bool

// initClassifyFuncs builds classifyFuncs (tables.go).
func initClassifyFuncs() {
	classifyFuncs = map[string]bool{"isnan": true, "isinf": true, "isfinite": true, "signbit": true}
}

var atomicOps = []string{"Add", "Sub", "Exch", "Min", "Max", "Inc", "Dec", "CAS", "And", "Or", "Xor"}

func initBuiltins() {
	for _, op := range atomicOps {
		genericBuiltins["atomic"+op] = true
		genericBuiltins["atomic"+op+"_block"] = true
		genericBuiltins["atomic"+op+"_system"] = true
	}
	for name := range mathFuncs {
		genericBuiltins[name] = true
		genericBuiltins[name+"f"] = true
	}
	for name := range fastMath {
		genericBuiltins[name] = true
	}
	for name := range classifyFuncs {
		genericBuiltins[name] = true
	}
}

func (c *compiler) builtinIndexOf(name string, pos diag.Pos) int32 {
	i, ok := builtinIndex[name]
	if !ok {
		c.errorf(pos, "C0309", "no implementation of %s", name)
	}
	return i
}

func (c *compiler) builtinCall(name string, e *syntax.Call) *Type {
	pos := e.Pos
	if t := c.annotCall(name, e); t != nil {
		return t // annot.go
	}
	if name == "assert" {
		return c.assertCall(e) // assert.go
	}
	if t, ok := c.gccAtomicCall(name, e); ok {
		return t // gccatomic.go
	}
	if cdpAPI[name] && c.deviceOnly() {
		return c.cdpCall(name, e, pos) // cdp.go
	}
	switch {
	case strings.HasPrefix(name, "__cg_"):
		return c.cgCall(name, e)
	case strings.HasPrefix(name, "make_") && vectorTypes[name[5:]] != nil:
		return c.makeVector(vectorTypes[name[5:]], e.Args, pos)
	case isHalfFunc(name):
		return c.halfCall(name, e)
	}
	if name == "cudaLaunchKernelEx" {
		return c.launchEx(e)
	}
	if t, ok := c.stdCall(name, e); ok {
		return t
	}
	if t, ok := c.algCall(name, e); ok { // lib_algorithm.go
		return t
	}
	if name == "swap" {
		return c.swapCall(e)
	}
	if s := builtinSigs[name]; s != nil {
		switch {
		case s.side == deviceSide && c.hostOnly():
			c.errorf(pos, "C0307", "%s can only be called from device code", name)
		case s.side == hostSide && c.deviceOnly():
			c.errorf(pos, "C0307", "%s can only be called from host code", name)
		}
		n := len(e.Args)
		min := len(s.params) - len(s.defaults)
		if n < min || (n > len(s.params) && !s.variadic) {
			c.errorf(pos, "C0304", "%s takes %d arguments, %d given", name, len(s.params), n)
		}
		for i, a := range e.Args {
			if (name == "cudaMemcpyToSymbol" && i == 0) || (name == "cudaMemcpyFromSymbol" && i == 1) {
				c.symbolArg(a)
				continue
			}
			at := c.expr(a)
			if i < len(s.params) && s.params[i] != nil {
				pt := s.params[i]
				if pt.Kind == Ptr && at.Kind == Ptr {
					continue // C converts object pointers implicitly through void*
				}
				c.convert(at, pt, syntax.PosOf(a))
			} else if at.Kind == Struct || at.Kind == Void {
				c.errorf(syntax.PosOf(a), "C0302", "argument of type %s to %s", at, name)
			}
		}
		for i := n; i < len(s.params) && i-min >= 0 && i-min < len(s.defaults); i++ {
			c.emit(OpConst, 0, s.defaults[i-min], pos)
			n++
		}
		c.emit(OpBuiltin, c.builtinIndexOf(name, pos), int64(n), pos)
		return s.ret
	}
	if !genericBuiltins[name] {
		c.errorf(pos, "C0301", "undeclared function %s", name)
		for _, a := range e.Args {
			c.typeOf(a, true)
		}
		c.emit(OpConst, 0, 0, pos)
		return tInt
	}
	argc := func(n int) bool {
		if len(e.Args) != n {
			c.errorf(pos, "C0304", "%s takes %d arguments, %d given", name, n, len(e.Args))
			for range e.Args {
			}
			c.emit(OpConst, 0, 0, pos)
			return false
		}
		return true
	}
	switch {
	case len(name) > 6 && name[:6] == "atomic":
		return c.atomicCall(name, e)
	case name == "__ldg":
		if !argc(1) {
			return tInt
		}
		t := c.expr(e.Args[0])
		if t.Kind != Ptr {
			c.errorf(pos, "C0302", "__ldg of a non-pointer")
			return tInt
		}
		return c.load(lval{t: t.Elem, slot: -1}, pos)
	case name == "min" || name == "max" || name == "umin" || name == "umax" || name == "llmin" || name == "llmax":
		if !argc(2) {
			return tInt
		}
		tx := c.expr(e.Args[0])
		ty := c.expr(e.Args[1])
		ct := arithType(tx, ty)
		c.convert(ty, ct, pos)
		if needsConvert(tx, ct) {
			c.emit(OpSwap, 0, 0, pos)
			c.convert(tx, ct, pos)
			c.emit(OpSwap, 0, 0, pos)
		}
		kind := "i"
		switch {
		case ct.isFloat():
			kind = "f"
		case !ct.isSigned():
			kind = "u"
		}
		op := "min"
		if name[len(name)-3:] == "max" {
			op = "max"
		}
		c.emit(OpBuiltin, c.builtinIndexOf(op+"/"+kind, pos), 2, pos)
		return ct
	case name == "abs":
		if !argc(1) {
			return tInt
		}
		t := promote(c.expr(e.Args[0]))
		if t.isFloat() {
			c.emit(OpBuiltin, c.builtinIndexOf("fabs", pos), 1, pos)
			return t
		}
		c.emit(OpBuiltin, c.builtinIndexOf("abs", pos), 1, pos)
		c.normalize(t, pos)
		return t
	case classifyFuncs[name]:
		if !argc(1) {
			return tInt
		}
		c.convert(c.expr(e.Args[0]), tDouble, syntax.PosOf(e.Args[0]))
		c.emit(OpBuiltin, c.builtinIndexOf("class/"+name, pos), 1, pos)
		return tInt
	case len(name) >= 6 && name[:6] == "__shfl":
		return c.shuffleCall(name, e)
	}
	// math
	base, f32 := name, false
	if m, ok := fastMath[name]; ok {
		base, f32 = m, true
	} else if _, ok := mathFuncs[name]; !ok {
		base, f32 = name[:len(name)-1], true
	}
	n := mathFuncs[base]
	if !argc(n) {
		return tDouble
	}
	rt := tDouble
	if f32 {
		rt = tFloat
	}
	for _, a := range e.Args {
		at := c.expr(a)
		c.convert(at, tDouble, syntax.PosOf(a))
	}
	c.emit(OpBuiltin, c.builtinIndexOf("math/"+base, pos), int64(n), pos)
	if f32 {
		c.emit(OpF2F32, 0, 0, pos)
	}
	return rt
}

// symbolArg pushes the address of a __constant__ or __device__ variable
// named as a cudaMemcpy*Symbol argument.
func (c *compiler) symbolArg(a syntax.Expr) {
	if n, ok := a.(*syntax.Name); ok {
		if s := c.lookup(n.Name); s != nil && s.kind == symGlobal {
			c.emit(OpGlobal, int32(s.idx), 0, n.Pos)
			return
		}
	}
	c.errorf(syntax.PosOf(a), "C0607", "the symbol argument must name a __device__ or __constant__ variable")
	c.emit(OpConst, 0, 0, syntax.PosOf(a))
}

func (c *compiler) atomicCall(name string, e *syntax.Call) *Type {
	pos := e.Pos
	if c.hostOnly() {
		c.errorf(pos, "C0307", "%s can only be called from device code", name)
	}
	op := name[6:]
	for _, sfx := range []string{"_block", "_system"} {
		if len(op) > len(sfx) && op[len(op)-len(sfx):] == sfx {
			op = op[:len(op)-len(sfx)]
		}
	}
	want := 2
	if op == "CAS" {
		want = 3
	}
	if len(e.Args) != want {
		c.errorf(pos, "C0304", "%s takes %d arguments, %d given", name, want, len(e.Args))
		c.emit(OpConst, 0, 0, pos)
		return tInt
	}
	pt := c.expr(e.Args[0])
	if pt.Kind != Ptr || !(pt.Elem.isInt() || pt.Elem.isFloat()) || pt.Elem.size < 4 {
		c.errorf(syntax.PosOf(e.Args[0]), "C0302", "%s needs a pointer to a 32- or 64-bit integer or float, not %s", name, pt)
		c.emit(OpConst, 0, 0, pos)
		return tInt
	}
	et := pt.Elem
	if et.isFloat() && op != "Add" && op != "Exch" && op != "Sub" {
		c.errorf(pos, "C0302", "%s is not defined for %s", name, et)
	}
	for _, a := range e.Args[1:] {
		at := c.expr(a)
		c.convert(at, et, syntax.PosOf(a))
	}
	c.emit(OpBuiltin, c.builtinIndexOf("atomic"+op+"/"+string(rune('0'+memCode(et))), pos), int64(want), pos)
	return et
}

func (c *compiler) shuffleCall(name string, e *syntax.Call) *Type {
	pos := e.Pos
	if c.hostOnly() {
		c.errorf(pos, "C0307", "%s can only be called from device code", name)
	}
	args := e.Args
	sync := len(name) > 5 && name[len(name)-5:] == "_sync"
	kind := name
	if sync {
		kind = name[:len(name)-5]
	}
	min := 3
	if !sync {
		min = 2
	}
	if len(args) < min || len(args) > min+1 {
		c.errorf(pos, "C0304", "%s takes %d or %d arguments, %d given", name, min, min+1, len(args))
		c.emit(OpConst, 0, 0, pos)
		return tInt
	}
	if sync {
		t := c.expr(args[0])
		c.convert(t, tUInt, pos)
		args = args[1:]
	} else {
		c.emit(OpConst, 0, fullMask, pos)
	}
	vt := c.expr(args[0])
	if !vt.isArith() {
		c.errorf(pos, "C0302", "%s of a value of type %s", name, vt)
	}
	t := c.expr(args[1])
	c.convert(t, tInt, pos)
	if len(args) > 2 {
		t = c.expr(args[2])
		c.convert(t, tInt, pos)
	} else {
		c.emit(OpConst, 0, 32, pos)
	}
	c.emit(OpBuiltin, c.builtinIndexOf(kind, pos), 4, pos)
	return vt
}
