package sem

import (
	"math"
	"math/big"
	"strings"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/cudac/syntax"
)

// The functions of cuda_fp16.h and cuda_bf16.h. The scalar ones are
// overloaded on __half and __nv_bfloat16 as in CUDA, so they are compiled by
// name: the type of the first argument picks the precision. The paired
// (half2, nv_bfloat162) ones apply the scalar operation lane by lane.

// halfConv are the conversions: the result type of each.
var halfConv map[string]*Type

// initHalfConv builds halfConv (tables.go).
func initHalfConv() {
	halfConv = map[string]*Type{
		"__float2half": tHalf, "__float2half_rn": tHalf, "__double2half": tHalf, "__int2half_rn": tHalf,
		"__uint2half_rn": tHalf, "__short2half_rn": tHalf, "__ll2half_rn": tHalf,
		"__half2float": tFloat, "__half2int_rz": tInt, "__half2uint_rz": tUInt, "__half2ll_rz": tLLong,
		"__float2bfloat16": tBF16, "__float2bfloat16_rn": tBF16, "__double2bfloat16": tBF16, "__int2bfloat16_rn": tBF16,
		"__bfloat162float": tFloat, "__bfloat162int_rz": tInt,
	}
}

// halfArith are the scalar operations and their C operator.
var halfArith map[string]string

// initHalfArith builds halfArith (tables.go).
func initHalfArith() {
	halfArith = map[string]string{
		"__hadd": "+", "__hsub": "-", "__hmul": "*", "__hdiv": "/",
		"__heq": "==", "__hne": "!=", "__hlt": "<", "__hle": "<=", "__hgt": ">", "__hge": ">=",
		"__hadd2": "+", "__hsub2": "-", "__hmul2": "*", "__h2div": "/",
	}
}

var halfMath map[string]string

// initHalfMath builds halfMath (tables.go).
func initHalfMath() {
	halfMath = map[string]string{"hsqrt": "sqrt", "hrsqrt": "rsqrt", "hexp": "exp", "hlog": "log", "hsin": "sin", "hcos": "cos",
		"hfloor": "floor", "hceil": "ceil", "htrunc": "trunc", "hrint": "rint", "hexp2": "exp2", "hlog2": "log2",
		"h2sqrt": "sqrt", "h2exp": "exp", "h2log": "log"}
}

var halfOther map[string]bool

// initHalfOther builds halfOther (tables.go).
func initHalfOther() {
	halfOther = map[string]bool{
		"__hneg": true, "__habs": true, "__hmax": true, "__hmin": true, "__hfma": true, "__hisnan": true, "__hisinf": true,
		"__hneg2": true, "__habs2": true, "__hfma2": true, "__hmax2": true, "__hmin2": true,
		"__halves2half2": true, "make_half2": true, "__floats2half2_rn": true, "__float2half2_rn": true, "__half2half2": true,
		"__low2half": true, "__high2half": true, "__low2float": true, "__high2float": true,
		"__half22float2": true, "__float22half2_rn": true,
		"__halves2bfloat162": true, "make_bfloat162": true, "__floats2bfloat162_rn": true, "__float2bfloat162_rn": true,
		"__bfloat162bfloat162": true, "__low2bfloat16": true, "__high2bfloat16": true, "__bfloat1622float2": true,
		"__float22bfloat162_rn": true,
		"__half_as_ushort":      true, "__ushort_as_half": true, "__half_as_short": true, "__short_as_half": true,
		"__bfloat16_as_ushort": true, "__ushort_as_bfloat16": true,
	}
}

func isHalfFunc(name string) bool {
	return halfConv[name] != nil || halfArith[name] != "" || halfMath[name] != "" || halfOther[name]
}

// halfScalar is the precision a call works in: the scalar type of its first
// argument (or of that argument's lanes).
func (c *compiler) halfScalar(a syntax.Expr) *Type {
	t := c.typeOf(a, true)
	if t.vec != nil {
		t = t.vec
	}
	if !t.isHalf() {
		return tHalf
	}
	return t
}

