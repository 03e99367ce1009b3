package syncheck

import "weft.dev/weft/lang/weft/lib"

// instr resolves an instruction name: the file's own @instr (c.instrs)
// shadows the library's, whose table is read in place rather than copied
// into each conversion (issue 13: the copy was about 5% of a small
// kernel's whole `weft check`).
//
// The names resolved are remembered, in a list searched in place: a
// kernel calls a few instructions, each many times, and two map lookups
// per call had been a hundredth of shfl_xor's Convert (issue 13, stop
// 35).
func (c *converter) instr(name string) *lib.Instr {
	for _, n := range c.instrNames {
		if n.name == name {
			return n.in
		}
	}
	in, ok := c.instrs[name]
	if !ok {
		in = c.lib.Instrs[name]
	}
	if len(c.instrNames) < cap(c.instrNames) {
		c.instrNames = append(c.instrNames, instrName{name, in})
	}
	return in
}

// instrName is an instruction name instr resolved.
type instrName struct {
	name string
	in   *lib.Instr
}
