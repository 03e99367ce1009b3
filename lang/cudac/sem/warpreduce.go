package sem

import "weft.dev/weft/lang/cudac/syntax"

// The warp reduce functions of compute capability 8.0 (CUDA C++
// Programming Guide, "Warp Reduce Functions"): __reduce_add_sync,
// __reduce_min_sync and __reduce_max_sync of an int or unsigned value,
// __reduce_and_sync, __reduce_or_sync and __reduce_xor_sync of an
// unsigned one. Each is the cooperative-groups reduction of the lanes of
// mask (cgcoal.go's warp operation, so every lane of the mask must call
// it, and a caller outside its mask is C0630, as the Guide leaves
// undefined), the sum wrapping in 32 bits.

var warpReduceOps map[string]int

// initWarpReduceOps builds warpReduceOps (tables.go).
func initWarpReduceOps() {
	warpReduceOps = map[string]int{"__reduce_add_sync": gPlus, "__reduce_min_sync": gLess, "__reduce_max_sync": gGreater,
		"__reduce_and_sync": gAnd, "__reduce_or_sync": gOr, "__reduce_xor_sync": gXor}
}

// warpReduceCall compiles __reduce_OP_sync(mask, value); ok false for
// other names.
func (c *compiler) warpReduceCall(name string, e *syntax.Call) (*Type, bool) {
	op, ok := warpReduceOps[name]
	if !ok {
		return nil, false
	}
	pos := e.Pos
	if len(e.Args) != 2 {
		c.errorf(pos, "C0304", "%s takes a mask and a value, %d arguments given", name, len(e.Args))
		c.emit(OpConst, 0, 0, pos)
		return tUInt, true
	}
	if !c.deviceOnly() {
		c.errorf(pos, "C0307", "%s is a device function", name)
		c.emit(OpConst, 0, 0, pos)
		return tUInt, true
	}
	c.convert(c.expr(e.Args[0]), tUInt, pos)
	vt := c.expr(e.Args[1])
	if !vt.isInt() {
		c.errorf(syntax.PosOf(e.Args[1]), "C0302", "%s of a value of type %s (int or unsigned)", name, vt)
	}
	// the int overloads of add, min and max where the value is signed;
	// and, or, xor have only the unsigned one
	et, kind := tUInt, gvUnsigned
	if vt.isSigned() && op <= gGreater {
		et, kind = tInt, gvSigned
	}
	c.convert(vt, et, pos)
	c.emit(OpConst, 0, int64(op|kind<<4|gmReduce<<8|et.size<<12), pos)
	c.emit(OpBuiltin, c.builtinIndexOf("cg/groupop", pos), 3, pos)
	return et, true
}
