package gcpolicy

import (
	"runtime"
	"runtime/metrics"
	"sync"
)

// heapSamples are what Between reads: the bytes of heap objects (live, and
// dead ones not yet swept), the heap goal, and the live heap the last
// collection marked.
var heapSamples = []metrics.Sample{
	{Name: "/memory/classes/heap/objects:bytes"},
	{Name: "/gc/heap/goal:bytes"},
	{Name: "/gc/heap/live:bytes"},
}

// lastInUse is the heap in use at the previous reading; growth is how much
// a check added to it, on average over the checks since that reading (0
// until known); skip is how many further calls may pass without a reading.
// mu guards Between's state: a process may run checks from several
// goroutines (the weft command runs one; an embedding may run more).
var (
	mu                sync.Mutex
	lastInUse, growth uint64
	skip, since       uint64
	// reads counts the readings, for the tests.
	reads int
)

// Between is called by a process that runs many checks, at the start of
// each (the weft driver's check verb): it collects now, synchronously,
// when the check about to run would likely reach the heap goal and so
// start a collection in its middle.
//
// Why (issue 13, docs/weft-sync.md "Stop 36: the collector between
// checks"): with one P the runtime's concurrent collection gives its mark
// worker a quarter of the CPU, so a cycle stays open for several
// milliseconds, tens of small checks; while it is open every pointer
// store goes through the write barrier and every allocation is born
// marked, and the memory allocated during the cycle survives it, which
// inflates the next cycle's marking and the heap the checks cycle
// through (21 -> 60 MB on per_cta_alloc, against 0.87 MB live). Measured
// in time, not instructions: row 5's median went 42 -> 31 us and the
// total CPU of 4 000 checks fell by a quarter, while cachegrind's count
// did not move (the cost was memory out of cache and the barrier). A collection between checks has no mutator
// beside it: the mark worker gets the whole CPU and finishes in a fraction
// of a millisecond, and the check that follows runs with the barrier off.
//
// Only in small mode: in large mode (a live heap above LargeLive) a check
// allocates far more than a check's boundary can foresee, and the runtime's
// own pacing is the right one. Nothing when the policy is not in force
// (GOGC or GOMEMLIMIT set by the user).
func Between() {
	if !applied.Load() || large.Load() {
		return
	}
	mu.Lock()
	defer mu.Unlock()
	since++
	if skip > 0 {
		// Far from the trigger at the last reading: reading the runtime's
		// metrics (about 0.6 us) on every call would cost a small check
		// 2% (stop 36).
		skip--
		return
	}
	inUse, trigger := readHeap()
	if lastInUse != 0 && inUse > lastInUse {
		growth = (inUse - lastInUse) / since
	}
	since = 0
	// Twice a check's growth: room for a check somewhat larger than the
	// last ones.
	if growth != 0 && inUse+2*growth >= trigger {
		runtime.GC()
		inUse, trigger = readHeap()
	}
	lastInUse = inUse
	// The next reading comes after a quarter of the checks of the last
	// one's size that still fit below the trigger: a run of checks up to
	// four times larger than the last still finds room when it is read
	// (and a larger one is collected by the runtime's own cycle, as
	// without Between).
	if growth != 0 && inUse < trigger {
		skip = (trigger - inUse) / growth / 4
	}
}

// readHeap returns the heap in use and the earliest heap size at which the
// runtime may start its next cycle. The runtime starts a cycle before the
// goal: its trigger lies between 70% and 95% of the way from the heap the
// last cycle marked to the goal (Go's pacer, runtime/mgcpacer.go:
// minTriggerFrac and maxTriggerFrac), so the 70% point is the bound.
func readHeap() (inUse, trigger uint64) {
	reads++
	metrics.Read(heapSamples)
	inUse, goal, marked := heapSamples[0].Value.Uint64(), heapSamples[1].Value.Uint64(), heapSamples[2].Value.Uint64()
	if goal <= marked {
		return inUse, goal
	}
	return inUse, marked + (goal-marked)*7/10
}
