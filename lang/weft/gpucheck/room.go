package gpucheck

import (
	"weft.dev/weft/lang/weft/coll"
	"weft.dev/weft/lang/weft/syntax"
)

// A small kernel's check takes every array it carves from one room
// (issue 13, stop 35: docs/weft-sync.md "Stop 35: static35"). Check sizes
// each array from countStmts's counts; on the smallest kernels (the empty
// kernel of row e, per_cta_alloc of rows 5-8) those were nine
// allocations of a few elements each, and the device function's, its
// iterator list and the loop bodies' iterator lists three more: a fixed
// cost of every check larger than the walk over the statements. When
// every count fits the room, one allocation holds them all; a larger
// program takes a medium room (stop 36, roommedium.go) or makes each
// array of its own size, as before (a room sized for
// it would be the same bytes in one object, and a room too small for it
// bytes spent for nothing).

// Room capacities: per_cta_alloc (row 5) needs 8 statements, 7 scopes,
// 3 loops (6 iterator slots), 5 bodies, 2 variables and 2 accesses.
const (
	roomStmts     = 8
	roomScopes    = 8
	roomLoops     = 3
	roomIterSlots = 6
	roomBodies    = 5
	roomVars      = 2
	roomAccs      = 3
)

// room holds the state and the arrays of a small program's check (the
// state apart had been one more allocation of every small check; stop
// 37).
type room struct {
	state      checkState
	threads    [roomLoops]coll.ThreadsStore // the loops' tilings (threads.go)
	stmts      [roomStmts]syntax.Stmt
	stmtScopes [roomStmts]*Scope
	bodies     [roomBodies]stmtBody
	scopes     [roomScopes]Scope
	iters      [roomLoops]Iter
	devIters   [roomLoops]*Iter
	iterList   [roomIterSlots]*Iter
	vars       [roomVars]Var
	varPtrs    [roomVars]*Var
	accs       [roomAccs]Access
	accPtrs    [roomAccs]*Access
	roomDev
	syms [roomSyms]coll.Sym // the first units' coordinates (unitEnv.syms)
}

// roomDev is what either room holds besides its arrays: the first
// device function, its tiling and the first units' coordinates.
type roomDev struct {
	dev      Device // the first device function's
	devices  [1]*Device
	devIters []*Iter // the room's array for the first device function's iterators
	devUsed  bool
	devStore coll.DeviceStore // the first device function's tiling
	topUsed  bool
	fn       coll.DeviceFunction // the first device function's launch configuration
	fnUsed   bool
}

// roomSyms is the number of unit coordinates a room holds: per_cta_alloc
// resolves cuda_cta_in_cluster, cuda_thread and 16 * cuda_thread, one
// dimension each (the scaled unit's box is Scaled's own).
const roomSyms = 6

// deviceStore is where a device function's tiling is made: the room's
// for the first device function of a room's check, else nil (its own).
func (c *checker) deviceStore() *coll.DeviceStore {
	if rm := c.room; rm != nil && !rm.topUsed {
		rm.topUsed = true
		return &rm.devStore
	}
	return nil
}

// deviceFnStore is where a device function's launch configuration is
// made: the room's for the first device function of a room's check (a
// configuration that fails to validate leaves it unused by the result,
// so the next one may take it), else nil (its own).
func (c *checker) deviceFnStore() *coll.DeviceFunction {
	if rm := c.room; rm != nil && !rm.fnUsed {
		return &rm.fn
	}
	return nil
}

// roomsOff makes every check make its arrays apart (set by the tests
// that compare the two ways).
var roomsOff bool

// fits reports whether a check of counts k takes its arrays from a room.
func (k *stmtCounts) fits() bool {
	return k.stmts <= roomStmts && k.scopes <= roomScopes && k.loops <= roomLoops && k.iterSlots <= roomIterSlots &&
		k.bodies <= roomBodies && k.vars <= roomVars && k.accesses <= roomAccs
}

// newState returns a check's state: in a new room when the counts k fit
// one (rm), in a new medium room when they fit that (md), else alone.
func newState(k *stmtCounts) (st *checkState, rm *room, md *roomMedium) {
	if k.fits() && !roomsOff {
		rm = new(room)
		return &rm.state, rm, nil
	}
	if k.fitsMedium() && !roomsOff {
		md = new(roomMedium)
		return &md.state, nil, md
	}
	return new(checkState), nil, nil
}

// makeArrays gives c and its result their arrays, sized by k: from the
// room rm or the medium room md when there is one (newState; the
// medium room's arrays: roommedium.go), else each made apart.
func (c *checker) makeArrays(k *stmtCounts, rm *room, md *roomMedium) {
	r := c.res
	if rm != nil {
		c.room, c.roomSyms = &rm.roomDev, rm.syms[:]
		c.threads = rm.threads[:k.loops]
		r.Stmts, r.StmtScopes = rm.stmts[:0:k.stmts], rm.stmtScopes[:0:k.stmts]
		r.Vars, r.Accesses = rm.varPtrs[:0:k.vars], rm.accPtrs[:0:k.accesses]
		r.bodies.list = rm.bodies[:0:k.bodies]
		c.scopes, c.iters, c.iterList = rm.scopes[:0:k.scopes], rm.iters[:0:k.loops], rm.iterList[:0:k.iterSlots]
		c.vars, c.accs = rm.vars[:0:k.vars], rm.accs[:0:k.accesses]
		r.Devices = rm.devices[:0:1]
		rm.roomDev.devIters = rm.devIters[:]
		return
	}
	c.threads = make([]coll.ThreadsStore, k.loops)
	if md != nil {
		c.mediumRoom(k, md)
		return
	}
	n := k.stmts
	r.Stmts, r.StmtScopes = make([]syntax.Stmt, 0, n), make([]*Scope, 0, n)
	r.Vars, r.Accesses = make([]*Var, 0, k.vars), make([]*Access, 0, k.accesses)
	r.bodies.list = make([]stmtBody, 0, k.bodies)
	c.scopes, c.iters, c.iterList = make([]Scope, 0, k.scopes), make([]Iter, 0, k.loops), make([]*Iter, 0, k.iterSlots)
	c.vars, c.accs = make([]Var, 0, k.vars), make([]Access, 0, k.accesses)
}

// newDevice returns a device function's Device with room for iters
// iterators: the room's for the first device function of a room's
// check.
func (c *checker) newDevice(iters int) *Device {
	if rm := c.room; rm != nil && !rm.devUsed {
		rm.devUsed = true
		rm.dev.Iters = rm.devIters[:0:min(iters, len(rm.devIters))]
		return &rm.dev
	}
	return &Device{Iters: make([]*Iter, 0, iters)}
}