func (c *compiler) halfCall(name string, e *syntax.Call) *Type {
	pos := e.Pos
	args := e.Args
	nargs := func(n int) bool {
		if len(args) != n {
			c.errorf(pos, "C0304", "%s takes %d arguments, %d given", name, n, len(args))
			c.emit(OpConst, 0, 0, pos)
			return false
		}
		return true
	}
	h2 := vectorTypes["__half2"]
	b2 := vectorTypes["__nv_bfloat162"]
	if rt := halfConv[name]; rt != nil {
		if !nargs(1) {
			return rt
		}
		at := c.expr(args[0])
		c.convert(at, rt, syntax.PosOf(args[0]))
		return rt
	}
	if op := halfArith[name]; op != "" {
		if !nargs(2) {
			return tHalf
		}
		ht := c.halfScalar(args[0])
		if strings.HasSuffix(name, "2") || name == "__h2div" {
			vt := h2
			if ht.Kind == BF16 {
				vt = b2
			}
			return c.lanes(vt, args, pos, func(load func(int) *Type) *Type {
				c.convert(load(0), ht, pos)
				c.convert(load(1), ht, pos)
				return c.arith(op, ht, ht, pos)
			})
		}
		at := c.expr(args[0])
		c.convert(at, ht, pos)
		bt := c.expr(args[1])
		c.convert(bt, ht, pos)
		rt := c.arith(op, ht, ht, pos)
		if rt == tInt {
			return tBool
		}
		return rt
	}
	if fn := halfMath[name]; fn != "" {
		if !nargs(1) {
			return tHalf
		}
		ht := c.halfScalar(args[0])
		one := func(load func(int) *Type) *Type {
			c.convert(load(0), tDouble, pos)
			c.emit(OpBuiltin, c.builtinIndexOf("math/"+fn, pos), 1, pos)
			c.roundTo(ht, pos)
			return ht
		}
		if strings.HasPrefix(name, "h2") {
			vt := h2
			if ht.Kind == BF16 {
				vt = b2
			}
			return c.lanes(vt, args, pos, one)
		}
		return c.lanes(nil, args, pos, one)
	}
	switch name {
	case "__hneg", "__habs", "__hneg2", "__habs2":
		if !nargs(1) {
			return tHalf
		}
		ht := c.halfScalar(args[0])
		var vt *Type
		if strings.HasSuffix(name, "2") {
			vt = h2
			if ht.Kind == BF16 {
				vt = b2
			}
		}
		return c.lanes(vt, args, pos, func(load func(int) *Type) *Type {
			c.convert(load(0), ht, pos)
			if strings.HasPrefix(name, "__hneg") {
				c.emit(OpFNeg, 0, 0, pos)
			} else {
				c.emit(OpBuiltin, c.builtinIndexOf("fabs", pos), 1, pos)
			}
			return ht
		})
	case "__hmax", "__hmin", "__hmax2", "__hmin2":
		if !nargs(2) {
			return tHalf
		}
		ht := c.halfScalar(args[0])
		var vt *Type
		if strings.HasSuffix(name, "2") {
			vt = h2
			if ht.Kind == BF16 {
				vt = b2
			}
		}
		return c.lanes(vt, args, pos, func(load func(int) *Type) *Type {
			c.convert(load(0), ht, pos)
			c.convert(load(1), ht, pos)
			c.emit(OpBuiltin, c.builtinIndexOf(name[3:6]+"/f", pos), 2, pos)
			return ht
		})
	case "__hfma", "__hfma2":
		if !nargs(3) {
			return tHalf
		}
		ht := c.halfScalar(args[0])
		var vt *Type
		if name == "__hfma2" {
			vt = h2
			if ht.Kind == BF16 {
				vt = b2
			}
		}
		return c.lanes(vt, args, pos, func(load func(int) *Type) *Type {
			for i := 0; i < 3; i++ {
				c.convert(load(i), ht, pos)
			}
			c.emit(OpConst, 0, int64(b2u(ht.Kind == BF16)), pos)
			c.emit(OpBuiltin, c.builtinIndexOf("h/fma", pos), 4, pos)
			return ht
		})
	case "__hisnan", "__hisinf":
		if !nargs(1) {
			return tInt
		}
		c.convert(c.expr(args[0]), tDouble, pos)
		c.emit(OpBuiltin, c.builtinIndexOf("class/"+name[3:], pos), 1, pos)
		return tBool
	case "__halves2half2", "make_half2", "__floats2half2_rn", "__half2half2", "__float2half2_rn", "__float22half2_rn",
		"__halves2bfloat162", "make_bfloat162", "__floats2bfloat162_rn", "__bfloat162bfloat162", "__float2bfloat162_rn", "__float22bfloat162_rn":
		vt := h2
		if strings.Contains(name, "bfloat") {
			vt = b2
		}
		one := map[string]bool{"__half2half2": true, "__float2half2_rn": true, "__float22half2_rn": true,
			"__bfloat162bfloat162": true, "__float2bfloat162_rn": true, "__float22bfloat162_rn": true}
		if !nargs(map[bool]int{true: 1, false: 2}[one[name]]) {
			return vt
		}
		return c.lanes(vt, args, pos, func(load func(int) *Type) *Type {
			if len(args) == 2 {
				return load(-1)
			}
			return load(0)
		})
	case "__low2half", "__high2half", "__low2float", "__high2float", "__low2bfloat16", "__high2bfloat16":
		if !nargs(1) {
			return tHalf
		}
		t := c.expr(args[0])
		if t.vec == nil || !t.vec.isHalf() {
			c.errorf(pos, "C0302", "%s of %s", name, t)
			return tHalf
		}
		if strings.HasPrefix(name, "__high") {
			c.emit(OpConst, 0, 2, pos)
			c.emit(OpPtrAdd, 1, 0, pos)
		}
		c.emit(OpLoad, int32(memCode(t.vec)), 0, pos)
		if strings.HasSuffix(name, "float") {
			return tFloat
		}
		return t.vec
	case "__half22float2", "__bfloat1622float2":
		if !nargs(1) {
			return tFloat
		}
		return c.lanes(vectorTypes["float2"], args, pos, func(load func(int) *Type) *Type { return load(0) })
	case "__half_as_ushort", "__half_as_short", "__bfloat16_as_ushort":
		if !nargs(1) {
			return tUShort
		}
		from := tHalf
		if strings.Contains(name, "bfloat") {
			from = tBF16
		}
		c.convert(c.expr(args[0]), from, pos)
		c.emit(OpBuiltin, c.builtinIndexOf("h/bits", pos), 1, pos)
		c.emit(OpConst, 0, int64(b2u(from == tBF16)), pos)
		c.emit(OpBuiltin, c.builtinIndexOf("h/tobits", pos), 2, pos)
		if name == "__half_as_short" {
			c.emit(OpExt, 16, 1, pos)
			return tShort
		}
		return tUShort
	case "__ushort_as_half", "__short_as_half", "__ushort_as_bfloat16":
		if !nargs(1) {
			return tHalf
		}
		to := tHalf
		if strings.Contains(name, "bfloat") {
			to = tBF16
		}
		c.convert(c.expr(args[0]), tUShort, pos)
		c.emit(OpConst, 0, int64(b2u(to == tBF16)), pos)
		c.emit(OpBuiltin, c.builtinIndexOf("h/frombits", pos), 2, pos)
		return to
	}
	c.errorf(pos, "C0309", "%s is not modeled", name)
	c.emit(OpConst, 0, 0, pos)
	return tHalf
}

