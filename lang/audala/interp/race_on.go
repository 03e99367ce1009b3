//go:build race

package interp

// raceEnabled: under the race detector racing cells are written with
// sync/atomic in both semantics, so that relaxed runs stay report-free.
const raceEnabled = true
