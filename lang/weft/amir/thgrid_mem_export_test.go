package amir

import "fmt"

// GridNoRoomTest sets gridNoRoom (thgrid_mem.go): frames and plans made
// as before stop 38, each list an allocation of its own. For
// TestGridRoomRepo.
func GridNoRoomTest(on bool) { gridNoRoom = on }

// GridWalkRun runs p and returns its Result and its grid plans' variables
// with their sources and checks (gridWalkMem: plan_grid_mem.go), and
// whether some plan had more variables or a variable more sources or
// checks than the walk's room holds.
func GridWalkRun(p *Program) (res, lists string, past bool) {
	res = fmt.Sprintf("%+v", *New(p, Config{MaxHazards: 100}).Run(nil))
	Walk(p.Body, func(s *Stmt) {
		if s.Kind != KLoop || s.Ctl == nil || s.grid == nil || s.grid.lazy {
			return
		}
		vars := s.grid.vars
		past = past || len(vars) > gridWalkVars
		for _, gv := range vars {
			lists += fmt.Sprintf("%d %v %v; ", gv.v, gv.srcs, gv.checks)
			past = past || len(gv.srcs) > gridWalkLists || len(gv.checks) > gridWalkLists
		}
		lists += "\n"
	})
	return res, lists, past
}
