package syncheck

import "weft.dev/weft/lang/weft/lib"

// instr resolves an instruction name: the file's own @instr (c.instrs)
// shadows the library's, whose table is read in place rather than copied
// into each conversion (issue 13: the copy was about 5% of a small
// kernel's whole `weft check`).
func (c *converter) instr(name string) *lib.Instr {
	if in, ok := c.instrs[name]; ok {
		return in
	}
	return c.lib.Instrs[name]
}
