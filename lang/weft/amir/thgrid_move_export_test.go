package amir

// GridMoveTest sets the grid entries' layout moves of every machine made
// after it (thgrid_move.go): off makes every layout from scratch; verify
// makes it beside each moved one too. It returns the counters of moved
// layouts and of moved layouts that differ. For TestGridMoveRepo.
func GridMoveTest(off, verify bool) (moved, bad *int64) {
	gridMoveOff, gridMoveCheck = off, verify
	gridMoveCount, gridMoveBadCount = 0, 0
	return &gridMoveCount, &gridMoveBadCount
}
