package amir

// HWNoStale turns hwStaleOK off (true) or on (false) and returns the
// count of checks it passes from now on, for TestHWStaleMatchesReplayed.
func HWNoStale(off bool) *int {
	n := new(int)
	hwNoStale = off
	if off {
		hwStaleHit = nil
		return n
	}
	hwStaleHit = func() { *n++ }
	return n
}
