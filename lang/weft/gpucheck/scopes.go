package gpucheck

import "weft.dev/weft/lang/weft/syntax"

// Every statement's scope is kept in a list parallel to Result.Stmts, in
// walk order, not in a map keyed by the statement (issue 13, stop 35:
// docs/weft-sync.md "Stop 35: static35"). The map was made for every
// check with a slot per statement and hashed an interface key at every
// statement: on an empty kernel (row e) an eighth of the GPU checker,
// on shfl_xor (row 15) 8%. Its readers ask in about the walk order: the
// sync checker's conversion (syncheck, scopeOf) walks the procs as this
// check does and keeps a cursor (ScopeAt), the thread reports walk
// Stmts; the allocation index of the conversion ranges over the list.

// record sets st's scope to s: st is appended with it, or, when st is
// the statement recorded last (a cuda_tasks loop reached again through
// walkUnchecked), its scope is replaced, as the map's assignment did.
// A statement is walked once, so no other earlier entry can hold it.
func (c *checker) record(st syntax.Stmt, s *Scope) {
	r := c.res
	if n := len(r.Stmts); n > 0 && r.Stmts[n-1] == st {
		r.StmtScopes[n-1] = s
		return
	}
	r.Stmts = append(r.Stmts, st)
	r.StmtScopes = append(r.StmtScopes, s)
}

// ScopeOf returns the scope of statement st, or nil when the check did
// not walk st (an @instr proc's body, a statement of another file).
func (r *Result) ScopeOf(st syntax.Stmt) *Scope {
	var cur int
	return r.ScopeAt(st, &cur)
}

// ScopeAt is ScopeOf searching from *cur, wrapping around, and setting
// *cur after the statement found: a caller asking for statements in walk
// order keeps one cursor and compares about once per statement.
func (r *Result) ScopeAt(st syntax.Stmt, cur *int) *Scope {
	list := r.Stmts
	n := len(list)
	i := *cur
	for k := 0; k < n; k++ {
		if i >= n {
			i = 0
		}
		if list[i] == st {
			*cur = i + 1
			return r.StmtScopes[i]
		}
		i++
	}
	return nil
}
