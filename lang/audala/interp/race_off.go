//go:build !race

package interp

// raceEnabled is false without the race detector (see race_on.go).
const raceEnabled = false
