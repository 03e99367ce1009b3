package amir

// finRoom is the room a small program's Finish needs, in one object: the
// finisher, the per-variable counts and flags, the first g_s caches, the
// thread planner with the first chunks of its scratch lists, the task
// slots and the loops' inner slots had been about fifteen allocations of
// each Finish, most of a few dozen bytes (issue 13, stop 34: conv34;
// per_cta_alloc's Finish made 28 objects). A program that outgrows a
// piece allocates as before. The counts, the caches, the task and inner
// slots live as long as the Program, as the allocations they replace did.
type finRoom struct {
	f      finisher
	th     thPlanner
	cnt    [2 * finVars]int32
	flags  [finVars]uint8
	self   [finVars]selfVar
	keys   [8]gsKey
	caches [8]*gsCache
	gs     [8]gsCache // the finisher's first chunk (cache)
	tasks  [2]int
	taskF  [2]taskFacts
	// ints backs the loops' inner slots (finishLoops), hoist, gsPtrs
	// and gsPlans their hoisted accesses and g_s plans (hoistTargets,
	// hoistGSTargets), each taken in order.
	ints    []int
	intA    [4]int
	hoist   []hoistState
	hoistA  [1]hoistState
	gsPtrs  []*gsPlan
	gsPtrA  [2]*gsPlan
	gsPlans []gsPlan
	gsPlanA [2]gsPlan
	// The thread planner's scratch (thPlanner, thPlan); each owned
	// entry's accesses have a chunk of their own (walk reuses them).
	loops   [4]*Stmt
	privN   [4]int32
	scope   [4]int
	shapes  [4]int
	owned   [2]thOwned
	ownAccs [2][4]*Access
	bars    [4]int
	accs    [4]*Access
	pins    [2]thPin
	private [4]int
	yconds  [2]*Stmt
	accDim  [4]int
}

// finVars is the most variables whose counts, flags and self-check facts
// the room holds: 6, not 16 (issue 13, stop 45: the small kernels
// measured have 1 to 6; the other 10 had been 400 bytes zeroed a check).
// With the inner slots' first 4 ints, not 16, and the planner's zero
// environment shared (zeroEnv), the room is 2 288 bytes, a 2 304-byte
// size class with its malloc header, not 3 456.
const finVars = 6

// zeroEnv is the planner's environment of constant bounds (thPlanner.zero)
// for a program of up to len(zeroEnv) slots: all zeros, never written
// (IntExpr and BoolExpr only read their environment), so one array
// serves every Finish (issue 13, stop 45: 64 bytes of the room).
var zeroEnv [16]int

// newFinRoom returns the room of a Finish of p.
func newFinRoom(p *Program) *finRoom {
	r := new(finRoom)
	r.ints, r.hoist, r.gsPtrs, r.gsPlans = r.intA[:], r.hoistA[:], r.gsPtrA[:], r.gsPlanA[:]
	th := &r.th
	th.loops, th.privN, th.scope, th.accDim = r.loops[:0], r.privN[:0], r.scope[:0], r.accDim[:0]
	if len(p.Slots) <= len(zeroEnv) {
		th.zero = zeroEnv[:len(p.Slots):len(p.Slots)]
	}
	pl := &th.pl
	pl.shapes, pl.bars, pl.accs = r.shapes[:0], r.bars[:0], r.accs[:0]
	pl.pins, pl.private, pl.yconds = r.pins[:0], r.private[:0], r.yconds[:0]
	for i := range r.owned {
		r.owned[i].accs = r.ownAccs[i][:0]
	}
	pl.owned = r.owned[:0]
	return r
}

// intsOf returns an empty slice of capacity n from the room's ints, or a
// new one when they are used up.
func (r *finRoom) intsOf(n int) []int {
	if n <= len(r.ints) {
		s := r.ints[:0:n]
		r.ints = r.ints[n:]
		return s
	}
	return make([]int, 0, n)
}
