package amir

// RoundSkip turns the whole-round skip (round_skip.go) on or off and
// returns the count of rounds it skipped so far (all machines).
func RoundSkip(on bool) int64 {
	hwNoSkip = !on
	return roundSkips
}
