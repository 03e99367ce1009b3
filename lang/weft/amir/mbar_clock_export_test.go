package amir

// HWNoClock turns the ordered-after clocks off (true) or on (false) and
// returns the count of checks they answer from now on, for
// TestHWClockMatchesReplayed and TestHWClockRingsRandom.
func HWNoClock(off bool) *int {
	n := new(int)
	hwNoClock = off
	if off {
		hwClockHit = nil
		return n
	}
	hwClockHit = func() { *n++ }
	return n
}
