package gpucheck

import (
	"weft.dev/weft/lang/weft/coll"
	"weft.dev/weft/lang/weft/syntax"
)

// A medium room (issue 13, stop 36: docs/weft-sync.md "Stop 36:
// static36"). A check whose counts exceed the small room (room.go) made
// each of its nine arrays apart: on rmem_uniform (rows 9-11: 16
// statements, 10 variables, 14 accesses) those allocations were 3.5 K
// instructions of the checker's 31 K, on shfl_xor (row 15) 4.7 K of
// 75 K. A program up to the medium room's counts (the three-ring rows
// 1-4, rmem_uniform, shfl_xor, the naive GEMM and cp.async rows 12-14)
// takes its arrays from one object of about 10 KB instead; a larger one
// makes them apart as before. Its bytes are up to twice the exact
// arrays' (row 9: about 5 KB made apart), in one allocation instead of
// nine.

// Medium room capacities: shfl_xor needs 23 statements, 16 scopes, 9
// loops (17 iterator slots), 14 bodies, 6 variables, 16 accesses;
// rmem_uniform 17 statements, 11 variables, 14 accesses; the naive GEMM
// 29 statements, 18 scopes, 16 bodies, 14 variables.
const (
	medStmts     = 32
	medScopes    = 20
	medLoops     = 10
	medIterSlots = 20
	medBodies    = 16
	medVars      = 16
	medAccs      = 20
	medSyms      = 16
)

// The medium room holds fewer statements, scopes, variables and
// accesses than a program up to its counts may have (issue 13, stop 45):
// the counts are bounds, and most programs' fall well short of them
// (shfl_xor declares 4 variables and makes 12 accesses). Past these a
// check carves its statements' lists by append and each scope, variable
// and access apart (newScope, carve), as it does past any estimate; the
// arrays held had been 3.3 KB of the room's 13 KB (row 15), 2.7 KB of its
// size class now.
const (
	medStmtsHeld  = 24
	medScopesHeld = 16
	medVarsHeld   = 8
	medAccsHeld   = 14
)

// roomMedium holds the state and the arrays of a medium program's
// check (the state apart had been one more allocation of every medium
// check, 2.6 KB in a 2.7 KB size class; stop 43).
type roomMedium struct {
	state      checkState
	stmts      [medStmtsHeld]syntax.Stmt
	stmtScopes [medStmtsHeld]*Scope
	bodies     [medBodies]stmtBody
	scopes     [medScopesHeld]Scope
	iters      [medLoops]Iter
	devIters   [medLoops]*Iter
	iterList   [medIterSlots]*Iter
	vars       [medVarsHeld]Var
	varPtrs    [medVars]*Var
	accs       [medAccsHeld]Access
	accPtrs    [medAccs]*Access
	roomDev
	syms    [medSyms]coll.Sym
	units   unitArrays
	bindBuf [4]syntax.Expr // the checker's (bindArgs)
}

// fitsMedium reports whether a check of counts k takes its arrays from
// a medium room.
func (k *stmtCounts) fitsMedium() bool {
	return k.stmts <= medStmts && k.scopes <= medScopes && k.loops <= medLoops && k.iterSlots <= medIterSlots &&
		k.bodies <= medBodies && k.vars <= medVars && k.accesses <= medAccs
}

// mediumRoom gives c, its unit environment and its result their arrays
// from the medium room rm (newState), which holds c. It holds fewer
// statements, scopes, variables and accesses than it takes
// (medStmtsHeld...).
func (c *checker) mediumRoom(k *stmtCounts, rm *roomMedium) {
	r := c.res
	u := c.units
	u.built, u.named, u.params = rm.units.built[:], rm.units.named[:], rm.units.params[:]
	c.room, c.roomSyms = &rm.roomDev, rm.syms[:]
	c.bindBuf = &rm.bindBuf
	c.threadsLeft = k.stores
	ns := min(k.stmts, len(rm.stmts))
	r.Stmts, r.StmtScopes = rm.stmts[:0:ns], rm.stmtScopes[:0:ns]
	r.Vars, r.Accesses = rm.varPtrs[:0:k.vars], rm.accPtrs[:0:k.accesses]
	r.bodies.list = rm.bodies[:0:k.bodies]
	c.scopes, c.iters, c.iterList = rm.scopes[:0:min(k.scopes, len(rm.scopes))], rm.iters[:0:k.loops], rm.iterList[:0:k.iterSlots]
	c.vars, c.accs = rm.vars[:0:min(k.vars, len(rm.vars))], rm.accs[:0:min(k.accesses, len(rm.accs))]
	r.Devices = rm.devices[:0:1]
	rm.roomDev.devIters = rm.devIters[:]
}
