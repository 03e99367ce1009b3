package amir

// GridNoRoomTest sets gridNoRoom (thgrid_mem.go): frames and plans made
// as before stop 38, each list an allocation of its own. For
// TestGridRoomRepo.
func GridNoRoomTest(on bool) { gridNoRoom = on }
