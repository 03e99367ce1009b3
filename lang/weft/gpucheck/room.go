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
	roomBuilt     = 3 // built units (unitEnv.built)
	roomNamed     = 3 // named units (unitEnv.named)
	roomStores    = 3 // loops' tilings (room.threads)
)

// A small room holds fewer variables and accesses than it takes (issue
// 13, stop 46): per_cta_alloc declares one variable and makes one access
// (2 and 3 are its counts' bounds), one more of each is made apart
// (carve), and with them the room holds its third loop's tiling in the
// 6912-byte size class, seven to a span, where the room in the 6528-byte
// class and the tiling apart had been two objects and 512 bytes more.
const (
	roomVarsHeld = 1
	roomAccsHeld = 2
)

// A kernel of one cuda_threads loop takes a room of one loop's arrays
// (roomOne; issue 13, stop 45): a loop's tiling store is 1 KB, and the
// small room's three had been a third of the 9.5 KB of every such
// check, zeroed and never touched.
const (
	oneScopes = 6
	oneBuilt  = 2
	oneNamed  = 2
)

// roomCore is what the two small rooms hold alike: the state (the state
// apart had been one more allocation of every small check; stop 37),
// the arrays that do not grow with the loops, and the device function.
type roomCore struct {
	state      checkState
	stmts      [roomStmts]syntax.Stmt
	stmtScopes [roomStmts]*Scope
	bodies     [roomBodies]stmtBody
	vars       [roomVarsHeld]Var
	varPtrs    [roomVars]*Var
	accs       [roomAccsHeld]Access
	accPtrs    [roomAccs]*Access
	roomDev
	syms [roomSyms]coll.Sym // the first units' coordinates (unitEnv.syms)
}

// room holds the state and the arrays of a small program's check: up to
// roomLoops loops and their tilings (stop 45 had made the third loop's
// apart, threads.go: three had put the room in the 8192-byte size
// class, one object to a span, refilled from the heap at each check;
// the room holds fewer variables and accesses now, stop 46).
type room struct {
	roomCore
	threads  [roomStores]coll.ThreadsStore // the loops' tilings (threads.go)
	scopes   [roomScopes]Scope
	iters    [roomLoops]Iter
	devIters [roomLoops]*Iter
	iterList [roomIterSlots]*Iter
	built    [roomBuilt]builtUnit
	named    [roomNamed]namedDecl
}

// roomOne is a room for a program of one loop at most.
type roomOne struct {
	roomCore
	threads  [1]coll.ThreadsStore
	scopes   [oneScopes]Scope
	iters    [1]Iter
	devIters [1]*Iter
	iterList [1]*Iter
	built    [oneBuilt]builtUnit
	named    [oneNamed]namedDecl
}

// unitArrays are the unit environment's tables of a medium room or of a
// check without a room (the small rooms hold fewer).
type unitArrays struct {
	built  [6]builtUnit
	named  [6]namedDecl
	params [2]paramBuilt
}

// stateAlone is a check's state without a room, with its unit tables.
type stateAlone struct {
	state checkState
	units unitArrays
}

// roomDev is what either room holds besides its arrays: the first
// device function, its tiling and the first units' coordinates.
type roomDev struct {
	dev      Device // the first device function's
	devices  [1]*Device
	devIters []*Iter             // the room's array for the first device function's iterators
	devStore coll.DeviceStore    // the first device function's tiling
	fn       coll.DeviceFunction // the first device function's launch configuration
	// Which of the three are taken (together: a bool after each had
	// been 16 bytes of padding; stop 45).
	devUsed, topUsed, fnUsed bool
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

// fitsOne reports whether a check of counts k, which fits a room, takes
// a room of one loop.
func (k *stmtCounts) fitsOne() bool {
	return k.loops <= 1 && k.scopes <= oneScopes
}

// newState returns a check's state: in a new room of one loop or a new
// room when the counts k fit one (one, rm), in a new medium room when
// they fit that (md), else alone (sa).
func newState(k *stmtCounts) (st *checkState, one *roomOne, rm *room, md *roomMedium, sa *stateAlone) {
	if k.fits() && !roomsOff {
		if k.fitsOne() {
			one = new(roomOne)
			return &one.state, one, nil, nil, nil
		}
		rm = new(room)
		return &rm.state, nil, rm, nil, nil
	}
	if k.fitsMedium() && !roomsOff {
		md = new(roomMedium)
		return &md.state, nil, nil, md, nil
	}
	sa = new(stateAlone)
	return &sa.state, nil, nil, nil, sa
}

// makeArrays gives c, its unit environment and its result their arrays,
// sized by k: from its room (newState; the medium room's: roommedium.go)
// or each made apart; the loops' tilings past a room's are made at the
// first loop that needs one (threads.go).
func (c *checker) makeArrays(k *stmtCounts, one *roomOne, rm *room, md *roomMedium, sa *stateAlone) {
	u := c.units
	switch {
	case one != nil:
		u.built, u.named = one.built[:], one.named[:]
		c.smallRoom(k, &one.roomCore, one.threads[:], one.scopes[:], one.iters[:], one.devIters[:], one.iterList[:])
		return
	case rm != nil:
		u.built, u.named = rm.built[:], rm.named[:]
		c.smallRoom(k, &rm.roomCore, rm.threads[:], rm.scopes[:], rm.iters[:], rm.devIters[:], rm.iterList[:])
		return
	case md != nil:
		c.mediumRoom(k, md)
		return
	}
	u.built, u.named, u.params = sa.units.built[:], sa.units.named[:], sa.units.params[:]
	r := c.res
	c.threadsLeft = k.stores
	n := k.stmts
	r.Stmts, r.StmtScopes = make([]syntax.Stmt, 0, n), make([]*Scope, 0, n)
	r.Vars, r.Accesses = make([]*Var, 0, k.vars), make([]*Access, 0, k.accesses)
	r.bodies.list = make([]stmtBody, 0, k.bodies)
	c.scopes, c.iters, c.iterList = make([]Scope, 0, k.scopes), make([]Iter, 0, k.loops), make([]*Iter, 0, k.iterSlots)
	c.vars, c.accs = make([]Var, 0, k.vars), make([]Access, 0, k.accesses)
}

// smallRoom gives c and its result their arrays from a small room: rc,
// and the arrays that the two small rooms size apart.
func (c *checker) smallRoom(k *stmtCounts, rc *roomCore, threads []coll.ThreadsStore, scopes []Scope, iters []Iter, devIters, iterList []*Iter) {
	r := c.res
	c.room, c.roomSyms = &rc.roomDev, rc.syms[:]
	c.threads = threads[:min(k.loops, len(threads))]
	c.threadsLeft = max(k.stores-len(c.threads), 0)
	r.Stmts, r.StmtScopes = rc.stmts[:0:k.stmts], rc.stmtScopes[:0:k.stmts]
	r.Vars, r.Accesses = rc.varPtrs[:0:k.vars], rc.accPtrs[:0:k.accesses]
	r.bodies.list = rc.bodies[:0:k.bodies]
	c.scopes, c.iters, c.iterList = scopes[:0:k.scopes], iters[:0:k.loops], iterList[:0:k.iterSlots]
	c.vars, c.accs = rc.vars[:0:min(k.vars, len(rc.vars))], rc.accs[:0:min(k.accesses, len(rc.accs))]
	r.Devices = rc.devices[:0:1]
	rc.devIters = devIters
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
