package sem

import (
	"math"
	mbits "math/bits"
)

// Signed integer overflow (issue 15 item 4). Seed 004 §3.2 keeps kcc's
// checks for undefined behaviour, and C11 6.5p5 (C++ [expr]p4) makes an
// arithmetic result outside its type's range undefined; unsigned
// arithmetic is modulo 2^N (C11 6.2.5p9) and is never reported. After
// the usual arithmetic conversions a signed operand is int (32 bits) or
// long/long long (64 bits), so +, - and * of signed operands compile to
// OpAddS/OpSubS/OpMulS with A the width. An overflow is an error (C0611)
// at the operator, once per position; the run goes on with the two's
// complement result, which is what the GPU's add and mul produce.

// intArithOp is the instruction of integer +, - or * in type t.
func intArithOp(op string, t *Type) Op {
	if t.isSigned() && t.size >= 4 {
		switch op {
		case "+":
			return OpAddS
		case "-":
			return OpSubS
		default:
			return OpMulS
		}
	}
	switch op {
	case "+":
		return OpAdd
	case "-":
		return OpSub
	}
	return OpMul
}

// signedArith computes in.Op on x and y, reporting an overflow.
func (m *Machine) signedArith(t *Thread, in *Instr, x, y uint64) uint64 {
	var r uint64
	ovf := false
	if in.A == 32 {
		a, b := int64(int32(x)), int64(int32(y))
		var v int64
		switch in.Op {
		case OpAddS:
			v = a + b
		case OpSubS:
			v = a - b
		default:
			v = a * b
		}
		ovf = v != int64(int32(v))
		r = uint64(v)
	} else {
		a, b := int64(x), int64(y)
		var v int64
		switch in.Op {
		case OpAddS:
			v = a + b
			ovf = (a^v)&(b^v) < 0
		case OpSubS:
			v = a - b
			ovf = (a^b)&(a^v) < 0
		default:
			v = a * b
			hi, lo := mbits.Mul64(uabs(a), uabs(b))
			neg := (a < 0) != (b < 0)
			ovf = hi != 0 || (!neg && lo > math.MaxInt64) || (neg && lo > 1<<63)
		}
		r = uint64(v)
	}
	if ovf {
		m.overflow(t, in, x, y)
	}
	return r
}

// divOverflow reports whether the signed division or remainder in of x by
// -1 overflows (the minimum value of its width; C11 6.5.5p6 makes both
// the quotient and the remainder undefined), and reports it.
func (m *Machine) divOverflow(t *Thread, in *Instr, x uint64) {
	if in.A == 32 && int32(x) == math.MinInt32 || in.A == 64 && int64(x) == math.MinInt64 {
		m.overflow(t, in, x, ^uint64(0))
	}
}

// overflow reports the overflow of in on x and y, once per position.
func (m *Machine) overflow(t *Thread, in *Instr, x, y uint64) {
	if m.ovfSeen[in.P] {
		return
	}
	if m.ovfSeen == nil {
		m.ovfSeen = map[int32]bool{}
	}
	m.ovfSeen[in.P] = true
	op := map[Op]string{OpAddS: "+", OpSubS: "-", OpMulS: "*", OpSDiv: "/", OpSRem: "%"}[in.Op]
	typ := "a 32-bit int"
	sa, sb := int64(int32(x)), int64(int32(y))
	if in.A == 64 {
		typ = "a 64-bit long"
		sa, sb = int64(x), int64(y)
	}
	m.diags.Errorf(m.pos(in.P), "C0611", "signed integer overflow: %d %s %d does not fit in %s (undefined behaviour)%s", sa, op, sb, typ, m.who1(t))
}

func uabs(v int64) uint64 {
	if v < 0 {
		return uint64(-v)
	}
	return uint64(v)
}

// who1 names the thread for a diagnostic (", in thread T of block B").
func (m *Machine) who1(t *Thread) string {
	if t == nil || t.host || t.block == nil {
		return ""
	}
	return " in " + m.who(&seg{agent: t.ctx.agent, clock: t.ctx.clock, block: t.block.id, tid: t.tid})
}