// lanes evaluates each argument once, then computes each lane of a vector
// result of type vt with f, which pushes the lane's value (load(i) pushes
// lane k of argument i, or argument i itself when it is a scalar; load(-1)
// pushes argument k). With vt nil the result is the scalar f computes.
func (c *compiler) lanes(vt *Type, args []syntax.Expr, pos diag.Pos, f func(load func(int) *Type) *Type) *Type {
	slots := make([]int, len(args))
	types := make([]*Type, len(args))
	for i, a := range args {
		types[i] = c.expr(a)
		slots[i] = c.newSlot()
		c.emit(OpSetLocal, int32(slots[i]), 0, pos)
		c.emit(OpPop, 0, 0, pos)
	}
	lane := 0
	load := func(i int) *Type {
		if i < 0 {
			i = lane
		}
		if i >= len(args) {
			c.emit(OpConst, 0, 0, pos)
			return tInt
		}
		c.emit(OpLocal, int32(slots[i]), 0, pos)
		t := types[i]
		if t.Kind == Struct {
			if t.vec == nil || lane >= len(t.Fields) {
				c.errorf(syntax.PosOf(args[i]), "C0302", "argument of type %s", t)
				return tInt
			}
			fi := t.Fields[lane]
			c.emit(OpConst, 0, int64(fi.Offset), pos)
			c.emit(OpPtrAdd, 1, 0, pos)
			c.emit(OpLoad, int32(memCode(fi.Type)), 0, pos)
			return fi.Type
		}
		return t
	}
	if vt == nil {
		return f(load)
	}
	c.emit(OpTemp, 0, int64(vt.size), pos)
	for k, fi := range vt.Fields {
		lane = k
		c.emit(OpDup, 0, 0, pos)
		c.emit(OpConst, 0, int64(fi.Offset), pos)
		c.emit(OpPtrAdd, 1, 0, pos)
		rt := f(load)
		c.convert(rt, fi.Type, pos)
		c.emit(OpStore, int32(memCode(fi.Type)), 0, pos)
		c.emit(OpPop, 0, 0, pos)
	}
	return vt
}

