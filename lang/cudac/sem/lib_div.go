package sem

import (
	"fmt"

	"weft.dev/weft/lang/cudac/syntax"
)

// <cstdlib>'s div, ldiv and lldiv (C11 7.22.6.2): the quotient and
// remainder of one division, truncated toward zero, as a div_t, ldiv_t or
// lldiv_t {quot, rem}. Each operand is evaluated once; division by zero
// is the same fault as x / 0 (the quotient is not representable: C11
// leaves it undefined).

var (
	tDivT   = structOf("div_t", "quot", tInt, "rem", tInt)
	tLDivT  = structOf("ldiv_t", "quot", tLong, "rem", tLong)
	tLLDivT = structOf("lldiv_t", "quot", tLLong, "rem", tLLong)
)

func initLibDiv() {
	builtinTypedefs["div_t"] = tDivT
	builtinTypedefs["ldiv_t"] = tLDivT
	builtinTypedefs["lldiv_t"] = tLLDivT
}

// divCall compiles div(x, y), ldiv, lldiv (also std::).
func (c *compiler) divCall(name string, e *syntax.Call) (*Type, bool) {
	var rt, ot *Type
	switch name {
	case "div", "std::div":
		rt, ot = tDivT, tInt
	case "ldiv", "std::ldiv":
		rt, ot = tLDivT, tLong
	case "lldiv", "std::lldiv":
		rt, ot = tLLDivT, tLLong
	default:
		return nil, false
	}
	if c.lookup(name) != nil || c.funcs[name] != nil {
		return nil, false // the program's own
	}
	pos := e.Pos
	if len(e.Args) != 2 {
		c.errorf(pos, "C0304", "%s takes 2 arguments, %d given", name, len(e.Args))
		c.emit(OpConst, 0, 0, pos)
		return rt, true
	}
	var names [2]syntax.Expr
	for i, a := range e.Args {
		at := c.expr(a)
		if !at.isInt() {
			c.errorf(syntax.PosOf(a), "C0302", "argument of type %s to %s", at, name)
		}
		c.convert(at, ot, syntax.PosOf(a))
		slot := c.newSlot()
		c.emit(OpSetLocal, int32(slot), 0, pos)
		c.emit(OpPop, 0, 0, pos)
		n := fmt.Sprintf("__div%d", slot)
		c.declare(n, &sym{kind: symSlot, t: ot, slot: slot})
		names[i] = &syntax.Name{Pos: pos, Name: n}
	}
	return c.makeVector(rt, []syntax.Expr{
		&syntax.Binary{Pos: pos, Op: "/", X: names[0], Y: names[1]},
		&syntax.Binary{Pos: pos, Op: "%", X: names[0], Y: names[1]},
	}, pos), true
}
