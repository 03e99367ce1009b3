package amir

// A grid entry's frame in one allocation (issue 13, stop 38: grid38).
//
// gridTry made three objects at every entry: the frame (gridRT), its
// variables (gridVarRT, by plan variable) and the axes' first values,
// the last two sized by the plan. shfl_xor enters its three nests four
// times each: 36 objects a check, 8 KB. A nest of at most
// gridRTVarsIn variables and gridRTAxesIn axes (every nest of the
// benchmark's rows) now has them inside the frame's own allocation; a
// larger one allocates the slices as before. Only where the slices'
// backing arrays live changes: their lengths, capacities and contents
// are what gridTry made (g.vars is appended to up to len(pl.vars), never
// beyond: one append per plan variable at most).
//
// Stop 47 (issue 13): a frame no deferred slab holds (gridVirt.g: the
// only reference to a frame past its loop; kept marks those gridVirtAdd
// made) is its nest's next entry's, set as newGridRT sets a new one, when its
// slices have room (shfl_xor: 6 of its 12 frames a check, 704 bytes
// each). Its loop is over (loopExit), nothing reads it again, and every
// field is set anew: g.vars' entries are written whole before they are
// read (gridTry), g.los is cleared. A deferred slab's frame is never
// reused, so it stays as it was. TestGridReuseSame.
const (
	gridRTVarsIn = 2
	gridRTAxesIn = 3
)

// gridNoRoom (tests: thgrid_mem_test.go) makes frames and plans as
// before stop 38, each list an allocation of its own; gridNoReuse (tests)
// makes every frame anew (before stop 47).
var gridNoRoom, gridNoReuse bool

// gridReuseCheck (tests) counts the frames reused in gridReused.
var (
	gridReuseCheck bool
	gridReused     int64
)

// gridRTMem is a frame with room for a small nest's slices.
type gridRTMem struct {
	g    gridRT
	vars [gridRTVarsIn]gridVarRT
	los  [gridRTAxesIn]int
}

// newGridRT returns a new frame of plan pl in task task, with g.vars
// empty of capacity len(pl.vars) and g.los of length len(pl.axes).
func newGridRT(nest *gridNest, pl *gridPlan, task int32) *gridRT {
	nv, na := len(pl.vars), len(pl.axes)
	if g := nest.spare; g != nil && cap(g.vars) >= nv && cap(g.los) >= na {
		nest.spare = nil
		if gridReuseCheck {
			gridReused++
		}
		vars, los := g.vars[:0:nv], g.los[:na:na]
		clear(los)
		*g = gridRT{pl: pl, task: task, nest: nest, vars: vars, los: los}
		return g
	}
	if gridNoRoom {
		return &gridRT{pl: pl, task: task, nest: nest, vars: make([]gridVarRT, 0, len(pl.vars)), los: make([]int, len(pl.axes))}
	}
	mem := &gridRTMem{g: gridRT{pl: pl, task: task, nest: nest}}
	g := &mem.g
	if nv <= gridRTVarsIn {
		g.vars = mem.vars[:0:nv]
	} else {
		g.vars = make([]gridVarRT, 0, nv)
	}
	if na <= gridRTAxesIn {
		g.los = mem.los[:na:na]
	} else {
		g.los = make([]int, na)
	}
	return g
}

// gridFree makes frame g, whose loop is over, the next entry's unless a
// deferred slab holds it.
func gridFree(g *gridRT) {
	if !g.kept && !gridNoReuse {
		g.nest.spare = g
	}
}