// fmaHalf is a*b+c rounded once to __half (bf false) or __nv_bfloat16.
// The double fma is correctly rounded; when it lands exactly on a tie of
// the narrow type but is inexact, the exact sign of the remainder decides.
func fmaHalf(a, b, c float64, bf bool) float64 {
	round := roundHalf
	if bf {
		round = roundBF16
	}
	s := math.FMA(a, b, c)
	r := round(s)
	if math.IsInf(s, 0) || math.IsNaN(s) || round(math.Nextafter(s, math.Inf(1))) == round(math.Nextafter(s, math.Inf(-1))) {
		return r // not on a tie of the narrow type
	}
	exact := new(big.Float).SetPrec(256).SetFloat64(a)
	exact.Mul(exact, new(big.Float).SetPrec(256).SetFloat64(b))
	exact.Add(exact, new(big.Float).SetPrec(256).SetFloat64(c))
	d := exact.Cmp(new(big.Float).SetFloat64(s))
	if d == 0 {
		return r
	}
	// nudge s one ulp toward the exact value: only a tie can change
	if d > 0 {
		return round(math.Nextafter(s, math.Inf(1)))
	}
	return round(math.Nextafter(s, math.Inf(-1)))
}

func initHalfops() {
	defb("h/fma", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		return ok(bits(fmaHalf(f64(a[0]), f64(a[1]), f64(a[2]), a[3] != 0)))
	})
	defb("h/bits", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) { return ok(a[0]) })
	defb("h/tobits", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if a[1] != 0 {
			return ok(uint64(bf16Bits(f64(a[0]))))
		}
		return ok(uint64(halfBits(f64(a[0]))))
	})
	defb("h/frombits", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if a[1] != 0 {
			return ok(bits(bf16FromBits(uint16(a[0]))))
		}
		return ok(bits(halfFromBits(uint16(a[0]))))
	})
}
