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
// beyond: one append per plan variable at most), and a frame is not
// reused, so a deferred slab's frame (gridVirt.g) stays as it was.
const (
	gridRTVarsIn = 2
	gridRTAxesIn = 3
)

// gridNoRoom (tests: thgrid_mem_test.go) makes frames and plans as
// before stop 38, each list an allocation of its own.
var gridNoRoom bool

// gridRTMem is a frame with room for a small nest's slices.
type gridRTMem struct {
	g    gridRT
	vars [gridRTVarsIn]gridVarRT
	los  [gridRTAxesIn]int
}

// newGridRT returns a new frame of plan pl in task task, with g.vars
// empty of capacity len(pl.vars) and g.los of length len(pl.axes).
func newGridRT(pl *gridPlan, task int32) *gridRT {
	if gridNoRoom {
		return &gridRT{pl: pl, task: task, vars: make([]gridVarRT, 0, len(pl.vars)), los: make([]int, len(pl.axes))}
	}
	mem := &gridRTMem{g: gridRT{pl: pl, task: task}}
	g := &mem.g
	if nv := len(pl.vars); nv <= gridRTVarsIn {
		g.vars = mem.vars[:0:nv]
	} else {
		g.vars = make([]gridVarRT, 0, nv)
	}
	if na := len(pl.axes); na <= gridRTAxesIn {
		g.los = mem.los[:na:na]
	} else {
		g.los = make([]int, na)
	}
	return g
}
