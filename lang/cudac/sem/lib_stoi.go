package sem

import (
	"math"

	"weft.dev/weft/lang/cudac/lib"
	"weft.dev/weft/lang/cudac/syntax"
)

// <string>'s numeric conversions (C++17 [string.conversions]):
// std::stoi, stol, stoll, stoul, stoull (strtol/strtoul with a base,
// default 10) and stof, stod, stold (strtof/strtod), with the index of
// the first unconverted character through pos. No conversion throws
// std::invalid_argument and a value out of the type's range
// std::out_of_range, each with the function's name as what(), as
// libstdc++ does: a real throw when the program declares those classes
// (<stdexcept>, <exception>, <iostream> ...), so a catch handles it;
// otherwise the exception could not be caught by its type, and the run
// ends as an uncaught throw does (C0604).

type stoSpec struct {
	ret    *Type
	signed bool
	bits   int
	float  int // 0 integer, 32 or 64
}

var stoFuncs map[string]stoSpec

// initStoFuncs builds stoFuncs (tables.go).
func initStoFuncs() {
	stoFuncs = map[string]stoSpec{
		"stoi": {tInt, true, 32, 0}, "stol": {tLong, true, 64, 0}, "stoll": {tLLong, true, 64, 0},
		"stoul": {tULong, false, 64, 0}, "stoull": {tULLong, false, 64, 0},
		"stof": {tFloat, true, 0, 32}, "stod": {tDouble, true, 0, 64}, "stold": {tDouble, true, 0, 64},
	}
}

// stoCall compiles std::stoi(s[, pos[, base]]) and its siblings.
func (c *compiler) stoCall(name string, e *syntax.Call) (*Type, bool) {
	short := name
	if len(name) > 5 && name[:5] == "std::" {
		short = name[5:]
	}
	spec, ok := stoFuncs[short]
	if !ok || c.lookup(name) != nil {
		return nil, false
	}
	pos := e.Pos
	c.stdHostOnly(pos)
	maxArgs := 3
	if spec.float != 0 {
		maxArgs = 2
	}
	if len(e.Args) < 1 || len(e.Args) > maxArgs {
		c.errorf(pos, "C0304", "std::%s takes 1 to %d arguments, %d given", short, maxArgs, len(e.Args))
		c.emit(OpConst, 0, 0, pos)
		return spec.ret, true
	}
	c.stringArg(e.Args[0], pos)
	if len(e.Args) > 1 {
		c.convert(c.expr(e.Args[1]), tVoidP, pos)
	} else {
		c.emit(OpConst, 0, 0, pos)
	}
	if len(e.Args) > 2 {
		c.convert(c.expr(e.Args[2]), tInt, pos)
	} else {
		c.emit(OpConst, 0, 10, pos)
	}
	// which of the two exception classes the program declares
	throws := int64(0)
	if c.lookupTag("invalid_argument") != nil && c.lookupTag("out_of_range") != nil {
		throws = 1
	}
	c.emit(OpConst, 0, int64(spec.bits)|int64(spec.float)<<8|int64(b2u(spec.signed))<<16|throws<<17, pos)
	c.stdBuiltin("__sto", 5, pos)
	ret := spec.ret
	if spec.float == 32 {
		c.convert(tDouble, tFloat, pos) // (the builtin answers a double)
	}
	if throws == 0 {
		return ret, true
	}
	// status 1: invalid_argument, 2: out_of_range (kept by __sto)
	for k, cls := range []string{"invalid_argument", "out_of_range"} {
		c.stdBuiltin("__sto_status", 0, pos)
		c.emit(OpConst, 0, int64(k+1), pos)
		c.emit(OpEq, 0, 0, pos)
		j := c.emit(OpJz, 0, 0, pos)
		c.throwExpr(&syntax.Throw{Pos: pos, X: &syntax.Cast{Pos: pos, Type: &syntax.TypeExpr{Kind: syntax.TNamed, Name: cls, Pos: pos},
			X: &syntax.StringLitExpr{Pos: pos, Value: short}}})
		c.emit(OpPop, 0, 0, pos)
		c.patch(j)
	}
	return ret, true
}

func initLibStoi() {
	builtinSigs["__sto"] = sig(tLong, hostSide, tAny, tAny, tAny, tAny, tAny)
	builtinSigs["__sto_status"] = sig(tInt, hostSide)
	defb("__sto_status", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		return ok(uint64(m.libSt().stoStatus))
	})
	defb("__sto", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		// (string, its kind, pos pointer, base, spec bits)
		var s []byte
		if a[1] == 1 {
			b, _, good := m.stdBytes(t, a[0], 1, pos)
			if !good {
				return 0, stFault
			}
			s = b
		} else {
			str, good := m.cstring(t, a[0], pos)
			if !good {
				return 0, stFault
			}
			s = []byte(str)
		}
		spec := a[4]
		bits, fl, signed, throws := int(spec&0xff), int(spec>>8&0xff), spec>>16&1 == 1, spec>>17&1 == 1
		st := m.libSt()
		st.stoStatus = 0
		var v uint64
		var n int
		var rangeErr bool
		if fl != 0 {
			x, used, over := lib.StrToFloat(s)
			n, rangeErr = used, over
			if fl == 32 && used > 0 && !over {
				f := float32(x)
				rangeErr = math.IsInf(float64(f), 0) && !math.IsInf(x, 0) || f == 0 && x != 0
			}
			v = bits64(x)
		} else {
			base := int(int32(a[3]))
			if base != 0 && (base < 2 || base > 36) {
				base = -1
			}
			if base >= 0 {
				// strtol/strtoul at 64 bits, then the type's range
				x, used, over := lib.StrToInt(s, base, signed, 64)
				n, rangeErr = used, over
				if signed && bits == 32 && (int64(x) > math.MaxInt32 || int64(x) < math.MinInt32) {
					rangeErr = true
				}
				v = x
			}
		}
		name := map[[2]int]string{{32, 0}: "stoi", {64, 0}: "stol", {0, 32}: "stof", {0, 64}: "stod"}[[2]int{bits, fl}]
		if !signed {
			name = "stoul"
		}
		switch {
		case n == 0:
			st.stoStatus = 1
		case rangeErr:
			st.stoStatus = 2
		}
		if st.stoStatus != 0 && !throws {
			cls := map[int]string{1: "std::invalid_argument", 2: "std::out_of_range"}[st.stoStatus]
			m.fault(t, pos, "C0604", "std::%s throws %s (what(): %q), which nothing can catch by its type here (declare it: #include <stdexcept>); the run ends as an uncaught throw does", name, cls, name)
			return 0, stFault
		}
		if a[2] != 0 && st.stoStatus == 0 && !m.store(t, a[2], mU64, uint64(n), pos) {
			return 0, stFault
		}
		return ok(v)
	})
}

func bits64(x float64) uint64 { return math.Float64bits(x) }
