package gpucheck

import (
	"strconv"

	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// The collective unit of one instruction call (seed 002: an instruction
// "must be executed with" its unit, which may name the call's constant
// size arguments: cuda_shfl_xor_sync_1f32's `2 *
// cuda_threads_strided(1, laneMask)`) is the instruction's unit with
// those arguments' values substituted, as lib.(*Instr).UnitFor makes it.
// UnitFor allocates a set of the parameters, a closure and a copy of the
// expression for every call, though resolve reads the expression only
// while it resolves it (its messages are formatted at once, its units
// carry names built from values, not syntax): two of a shfl_xor check's
// 4 calls spent 1.9 K instructions each there (issue 13, stop 35).
//
// unitFor is UnitFor without them: an expression that names no size
// parameter with a value is the instruction's own (UnitFor's copy is
// equal to it node for node, and resolve reads nothing else), and a
// substituted one is built in scratch nodes reused by the next call of
// the check (valid until then). TestUnitForMatchesLib compares the two
// through resolve, messages included.

// unitScratch holds the nodes of one substituted unit expression.
type unitScratch struct {
	bins               [4]syntax.Binary
	uns                [2]syntax.Unary
	calls              [2]syntax.Call
	lits               [4]syntax.IntLit
	args               [8]syntax.Expr
	nb, nu, nc, nl, na int
}

// unitFor is in.UnitFor(val) for resolve (above): nil when in has no unit.
func (c *checker) unitFor(in *lib.Instr, val func(param string) (int64, bool)) syntax.Expr {
	if in.Unit == nil {
		return nil
	}
	if !substitutes(in, in.Unit, val) {
		return in.Unit
	}
	if c.scratch == nil {
		c.scratch = new(unitScratch)
	}
	s := c.scratch
	s.nb, s.nu, s.nc, s.nl, s.na = 0, 0, 0, 0, 0
	return s.sub(in, in.Unit, val)
}

// sizeParam reports whether name is a scalar size or index parameter of
// in (the parameters UnitFor substitutes).
func sizeParam(in *lib.Instr, name string) bool {
	for _, p := range in.Proc.Params {
		if p.Name.Name == name && p.Type != nil && p.Type.Elem != nil && (p.Type.Elem.Name == "size" || p.Type.Elem.Name == "index") && p.Type.Dims == nil {
			return true
		}
	}
	return false
}

// substitutes reports whether UnitFor would replace a name in e: one in
// the places its substitution reaches (binary and unary operands, call
// arguments) that is a size parameter with a value.
func substitutes(in *lib.Instr, e syntax.Expr, val func(string) (int64, bool)) bool {
	switch e := e.(type) {
	case *syntax.Name:
		if sizeParam(in, e.Name) {
			_, ok := val(e.Name)
			return ok
		}
	case *syntax.Binary:
		return substitutes(in, e.X, val) || substitutes(in, e.Y, val)
	case *syntax.Unary:
		return substitutes(in, e.X, val)
	case *syntax.Call:
		for _, a := range e.Args {
			if substitutes(in, a, val) {
				return true
			}
		}
	}
	return false
}

// sub is UnitFor's substitution, its new nodes from s where they fit.
func (s *unitScratch) sub(in *lib.Instr, e syntax.Expr, val func(string) (int64, bool)) syntax.Expr {
	switch e := e.(type) {
	case *syntax.Name:
		if sizeParam(in, e.Name) {
			if v, ok := val(e.Name); ok {
				var l *syntax.IntLit
				if s.nl < len(s.lits) {
					l = &s.lits[s.nl]
					s.nl++
				} else {
					l = new(syntax.IntLit)
				}
				*l = syntax.IntLit{Text: strconv.FormatInt(v, 10), Value: v}
				return l
			}
		}
	case *syntax.Binary:
		var b *syntax.Binary
		if s.nb < len(s.bins) {
			b = &s.bins[s.nb]
			s.nb++
		} else {
			b = new(syntax.Binary)
		}
		*b = syntax.Binary{Op: e.Op, X: s.sub(in, e.X, val), Y: s.sub(in, e.Y, val)}
		return b
	case *syntax.Unary:
		var u *syntax.Unary
		if s.nu < len(s.uns) {
			u = &s.uns[s.nu]
			s.nu++
		} else {
			u = new(syntax.Unary)
		}
		*u = syntax.Unary{Op: e.Op, X: s.sub(in, e.X, val)}
		return u
	case *syntax.Call:
		var c *syntax.Call
		if s.nc < len(s.calls) {
			c = &s.calls[s.nc]
			s.nc++
		} else {
			c = new(syntax.Call)
		}
		*c = *e
		n := len(e.Args)
		if s.na+n <= len(s.args) {
			c.Args = s.args[s.na : s.na+n : s.na+n]
			s.na += n
		} else {
			c.Args = make([]syntax.Expr, n)
		}
		for i, a := range e.Args {
			c.Args[i] = s.sub(in, a, val)
		}
		return c
	}
	return e
}
