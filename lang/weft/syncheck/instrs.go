package syncheck

import (
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// instr resolves an instruction name: the file's own @instr (c.instrs)
// shadows the library's, whose table is read in place rather than copied
// into each conversion (issue 13: the copy was about 5% of a small
// kernel's whole `weft check`).
//
// The names resolved are remembered, in a list searched in place: a
// kernel calls a few instructions, each many times, and two map lookups
// per call had been a hundredth of shfl_xor's Convert (issue 13, stop
// 35).
//
// distinct reports whether the instruction's parameters have distinct
// names (distinctParams), found with it.
func (c *converter) instr(name string) (in *lib.Instr, distinct bool) {
	for _, n := range c.instrNames {
		if n.name == name {
			return n.in, n.distinct
		}
	}
	in, ok := c.instrs[name]
	if !ok {
		in = c.lib.Instr(name)
	}
	distinct = in != nil && distinctParams(in.Proc.Params)
	if len(c.instrNames) < cap(c.instrNames) {
		c.instrNames = append(c.instrNames, instrName{name, in, distinct})
	}
	return in, distinct
}

// instrName is an instruction name instr resolved.
type instrName struct {
	name     string
	in       *lib.Instr
	distinct bool
}

// distinctParams reports whether no two of ps share a name.
func distinctParams(ps []*syntax.Param) bool {
	for i, p := range ps {
		for _, q := range ps[:i] {
			if p.Name.Name == q.Name.Name {
				return false
			}
		}
	}
	return true
}

// boundAccesses appends to args the data parameters' accesses of in
// with the arguments vals binds them to (vals[i]: parameter i's, nil
// when unbound), in parameter order: the parameters whose name
// in.Access holds, as the static checks name them.
//
// With distinct parameter names (distinct), the accesses in.AccessOrder
// lists, each at its parameter's position (Access.Index), are those:
// lib.ParseInstr makes one per data parameter, in parameter order,
// keyed by that parameter's own name, so no other parameter's name is
// a key and no key was overwritten. A map lookup per parameter had been
// a hundredth of rmem_uniform's Convert (issue 13, stop 43). Otherwise
// each parameter's name is looked up, as before.
func boundAccesses(args []boundArg, in *lib.Instr, distinct bool, vals []syntax.Expr) []boundArg {
	if distinct {
		for _, acc := range in.AccessOrder {
			if i := acc.Index; i < len(vals) && vals[i] != nil {
				args = append(args, boundArg{acc, vals[i]})
			}
		}
		return args
	}
	for i, p := range in.Proc.Params {
		if vals[i] == nil {
			continue
		}
		if acc := in.Access[p.Name.Name]; acc != nil {
			args = append(args, boundArg{acc, vals[i]})
		}
	}
	return args
}
