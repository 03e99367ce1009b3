package amir

// A grid plan in one allocation (issue 13, stop 38: grid38).
//
// planGridMode built a plan's lists by appending to nil slices or to
// slices made with room for four (the starts and shapes, the axes and
// their steps, the box accesses' variables, the variables, the box's
// ranges), then copied the plan out: eight objects a block plan
// (shfl_xor plans its three nests at their first entries: 24 of a
// check's objects). The plan is now made first, with room for a small
// nest's lists but the variables' (gridPlanMem), and they are built in
// it: only where their backing arrays live changes, their contents are
// the ones built, and a list longer than its room grows on the heap as
// before. Every list is capped at its length when the plan holds (keep),
// so a later append (none is made after planning) would copy rather
// than write past it. The variables (480 bytes for four) are made where
// they were, after the refusals that need no walk: a plan refused before
// then costs the plan's 384 bytes, where it had cost a few small lists.
// The box's accesses stay apart: the box is a heap object of its own
// (liteBox). Building the lists in room on the stack and copying them
// out does not work: the planners' methods append to the plan through
// its pointer, which escape analysis takes for a heap store.
const (
	gridRoomExecs = 2 // starts and shapes
	gridRoomAxes  = 2 // axes and steps
	gridRoomAccs  = 4 // box accesses' variables
	gridRoomLoops = 4 // the box's ranges: two a loop
)

// gridPlanRoom is the room a plan's lists are built in.
type gridPlanRoom struct {
	execs  [gridRoomExecs]gridExec
	shapes [gridRoomExecs]int
	axes   [gridRoomAxes]*Stmt
	steps  [gridRoomAxes]int
	accVar [gridRoomAccs]int
	rng    [2 * gridRoomLoops]int
}

// gridPlanMem is a plan, the room its lists are built in and its box
// (issue 13, stop 46: the box had been an allocation of its own, three
// of shfl_xor's a check).
type gridPlanMem struct {
	pl   gridPlan
	room gridPlanRoom
	box  liteBoxMem
}

// keep caps the plan's lists at their lengths and makes its box's ranges
// (two a loop, in the room when they fit).
func (mem *gridPlanMem) keep() {
	g := &mem.pl
	g.execs = g.execs[:len(g.execs):len(g.execs)]
	g.shapes = g.shapes[:len(g.shapes):len(g.shapes)]
	g.axes = g.axes[:len(g.axes):len(g.axes)]
	g.steps = g.steps[:len(g.steps):len(g.steps)]
	g.accVar = g.accVar[:len(g.accVar):len(g.accVar)]
	g.vars = g.vars[:len(g.vars):len(g.vars)]
	b := g.box
	if n := 2 * len(b.loops); n <= len(mem.room.rng) && !gridNoRoom {
		b.rng = mem.room.rng[:n:n]
	} else {
		b.rng = make([]int, n)
	}
}

// gridWalkMem is the room of a plan's walk of its nest's accesses (issue
// 13, stop 46): the box's accesses, their arrays (boxArena), the
// variables and each of the first gridWalkVars variables' first
// gridWalkLists sources and checks, one allocation made when the walk
// starts, as the accesses', the variables' lists and the arena had been
// (the sources' and checks' growth had been 7 of shfl_xor's allocations
// a check, the three lists 6 more). A list longer than its room grows on
// the heap as before (append), a variable past the room starts empty.
type gridWalkMem struct {
	accs   [4]boxAcc
	vars   [gridWalkVars]gridVar
	srcs   [gridWalkVars * gridWalkLists]int32
	checks [gridWalkVars * gridWalkLists]gridCheck
	ar     boxArena
}

const (
	gridWalkVars  = 4
	gridWalkLists = 4
)

// varRoom gives plan variable i (gv) its sources' and checks' room, if
// it has some (none when wm is nil: gridNoRoom).
func (wm *gridWalkMem) varRoom(gv *gridVar, i int) {
	if wm == nil || i >= gridWalkVars {
		return
	}
	k := i * gridWalkLists
	gv.srcs = wm.srcs[k : k : k+gridWalkLists]
	gv.checks = wm.checks[k : k : k+gridWalkLists]
}
