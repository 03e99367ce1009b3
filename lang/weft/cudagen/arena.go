package cudagen

import "weft.dev/weft/cuda"

// The generator's small objects of one Generate are carved from chunks
// (issue 13, stop 32): a sym per declaration, loop iterator and task
// variable had been an allocation each, a fifth of the objects of weft
// check's CheckOnly pass on small kernels. They live as long as the
// Generate, as newScope's scopes do.

// symChunk is the number of syms carved from one array: a small kernel
// declares a few (its task variables twice, an iterator per cuda_threads
// loop, an allocation or two).
const symChunk = 4

// newSym returns a copy of v carved from g.symBuf.
func (g *gen) newSym(v sym) *sym {
	if len(g.symBuf) == 0 {
		g.symBuf = make([]sym, symChunk)
	}
	p := &g.symBuf[0]
	g.symBuf = g.symBuf[1:]
	*p = v
	return p
}

// cIdent is cuda.Ident(name), the C name of a declaration, in a pass that
// formats text, and "" in one that formats none (Options.CheckOnly, and
// the first pass of weft build, which learns facts): the C name of a
// device declaration is read only into text, and making it (a scan for
// invalid characters and a lookup of C's reserved words) was a tenth of
// the CheckOnly pass on small kernels (issue 13, stop 32). textAlways
// (TestInstrCheckMatchesFill) makes the names as before.
func (g *gen) cIdent(name string) string {
	if g.discard && !textAlways {
		return ""
	}
	return cuda.Ident(name)
}
